"""Card-data files: the shipped catalogue, owners' files, and ``tableside catalogue check``.

``rules.catalogue`` is pure; this is where its raw tables come from and go
to. The shipped files live next to the ``rules`` package, so an installed
copy finds them wherever it was installed. An owner's file is rewritten
atomically, because a power cut during a save must not lose the cards the
owner taught the box before, and with tomlkit, which changes only the values
taught and keeps the owner's own comments and order.
"""

from __future__ import annotations

import copy
import os
import re
import tomllib
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import IO, Any, NamedTuple

from firmware_app.store import bounded_read, regular
from firmware_app.store.atomic import write_atomically
from firmware_app.store.config import OWNER_FILE_LIMIT, popiel_owner_file
from rules.catalogue import (
    GAME,
    OWNER_LABEL,
    SIDE_FIELDS,
    Catalogue,
    CatalogueError,
    Problem,
    build,
    merge,
    misspelt_ids,
    problems,
)
from rules.catalogue.effects import PARAMETERS
from rules.catalogue.fields import META_COUNTS, SECTIONS
from rules.catalogue.teaching import demo_without, placeholder, refusal_text, unnamed_cards
from rules.catalogue.values import is_whole, value_problems

DATA = resources.files("rules") / "data"
PRINTED_FILE = DATA / "pingwiny.toml"
DEMO_FILE = DATA / "pingwiny-demo.toml"

PathLike = str | os.PathLike[str]
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
        data = bounded_read.read_bytes(path, OWNER_FILE_LIMIT) if owners else path.read_bytes()
    except OSError as error:
        why = error.strerror or str(error)
        raise CatalogueError([Problem(source, "", "", f"cannot read: {why}")]) from error
    except bounded_read.Refused as error:  # a folder, pipe or link; larger than any owner's
        raise CatalogueError([Problem(source, "", "", str(error))]) from error
    return parse_raw(data, source)


def parse_raw(data: bytes, source: str) -> dict[str, Any]:
    """The TOML table of a card file's bytes, its text, nesting and numbers bounded
    (``bounded_read``); raises ``CatalogueError`` naming ``source`` (and the line)."""
    try:
        text = bounded_read.text_of(data)
        try:
            return bounded_read.parse_toml(text)
        except tomllib.TOMLDecodeError as error:
            raise CatalogueError([_syntax_problem(source, text, error)]) from error
    except bounded_read.Refused as error:
        raise CatalogueError([Problem(source, "", "", line) for line in error.problems]) from error


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
    return _checked(source, raw, kind)


def _shipped(path: Traversable, kind: str) -> _File:
    """A file shipped in the package, as ``_read`` gives it, read and checked once: it cannot
    change while the box runs, and teaching loads the box again at each card taught. Each
    caller gets its own copy of the table to build from."""
    file = _read_once(path, kind)
    return file._replace(raw=copy.deepcopy(file.raw))


_read_once = cache(_read)


def _checked(source: str, raw: dict[str, Any], kind: str) -> _File:
    found = problems(raw, source)
    meta = raw.get("meta", {})
    declared = meta.get("kind", "owner") if isinstance(meta, dict) else kind
    if declared != kind:
        found.append(Problem(source, "meta", "kind", f"expected {kind!r} here, got {declared!r}"))
    found += _beyond_bounds(source, raw)
    return _File(source, raw, kind, found)


# What a card file holds beyond the shapes ``rules.catalogue`` checks, held to what the panel
# could teach or the printed box holds: a taught value within the panel's bounds
# (``rules.catalogue.teaching.refusal``: points, costs, Officer X, a mission's steps), the
# box's counts no larger than the printed ones, an effect's number as the panel's number
# entry takes it, and text that the panel, a terminal and a spreadsheet show as it is.
MOST_NUMBER = 99  # the panel's number entry goes up to 99 (``ui.screens.NumberEntry``)
# A card's name, its English name, a file's label, an id or a key: the longest printed is 39
# characters (the demo's label), the panel enters 16; each starts with a letter, a digit or a
# hyphen (the panel's letter wheel has one), never with a space, a quote or what a
# spreadsheet takes for a formula ("=", "+", "@").
NAME_MOST = 64
NAMED = ("name", "english", "label", "id")
# Any other text (a card's text, a quoted passage, a note): the longest printed is 238.
TEXT_MOST = 2_000


