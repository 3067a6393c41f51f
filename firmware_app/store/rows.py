"""What a journal file still holds, read row by row however damaged, and whether it replays.

Recovery (``recovery.py``) and the choice of each game's actions (``sources.py``) read
the damaged journal, its write-ahead log, the backup snapshots and the archive alike:
every row SQLite can still give, each table read from its start and from its end up
to a damaged page. The start's own check reads the same way what a start needs.
"""

import json
import sqlite3
import zlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from firmware_app.store import regular
from firmware_app.store.sealed import unpack_actions
from rules.record import RecordError, replay

# The tables whose rows the recovery understands; any other table of the schema
# is copied as it is, from the first source that has it.
GAMES, ACTIONS, SETTINGS, CATALOGUES = "games", "actions", "settings", "catalogues"


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

    # Built once, when the tables are filled: looked up for every game. Only rows of the
    # shape the journal writes: a copy of another shape (another program's file named like
    # a backup, a text where a number belongs) cannot be sorted, merged or replayed.
    @cached_property
    def _games(self) -> dict[int, dict]:
        return {row["id"]: row for row in self.tables.get(GAMES, []) if _typed(row, id=int)}

    @cached_property
    def _actions(self) -> dict[int, list[dict]]:
        by_game: dict[int, list[dict]] = {}
        rows = (
            row
            for row in self.tables.get(ACTIONS, [])
            if _typed(row, game_id=int, seq=int, notation=str)
        )
        for row in sorted(rows, key=lambda row: row["seq"]):
            by_game.setdefault(row["game_id"], []).append(row)
        return by_game

    def settings(self) -> dict[str, dict]:
        return {
            row["key"]: row
            for row in self.tables.get(SETTINGS, [])
            if _typed(row, key=str, value=str)
        }

    def header(self, game_id: int, catalogues: dict[str, str] | None = None) -> dict | None:
        """A game's header with its catalogue in place; None when either is unreadable.

        ``catalogues`` (key -> text) is where the catalogue is looked up, if not in this
        file's own table: a catalogue is named by its SHA-256, so any file's copy will do.
        """
        game = self.games()[game_id]
        header = json_value(game.get("header"))
        key = game.get("catalogue_hash")
        if not isinstance(header, dict) or key is None:
            return header if isinstance(header, dict) else None
        catalogue = json_value((catalogues or self._catalogues).get(key))
        return {**header, "catalogue": catalogue} if isinstance(catalogue, dict) else None

    @cached_property
    def _catalogues(self) -> dict[str, str]:
        return {row["hash"]: row["body"] for row in self.tables.get(CATALOGUES, [])}


def _typed(row: dict, **types: type) -> bool:
    """Whether each named column of ``row`` holds a value of exactly its type."""
    return all(type(row.get(column)) is kind for column, kind in types.items())


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
    if why := regular.sqlite_irregular(path):  # never opened: a pipe there would hang it
        rows.problems.append(f"cannot read {path}: {why}")
        return rows
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
    except sqlite3.Error as error:  # a damaged page of the schema: the tables we know
        rows.problems.append(f"cannot list the tables: {error}")
        names = [GAMES, ACTIONS, SETTINGS, CATALOGUES]
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
        if json_value(row.get("value")) is None
    ]
    for game_id in rows.games():
        error = replaying(rows, game_id)[2]
        if error:
            problems.append(f"game {game_id}: {error}")
    return problems


def json_value(text) -> object | None:
    """The JSON value stored in ``text``; None when it is none (not text, not JSON, nested
    deeper than the parser goes)."""
    try:
        return json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        return None


def replaying(rows: Rows, game_id: int) -> tuple[int, int, str]:
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
        if game.get("summary") is not None and json_value(game["summary"]) is None:
            return 0, len(live), "its summary is not readable"
        if game.get("packed") is not None:  # sealed: its actions are in its row
            try:
                live = unpack_actions(game["packed"])
            except (ValueError, zlib.error):
                return 0, game.get("packed_count") or 0, "its packed actions are not readable"
        return len(live), len(live), ""
    done, error = replays(header, live)
    return done, len(live), error


def replays(header: dict, actions: list[str]) -> tuple[int, str]:
    """How many of ``actions`` replay from ``header``, and why the next one does not."""
    try:
        replay({**header, "actions": list(actions)})
    except RecordError as error:
        return (error.index or 1) - 1, str(error)
    except Exception as error:  # damaged data can fail in any way the engine can
        return 0, f"does not replay: {error}"
    return len(actions), ""
