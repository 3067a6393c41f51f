"""The journal: every accepted action, in SQLite, committed before the player sees it.

The journal is the single source of truth of a game: resuming after a power
cut, undo, redo, replay and the export of a finished game all read it. A game
is its record header (``rules.record.new_record``) plus its actions in
notation; the engine is deterministic, so those alone rebuild every state.

Durability: the file is in WAL mode with ``synchronous=FULL``. In WAL mode a
commit appends to the write-ahead log, and FULL makes SQLite fsync the log
before the commit returns, so an action acknowledged to the table survives a
power cut; with NORMAL the last commits could be lost (neither corrupts the
file). Every write is one short ``BEGIN IMMEDIATE`` transaction, which takes
the write lock up front instead of failing half-way on a busy file.
Checkpoints, which copy the log into the main file, are left to SQLite's
default (every 1000 pages, and on close): they are rare with commits this
small, and rare is what SD cards like.

The schema is described in ``docs/journal.md``.
"""

import json
import os
import sqlite3
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from firmware_app.store.exchange import Exchange
from firmware_app.store.faults import JournalError, StorageError, refine, storage_fault, writable
from firmware_app.store.in_place import InPlace
from firmware_app.store.integrity import Integrity
from firmware_app.store.listings import FinishedGame, GameResult, UnfinishedGame
from firmware_app.store.rows import json_value
from firmware_app.store.sealed import (
    UNSEALED,
    dumps,
    keep_catalogue,
    seal,
    unpack_actions,
    unpack_header,
)
from rules.record import FORMAT

SCHEMA_VERSION = 3
# Written into the SQLite header, so a journal is recognised as ours and any
# other SQLite file is left untouched. The bytes spell "TBLS".
APPLICATION_ID = 0x54424C53
BUSY_TIMEOUT_MS = 5000

# ---------------------------------------------------------------------- SQL
# All of the journal's SQL. Undone actions always form the tail of a game's
# actions: undo marks the last live one, redo revives the first undone one,
# and an append first deletes the undone tail (a new action ends redo).

