"""Card-data files: the shipped catalogue, owners' files, and ``tableside catalogue check``.

``rules.catalogue`` is pure; this is where its raw tables come from and go
to. The shipped files live next to the ``rules`` package, so an installed
copy finds them wherever it was installed. An owner's file is rewritten
atomically, because a power cut during a save must not lose the cards the
owner taught the box before.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import IO, Any, NamedTuple

from firmware_app.store import regular
from firmware_app.store.atomic import write_atomically
from firmware_app.store.config import OWNER_FILE_LIMIT, popiel_owner_file
from rules.catalogue import (
    GAME,
    OWNER_LABEL,
    SECTIONS,
    SIDE_FIELDS,
    Catalogue,
    CatalogueError,
    Problem,
    build,
    merge,
    misspelt_ids,
    problems,
)
from rules.catalogue.teaching import demo_without, unnamed_cards

DATA = resources.files("rules") / "data"
PRINTED_FILE = DATA / "pingwiny.toml"
DEMO_FILE = DATA / "pingwiny-demo.toml"

PathLike = str | os.PathLike[str]
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
# TOML basic strings: quote and backslash escaped, control characters as \uXXXX.
_ESCAPES = {chr(c): f"\\u{c:04X}" for c in (*range(0x20), 0x7F)} | {'"': '\\"', "\\": "\\\\"}
_WHERE = re.compile(
    r"(?P<what>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)"
)


class _File(NamedTuple):
    source: str
    raw: dict[str, Any]
    kind: str
    problems: list[Problem]


def load_raw(path: PathLike | Traversable, source: str | None = None) -> dict[str, Any]:
    """The TOML table of one file; raises ``CatalogueError`` naming the file (and line)."""
    owners = isinstance(path, str | os.PathLike)
    source = source or (os.fspath(path) if owners else path.name)
    try:
        # an owner's file is read only as a regular file (no link followed, no pipe waited on)
        text = (
            regular.read_bytes(Path(path), OWNER_FILE_LIMIT).decode("utf-8")
            if owners
            else path.read_text(encoding="utf-8")
        )
    except OSError as error:
        why = error.strerror or str(error)
        raise CatalogueError([Problem(source, "", "", f"cannot read: {why}")]) from error
    except UnicodeDecodeError as error:
        raise CatalogueError([Problem(source, "", "", f"not UTF-8 text: {error}")]) from error
    except ValueError as error:  # larger than any owner's file
        raise CatalogueError([Problem(source, "", "", str(error))]) from error
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CatalogueError([_syntax_problem(source, text, error)]) from error
    except RecursionError as error:  # tables nested thousands deep
        raise CatalogueError([Problem(source, "", "", "TOML nested too deep")]) from error


def _syntax_problem(source: str, text: str, error: tomllib.TOMLDecodeError) -> Problem:
    match = _WHERE.fullmatch(str(error))
    if match is None:
        return Problem(source, "", "", f"TOML syntax error: {error}")
    if match["line"]:
        where = f"line {match['line']}, column {match['column']}"
    else:
        where = f"line {max(1, len(text.splitlines()))} (end of file)"
    return Problem(source, "", where, f"TOML syntax error: {match['what']}")


def _read(path: PathLike | Traversable, kind: str) -> _File:
    """One file with its own problems, including being of the wrong kind for its place."""
    shipped = kind != "owner"
    source = path.name if shipped else os.fspath(path)
    try:
        raw = load_raw(path, source)
    except CatalogueError as error:
        return _File(source, {}, kind, list(error.problems))
    found = problems(raw, source)
    meta = raw.get("meta", {})
    declared = meta.get("kind", "owner") if isinstance(meta, dict) else kind
    if declared != kind:
        found.append(Problem(source, "meta", "kind", f"expected {kind!r} here, got {declared!r}"))
    return _File(source, raw, kind, found)


def _combine(files: list[_File]) -> Catalogue:
    """The first file with the others merged over it in order, built; or every problem."""
    found = [problem for file in files for problem in file.problems]
    if found:
        raise CatalogueError(found)
    merged = files[0].raw
    for file in files[1:]:
        owner = file.kind == "owner"
        misspelt = misspelt_ids(merged, file.raw, file.source) if owner else []
        if misspelt:
            found += misspelt
            continue
        try:
            merged = merge(merged, file.raw, owner=owner, source=file.source)
        except CatalogueError as error:
            found += error.problems
    if found:
        raise CatalogueError(found)
    return build(merged, source=" + ".join(file.source for file in files))


def load(paths: Iterable[PathLike], demo: bool) -> Catalogue:
    """The printed catalogue, then the demo overlay if asked, then each owner's file."""
    files = [_read(PRINTED_FILE, "printed")]
    owners = [_read(path, "owner") for path in paths]
    if demo:  # an owner's "Figurant 30" takes the place of the demo's "Demo figurant 30"
        demo_file = _read(DEMO_FILE, "demo")
        taught = [file.raw for file in owners]
        files.append(demo_file._replace(raw=demo_without(demo_file.raw, taught)))
    return _combine(files + owners)


