"""The orange-shield side of the cards, compiled for the advanced engine.

As ``family_table`` does for the family side: the catalogue must know every
value the variant reads (cost, points, type, Officer X range, effect), and
the tables hold them in the forms read fastest.
"""

from dataclasses import dataclass

from rules.colours import INDEX
from rules.errors import SetupError
from rules.pingwiny.cards import MissionCard


@dataclass(frozen=True)
class AdvancedFigurant:
    id: str
    name: str
    cost: tuple[int, ...]
    points: int
    type: str
    officer_x: tuple[int, int]
    effect: object  # a catalogue Effect, or None for a card without one


@dataclass(frozen=True)
class AdvancedTable:
    figurants: dict[str, AdvancedFigurant]
    missions: dict[str, MissionCard]
    mission_effects: dict[str, str]  # mission id -> "no_penalty" / "extra_mission"
    penguins: dict[str, int]  # penguin id -> colour index
    penguin_effects: dict[str, object]
    immunities: dict[str, tuple[str, ...]]  # card -> cards whose actions cannot touch its holder
    bonuses: dict[str, tuple]  # card -> its permanent scoring effect
    tokens: tuple[int, ...]
    deck: tuple[str, ...]
    mission_deck: tuple[str, ...]
    demo_label: str | None


def advanced_table(catalogue, short: bool) -> AdvancedTable:
    missing = catalogue.missing_for("advanced", short)
    if missing:
        raise SetupError("setup.catalogue_incomplete", missing=", ".join(missing[:5]))
    figurants = {}
    immunities, bonuses = {}, {}
    for f in catalogue.figurants_in_play(short):
        side = f.advanced
        figurants[f.id] = AdvancedFigurant(
            f.id, f.name, side.cost, side.points, side.type, tuple(side.officer_x), side.effect
        )
        if side.effect is not None and side.effect.do == "immune":
            immunities[f.id] = tuple(side.effect.param("cards"))
        if side.effect is not None and side.effect.do in ("bonus_with", "bonus_per_type"):
            bonuses[f.id] = side.effect
    missions = {}
    mission_effects = {}
    for m in catalogue.missions_in_play("advanced", short):
        side = m.advanced
        missions[m.id] = MissionCard(m.id, m.name, side.type, tuple(map(tuple, side.scoring)))
        if side.effect is not None:
            mission_effects[m.id] = side.effect.do
    return AdvancedTable(
        figurants=figurants,
        missions=missions,
        mission_effects=mission_effects,
        penguins={p.id: INDEX[p.colour] for p in catalogue.penguins},
        penguin_effects={p.id: p.effect for p in catalogue.penguins},
        immunities=immunities,
        bonuses=bonuses,
        tokens=tuple(catalogue.tokens),
        deck=tuple(figurants),
        mission_deck=tuple(missions),
        demo_label=catalogue.label if catalogue.is_demo else None,
    )
