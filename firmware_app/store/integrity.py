"""The journal's integrity checks: the start's share, the whole file, and each sealed game.

Kept apart from ``journal.py`` (which :class:`Integrity` is a part of) because they are
read on their own: what the start checks and what waits for the check after start-up
(``recovery.py``, ``housekeeping.py``) is the heart of how the box scales with its years.
"""

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_app.store.regular import sqlite_irregular
from firmware_app.store.sealed import damage

# A live action after an undone one would mean the undone tail was broken. Only unfinished
# games have undone actions, and only they (and ended games not sealed yet) have rows here.
_BROKEN_TAIL = """SELECT live.game_id, live.seq FROM actions AS live JOIN actions AS gone
    ON gone.game_id = live.game_id AND gone.undone AND NOT live.undone AND gone.seq < live.seq
    GROUP BY live.game_id, live.seq"""
# The sealed rows, read back after start-up, and a copy of one in the backups' archive (a).
_SEALED_COLUMNS = "id, header, summary, catalogue_hash, packed, packed_count, crc"
_SEALED_ROWS = f"""SELECT {_SEALED_COLUMNS} FROM games
    WHERE sealed IS NOT NULL AND id > ? ORDER BY id LIMIT ?"""
_ARCHIVED_ROW = f"SELECT {_SEALED_COLUMNS} FROM a.games WHERE id = ?"
_RESTORE_CATALOGUE = """INSERT OR IGNORE INTO catalogues SELECT * FROM a.catalogues
    WHERE hash = (SELECT catalogue_hash FROM a.games WHERE id = ?)"""
_RESTORE = "INSERT OR REPLACE INTO games SELECT * FROM a.games WHERE id = ?"


def _problem(row: tuple) -> str | None:
    """One row of an integrity check, a foreign-key check or ``_BROKEN_TAIL`` in words."""
    if len(row) == 1:
        return None if row[0] == "ok" else row[0]
    if len(row) == 4:
        return f"a row of {row[0]} refers to a missing row of {row[2]}"
    return f"game {row[0]}: live action {row[1]} follows an undone action"


class Integrity:
    """The checks of :class:`~firmware_app.store.journal.Journal`, on its connection."""

    _db: sqlite3.Connection
    path: Path

    def check(self) -> list[str]:
        """Every problem SQLite or the undo rules find in the whole file; empty when sound.

        It reads every page, so its time grows with the history: it runs after start-up,
        beside the main loop (``housekeeping.py``), and at start only after damage.
        A file too damaged to check says so as its one problem, rather than raising.
        """
        return self._problems(("PRAGMA integrity_check", "PRAGMA foreign_key_check"))

    def check_live(self) -> list[str]:
        """The start's check: the tables that change in play, whatever the history.

        The settings and the actions (only unfinished games and ended games not sealed
        yet have rows there); the unfinished games' rows and catalogues are read back by
        the caller. The sealed games and the catalogues (one for each box the family ever
        described: it grows with the years) are checked after start-up.
        """
        tables = ("settings", "actions")
        checks = [f"PRAGMA quick_check({table})" for table in tables]
        return self._problems((*checks, "PRAGMA foreign_key_check(actions)"))

    def _problems(self, checks: tuple[str, ...]) -> list[str]:
        problems = []
        for query in (*checks, _BROKEN_TAIL):
            try:
                problems += [text for row in self._db.execute(query) if (text := _problem(row))]
            except sqlite3.DatabaseError as error:
                if getattr(error, "sqlite_errorname", "") == "SQLITE_INTERRUPT":  # a stop
                    raise
                problems.append(f"{self.path}: cannot be checked: {error}")
                break
        return problems

    def damaged_sealed_games(
        self, slice_size: int = 200, between: Callable[[], None] = lambda: None
    ) -> list[tuple[int, str]]:
        """Each sealed game whose row no longer holds what it held when sealed, and why.

        Read ``slice_size`` rows at a time, ``between()`` called after each slice.
        """
        found, after = [], 0
        while rows := self._db.execute(_SEALED_ROWS, (after, slice_size)).fetchall():
            found += [(row[0], problem) for row in rows if (problem := damage(self._db, row))]
            after = rows[-1][0]
            between()
        return found

    def row(self, game_id: int) -> dict[str, Any]:
        """A game's row as stored, column by column (to keep a damaged one aside)."""
        cursor = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,))
        names = [column[0] for column in cursor.description]
        return dict(zip(names, cursor.fetchone(), strict=True))

    def put_back(self, game_id: int, archive: Path | None) -> bool:
        """Replace a damaged sealed game by the archive's copy if that one is sound (True),
        else (or with no archive to look in) take it out of the journal, so no list, export
        or statistic trips over it."""
        attached = archive is not None and archive.exists() and not sqlite_irregular(archive)
        if attached:  # outside the transaction: SQLite attaches and detaches only there
            self._db.execute("ATTACH ? AS a", (f"{archive.absolute().as_uri()}?mode=ro",))
        try:
            with self._writing():
                copy = self._db.execute(_ARCHIVED_ROW, (game_id,)).fetchone() if attached else None
                if copy is not None and not damage(self._db, copy, "a."):
                    self._db.execute(_RESTORE_CATALOGUE, (game_id,))
                    self._db.execute(_RESTORE, (game_id,))
                    return True
                self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        finally:
            if attached:
                self._db.execute("DETACH a")
        return False
