"""Backups of the journal: consistent copies in the state folder, a handful kept.

The journal is one file on an SD card; when that card damages it, the
recovery (``firmware_app/store/recovery.py``) takes what the file still holds and
fills the rest from the newest good backup here. A backup is taken with
SQLite's online backup API, which copies a consistent snapshot while the
daemon keeps writing, then written atomically as
``backups/journal-YYYYMMDD-HHMMSS-mmm.sqlite`` (UTC, to the millisecond); the oldest beyond
``KEEP`` are removed.

When: as soon as the first game has an action (so a journal that later goes
missing is known to have existed), after each finished game, and every
``EVERY`` seconds while the journal changes. The write-ahead log is
checkpointed into the main file when a game ends. A backup that fails (a
full card) is logged and tried again at the next occasion; it never stops play.
"""

import logging
import sqlite3
import time
from pathlib import Path

from firmware_app.store.atomic import write_atomically

LOG = logging.getLogger("tableside.backups")
FOLDER = "backups"
KEEP = 5
EVERY = 180.0  # seconds between backups of a journal that changes
LOOK = 2.0  # seconds between looks at whether the journal changed
_ENDED = "SELECT count(*) FROM games WHERE outcome IS NOT NULL"
_GAMES = "SELECT count(*) FROM games"


def folder(journal_path: Path) -> Path:
    return Path(journal_path).parent / FOLDER


def newest(journal_path: Path) -> list[Path]:
    """The backups of the journal at ``journal_path``, newest first."""
    where = folder(journal_path)
    return sorted(where.glob("journal-*.sqlite"), reverse=True) if where.is_dir() else []


def _name(millis: int) -> str:
    """Names that sort as they were taken: UTC time to the millisecond."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(millis // 1000))
    return f"journal-{stamp}-{millis % 1000:03d}.sqlite"


class Backups:
    """Takes the backups of one open journal; :meth:`tick` is called from the main loop."""

    def __init__(self, journal, *, clock=time.time, keep: int = KEEP, every: float = EVERY):
        self.journal, self.clock, self.keep, self.every = journal, clock, keep, every
        self._db: sqlite3.Connection | None = None
        self._looked = self._taken = None
        self._version = self._ended = None
        self._failing = False

    def tick(self, now: float) -> None:
        """Look whether the journal changed (every ``LOOK`` s) and back it up when due."""
        if self._looked is not None and now - self._looked < LOOK:
            return
        self._looked = now
        try:
            db = self._reader()
            version = db.execute("PRAGMA data_version").fetchone()[0]
            if version == self._version:
                return
            ended, games = db.execute(_ENDED).fetchone()[0], db.execute(_GAMES).fetchone()[0]
        except sqlite3.Error as error:
            self._close_reader()
            self._warn(f"cannot look at the journal: {error}")
            return
        first = not newest(self.journal.path) and games
        game_over = self._ended is not None and ended > self._ended
        due = self._taken is None or now - self._taken >= self.every
        if first or game_over or (due and self._version is not None):
            if game_over:
                self.journal.checkpoint()
            if self.take() is None:
                return  # tried again at the next look
            self._taken = now
        self._version, self._ended = version, ended

    def take(self) -> Path | None:
        """One backup now; its path, or None if it could not be written (logged)."""
        target = folder(self.journal.path)
        millis = int(self.clock() * 1000)
        while (path := target / _name(millis)).exists():
            millis += 1
        try:
            target.mkdir(exist_ok=True)
            copy = sqlite3.connect(":memory:")
            try:
                self._reader().backup(copy)
                write_atomically(path, copy.serialize())
            finally:
                copy.close()
        except (OSError, sqlite3.Error) as error:
            self._warn(f"cannot write the backup {path}: {error}")
            return None
        if self._failing:
            LOG.info("backups work again")
        self._failing = False
        for old in newest(self.journal.path)[self.keep :]:
            old.unlink(missing_ok=True)
        LOG.info("backup %s", path)
        return path

    def close(self) -> None:
        self._close_reader()

    def _reader(self) -> sqlite3.Connection:
        if self._db is None:
            uri = f"{Path(self.journal.path).absolute().as_uri()}?mode=ro"
            self._db = sqlite3.connect(uri, uri=True)
        return self._db

    def _close_reader(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _warn(self, text: str) -> None:
        if not self._failing:
            LOG.warning("%s; trying again later", text)
        self._failing = True
