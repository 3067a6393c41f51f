"""A journal's ended games off the box and games played elsewhere onto it.

Kept apart from ``journal.py`` (which :class:`Exchange` is a part of): the export is the
lasting document of a game (``docs/game-record.md``), read on its own.
"""

import json
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware_app.store.faults import JournalError
from firmware_app.store.sealed import dumps, seal

_DATES = "SELECT started, ended FROM games WHERE id = ?"
_IMPORTED = """INSERT INTO games (header, started, played, ended, outcome, summary)
    VALUES (?1, ?2, ?3, ?3, 'finished', ?4)"""
_IMPORTED_ACTION = "INSERT INTO actions (game_id, seq, notation) VALUES (?, ?, ?)"
# Finished games that could be the same as a record: same game, variant and seed.
_SAME_SEED = """SELECT id FROM games WHERE outcome = 'finished'
    AND json_extract(header, '$.game') = ? AND json_extract(header, '$.variant') = ?
    AND json_extract(header, '$.options.seed') IS ?"""


class Exchange:
    """The export and import of a journal (a part of ``journal.Journal``)."""

    path: Path
    _db: sqlite3.Connection

    def export(self, game_id: int) -> dict[str, Any]:
        """The record of an ended game, as ``docs/game-record.md`` describes it.

        Only ended games: an export is the lasting document of a game, while
        the record of a game in play still changes. An abandoned game's
        record says so (``"outcome": "abandoned"``).
        """
        _, outcome = self._game(game_id)
        if outcome is None:
            raise JournalError(f"{self.path}: game {game_id} is not finished")
        started, ended = self._db.execute(_DATES, (game_id,)).fetchone()
        record = self.record(game_id) | {"played": {"started": started, "ended": ended}}
        return record | {"outcome": outcome} if outcome == "abandoned" else record

    def import_finished(
        self, record: Mapping[str, Any], summary: Mapping[str, Any], started: float, ended: float
    ) -> int:
        """Store a game finished elsewhere (its record and final summary); return its id.

        The caller has replayed the record to its end; the game is kept as if it
        had been played here, so statistics and exports treat it alike.
        """
        header = {k: v for k, v in record.items() if k not in ("actions", "played")}
        stored, result = dumps(header), dumps(dict(summary))
        with self._writing():
            game_id = self._db.execute(_IMPORTED, (stored, started, ended, result)).lastrowid
            self._db.executemany(
                _IMPORTED_ACTION,
                [(game_id, seq, notation) for seq, notation in enumerate(record["actions"], 1)],
            )
            seal(self._db, game_id)
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

    def export_files(self) -> dict[str, bytes]:
        """Each ended game's record as ``game-NNNNN.json`` (an abandoned one's
        ``game-NNNNN-abandoned.json``): the names and bytes a writer puts in a folder, so that
        exporting again rewrites the same names."""
        files = {}
        for game in self.ended_games():
            mark = "-abandoned" if game.outcome == "abandoned" else ""
            text = json.dumps(self.export(game.id), ensure_ascii=False, indent=2) + "\n"
            files[f"game-{game.id:05d}{mark}.json"] = text.encode("utf-8")
        return files
