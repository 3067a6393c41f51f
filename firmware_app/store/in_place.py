"""A journal deleted or replaced under a running box: noticed, and written again in full.

SQLite keeps its files open: when the state folder, the journal or its write-ahead log
is deleted (or another file renamed over the journal) while the box runs, every commit
still succeeds, into files no name leads to any more, and the next start finds nothing
of them. So the journal remembers which files it opened (device and inode of the main
file, its log and the log's index) and compares them with what stands at their names
before each write and twice a second in the main loop: three ``stat`` calls.

When they differ, the process still holds everything: its connection reads the unlinked
files. SQLite's backup API copies that whole state into a new file beside the name,
which is renamed into place; the connection is then opened again on it. Whatever else
stands at the names (another program's file, another journal) is kept aside under a
name that says so, never deleted; the log and index left by the old files are removed
first, because SQLite would apply a log to the new file.

:class:`InPlace` is the part of ``journal.Journal`` that does this.
"""

import contextlib
import logging
import os
import sqlite3
import tempfile
from pathlib import Path

from firmware_app.store import regular
from firmware_app.store.atomic import sync_folder
from firmware_app.store.faults import JournalError, StorageError

LOG = logging.getLogger("tableside.journal")
# The files a connection holds open, by the suffix of their names: the main file, the
# write-ahead log and the log's shared-memory index.
FILES = ("", "-wal", "-shm")

Where = tuple[tuple[int, int] | None, ...]
# The journal of this process that writes a file again: the first one opened on it, the
# daemon's. Another connection to the same file (the check after start-up, in its thread)
# only refuses to write once the file moved: two writing it again would undo each other.
_KEEPERS: dict[Path, "InPlace"] = {}


class InPlace:
    """The journal's watch on its own files (a part of ``journal.Journal``)."""

    path: Path
    read_only: bool
    _db: sqlite3.Connection
    _opened: Where | None = None  # what the connection opened; None while it opens
    _written_again = False

    def replaced(self) -> bool:
        """Whether the journal was written again since the last call, its files having been
        deleted or replaced while open; looks first. The main loop calls it twice a second.

        A journal that cannot be written again now is left as it is: the next write tries
        again and, refused, refuses its input (``StorageError``), so the panel says so.
        """
        if not self.read_only:
            with contextlib.suppress(JournalError):
                self._keep_in_place()
        written, self._written_again = self._written_again, False
        return written

    def _watch(self) -> None:
        """Note the files the new connection opened; the first journal of a file keeps it."""
        self._opened = where(self.path)
        _KEEPERS.setdefault(self.path.absolute(), self)

    def _unwatch(self) -> None:
        if _KEEPERS.get(self.path.absolute()) is self:
            del _KEEPERS[self.path.absolute()]

    def _keep_in_place(self) -> None:
        """Write the journal again at its name if its files no longer stand there."""
        if self._opened is None or not moved(self._opened, self.path):
            return
        if _KEEPERS.get(self.path.absolute()) is not self:
            raise JournalError(f"{self.path}: deleted or replaced while open, not written here")
        try:
            kept = write_again(self._db, self.path, self._opened)
        except (OSError, sqlite3.Error) as error:
            raise StorageError(
                f"{self.path}: deleted or replaced while open, and cannot be written again: "
                f"{error}",
                "io",
            ) from error
        self._db.close()  # what it held is in the new file
        self._connect(read_only=False)
        self._written_again = True
        aside = f"; the file found there is kept as {', '.join(map(str, kept))}" if kept else ""
        LOG.error(
            "%s was deleted or replaced while open: written again in full%s", self.path, aside
        )


def where(path: Path) -> Where:
    """The identity (device, inode) of each of the journal's files now; None: absent."""
    return tuple(_identity(str(path) + suffix) for suffix in FILES)


def moved(opened: Where, path: Path) -> bool:
    """Whether a file the connection opened no longer stands at its name: a ``stat`` of
    each by a plain string (a few µs in all), since the main loop asks twice a second.

    A file that was absent when the connection was opened is not looked at: SQLite
    makes the log and its index at the first read, and removes neither while open.
    """
    name = str(path)
    for was, suffix in zip(opened, FILES, strict=True):
        if was is not None and _identity(name + suffix) != was:
            return True
    return False


def _identity(name: str) -> tuple[int, int] | None:
    try:
        status = os.stat(name)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def write_again(db: sqlite3.Connection, path: Path, opened: Where) -> list[Path]:
    """Write everything ``db`` holds at ``path``; return the foreign files kept aside.

    The copy is made and synced under a temporary name in the folder (made again if it
    is gone) before anything at the names is touched, so a failure changes nothing.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    copy = Path(name)
    try:
        with contextlib.closing(sqlite3.connect(copy, isolation_level=None)) as target:
            db.backup(target)  # reads the files the connection has open, unlinked or not
        with open(copy, "rb+") as file:
            os.fsync(file.fileno())
        kept = _keep_foreign(path, opened)
        for suffix in FILES[1:]:  # SQLite would apply an old log to the new file
            _side(path, suffix).unlink(missing_ok=True)
        os.replace(copy, path)
    except BaseException:
        copy.unlink(missing_ok=True)
        raise
    sync_folder(path.parent)
    return kept


def _keep_foreign(path: Path, opened: Where) -> list[Path]:
    """Move aside whatever stands at the journal's names and is not what the connection
    opened (another file renamed there): ``journal.foreign-TIME.sqlite`` and its log."""
    now = where(path)
    strangers = [
        suffix
        for suffix, was, found in zip(FILES[:2], opened[:2], now[:2], strict=True)
        if found is not None and found != was
    ]
    if not strangers:
        return []
    target = regular.aside_name(path, "foreign", FILES[:2])
    kept = []
    for suffix in strangers:
        os.rename(_side(path, suffix), _side(target, suffix))
        kept.append(_side(target, suffix))
    return kept


def _side(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)
