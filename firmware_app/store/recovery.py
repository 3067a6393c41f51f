"""Opening the journal at start: check it, and recover what a damaged one still holds.

An SD card that lost power at the wrong moment, a full or read-only card, a
byte flipped by a worn cell: the box must still start, say what happened,
and keep every game it can. So :func:`open_journal` checks what can have
been damaged since the last stop: the write-ahead log, SQLite's check of the
tables that change in play (settings, actions, catalogues), and every row a
start reads back (each setting must be JSON, every unfinished game must
replay). What grows with the years, the sealed finished games, is checked
after the first screen, beside the main loop (``housekeeping.py``); damage
found there leaves a marker (``journal.sqlite.recheck``) that makes the next
start check the whole file. When something is wrong:

- the damaged files (main file and write-ahead log) are kept under names
  that say so (``journal.damaged-20261201-144300.sqlite``), never deleted;
- a fresh journal is built from what they still hold, from the newest
  good backup and from the backups' archive of sealed games
  (``firmware_app/store/rolling_backups.py``): each game from whichever holds
  more of it, cut after its last action that replays; the settings (which
  include the enrolled tags) from the fuller of the two;
- the :class:`Outcome` tells the log where the files are and gives the
  panel one screen in the table's language.

A journal that is missing or empty while a backup exists was expected, so
it is restored from the backup and said so, never taken for a first start.
A storage that refuses writes (full, read-only) is no damage: nothing is
moved, the journal is opened read-only, and each input that needs a write
tries the file again (``Journal.reopen``).
"""

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from firmware_app.store import rolling_backups
from firmware_app.store.atomic import write_atomically
from firmware_app.store.faults import JournalError, StorageError, writable
from firmware_app.store.journal import Journal
from firmware_app.store.sealed import unpack_actions
from firmware_app.store.wal import wal_problems
from rules.record import RecordError, replay

LOG = logging.getLogger("tableside.recovery")
# The tables whose rows the recovery understands; any other table of the schema
# is copied as it is, from the fuller source first.
GAMES, ACTIONS, SETTINGS, CATALOGUES = "games", "actions", "settings", "catalogues"
SIDE_FILES = ("-wal", "-shm")
SQLITE_MAGIC = b"SQLite format 3\0"


