"""One check for everything that comes in: the bounds the engines and the panel keep.

A game record brought in (``tableside import``, ``replay``), an end position (``score``),
a restored backup's settings, games and owner's files: each is held to what the box itself
would have written, so that nothing the statistics, the exports, the stick or the panel
read later can be out of their reach (a score of 10^100 overflows a float, a date of
``Infinity`` a clock, a name of a megabyte a row). Every problem is one line; a caller
refuses the whole and changes nothing.

The bounds are the box's own, imported where they are defined: the settings' checks are the
configuration's (``state_check.CHECKS``), a name is ``plain_values``'s, the owner's files are
checked as ``catalogue_files`` loads them, the journal's identity as ``identity`` makes it,
a finished game's result as the statistics count it, and a journal's schema is compared with
the one the box's own journal makes. Files and the JSON of a journal's rows are read with
``bounded_read``. The few bounds that live nowhere else are here, each with its reason.
"""

import hashlib
import sqlite3
import types
import typing
import zlib
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain, islice
from pathlib import Path
from typing import Any

from firmware_app.store import bounded_read, config, identity, state_check
from firmware_app.store.plain_values import date_problem, name_problem

# A score, and every part of a score sheet: four digits. The most a table can score is far
# below (every figurant at 99 points, the most the panel takes for a card, is about 4,200);
# a correction (``correct points``) may add any number, and 10^100 then broke every sum.
SCORE_LIMIT = 9_999
# A game's actions: the longest example game has 407; a game with every correction a table
# could make stays in the hundreds. Each action is one short line of notation.
MOST_ACTIONS = 10_000
ACTION_LENGTH = 200
# A record embeds its catalogue (an owner's file of at most ``OWNER_FILE_LIMIT``) and its
# actions; the examples are about 50 KB.
RECORD_LIMIT = 4 * config.OWNER_FILE_LIMIT
# What a record holds (``docs/game-record.md``); any other key would be kept in the journal
# and exported with every game.
RECORD_KEYS = (
    "format", "version", "game", "variant", "options", "catalogue", "actions", "outcome", "played",
)  # fmt: skip
PLAYED = ("started", "ended")  # a record's dates, in an export
# The settings the journal keeps: the ones the table changes (their names on the panel) and
# the box's identity.
SETTINGS = (*state_check.SETTING_NAMES, identity.KEY)
SETTING_LIMIT = 64 << 10  # a setting's stored text: the tags of every card fit in a tenth
# A tag's UID as the readers give it, in hex digits: whole bytes, at most 10 (the longest
# NFC UID; the simulator's prompt takes as many).
TAG_UID_DIGITS = 20
# The owner's files a backup holds, by name: the Pingwiny one and the Król Popiel one beside it.
OWNER_FILES = (config.CATALOGUE, config.popiel_owner_file(Path(config.CATALOGUE)).name)
# A sealed game's actions, unpacked (``store/sealed.py``): every action a game may have, each
# escaped as JSON (a quote or a backslash doubles). Unpacked no further: a few kilobytes of
# zlib can unpack to gigabytes.
PACKED_LIMIT = MOST_ACTIONS * (2 * ACTION_LENGTH + 3) + 2
# The lines a refusal tells: the first of them, then how many more. A backup of 60,000
# games with every action wrong would otherwise print, and hold in memory, millions.
MOST_TOLD = 20

# A game row as the box reads it, and where its catalogue is: in its header ("none": none kept
# apart), in the catalogues table ("kept"), or nowhere ("lost").
_GAME_ROWS = """SELECT id, header, started, ended, played, outcome, summary, place, packed,
    packed_count, CASE WHEN catalogue_hash IS NULL THEN 'none'
        WHEN EXISTS (SELECT 1 FROM catalogues WHERE hash = games.catalogue_hash) THEN 'kept'
        ELSE 'lost' END
    FROM games ORDER BY id"""
_CATALOGUE_ROWS = "SELECT hash, body FROM catalogues ORDER BY hash"
_CROWDED = """SELECT game_id, count(*) FROM actions GROUP BY game_id HAVING count(*) > ?
    ORDER BY game_id"""
