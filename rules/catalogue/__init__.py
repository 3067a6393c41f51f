"""What is known about each card of Pingwiny z Madagaskaru, and what is not.

The rulebook names many cards but prints few of their values, so any value
may be unknown: the string ``"unknown"`` in the raw tables read from TOML,
``None`` in the built objects. Three kinds of raw table exist: the printed
facts (every known value quotes its rulebook passage), a demo overlay that
may only fill unknowns, and an owner's file that may also correct. This
package checks, merges and builds them; it reads no file and no clock, so
``firmware_app.store.catalogue_files`` does the I/O and the rules engine gets a
frozen, hashable ``Catalogue`` that a game record can embed as a dict.

``fields`` names the fields, ``effects`` the vocabulary of card effects,
``cards`` and ``model`` hold the built objects and the way to and from raw
tables, ``values`` and ``checking`` find problems, ``merging`` lays one
table over another.
"""

from rules.catalogue.cards import Figurant, FigurantSide, Mission, MissionSide, Penguin
from rules.catalogue.checking import problems
from rules.catalogue.effects import (
    ACTIONS,
    MISSION_EFFECTS,
    NO_EFFECT,
    PARAMETERS,
    PERMANENT,
    Effect,
)
from rules.catalogue.fields import (
    CARD_FIELDS,
    DEFAULTS,
    GAME,
    KINDS,
    META_COUNTS,
    META_FIELDS,
    OWNER_LABEL,
    SECTIONS,
    SIDE_FIELDS,
    UNKNOWN,
    VARIANTS,
    CatalogueError,
    Cost,
    Problem,
    Sources,
)
from rules.catalogue.merging import conflicts, merge, misspelt_ids
from rules.catalogue.model import Catalogue, build, unknown_fields

__all__ = [
    "ACTIONS",
    "CARD_FIELDS",
    "DEFAULTS",
    "GAME",
    "KINDS",
    "META_COUNTS",
    "META_FIELDS",
    "MISSION_EFFECTS",
    "NO_EFFECT",
    "OWNER_LABEL",
    "PARAMETERS",
    "PERMANENT",
    "SECTIONS",
    "SIDE_FIELDS",
    "UNKNOWN",
    "VARIANTS",
    "Catalogue",
    "CatalogueError",
    "Cost",
    "Effect",
    "Figurant",
    "FigurantSide",
    "Mission",
    "MissionSide",
    "Penguin",
    "Problem",
    "Sources",
    "build",
    "conflicts",
    "merge",
    "misspelt_ids",
    "problems",
    "unknown_fields",
]
