"""The built card objects: frozen, hashable, with ``None`` for a value not known yet.

They hold no logic, so the engine, the screens and game records can share
them freely; ``model`` builds them from raw tables and turns them back.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.catalogue.effects import Effect
from rules.catalogue.fields import Cost, Sources


@dataclass(frozen=True)
class FigurantSide:
    """One side of a figurant card; ``None`` is a value nobody has told us yet.

    ``cost`` counts tokens in ``COLOURS`` order. The family side has neither
    Officer X nor a card text nor an effect, so ``officer_x``, ``text`` and
    ``effect`` stay ``None`` there. An empty ``text`` means the card has no
    text; ``NO_EFFECT`` that it does nothing beyond its points.
    """

    cost: Cost | None
    points: int | None
    type: str | None
    officer_x: tuple[int, int] | None = None
    text: str | None = None
    effect: Effect | None = None


@dataclass(frozen=True)
class MissionSide:
    """One side of a mission card: what it counts, and what counts score.

    ``type`` is one figurant type, a tuple of several (each card of any of
    them counts, once), or ``DIFFERENT``: the different types among the
    cards count. ``scoring`` holds ``(at_least, points)`` pairs; the highest
    pair reached scores. The family side has neither text nor effect.
    """

    type: str | tuple[str, ...] | None
    scoring: tuple[tuple[int, int], ...] | None
    text: str | None = None
    effect: Effect | None = None


@dataclass(frozen=True)
class Penguin:
    """A penguin card; its action (advanced side only) may still be unknown.

    ``action_text`` is the action in words, ``effect`` the same as data.
    """

    id: str
    name: str
    colour: str | None
    action_text: str | None
    effect: Effect | None = None
    english: str | None = None
    polish_translation: str | None = None  # the app's, for a name printed only in English
    sources: Sources = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Figurant:
    """A figurant card, both sides, with where each known value comes from."""

    id: str
    name: str
    family: FigurantSide
    advanced: FigurantSide
    short_game_removed: bool = False
    english: str | None = None
    polish_translation: str | None = None  # the app's, for a name printed only in English
    sources: Sources = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mission:
    """A mission card; ``family`` is ``None`` for a mission the family variant never uses."""

    id: str
    name: str
    family: MissionSide | None
    advanced: MissionSide
    family_set: bool = False
    short_game_removed: bool = False
    english: str | None = None
    polish_translation: str | None = None  # the app's, for a name printed only in English
    sources: Sources = ()
    notes: tuple[str, ...] = ()
