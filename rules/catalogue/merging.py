"""Laying one raw table over another: the demo over the printed cards, an owner's over both.

Works on raw tables, value by value, so that a merged table can still be
checked, written back to TOML, and built like any other.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Iterator
from typing import Any

from rules.catalogue.fields import (
    ABSENT,
    BOOKKEEPING,
    DEFAULTS,
    OWNER_LABEL,
    SECTIONS,
    SIDE_FIELDS,
    UNKNOWN,
    CatalogueError,
    Problem,
)
from rules.catalogue.values import show


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
        elif key not in BOOKKEEPING:
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
                message = f"contradicts the known value {show(old)}: a demo only fills unknowns"
                found.append(Problem(source, _where(section, card_id), field, message))
    return found


def misspelt_ids(base: dict[str, Any], overlay: dict[str, Any], source: str) -> list[Problem]:
    """Cards of an owner's file that ``base`` lacks and that bring no name of their own.

    An owner's file may add a card the catalogue does not list, but such a
    card needs its name; without one, the id is most likely a misspelling of a
    known card, and the problem names the closest.
    """
    known: dict[str, list[str]] = {}
    for section, card_id, _ in _tables(base):
        known.setdefault(section, []).append(card_id)
    found = []
    for section, card_id, table in _tables(overlay):
        ids = known.get(section, [])
        if section not in SECTIONS or card_id in ids or "name" in table:
            continue
        close = difflib.get_close_matches(card_id, ids, n=1)
        guess = f"; did you mean {close[0]!r}?" if close else ""
        message = f"no {section} has this id{guess} (a new card also needs its name)"
        found.append(Problem(source, _where(section, card_id), "id", message))
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
            if home.get(name, ABSENT) != value:
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