def _beyond_bounds(source: str, raw: dict[str, Any]) -> list[Problem]:
    """What a card file holds beyond what the panel could teach or the printed box holds;
    a value of the wrong shape is left to the catalogue's own checks, which tell it."""
    found = list(_text_problems(source, "", raw, ""))
    box = _printed_counts()
    meta, tokens = raw.get("meta"), raw.get("tokens")
    for key, value in meta.items() if isinstance(meta, dict) else ():
        if key in box and is_whole(value) and value > box[key]:
            found.append(Problem(source, "meta", key, f"at most the box's {box[key]}, got {value}"))
    most = box["token_total"]
    for colour, count in tokens.items() if isinstance(tokens, dict) else ():
        if is_whole(count) and count > most:
            found.append(Problem(source, "tokens", colour, f"at most {most}, got {count}"))
    for section in SECTIONS:
        cards = raw.get(section)
        for number, card in enumerate(cards if isinstance(cards, list) else [], 1):
            if isinstance(card, dict):
                found += _card_beyond_bounds(source, section, number, card)
    return found


def _card_beyond_bounds(source: str, section: str, number: int, card: dict) -> list[Problem]:
    where, found = _card_named(section, number, card), []
    for side in SIDE_FIELDS[section]:
        values = card.get(side)
        for field, value in values.items() if isinstance(values, dict) else ():
            if field == "effect":
                found += [
                    Problem(source, where, f"{side}.effect.{name}", problem)
                    for name, problem in _effect_beyond_bounds(value)
                ]
            elif value_problems(field, value):  # told by the catalogue's checks
                continue
            elif (refused := refusal_text(field, value)) is not None:
                found.append(Problem(source, where, f"{side}.{field}", refused))
    return found


def _effect_beyond_bounds(effect: Any) -> Iterator[tuple[str, str]]:
    """An effect's numbers (tokens drawn, points given) as the panel's number entry takes."""
    known = PARAMETERS.get(effect.get("do")) if isinstance(effect, dict) else None
    for name, kind in known if isinstance(known, tuple) else ():
        value = effect.get(name)
        if kind == "number" and is_whole(value) and value > MOST_NUMBER:
            yield name, f"at most {MOST_NUMBER}, got {value}"


