"""What is known about each card of Pingwiny z Madagaskaru, and what is not.

The rulebook names many cards but prints few of their values, so any value
may be unknown: the string ``"unknown"`` in the raw tables read from TOML,
``None`` in the built objects. Three kinds of raw table exist: the printed
facts (every known value quotes its rulebook passage), a demo overlay that
may only fill unknowns, and an owner's file that may also correct. This
module checks, merges and builds them; it reads no file and no clock, so
``firmware_app.catalogue_files`` does the I/O and the rules engine gets a
frozen, hashable ``Catalogue`` that a game record can embed as a dict.
"""

from __future__ import annotations

import copy
import difflib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rules.colours import COLOURS, TYPES

UNKNOWN = "unknown"
GAME = "pingwiny"
KINDS = ("printed", "demo", "owner")
VARIANTS = ("family", "advanced")
OWNER_LABEL = "printed cards with the owner's additions"

SECTIONS = ("penguin", "figurant", "mission")
# Plain fields of each kind of card; id, sources and notes come on every card.
CARD_FIELDS = {
    "penguin": ("name", "english", "colour"),
    "figurant": ("name", "english", "short_game"),
    "mission": ("name", "english", "family_set", "short_game"),
}
# The cards are double-sided: blue shield = family, orange shield = advanced.
SIDE_FIELDS = {
    "penguin": {"advanced": ("action_text",)},
    "figurant": {
        "family": ("cost", "points", "type"),
        "advanced": ("cost", "points", "type", "officer_x", "text"),
    },
    "mission": {
        "family": ("type", "scoring"),
        "advanced": ("type", "scoring", "text"),
    },
}
META_FIELDS = ("game", "kind", "label", "figurant_count", "mission_count", "token_total")
META_COUNTS = ("figurant_count", "mission_count", "token_total")
# What a field left out of a card means. The rulebook lists the short-game removals and
# the family missions in full, so "kept" and "not in the family set" are known facts.
DEFAULTS: dict[str, Any] = {"english": None, "short_game": "kept", "family_set": False}
_BOOKKEEPING = ("id", "kind", "label", "sources", "notes")
_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_ABSENT = object()

Cost = tuple[int, int, int, int, int, int, int]
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


# ---------------------------------------------------------------- built objects


@dataclass(frozen=True)
class FigurantSide:
    """One side of a figurant card; ``None`` is a value nobody has told us yet.

    ``cost`` counts tokens in ``COLOURS`` order. The family side has neither
    Officer X nor a card text, so ``officer_x`` and ``text`` stay ``None`` there.
    An empty ``text`` means the card has no text.
    """

    cost: Cost | None
    points: int | None
    type: str | None
    officer_x: tuple[int, int] | None = None
    text: str | None = None


@dataclass(frozen=True)
class MissionSide:
    """One side of a mission card: the figurant type it counts, and what counts score.

    ``scoring`` holds ``(at_least, points)`` pairs; the highest pair reached
    scores. The family side has no text.
    """

    type: str | None
    scoring: tuple[tuple[int, int], ...] | None
    text: str | None = None


