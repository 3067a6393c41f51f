"""Actions: small immutable values with a one-line text notation.

An action is a tuple of words, e.g. ``("visit", "hq", "becky", "grey=yellow")``
written ``visit hq becky grey=yellow``. Tuples are hashable, compare by value,
cost little to build (the engine lists thousands a second) and turn into the
notation stored in game records and journals without any schema.
"""

from functools import cache

from rules.colours import INDEX
from rules.errors import IllegalAction, MalformedAction


class Action(tuple):
    """One player input or table correction, in the engine's vocabulary."""

    __slots__ = ()

    def __new__(cls, *words: str) -> "Action":
        return tuple.__new__(cls, words)

    @classmethod
    def parse(cls, notation: str) -> "Action":
        """Read the notation; any shape problem is a ``MalformedAction``."""
        if not isinstance(notation, str):
            raise MalformedAction("action.not_text", given=repr(notation))
        words = notation.split()
        if not words:
            raise MalformedAction("action.empty")
        return cls(*words)

    @property
    def verb(self) -> str:
        return self[0]

    def __str__(self) -> str:
        return " ".join(self)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


@cache
def listed(*words: str) -> Action:
    """``Action(*words)``, made once and then shared.

    Listing legal actions names the same few actions step after step (a step to a tile,
    a block, an exchange, a card bought with a given payment); a shared one costs a
    lookup instead of a new tuple. Only for words of the game's own vocabulary
    (locations, cards, colours, counts), so the cache stays as small as that vocabulary.
    """
    return Action(*words)


def arity(action: Action, n: int) -> None:
    """Refuse an action that does not have exactly ``n`` words."""
    if len(action) != n:
        raise MalformedAction("action.bad_arguments", action=str(action))


def colour_word(word: str) -> int:
    """The colour index of a colour's name; anything else is malformed."""
    if word not in INDEX:
        raise MalformedAction("action.unknown_colour", colour=word)
    return INDEX[word]


def dispatch(handlers: dict, phase: str, action: "Action | str"):
    """The parsed action and its handler: an unknown verb is malformed; after the end
    of a game only corrections are accepted."""
    if isinstance(action, str):
        action = Action.parse(action)
    handler = handlers.get(action.verb)
    if handler is None:
        raise MalformedAction("action.unknown_verb", verb=action.verb)
    if phase == "over" and action.verb != "correct":
        raise IllegalAction("illegal.game_over")
    return action, handler
