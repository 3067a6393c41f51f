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
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_app.files import write_atomically
from rules.record import FORMAT

SCHEMA_VERSION = 1
# Written into the SQLite header, so a journal is recognised as ours and any
# other SQLite file is left untouched. The bytes spell "TBLS".
APPLICATION_ID = 0x54424C53
BUSY_TIMEOUT_MS = 5000

# ---------------------------------------------------------------------- SQL
# All of the journal's SQL. Undone actions always form the tail of a game's
# actions: undo marks the last live one, redo revives the first undone one,
# and an append first deletes the undone tail (a new action ends redo).

_SCHEMA = (
    # ``ended`` and ``outcome`` are NULL while a game is played; the partial
    # unique index lets at most one game be unfinished.
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
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)
_GAME = "SELECT header, outcome FROM games WHERE id = ?"
_UNFINISHED = "SELECT id FROM games WHERE outcome IS NULL"
_ABANDON = "UPDATE games SET outcome = 'abandoned', ended = ? WHERE outcome IS NULL"
_NEW_GAME = "INSERT INTO games (header, started) VALUES (?, ?)"
_IMPORTED = """INSERT INTO games (header, started, ended, outcome, summary)
    VALUES (?, ?, ?, 'finished', ?)"""
_IMPORTED_ACTION = "INSERT INTO actions (game_id, seq, notation) VALUES (?, ?, ?)"
# Finished games that could be the same as a record: same game, variant and seed.
_SAME_SEED = """SELECT id FROM games WHERE outcome = 'finished'
    AND json_extract(header, '$.game') = ? AND json_extract(header, '$.variant') = ?
    AND json_extract(header, '$.options.seed') IS ?"""
_FINISH = "UPDATE games SET outcome = 'finished', ended = ?, summary = ? WHERE id = ?"
_FINISHED = """SELECT id, header, started, ended, summary,
    (SELECT count(*) FROM actions WHERE game_id = games.id AND NOT undone)
    FROM games WHERE outcome = 'finished' AND id > ? ORDER BY id"""
_STARTED = "SELECT started FROM games WHERE id = ?"
_PLAYED = "SELECT started, ended FROM games WHERE id = ?"
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
# A live action after an undone one would mean the undone tail was broken.
_BROKEN_TAIL = """SELECT live.game_id, live.seq FROM actions AS live JOIN actions AS gone
    ON gone.game_id = live.game_id AND gone.undone AND NOT live.undone AND gone.seq < live.seq
    GROUP BY live.game_id, live.seq"""
_GET_SETTING = "SELECT value FROM settings WHERE key = ?"
_SET_SETTING = """INSERT INTO settings (key, value) VALUES (?, ?)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value"""


class JournalError(Exception):
    """The journal file cannot be used, or a game cannot take what was asked."""


@dataclass(frozen=True)
class FinishedGame:
    """One line of the list of finished games: enough to show it and pick it."""

    id: int
    game: str
    variant: str
    started: float
    finished: float
    summary: dict[str, Any]
    actions: int
    header: dict[str, Any]


