"""Actions: small immutable values with a one-line text notation.

An action is a tuple of words, e.g. ``("visit", "hq", "becky", "grey=yellow")``
written ``visit hq becky grey=yellow``. Tuples are hashable, compare by value,
cost little to build (the engine lists thousands a second) and turn into the
notation stored in game records and journals without any schema.
"""

from rules.colours import INDEX
from rules.errors import MalformedAction


class Action(tuple):
    """One player input or table correction, in the engine's vocabulary."""

    __slots__ = ()

    def __new__(cls, *words: str) -> "Action":
        return super().__new__(cls, words)

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


def arity(action: Action, n: int) -> None:
    """Refuse an action that does not have exactly ``n`` words."""
    if len(action) != n:
        raise MalformedAction("action.bad_arguments", action=str(action))


def colour_word(word: str) -> int:
    """The colour index of a colour's name; anything else is malformed."""
    if word not in INDEX:
        raise MalformedAction("action.unknown_colour", colour=word)
    return INDEX[word]