@dataclass
class Rows:
    """Everything readable in one journal file, by table, as column -> value mappings."""

    source: Path
    tables: dict[str, list[dict]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def games(self) -> dict[int, dict]:
        return self._games

    def actions(self, game_id: int) -> list[dict]:
        return self._actions.get(game_id, [])

    # Built once, when the tables are filled: looked up for every game.
    @cached_property
    def _games(self) -> dict[int, dict]:
        return {row["id"]: row for row in self.tables.get(GAMES, [])}

    @cached_property
    def _actions(self) -> dict[int, list[dict]]:
        by_game: dict[int, list[dict]] = {}
        for row in sorted(self.tables.get(ACTIONS, []), key=lambda row: row["seq"]):
            by_game.setdefault(row["game_id"], []).append(row)
        return by_game

    def settings(self) -> dict[str, dict]:
        return {row["key"]: row for row in self.tables.get(SETTINGS, [])}

    def header(self, game_id: int) -> dict | None:
        """A game's header with its catalogue in place; None when either is unreadable."""
        game = self.games()[game_id]
        header = _json(game.get("header"))
        key = game.get("catalogue_hash")
        if not isinstance(header, dict) or key is None:
            return header if isinstance(header, dict) else None
        catalogue = _json(self._catalogues.get(key))
        return {**header, "catalogue": catalogue} if isinstance(catalogue, dict) else None

    @cached_property
    def _catalogues(self) -> dict[str, str]:
        return {row["hash"]: row["body"] for row in self.tables.get(CATALOGUES, [])}


@dataclass(frozen=True)
class Outcome:
    """What the start found, for the log and the panel."""

    kind: str  # "new", "sound", "damaged", "missing" or "unwritable"
    games: int = 0  # games in the journal now (after a sound start: the unfinished ones)
    known: int = 0  # games found in the damaged file and the backup together
    kept: tuple[Path, ...] = ()  # the copies of the damaged files
    backup: Path | None = None  # the backup that was used
    problems: tuple[str, ...] = ()
    reason: str = ""  # for "unwritable": full, read-only or io

    def log(self) -> None:
        if self.kind in ("new", "sound"):
            LOG.info("journal: %s, %d unfinished games", self.kind, self.games)
            return
        if self.kind == "unwritable":
            LOG.error("journal read-only until the storage takes writes: %s", self.problems[0])
            return
        where = ", ".join(str(path) for path in self.kept) or "nothing moved"
        LOG.warning(
            "journal %s: %s; damaged files kept as: %s; %d of %d games recovered%s",
            self.kind,
            "; ".join(self.problems) or "no details",
            where,
            self.games,
            self.known,
            f" (with backup {self.backup})" if self.backup else "",
        )

    def message(self, t) -> list[str]:
        """The panel's words (``t`` is the app's translator); empty after a sound start."""
        if self.kind == "unwritable":
            return [
                {
                    "full": t("Storage full: nothing can be saved until space is freed."),
                    "read-only": t("Storage is read-only: nothing can be saved."),
                }.get(self.reason, t("Storage error: nothing can be saved now."))
            ]
        if self.kind == "missing":
            text = t(
                "The game record was missing. {recovered} of {known} games restored from a backup.",
                recovered=self.games,
                known=self.known,
            )
            return [text]
        if self.kind == "damaged":
            if not self.known:
                return [
                    t(
                        "The game record was damaged and nothing could be read; "
                        "the damaged copy is kept."
                    )
                ]
            text = t(
                "The game record was damaged. {recovered} of {known} games recovered; "
                "the damaged copy is kept.",
                recovered=self.games,
                known=self.known,
            )
            return [text]
        return []


def open_journal(path: Path) -> tuple[Journal, Outcome]:
    """The journal at ``path``, checked and if need be rebuilt; never raises on damage.

    Call :func:`close_journal` at a clean stop: the marker it removes tells
    the next start whether the daemon stopped cleanly.
    """
    path = Path(path)
    _finish_install(path)
    journal, outcome = _open(path)
    with contextlib.suppress(OSError):  # an unwritable folder: the outcome says so
        _running(path).touch()
    return journal, outcome


def close_journal(journal: Journal) -> None:
    """A clean stop: the log copied into the main file, the file closed, the marker removed."""
    journal.checkpoint()
    journal.close()
    with contextlib.suppress(OSError):
        _running(journal.path).unlink(missing_ok=True)


def _open(path: Path) -> tuple[Journal, Outcome]:
    wal = _side(path, "-wal")
    if _empty(path) and _empty(wal):
        if not writable(path):
            refused = StorageError(f"{path}: cannot create the journal", "read-only")
            return _unwritable(path, refused)
        if rolling_backups.newest(path) or rolling_backups.archive(path).exists():
            return _rebuild(path, ["the journal is missing or empty, but backups exist"], "missing")
        return Journal(path), Outcome("new")
    problems = wal_problems(wal)
    if _empty(path):
        problems.append("the main file is empty but its log is not")
    elif not wal.exists() and _running(path).exists():
        problems.append("the log is missing after a stop that was not clean")
    if problems:
        return _rebuild(path, problems, "damaged")
    if not writable(path):
        return _unwritable(path, StorageError(f"{path}: the storage is read-only", "read-only"))
    try:
        journal = Journal(path)
    except StorageError as error:
        return _unwritable(path, error)
    except JournalError as error:
        return _rebuild(path, [str(error)], "damaged")
    whole = recheck(path).exists()  # damage was found after the last start
    problems = journal.check() if whole else journal.check_live()
    if not problems:
        rows = read_rows(path) if whole else read_live_rows(path)
        problems = rows.problems + content_problems(rows)
    if not problems:
        recheck(path).unlink(missing_ok=True)
        unfinished = sum(row.get("outcome") is None for row in rows.games().values())
        return journal, Outcome("sound", games=unfinished)
    journal.close()
    return _rebuild(path, problems, "damaged")


def recheck(path: Path) -> Path:
    """The marker that damage was found after start-up: the next start checks everything."""
    return _side(path, ".recheck")


def read_rows(path: Path) -> Rows:
    """Every row that can still be read from the journal at ``path`` (opened read-only)."""
    return _read(path, _every_table)


def read_live_rows(path: Path) -> Rows:
    """The settings, the unfinished games and the actions table of the journal at ``path``:
    what a start reads back, however long the history. Any error is a problem: the
    rebuild that follows reads what it can of everything."""
    return _read(path, _live_tables)


def _read(path: Path, fill) -> Rows:
    """The rows ``fill(db, rows)`` reads from the file opened read-only."""
    rows = Rows(path)
    try:
        db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        rows.problems.append(f"cannot read {path}: {error}")
        return rows
    try:
        fill(db, rows)
    finally:
        db.close()
    return rows


def _every_table(db: sqlite3.Connection, rows: Rows) -> None:
    try:
        names = [
            row[0] for row in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")
        ]
    except sqlite3.Error as error:
        rows.problems.append(f"cannot list the tables: {error}")
        return
    for name in names:
        rows.tables[name] = _read_table(db, name, rows.problems)


_LIVE_ROWS = {
    GAMES: "SELECT * FROM games WHERE outcome IS NULL",
    ACTIONS: "SELECT * FROM actions",
    SETTINGS: "SELECT * FROM settings",
    # only the unfinished games' catalogues: finished games may have used many others
    CATALOGUES: """SELECT * FROM catalogues
        WHERE hash IN (SELECT catalogue_hash FROM games WHERE outcome IS NULL)""",
}


def _live_tables(db: sqlite3.Connection, rows: Rows) -> None:
    try:
        for table, query in _LIVE_ROWS.items():
            cursor = db.execute(query)
            columns = [column[0] for column in cursor.description]
            rows.tables[table] = [dict(zip(columns, values, strict=True)) for values in cursor]
    except sqlite3.Error as error:
        rows.problems.append(f"cannot read the rows of a start: {error}")


def _read_table(db: sqlite3.Connection, name: str, problems: list[str]) -> list[dict]:
    """The rows of one table that can be read: from its start up to a damaged page, then
    from its end back to it, so a damaged page in the middle costs only the rows it held."""
    keys = _primary_key(db, name)
    found: dict[tuple, dict] = {}
    for direction in ("ASC", "DESC"):
        order = ", ".join(f'"{key}" {direction}' for key in keys) or f"rowid {direction}"
        read = 0
        try:
            cursor = db.execute(f'SELECT * FROM "{name}" ORDER BY {order}')
            columns = [column[0] for column in cursor.description]
            for values in cursor:
                row = dict(zip(columns, values, strict=True))
                found.setdefault(tuple(row[key] for key in keys) or values, row)
                read += 1
            break  # read to the end
        except sqlite3.Error as error:
            problems.append(f"table {name}: read {direction} stopped after {read} rows: {error}")
    return list(found.values())


def _primary_key(db: sqlite3.Connection, name: str) -> list[str]:
    """The table's primary-key columns in key order; empty when unreadable or a plain rowid."""
    try:
        columns = list(db.execute(f'PRAGMA table_info("{name}")'))
    except sqlite3.Error:
        return []
    return [column[1] for column in sorted(columns, key=lambda column: column[5]) if column[5]]


def content_problems(rows: Rows) -> list[str]:
    """What SQLite cannot see: a value that is not JSON, an unfinished game that does not replay."""
    problems = [
        f"setting {key!r} is not JSON"
        for key, row in rows.settings().items()
        if _json(row.get("value")) is None
    ]
    for game_id in rows.games():
        error = _replaying(rows, game_id)[2]
        if error:
            problems.append(f"game {game_id}: {error}")
    return problems


def _json(text) -> object | None:
    try:
        return json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return None


def _replaying(rows: Rows, game_id: int) -> tuple[int, int, str]:
    """How many live actions of the game replay, of how many, and why the rest does not.

    An ended game is only checked for a readable header and summary: it is
    never replayed on the box again, and the export replays it when asked.
    """
    game = rows.games()[game_id]
    live = [row["notation"] for row in rows.actions(game_id) if not row.get("undone")]
    header = rows.header(game_id)
    if header is None:
        return 0, len(live), "its header or its catalogue is not readable"
    if game.get("outcome") is not None:
        if game.get("summary") is not None and _json(game["summary"]) is None:
            return 0, len(live), "its summary is not readable"
        if game.get("packed") is not None:  # sealed: its actions are in its row
            try:
                live = unpack_actions(game["packed"])
            except (ValueError, zlib.error):
                return 0, game.get("packed_count") or 0, "its packed actions are not readable"
        return len(live), len(live), ""
    try:
        replay({**header, "actions": live})
    except RecordError as error:
        return (error.index or 1) - 1, len(live), str(error)
    except Exception as error:  # damaged data can fail in any way the engine can
        return 0, len(live), f"does not replay: {error}"
    return len(live), len(live), ""


# ------------------------------------------------------------ rebuilding


def _rebuild(path: Path, problems: list[str], kind: str) -> tuple[Journal, Outcome]:
    """Keep the damaged files, build a fresh journal beside them, then put it in place.

    Every step leaves the box able to start again if the power goes: until
    the fresh journal is complete the originals are untouched (a new start
    redoes the work), and its installation is finished at the next start
    when a marker says it was under way (:func:`_install`).
    """
    kept = keep_aside(path)
    sources = []
    if kept:
        scratch = Path(tempfile.mkdtemp(prefix=".salvage-", dir=path.parent))
        try:
            copy = scratch / path.name
            for original in kept:
                suffix = next((s for s in SIDE_FILES if original.name.endswith(s)), "")
                shutil.copyfile(original, _side(copy, suffix))
            _mend_magic(copy)
            sources.append(read_rows(copy))
        except (OSError, sqlite3.Error) as error:
            problems.append(f"cannot copy the damaged files to read them: {error}")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    backup = _newest_good_backup(path)
    if backup is not None:
        sources.append(backup)
    if rolling_backups.archive(path).exists():  # the sealed games, each copied once
        archived = read_rows(rolling_backups.archive(path))
        if archived.problems:
            LOG.warning("the backups' archive is damaged: %s", "; ".join(archived.problems))
        sources.append(archived)
    rebuilt = _side(path, ".rebuilt")
    for suffix in ("", *SIDE_FILES):
        _side(rebuilt, suffix).unlink(missing_ok=True)
    Journal(rebuilt).close()
    known = _write(rebuilt, sources)
    _install(path, rebuilt)
    recheck(path).unlink(missing_ok=True)  # the rebuilt file was checked row by row
    journal = Journal(path)
    games = len(read_rows(path).games())
    outcome = Outcome(
        kind,
        games=games,
        known=known,
        kept=tuple(kept),
        backup=backup.source if backup else None,
        problems=tuple(problems),
    )
    return journal, outcome


def _install(path: Path, rebuilt: Path) -> None:
    """Put the fresh journal in the damaged one's place; finished at the next start if cut.

    The old log must go before the new main file arrives (SQLite would apply
    it to the new file), and the originals are already kept aside, so the
    marker only has to say "finish this": remove the log, move the file in.
    """
    marker = _side(path, ".installing")
    write_atomically(marker, rebuilt.name.encode())
    _finish_install(path)


def _finish_install(path: Path) -> None:
    marker = _side(path, ".installing")
    if not marker.exists():
        return
    rebuilt = path.with_name(marker.read_text().strip() or path.name + ".rebuilt")
    if rebuilt.exists():
        for suffix in SIDE_FILES:
            _side(path, suffix).unlink(missing_ok=True)
        os.replace(rebuilt, path)
    marker.unlink()


def _mend_magic(copy: Path) -> None:
    """Give the copy back SQLite's 16-byte signature, which a damaged file may have lost."""
    with contextlib.suppress(OSError), open(copy, "r+b") as file:
        if file.read(16) not in (SQLITE_MAGIC, b""):
            file.seek(0)
            file.write(SQLITE_MAGIC)


def keep_aside(path: Path) -> list[Path]:
    """Copy the journal and its log to ``<name>.damaged-<time><suffix>``; return the copies.

    Copies, each written under a temporary name and then renamed, so a power
    cut never leaves half a copy under the kept name; the originals stay
    until the fresh journal replaces them.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    target = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    number = 1
    while any(_side(target, suffix).exists() for suffix in ("", *SIDE_FILES)):
        number += 1
        target = path.with_name(f"{path.stem}.damaged-{stamp}-{number}{path.suffix}")
    kept = []
    for suffix in ("", "-wal"):  # the -shm index is rebuilt from the log: not worth keeping
        if _side(path, suffix).exists():
            write_atomically(_side(target, suffix), _side(path, suffix).read_bytes())
            kept.append(_side(target, suffix))
    return kept


def _newest_good_backup(path: Path) -> Rows | None:
    for candidate in rolling_backups.newest(path):
        rows = read_rows(candidate)
        if rows.problems or content_problems(rows) or not rows.tables:
            LOG.warning("backup %s is not usable either: %s", candidate, rows.problems)
            continue
        return rows
    return None


def _write(path: Path, sources: list[Rows]) -> int:
    """Fill the fresh journal at ``path`` with the best of ``sources``; return the games known."""
    ranked = sorted(sources, key=_played, reverse=True)  # stable: the damaged file wins ties
    known = set()
    chosen: dict[int, tuple[Rows, int]] = {}
    for source in ranked:
        for game_id in source.games():
            known.add(game_id)
            live, _, _ = _replaying(source, game_id)
            header = _json(source.games()[game_id].get("header"))
            if isinstance(header, dict) and (game_id not in chosen or live > chosen[game_id][1]):
                chosen[game_id] = (source, live)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        tables = [
            row[0] for row in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")
        ]
        for game_id, (source, live) in sorted(chosen.items()):
            if _insert(db, GAMES, source.games()[game_id]):
                kept = [row for row in source.actions(game_id) if not row.get("undone")][:live]
                for row in kept:
                    _insert(db, ACTIONS, row)
        # a game from a journal of schema 1 has no "played"; the migration's value
        if "played" in _columns(db, GAMES):
            db.execute("UPDATE games SET played = coalesce(ended, started) WHERE played IS NULL")
        for table in tables:
            if table in (GAMES, ACTIONS):
                continue
            for source in ranked:
                for row in source.tables.get(table, []):
                    if table != SETTINGS or _json(row.get("value")) is not None:
                        _insert(db, table, row)
        db.execute("COMMIT")
    finally:
        db.close()
    return len(known)


def _played(rows: Rows) -> int:
    return sum(_replaying(rows, game_id)[0] for game_id in rows.games())


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [info[1] for info in db.execute(f'PRAGMA table_info("{table}")')]


def _insert(db: sqlite3.Connection, table: str, row: dict) -> bool:
    """Insert one row, keeping only the columns the new schema has; False if refused."""
    columns = _columns(db, table)
    names = [name for name in columns if name in row]
    marks = ", ".join("?" for _ in names)
    quoted = ", ".join(f'"{name}"' for name in names)
    try:
        cursor = db.execute(
            f'INSERT OR IGNORE INTO "{table}" ({quoted}) VALUES ({marks})',
            [row[name] for name in names],
        )
    except sqlite3.Error:
        return False
    return cursor.rowcount == 1


# ---------------------------------------------------------------- storage


def _unwritable(path: Path, error: StorageError) -> tuple[Journal, Outcome]:
    """The storage refuses writes: read the journal as it is and let each write retry."""
    try:
        journal = Journal(path, read_only=True)
    except JournalError:
        # Not even a reader can set up the log's index here (or there is no file): read a
        # copy in the temporary folder, an empty journal if there is nothing to copy.
        copy = Path(tempfile.mkdtemp(prefix="tableside-readonly-")) / path.name
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                shutil.copyfile(_side(path, suffix), _side(copy, suffix))
        if not copy.exists():
            Journal(copy).close()
        journal = Journal(copy, read_only=True)
    games = len(read_live_rows(journal.path).games())
    journal.path = path  # the next write retries the real file
    return journal, Outcome("unwritable", games=games, problems=(str(error),), reason=error.reason)


def _side(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _running(path: Path) -> Path:
    """The marker that the daemon has the journal open; a clean stop removes it."""
    return _side(path, ".running")


def _empty(path: Path) -> bool:
    return not path.exists() or path.stat().st_size == 0
