"""State files are regular files: no link followed, no FIFO waited on, no device read.

The state folder is the daemon's, but a mistake (a folder made where the journal
belongs, a link left by a copy, a named pipe) must not hang the start or take the box
elsewhere. So every state file is looked at with ``lstat`` before SQLite opens it, and
every file read by the box itself is opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked
on its open descriptor, so what is read is what was checked.
"""

import hashlib
import os
import stat
import time
from pathlib import Path

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


class NotRegular(OSError):
    """A folder, link, pipe, device or socket stands where a state file belongs."""

    def __init__(self, path: Path, kind: str) -> None:
        super().__init__(f"{path} is {kind}, not a regular file: refused")
        self.path, self.kind = Path(path), kind


def irregular(path: Path) -> str | None:
    """What stands at ``path`` when it is not a regular file (None: a file, or nothing)."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):  # nothing there (or a file above it)
        return None
    return _kind(mode)


def _kind(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a file")


def check(path: Path) -> None:
    """Raise :class:`NotRegular` unless ``path`` is a regular file or absent."""
    kind = irregular(path)
    if kind is not None:
        raise NotRegular(path, kind)


def open_regular(path: Path, flags: int = os.O_RDONLY, mode: int = 0o644) -> int:
    """A descriptor of the regular file at ``path``, never through a link; raises otherwise."""
    handle = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    try:
        kind = _kind(os.fstat(handle).st_mode)
        if kind is not None:
            raise NotRegular(path, kind)
    except BaseException:
        os.close(handle)
        raise
    return handle


def read_bytes(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``; ``ValueError`` beyond ``limit`` bytes."""
    try:
        handle = open_regular(path)
    except OSError as error:
        if error.errno == 40:  # ELOOP: the last part of the name is a link
            raise NotRegular(path, "a symbolic link") from error
        raise
    with os.fdopen(handle, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{path} is larger than {limit} bytes: refused")
    return data


# What SQLite opens beside a database by itself: the write-ahead log and its index, or the
# rollback journal. A pipe there hangs the open as surely as one in the database's place.
SQLITE_SIDES = ("-wal", "-shm", "-journal")


def sqlite_irregular(path: Path) -> str | None:
    """Which of a database's files (itself, or one SQLite opens beside it) is not a regular
    file, and what it is; None when each is a regular file or absent."""
    for suffix in ("", *SQLITE_SIDES):
        kind = irregular(Path(f"{path}{suffix}"))
        if kind is not None:
            return f"{Path(path).name}{suffix} is {kind}"
    return None


def sha256(path: Path) -> str | None:
    """The SHA-256 of the regular file at ``path``, read a megabyte at a time (a file of
    gigabytes is never held whole); None when it is not a regular file or cannot be read."""
    try:
        handle = open_regular(path)
    except OSError:
        return None
    digest = hashlib.sha256()
    with os.fdopen(handle, "rb") as file:
        try:
            while chunk := file.read(1 << 20):
                digest.update(chunk)
        except OSError:
            return None
    return digest.hexdigest()


def aside_name(path: Path, word: str, sides: tuple[str, ...] = ("",)) -> Path:
    """Where a file set aside goes: ``<stem>.<word>-YYYYMMDD-HHMMSS<rest>`` beside it
    (``journal.damaged-….sqlite``, ``journal.refused-….sqlite-wal``), UTC, with ``-2``,
    ``-3`` … until nothing stands at it with any of ``sides`` appended: the name says why
    and when, and never lands on another file."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    stem, dot, rest = path.name.partition(".")
    target, number = path.with_name(f"{stem}.{word}-{stamp}{dot}{rest}"), 1
    while any(os.path.lexists(f"{target}{side}") for side in sides):
        number += 1
        target = path.with_name(f"{stem}.{word}-{stamp}-{number}{dot}{rest}")
    return target
