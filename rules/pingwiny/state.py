"""The game state of Pingwiny z Madagaskaru, and its exact JSON form.

Everything that changes during a game is here; everything fixed (the
options, the card table) lives in the game object. Token holdings are tuples
of seven counts in ``COLOURS`` order. The figurant deck is a tuple of
*groups*, top first: cards inside one group lie in an order nobody knows yet.
When the app shuffles, every group holds one card; when the players shuffle
real cards, the deck is one group until Zoo gate visits push known cards to
the bottom. A reveal takes a card from the first group, so the model never
claims to know more about the real deck than the table does.
"""

from typing import NamedTuple

from rules.colours import COLOURS

NO_TOKENS = (0,) * 7


class Player(NamedTuple):
    """One seat: penguin card id, tokens held, figurants acquired, mission held."""

    penguin: str
    tokens: tuple[int, ...]
    figurants: tuple[str, ...]
    mission: str | None


class Snapshot:
    """What both variants' states share: equality by every slot, and the deck's size."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self.__slots__))

    @property
    def deck_size(self) -> int:
        return sum(map(len, self.deck))


class State(Snapshot):
    """A snapshot of one game. Treat it as immutable: the engine copies it."""

    __slots__ = (
        "players",
        "board",
        "bag",
        "box",
        "deck",
        "faceup",
        "missions",
        "current",
        "first",
        "phase",
        "draw_count",
        "visits_left",
        "pending",
        "last_round",
        "turns",
        "rng",
    )

    players: tuple[Player, ...]
    board: tuple[int, ...]  # tokens lying on the four supply locations, by colour
    bag: tuple[int, ...]
    box: tuple[int, ...]  # discarded grey tokens, out of the game
    deck: tuple[tuple[str, ...], ...]
    faceup: tuple[str | None, ...]  # the figurant row beneath the board; None = empty space
    missions: tuple[str, ...]  # mission cards lying above the board
    current: int
    first: int
    phase: str  # "draw", "visit" or "over"
    draw_count: int  # tokens the current draw takes: 5 at setup, 2 at a turn's start
    visits_left: int
    pending: tuple[int, ...]  # face-up spaces waiting for the players to name a real card
    last_round: bool
    turns: int  # completed turns
    rng: int

    def copy(self) -> "State":
        """A shallow copy; every field is immutable, so this is a full copy."""
        new = State.__new__(State)
        new.players, new.board, new.bag, new.box = self.players, self.board, self.bag, self.box
        new.deck, new.faceup, new.missions = self.deck, self.faceup, self.missions
        new.current, new.first, new.phase = self.current, self.first, self.phase
        new.draw_count, new.visits_left = self.draw_count, self.visits_left
        new.pending = self.pending
        new.last_round, new.turns, new.rng = self.last_round, self.turns, self.rng
        return new

    def to_json(self) -> dict:
        """A JSON-ready dict; ``from_json`` gives back an equal state."""
        return {
            "players": [
                {
                    "penguin": p.penguin,
                    "tokens": counts_json(p.tokens),
                    "figurants": list(p.figurants),
                    "mission": p.mission,
                }
                for p in self.players
            ],
            "board": counts_json(self.board),
            "bag": counts_json(self.bag),
            "box": counts_json(self.box),
            "deck": [list(group) for group in self.deck],
            "faceup": list(self.faceup),
            "missions": list(self.missions),
            "current": self.current,
            "first": self.first,
            "phase": self.phase,
            "draw_count": self.draw_count,
            "visits_left": self.visits_left,
            "pending": list(self.pending),
            "last_round": self.last_round,
            "turns": self.turns,
            "rng": f"{self.rng:016x}",
        }

    @classmethod
    def from_json(cls, data: dict) -> "State":
        state = cls.__new__(cls)
        state.players = tuple(
            Player(p["penguin"], counts_from_json(p["tokens"]), tuple(p["figurants"]), p["mission"])
            for p in data["players"]
        )
        state.board = counts_from_json(data["board"])
        state.bag = counts_from_json(data["bag"])
        state.box = counts_from_json(data["box"])
        state.deck = tuple(tuple(group) for group in data["deck"])
        state.faceup = tuple(data["faceup"])
        state.missions = tuple(data["missions"])
        for name in ("current", "first", "phase", "draw_count", "visits_left", "last_round"):
            setattr(state, name, data[name])
        state.pending = tuple(data["pending"])
        state.turns = data["turns"]
        state.rng = int(data["rng"], 16)
        return state


def counts_json(counts: tuple[int, ...]) -> dict[str, int]:
    return dict(zip(COLOURS, counts, strict=True))


def counts_from_json(data: dict[str, int]) -> tuple[int, ...]:
    return tuple(data.get(colour, 0) for colour in COLOURS)


def add(counts: tuple[int, ...], colour: int, n: int = 1) -> tuple[int, ...]:
    """``counts`` with ``n`` more (or fewer, if negative) of ``colour``."""
    as_list = list(counts)
    as_list[colour] += n
    return tuple(as_list)


def set_player(s: State, p: int, **changes) -> None:
    """Replace fields of player ``p`` on a working copy of the state.

    Nearly every step changes a seat, so this spells out what ``_replace`` does, without
    its general machinery (which costs as much as the rest of a small step).
    """
    seat = s.players[p]
    values = list(seat)
    for name, value in changes.items():
        values[seat._fields.index(name)] = value
    players = list(s.players)
    players[p] = tuple.__new__(type(seat), values)  # ``_make`` without its length check
    s.players = tuple(players)
