"""The catalogue compiled into the small tables the engine reads every move.

The catalogue describes both sides of every card with unknown fields; a game
needs one side. ``family_table`` keeps only what the family rules read, in the
forms they read fastest (costs as 8-tuples: seven colours and "any"). A card
value may still be unknown (``None``) when the game starts: the table teaches
it when it is first needed (``rules.pingwiny.unknowns`` says when), and until
then the engine refuses what would use it. The penguins' colours, and the
token mix when the app is the bag, must be known from the start.
"""

from dataclasses import dataclass

from rules.colours import ANY, DIFFERENT, INDEX
from rules.errors import SetupError
from rules.pingwiny.dealing import bag_model


@dataclass(frozen=True)
class FigurantCard:
    id: str
    name: str
    cost: tuple[int, ...] | None
    points: int | None
    type: str | None

    @property
    def colours(self) -> frozenset[int]:
        """Colours printed on the card (a penguin's bonus counts these; the rainbow "any
        token" symbol shows no colour of its own)."""
        return frozenset(i for i, n in enumerate((self.cost or ())[:ANY]) if n)


@dataclass(frozen=True)
class MissionCard:
    id: str
    name: str
    type: str | tuple[str, ...] | None  # a type, several types, or DIFFERENT
    scoring: tuple[tuple[int, int], ...] | None  # (at least this many cards, points), ascending

    def count(self, held) -> int:
        """How far the figurant cards ``held`` go towards the mission: the cards of its type
        or types (each card once: a figurant shows one type), or the different types among
        them. A card whose type is still unknown counts for nothing yet."""
        known = [card.type for card in held if card.type is not None]
        if self.type == DIFFERENT:
            return len(set(known))
        named = (self.type,) if isinstance(self.type, str) else self.type
        return sum(1 for kind in known if kind in named)

    def points_for(self, count: int) -> int:
        """Points of the highest step reached with ``count`` (cards, or types)."""
        return max((points for at_least, points in self.scoring if count >= at_least), default=0)

    def score(self, held) -> int:
        """The points the cards ``held`` earn from this mission."""
        return self.points_for(self.count(held))


@dataclass(frozen=True)
class CardTable:
    figurants: dict[str, FigurantCard]
    missions: dict[str, MissionCard]
    penguins: dict[str, int]  # penguin id -> colour index
    tokens: tuple[int, ...]  # the bag's starting counts (``dealing.bag_model``)
    deck: tuple[str, ...]  # figurant ids in play, catalogue order
    mission_row: tuple[str, ...]  # missions laid above the board at setup
    demo_label: str | None
    mix: tuple[int | None, ...] = ()  # the box's mix as known; ``None``: not counted

    @property
    def mix_known(self) -> bool:
        """False when ``tokens`` are upper bounds: the table did not count the mix."""
        return None not in self.mix


def family_table(catalogue, short: bool) -> CardTable:
    """The family side of the cards in play, unknown values as ``None``; refuses a box
    whose penguins' colours are unknown."""
    missing = [p.id for p in catalogue.penguins if p.colour is None]
    if missing:
        raise SetupError("setup.catalogue_incomplete", missing=", ".join(missing))
    figurants = {
        f.id: FigurantCard(f.id, f.name, f.family.cost, f.family.points, f.family.type)
        for f in catalogue.figurants_in_play(short)
    }
    missions = {
        m.id: MissionCard(
            m.id, m.name, m.family.type, m.family.scoring and tuple(map(tuple, m.family.scoring))
        )
        for m in catalogue.missions_in_play("family", short)
    }
    tokens = bag_model(catalogue)
    return CardTable(
        figurants=figurants,
        missions=missions,
        penguins={p.id: INDEX[p.colour] for p in catalogue.penguins},
        tokens=tokens,
        mix=tuple(catalogue.tokens),
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
