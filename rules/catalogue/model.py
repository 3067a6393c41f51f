"""The catalogue as the engine sees it, and the way between it and its raw tables.

Raw tables are plain dicts, lists and scalars (TOML- and JSON-ready) with
``"unknown"`` for a value not known; built objects are frozen dataclasses
with ``None`` there. ``build`` checks before it builds, so a built
``Catalogue`` is always usable, and ``to_dict`` gives back what it came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rules.catalogue.cards import Figurant, FigurantSide, Mission, MissionSide, Penguin
from rules.catalogue.checking import Checker, declared_kind
from rules.catalogue.effects import effect_of, effect_raw
from rules.catalogue.fields import (
    SIDE_FIELDS,
    UNKNOWN,
    VARIANTS,
    CatalogueError,
    Sources,
)
from rules.colours import COLOURS, COST_COLOURS


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
            if "advanced" in variants:
                lines += [
                    f"penguin {penguin.id!r}: advanced.{name}"
                    for name in SIDE_FIELDS["penguin"]["advanced"]
                    if getattr(penguin, name) is None
                ]
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
        return tuple(raw.get(colour, 0) for colour in COST_COLOURS)
    if name == "officer_x":
        return tuple(raw)
    if name == "scoring":
        return tuple(tuple(pair) for pair in raw)
    if name == "effect":
        return effect_of(raw)
    if name == "type" and isinstance(raw, list):  # a mission counting several types
        return tuple(raw)
    return raw


def _raw(name: str, value: Any) -> Any:
    """The inverse of ``_value``; a cost keeps only the colours it asks for."""
    if value is None:
        return UNKNOWN
    if name == "cost":
        return {colour: n for colour, n in zip(COST_COLOURS, value, strict=True) if n}
    if name == "officer_x":
        return list(value)
    if name == "scoring":
        return [list(pair) for pair in value]
    if name == "effect":
        return effect_raw(value)
    if name == "type" and isinstance(value, tuple):
        return list(value)
    return value


def _side_values(section: str, side: str, card: dict[str, Any]) -> dict[str, Any]:
    table = card.get(side, {})
    return {name: _value(name, table.get(name, UNKNOWN)) for name in SIDE_FIELDS[section][side]}


def _side(cls: type, section: str, side: str, card: dict[str, Any]) -> Any:
    return cls(**_side_values(section, side, card))


def _side_raw(section: str, side: str, value: Any) -> dict[str, Any]:
    """One side as a raw table; a penguin holds its advanced side's values itself."""
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
    if card.polish_translation is not None:
        head["polish_translation"] = card.polish_translation
    return head


def _penguin_raw(card: Penguin) -> dict[str, Any]:
    return {
        **_head(card),
        "colour": _raw("colour", card.colour),
        "advanced": _side_raw("penguin", "advanced", card),
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
        "polish_translation": card.get("polish_translation"),
        "sources": tuple(card.get("sources", {}).items()),
        "notes": tuple(card.get("notes", ())),
    }


def _penguin(card: dict[str, Any]) -> Penguin:
    return Penguin(
        colour=_value("colour", card.get("colour", UNKNOWN)),
        **_side_values("penguin", "advanced", card),
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
    found = Checker(source, strict=declared_kind(raw) == "printed", whole=True).run(raw)
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
