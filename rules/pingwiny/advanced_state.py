"""The state of an advanced game, and its exact JSON form.

Same conventions as the family state (``rules.pingwiny.state``): token
holdings are 7-tuples in ``COLOURS`` order, decks are tuples of groups of
cards whose order nobody knows yet, top first. The board is nine squares
(``rules.pingwiny.board``); each player's penguin stands on a square, in the
middle or on an edge's blockade field.

``phase`` says what the engine waits for:

- ``draw``: a player's five tokens at setup (table bag);
- ``act``: one of the current player's four actions;
- ``gastro``: exchanges inside one Gastro zone action, then ``done``;
- ``roll``: the die after an acquisition (table die);
- ``officer``: where the acquiring player puts an Officer X marker;
- ``lose``: the random token an unmasked player loses (table bag);
- ``end_draw``: the two tokens drawn at the end of a turn on an uncovered bag symbol;
- ``final``: after the last round, each player's one last figurant action, or a pass;
- ``over``.
"""

from typing import NamedTuple

from rules.pingwiny.state import Snapshot, counts_from_json, counts_json


class Seat(NamedTuple):
    """One player in the advanced game."""

    penguin: str
    tokens: tuple[int, ...]
    figurants: tuple[str, ...]  # acquired and still in front of the player
    discarded: tuple[str, ...]  # used for their action (they still score)
    missions: tuple[str, ...]
    penguin_used: bool
    square: int
    spot: str


class AdvancedState(Snapshot):
    __slots__ = (
        "players",
        "layout",
        "markers",
        "bag",
        "board",
        "grey",
        "box",
        "deck",
        "faceup",
        "mission_deck",
        "mission_row",
        "current",
        "first",
        "phase",
        "actions_left",
        "stay",
        "fresh",
        "exchanged",
        "pending",
        "pending_missions",
        "officer",
        "losers",
        "final_left",
        "last_round",
        "turns",
        "rng",
    )

    players: tuple[Seat, ...]
    layout: tuple[str, ...]  # location on each of the nine squares
    markers: tuple[int, ...]  # squares covered by an Officer X marker, ascending
    bag: tuple[int, ...]
    board: tuple[int, ...]  # tokens on the four supply locations, by colour
    grey: int  # grey tokens beside the board
    box: tuple[int, ...]
    deck: tuple[tuple[str, ...], ...]
    faceup: tuple[str | None, ...]
    mission_deck: tuple[tuple[str, ...], ...]
    mission_row: tuple[str | None, ...]
    current: int
    first: int
    phase: str
    actions_left: int
    stay: bool  # acquired at Headquarters this turn: may not leave it
    fresh: tuple[int, ...]  # tokens received in the Gastro action under way
    exchanged: bool  # the Gastro action under way made an exchange
    pending: tuple[int, ...]  # face-up figurant spaces waiting to be named
    pending_missions: tuple[int, ...]
    officer: tuple[int, int, int] | None  # (acquiring player, low, high) of the card's range
    losers: tuple[int, ...]  # unmasked players still to lose a token
    final_left: tuple[int, ...]  # players still to take their final action
    last_round: bool
    turns: int
    rng: int

    def copy(self) -> "AdvancedState":
        """A shallow copy; every field is immutable, so this is a full copy.

        Field by field, as the family state does: a loop of ``setattr`` over the slots
        costs a fifth of a step. ``tests/test_state_copy.py`` checks no slot is left out.
        """
        new = AdvancedState.__new__(AdvancedState)
        new.players, new.layout, new.markers = self.players, self.layout, self.markers
        new.bag, new.board, new.grey, new.box = self.bag, self.board, self.grey, self.box
        new.deck, new.faceup = self.deck, self.faceup
        new.mission_deck, new.mission_row = self.mission_deck, self.mission_row
        new.current, new.first, new.phase = self.current, self.first, self.phase
        new.actions_left, new.stay, new.fresh = self.actions_left, self.stay, self.fresh
        new.exchanged, new.pending = self.exchanged, self.pending
        new.pending_missions, new.officer = self.pending_missions, self.officer
        new.losers, new.final_left = self.losers, self.final_left
        new.last_round, new.turns, new.rng = self.last_round, self.turns, self.rng
        return new

    @property
    def mission_deck_size(self) -> int:
        return sum(len(group) for group in self.mission_deck)

    def to_json(self) -> dict:
        data = {name: getattr(self, name) for name in AdvancedState.__slots__}
        data["players"] = [{**p._asdict(), "tokens": counts_json(p.tokens)} for p in self.players]
        for name in ("bag", "board", "box", "fresh"):
            data[name] = counts_json(data[name])
        data["rng"] = f"{self.rng:016x}"
        return _lists(data)

    @classmethod
    def from_json(cls, data: dict) -> "AdvancedState":
        state = cls.__new__(cls)
        for name in cls.__slots__:
            setattr(state, name, _tuples(data[name]))
        state.players = tuple(
            Seat(**{**_tuples(p), "tokens": counts_from_json(p["tokens"])}) for p in data["players"]
        )
        for name in ("bag", "board", "box", "fresh"):
            setattr(state, name, counts_from_json(data[name]))
        state.rng = int(data["rng"], 16)
        return state


def _lists(value):
    """Tuples to lists, all the way down, for JSON."""
    if isinstance(value, tuple | list):
        return [_lists(v) for v in value]
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    return value


def _tuples(value):
    """Lists back to tuples, all the way down; dicts are kept."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value
