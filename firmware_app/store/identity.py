"""The box's identity: which journal and which backups are this box's, whatever their names.

A file name says nothing about where a file came from: a backup copied from another
box into ``backups/``, or one named by a clock that once ran ahead, looks as good as
any. So the journal carries a random identity made at its first start (a journal of
an earlier version gets one at its first start with this one), kept in its
``settings`` table under the reserved key ``box`` (the app reads only the settings it
knows, so it never shows it), and mirrored in ``box.id`` beside the journal, so that
it is known when the journal itself cannot be read. Each backup snapshot and the
archive carry it in a one-row table ``backup`` with the snapshot's sequence number,
which orders the snapshots (``rolling_backups.py``); recovery never takes a game from
a file of another box (``sources.py``).
"""

import contextlib
import logging
import secrets
import sqlite3
import string
from pathlib import Path

from firmware_app.store import regular
from firmware_app.store.atomic import write_atomically
from firmware_app.store.faults import JournalError, StorageError
from firmware_app.store.rows import json_value

LOG = logging.getLogger("tableside.identity")
KEY = "box"  # the reserved settings key
FILE = "box.id"
TABLE = "backup"  # in snapshots and the archive: the box and the snapshot's number
CREATE = f"CREATE TABLE IF NOT EXISTS {TABLE} (box TEXT, seq INTEGER NOT NULL)"
_SIZE = 16  # hexadecimal digits of secrets.token_hex(8)
UNREADABLE = "unreadable"  # what ``in_file`` says of a file it cannot trust: never a box


def valid(value) -> str | None:
    """``value`` when it is an identity as made here, else None."""
    if isinstance(value, str) and len(value) == _SIZE and set(value) <= set(string.hexdigits):
        return value
    return None


def mirror(journal_path: Path) -> Path:
    return Path(journal_path).with_name(FILE)


def read_mirror(journal_path: Path) -> str | None:
    """The identity in the state folder's ``box.id``; None when absent or not readable."""
    try:
        return valid(regular.read_bytes(mirror(journal_path), 64).decode("ascii").strip())
    except (OSError, ValueError):
        return None


def in_file(path: Path) -> tuple[str | None, int]:
    """The box and sequence number a journal, snapshot or archive carries ((None, 0): none).

    A snapshot's or the archive's ``backup`` row first, else the journal's setting.
    ``UNREADABLE`` when the file cannot be trusted to say: it, or a file SQLite would
    open beside it, is not a regular file (a pipe there would hang the open), or its
    ``backup`` row is not a box and a number this box writes.
    """
    if regular.sqlite_irregular(path):
        return UNREADABLE, 0
    try:
        db = sqlite3.connect(f"{Path(path).absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None, 0
    try:
        with contextlib.suppress(sqlite3.Error):
            row = db.execute(f"SELECT box, seq FROM {TABLE}").fetchone()
            if row is not None:
                box, seq = row
                sound = (box is None or valid(box)) and type(seq) is int and 0 <= seq < 2**53
                return (valid(box), seq) if sound else (UNREADABLE, 0)
        with contextlib.suppress(sqlite3.Error):
            row = db.execute("SELECT value FROM settings WHERE key = ?", (KEY,)).fetchone()
            if row is not None:
                return valid(json_value(row[0])), 0
        return None, 0
    finally:
        db.close()


def ensure(journal, carried=lambda: None) -> str | None:
    """This box's identity, given to the journal (and its mirror) if it has none yet.

    A journal without one takes the mirror's, else the one its backups carry
    (``carried()``: a journal of an earlier version put back in place of this box's),
    else a new one. The journal's own wins over the mirror, which follows it. A
    read-only journal keeps what it has; the next writable start gives it one.
    """
    try:
        stored = valid(journal.get_setting(KEY))
    except (sqlite3.Error, ValueError, RecursionError):
        stored = None
    box = stored or read_mirror(journal.path) or carried() or secrets.token_hex(_SIZE // 2)
    try:
        if stored is None and not journal.read_only:
            journal.set_setting(KEY, box)
            LOG.info("the journal is given the box's identity %s", box)
        if read_mirror(journal.path) != box:
            write_atomically(mirror(journal.path), f"{box}\n".encode("ascii"))
    except (OSError, StorageError, JournalError) as error:
        LOG.warning("cannot keep the box's identity now: %s", error)
    return stored or (None if journal.read_only else box)
