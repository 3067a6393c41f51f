"""What a value taught at the table may be, and the box's cards the rulebook does not name.

The panel asks for a value the first time a game needs it. Before it is
remembered it is checked against what the rulebook implies, so a slip of a
button cannot teach the box an impossible card: a figurant costs 1 to 7
tokens ("some advanced costs are 7 tokens", and the more tokens a card
needs, the more points it gives), an Officer X range lies on the die, and
points stay within a range no printed example leaves (the families' totals
of 14 and 12 points over seven and eight cards).

The box holds 42 figurants and 10 missions but the rulebook names 29 and 7;
the others are held as "Figurant 30" … "Figurant 42" and "Mission 8" …
"Mission 10". Nothing on such a card links it to that number, so until the
table names the card (or numbers it, writing the number on it) no screen may
ask the table to find it: ``identified`` tells the two apart.
"""

from __future__ import annotations

import re
from typing import Any

from rules.catalogue.fields import UNKNOWN
from rules.colours import DIFFERENT, TYPES

UNNAMED_ID = re.compile(r"(?:figurant|mission)-[0-9]+")

COST_TOKENS = (1, 7)
FIGURANT_POINTS = (0, 9)
MISSION_POINTS = (1, 9)
MISSION_COUNT = (1, 9)
NAME_LENGTH = 16

# Why a value is refused: a key, its English text (the screens translate it) and parameters.
REFUSALS = {
    "cost.tokens": "A cost is {low} to {high} tokens, not {n}.",
    "points.range": "Points are {low} to {high}, not {n}.",
    "scoring.steps": "Each step needs more cards than the one before.",
    "scoring.points": "A step gives {low} to {high} points, not {n}.",
    "scoring.count": "A step counts {low} to {high} cards, not {n}.",
    "scoring.types": "A step counts {low} to {high} types, not {n}.",
    "name.length": "A name is 1 to {high} letters.",
}


def refusal(field: str, value: Any, *, counts: Any = None) -> tuple[str, dict[str, int]] | None:
    """Why ``value`` cannot be taught as ``field``, or ``None`` (a field has the same bounds
    on every card that has it). An Officer X range has none here: the panel offers only the
    die's 21 ranges, and a file's range is held to the die by ``values``.

    ``counts`` is a mission's type when its steps are checked: a mission counting the
    different types cannot ask for more types than there are."""
    if value == UNKNOWN:
        return None
    if field == "cost":
        n = sum(value.values())
        low, high = COST_TOKENS
        return None if low <= n <= high else ("cost.tokens", {"low": low, "high": high, "n": n})
    if field == "points":
        low, high = FIGURANT_POINTS
        return (
            None
            if low <= value <= high
            else ("points.range", {"low": low, "high": high, "n": value})
        )
    if field == "scoring":
        return _scoring_refusal(value, counts == DIFFERENT)
    if field == "name":
        fits = 0 < len(value.strip()) <= NAME_LENGTH
        return None if fits else ("name.length", {"high": NAME_LENGTH})
    return None


def _scoring_refusal(steps: list, types: bool) -> tuple[str, dict[str, int]] | None:
    previous = 0
    low, high = (1, len(TYPES)) if types else MISSION_COUNT
    for at_least, points in steps:
        if not low <= at_least <= high:
            key = "scoring.types" if types else "scoring.count"
            return key, {"low": low, "high": high, "n": at_least}
        if at_least <= previous:
            return "scoring.steps", {}
        if not MISSION_POINTS[0] <= points <= MISSION_POINTS[1]:
            low, high = MISSION_POINTS
            return "scoring.points", {"low": low, "high": high, "n": points}
        previous = at_least
    return None


def refusal_text(field: str, value: Any) -> str | None:
    """The refusal in English, for the command line and the log."""
    found = refusal(field, value)
    return None if found is None else REFUSALS[found[0]].format(**found[1])


