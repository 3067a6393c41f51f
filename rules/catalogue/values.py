"""What is wrong with one value, told as a message a card owner can act on.

Each function returns ``(sub-path, message)`` pairs or one message, never
raises: the checker collects every problem of a file before reporting.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Sequence
from typing import Any

from rules.catalogue.effects import (
    ALLOWED,
    BAG_COLOURS,
    BOARD_COLOURS,
    NONE,
    PARAMETERS,
)
from rules.catalogue.fields import GAME, ID, KINDS, META_COUNTS, UNKNOWN
from rules.colours import COLOURS, COST_COLOURS, DIFFERENT, TYPES


def show(value: Any) -> str:
    return "nothing" if value is None else repr(value)


def hint(word: Any, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(str(word), options, n=1)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (expected one of: {', '.join(options)})"


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count_problem(value: Any, low: int) -> str | None:
    if not is_whole(value):
        return f'expected a whole number or "unknown", got {show(value)}'
    if value < low:
        return f"must be at least {low}, got {value}"
    return None


def _choice_problem(value: Any, options: Sequence[str], what: str) -> str | None:
    if value in options:
        return None
    if not isinstance(value, str):
        return f"expected a {what} name, got {show(value)}"
    return f"unknown {what} {value!r}{hint(value, options)}"


def _cost_problems(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, dict):
        return [("", f'expected a table of colour = count, or "unknown", got {show(value)}')]
    found = []
    for colour, count in value.items():
        message = _choice_problem(colour, COST_COLOURS, "colour") or _count_problem(count, 0)
        if message:
            found.append((f".{colour}", message))
    return found


def _mission_type_problems(value: Any) -> list[tuple[str, str]]:
    """A mission counts one type, a list of two or more, or the different types."""
    if value == DIFFERENT or not isinstance(value, list):
        message = None if value == DIFFERENT else _choice_problem(value, TYPES, "type")
        if message and not isinstance(value, str):
            message = f'expected a type, a list of types or "{DIFFERENT}", got {show(value)}'
        return [("", message)] if message else []
    found = [
        (f"[{n}]", message)
        for n, kind in enumerate(value)
        if (message := _choice_problem(kind, TYPES, "type"))
    ]
    if len(value) < 2:
        found.append(("", f"a list names two types or more, got {show(value)}"))
    elif len(set(map(str, value))) < len(value):
        found.append(("", f"a type named twice in {show(value)}"))
    return found


def _officer_x_problem(value: Any) -> str | None:
    fits = (
        isinstance(value, list)
        and len(value) == 2
        and all(is_whole(end) for end in value)
        and 1 <= value[0] <= value[1] <= 6
    )
    return None if fits else f'expected [low, high] within 1..6, or "unknown", got {show(value)}'


def _scoring_problems(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, list):
        return [
            ("", f'expected a list of [at_least, points] pairs, or "unknown", got {show(value)}')
        ]
    found = []
    previous = 0
    for number, pair in enumerate(value):
        pair_ok = isinstance(pair, list) and len(pair) == 2 and all(is_whole(n) for n in pair)
        if not pair_ok or pair[0] <= previous or pair[1] < 0:
            message = (
                "expected [at_least, points] with counts rising from 1 and points of 0 or more"
            )
            found.append((f"[{number}]", f"{message}, got {show(pair)}"))
        else:
            previous = pair[0]
    return found


def value_problems(kind: str, value: Any) -> list[tuple[str, str]]:
    """(sub-path, message) for each thing wrong with one value; ``kind`` is its field name."""
    message: str | None
    if kind in ("name", "english", "polish_translation", "label"):
        ok = isinstance(value, str) and value.strip() and value != UNKNOWN
        message = None if ok else f"expected a name, got {show(value)}"
    elif kind == "game":
        message = None if value == GAME else f"expected {GAME!r}, got {show(value)}"
    elif kind == "kind":
        message = _choice_problem(value, KINDS, "kind")
    elif kind == "short_game":
        message = _choice_problem(value, ("removed", "kept"), "short-game choice")
    elif kind == "family_set":
        message = None if isinstance(value, bool) else f"expected true or false, got {show(value)}"
    elif kind in META_COUNTS:
        message = None if is_whole(value) and value > 0 else f"expected a count, got {show(value)}"
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
    elif kind == "mission type":
        return _mission_type_problems(value)
    elif kind == "colour":
        message = _choice_problem(value, COLOURS, "colour")
    elif kind == "officer_x":
        message = _officer_x_problem(value)
    else:  # text, action_text
        message = (
            None if isinstance(value, str) else f'expected text or "unknown", got {show(value)}'
        )
    return [("", message)] if message else []


def effect_problems(
    section: str, value: Any, figurants: Collection[str] | None
) -> list[tuple[str, str]]:
    """(sub-path, message) for each thing wrong with one card's effect.

    ``figurants`` holds the ids a ``card`` parameter may name, or is ``None``
    when one file is checked alone: its cards may name cards of another file,
    so only the shape of an id is checked then.
    """
    if value in (UNKNOWN, NONE):
        return []
    if not isinstance(value, dict):
        return [("", f'expected {{ do = "..." }}, "none" or "unknown", got {show(value)}')]
    if "do" not in value:
        return [(".do", "missing")]
    do, allowed = value["do"], ALLOWED[section]
    if do not in allowed:
        if do == NONE:
            return [(".do", 'not a primitive: write effect = "none" for a card without one')]
        if isinstance(do, str) and do in PARAMETERS:
            expected = ", ".join(allowed)
            return [(".do", f"{do!r} is not a {section} effect (expected one of: {expected})")]
        return [(".do", _choice_problem(do, allowed, f"{section} effect"))]
    names = [name for name, _ in PARAMETERS[do]]
    found = []
    for key in value:
        if key != "do" and key not in names:
            why = hint(key, names) if names else f" ({do} takes no parameters)"
            found.append((f".{key}", f"unknown key {key!r}{why}"))
    for name, kind in PARAMETERS[do]:
        if name not in value:
            found.append((f".{name}", "missing"))
        else:
            found += [
                (f".{name}{path}", message)
                for path, message in _parameter_problems(kind, value[name], figurants)
            ]
    return found


def _parameter_problems(
    kind: str, value: Any, figurants: Collection[str] | None
) -> list[tuple[str, str]]:
    message: str | None
    if kind == "cards":
        if not (isinstance(value, list) and value):
            return [("", f"expected a list of figurant ids, got {show(value)}")]
        found = [(f"[{n}]", _card_problem(card, figurants)) for n, card in enumerate(value)]
        return [(path, message) for path, message in found if message]
    if kind == "card":
        message = _card_problem(value, figurants)
    elif kind == "number":
        fits = is_whole(value) and value >= 1
        message = None if fits else f"expected a whole number of at least 1, got {show(value)}"
    elif kind == "type":
        message = _choice_problem(value, TYPES, "type")
    elif kind == "bag colour":
        message = _colour_problem(value, BAG_COLOURS, "in the bag")
    else:  # board colour
        message = _colour_problem(value, BOARD_COLOURS, "on the board")
    return [("", message)] if message else []


def _colour_problem(value: Any, options: Sequence[str], place: str) -> str | None:
    if value in COLOURS and value not in options:
        return f"there are no {value} tokens {place} (expected one of: {', '.join(options)})"
    return _choice_problem(value, options, "colour")


def _card_problem(value: Any, figurants: Collection[str] | None) -> str | None:
    if not (isinstance(value, str) and ID.fullmatch(value)):
        return f"expected a figurant id, got {show(value)}"
    if figurants is None or value in figurants:
        return None
    close = difflib.get_close_matches(value, sorted(figurants), n=1)
    return f"unknown figurant {value!r}" + (f" (did you mean {close[0]!r}?)" if close else "")