class Journal:
    """One journal file; opened (and created if absent) by the constructor.

    Times (``now``) are given by the caller, wall-clock seconds in the daemon,
    so the journal holds no clock of its own. Close it with :meth:`close` or
    use it as a context manager.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
            )
        except sqlite3.Error as error:
            raise JournalError(f"{self.path}: cannot open the journal: {error}") from error
        try:
            self._open()
        except BaseException:
            self._db.close()
            raise

    def _open(self) -> None:
        """Check that the file is ours before changing anything, then set it up."""
        try:
            if not self._is_empty():
                self._check_identity()
            self._set_durability()
            with self._writing():
                if self._is_empty():
                    for statement in _SCHEMA:
                        self._db.execute(statement)
        except sqlite3.OperationalError as error:
            raise JournalError(f"{self.path}: cannot open the journal: {error}") from error
        except sqlite3.DatabaseError as error:
            raise JournalError(f"{self.path}: not a Tableside journal ({error})") from error

    def _is_empty(self) -> bool:
        tables = self._db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
        return tables == 0 and self._pragma("application_id") == 0

    def _check_identity(self) -> None:
        if self._pragma("application_id") != APPLICATION_ID:
            raise JournalError(f"{self.path}: an SQLite file, but not a Tableside journal")
        version = self._pragma("user_version")
        if version != SCHEMA_VERSION:
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
        """One transaction, committed (and so on disk) when the block ends."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            yield
            self._db.execute("COMMIT")
        except BaseException as error:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            if isinstance(error, sqlite3.OperationalError):
                raise JournalError(f"{self.path}: cannot write: {error}") from error
            raise

    # -------------------------------------------------------------- games

    def start_game(self, header: Mapping[str, Any], *, now: float) -> int:
        """Store a new game and return its id; it becomes the unfinished game.

        A game still unfinished is marked abandoned, not refused: the daemon
        only starts a game after the table chose "new game" over "resume",
        and the abandoned game's actions stay in the journal.
        """
        if not isinstance(header, Mapping) or header.get("format") != FORMAT:
            raise ValueError(f"a game header is a '{FORMAT}' mapping, not {header!r:.60}")
        if header.get("actions"):
            raise ValueError("a new game's header has no actions; append them one by one")
        kept = {key: value for key, value in header.items() if key != "actions"}
        stored = json.dumps(kept, ensure_ascii=False, allow_nan=False)
        with self._writing():
            self._db.execute(_ABANDON, (now,))
            return self._db.execute(_NEW_GAME, (stored, now)).lastrowid

    def unfinished(self) -> int | None:
        """The id of the game being played, if any: the one to offer to resume."""
        row = self._db.execute(_UNFINISHED).fetchone()
        return None if row is None else row[0]

    def record(self, game_id: int) -> dict[str, Any]:
        """The header and the live actions: exactly what ``rules.record.replay`` takes."""
        header, _ = self._game(game_id)
        record = json.loads(header)
        record["actions"] = [row[0] for row in self._db.execute(_LIVE, (game_id,))]
        return record

    def finish(self, game_id: int, summary: Mapping[str, Any], *, now: float) -> None:
        """Close the game with its result; it can no longer change.

        Call it when the table has accepted the final score: undo ends here.
        The undone tail, which can no longer be redone, is dropped.
        """
        stored = json.dumps(dict(summary), ensure_ascii=False, allow_nan=False)
        with self._writing():
            self._playing(game_id)
            self._db.execute(_DROP_REDO, (game_id,))
            self._db.execute(_FINISH, (now, stored, game_id))

    def finished_games(self, after: int = 0) -> list[FinishedGame]:
        """Every finished game (or those with an id above ``after``), oldest first."""
        games = []
        rows = self._db.execute(_FINISHED, (after,))
        for game_id, header, started, ended, summary, actions in rows:
            head = json.loads(header)
            games.append(
                FinishedGame(
                    game_id,
                    head.get("game", ""),
                    head.get("variant", ""),
                    started,
                    ended,
                    json.loads(summary),
                    actions,
                    head,
                )
            )
        return games

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

    def append(self, game_id: int, notation: str) -> int:
        """Commit one accepted action and return its number (1 for the first).

        The commit is on disk when this returns, so the daemon shows the
        result only afterwards. Any undone actions are dropped first: after
        a new action there is nothing to redo.
        """
        if not isinstance(notation, str) or not notation.strip():
            raise ValueError(f"an action is a non-empty notation, not {notation!r}")
        with self._writing():
            self._playing(game_id)
            self._db.execute(_DROP_REDO, (game_id,))
            return self._db.execute(_APPEND, (game_id, notation)).fetchone()[0]

    def undo(self, game_id: int) -> str | None:
        """Mark the last live action undone and return it (None if there is none).

        It is kept for :meth:`redo`; the caller rebuilds the state by replay.
        """
        return self._step(_UNDO, game_id)

    def redo(self, game_id: int) -> str | None:
        """Make the first undone action live again and return it (None if there is none).

        The caller applies it to the engine again; the draw is the same,
        because the random source lives in the state.
        """
        return self._step(_REDO, game_id)

    def _step(self, statement: str, game_id: int) -> str | None:
        with self._writing():
            self._playing(game_id)
            row = self._db.execute(statement, (game_id,)).fetchone()
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

    # ------------------------------------------------------------- export

    def export(self, game_id: int) -> dict[str, Any]:
        """The record of a finished game, as ``docs/game-record.md`` describes it.

        Only finished games: an export is the lasting document of a game,
        while the record of a game in play still changes.
        """
        _, outcome = self._game(game_id)
        if outcome != "finished":
            raise JournalError(f"{self.path}: game {game_id} is not finished")
        started, ended = self._db.execute(_PLAYED, (game_id,)).fetchone()
        return {**self.record(game_id), "played": {"started": started, "ended": ended}}

    def import_finished(
        self, record: Mapping[str, Any], summary: Mapping[str, Any], started: float, ended: float
    ) -> int:
        """Store a game finished elsewhere (its record and final summary); return its id.

        The caller has replayed the record to its end; the game is kept as if it
        had been played here, so statistics and exports treat it alike.
        """
        header = {k: v for k, v in record.items() if k not in ("actions", "played")}
        stored = json.dumps(header, ensure_ascii=False, allow_nan=False)
        result = json.dumps(dict(summary), ensure_ascii=False, allow_nan=False)
        with self._writing():
            game_id = self._db.execute(_IMPORTED, (stored, started, ended, result)).lastrowid
            self._db.executemany(
                _IMPORTED_ACTION,
                [(game_id, seq, notation) for seq, notation in enumerate(record["actions"], 1)],
            )
        return game_id

    def find_finished(self, record: Mapping[str, Any]) -> int | None:
        """The finished game whose record is ``record`` (dates aside), if the journal has one."""
        wanted = {k: v for k, v in record.items() if k != "played"}
        seed = (record.get("options") or {}).get("seed")
        rows = self._db.execute(_SAME_SEED, (record.get("game"), record.get("variant"), seed))
        for (game_id,) in rows.fetchall():
            if self.record(game_id) == wanted:
                return game_id
        return None

    def export_all(self, folder: str | os.PathLike[str]) -> list[Path]:
        """Write each finished game to ``folder/game-NNNNN.json``; return the paths.

        Each file is written atomically, so a power cut leaves either the old
        file or the new one; exporting again rewrites the same names.
        """
        target = Path(folder)
        target.mkdir(parents=True, exist_ok=True)
        written = []
        for game in self.finished_games():
            path = target / f"game-{game.id:05d}.json"
            text = json.dumps(self.export(game.id), ensure_ascii=False, indent=2) + "\n"
            write_atomically(path, text.encode("utf-8"))
            written.append(path)
        return written

    # ----------------------------------------------------------- settings

    def get_setting(self, key: str, default: Any = None) -> Any:
        """A user setting saved by the daemon (language, contrast...), or ``default``."""
        row = self._db.execute(_GET_SETTING, (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, key: str, value: Any) -> None:
        """Save a user setting; ``value`` must be JSON (TypeError/ValueError otherwise)."""
        if not isinstance(key, str) or not key:
            raise ValueError(f"a setting's key is a non-empty string, not {key!r}")
        stored = json.dumps(value, allow_nan=False)
        with self._writing():
            self._db.execute(_SET_SETTING, (key, stored))

    # ---------------------------------------------------------- integrity

    def check(self) -> list[str]:
        """Every problem SQLite or the undo rules find in the file; empty when sound."""
        problems = [row[0] for row in self._db.execute("PRAGMA integrity_check")]
        problems = [text for text in problems if text != "ok"]
        problems += [
            f"a row of {table} refers to a missing row of {parent}"
            for table, _, parent, _ in self._db.execute("PRAGMA foreign_key_check")
        ]
        problems += [
            f"game {game_id}: live action {seq} follows an undone action"
            for game_id, seq in self._db.execute(_BROKEN_TAIL)
        ]
        return problems

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
