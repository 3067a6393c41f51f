"""The catalogue compiled into the small tables the engine reads every move.

The catalogue describes both sides of every card with unknown fields; a game
needs one side, complete. ``family_table`` checks that and keeps only what
the family rules read, in the forms they read fastest (costs as 7-tuples).
"""

from dataclasses import dataclass

from rules.colours import INDEX
from rules.errors import SetupError


@dataclass(frozen=True)
class FigurantCard:
    id: str
    name: str
    cost: tuple[int, ...]
    points: int
    type: str

    @property
    def colours(self) -> frozenset[int]:
        """Colours printed on the card (a penguin's bonus counts these)."""
        return frozenset(i for i, n in enumerate(self.cost) if n)


@dataclass(frozen=True)
class MissionCard:
    id: str
    name: str
    type: str
    scoring: tuple[tuple[int, int], ...]  # (at least this many cards, points), ascending

    def points_for(self, count: int) -> int:
        """Points of the highest step reached with ``count`` cards of the type."""
        return max((points for at_least, points in self.scoring if count >= at_least), default=0)


@dataclass(frozen=True)
class CardTable:
    figurants: dict[str, FigurantCard]
    missions: dict[str, MissionCard]
    penguins: dict[str, int]  # penguin id -> colour index
    tokens: tuple[int, ...]
    deck: tuple[str, ...]  # figurant ids in play, catalogue order
    mission_row: tuple[str, ...]  # missions laid above the board at setup
    demo_label: str | None


def family_table(catalogue, short: bool) -> CardTable:
    """The family side of the cards in play; refuses an incomplete catalogue."""
    missing = catalogue.missing_for("family", short)
    if missing:
        raise SetupError("setup.catalogue_incomplete", missing=", ".join(missing[:5]))
    figurants = {
        f.id: figurant_card(f) for f in catalogue.figurants if not (short and f.short_game_removed)
    }
    missions = {
        m.id: mission_card(m)
        for m in catalogue.missions
        if m.family_set and not (short and m.short_game_removed)
    }
    return CardTable(
        figurants=figurants,
        missions=missions,
        penguins={p.id: INDEX[p.colour] for p in catalogue.penguins},
        tokens=tuple(catalogue.tokens),
        deck=tuple(figurants),
        mission_row=tuple(missions),
        demo_label=catalogue.label if catalogue.is_demo else None,
    )


def figurant_card(f) -> FigurantCard | None:
    """The family side of a catalogue figurant; None while a field is unknown."""
    side = f.family
    if None in (side.cost, side.points, side.type):
        return None
    return FigurantCard(f.id, f.name, side.cost, side.points, side.type)


def mission_card(m) -> MissionCard | None:
    """The family side of a catalogue mission; None while a field is unknown."""
    side = m.family
    if None in (side.type, side.scoring):
        return None
    return MissionCard(m.id, m.name, side.type, tuple(map(tuple, side.scoring)))