def _text_problems(source: str, where: str, value: Any, path: str) -> Iterator[Problem]:
    """Every text of a file, its keys too: printable and within ``TEXT_MOST``; a name, an
    id, a label or a key within ``NAME_MOST``, starting as the panel's names may."""
    if isinstance(value, dict):
        for key, inner in value.items():
            problem = _text_problem(key, named=True)
            if problem is not None:
                yield Problem(source, where or path, "", f"a key: {problem}")
                continue
            if not where and key in SECTIONS:  # each card named by its id, as checks name it
                cards = inner if isinstance(inner, list) else []
                for number, card in enumerate(cards, 1):
                    yield from _text_problems(source, _card_named(key, number, card), card, "")
                continue
            if not where:  # a table of the file: it names the problems in it
                yield from _text_problems(source, key, inner, "")
            else:
                yield from _text_problems(source, where, inner, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for number, inner in enumerate(value):
            yield from _text_problems(source, where, inner, f"{path}[{number}]")
    elif isinstance(value, str):
        problem = _text_problem(value, named=path in NAMED)  # a quote in sources is not
        if problem is not None:
            yield Problem(source, where, path, problem)


def _card_named(section: str, number: int, card: Any) -> str:
    """A card as the catalogue's checks name it: by its id, or by its place when the id
    is no short text."""
    card_id = card.get("id") if isinstance(card, dict) else None
    if isinstance(card_id, str) and _text_problem(card_id, named=True) is None:
        return f"{section} {card_id!r}"
    return f"{section} #{number}"


def _text_problem(text: Any, named: bool) -> str | None:
    """What is wrong with one text (None: nothing); ``named``: a name, id, label or key."""
    if not isinstance(text, str):
        return None  # the catalogue's checks say what it should be
    most = NAME_MOST if named else TEXT_MOST
    if len(text) > most:
        return f"at most {most:,} characters, not {len(text):,}"
    if not text.isprintable():
        bad = next(char for char in text if not char.isprintable())
        return f"holds U+{ord(bad):04X}, which is not printable"
    if named and text and not (text[0].isalnum() or text[0] == "-"):  # as the panel's may
        return f"starts with a letter, a digit or a hyphen, not {text[0]!r}"
    return None


@cache
def _printed_counts() -> dict[str, int]:
    """The printed box's counts of figurants, missions and tokens: no file holds more."""
    meta = tomllib.loads(PRINTED_FILE.read_text(encoding="utf-8"))["meta"]
    return {key: meta[key] for key in META_COUNTS}


# What loading a file may raise besides the catalogue's refusals, from the odd shapes of a
# file that its checks do not foresee (as ``state_check.LOAD_ERRORS`` says of the start).
_ODD_SHAPES = (ValueError, TypeError, KeyError, AttributeError, RecursionError)


def owner_problems(data: bytes, source: str) -> list[Problem]:
    """What loading an owner's file (``load([file], demo=False)``) refuses in it, the file
    given as its bytes (a backup's copy, not yet in its place); empty: it loads."""
    try:
        owner = _checked(source, parse_raw(data, source), "owner")
        _combine([_shipped(PRINTED_FILE, "printed"), owner])
    except CatalogueError as error:
        return list(error.problems)
    except _ODD_SHAPES as error:
        return [Problem(source, "", "", f"cannot be loaded: {error}")]
    return []


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
    files = [_shipped(PRINTED_FILE, "printed")]
    owners = [_read(path, "owner") for path in paths]
    if demo:  # an owner's "Figurant 30" takes the place of the demo's "Demo figurant 30"
        demo_file = _shipped(DEMO_FILE, "demo")
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

    printed = _shipped(PRINTED_FILE, "printed")
    attempt([printed, _shipped(DEMO_FILE, "demo")])
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
    for section, count in (
        ("figurant", catalogue.figurant_count),
        ("mission", catalogue.mission_count),
    ):
        named = len(catalogue.figurants if section == "figurant" else catalogue.missions)
        if named < count:
            first, last = (placeholder(section, f"{section}-{n}") for n in (named + 1, count))
            lines.append(
                f"{count - named} of {count} {section}s not named: played as "
                f'"{first}" … "{last}" — a name may be given when first seen'
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


# Characters: a longer list in an owner's file is written one item a line.
_LONG_LIST = 80


def save_owner(path: PathLike, overlay: dict[str, Any]) -> None:
    """Teach an owner's file what ``overlay`` holds (cards by id, the token mix).

    Refuses (``CatalogueError``) an overlay or a file with problems, and leaves
    the file as it was; the new file replaces the old one atomically, with the
    owner's own comments and order kept (``write_owner_file``).
    """
    target = Path(path)
    source = os.fspath(path)
    existing = load_raw(target, source) if target.exists() else {"meta": {"game": GAME}}
    found = problems(existing, source) + problems(overlay, source)
    if found:
        raise CatalogueError(found)
    updated = merge(existing, overlay, owner=True, source=source)
    write_owner_file(target, updated, source)


def write_owner_file(path: Path, wanted: dict[str, Any], source: str | None = None) -> None:
    """Make the owner's TOML file at ``path`` hold ``wanted``, atomically, changing only what
    differs: the owner may have written the file by hand, and their comments, the order of
    their cards and keys, and their layout are kept. A new file is laid out as the shipped
    ones: ``[meta]``, then a ``[[section]]`` a card with dotted side keys
    (``family.points = 4``) and a ``[section.sources]`` sub-table.

    tomlkit is imported here, not at the top: the daemon saves a taught value now and then,
    and its start-up must not wait for the library. The text written is read back with the
    loader's own parser first; a file that would not load as ``wanted`` is refused
    (``CatalogueError``) and the old one kept.
    """
    import tomlkit

    source = source or os.fspath(path)
    document = _document(path, source) if path.exists() else tomlkit.document()
    _sync(document, wanted, 0)
    text = tomlkit.dumps(document)
    if tomllib.loads(text) != wanted:
        why = "cannot be rewritten keeping its comments without changing other values"
        raise CatalogueError([Problem(source, "", "", why)])
    write_atomically(path, text.encode("utf-8"))
    _written.clear()
    _written[path] = (text, document)


# The owner's file this process wrote last, with the text and the tomlkit document written.
# Parsing the file again is most of a save's time, and it grows with every card taught; a
# file that still holds exactly that text needs no new parse. One changed since, by hand or
# from a stick, is parsed again. Only the last is kept: a teaching game saves to one file.
_written: dict[Path, tuple[str, Any]] = {}


def _document(path: Path, source: str):
    """The file's tomlkit document: the one last written while the text is the same, or
    parsed anew. A save cut short may have changed the one kept; ``_sync`` makes it hold
    exactly what the next save wants, so nothing of the cut save is written."""
    import tomlkit

    text = regular.read_bytes(path, OWNER_FILE_LIMIT).decode("utf-8")
    kept = _written.get(path)
    if kept is not None and kept[0] == text:
        return kept[1]
    try:
        return tomlkit.parse(text)
    except tomlkit.exceptions.TOMLKitError as error:  # what tomllib read, tomlkit would not
        why = f"cannot be rewritten keeping its comments: {error}"
        raise CatalogueError([Problem(source, "", "", why)]) from error


def to_toml(raw: dict[str, Any]) -> str:
    """A raw catalogue table as a new file's TOML, laid out as ``write_owner_file`` lays out
    a new owner's file."""
    import tomlkit

    document = tomlkit.document()
    _sync(document, raw, 0)
    return tomlkit.dumps(document)


def _sync(table, wanted: dict[str, Any], depth: int) -> None:
    """Make the tomlkit ``table`` (the document at ``depth`` 0, a table or a card at 1, a
    card's side at 2) hold ``wanted``: keys gone are removed, a changed value is replaced
    where it stands (its key keeps its place and its comment), new keys are added."""
    from tomlkit.items import AoT

    for key in [key for key in table if key not in wanted]:
        del table[key]
    for key, value in wanted.items():
        if key not in table:
            _add(table, key, value, depth)
            continue
        old = table[key]
        plain = old.unwrap() if hasattr(old, "unwrap") else old
        if plain == value and type(plain) is type(value):
            continue
        if isinstance(value, dict) and isinstance(old, dict):
            _sync(old, value, depth + 1)
        elif isinstance(old, AoT) and _is_cards(value):
            while len(old) > len(value):
                del old[-1]
            for index, card in enumerate(value):
                if index == len(old):
                    old.append(_new_table())
                _sync(old[index], card, depth + 1)
        else:
            table[key] = _value(value)


def _add(table, key: str, value: Any, depth: int) -> None:
    """A key the table did not have: a table or cards at the top, a side of a card as dotted
    keys, its sources as a sub-table, anything else as one value (tables in it inline)."""
    import tomlkit

    if depth == 0 and (isinstance(value, dict) or _is_cards(value)):
        first = not table.body  # the file's first line: no blank line above it
        if isinstance(value, dict):
            table.add(key, _new_table(first))
            _sync(table[key], value, 1)
        else:
            table.add(key, tomlkit.aot())
            for card in value:
                table[key].append(_new_table(first and not table[key]))
                _sync(table[key][-1], card, 1)
    elif depth == 1 and key == "sources" and isinstance(value, dict):
        table[key] = tomlkit.table()
        _sync(table[key], value, 2)
    elif depth == 1 and isinstance(value, dict) and value:
        _append_keys(table, [(tomlkit.key([key, name]), _value(v)) for name, v in value.items()])
    else:
        _append_keys(table, [(key, _value(value))])


def _append_keys(table, entries: list) -> None:
    """New keys after the table's last key: the comments and blank lines that end a table
    are those above the table after it, and stay there. tomlkit adds a key after them (and
    puts it before a sub-table itself), so they are taken off the table's end for the time
    of the adding and put back after it."""
    from tomlkit.items import Table

    body = table.value.body if isinstance(table, Table) else []
    sub_tables = any(isinstance(value, Table) and not value.is_super_table() for _, value in body)
    tail = []
    while body and body[-1][0] is None and not sub_tables:  # comments and blank lines
        tail.append(body.pop())
    for key, item in entries:
        table[key] = item
    for _, trivia in reversed(tail):
        table.value.append(None, trivia)


def _new_table(first: bool = False):
    """A table that starts after a blank line, as the shipped files' tables do (but the
    first thing in a file)."""
    import tomlkit

    table = tomlkit.table()
    table.trivia.indent = "" if first else "\n"
    return table


def _value(value: Any):
    """A value as tomlkit writes it: tables inline, a list one item a line when long."""
    import tomlkit

    if isinstance(value, dict):
        inline = tomlkit.inline_table()
        for key, item in value.items():
            inline[key] = _value(item)
        return inline
    if isinstance(value, list):
        array = tomlkit.array()
        array.extend(_value(item) for item in value)
        if len(array.as_string()) > _LONG_LIST:
            array.multiline(True)
        return array
    return value


def _is_cards(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


# The most window spaces a tower may be given: the panel asks for 1 to this many
# (``flows/popiel/play.py``), far more than a tower of the printed box has.
MOST_WINDOWS = 20


def load_popiel(demo: bool, owner: PathLike | None = None):
    """Król Popiel's box: the printed facts, what the owner taught (``owner``, if the
    file exists), then the demo box if asked."""
    from rules.popiel.components import build_components

    printed = _popiel_printed()
    if owner is not None and Path(owner).exists():
        _teach_popiel(printed, load_raw(owner), os.fspath(owner))
    overlay = None
    if demo:
        overlay = tomllib.loads((DATA / "krol-popiel-demo.toml").read_text(encoding="utf-8"))
    return build_components(printed, overlay)


def popiel_owner_problems(data: bytes, source: str) -> list[Problem]:
    """What ``load_popiel`` refuses in an owner's Król Popiel file given as its bytes (a
    backup's copy); empty: it loads."""
    from rules.popiel.components import build_components

    try:
        printed = _popiel_printed()
        _teach_popiel(printed, parse_raw(data, source), source)
        build_components(printed)  # the engine's own check: the reward mix adds up
    except CatalogueError as error:
        return list(error.problems)
    except _ODD_SHAPES as error:
        return [Problem(source, "", "", f"cannot be loaded: {error}")]
    return []


def _popiel_printed() -> dict[str, Any]:
    return tomllib.loads((DATA / "krol-popiel.toml").read_text(encoding="utf-8"))


def _teach_popiel(printed: dict[str, Any], taught: dict[str, Any], source: str) -> None:
    """Lay the owner's checked windows and reward counts over the printed facts."""
    _check_popiel_owner(taught, printed, source)
    for table in ("rewards", "windows"):
        printed[table] |= taught.get(table, {})
        printed["sources"] |= {f"{table}.{key}": OWNER_LABEL for key in taught.get(table, {})}


def _texts(value: Any) -> bool:
    """Whether ``value`` is a list of texts (notes)."""
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


# What an owner's Król Popiel file holds: what teaching writes (``save_popiel_owner``), and a
# label and notes of the owner's own, as a Pingwiny file may have.
POPIEL_TABLES = ("meta", "windows", "rewards")
POPIEL_META = {  # its key: what it holds, and whether a value is that
    "game": ("'popiel'", lambda value: value == "popiel"),
    "kind": ("'owner'", lambda value: value == "owner"),
    "label": ("a name", lambda value: isinstance(value, str)),
    "notes": ("a list of texts", _texts),
}


def _check_popiel_owner(taught: dict[str, Any], printed: dict[str, Any], source: str) -> None:
    """An owner's Król Popiel file holds what teaching writes: the windows of known board
    sides (1 to ``MOST_WINDOWS``, as the panel asks) and reward counts of known kinds (0 to
    the box's number of reward tokens; their sum is checked by the engine), under a
    ``[meta]`` that says so; its text as a card file's; raises ``CatalogueError`` naming
    each problem."""
    found = list(_text_problems(source, "", taught, ""))  # a key too long is told there
    found += [
        Problem(source, table, "", f"unknown table (expected one of: {', '.join(POPIEL_TABLES)})")
        for table in _keys(taught)
        if table not in POPIEL_TABLES
    ]
    meta = taught.get("meta", {})
    if not isinstance(meta, dict):
        found.append(Problem(source, "meta", "", f"expected a table, got {meta!r:.40}"))
        meta = {}
    for key in _keys(meta):
        if key not in POPIEL_META:
            found.append(Problem(source, "meta", key, "unknown key"))
        elif not POPIEL_META[key][1](meta[key]):
            wrong = f"expected {POPIEL_META[key][0]}, got {meta[key]!r:.40}"
            found.append(Problem(source, "meta", key, wrong))
    tokens = printed["components"]["reward_tokens"]
    for table, least, most in (("windows", 1, MOST_WINDOWS), ("rewards", 0, tokens)):
        values = taught.get(table, {})
        if not isinstance(values, dict):
            found.append(Problem(source, table, "", f"expected a table, got {values!r:.40}"))
            continue
        for key in _keys(values):
            value = values[key]
            if key not in printed[table]:
                found.append(Problem(source, table, key, "unknown key"))
            elif type(value) is not int or not least <= value <= most:
                wrong = f"expected a whole number from {least} to {most}, got {value!r:.40}"
                found.append(Problem(source, table, key, wrong))
    if found:
        raise CatalogueError(found)


def _keys(table: dict[str, Any]) -> list[str]:
    """The keys of a table that are text as a key's is (the others are told once, by
    ``_text_problems``)."""
    return [key for key in table if _text_problem(key, named=True) is None]


def save_popiel_owner(path: PathLike, table: str, values: dict[str, int]) -> None:
    """Teach the owner's Król Popiel file windows or the reward mix, atomically, with the
    owner's own comments and order kept (``write_owner_file``)."""
    target = Path(path)
    raw = load_raw(target) if target.exists() else {"meta": {"game": "popiel", "kind": "owner"}}
    raw.setdefault(table, {}).update(values)
    write_owner_file(target, raw)
