"""Card effects as data: a few primitives the advanced engine knows how to play.

The rulebook describes what a card does in words; the engine needs it in a
form it can act on, and an owner teaching the box a card needs a way to say
it without new code. So an effect is a TOML inline table naming one
primitive and its parameters::

    effect = { do = "take", colour = "yellow", count = 1 }

``effect = "none"`` says the card has no effect at all. As for every other
field, ``"unknown"`` and a key left out both mean nobody has told us yet:
"no effect" is a fact, so it must be written to be known. In the built
objects unknown is ``None`` and no effect is ``NO_EFFECT``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.catalogue.fields import UNKNOWN
from rules.colours import COLOURS, SUPPLY_OF

NONE = "none"

# Once per game, for 1 action: {A} figurant cards and penguin cards.
ACTIONS = (
    "draw",
    "draw_colour",
    "take",
    "give",
    "steal",
    "remove_marker",
    "move",
    "grey",
    "steal_choice",
    "others_discard",
    "acquire",
)
# Scored or checked, never used as an action.
PERMANENT = ("bonus_with", "bonus_per_type", "immune")
MISSION_EFFECTS = ("no_penalty", "extra_mission")

# Each primitive's parameters, in the order they are written and built, with the kind of
# value each takes (``values.effect_problems`` knows the kinds).
PARAMETERS: dict[str, tuple[tuple[str, str], ...]] = {
    "draw": (("count", "number"),),
    "draw_colour": (("colour", "bag colour"), ("count", "number")),
    "take": (("colour", "board colour"), ("count", "number")),
    "give": (("count", "number"),),
    "steal": (("count", "number"),),
    "steal_choice": (("count", "number"),),
    "others_discard": (("count", "number"),),
    "acquire": (),
    "remove_marker": (),
    "move": (),
    "grey": (("count", "number"),),
    "bonus_with": (("card", "card"), ("points", "number")),
    "bonus_per_type": (("type", "type"), ("points", "number")),
    "immune": (("cards", "cards"),),
    "no_penalty": (),
    "extra_mission": (),
}
# Where the tokens an action takes come from: every colour but grey goes into the bag; grey
# tokens lie beside the board, and only four colours have a supply on the board.
BAG_COLOURS = tuple(colour for colour in COLOURS if colour != "grey")
BOARD_COLOURS = tuple(COLOURS[index] for index in sorted(SUPPLY_OF))
# Which primitives each kind of card may carry.
ALLOWED = {
    "penguin": ACTIONS,
    "figurant": ACTIONS + PERMANENT,
    "mission": MISSION_EFFECTS,
}

Param = str | int | tuple[str, ...]


@dataclass(frozen=True)
class Effect:
    """One primitive with its parameters, e.g. ``Effect("draw", (("count", 2),))``.

    ``params`` is a tuple, in the order of ``PARAMETERS``, so that an effect
    stays hashable and compares equal however its TOML table was written.
    """

    do: str
    params: tuple[tuple[str, Param], ...] = ()

    def param(self, name: str) -> Param:
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(f"effect {self.do!r} has no parameter {name!r}")

    @property
    def is_action(self) -> bool:
        """True for an effect played once per game as one of the turn's actions."""
        return self.do in ACTIONS


NO_EFFECT = Effect(NONE)


def effect_of(raw: Any) -> Effect | None:
    """The built form of a checked raw effect: ``None`` when unknown."""
    if raw == UNKNOWN:
        return None
    if raw == NONE:
        return NO_EFFECT
    params = tuple(
        (name, tuple(raw[name]) if isinstance(raw[name], list) else raw[name])
        for name, _ in PARAMETERS[raw["do"]]
    )
    return Effect(raw["do"], params)


def effect_raw(effect: Effect | None) -> Any:
    """The inverse of ``effect_of``: ``"unknown"``, ``"none"`` or a table."""
    if effect is None:
        return UNKNOWN
    if effect == NO_EFFECT:
        return NONE
    params = {
        name: list(value) if isinstance(value, tuple) else value for name, value in effect.params
    }
    return {"do": effect.do, **params}
