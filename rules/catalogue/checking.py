"""Checking raw tables: every problem of a file at once, each on its own line.

A printed file is held to more than an overlay: every field written out and
every known value quoted from the rulebook. ``build`` runs the same checks
on the merged table, with the names and counts a whole catalogue needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.catalogue.fields import (
    ABSENT,
    CARD_FIELDS,
    DEFAULTS,
    ID,
    META_COUNTS,
    META_FIELDS,
    SECTIONS,
    SIDE_FIELDS,
    UNKNOWN,
    Problem,
)
from rules.catalogue.values import effect_problems, hint, is_whole, show, value_problems
from rules.colours import COLOURS, DIFFERENT, TYPES


def problems(raw: dict[str, Any], source: str) -> list[Problem]:
    """Every problem of one file at once; an empty list means it may be merged.

    A printed file (``kind = "printed"``) must write every field out and quote a
    source for every known value; an overlay may give any part of any card.
    """
    return Checker(source, strict=declared_kind(raw) == "printed", whole=False).run(raw)


def declared_kind(raw: Any) -> Any:
    """The kind a raw table says it is (a printed file is checked strictly), or ``None``."""
    meta = raw.get("meta") if isinstance(raw, dict) else None
    return meta.get("kind") if isinstance(meta, dict) else None


def _dotted(table: dict[str, Any], field: str) -> Any:
    for part in field.split("."):
        if not isinstance(table, dict) or part not in table:
            return ABSENT
        table = table[part]
    return table


def _ids(cards: Any) -> frozenset[str]:
    """The ids of a section's cards, whatever else is wrong with them."""
    if not isinstance(cards, list):
        return frozenset()
    return frozenset(
        card["id"] for card in cards if isinstance(card, dict) and isinstance(card.get("id"), str)
    )


class Checker:
    """Collects every problem of one raw table instead of stopping at the first.

    ``strict``: a printed file, which writes every field out and sources every
    known value. ``whole``: about to be built, so names, counts and label must
    be there, and every card an effect names must be in it (a single overlay
    may name cards that another file holds).
    """

    def __init__(self, source: str, *, strict: bool, whole: bool) -> None:
        self.source = source
        self.strict = strict
        self.whole = whole
        self.found: list[Problem] = []
        self.figurants: frozenset[str] | None = None

    def add(self, card: str, field: str, message: str) -> None:
        self.found.append(Problem(self.source, card, field, message))

    def run(self, raw: Any) -> list[Problem]:
        if not isinstance(raw, dict):
            self.add("", "", "expected a table of tables")
            return self.found
        self.keys("", "", raw, ("meta", "tokens", *SECTIONS))
        if self.whole:
            self.figurants = _ids(raw.get("figurant"))
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
        self.add(name, "", f"expected a table, got {show(table)}")
        return {}

    def keys(self, card: str, prefix: str, table: dict[str, Any], allowed: Sequence[str]) -> None:
        for key in table:
            if key not in allowed:
                self.add(card, prefix + str(key), f"unknown key {key!r}{hint(key, allowed)}")

    def value(self, card: str, field: str, value: Any, kind: str = "") -> None:
        for path, message in value_problems(kind or field.rpartition(".")[2], value):
            self.add(card, field + path, message)

    def effect(self, section: str, card: str, field: str, value: Any) -> None:
        for path, message in effect_problems(section, value, self.figurants):
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
            self.add(section, "", f"expected [[{section}]] tables, got {show(cards)}")
            return
        first: dict[str, int] = {}
        for number, card in enumerate(cards, 1):
            if not isinstance(card, dict):
                self.add(f"{section} #{number}", "", f"expected a table, got {show(card)}")
                continue
            card_id = card.get("id")
            if isinstance(card_id, str) and ID.fullmatch(card_id):
                where = f"{section} {card_id!r}"
                if card_id in first:
                    self.add(where, "id", f"duplicate id ({section} #{first[card_id]} has it too)")
                first.setdefault(card_id, number)
            else:
                where = f"{section} #{number}"
                wanted = "lower-case letters, digits and dashes"
                got = "missing" if card_id is None else f"got {show(card_id)}"
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
            table = card.get(side, ABSENT)
            if table is ABSENT:
                unused = section == "mission" and side == "family" and not card.get("family_set")
                if self.strict and not unused:
                    self.add(where, side, 'missing (write "unknown" for each value not known)')
                continue
            if not isinstance(table, dict):
                self.add(where, side, f"expected a table, got {show(table)}")
                continue
            self.keys(where, side + ".", table, names)
            for name in names:
                if name == "effect" and name in table:
                    self.effect(section, where, f"{side}.{name}", table[name])
                elif name in table:
                    kind = "mission type" if (section, name) == ("mission", "type") else ""
                    self.value(where, f"{side}.{name}", table[name], kind)
                elif self.strict:
                    self.add(
                        where,
                        f"{side}.{name}",
                        'missing (write "unknown" if the rulebook does not say)',
                    )
            if section == "mission":
                self.types_counted(where, side, table)
        fields = CARD_FIELDS[section] + tuple(
            f"{s}.{n}" for s, names in sides.items() for n in names
        )
        self.extras(where, card, fields)

    def types_counted(self, where: str, side: str, table: dict[str, Any]) -> None:
        """A mission counting the different types cannot ask for more than there are."""
        steps = table.get("scoring")
        if table.get("type") != DIFFERENT or not isinstance(steps, list):
            return
        for number, pair in enumerate(steps):
            if isinstance(pair, list) and pair and is_whole(pair[0]) and pair[0] > len(TYPES):
                message = f"counts different types: at most {len(TYPES)}, got {pair[0]}"
                self.add(where, f"{side}.scoring[{number}]", message)

    def extras(self, where: str, table: dict[str, Any], fields: Sequence[str]) -> None:
        """Sources and notes; in a printed file, a source for every known value."""
        sources = table.get("sources", {})
        if not isinstance(sources, dict):
            self.add(where, "sources", f"expected a table of field = quote, got {show(sources)}")
            sources = {}
        for field, quote in sources.items():
            if field not in fields:
                self.add(where, f"sources.{field}", f"unknown field {field!r}{hint(field, fields)}")
            elif not (isinstance(quote, str) and quote.strip()):
                self.add(
                    where, f"sources.{field}", f"expected the quoted passage, got {show(quote)}"
                )
        notes = table.get("notes", [])
        if not (isinstance(notes, list) and all(isinstance(note, str) for note in notes)):
            self.add(where, "notes", f"expected a list of strings, got {show(notes)}")
        if not self.strict:
            return
        for field in fields:
            value = _dotted(table, field)
            if value in (ABSENT, UNKNOWN, DEFAULTS.get(field, ABSENT)):
                if value == UNKNOWN and field in sources:
                    self.add(where, f"sources.{field}", "a source for a value that is unknown")
            elif field not in sources:
                self.add(where, field, "known value without a source (quote the rulebook passage)")

    def totals(self, raw: dict[str, Any], meta: dict[str, Any], tokens: dict[str, Any]) -> None:
        for section, key in (("figurant", "figurant_count"), ("mission", "mission_count")):
            cards, total = raw.get(section, []), meta.get(key)
            if isinstance(cards, list) and is_whole(total) and len(cards) > total:
                self.add(section, "", f"{len(cards)} cards, but the box has {total}")
        counts = [tokens.get(colour) for colour in COLOURS]
        total = meta.get("token_total")
        if all(is_whole(n) for n in counts) and is_whole(total) and sum(counts) != total:
            self.add("tokens", "", f"the colours add up to {sum(counts)}, not {total}")