_ACTION_ROWS = "SELECT game_id, seq, notation FROM actions ORDER BY game_id, seq"
_SCHEMA_ROWS = "SELECT type, name, tbl_name, sql FROM sqlite_schema"


def record_problems(record: Any) -> list[str]:
    """What a record holds beyond the engines' own checks (which ``rules.record.replay``
    makes): only the keys of a record, options of the types the engine declares, names and
    mice a panel shows, the dates of ``played``, and a bounded list of short actions."""
    if not isinstance(record, dict):
        return ["not a game record: a record is a JSON object"]
    found = [
        f"{key!r:.40}: not a key of a game record (known: {', '.join(RECORD_KEYS)})"
        for key in record
        if key not in RECORD_KEYS
    ]
    if type(record.get("version", 0)) is not int:  # true == 1 in Python, not in a record
        found.append(f"version: a whole number, not {record['version']!r:.40}")
    found += _options_problems(record.get("game"), record.get("options"))
    if "played" in record:
        found += _played_problems(record["played"])
    if record.get("outcome", "abandoned") != "abandoned":
        found.append(f'outcome: only "abandoned" is written, not {record["outcome"]!r:.40}')
    actions = record.get("actions", [])
    if isinstance(actions, list):  # replay says what else it must be
        found += _actions_problems(actions)
    return found


def _options_problems(game: Any, options: Any) -> list[str]:
    """Each option of the type its engine declares (``Options``, ``PopielOptions``; the
    engine checks their ranges), names by seat (None: unnamed) and Król Popiel's mice as a
    panel shows them, and his tower's windows as the panel asks them."""
    from rules.record import READERS

    if not isinstance(options, dict) or not isinstance(game, str) or game not in READERS:
        return []  # the engine says what the options must be
    declared = READERS[game][0].__self__.__dataclass_fields__  # from_json's class
    found = [
        f"options.{key}: expected {_typename(declared[key].type)}, not {value!r:.40}"
        for key, value in options.items()
        if key in declared and key != "names" and not _fits(value, declared[key].type)
    ]
    names, players = options.get("names"), options.get("players")
    seats = len(players) if isinstance(players, list) else players
    if isinstance(names, list):
        found += [
            f"options.names[{seat}]: {problem}"
            for seat, name in enumerate(names)
            if name is not None and (problem := name_problem(name))
        ]
        if type(seats) is int and len(names) != seats:
            found.append(f"options.names: {len(names)} names for {seats} seats")
    elif names is not None:
        found.append(f"options.names: a list of names by seat, or null, not {names!r:.40}")
    if isinstance(players, list):
        found += [  # Król Popiel's mice, by colour: named on the panel and in the exports
            f"options.players[{seat}]: {problem}"
            for seat, mouse in enumerate(players)
            if (problem := name_problem(mouse))
        ]
    windows = options.get("windows")
    if type(windows) is int and not 1 <= windows <= _most_windows():
        found.append(f"options.windows: from 1 to {_most_windows()}, not {windows}")
    return found


def _most_windows() -> int:
    from firmware_app.store.catalogue_files import MOST_WINDOWS

    return MOST_WINDOWS