# A new file gets the first schema, then every migration: a new journal and
# one migrated from an older Tableside have the same shape, and every test
# that opens a journal runs the migrations.
_SCHEMA = (
    # ``ended`` and ``outcome`` are NULL while a game is played; the partial
    # unique index let at most one game be unfinished (dropped in version 2).
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        header TEXT NOT NULL,
        started REAL NOT NULL,
        ended REAL,
        outcome TEXT CHECK (outcome IN ('finished', 'abandoned')),
        summary TEXT,
        CHECK ((ended IS NULL) = (outcome IS NULL)))""",
    "CREATE UNIQUE INDEX one_unfinished ON games (outcome IS NULL) WHERE outcome IS NULL",
    """CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL CHECK (seq >= 1),
        notation TEXT NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
        PRIMARY KEY (game_id, seq)) WITHOUT ROWID""",
    "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    f"PRAGMA application_id = {APPLICATION_ID}",
    "PRAGMA user_version = 1",
)
# Version -> the statements that take a journal from it to the next version,
# each run in one transaction with the version bump, so a power cut leaves
# the old schema or the new one. Every game, action and setting is kept.
_MIGRATIONS = {
    # Several unfinished games; ``played`` is when a game last took an action,
    # so the resume list can say "12 min ago" (a version-1 game: its last known time).
    1: (
        "DROP INDEX one_unfinished",
        "ALTER TABLE games ADD COLUMN played REAL",
        "UPDATE games SET played = coalesce(ended, started)",
    ),
    # Ended games sealed (``store/sealed.py``): one catalogue for many games, the actions
    # packed; ``place`` is how far an unfinished game got, for the resume list. Only
    # cheap statements: the games already ended are sealed after start-up, one by one.
    2: (
        "CREATE TABLE catalogues (hash TEXT PRIMARY KEY, body TEXT NOT NULL)",
        "ALTER TABLE games ADD COLUMN catalogue_hash TEXT",
        "ALTER TABLE games ADD COLUMN packed BLOB",
        "ALTER TABLE games ADD COLUMN packed_count INTEGER",
        "ALTER TABLE games ADD COLUMN sealed INTEGER",
        "ALTER TABLE games ADD COLUMN crc INTEGER",
        "ALTER TABLE games ADD COLUMN place TEXT",
        "CREATE INDEX games_unfinished ON games (id) WHERE outcome IS NULL",
        "CREATE UNIQUE INDEX games_sealed ON games (sealed) WHERE sealed IS NOT NULL",
        "CREATE INDEX games_unsealed ON games (id) WHERE outcome IS NOT NULL AND sealed IS NULL",
    ),
}
_GAME = "SELECT header, outcome FROM games WHERE id = ?"
_STORED = "SELECT header, catalogue_hash, packed FROM games WHERE id = ?"
_LIVE_COUNT = """coalesce(packed_count,
    (SELECT count(*) FROM actions WHERE game_id = games.id AND NOT undone))"""
# A game copied in by recovery from a version-1 backup has no ``played``: its start counts.
_UNFINISHED = f"""SELECT id, json_extract(header, '$.game'), json_extract(header, '$.variant'),
    started, coalesce(played, started) AS last, {_LIVE_COUNT}, place
    FROM games WHERE outcome IS NULL ORDER BY last DESC, id DESC"""
_NEW_GAME = "INSERT INTO games (header, started, played, catalogue_hash) VALUES (?1, ?2, ?2, ?3)"
_PLAYED = "UPDATE games SET played = ? WHERE id = ?"
_TAUGHT = "UPDATE games SET header = ?, catalogue_hash = ? WHERE id = ?"
_PLACE = "UPDATE games SET place = ? WHERE id = ?"
_END = "UPDATE games SET outcome = ?, ended = ?, summary = ? WHERE id = ?"
_ENDED = f"""SELECT id, header, started, ended, summary, {_LIVE_COUNT}, outcome
    FROM games WHERE outcome IS NOT NULL ORDER BY id"""
_STARTED = "SELECT started FROM games WHERE id = ?"
# What the statistics need of each finished game, read by SQLite from the header's JSON
# so that the catalogue (tens of kilobytes; a sealed game's is kept apart) is never
# parsed in Python.
_CATALOGUE_OF = """coalesce((SELECT body FROM catalogues WHERE hash = games.catalogue_hash),
    json_extract(header, '$.catalogue'))"""
_RESULTS = f"""SELECT id, json_extract(header, '$.game'), json_extract(header, '$.variant'),
    started, ended, summary, {_LIVE_COUNT}, json_extract(header, '$.options.names'),
    json_extract(header, '$.options.players'),
    coalesce(json_extract({_CATALOGUE_OF}, '$.meta.kind') = 'demo', 0)
        OR json_extract({_CATALOGUE_OF}, '$.demo_label') IS NOT NULL
    FROM games WHERE outcome = 'finished' AND id > ? ORDER BY id LIMIT ?"""
_NEXT_FINISHED = "SELECT id FROM games WHERE outcome = 'finished' AND id > ? ORDER BY id LIMIT 1"
_LIVE = "SELECT notation FROM actions WHERE game_id = ? AND NOT undone ORDER BY seq"
_COUNTS = """SELECT coalesce(sum(NOT undone), 0), coalesce(sum(undone), 0)
    FROM actions WHERE game_id = ?"""
_DROP_REDO = "DELETE FROM actions WHERE game_id = ? AND undone"
_APPEND = """INSERT INTO actions (game_id, seq, notation)
    SELECT ?1, coalesce(max(seq), 0) + 1, ?2 FROM actions WHERE game_id = ?1 RETURNING seq"""
_UNDO = """UPDATE actions SET undone = 1 WHERE game_id = ?1 AND seq =
    (SELECT max(seq) FROM actions WHERE game_id = ?1 AND NOT undone) RETURNING notation"""
_REDO = """UPDATE actions SET undone = 0 WHERE game_id = ?1 AND seq =
    (SELECT min(seq) FROM actions WHERE game_id = ?1 AND undone) RETURNING notation"""
_GET_SETTING = "SELECT value FROM settings WHERE key = ?"
_SET_SETTING = """INSERT INTO settings (key, value) VALUES (?, ?)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value"""


class Journal(Integrity, InPlace, Exchange):
    """One journal file; opened (and created if absent) by the constructor.

    Times (``now``) are given by the caller, wall-clock seconds in the daemon,
    so the journal holds no clock of its own. Close it with :meth:`close` or
    use it as a context manager.
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.path = Path(path)
        self.read_only = False
        # set when the start could not check the file (recovery.py): every write refused
        self.refusing: str | None = None
        self._db = self._connect(read_only)

    def _connect(self, read_only: bool) -> sqlite3.Connection:
        """A connection set up for use; read-only serves a storage that refuses writes."""
        try:
            if read_only:
                target = f"{self.path.absolute().as_uri()}?mode=ro"
                db = sqlite3.connect(target, uri=True, isolation_level=None)
            else:
                db = sqlite3.connect(
                    self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
                )
        except sqlite3.Error as error:
            raise self._open_error(error) from error
        before = getattr(self, "_db", None), self.read_only, self._opened
        try:
            self._db, self.read_only, self._opened = db, read_only, None
            self._open()
        except BaseException:
            db.close()
            self._db, self.read_only, self._opened = before
            raise
        self._watch()  # the files it opened, kept in place by InPlace
        return db

    def _open(self) -> None:
        """Check that the file is ours before changing anything, then set it up."""
        try:
            if not self._is_empty():
                self._check_identity()
            elif self.read_only:
                raise JournalError(f"{self.path}: no journal to read")
            if self.read_only:
                version = self._pragma("user_version")
                if version < SCHEMA_VERSION:
                    raise JournalError(
                        f"{self.path}: journal schema {version} must be updated to "
                        f"{SCHEMA_VERSION}, which needs a writable storage"
                    )
                return
            self._set_durability()
            with self._writing():
                if self._is_empty():
                    for statement in _SCHEMA:
                        self._db.execute(statement)
            self._migrate()
        except sqlite3.Error as error:
            raise self._open_error(error) from error

    def _open_error(self, error: sqlite3.Error) -> JournalError:
        reason = storage_fault(error)
        if reason is not None:
            reason = refine(reason, self.path)
            return StorageError(f"{self.path}: cannot open the journal: {error}", reason)
        if isinstance(error, sqlite3.OperationalError):
            return JournalError(f"{self.path}: cannot open the journal: {error}")
        return JournalError(f"{self.path}: not a Tableside journal ({error})")

    def reopen(self) -> None:
        """Open the file again for writing after the storage refused it; raises if it still does."""
        if self.refusing:
            raise StorageError(self.refusing, "io")
        if not writable(self.path):
            raise StorageError(f"{self.path}: the storage is read-only", "read-only")
        # Closed first: SQLite shares one file handle and log index per file among
        # the connections of a process, and the read-only ones would be reused.
        self._db.close()
        try:
            self._connect(read_only=False)
        except JournalError:
            self._connect(read_only=True)
            raise

    def _migrate(self) -> None:
        """Bring an older journal to this schema, one version per transaction."""
        version = self._pragma("user_version")
        while version < SCHEMA_VERSION:
            with self._writing():
                for statement in _MIGRATIONS[version]:
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {version + 1}")
            version += 1

    def _is_empty(self) -> bool:
        tables = self._db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
        return tables == 0 and self._pragma("application_id") == 0

    def _check_identity(self) -> None:
        if self._pragma("application_id") != APPLICATION_ID:
            raise JournalError(f"{self.path}: an SQLite file, but not a Tableside journal")
        version = self._pragma("user_version")
        if not 1 <= version <= SCHEMA_VERSION:
            raise JournalError(
                f"{self.path}: journal schema {version} (a newer Tableside?); "
                f"this one reads schema {SCHEMA_VERSION}"
            )

    def _set_durability(self) -> None:
        """WAL + synchronous=FULL + foreign keys, refusing to run if one did not take."""
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.execute("PRAGMA foreign_keys = ON")
        wanted = {"journal_mode": "wal", "synchronous": "FULL", "foreign_keys": True}
        got = self.storage()
        for name, value in wanted.items():
            if got[name] != value:
                raise JournalError(
                    f"{self.path}: SQLite did not accept {name} = {value} (it is {got[name]}); "
                    "acknowledged actions could be lost in a power cut"
                )

    def _pragma(self, name: str) -> Any:
        return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    def storage(self) -> dict[str, Any]:
        """The storage settings in effect on this connection, as SQLite reports them."""
        return {
            "journal_mode": self._pragma("journal_mode"),
            "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[
                self._pragma("synchronous")
            ],
            "foreign_keys": bool(self._pragma("foreign_keys")),
            "busy_timeout_ms": self._pragma("busy_timeout"),
            "schema": self._pragma("user_version"),
        }

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One transaction, committed (and so on disk) when the block ends.

        A storage fault (full, read-only, I/O error) rolls it back and raises
        ``StorageError``: nothing changed, and the next write tries again, on
        a journal opened read-only at start too (it reopens the file first). A journal
        deleted or replaced while open is written again first (``store/in_place.py``).
        """
        if self.read_only:
            self.reopen()
        else:
            self._keep_in_place()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            yield
            self._db.execute("COMMIT")
        except BaseException as error:
            if self._db.in_transaction:
                # SQLite may have rolled back by itself, as it does after an I/O error
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            reason = storage_fault(error) if isinstance(error, sqlite3.Error) else None
            if reason is not None:
                reason = refine(reason, self.path)
                # SQLite falls back to reading a file it cannot write: reopen before the next try
                self.read_only = self.read_only or reason != "full"
                raise StorageError(f"{self.path}: cannot write: {error}", reason) from error
            if isinstance(error, sqlite3.OperationalError):
                raise JournalError(f"{self.path}: cannot write: {error}") from error
            raise

    # -------------------------------------------------------------- games

    def start_game(self, header: Mapping[str, Any], *, now: float) -> int:
        """Store a new game and return its id; the other unfinished games stay as they are."""
        if not isinstance(header, Mapping) or header.get("format") != FORMAT:
            raise ValueError(f"a game header is a '{FORMAT}' mapping, not {header!r:.60}")
        if header.get("actions"):
            raise ValueError("a new game's header has no actions; append them one by one")
        kept = {key: value for key, value in header.items() if key != "actions"}
        with self._writing():
            catalogue = keep_catalogue(self._db, kept)
            return self._db.execute(_NEW_GAME, (dumps(kept), now, catalogue)).lastrowid

    def complete_catalogue(self, game_id: int, catalogue: Mapping[str, Any]) -> None:
        """Replace the catalogue in a running game's header by one that knows more.

        Only values the table taught may change, from unknown to known: the
        caller (``Session.teach``) checks that the game still replays the same.
        """
        header, _ = self._game(game_id)
        record = json.loads(header)
        record["catalogue"] = catalogue
        with self._writing():
            self._playing(game_id)
            key = keep_catalogue(self._db, record)
            self._db.execute(_TAUGHT, (dumps(record), key, game_id))

    def unfinished(self) -> int | None:
        """The id of the unfinished game played last, if any: the one to resume first."""
        games = self.unfinished_games()
        return games[0].id if games else None

    def unfinished_games(self) -> list[UnfinishedGame]:
        """Every unfinished game, the one played last first."""
        games = []
        for game_id, game, variant, started, played, actions, place in self._db.execute(
            _UNFINISHED
        ):
            place = json_value(place) if place else None  # a damaged one is worked out again
            games.append(
                UnfinishedGame(game_id, game or "", variant or "", started, played, actions, place)
            )
        return games

    def record(self, game_id: int) -> dict[str, Any]:
        """The header and the live actions: exactly what ``rules.record.replay`` takes."""
        row = self._db.execute(_STORED, (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path}: no game {game_id!r}")
        header, catalogue, packed = row
        try:
            record = unpack_header(self._db, header, catalogue)
            if packed is not None:
                record["actions"] = unpack_actions(packed)
                return record
        except (ValueError, zlib.error) as error:
            raise JournalError(f"{self.path}: game {game_id} is damaged: {error}") from error
        record["actions"] = [row[0] for row in self._db.execute(_LIVE, (game_id,))]
        return record

    def finish(self, game_id: int, summary: Mapping[str, Any], *, now: float) -> None:
        """Close the game with its result; it can no longer change.

        Call it when the table has accepted the final score: undo ends here.
        The undone tail, which can no longer be redone, is dropped.
        """
        self._end(game_id, "finished", summary, now)

    def abandon(self, game_id: int, *, now: float) -> None:
        """End a game before its end, keeping it: it is listed and exported as abandoned.

        Nothing is deleted; like a finished game it can no longer change, and
        its undone tail is dropped.
        """
        self._end(game_id, "abandoned", {}, now)

    def _end(self, game_id: int, outcome: str, summary: Mapping[str, Any], now: float) -> None:
        stored = dumps(dict(summary))
        with self._writing():
            self._playing(game_id)
            self._db.execute(_DROP_REDO, (game_id,))
            self._db.execute(_END, (outcome, now, stored, game_id))
            seal(self._db, game_id)

    def seal_ended(self, limit: int) -> int:
        """Seal up to ``limit`` ended games kept as played (from before sealing existed),
        each in its own transaction, so what is done before a power cut stays done;
        returns how many were sealed (0: none is left)."""
        done = 0
        for (game_id,) in self._db.execute(UNSEALED, (limit,)).fetchall():
            with self._writing():
                seal(self._db, game_id)
            done += 1
        return done

    def finished_games(self) -> list[FinishedGame]:
        """Every finished game, oldest first."""
        return [game for game in self.ended_games() if game.outcome == "finished"]

    def ended_games(self) -> list[FinishedGame]:
        """Every finished or abandoned game, oldest first."""
        games = []
        for row in self._db.execute(_ENDED):
            game_id, header, started, ended, summary, actions, outcome = row
            head, summary = json_value(header), json_value(summary) if summary else {}
            if not isinstance(head, dict) or not isinstance(summary, dict):
                continue  # damaged: the statistics set it aside (store/state_check.py)
            game, variant = head.get("game", ""), head.get("variant", "")
            games.append(
                FinishedGame(game_id, game, variant, started, ended, summary, actions, outcome)
            )
        return games

    def results(self, after: int, limit: int) -> list[GameResult]:
        """The result of each finished game with an id above ``after``, oldest first;
        at most ``limit`` of them when it is not negative (a slice of the work)."""
        results = []
        for row in self._db.execute(_RESULTS, (after, limit)):
            game_id, game, variant, started, ended, summary, actions, names, players, demo = row
            names = json.loads(names) if names else None
            players = json.loads(players) if isinstance(players, str) else players
            results.append(
                GameResult(
                    game_id, game, variant, started, ended, json.loads(summary), actions,
                    names, players, bool(demo),
                )
            )  # fmt: skip
        return results

    def next_finished_id(self, after: int) -> int | None:
        """The id of the first finished game above ``after``, read without its row: the
        statistics name a game whose row ``results`` cannot read."""
        row = self._db.execute(_NEXT_FINISHED, (after,)).fetchone()
        return None if row is None else row[0]

    def newest_id(self) -> int:
        """The number of the newest game (0 for none): games are numbered as they start."""
        return self._db.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0]

    def started_at(self, game_id: int) -> float | None:
        """When a game started, or None when the journal has no such game."""
        row = self._db.execute(_STARTED, (game_id,)).fetchone()
        return None if row is None else row[0]

    def _game(self, game_id: int) -> tuple[str, str | None]:
        row = self._db.execute(_GAME, (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path}: no game {game_id!r}")
        return row

    def _playing(self, game_id: int) -> None:
        _, outcome = self._game(game_id)
        if outcome is not None:
            raise JournalError(f"{self.path}: game {game_id} is {outcome}; it cannot change")

    # ------------------------------------------------------------ actions

    def append(
        self, game_id: int, notation: str, *, now: float | None = None, place: Any = None
    ) -> int:
        """Commit one accepted action and return its number (1 for the first).

        The commit is on disk when this returns, so the daemon shows the
        result only afterwards. Any undone actions are dropped first: after
        a new action there is nothing to redo. ``now``, when given, is kept
        as the time the game was last played, and ``place`` as how far it got.
        """
        if not isinstance(notation, str) or not notation.strip():
            raise ValueError(f"an action is a non-empty notation, not {notation!r}")
        with self._writing():
            self._playing(game_id)
            self._db.execute(_DROP_REDO, (game_id,))
            if now is not None:
                self._db.execute(_PLAYED, (now, game_id))
            self._place(game_id, place)
            return self._db.execute(_APPEND, (game_id, notation)).fetchone()[0]

    def undo(self, game_id: int, *, place: Any = None) -> str | None:
        """Mark the last live action undone and return it (None if there is none).

        It is kept for :meth:`redo`; the caller rebuilds the state by replay.
        ``place`` is how far the game is after it, for the resume list.
        """
        return self._step(_UNDO, game_id, place)

    def redo(self, game_id: int) -> str | None:
        """Make the first undone action live again and return it (None if there is none).

        The caller applies it to the engine again; the draw is the same,
        because the random source lives in the state.
        """
        return self._step(_REDO, game_id, None)

    def place(self, game_id: int) -> Any:
        """How far an unfinished game got, as last kept (None: not kept yet); an ended or
        unknown game raises ``JournalError``."""
        self._playing(game_id)
        (place,) = self._db.execute("SELECT place FROM games WHERE id = ?", (game_id,)).fetchone()
        return json_value(place) if place else None  # a damaged one is kept again

    def set_place(self, game_id: int, place: Any) -> None:
        """Keep how far an unfinished game got (JSON), so the resume list replays nothing."""
        with self._writing():
            self._playing(game_id)
            self._place(game_id, place)

    def _place(self, game_id: int, place: Any) -> None:
        if place is not None:
            self._db.execute(_PLACE, (dumps(place), game_id))

    def _step(self, statement: str, game_id: int, place: Any) -> str | None:
        with self._writing():
            self._playing(game_id)
            row = self._db.execute(statement, (game_id,)).fetchone()
            if row is not None:
                self._place(game_id, place)
        return None if row is None else row[0]

    def can_undo(self, game_id: int) -> bool:
        """Whether :meth:`undo` would take something back (never in an ended game)."""
        return self._counts(game_id)[0] > 0

    def can_redo(self, game_id: int) -> bool:
        """Whether :meth:`redo` has an undone action to bring back."""
        return self._counts(game_id)[1] > 0

    def _counts(self, game_id: int) -> tuple[int, int]:
        """Live and undone actions; none of either once the game has ended."""
        _, outcome = self._game(game_id)
        if outcome is not None:
            return 0, 0
        return self._db.execute(_COUNTS, (game_id,)).fetchone()

    # ----------------------------------------------------------- settings

    def get_setting(self, key: str, default: Any = None) -> Any:
        """A user setting saved by the daemon (language, contrast...), or ``default``."""
        row = self._db.execute(_GET_SETTING, (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def setting_texts(self) -> dict[str, str]:
        """Every stored setting as its stored text: a bad one is kept aside as it was."""
        return dict(self._db.execute("SELECT key, value FROM settings"))

    def set_setting(self, key: str, value: Any) -> None:
        """Save a user setting; ``value`` must be JSON (TypeError/ValueError otherwise)."""
        if not isinstance(key, str) or not key:
            raise ValueError(f"a setting's key is a non-empty string, not {key!r}")
        stored = json.dumps(value, allow_nan=False)
        with self._writing():
            self._db.execute(_SET_SETTING, (key, stored))

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the main file and empty it (end of a game, a stop).

        A failure is left for SQLite's next checkpoint: the log keeps every commit.
        """
        if not self.read_only:
            with suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()

    def interrupt(self) -> None:
        """Cut short the statement running on this connection in another thread (a stop).
        That thread may have closed the connection meanwhile: nothing is left to cut short."""
        with suppress(sqlite3.ProgrammingError):
            self._db.interrupt()

    def close(self) -> None:
        self._db.close()
        self._unwatch()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