@dataclass(frozen=True)
class Penguin:
    """A penguin card; its action (advanced side only) may still be unknown."""

    id: str
    name: str
    colour: str | None
    action_text: str | None
    english: str | None = None
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
    sources: Sources = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Catalogue:
    """Everything the engine may rely on about the box, and how far it can be trusted.

    ``tokens`` counts the box's tokens per colour in ``COLOURS`` order.
    ``sources`` holds the quotes of the counts, those of token colours under
    ``tokens.<colour>``.
    """

    game: str
    kind: str
    label: str
    figurant_count: int
    mission_count: int
    token_total: int
    tokens: tuple[int | None, ...]
    penguins: tuple[Penguin, ...]
    figurants: tuple[Figurant, ...]
    missions: tuple[Mission, ...]
    sources: Sources = ()
    notes: tuple[str, ...] = ()

    @property
    def is_demo(self) -> bool:
        """True when made-up values fill gaps: every screen must then show ``label``."""
        return self.kind == "demo"

    @cached_property
    def _by_id(self) -> dict[str, dict[str, Any]]:
        return {
            "penguin": {card.id: card for card in self.penguins},
            "figurant": {card.id: card for card in self.figurants},
            "mission": {card.id: card for card in self.missions},
        }

    def _find(self, section: str, card_id: str) -> Any:
        try:
            return self._by_id[section][card_id]
        except KeyError:
            raise KeyError(f"no {section} {card_id!r} in the catalogue") from None

    def penguin(self, card_id: str) -> Penguin:
        return self._find("penguin", card_id)

    def figurant(self, card_id: str) -> Figurant:
        return self._find("figurant", card_id)

    def mission(self, card_id: str) -> Mission:
        return self._find("mission", card_id)

    def figurants_in_play(self, short: bool) -> tuple[Figurant, ...]:
        """The figurant deck: the short game leaves out the cards the rulebook lists."""
        return tuple(card for card in self.figurants if not (short and card.short_game_removed))

    def missions_in_play(self, variant: str, short: bool) -> tuple[Mission, ...]:
        """The family variant uses its five missions; the advanced one uses them all."""
        _check_variant(variant)
        return tuple(
            card
            for card in self.missions
            if (card.family_set or variant == "advanced")
            and not (short and card.short_game_removed)
        )

    def missing_for(self, variant: str, short: bool) -> list[str]:
        """What must still be known before this variant can be played; empty when ready."""
        _check_variant(variant)
        return self._gaps((variant,), short)

    def unknown_fields(self) -> list[str]:
        """Every value still unknown, for both variants, and how many cards are unnamed."""
        return self._gaps(VARIANTS, short=False)

    def _gaps(self, variants: tuple[str, ...], short: bool) -> list[str]:
        lines = []
        colours = [name for name, count in zip(COLOURS, self.tokens, strict=True) if count is None]
        if colours:
            lines.append("tokens: " + ", ".join(colours))
        for penguin in self.penguins:
            if penguin.colour is None:
                lines.append(f"penguin {penguin.id!r}: colour")
            if "advanced" in variants and penguin.action_text is None:
                lines.append(f"penguin {penguin.id!r}: advanced.action_text")
        for figurant in self.figurants_in_play(short):
            lines += _unknown_on("figurant", figurant, variants)
        in_play = {variant: self.missions_in_play(variant, short) for variant in variants}
        for mission in self.missions:
            sides = tuple(variant for variant in variants if mission in in_play[variant])
            lines += _unknown_on("mission", mission, sides)
        lines += _unnamed("figurants", self.figurant_count, len(self.figurants))
        if "advanced" in variants:
            lines += _unnamed("missions", self.mission_count, len(self.missions))
        return lines

    def to_dict(self) -> dict[str, Any]:
        """The raw form (plain dicts, lists and scalars, JSON- and TOML-ready)."""
        meta: dict[str, Any] = {
            "game": self.game,
            "kind": self.kind,
            "label": self.label,
            "figurant_count": self.figurant_count,
            "mission_count": self.mission_count,
            "token_total": self.token_total,
        }
        token_sources = {k[7:]: q for k, q in self.sources if k.startswith("tokens.")}
        meta |= _extras(
            tuple((k, q) for k, q in self.sources if not k.startswith("tokens.")), self.notes
        )
        tokens: dict[str, Any] = {
            name: UNKNOWN if count is None else count
            for name, count in zip(COLOURS, self.tokens, strict=True)
        }
        if token_sources:
            tokens["sources"] = token_sources
        return {
            "meta": meta,
            "tokens": tokens,
            "penguin": [_penguin_raw(card) for card in self.penguins],
            "figurant": [_figurant_raw(card) for card in self.figurants],
            "mission": [_mission_raw(card) for card in self.missions],
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Catalogue:
        """The inverse of ``to_dict``; checks the data as ``build`` does."""
        return build(raw)


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (expected 'family' or 'advanced')")


def _unknown_on(section: str, card: Any, sides: tuple[str, ...]) -> list[str]:
    return [
        f"{section} {card.id!r}: {side}.{name}"
        for side in sides
        for name in SIDE_FIELDS[section][side]
        if getattr(getattr(card, side), name) is None
    ]


def _unnamed(what: str, total: int, named: int) -> list[str]:
    return [f"{total - named} of {total} {what} not named"] if named < total else []


# ---------------------------------------------------------------- raw <-> built


def _value(name: str, raw: Any) -> Any:
    """A raw field value as the built objects hold it."""
    if raw == UNKNOWN:
        return None
    if name == "cost":
        return tuple(raw.get(colour, 0) for colour in COLOURS)
    if name == "officer_x":
        return tuple(raw)
    if name == "scoring":
        return tuple(tuple(pair) for pair in raw)
    return raw


def _raw(name: str, value: Any) -> Any:
    """The inverse of ``_value``; a cost keeps only the colours it asks for."""
    if value is None:
        return UNKNOWN
    if name == "cost":
        return {colour: n for colour, n in zip(COLOURS, value, strict=True) if n}
    if name == "officer_x":
        return list(value)
    if name == "scoring":
        return [list(pair) for pair in value]
    return value


def _side(cls: type, section: str, side: str, card: dict[str, Any]) -> Any:
    table = card.get(side, {})
    return cls(
        **{name: _value(name, table.get(name, UNKNOWN)) for name in SIDE_FIELDS[section][side]}
    )


def _side_raw(section: str, side: str, value: Any) -> dict[str, Any]:
    return {name: _raw(name, getattr(value, name)) for name in SIDE_FIELDS[section][side]}


def _extras(sources: Sources, notes: tuple[str, ...]) -> dict[str, Any]:
    extras: dict[str, Any] = {}
    if sources:
        extras["sources"] = dict(sources)
    if notes:
        extras["notes"] = list(notes)
    return extras


def _head(card: Any) -> dict[str, Any]:
    head: dict[str, Any] = {"id": card.id, "name": card.name}
    if card.english is not None:
        head["english"] = card.english
    return head


def _penguin_raw(card: Penguin) -> dict[str, Any]:
    return {
        **_head(card),
        "colour": _raw("colour", card.colour),
        "advanced": {"action_text": _raw("action_text", card.action_text)},
        **_extras(card.sources, card.notes),
    }


def _figurant_raw(card: Figurant) -> dict[str, Any]:
    raw = _head(card)
    if card.short_game_removed:
        raw["short_game"] = "removed"
    raw["family"] = _side_raw("figurant", "family", card.family)
    raw["advanced"] = _side_raw("figurant", "advanced", card.advanced)
    return raw | _extras(card.sources, card.notes)


def _mission_raw(card: Mission) -> dict[str, Any]:
    raw = _head(card)
    if card.family_set:
        raw["family_set"] = True
    if card.short_game_removed:
        raw["short_game"] = "removed"
    if card.family is not None:
        raw["family"] = _side_raw("mission", "family", card.family)
    raw["advanced"] = _side_raw("mission", "advanced", card.advanced)
    return raw | _extras(card.sources, card.notes)


def _common(card: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": card["id"],
        "name": card["name"],
        "english": card.get("english"),
        "sources": tuple(card.get("sources", {}).items()),
        "notes": tuple(card.get("notes", ())),
    }


def _penguin(card: dict[str, Any]) -> Penguin:
    action = card.get("advanced", {}).get("action_text", UNKNOWN)
    return Penguin(
        colour=_value("colour", card.get("colour", UNKNOWN)),
        action_text=_value("action_text", action),
        **_common(card),
    )


def _figurant(card: dict[str, Any]) -> Figurant:
    return Figurant(
        family=_side(FigurantSide, "figurant", "family", card),
        advanced=_side(FigurantSide, "figurant", "advanced", card),
        short_game_removed=card.get("short_game") == "removed",
        **_common(card),
    )


def _mission(card: dict[str, Any]) -> Mission:
    family_set = card.get("family_set", False)
    has_family = family_set or "family" in card
    return Mission(
        family=_side(MissionSide, "mission", "family", card) if has_family else None,
        advanced=_side(MissionSide, "mission", "advanced", card),
        family_set=family_set,
        short_game_removed=card.get("short_game") == "removed",
        **_common(card),
    )


def build(raw: dict[str, Any], *, source: str = "catalogue") -> Catalogue:
    """The catalogue a raw table describes; raises ``CatalogueError`` listing every problem.

    A field left out counts as unknown, except in a printed file, which must
    write every field out.
    """
    found = _Checker(source, strict=_kind(raw) == "printed", whole=True).run(raw)
    if found:
        raise CatalogueError(found)
    meta = raw["meta"]
    tokens = raw.get("tokens", {})
    token_sources = tuple((f"tokens.{k}", q) for k, q in tokens.get("sources", {}).items())
    return Catalogue(
        game=meta["game"],
        kind=meta["kind"],
        label=meta["label"],
        figurant_count=meta["figurant_count"],
        mission_count=meta["mission_count"],
        token_total=meta["token_total"],
        tokens=tuple(_value("count", tokens.get(colour, UNKNOWN)) for colour in COLOURS),
        penguins=tuple(_penguin(card) for card in raw.get("penguin", [])),
        figurants=tuple(_figurant(card) for card in raw.get("figurant", [])),
        missions=tuple(_mission(card) for card in raw.get("mission", [])),
        sources=tuple(meta.get("sources", {}).items()) + token_sources,
        notes=tuple(meta.get("notes", ())),
    )


def unknown_fields(raw: dict[str, Any]) -> list[str]:
    """Lines like ``figurant 'becky': family.points`` and ``13 of 42 figurants not named``."""
    return build(raw).unknown_fields()


def problems(raw: dict[str, Any], source: str) -> list[Problem]:
    """Every problem of one file at once; an empty list means it may be merged.

    A printed file (``kind = "printed"``) must write every field out and quote a
    source for every known value; an overlay may give any part of any card.
    """
    return _Checker(source, strict=_kind(raw) == "printed", whole=False).run(raw)


def _kind(raw: Any) -> Any:
    meta = raw.get("meta") if isinstance(raw, dict) else None
    return meta.get("kind") if isinstance(meta, dict) else None


# ---------------------------------------------------------------- merging


def _tables(raw: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(section, card id, table) of every table that holds values: meta, tokens, cards."""
    for name in ("meta", "tokens"):
        if name in raw:
            yield name, "", raw[name]
    for section in SECTIONS:
        for card in raw.get(section, []):
            yield section, card.get("id", ""), card


def _fields(section: str, table: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(dotted field, value) of every value a table holds, without its bookkeeping."""
    sides = SIDE_FIELDS.get(section, {})
    for key, value in table.items():
        if key in sides:
            yield from ((f"{key}.{name}", inner) for name, inner in value.items())
        elif key not in _BOOKKEEPING:
            yield key, value


def _where(section: str, card_id: str) -> str:
    return f"{section} {card_id!r}" if card_id else section


def conflicts(
    base: dict[str, Any], overlay: dict[str, Any], source: str, *, owner: bool
) -> list[Problem]:
    """Why ``overlay`` may not be merged over ``base``: another game, or (unless it is an
    owner's file) a known value it would change. Both must already be free of problems."""
    found = []
    game = overlay.get("meta", {}).get("game")
    expected = base.get("meta", {}).get("game")
    if game is not None and game != expected:
        found.append(Problem(source, "meta", "game", f"{game!r} does not match {expected!r}"))
    if owner:
        return found
    kind = overlay.get("meta", {}).get("kind")
    if kind != "demo":
        message = f"{kind!r}: only an owner's file or a demo overlay may be merged"
        found.append(Problem(source, "meta", "kind", message))
    present = {(section, card_id) for section, card_id, _ in _tables(base)}
    known = {
        (section, card_id, field): value
        for section, card_id, table in _tables(base)
        for field, value in _fields(section, table)
    }
    for section, card_id, table in _tables(overlay):
        if (section, card_id) not in present:
            continue
        for field, value in _fields(section, table):
            default = DEFAULTS.get(field, UNKNOWN)
            old = known.get((section, card_id, field), default)
            if old != UNKNOWN and old != value:
                message = f"contradicts the known value {_show(old)}: a demo only fills unknowns"
                found.append(Problem(source, _where(section, card_id), field, message))
    return found


def merge(
    base: dict[str, Any], overlay: dict[str, Any], *, owner: bool, source: str = "overlay"
) -> dict[str, Any]:
    """``base`` with ``overlay`` laid over it; neither is changed.

    Cards are matched by id, their fields merged one by one (a cost is one
    value), new cards appended. A demo overlay may only fill unknowns; an
    owner's file may also correct, and a corrected value loses the source it
    had. Raises ``CatalogueError`` with the ``conflicts``.
    """
    found = conflicts(base, overlay, source, owner=owner)
    if found:
        raise CatalogueError(found)
    merged = copy.deepcopy(base)
    for section, card_id, table in _tables(overlay):
        target = _table_in(merged, section, card_id)
        sources = target.get("sources", {})
        for field, value in _fields(section, table):
            side, _, name = field.rpartition(".")
            home = target.setdefault(side, {}) if side else target
            if home.get(name, _ABSENT) != value:
                home[name] = copy.deepcopy(value)
                sources.pop(field, None)
        sources.update(table.get("sources", {}))
        if sources:
            target["sources"] = sources
        notes = target.get("notes", [])
        notes = notes + [note for note in table.get("notes", []) if note not in notes]
        if notes:
            target["notes"] = notes
    meta = merged.setdefault("meta", {})
    if not owner:
        meta["kind"] = "demo"
        meta["label"] = overlay["meta"].get("label", meta.get("label"))
    elif meta.get("kind") != "demo":
        meta["kind"] = "owner"
        meta["label"] = OWNER_LABEL
    return merged


def _table_in(raw: dict[str, Any], section: str, card_id: str) -> dict[str, Any]:
    if section in ("meta", "tokens"):
        return raw.setdefault(section, {})
    cards = raw.setdefault(section, [])
    for card in cards:
        if card.get("id") == card_id:
            return card
    cards.append({"id": card_id})
    return cards[-1]


# ---------------------------------------------------------------- checking


def _show(value: Any) -> str:
    return "nothing" if value is None else repr(value)


def _hint(word: Any, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(str(word), options, n=1)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (expected one of: {', '.join(options)})"


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count_problem(value: Any, low: int) -> str | None:
    if not _whole(value):
        return f'expected a whole number or "unknown", got {_show(value)}'
    if value < low:
        return f"must be at least {low}, got {value}"
    return None


def _choice_problem(value: Any, options: Sequence[str], what: str) -> str | None:
    if value in options:
        return None
    if not isinstance(value, str):
        return f"expected a {what} name, got {_show(value)}"
    return f"unknown {what} {value!r}{_hint(value, options)}"


def _cost_problems(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, dict):
        return [("", f'expected a table of colour = count, or "unknown", got {_show(value)}')]
    found = []
    for colour, count in value.items():
        message = _choice_problem(colour, COLOURS, "colour") or _count_problem(count, 0)
        if message:
            found.append((f".{colour}", message))
    return found


def _officer_x_problem(value: Any) -> str | None:
    fits = (
        isinstance(value, list)
        and len(value) == 2
        and all(_whole(end) for end in value)
        and 1 <= value[0] <= value[1] <= 6
    )
    return None if fits else f'expected [low, high] within 1..6, or "unknown", got {_show(value)}'


def _scoring_problems(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, list):
        return [
            ("", f'expected a list of [at_least, points] pairs, or "unknown", got {_show(value)}')
        ]
    found = []
    previous = 0
    for number, pair in enumerate(value):
        pair_ok = isinstance(pair, list) and len(pair) == 2 and all(_whole(n) for n in pair)
        if not pair_ok or pair[0] <= previous or pair[1] < 0:
            message = (
                "expected [at_least, points] with counts rising from 1 and points of 0 or more"
            )
            found.append((f"[{number}]", f"{message}, got {_show(pair)}"))
        else:
            previous = pair[0]
    return found


def _value_problems(kind: str, value: Any) -> list[tuple[str, str]]:
    """(sub-path, message) for each thing wrong with one value; ``kind`` is its field name."""
    message: str | None
    if kind in ("name", "english", "label"):
        ok = isinstance(value, str) and value.strip() and value != UNKNOWN
        message = None if ok else f"expected a name, got {_show(value)}"
    elif kind == "game":
        message = None if value == GAME else f"expected {GAME!r}, got {_show(value)}"
    elif kind == "kind":
        message = _choice_problem(value, KINDS, "kind")
    elif kind == "short_game":
        message = _choice_problem(value, ("removed", "kept"), "short-game choice")
    elif kind == "family_set":
        message = None if isinstance(value, bool) else f"expected true or false, got {_show(value)}"
    elif kind in META_COUNTS:
        message = None if _whole(value) and value > 0 else f"expected a count, got {_show(value)}"
    elif value == UNKNOWN:
        message = None
    elif kind == "cost":
        return _cost_problems(value)
    elif kind == "scoring":
        return _scoring_problems(value)
    elif kind in ("count", "points"):
        message = _count_problem(value, 0)
    elif kind == "type":
        message = _choice_problem(value, TYPES, "type")
    elif kind == "colour":
        message = _choice_problem(value, COLOURS, "colour")
    elif kind == "officer_x":
        message = _officer_x_problem(value)
    else:  # text, action_text
        message = (
            None if isinstance(value, str) else f'expected text or "unknown", got {_show(value)}'
        )
    return [("", message)] if message else []


def _dotted(table: dict[str, Any], field: str) -> Any:
    for part in field.split("."):
        if not isinstance(table, dict) or part not in table:
            return _ABSENT
        table = table[part]
    return table


class _Checker:
    """Collects every problem of one raw table instead of stopping at the first.

    ``strict``: a printed file, which writes every field out and sources every
    known value. ``whole``: about to be built, so names, counts and label must
    be there.
    """

    def __init__(self, source: str, *, strict: bool, whole: bool) -> None:
        self.source = source
        self.strict = strict
        self.whole = whole
        self.found: list[Problem] = []

    def add(self, card: str, field: str, message: str) -> None:
        self.found.append(Problem(self.source, card, field, message))

    def run(self, raw: Any) -> list[Problem]:
        if not isinstance(raw, dict):
            self.add("", "", "expected a table of tables")
            return self.found
        self.keys("", "", raw, ("meta", "tokens", *SECTIONS))
        meta = self.table(raw, "meta")
        tokens = self.table(raw, "tokens")
        self.meta(meta)
        self.tokens(tokens)
        for section in SECTIONS:
            self.section(section, raw.get(section, []))
        self.totals(raw, meta, tokens)
        return self.found

    def table(self, raw: dict[str, Any], name: str) -> dict[str, Any]:
        table = raw.get(name, {})
        if isinstance(table, dict):
            return table
        self.add(name, "", f"expected a table, got {_show(table)}")
        return {}

    def keys(self, card: str, prefix: str, table: dict[str, Any], allowed: Sequence[str]) -> None:
        for key in table:
            if key not in allowed:
                self.add(card, prefix + str(key), f"unknown key {key!r}{_hint(key, allowed)}")

    def value(self, card: str, field: str, value: Any, kind: str = "") -> None:
        for path, message in _value_problems(kind or field.rpartition(".")[2], value):
            self.add(card, field + path, message)

    def meta(self, meta: dict[str, Any]) -> None:
        self.keys("meta", "", meta, (*META_FIELDS, "sources", "notes"))
        for field in META_FIELDS:
            if field in meta:
                self.value("meta", field, meta[field])
            elif self.strict or self.whole:
                self.add("meta", field, "missing")
        if meta.get("kind") == "demo" and "label" not in meta:
            self.add("meta", "label", "missing: a demo overlay must say what it is")
        self.extras("meta", meta, META_COUNTS)

    def tokens(self, tokens: dict[str, Any]) -> None:
        self.keys("tokens", "", tokens, (*COLOURS, "sources"))
        for colour in COLOURS:
            if colour in tokens:
                self.value("tokens", colour, tokens[colour], "count")
            elif self.strict:
                self.add("tokens", colour, 'missing (write "unknown" if the rulebook does not say)')
        self.extras("tokens", tokens, COLOURS)

    def section(self, section: str, cards: Any) -> None:
        if not isinstance(cards, list):
            self.add(section, "", f"expected [[{section}]] tables, got {_show(cards)}")
            return
        first: dict[str, int] = {}
        for number, card in enumerate(cards, 1):
            if not isinstance(card, dict):
                self.add(f"{section} #{number}", "", f"expected a table, got {_show(card)}")
                continue
            card_id = card.get("id")
            if isinstance(card_id, str) and _ID.fullmatch(card_id):
                where = f"{section} {card_id!r}"
                if card_id in first:
                    self.add(where, "id", f"duplicate id ({section} #{first[card_id]} has it too)")
                first.setdefault(card_id, number)
            else:
                where = f"{section} #{number}"
                wanted = "lower-case letters, digits and dashes"
                got = "missing" if card_id is None else f"got {_show(card_id)}"
                self.add(where, "id", f"{got}: expected {wanted}")
            self.card(section, where, card)

    def card(self, section: str, where: str, card: dict[str, Any]) -> None:
        sides = SIDE_FIELDS[section]
        self.keys(where, "", card, ("id", *CARD_FIELDS[section], *sides, "sources", "notes"))
        for field in CARD_FIELDS[section]:
            if field in card:
                self.value(where, field, card[field])
            elif self.strict and field in ("name", "colour") or self.whole and field == "name":
                self.add(where, field, "missing")
        for side, names in sides.items():
            table = card.get(side, _ABSENT)
            if table is _ABSENT:
                unused = section == "mission" and side == "family" and not card.get("family_set")
                if self.strict and not unused:
                    self.add(where, side, 'missing (write "unknown" for each value not known)')
                continue
            if not isinstance(table, dict):
                self.add(where, side, f"expected a table, got {_show(table)}")
                continue
            self.keys(where, side + ".", table, names)
            for name in names:
                if name in table:
                    self.value(where, f"{side}.{name}", table[name])
                elif self.strict:
                    self.add(
                        where,
                        f"{side}.{name}",
                        'missing (write "unknown" if the rulebook does not say)',
                    )
        fields = CARD_FIELDS[section] + tuple(
            f"{s}.{n}" for s, names in sides.items() for n in names
        )
        self.extras(where, card, fields)

    def extras(self, where: str, table: dict[str, Any], fields: Sequence[str]) -> None:
        """Sources and notes; in a printed file, a source for every known value."""
        sources = table.get("sources", {})
        if not isinstance(sources, dict):
            self.add(where, "sources", f"expected a table of field = quote, got {_show(sources)}")
            sources = {}
        for field, quote in sources.items():
            if field not in fields:
                self.add(
                    where, f"sources.{field}", f"unknown field {field!r}{_hint(field, fields)}"
                )
            elif not (isinstance(quote, str) and quote.strip()):
                self.add(
                    where, f"sources.{field}", f"expected the quoted passage, got {_show(quote)}"
                )
        notes = table.get("notes", [])
        if not (isinstance(notes, list) and all(isinstance(note, str) for note in notes)):
            self.add(where, "notes", f"expected a list of strings, got {_show(notes)}")
        if not self.strict:
            return
        for field in fields:
            value = _dotted(table, field)
            if value in (_ABSENT, UNKNOWN, DEFAULTS.get(field, _ABSENT)):
                if value == UNKNOWN and field in sources:
                    self.add(where, f"sources.{field}", "a source for a value that is unknown")
            elif field not in sources:
                self.add(where, field, "known value without a source (quote the rulebook passage)")

    def totals(self, raw: dict[str, Any], meta: dict[str, Any], tokens: dict[str, Any]) -> None:
        for section, key in (("figurant", "figurant_count"), ("mission", "mission_count")):
            cards, total = raw.get(section, []), meta.get(key)
            if isinstance(cards, list) and _whole(total) and len(cards) > total:
                self.add(section, "", f"{len(cards)} cards, but the box has {total}")
        counts = [tokens.get(colour) for colour in COLOURS]
        total = meta.get("token_total")
        if all(_whole(n) for n in counts) and _whole(total) and sum(counts) != total:
            self.add("tokens", "", f"the colours add up to {sum(counts)}, not {total}")