def _fits(value: Any, kind: Any) -> bool:
    """Whether a JSON value is of a dataclass field's declared type (a tuple is a list)."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return any(_fits(value, option) for option in typing.get_args(kind))
    if typing.get_origin(kind) is tuple:
        item = typing.get_args(kind)[0]
        return isinstance(value, list) and all(_fits(inner, item) for inner in value)
    if kind is type(None):
        return value is None
    if kind in (bool, int):
        return type(value) is kind  # true is not a number of players, nor 1 a yes
    return isinstance(value, kind) if isinstance(kind, type) else True


def _typename(kind: Any) -> str:
    return str(kind).replace("<class '", "").replace("'>", "").replace("tuple", "list")


def _played_problems(played: Any) -> list[str]:
    if not isinstance(played, dict):
        return [f'played: expected {{"started": S, "ended": E}}, not {played!r:.40}']
    found = [f"played.{key}: not started or ended" for key in played if key not in PLAYED]
    found += [
        f"played.{key}: {problem}"
        for key in PLAYED
        if key in played and (problem := date_problem(played[key]))
    ]
    return found


def _actions_problems(actions: list) -> list[str]:
    """The first action out of bounds in a record's (or a sealed game's) list of them."""
    if len(actions) > MOST_ACTIONS:
        return [f"actions: {len(actions):,} of them; a game has at most {MOST_ACTIONS:,}"]
    for number, action in enumerate(actions, start=1):
        if (problem := _action_problem(action)) is not None:
            return [f"action {number}: {problem}"]
    return []


def _action_problem(action: Any) -> str | None:
    """What is wrong with one action in notation (None: nothing): a line the panel, the log
    and a terminal show as it is."""
    if not isinstance(action, str):
        return f"an action is a line of text, not {action!r:.40}"
    if len(action) > ACTION_LENGTH or not action.isprintable():
        return (
            f"an action is one line of at most {ACTION_LENGTH} printable characters, "
            f"not {action!r:.40}"
        )
    return None


def score_problems(summary: Mapping[str, Any]) -> list[str]:
    """Scores out of ``SCORE_LIMIT`` in a finished game's summary (``session.summary``)."""
    lines = summary.get("players")
    numbers = [
        (f"player {seat + 1}'s {key}", value)
        for seat, line in enumerate(lines if isinstance(lines, list) else [])
        if isinstance(line, dict)
        for key, value in line.items()
        if type(value) in (int, float)
    ]
    scores = summary.get("scores")
    if isinstance(scores, list):
        numbers += [(f"player {seat + 1}'s score", value) for seat, value in enumerate(scores)]
    return [
        f"{what} is {value}; a score is from -{SCORE_LIMIT:,} to {SCORE_LIMIT:,}"
        for what, value in numbers
        if not -SCORE_LIMIT <= value <= SCORE_LIMIT
    ]


def position_problems(position: Mapping[str, Any], token_total: int) -> list[str]:
    """An end position's names (shown on the score sheet) and token counts (at most the
    box's ``token_total``); ``rules.pingwiny.position`` checks the rest."""
    players = position.get("players")
    found = []
    for number, player in enumerate(players if isinstance(players, list) else [], start=1):
        if not isinstance(player, dict):
            continue
        name = player.get("name")
        if isinstance(name, str) and name and (problem := name_problem(name)):
            found.append(f"player {number}: {problem}")
        tokens = player.get("tokens")
        counts = tokens.values() if isinstance(tokens, dict) else [tokens]
        held = [count for count in counts if type(count) is int]
        if held and sum(held) > token_total:
            found.append(f"player {number}: {sum(held):,} tokens; the box has {token_total}")
    return found


# ------------------------------------------------------------------ settings


def settings_problems(texts: Mapping[str, str]) -> list[str]:
    """Each stored setting (key -> its JSON text, ``Journal.setting_texts``) that the box
    does not know, or whose value its check refuses."""
    found = []
    for key, text in texts.items():
        where = f"setting {key!r:.40}"
        if key not in SETTINGS:
            found.append(f"{where}: not a setting this box knows ({', '.join(SETTINGS)})")
            continue
        if not isinstance(text, str) or len(text) > SETTING_LIMIT:
            found.append(f"{where}: not a value of at most {SETTING_LIMIT:,} characters")
            continue
        try:
            value = bounded_read.parse_json(text)
        except bounded_read.Refused as error:
            found += [f"{where}: {problem}" for problem in error.problems]
            continue
        found += [f"{where}: {problem}" for problem in _setting_problems(key, value)]
    return found


def _setting_problems(key: str, value: Any) -> Iterator[str]:
    if key == identity.KEY:
        if identity.valid(value) is None:
            yield f"not an identity this box makes: {value!r:.40}"
    elif key == "tags":
        yield from tags_problems(value)
    else:
        yield from (message for _, message in state_check.CHECKS[key](value))  # names too


