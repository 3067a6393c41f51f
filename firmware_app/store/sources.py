"""Recovery per action: each game rebuilt from every copy that still holds some of it.

A damaged journal rarely loses everything: a page of the catalogues replaced by
another file's, one ``undone`` flag flipped, and the file still holds every action of
the game in play, while the newest backup holds only those of three minutes before.
Taking each game whole from one file would throw the intact actions away. So every
source is read row by row (``rows.py``): the damaged main file with its log applied
and without it, every backup snapshot of this box, and the archive. For each game:

- its **header** comes from any source of this box that reads it (each readable
  one is tried), with its catalogue from whichever file holds it: a catalogue is
  named by its SHA-256, so any copy that matches its name is the same;
- its **candidate sequences** are, from each source, the live actions from the first
  on, up to the first missing row; and, when the ``undone`` flags look wrong (an
  undone action before a live one: undo only ever marks the tail), the actions up to
  its last live one, the flags ignored;
- the **longest that replays** is chosen (ties: the earlier source, the main file
  first), then **extended** by the sources that agree with it wherever they overlap,
  one action at a time while they agree with each other, and cut again at the last
  action that replays. A source that contradicts the chosen sequence (another action
  at the same place) is not mixed in: its rows are those of a history that was
  undone or damaged.

An ended game is taken whole from the source that holds most of it and reads. Every
other table is filled from the sources in order, the main file first, each row once;
a setting only if it is JSON, a catalogue only if its key is its text's SHA-256.
"""

import hashlib
import sqlite3
from dataclasses import dataclass

from firmware_app.store.rows import (
    ACTIONS,
    CATALOGUES,
    GAMES,
    SETTINGS,
    Rows,
    json_value,
    replaying,
    replays,
)


@dataclass(frozen=True)
class Choice:
    """A game as it is written to the fresh journal."""

    game: dict  # its row of ``games``
    actions: list[dict]  # its rows of ``actions``


def choose(sources: list[Rows], game_id: int) -> Choice | None:
    """The most of the game that any of ``sources`` holds (see above); None if nothing reads."""
    holders = [source for source in sources if game_id in source.games()]
    ended = [
        (source, done)
        for source in holders
        if source.games()[game_id].get("outcome") is not None
        for done, _, error in [replaying(source, game_id)]
        if not error
    ]
    if ended:
        source, done = max(ended, key=lambda pair: pair[1])  # max keeps the first of equals
        live = [row for row in source.actions(game_id) if not row.get("undone")]
        return Choice(source.games()[game_id], live[:done])
    return _unfinished(holders, game_id, _catalogues(sources))


def _catalogues(sources: list[Rows]) -> dict[str, str]:
    """Every catalogue any source holds whose key is its text's SHA-256."""
    found = {}
    for source in sources:
        for row in source.tables.get(CATALOGUES, []):
            if _sound(CATALOGUES, row):
                found.setdefault(row["hash"], row["body"])
    return found


def _unfinished(holders: list[Rows], game_id: int, catalogues: dict[str, str]) -> Choice | None:
    headers: dict[str, tuple[Rows, dict]] = {}
    for source in holders:
        header = source.header(game_id) or source.header(game_id, catalogues)
        if header is not None:
            headers.setdefault(repr(sorted(header.items())), (source, header))
    if not headers:
        return None
    claims = [_claimed(source.actions(game_id)) for source in holders]
    candidates = sorted({_run(held) for held in claims}, key=len)
    best: tuple[int, Rows | None, dict, list[str]] = (-1, None, {}, [])
    for source, header in headers.values():
        for actions in reversed(candidates):  # longest first: stop when none can do better
            if len(actions) <= best[0]:
                break
            done = replays(header, list(actions))[0]
            if done > best[0]:
                best = (done, source, header, list(actions[:done]))
    _, source, header, actions = best
    extended = _extend(actions, claims)
    if len(extended) > len(actions):
        actions = extended[: replays(header, extended)[0]]
    game = {**source.games()[game_id], "place": None}  # the resume list replays it once
    rows = [
        {"game_id": game_id, "seq": seq, "notation": notation, "undone": 0}
        for seq, notation in enumerate(actions, 1)
    ]
    return Choice(game, rows)


def _claimed(rows: list[dict]) -> dict[int, str]:
    """The actions a source holds as played, by number.

    Undo marks the last live action and a new action drops the undone ones, so the
    live actions are always 1..n and the undone ones after them: an undone action
    before a live one is a damaged flag, and then every action up to the last live one
    counts as played (the sequence with the flags as they are is a prefix of it, so
    replaying this one tries both).
    """
    live = {row["seq"]: row["notation"] for row in rows if not row.get("undone")}
    first_undone = min((row["seq"] for row in rows if row.get("undone")), default=None)
    if first_undone is not None and live and first_undone < max(live):
        last = max(live)
        live = {row["seq"]: row["notation"] for row in rows if row["seq"] <= last}
    return {seq: notation for seq, notation in live.items() if isinstance(notation, str)}


def _run(held: dict[int, str]) -> tuple[str, ...]:
    """A source's candidate: its actions from the first up to the first one missing."""
    run: list[str] = []
    while (len(run) + 1) in held:
        run.append(held[len(run) + 1])
    return tuple(run)


def _extend(actions: list[str], claims: list[dict[int, str]]) -> list[str]:
    """``actions`` continued by the sources that agree with it where they overlap."""
    agreeing = [
        held
        for held in claims
        if all(held.get(seq, notation) == notation for seq, notation in enumerate(actions, 1))
    ]
    extended = list(actions)
    while True:
        offered = {held[len(extended) + 1] for held in agreeing if len(extended) + 1 in held}
        if len(offered) != 1:
            return extended
        extended.append(offered.pop())


def write(db: sqlite3.Connection, sources: list[Rows]) -> int:
    """Fill the fresh journal open in ``db`` from ``sources``; return the games known."""
    known = sorted({game_id for source in sources for game_id in source.games()})
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
    db.execute("BEGIN IMMEDIATE")
    for game_id in known:
        choice = choose(sources, game_id)
        if choice is not None and _insert(db, GAMES, choice.game):
            for row in choice.actions:
                _insert(db, ACTIONS, row)
    # a game from a journal of schema 1 has no "played"; the migration's value
    if "played" in _columns(db, GAMES):
        db.execute("UPDATE games SET played = coalesce(ended, started) WHERE played IS NULL")
    for table in tables:
        if table in (GAMES, ACTIONS):
            continue
        for source in sources:
            for row in source.tables.get(table, []):
                if _sound(table, row):
                    _insert(db, table, row)
    db.execute("COMMIT")
    return len(known)


def _sound(table: str, row: dict) -> bool:
    """A setting must be JSON and a catalogue must be what its key says."""
    if table == SETTINGS:
        return json_value(row.get("value")) is not None
    if table == CATALOGUES:
        body = row.get("body")
        return isinstance(body, str) and hashlib.sha256(body.encode()).hexdigest() == row.get(
            "hash"
        )
    return True


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
