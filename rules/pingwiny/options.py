"""What is fixed when a game of Pingwiny z Madagaskaru is set up."""

from dataclasses import asdict, dataclass

from rules.errors import SetupError

SOURCES = ("app", "table")
LEVELS = ("easy", "normal", "strong")  # a virtual player's levels (``rules.players``)


@dataclass(frozen=True)
class Options:
    """Setup choices. ``bag`` and ``deck`` say who is random: the app or the table.

    ``penguins``, ``first`` and ``deck_order`` pin what the app would otherwise
    deal at random, for a table that dealt for real or a test that needs a
    known game. ``virtual`` gives, by seat, the level of a virtual player
    (``"easy"``, ``"normal"``, ``"strong"``) or None for a person; the record
    keeps it, so a replay knows which seats the box played.
    """

    players: int
    short: bool = False
    bag: str = "app"
    deck: str = "app"
    seed: int = 0
    penguins: tuple[str, ...] | None = None
    first: int | None = None
    deck_order: tuple[str, ...] | None = None
    names: tuple[str, ...] | None = None
    die: str = "app"  # advanced variant: who rolls Officer X's die
    layout: tuple[str, ...] | None = None  # advanced variant: the nine tiles, row by row
    virtual: tuple[str | None, ...] | None = None  # by seat: a virtual player's level, or None

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise SetupError("setup.players", players=self.players)
        for name in ("bag", "deck", "die"):
            if getattr(self, name) not in SOURCES:
                raise SetupError("setup.source", option=name, value=getattr(self, name))
        if self.first is not None and not 0 <= self.first < self.players:
            raise SetupError("setup.first", first=self.first)
        if self.names is not None and len(self.names) != self.players:
            raise SetupError("setup.names", players=self.players)
        if self.virtual is not None and (
            len(self.virtual) != self.players
            or any(level is not None and level not in LEVELS for level in self.virtual)
        ):
            raise SetupError("setup.virtual", players=self.players)

    def to_json(self) -> dict:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    @classmethod
    def from_json(cls, data: dict) -> "Options":
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise SetupError("setup.unknown_option", option=sorted(unknown)[0])
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
        return cls(**values)