def tag_problem(uid: Any) -> str | None:
    """What is wrong with ``uid`` as a tag's UID (None: nothing)."""
    fits = (
        isinstance(uid, str)
        and 0 < len(uid) <= TAG_UID_DIGITS
        and len(uid) % 2 == 0
        and all(digit in "0123456789ABCDEFabcdef" for digit in uid)
    )
    if fits:
        return None
    return f"a tag's UID is whole bytes in hex, {TAG_UID_DIGITS} digits at most, not {uid!r:.40}"


def tags_problems(tags: Any) -> list[str]:
    """The enrolled tags: a table of UIDs to card ids (``rules.catalogue``'s shape of id)."""
    from rules.catalogue.fields import ID

    if not isinstance(tags, dict):
        return [f"expected a table of tag = card, not {tags!r:.40}"]
    found = [f"{uid!r:.40}: {problem}" for uid in tags if (problem := tag_problem(uid))]
    found += [
        f"{uid!r:.40}: {card!r:.40} is not a card's id"
        for uid, card in tags.items()
        if not (isinstance(card, str) and ID.fullmatch(card))
    ]
    return found


# --------------------------------------------------------------- the restore


def backup_problems(journal, owner_files: Mapping[str, bytes]) -> list[str]:
    """Everything in a backup that the box would not have written, one line each (the first
    :data:`MOST_TOLD`, then how many more).

    ``journal`` is the backup's journal, open, of this version's schema; ``owner_files``
    maps the backup's owner's files (``catalogue.toml``, ``catalogue-krol-popiel.toml``) to
    their bytes. The settings; every game's header (its catalogue too), dates, result,
    place and packed actions; every catalogue kept apart; every action of a game not sealed;
    each owner's file as the cards are loaded from it. Empty: the backup may be restored.
    """
    owners = (
        f"{name}: {problem}"
        for name, data in owner_files.items()
        for problem in owner_file_problems(name, data)
    )
    found = chain(settings_problems(journal.setting_texts()), _rows_problems(journal.path), owners)
    return told(found)


def told(problems: Iterable[str], most: int = MOST_TOLD) -> list[str]:
    """The first ``most`` problems, then one line saying how many more there are; the rest
    are counted, never held."""
    rest = iter(problems)
    lines = list(islice(rest, most))
    more = sum(1 for _ in rest)
    return lines + ([f"and {more:,} more problem{'' if more == 1 else 's'}"] if more else [])


def owner_file_problems(name: str, data: bytes) -> list[str]:
    """An owner's file given as bytes, checked as its cards would be loaded."""
    from firmware_app.store import catalogue_files

    if name not in OWNER_FILES:
        return [f"not an owner's file ({', '.join(OWNER_FILES)})"]
    if len(data) > config.OWNER_FILE_LIMIT:
        return [f"larger than {config.OWNER_FILE_LIMIT:,} bytes"]
    pingwiny = name == OWNER_FILES[0]
    check = catalogue_files.owner_problems if pingwiny else catalogue_files.popiel_owner_problems
    # each problem names the file itself (catalogue_files' Problem); told once, by the caller
    return [str(problem).removeprefix(f"{name}: ") for problem in check(data, name)]


def _rows_problems(path: str | Path) -> Iterator[str]:
    """Every game row, every catalogue kept apart and every action row; read on a connection
    of its own, one row at a time, so ten thousand games are never held at once."""
    try:
        db = sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        yield f"cannot be read: {error}"
        return
    try:
        for row in db.execute(_GAME_ROWS):
            yield from (f"game {row[0]}: {problem}" for problem in _game_problems(*row[1:]))
        yield from _catalogue_rows_problems(db)
        yield from _action_rows_problems(db)
    except sqlite3.Error as error:
        yield f"cannot be read: {error}"
    finally:
        db.close()