def unnamed_cards(raw: dict[str, Any]) -> dict[str, Any]:
    """An owner's overlay adding the box's cards the catalogue does not hold yet, numbered
    after the named ones: ``figurant-30`` "Figurant 30" … up to the box's counts."""
    meta = raw.get("meta", {})
    overlay: dict[str, Any] = {}
    for section, count in (("figurant", "figurant_count"), ("mission", "mission_count")):
        ids = {card["id"] for card in raw.get(section, [])}
        in_box = meta.get(count, 0)
        numbers = range(1, in_box + 1)
        free = [n for n in numbers if f"{section}-{n}" not in ids and n > _first(raw, section)]
        new = [f"{section}-{n}" for n in free]
        cards = [{"id": card, "name": placeholder(section, card)} for card in new]
        missing = in_box - len(ids)
        if missing > 0:
            overlay[section] = cards[:missing]
    return overlay


def demo_without(demo: dict[str, Any], owners: list[dict[str, Any]]) -> dict[str, Any]:
    """The demo overlay without its stand-ins ("demo-30") for the unnamed cards an owner's
    file holds as itself ("figurant-30"), so the box keeps its 42 figurants; a demo card's
    effect that named a stand-in names the owner's card in its place."""
    numbers = {
        number(card["id"])
        for raw in owners
        for section in ("figurant", "mission")
        for card in raw.get(section, [])
        if is_unnamed(section, card.get("id", ""))
    }
    return {
        key: [
            _in_place(c, numbers)
            for c in value
            if c.get("id", "").removeprefix("demo-") not in numbers
        ]
        if key in ("figurant", "mission")
        else value
        for key, value in demo.items()
    }


def _in_place(card: dict[str, Any], numbers: set[str]) -> dict[str, Any]:
    """``card`` with each effect's "card" or "cards" naming a stand-in the owner's file
    replaces ("demo-30") naming the owner's card instead ("figurant-30")."""

    def named(card_id):
        taken = isinstance(card_id, str) and card_id.removeprefix("demo-") in numbers
        return "figurant-" + number(card_id) if taken and card_id.startswith("demo-") else card_id

    sides = {}
    for side in ("family", "advanced"):
        effect = card.get(side, {}).get("effect") if isinstance(card.get(side), dict) else None
        if isinstance(effect, dict):
            effect = {
                k: [named(c) for c in v]
                if k == "cards" and isinstance(v, list)
                else named(v)
                if k == "card"
                else v
                for k, v in effect.items()
            }
            sides[side] = {**card[side], "effect": effect}
    return {**card, **sides}


def is_unnamed(section: str, card_id: str) -> bool:
    """True for "figurant-30" and the like: a card the rulebook does not name."""
    return card_id.startswith(f"{section}-") and bool(UNNAMED_ID.fullmatch(card_id))


def placeholder(section: str, card_id: str) -> str:
    """The name an unnamed card is held under until the table names or numbers it."""
    word = {"figurant": "Figurant", "mission": "Mission"}[section]
    return f"{word} {number(card_id)}"


def number(card_id: str) -> str:
    """The box's number of an unnamed card: "30" for "figurant-30"."""
    return card_id.rpartition("-")[2]


def numbered_name(card_id: str) -> str:
    """The name of an unnamed card the table numbered: the number it wrote on the card, in
    every language ("30"; a name starts with a letter or a digit)."""
    return number(card_id)


def identified(section: str, card_id: str, name: str) -> bool:
    """Whether the table can find the card by the name the panel shows: every card the
    rulebook names, and an unnamed one once the table named or numbered it."""
    return not is_unnamed(section, card_id) or name != placeholder(section, card_id)


def unidentified_in_play(catalogue, variant: str, short: bool) -> int:
    """How many cards of the deck and the missions in play the table cannot find by name."""
    cards = [("figurant", c) for c in catalogue.figurants_in_play(short)]
    cards += [("mission", m) for m in catalogue.missions_in_play(variant, short)]
    return sum(1 for section, card in cards if not identified(section, card.id, card.name))


def _first(raw: dict[str, Any], section: str) -> int:
    """Numbers follow the cards the rulebook names (29 figurants, 7 missions)."""
    return sum(1 for card in raw.get(section, []) if not is_unnamed(section, card["id"]))
