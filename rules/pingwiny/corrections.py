"""``correct`` actions: the players tell the app what the real table shows.

When the model and the table disagree (a token put on the wrong tile, a card
named wrongly, a figurant recorded for the wrong player), a correction moves
one thing in the model. Every correction keeps the totals (tokens, cards,
missions) as they were, so the game's invariants still hold; it is journaled
and replayed like any move, and never checked against the turn order.

    correct token COLOUR FROM TO      places: bag, box, board, p1..p4
    correct faceup SPACE CARD         the card really in face-up space 1..n
    correct owner CARD pN             a figurant belongs to another player
    correct mission MISSION PLACE     place: board or pN
    correct penguin pN PENGUIN        the penguin card player N really has
"""

from rules.actions import Action, arity, colour_word
from rules.errors import IllegalAction, MalformedAction
from rules.numbers import seat, whole
from rules.pingwiny.dealing import deck_checked
from rules.pingwiny.state import State, add, set_player


def correct(s: State, a: Action, cards, events: list[dict]) -> None:
    """Apply one correction to the working copy ``s``."""
    if len(a) < 2 or a[1] not in _KINDS:
        raise MalformedAction("action.bad_correction", action=str(a))
    _KINDS[a[1]](s, a, cards)
    events.append({"event": "corrected", "action": str(a)})
    deck_checked(s, events)


def _player(s: State, word: str) -> int | None:
    n = seat(word)
    return n - 1 if n is not None and 1 <= n <= len(s.players) else None


def _tokens(s: State, place: str) -> tuple:
    if place in ("bag", "box", "board"):
        return getattr(s, place)
    p = _player(s, place)
    if p is None:
        raise MalformedAction("action.unknown_place", place=place)
    return s.players[p].tokens


def _set_tokens(s: State, place: str, counts: tuple) -> None:
    if place in ("bag", "box", "board"):
        setattr(s, place, counts)
    else:
        set_player(s, _player(s, place), tokens=counts)


def _token(s: State, a: Action, cards) -> None:
    arity(a, 5)
    c, source, target = colour_word(a[2]), a[3], a[4]
    if not _tokens(s, source)[c]:
        raise IllegalAction("illegal.correct_nothing_there", place=source, colour=a[2])
    _tokens(s, target)  # refuses an unknown place before anything moves
    _set_tokens(s, source, add(_tokens(s, source), c, -1))
    _set_tokens(s, target, add(_tokens(s, target), c))


def _faceup(s: State, a: Action, cards) -> None:
    arity(a, 4)
    place = whole(a[2])
    if place is None or not 1 <= place <= len(s.faceup):
        raise MalformedAction("action.unknown_place", place=a[2])
    slot, card = place - 1, a[3]
    group = next((i for i, g in enumerate(s.deck) if card in g), None)
    if group is None:
        raise IllegalAction("illegal.correct_not_in_deck", card=card)
    old = s.faceup[slot]
    members = tuple(old if c == card else c for c in s.deck[group] if old or c != card)
    deck = list(s.deck)
    deck[group] = members
    s.deck = tuple(g for g in deck if g)
    s.faceup = s.faceup[:slot] + (card,) + s.faceup[slot + 1 :]
    s.pending = tuple(p for p in s.pending if p != slot)


def _owner(s: State, a: Action, cards) -> None:
    arity(a, 4)
    card, target = a[2], _player(s, a[3])
    if target is None:
        raise MalformedAction("action.unknown_place", place=a[3])
    owner = next((i for i, p in enumerate(s.players) if card in p.figurants), None)
    if owner is None:
        raise IllegalAction("illegal.correct_not_owned", card=card)
    set_player(s, owner, figurants=tuple(f for f in s.players[owner].figurants if f != card))
    set_player(s, target, figurants=s.players[target].figurants + (card,))


def _mission(s: State, a: Action, cards) -> None:
    arity(a, 4)
    mission, place = a[2], a[3]
    target = _player(s, place)
    if place != "board" and target is None:
        raise MalformedAction("action.unknown_place", place=place)
    holder = next((i for i, p in enumerate(s.players) if p.mission == mission), None)
    if holder is None and mission not in s.missions:
        raise IllegalAction("illegal.correct_not_in_play", card=mission)
    if target is not None and s.players[target].mission not in (None, mission):
        raise IllegalAction("illegal.correct_mission_held", player=place)
    if holder is not None:
        set_player(s, holder, mission=None)
    else:
        s.missions = tuple(m for m in s.missions if m != mission)
    if target is None:
        s.missions += (mission,)
    else:
        set_player(s, target, mission=mission)


def _penguin(s: State, a: Action, cards) -> None:
    arity(a, 4)
    p, penguin = _player(s, a[2]), a[3]
    if p is None:
        raise MalformedAction("action.unknown_place", place=a[2])
    if penguin not in cards.penguins:
        raise IllegalAction("illegal.correct_not_in_play", card=penguin)
    other = next((i for i, q in enumerate(s.players) if q.penguin == penguin), None)
    if other is not None:
        set_player(s, other, penguin=s.players[p].penguin)
    set_player(s, p, penguin=penguin)


_KINDS = {
    "token": _token,
    "faceup": _faceup,
    "owner": _owner,
    "mission": _mission,
    "penguin": _penguin,
}