def _game_problems(
    header, started, ended, played, outcome, summary, place, packed, count, catalogue
) -> list[str]:
    from rules.record import FORMAT, VARIANTS, VERSION

    if not isinstance(header, str) or len(header) > RECORD_LIMIT:
        return [f"its header is not the text of a record of at most {RECORD_LIMIT:,} characters"]
    try:
        head = bounded_read.parse_json(header)  # its catalogue too: nesting, numbers, text
    except bounded_read.Refused as error:
        return [f"its header: {problem}" for problem in error.problems]
    if not isinstance(head, dict):
        return ["its header is not a record's"]
    if (head.get("format"), head.get("version")) != (FORMAT, VERSION):
        return ["its header is not a record's of this version"]
    game, variant = head.get("game"), head.get("variant")
    if not (isinstance(game, str) and isinstance(variant, str) and (game, variant) in VARIANTS):
        return [f"not a game this box plays: {game!r:.40}/{variant!r:.40}"]
    found = [f"its header: {problem}" for problem in record_problems(head)]
    found += _catalogue_place_problems(head.get("catalogue"), catalogue)
    found += [f"its start: {p}" for p in [date_problem(started)] if p]
    found += [f"its end: {p}" for p in [date_problem(ended)] if ended is not None and p]
    found += [f"its last play: {p}" for p in [date_problem(played)] if played is not None and p]
    if outcome == "finished":
        found += [
            f"its result: {problem}" for problem in _result_problems(head, summary, started, ended)
        ]
    if outcome is None and place is not None:
        found += [f"its place: {problem}" for problem in _place_problems(place)]
    if packed is not None:
        found += [f"its packed actions: {problem}" for problem in _packed_problems(packed, count)]
    return found


def _catalogue_place_problems(inside: Any, kept: str) -> list[str]:
    """A game's catalogue, in its header or kept apart (``kept``: "none", "kept", "lost")."""
    if kept == "lost":
        return ["its catalogue is not in the journal"]
    if inside is not None and not isinstance(inside, dict):
        return [f"its catalogue is not a table: {inside!r:.40}"]
    if inside is None and kept == "none":
        return ["its header holds no catalogue, and none is kept for it"]
    return []


def _packed_problems(packed: Any, count: Any) -> list[str]:
    """A sealed game's actions, unpacked no further than a game's could reach."""
    if not isinstance(packed, bytes):
        return [f"not packed as the box packs them: {type(packed).__name__}"]
    unpacker = zlib.decompressobj()
    try:
        data = unpacker.decompress(packed, PACKED_LIMIT)
    except zlib.error as error:
        return [f"cannot be unpacked: {error}"]
    if unpacker.unconsumed_tail or not unpacker.eof:
        return [f"more than the {PACKED_LIMIT:,} bytes a game's actions take, or cut short"]
    try:
        actions = bounded_read.parse_json(bounded_read.text_of(data))
    except bounded_read.Refused as error:
        return list(error.problems)
    if not isinstance(actions, list):
        return [f"not a list of actions: {actions!r:.40}"]
    found = _actions_problems(actions)
    if type(count) is not int or count != len(actions):
        found.append(f"{len(actions):,} kept, {count!r:.20} counted")
    return found


def _catalogue_rows_problems(db: sqlite3.Connection) -> Iterator[str]:
    """Each catalogue kept apart (``store/sealed.py``): a table of JSON within bounds, under
    the SHA-256 of its text, as the box keeps it."""
    for key, body in db.execute(_CATALOGUE_ROWS):
        where = f"catalogue {ascii(str(key)[:12])}"  # the first digits of its key
        if not isinstance(body, str) or len(body) > RECORD_LIMIT:
            yield f"{where}: not the text of a catalogue of at most {RECORD_LIMIT:,} characters"
            continue
        try:
            catalogue = bounded_read.parse_json(body)
        except bounded_read.Refused as error:
            yield from (f"{where}: {problem}" for problem in error.problems)
            continue
        if not isinstance(catalogue, dict):
            yield f"{where}: not a table: {catalogue!r:.40}"
        elif hashlib.sha256(body.encode("utf-8")).hexdigest() != key:
            yield f"{where}: not kept under the SHA-256 of its text"


