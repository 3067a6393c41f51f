"""The state of a game of Król Popiel: a small frozen record, exact in JSON."""

from dataclasses import asdict, dataclass, replace


@dataclass(frozen=True)
class PopielState:
    scores: tuple[int, ...]
    rewards: tuple[tuple[str, ...], ...]  # reward tokens each player keeps
    current: int
    king: int  # the window the king is at: 0 is the lowest
    pool: tuple[int, ...]  # reward tokens left in the app's mix, by kind (app mode)
    tokens_left: int
    tiles_left: int
    phase: str  # "place", "reward" (the table names the token drawn) or "over"
    extra: bool  # the placement awaited is an extra move
    move_dots: int  # dots of the move whose reward is awaited
    passes: int  # consecutive players who could not place
    moves: int
    rng: int

    def replace(self, **changes) -> "PopielState":
        return replace(self, **changes)

    def to_json(self) -> dict:
        data = asdict(self)
        data["rewards"] = [list(r) for r in self.rewards]
        data["scores"], data["pool"] = list(self.scores), list(self.pool)
        data["rng"] = f"{self.rng:016x}"
        return data

    @classmethod
    def from_json(cls, data: dict) -> "PopielState":
        values = dict(data)
        values["scores"], values["pool"] = tuple(data["scores"]), tuple(data["pool"])
        values["rewards"] = tuple(tuple(r) for r in data["rewards"])
        values["rng"] = int(data["rng"], 16)
        return cls(**values)
