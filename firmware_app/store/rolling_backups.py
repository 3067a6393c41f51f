"""Backups of the journal in the state folder: the games in play often, each sealed game once.

The journal is one file on an SD card; when that card damages it, the recovery
(``firmware_app/store/recovery.py``) takes what the file still holds and fills the rest
from the backups here. A backup must not cost more as the years pass: copying the whole
journal every few minutes would write hundreds of megabytes a day after a few thousand
games and wear the card out. So a backup is two writes, both small whatever the history:

- the **archive** (``backups/archive.sqlite``) receives the games sealed since its last
  backup (``store/sealed.py``: an ended game never changes again), and the catalogues they
  use. Each game is written there once, in one transaction;
- a **snapshot** of what changes in play: the settings (with the enrolled tags), the
  unfinished games and their actions, written atomically as
  ``backups/journal-YYYYMMDD-HHMMSS-mmm.sqlite`` (UTC, to the millisecond); the oldest
  beyond ``KEEP`` are removed.

Both read the journal through their own read-only connection, so a backup is taken beside
the main loop (a thread) while the daemon keeps writing.

When: as soon as the first game has an action (so a journal that later goes missing is
known to have existed), after each ended game, and every ``EVERY`` seconds while the
journal changes. The write-ahead log is checkpointed into the main file when a game ends.
A backup that fails (a full card) is logged and tried again at the next look; it never
stops play.
"""

import logging
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

from firmware_app.store.atomic import write_atomically
from firmware_app.store.sealed import LAST_SEAL

LOG = logging.getLogger("tableside.backups")
FOLDER = "backups"
ARCHIVE = "archive.sqlite"
KEEP = 5
EVERY = 180.0  # seconds between backups of a journal that changes
LOOK = 2.0  # seconds between looks at whether the journal changed
# What a look reads: cheap whatever the history (max reads the end of an index).
_SEALED = f"SELECT {LAST_SEAL}, EXISTS (SELECT 1 FROM games)"
_SCHEMA = "SELECT sql FROM j.sqlite_schema WHERE sql IS NOT NULL AND tbl_name IN ({})"
_ARCHIVED = f"SELECT {LAST_SEAL}"
_TO_ARCHIVE = "INSERT INTO games SELECT * FROM j.games WHERE sealed > ? ORDER BY sealed"
_CATALOGUES = """INSERT OR IGNORE INTO catalogues SELECT * FROM j.catalogues
    WHERE hash IN (SELECT catalogue_hash FROM games WHERE sealed > ?)"""
_SNAPSHOT = (
    "INSERT INTO games SELECT * FROM j.games WHERE outcome IS NULL",
    "INSERT INTO games SELECT * FROM j.games WHERE outcome IS NOT NULL AND sealed IS NULL",
    "INSERT INTO actions SELECT * FROM j.actions",
    "INSERT INTO settings SELECT * FROM j.settings",
    """INSERT INTO catalogues SELECT * FROM j.catalogues
        WHERE hash IN (SELECT catalogue_hash FROM games)""",
)


def folder(journal_path: Path) -> Path:
    return Path(journal_path).parent / FOLDER


def archive(journal_path: Path) -> Path:
    """The file that keeps each sealed game once."""
    return folder(journal_path) / ARCHIVE


def newest(journal_path: Path) -> list[Path]:
    """The snapshots of the journal at ``journal_path``, newest first."""
    where = folder(journal_path)
    return sorted(where.glob("journal-*.sqlite"), reverse=True) if where.is_dir() else []


