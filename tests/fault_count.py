"""The count every fault test ends with: the box runs, says what happened, and lost nothing.

``count(app, acknowledged)`` is taken right after the start: the panel's first screen
(``shown``: a message is on it), one press through the real main loop (``running``: the
loop ticks and the press changes the panel), and the acknowledged actions that are not in
the journal now (``lost``). ``acknowledged`` holds one list of actions per game, each cut to
what some file still held (``held``), so ``lost`` counts only what the box could have kept.
"""

import contextlib
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from firmware_app.loop import Loop
from firmware_app.store.sealed import unpack_actions
from firmware_app.ui.screens import Notice
from hw.buttons import FakeButtons
from hw.display import FakeDisplay
from hw.rfid.fake import FakeReader


@dataclass(frozen=True)
class Count:
    running: bool
    shown: bool  # a message on the panel at the start
    screen: str  # the panel at the start, on one line
    acknowledged: int  # actions acknowledged that some file still held
    lost: int  # ... of which the journal holds none now
    error: str = ""  # what stopped the loop, if it stopped

    def __str__(self) -> str:
        return (
            f"running={self.running} shown={self.shown} acknowledged={self.acknowledged} "
            f"lost={self.lost} screen={self.screen!r}{' error=' + self.error if self.error else ''}"
        )


def _common(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def journal_games(journal) -> list[list[str]]:
    """The live actions of every game in the open journal (none if it cannot be read)."""
    try:
        return _rows(journal._db, "AND NOT undone")
    except Exception:  # a journal that cannot be read has lost everything
        return []


def lost(acknowledged: Iterable[list[str]], held: list[list[str]]) -> int:
    """Acknowledged actions that no game of ``held`` has, as the same prefix, in order."""
    distinct = {tuple(a): a for a in acknowledged}.values()
    return sum(len(a) - max((_common(a, h) for h in held), default=0) for a in distinct)


def count(app, acknowledged: Iterable[list[str]]) -> Count:
    acknowledged = list({tuple(actions): list(actions) for actions in acknowledged}.values())
    missing = lost(acknowledged, journal_games(app.journal))
    total = sum(map(len, acknowledged))
    screen, shown, running, error = "", False, False, ""
    try:
        now = [0.0]
        buttons = FakeButtons()
        loop = Loop(app, buttons, FakeReader(), FakeDisplay(clock=lambda: now[0]))
        loop.tick(now[0])
        screen = " ".join(loop.frame.text().split())
        shown = isinstance(app.top, Notice) and bool(screen)
        name = "ok" if isinstance(app.top, Notice) else "down"
        for pressed in (True, False):
            (buttons.press if pressed else buttons.release)(name, now[0])
            for _ in range(10):
                now[0] = round(now[0] + 0.01, 6)
                loop.tick(now[0])
        running = " ".join(loop.frame.text().split()) != screen
    except Exception as failure:  # the count says so; the test fails on it
        error = f"{type(failure).__name__}: {failure}"
    return Count(running, shown, screen, total, missing, error)


def held(folder: Path) -> list[list[str]]:
    """Every game's actions as SQLite still reads them from the state folder's files:
    the journal with its log, each backup snapshot, the archive (read from copies).

    Undone flags are not looked at: an action whose flag was damaged is still held."""
    folder = Path(folder)
    sources = [folder / "journal.sqlite", *sorted((folder / "backups").glob("*.sqlite"))]
    games: list[list[str]] = []
    scratch = Path(tempfile.mkdtemp(prefix="held-"))
    try:
        for number, source in enumerate(sources):
            if not source.is_file():
                continue
            copy = scratch / f"{number}.sqlite"
            for suffix in ("", "-wal"):
                side = Path(f"{source}{suffix}")
                if side.is_file():
                    shutil.copyfile(side, f"{copy}{suffix}")
            games += _read(copy)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return games


def _read(path: Path) -> list[list[str]]:
    try:
        db = sqlite3.connect(path)
    except sqlite3.Error:
        return []
    try:
        return _rows(db, "")
    finally:
        db.close()


def _rows(db: sqlite3.Connection, live: str) -> list[list[str]]:
    """Each game's actions in order: its rows of ``actions``, or its sealed list. A table
    that cannot be read gives what was read before the error."""
    found: dict[int, list[str]] = {}
    with contextlib.suppress(sqlite3.Error):
        query = f"SELECT game_id, notation FROM actions WHERE 1 {live} ORDER BY game_id, seq"
        for game_id, notation in db.execute(query):
            found.setdefault(game_id, []).append(notation)
    with contextlib.suppress(sqlite3.Error):
        for game_id, packed in db.execute("SELECT id, packed FROM games WHERE packed NOT NULL"):
            with contextlib.suppress(Exception):  # a damaged packed list holds nothing
                found.setdefault(game_id, unpack_actions(packed))
    return list({tuple(game): list(game) for game in found.values()}.values())


def kept(acknowledged: Iterable[list[str]], games: list[list[str]]) -> list[list[str]]:
    """Each acknowledged list cut to the longest prefix some file still held."""
    return [a[: max((_common(a, h) for h in games), default=0)] for a in acknowledged]
