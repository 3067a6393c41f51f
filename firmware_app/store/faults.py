"""What the journal and the card can refuse, told apart by cause.

A full, read-only or failing card is the storage refusing a write (``StorageError``, with the
reason the panel tells the table); anything else wrong with the file is a ``JournalError``.
"""

import os
import sqlite3
from contextlib import suppress
from pathlib import Path


class JournalError(Exception):
    """The journal file cannot be used, or a game cannot take what was asked."""


# SQLite's primary result codes that mean "the storage refused", not "the file is bad".
_STORAGE_FAULTS = {13: "full", 8: "read-only", 3: "read-only", 10: "io", 14: "io"}


class StorageError(JournalError):
    """A write did not reach the storage (full, read-only, I/O error); nothing changed.

    ``reason`` is ``"full"``, ``"read-only"`` or ``"io"``: what the panel tells
    the table. The same write may succeed later, once the fault is gone.
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def writable(path: Path) -> bool:
    """Whether the journal file (if it exists) and its folder accept writes."""
    folder = path.absolute().parent
    return (
        folder.is_dir()
        and os.access(folder, os.W_OK)
        and (not path.exists() or os.access(path, os.W_OK))
    )


def storage_fault(error: BaseException) -> str | None:
    """``"full"``, ``"read-only"`` or ``"io"`` when ``error`` is the storage refusing."""
    if isinstance(error, StorageError):
        return error.reason
    if isinstance(error, sqlite3.Error):
        return _STORAGE_FAULTS.get(getattr(error, "sqlite_errorcode", 0) & 0xFF)
    if isinstance(error, OSError):
        return {28: "full", 30: "read-only", 13: "read-only"}.get(error.errno, "io")
    return None


def refine(reason: str, path: Path) -> str:
    """SQLite reports a full or read-only card as an I/O error at times: look at the storage."""
    if reason != "io":
        return reason
    with suppress(OSError):
        if os.statvfs(path.absolute().parent).f_bavail == 0:
            return "full"
    if not writable(path):
        return "read-only"
    return reason
