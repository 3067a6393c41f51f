"""The state of a game of Król Popiel: a small frozen record, exact in JSON.

The mouse tiles are alike for the engine (it never sees their shapes), so
they are counts: the tile each player holds, the three draw spaces and the
stack next to the board.
"""

from dataclasses import asdict, dataclass, replace


@dataclass(frozen=True)
class PopielState:
    scores: tuple[int, ...]
    rewards: tuple[tuple[str, ...], ...]  # reward tokens each player keeps
    current: int
    king: int  # the window the king is at: 0 is the lowest
    pool: tuple[int, ...]  # reward tokens left in the app's mix, by kind (app mode)
    tokens_left: int
    hands: tuple[int, ...]  # mouse tiles each player holds, to place on their next move
    draw_spaces: int  # tiles on the three draw spaces
    stack: int  # tiles in the stack next to the board
    phase: str  # "place", "reward" (the table names the token drawn) or "over"
    extra: bool  # the placement awaited is an extra move
    move_dots: int  # dots of the move whose reward is awaited
    passes: int  # consecutive players who could not place
    moves: int
    rng: int

    @property
    def tiles_left(self) -> int:
        """Tiles not yet placed: in hand, on the draw spaces, in the stack."""
        return sum(self.hands) + self.draw_spaces + self.stack

    def replace(self, **changes) -> "PopielState":
        return replace(self, **changes)

    def to_json(self) -> dict:
        data = asdict(self)
        data["rewards"] = [list(r) for r in self.rewards]
        data["scores"], data["pool"] = list(self.scores), list(self.pool)
        data["hands"] = list(self.hands)
        data["rng"] = f"{self.rng:016x}"
        return data

    @classmethod
    def from_json(cls, data: dict) -> "PopielState":
        values = dict(data)
        values["scores"], values["pool"] = tuple(data["scores"]), tuple(data["pool"])
        values["hands"] = tuple(data["hands"])
        values["rewards"] = tuple(tuple(r) for r in data["rewards"])
        values["rng"] = int(data["rng"], 16)
        return cls(**values)