def load_for_play(paths: Iterable[PathLike]) -> Catalogue:
    """The printed box with each owner's file, and the cards the rulebook does not name
    as "Figurant 30" … "Mission 10", so that a game can be played with the whole box."""
    catalogue = load(paths, demo=False)
    raw = catalogue.to_dict()
    overlay = unnamed_cards(raw)
    if not overlay:
        return catalogue
    return build(merge(raw, overlay, owner=True, source="unnamed cards"))


def check_command(paths: list[str], out: IO[str]) -> int:
    """``tableside catalogue check [FILE]``: the exit status, after one line per problem,
    or ``ok`` and what the printed cards and the owner's files still leave unknown."""
    found: dict[Problem, None] = {}

    def attempt(files: list[_File]) -> Catalogue | None:
        try:
            return _combine(files)
        except CatalogueError as error:
            found.update(dict.fromkeys(error.problems))
            return None

    printed = _read(PRINTED_FILE, "printed")
    attempt([printed, _read(DEMO_FILE, "demo")])
    catalogue = attempt([printed, *(_read(path, "owner") for path in paths)])
    if found or catalogue is None:
        for problem in found:
            print(problem, file=out)
        return 1
    popiel = load_popiel(False, popiel_owner_file(paths[0]) if paths else None)
    print("ok", file=out)
    unknown = unknown_in_words(catalogue) + popiel_unknown_in_words(popiel)
    print(
        "still unknown (the panel asks for each when a game needs it):"
        if unknown
        else "nothing unknown",
        file=out,
    )
    for line in unknown:
        print(f"  {line}", file=out)
    return 0


# How ``tableside catalogue check`` names a field, and when the panel asks for it.
FIELD_WORDS = {
    "cost": "cost",
    "points": "points",
    "type": "type",
    "officer_x": "Officer X range",
    "text": "card text",
    "effect": "what it does",
    "scoring": "steps",
    "action_text": "action",
}
WHEN = {
    "figurant": "asked when it is laid face up (points and type: at once or at the score sheet)",
    "mission": "asked when it is laid out",
    "penguin": "asked before its player's first advanced turn",
}


def unknown_in_words(catalogue: Catalogue) -> list[str]:
    """What the printed cards and the owner's files leave unknown, in a family's words."""
    lines = []
    if None in catalogue.tokens:
        lines.append(
            "tokens: how many of each colour (104 in all) — asked at each setup until counted"
            " (\"We don't know\": played with the table's own bag)"
        )
    for section, cards in (
        ("penguin", catalogue.penguins),
        ("figurant", catalogue.figurants),
        ("mission", catalogue.missions),
    ):
        for card in cards:
            sides = []
            for side, fields in SIDE_FIELDS[section].items():
                values = card if section == "penguin" else getattr(card, side)
                if values is None:
                    continue
                missing = [FIELD_WORDS[f] for f in fields if getattr(values, f) is None]
                if missing:
                    sides.append(f"{side} {', '.join(missing)}")
            if sides:
                lines.append(f"{card.name} ({section}): {'; '.join(sides)} — {WHEN[section]}")
    for section, count, word in (
        ("figurants", catalogue.figurant_count, "Figurant"),
        ("missions", catalogue.mission_count, "Mission"),
    ):
        named = len(catalogue.figurants if section == "figurants" else catalogue.missions)
        if named < count:
            lines.append(
                f"{count - named} of {count} {section} not named: played as "
                f'"{word} {named + 1}" … "{word} {count}" — a name may be given when first seen'
            )
    return lines


def popiel_unknown_in_words(box) -> list[str]:
    """What Król Popiel's box leaves unknown, and when the panel asks."""
    lines = [
        f"Król Popiel: windows on board side {side} — asked at the first setup on that side"
        for side, windows in box.windows.items()
        if windows is None
    ]
    if box.rewards is None:
        lines.append(
            "Król Popiel: the reward tokens' mix (8 in all) — asked at the first setup"
            " (or the table names each token drawn)"
        )
    return lines


def save_owner_card(path: PathLike, card: dict[str, Any], *, section: str = "figurant") -> None:
    """Teach one card to an owner's file: merged into its entry with the same id, or added."""
    save_owner(path, {section: [card]})


