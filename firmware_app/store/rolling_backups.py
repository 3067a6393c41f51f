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
  ``backups/journal-NNNNNNNN-YYYYMMDD-HHMMSS.sqlite``; the oldest beyond ``KEEP`` are
  removed.

Names and clocks are not trusted (a clock that ran ahead once, a file copied from
another box): each snapshot and the archive carry the box's identity and the snapshot
its sequence number, one more than the highest of this box's found (``identity.py``).
Snapshots are ordered and rotated by that number, so a new one is kept however the
clock jumped; the number in the name is only for the eye. A snapshot or an archive of
another box is moved aside as ``foreign-<name>``, never used nor deleted; a snapshot
of an earlier version (no identity) counts as this box's and the oldest. Anything in
``backups/`` that is not a regular file is skipped.

Both read the journal through their own read-only connection, so a backup is taken beside
the main loop (a thread) while the daemon keeps writing.

When: as soon as the first game has an action (so a journal that later goes missing is
known to have existed), after each ended game, and every ``EVERY`` seconds while the
journal changes. The write-ahead log is checkpointed into the main file when a game ends.
A backup that fails (a full card) is logged and tried again at the next look; it never
stops play.
"""

import logging
import os
import sqlite3
import threading
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from firmware_app.store import identity, regular
from firmware_app.store.atomic import write_atomically
from firmware_app.store.in_place import where
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


@dataclass(frozen=True)
class Held:
    """A snapshot as its content says: whose, and its number (0: an earlier version's)."""

    path: Path
    box: str | None
    seq: int


def held(journal_path: Path) -> list[Held]:
    """Every regular ``journal-*.sqlite`` in ``backups/``, with the box and number it carries."""
    where = folder(journal_path)
    if regular.irregular(where) != "a folder":  # none, or not one to follow
        return []
    found = []
    for path in sorted(where.glob("journal-*.sqlite")):
        if regular.irregular(path) is None:
            clear_sides(path)
            found.append(Held(path, *identity.in_file(path)))
    return found


def clear_sides(path: Path) -> None:
    """Set aside whatever is not a regular file where SQLite opens a file beside ``path``
    (a pipe there would hang the open, and no real log or journal is one), so that the
    file itself can still be read."""
    for suffix in regular.SQLITE_SIDES:
        if regular.irregular(Path(f"{path}{suffix}")):
            set_aside(Path(f"{path}{suffix}"))


def newest(journal_path: Path, box: str | None = None) -> list[Path]:
    """This box's snapshots (and an earlier version's), newest first by their own number.

    ``box`` defaults to the identity in the state folder's mirror file.
    """
    box = box or identity.read_mirror(journal_path)
    ours = sorted(
        (one for one in held(journal_path) if one.box in (None, box)),
        key=lambda one: (one.seq, one.path.name),
        reverse=True,
    )
    return [one.path for one in ours]


def set_aside_foreign(journal_path: Path, box: str | None) -> list[Path]:
    """Move each snapshot of another box, and anything not a regular file, to
    ``foreign-<name>``; return the new names."""
    where = folder(journal_path)
    odd = [path for path in where.glob("journal-*.sqlite") if regular.irregular(path)]
    odd += [
        one.path
        for one in held(journal_path)
        if one.box == identity.UNREADABLE or (box is not None and one.box not in (None, box))
    ]
    return [set_aside(path) for path in odd]


def set_aside(path: Path) -> Path:
    """Rename ``path`` to ``foreign-<name>`` beside it (a free name), logged, with the
    files SQLite would open beside it: a pipe left there would hang the next file of
    that name."""
    target, number = path.with_name(f"foreign-{path.name}"), 1
    while any(os.path.lexists(f"{target}{suffix}") for suffix in ("", *regular.SQLITE_SIDES)):
        number += 1
        target = path.with_name(f"foreign-{number}-{path.name}")
    for suffix in ("", *regular.SQLITE_SIDES):
        if os.path.lexists(f"{path}{suffix}"):
            os.rename(f"{path}{suffix}", f"{target}{suffix}")
    LOG.warning("%s is not this box's: set aside as %s", path, target.name)
    return target


def _name(seq: int, now: float) -> str:
    """The number first, then the time for the eye (UTC, whatever the clock says)."""
    return f"journal-{seq:08d}-{time.strftime('%Y%m%d-%H%M%S', time.gmtime(now))}.sqlite"


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


def add_to_archive(journal_path: Path, box: str | None = None) -> int:
    """Copy the games sealed since the archive's last one into it; return how many.

    An archive of another box is set aside first and a new one begun; one of an
    earlier version is given this box's identity.
    """
    target = archive(journal_path)
    carried = identity.in_file(target)[0]
    if carried == identity.UNREADABLE or (box and carried not in (None, box)):
        set_aside(target)
    with closing(sqlite3.connect(target.absolute().as_uri(), uri=True)) as db:
        db.execute("PRAGMA synchronous = FULL")
        _attach(db, journal_path, ("games", "catalogues"))
        with db:
            db.execute(identity.CREATE)
            if box is not None:
                db.execute(f"DELETE FROM {identity.TABLE}")
                db.execute(f"INSERT INTO {identity.TABLE} VALUES (?, 0)", (box,))
            done = db.execute(_ARCHIVED).fetchone()[0]
            added = db.execute(_TO_ARCHIVE, (done,)).rowcount
            db.execute(_CATALOGUES, (done,))
        db.execute("DETACH j")
    return added


def settle_archive(journal_path: Path) -> None:
    """Roll back an archive write that was cut short, before anything reads the archive.

    The archive is written in SQLite's rollback mode; a kill in the middle of a write
    leaves its hot journal (``archive.sqlite-journal``) beside it, and a read-only reader
    cannot roll that back ("attempt to write a readonly database"), so the recovery
    would miss every sealed game. Any writable open rolls it back: the start does it once.
    """
    target = archive(journal_path)
    hot = target.with_name(target.name + "-journal")
    if regular.irregular(target) or not target.exists():
        return
    clear_sides(target)
    if not hot.exists():
        return
    try:
        with closing(sqlite3.connect(target)) as db:
            db.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    except sqlite3.Error as error:  # a damaged archive: the recovery reads what it can
        LOG.warning("cannot roll back the archive's cut write: %s", error)


def snapshot(journal_path: Path, box: str | None = None, seq: int = 0) -> bytes:
    """The journal without its sealed games, as a file's bytes: what changes in play,
    marked with the box and the snapshot's number."""
    with closing(sqlite3.connect("file::memory:", uri=True)) as db:
        _attach(db, journal_path, ("games", "actions", "settings", "catalogues"))
        with db:
            for statement in _SNAPSHOT:
                db.execute(statement)
            db.execute(identity.CREATE)
            db.execute(f"INSERT INTO {identity.TABLE} VALUES (?, ?)", (box, seq))
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
        self._file = None  # the journal file the reader opened: (device, inode)
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
        first = games and not any(folder(self.journal.path).glob("journal-*.sqlite"))
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
        """A take in its own thread, where an error nothing foresaw would end the thread
        without a word: logged, and the next look tries again."""
        try:
            self._done = self.take()
        except Exception:
            LOG.exception("the backup failed")
            self._done = None

    def _finished(self) -> None:
        """After a take: noted when it worked, else the next look tries again."""
        if self._done is not None:
            self._taken, self._version, self._sealed = self._pending
        self._done = None

    def take(self) -> Path | None:
        """One backup now; the snapshot's path, or None if it could not be written (logged)."""
        journal_path = self.journal.path
        box = identity.in_file(journal_path)[0]
        path = None
        try:
            folder(journal_path).mkdir(exist_ok=True)
            set_aside_foreign(journal_path, box)
            seq = max((one.seq for one in held(journal_path) if one.box in (None, box)), default=0)
            path = self._free(seq + 1)
            add_to_archive(journal_path, box)
            write_atomically(path, snapshot(journal_path, box, seq + 1))
        except (OSError, sqlite3.Error) as error:
            self._warn(f"cannot write the backup {path or folder(journal_path)}: {error}")
            return None
        if self._failing:
            LOG.info("backups work again")
        self._failing = False
        for old in newest(journal_path, box)[self.keep :]:
            old.unlink(missing_ok=True)
        LOG.info("backup %s", path)
        return path

    def _free(self, seq: int) -> Path:
        """A name no file has: the number and the time, and a count if both were taken."""
        path = base = folder(self.journal.path) / _name(seq, self.clock())
        number = 1
        while os.path.lexists(path):
            number += 1
            path = base.with_name(f"{base.stem}-{number}.sqlite")
        return path

    def close(self) -> None:
        """Wait for a backup under way (it is short), then let the reader go."""
        if self._worker is not None:
            self._worker.join()
            self._worker = None
        self._close_reader()

    def _reader(self) -> sqlite3.Connection:
        """The look's own read-only connection, opened again when the journal's file is
        another one (written again after a deletion, or restored): the old connection
        would keep reading the old file, whose ``data_version`` never changes again."""
        path = Path(self.journal.path)
        if self._db is not None and self._file != where(path)[0]:
            self._close_reader()
        if self._db is None:
            self._file = where(path)[0]
            self._db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        return self._db

    def _close_reader(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _warn(self, text: str) -> None:
        if not self._failing:
            LOG.warning("%s; trying again later", text)
        self._failing = True