def _name(millis: int) -> str:
    """Names that sort as they were taken: UTC time to the millisecond."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(millis // 1000))
    return f"journal-{stamp}-{millis % 1000:03d}.sqlite"


def _attach(db: sqlite3.Connection, journal_path: Path, tables: tuple[str, ...]) -> None:
    """Attach the journal read-only as ``j`` and give ``db`` the tables it has, if new."""
    db.execute("ATTACH ? AS j", (f"{Path(journal_path).absolute().as_uri()}?mode=ro",))
    if db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]:
        return
    marks = ", ".join("?" for _ in tables)
    for (statement,) in db.execute(_SCHEMA.format(marks), tables).fetchall():
        db.execute(statement)
    for pragma in ("application_id", "user_version"):
        value = db.execute(f"PRAGMA j.{pragma}").fetchone()[0]
        db.execute(f"PRAGMA {pragma} = {int(value)}")


def add_to_archive(journal_path: Path) -> int:
    """Copy the games sealed since the archive's last one into it; return how many."""
    target = archive(journal_path)
    with closing(sqlite3.connect(target.absolute().as_uri(), uri=True)) as db:
        db.execute("PRAGMA synchronous = FULL")
        _attach(db, journal_path, ("games", "catalogues"))
        with db:
            done = db.execute(_ARCHIVED).fetchone()[0]
            added = db.execute(_TO_ARCHIVE, (done,)).rowcount
            db.execute(_CATALOGUES, (done,))
        db.execute("DETACH j")
    return added


def snapshot(journal_path: Path) -> bytes:
    """The journal without its sealed games, as a file's bytes: what changes in play."""
    with closing(sqlite3.connect("file::memory:", uri=True)) as db:
        _attach(db, journal_path, ("games", "actions", "settings", "catalogues"))
        with db:
            for statement in _SNAPSHOT:
                db.execute(statement)
        db.execute("DETACH j")
        return db.serialize()


class Backups:
    """Takes the backups of one open journal; :meth:`tick` is called from the main loop.

    ``beside`` takes each backup in a thread of its own, so the loop never waits for
    the card; False takes it within the tick (scripts and tests that want it done).
    """

    def __init__(
        self, journal, *, clock=time.time, keep: int = KEEP, every: float = EVERY, beside=True
    ):
        self.journal, self.clock, self.keep, self.every = journal, clock, keep, every
        self.beside = beside
        self._db: sqlite3.Connection | None = None
        self._looked = self._taken = None
        self._version = self._sealed = None
        self._failing = False
        self._worker: threading.Thread | None = None
        self._done: Path | None = None
        self._pending: tuple = ()

    def tick(self, now: float) -> None:
        """Look whether the journal changed (every ``LOOK`` s) and back it up when due."""
        if self._worker is not None:
            if self._worker.is_alive():
                return
            self._worker = None
            self._finished()
        if self._looked is not None and now - self._looked < LOOK:
            return
        self._looked = now
        try:
            db = self._reader()
            version = db.execute("PRAGMA data_version").fetchone()[0]
            if version == self._version:
                return
            sealed, games = db.execute(_SEALED).fetchone()
        except sqlite3.Error as error:
            self._close_reader()
            self._warn(f"cannot look at the journal: {error}")
            return
        first = not newest(self.journal.path) and games
        game_over = self._sealed is not None and sealed > self._sealed
        due = self._taken is None or now - self._taken >= self.every
        if not (first or game_over or (due and self._version is not None)):
            self._version, self._sealed = version, sealed
            return
        if game_over:
            self.journal.checkpoint()
        self._pending = (now, version, sealed)
        if self.beside:
            self._worker = threading.Thread(target=self._take_beside, name="backup", daemon=True)
            self._worker.start()
        else:
            self._take_beside()
            self._finished()

    def _take_beside(self) -> None:
        self._done = self.take()

    def _finished(self) -> None:
        """After a take: noted when it worked, else the next look tries again."""
        if self._done is not None:
            self._taken, self._version, self._sealed = self._pending
        self._done = None

    def take(self) -> Path | None:
        """One backup now; the snapshot's path, or None if it could not be written (logged)."""
        target = folder(self.journal.path)
        millis = int(self.clock() * 1000)
        while (path := target / _name(millis)).exists():
            millis += 1
        try:
            target.mkdir(exist_ok=True)
            add_to_archive(self.journal.path)
            write_atomically(path, snapshot(self.journal.path))
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
        """Wait for a backup under way (it is short), then let the reader go."""
        if self._worker is not None:
            self._worker.join()
            self._worker = None
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
