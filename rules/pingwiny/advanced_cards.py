"""The orange-shield side of the cards, compiled for the advanced engine.

As ``family_table`` does for the family side: the tables hold the values the
variant reads (cost, points, type, Officer X range, effect) in the forms read
fastest, ``None`` while a value is not known yet (``rules.pingwiny.unknowns``).
"""

from dataclasses import dataclass

from rules.colours import INDEX
from rules.errors import SetupError
from rules.pingwiny.cards import MissionCard
from rules.pingwiny.dealing import bag_model


@dataclass(frozen=True)
class AdvancedFigurant:
    id: str
    name: str
    cost: tuple[int, ...] | None  # None: not known yet, and so cannot be bought yet
    points: int | None
    type: str | None
    officer_x: tuple[int, int] | None
    effect: object  # a catalogue Effect; NO_EFFECT (do == "none") for a card without one


@dataclass(frozen=True)
class AdvancedTable:
    figurants: dict[str, AdvancedFigurant]
    missions: dict[str, MissionCard]
    mission_effects: dict[str, str]  # mission id -> "no_penalty", "extra_mission" or "none"
    penguins: dict[str, int]  # penguin id -> colour index
    penguin_effects: dict[str, object]
    immunities: dict[str, tuple[str, ...]]  # card -> cards whose actions cannot touch its holder
    bonuses: dict[str, tuple]  # card -> its permanent scoring effect
    tokens: tuple[int, ...]  # the bag's starting counts (``dealing.bag_model``), grey too
    deck: tuple[str, ...]
    mission_deck: tuple[str, ...]
    demo_label: str | None
    mix: tuple[int | None, ...] = ()  # the box's mix as known; ``None``: not counted

    @property
    def mix_known(self) -> bool:
        """False when ``tokens`` are upper bounds: the table did not count the mix."""
        return None not in self.mix


def advanced_table(catalogue, short: bool) -> AdvancedTable:
    """The cards in play, unknown values as ``None`` (taught when first needed); refuses
    a box whose penguins' colours are unknown."""
    missing = [p.id for p in catalogue.penguins if p.colour is None]
    if missing:
        raise SetupError("setup.catalogue_incomplete", missing=", ".join(missing))
    return card_table(
        catalogue,
        [_side_of(f) for f in catalogue.figurants_in_play(short)],
        [_mission_of(m) for m in catalogue.missions_in_play("advanced", short)],
    )


def _side_of(f) -> AdvancedFigurant:
    side = f.advanced
    officer_x = None if side.officer_x is None else tuple(side.officer_x)
    return AdvancedFigurant(f.id, f.name, side.cost, side.points, side.type, officer_x, side.effect)


def _mission_of(m) -> tuple[MissionCard, object]:
    side = m.advanced
    scoring = None if side.scoring is None else tuple(map(tuple, side.scoring))
    return MissionCard(m.id, m.name, side.type, scoring), side.effect


def playable(card: AdvancedFigurant) -> bool:
    """A face-up card can be bought once its cost, Officer X range and effect are known."""
    return None not in (card.cost, card.officer_x, card.effect)


def card_table(catalogue, figurants: list, missions: list) -> AdvancedTable:
    """A table of the given cards (all known), with what their effects imply."""
    immunities, bonuses, mission_effects = {}, {}, {}
    for f in figurants:
        if f.effect is not None and f.effect.do == "immune":
            immunities[f.id] = tuple(f.effect.param("cards"))
        if f.effect is not None and f.effect.do in ("bonus_with", "bonus_per_type"):
            bonuses[f.id] = f.effect
    for m, effect in missions:
        if effect is not None:
            mission_effects[m.id] = effect.do
    tokens = bag_model(catalogue)
    return AdvancedTable(
        figurants={f.id: f for f in figurants},
        missions={m.id: m for m, _ in missions},
        mission_effects=mission_effects,
        penguins={p.id: INDEX[p.colour] for p in catalogue.penguins},
        penguin_effects={p.id: p.effect for p in catalogue.penguins},
        immunities=immunities,
        bonuses=bonuses,
        tokens=tokens,
        mix=tuple(catalogue.tokens),
        deck=tuple(f.id for f in figurants),
        mission_deck=tuple(m.id for m, _ in missions),
        demo_label=catalogue.label if catalogue.is_demo else None,
    )


def advanced_figurant(f) -> AdvancedFigurant | None:
    """The orange side of a catalogue figurant; None while a field is unknown."""
    side = f.advanced
    if None in (side.cost, side.points, side.type, side.officer_x, side.effect):
        return None
    return AdvancedFigurant(
        f.id, f.name, side.cost, side.points, side.type, tuple(side.officer_x), side.effect
    )


def advanced_mission(m) -> tuple[MissionCard, object] | None:
    """The orange side of a mission and its effect; None while a field is unknown."""
    side = m.advanced
    if None in (side.type, side.scoring, side.effect):
        return None
    return MissionCard(m.id, m.name, side.type, tuple(map(tuple, side.scoring))), side.effect