def save_owner(path: PathLike, overlay: dict[str, Any]) -> None:
    """Teach an owner's file what ``overlay`` holds (cards by id, the token mix).

    Refuses (``CatalogueError``) an overlay or a file with problems, and leaves
    the file as it was; the new file replaces the old one atomically.
    """
    target = Path(path)
    source = os.fspath(path)
    existing = load_raw(target, source) if target.exists() else {"meta": {"game": GAME}}
    found = problems(existing, source) + problems(overlay, source)
    if found:
        raise CatalogueError(found)
    updated = merge(existing, overlay, owner=True, source=source)
    write_atomically(target, to_toml(updated).encode("utf-8"))


def to_toml(raw: dict[str, Any]) -> str:
    """A raw catalogue table as TOML in the shipped files' style: ``[meta]``, ``[tokens]``,
    then one ``[[section]]`` per card with dotted side keys and a ``sources`` sub-table."""
    chunks = [_table(f"[{name}]", name, raw[name]) for name in ("meta", "tokens") if name in raw]
    chunks += [
        _table(f"[[{section}]]", section, card)
        for section in SECTIONS
        for card in raw.get(section, [])
    ]
    return "\n".join(chunks)


def _table(header: str, name: str, table: dict[str, Any]) -> str:
    lines = [header]
    for key, value in table.items():
        if key == "sources":
            continue
        if isinstance(value, dict) and value:
            lines += [f"{_key(key)}.{_key(k)} = {_literal(v)}" for k, v in value.items()]
        else:
            lines.append(_assignment(_key(key), value))
    if "sources" in table:
        lines += ["", f"[{name}.sources]"]
        lines += [_assignment(_key(key), quote) for key, quote in table["sources"].items()]
    return "\n".join(lines) + "\n"


def _assignment(key: str, value: Any) -> str:
    """``key = value``; a long list gets one item a line."""
    line = f"{key} = {_literal(value)}"
    if len(line) <= 100 or not isinstance(value, list):
        return line
    return "\n".join([f"{key} = [", *(f"    {_literal(item)}," for item in value), "]"])


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _literal(key)


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + "".join(_ESCAPES.get(char, char) for char in value) + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(k)} = {_literal(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"cannot write {type(value).__name__} in a card file")


def load_popiel(demo: bool, owner: PathLike | None = None):
    """Król Popiel's box: the printed facts, what the owner taught (``owner``, if the
    file exists), then the demo box if asked."""
    from rules.popiel.components import build_components

    printed = tomllib.loads((DATA / "krol-popiel.toml").read_text(encoding="utf-8"))
    if owner is not None and Path(owner).exists():
        taught = load_raw(owner)
        _check_popiel_owner(taught, printed, os.fspath(owner))
        for table in ("rewards", "windows"):
            printed[table] |= taught.get(table, {})
            printed["sources"] |= {f"{table}.{key}": OWNER_LABEL for key in taught.get(table, {})}
    overlay = None
    if demo:
        overlay = tomllib.loads((DATA / "krol-popiel-demo.toml").read_text(encoding="utf-8"))
    return build_components(printed, overlay)


def _check_popiel_owner(taught: dict[str, Any], printed: dict[str, Any], source: str) -> None:
    """An owner's Król Popiel file holds what teaching writes: the windows of known board
    sides (at least 1, as the engine requires) and reward counts of known kinds (0 or more;
    their sum is checked by the engine); raises ``CatalogueError`` naming each problem."""
    found = []
    for table, least in (("windows", 1), ("rewards", 0)):
        values = taught.get(table, {})
        if not isinstance(values, dict):
            found.append(Problem(source, table, "", f"expected a table, got {values!r}"))
            continue
        for key, value in values.items():
            if key not in printed[table]:
                found.append(Problem(source, table, key, "unknown key"))
            elif type(value) is not int or value < least:
                wrong = f"expected a whole number from {least}, got {value!r}"
                found.append(Problem(source, table, key, wrong))
    if found:
        raise CatalogueError(found)


def save_popiel_owner(path: PathLike, table: str, values: dict[str, int]) -> None:
    """Teach the owner's Król Popiel file windows or the reward mix, atomically."""
    target = Path(path)
    raw = load_raw(target) if target.exists() else {"meta": {"game": "popiel", "kind": "owner"}}
    raw.setdefault(table, {}).update(values)
    lines = []
    for name, content in raw.items():
        lines.append(f"[{name}]")
        lines += [f"{_key(key)} = {_literal(value)}" for key, value in content.items()]
        lines.append("")
    write_atomically(target, "\n".join(lines).encode("utf-8"))