def _action_rows_problems(db: sqlite3.Connection) -> Iterator[str]:
    """The actions of the games not sealed: each a short printable line, a bounded number
    of them a game."""
    for game, count in db.execute(_CROWDED, (MOST_ACTIONS,)):
        yield f"game {game}: {count:,} actions; a game has at most {MOST_ACTIONS:,}"
    for game, seq, notation in db.execute(_ACTION_ROWS):
        if (problem := _action_problem(notation)) is not None:
            yield f"game {game}: action {seq}: {problem}"


def _result_problems(head: dict, text: Any, started: Any, ended: Any) -> list[str]:
    """A finished game's summary as the statistics count it, and its scores in bounds; its
    dates are told by the caller, once."""
    from firmware_app.store.listings import GameResult
    from firmware_app.store.statistics import result_problem

    try:
        summary = bounded_read.parse_json(text)
    except (bounded_read.Refused, TypeError) as error:
        return [str(error)]
    options = head["options"] if isinstance(head.get("options"), dict) else {}
    names, players = options.get("names"), options.get("players")
    sound = [date if date_problem(date) is None else 0 for date in (started, ended)]
    counted = GameResult(  # its dates told once, by the caller
        0, head["game"], head["variant"], *sound, summary, 0, names, players, False
    )
    found = [problem] if (problem := result_problem(counted)) else []
    return found + (score_problems(summary) if isinstance(summary, dict) else [])


def _place_problems(text: Any) -> list[str]:
    """How far an unfinished game got (``Session.place``): players, over, step."""
    try:
        place = bounded_read.parse_json(text)
    except (bounded_read.Refused, TypeError) as error:
        return [str(error)]
    fits = (
        isinstance(place, dict)
        and set(place) == {"players", "over", "step"}
        and type(place["players"]) is int
        and 2 <= place["players"] <= 5  # the engines': 2 to 4 penguins, 2 to 5 mice
        and isinstance(place["over"], bool)
        and type(place["step"]) is int
        and 1 <= place["step"] <= MOST_ACTIONS + 1
    )
    return [] if fits else [f"not players, over and step: {place!r:.60}"]


# ------------------------------------------------------------- a journal's schema

# The kinds of object SQLite keeps in a schema.
SCHEMA_KINDS = ("table", "index", "trigger", "view")
Schema = dict[tuple[str, str], tuple[str, str | None]]


def schema_of(db: sqlite3.Connection) -> Schema:
    """The tables, indexes, triggers and views of a file, by kind and name, each with its
    table and its SQL as SQLite keeps it (the statement as written, whitespace made one
    space: only a layout no statement of the box's has could differ otherwise)."""
    return {
        (kind, name): (table, None if sql is None else " ".join(sql.split()))
        for kind, name, table, sql in db.execute(_SCHEMA_ROWS)
    }


def schema_problems(
    found: Schema, expected: Schema, kinds: Iterable[str] | None = None
) -> list[str]:
    """Each object of ``found`` (of ``kinds``; None: of every kind) that ``expected``, the
    schema of a journal the box makes, does not have or has otherwise, and each of
    ``expected`` that ``found`` lacks.

    A trigger runs its own SQL at every write of its table (deleting the history at the
    next game, refusing every setting, counting to three billion); a view or a table of
    its own holds what the box never reads; a table or an index made otherwise checks,
    orders or slows what the box writes.
    """

    def looked_at(kind: str) -> bool:
        return kinds is None or kind in kinds

    problems = [
        f"holds {_a(kind)} {name!r:.40} the box never makes"
        if (kind, name) not in expected
        else f"its {kind} {name!r:.40} is not the one the box makes"
        for (kind, name), made in found.items()
        if looked_at(kind) and expected.get((kind, name)) != made
    ]
    problems += [
        f"lacks the {kind} {name!r} the box makes"
        for kind, name in expected
        if looked_at(kind) and (kind, name) not in found
    ]
    return problems


def _a(kind: Any) -> str:
    """``a table``, ``an index``; an object of a kind SQLite does not make said as it is."""
    if kind not in SCHEMA_KINDS:
        return f"an object of the kind {kind!r:.20}"
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"
