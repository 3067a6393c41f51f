"""The names every part of the catalogue shares: fields, kinds, and how a problem is told.

Kept apart so that checking, building and merging agree on one list of
fields, and so that the error types can be raised from any of them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

UNKNOWN = "unknown"
GAME = "pingwiny"
KINDS = ("printed", "demo", "owner")
VARIANTS = ("family", "advanced")
OWNER_LABEL = "printed cards with the owner's additions"

SECTIONS = ("penguin", "figurant", "mission")
# Plain fields of each kind of card; id, sources and notes come on every card.
CARD_FIELDS = {
    "penguin": ("name", "english", "polish_translation", "colour"),
    "figurant": ("name", "english", "polish_translation", "short_game"),
    "mission": ("name", "english", "polish_translation", "family_set", "short_game"),
}
# ``polish_translation``: for a name the rulebook gives only in English ("King of the Rats"),
# the app's Polish rendering shown on Polish screens; never a printed name. Its source is the
# passage that gives the English name.
# The cards are double-sided: blue shield = family, orange shield = advanced.
SIDE_FIELDS = {
    "penguin": {"advanced": ("action_text", "effect")},
    "figurant": {
        "family": ("cost", "points", "type"),
        "advanced": ("cost", "points", "type", "officer_x", "text", "effect"),
    },
    "mission": {
        "family": ("type", "scoring"),
        "advanced": ("type", "scoring", "text", "effect"),
    },
}
META_FIELDS = ("game", "kind", "label", "figurant_count", "mission_count", "token_total")
META_COUNTS = ("figurant_count", "mission_count", "token_total")
# What a field left out of a card means. The rulebook lists the short-game removals and
# the family missions in full, so "kept" and "not in the family set" are known facts.
DEFAULTS: dict[str, Any] = {
    "english": None,
    "polish_translation": None,
    "short_game": "kept",
    "family_set": False,
}
BOOKKEEPING = ("id", "kind", "label", "sources", "notes")
ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
ABSENT = object()  # marks a key that is not there at all, unlike one set to a value


Cost = tuple[int, int, int, int, int, int, int, int]  # COST_COLOURS: seven colours, "any"
Sources = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Problem:
    """One thing wrong in one file, named precisely enough to find and fix it."""

    source: str
    card: str
    field: str
    message: str

    def __str__(self) -> str:
        return ": ".join(
            part for part in (self.source, self.card, self.field, self.message) if part
        )


class CatalogueError(ValueError):
    """Card data that cannot be used; carries every problem found, not just the first."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))
