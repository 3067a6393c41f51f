"""Backup of the whole box to a folder (a USB stick's ``tableside/backup``), and restore from it.

The whole state is two files: the journal (every game and action, and in its settings table
the panel's settings and the enrolled tags) and the owner's catalogue of taught cards. A
backup is a folder named for its UTC time holding both and a ``manifest.json`` with each
file's SHA-256, written last: a backup without its manifest is unfinished and never
restored. The journal is copied with SQLite's online backup API, so a backup taken while
the daemon plays is a consistent snapshot. A folder of backups keeps them all; the newest
finished one is the one restored.

A restore checks the backup first (the manifest, each file's checksum, SQLite's integrity
check, a journal this version can read) and changes nothing if any of that fails. Then it
keeps the state it replaces in ``replaced-by-restore-TIME/`` beside the journal, never
deleting it, and swaps the journal and the owner's catalogue as one step: a power cut or
a kill at any moment leaves the old state or the new one, each whole, never the restored
journal beside the old catalogue (``store/swap.py``: staged files, a marker, renames, and
at the next start the swap finished or undone).

The daemon's own journal (a restore from a USB stick) is closed for the swap and opened
again on the new file, so the table goes on with the restored state; a reader opening
the journal sees either file whole, since a rename is one step.
"""

import hashlib
import json
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from firmware_app.store.atomic import sync_folder, write_atomically
from firmware_app.store.faults import JournalError
from firmware_app.store.journal import Journal
from firmware_app.store.swap import ASIDE, replace_as_one

FORMAT = "tableside-backup"
VERSION = 1
MANIFEST, JOURNAL, CATALOGUE = "manifest.json", "journal.sqlite", "catalogue.toml"


class BackupError(Exception):
    """A backup that cannot be written, found or trusted: says which and why."""


def stamp(now: float) -> str:
    """UTC time to the second: names that sort as they were taken."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))


def snapshot(journal_path: Path) -> bytes:
    """A consistent copy of the journal as a file's bytes, taken while others may write."""
    source = sqlite3.connect(f"{Path(journal_path).absolute().as_uri()}?mode=ro", uri=True)
    copy = sqlite3.connect(":memory:")
    try:
        source.backup(copy)
        data = bytearray(copy.serialize())
    finally:
        copy.close()
        source.close()
    # The copy keeps the journal's write-ahead-log flag (header bytes 18 and 19); set back to
    # the rollback journal it is one self-contained file, openable from memory or read-only.
    data[18:20] = b"\x01\x01"
    return bytes(data)


def _new_folder(parent: Path, now: float, prefix: str = "") -> Path:
    """A new folder named for ``now``; a second one in the same second gets a suffix."""
    parent.mkdir(parents=True, exist_ok=True)
    name, n = prefix + stamp(now), 1
    while True:
        try:
            (folder := parent / name).mkdir()
            return folder
        except FileExistsError:
            n += 1
            name = f"{prefix}{stamp(now)}-{n}"


def _digest(data: bytes) -> dict:
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def make_backup(journal_path: Path, catalogue: Path | None, shelf: Path, now: float) -> Path:
    """Back the box up into a new folder of ``shelf``; return that folder."""
    files = {JOURNAL: snapshot(journal_path)}
    if catalogue is not None and Path(catalogue).is_file():
        files[CATALOGUE] = Path(catalogue).read_bytes()
    folder = _new_folder(Path(shelf), now)
    for name, data in files.items():
        write_atomically(folder / name, data)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "made": now,
        "files": {name: _digest(data) for name, data in files.items()},
    }
    write_atomically(folder / MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
    sync_folder(folder.parent)
    return folder


def find_backup(source: Path) -> Path | None:
    """``source`` if it is a finished backup, else the newest finished backup in it."""
    source = Path(source)
    if (source / MANIFEST).is_file():
        return source
    if not source.is_dir():
        return None
    found = sorted(p for p in source.iterdir() if (p / MANIFEST).is_file())
    return found[-1] if found else None


@dataclass(frozen=True)
class Backup:
    """A backup that passed every check, read into memory."""

    folder: Path
    made: float
    games: int
    journal: bytes
    catalogue: bytes | None


def check_backup(folder: Path, scratch: Path) -> Backup:
    """Read and check the backup in ``folder``; ``scratch`` is a folder for a temporary copy."""
    folder = Path(folder)
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BackupError(f"{folder}: no readable {MANIFEST}: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{folder}: {MANIFEST} is not a Tableside backup's")
    if manifest.get("version") != VERSION:
        raise BackupError(f"{folder}: backup version {manifest.get('version')}, this reads 1")
    listed = manifest.get("files") or {}
    if JOURNAL not in listed or set(listed) - {JOURNAL, CATALOGUE}:
        raise BackupError(f"{folder}: {MANIFEST} lists {sorted(listed)}, not the journal")
    data = {}
    for name, expected in listed.items():
        try:
            data[name] = (folder / name).read_bytes()
        except OSError as error:
            raise BackupError(f"{folder / name}: cannot read: {error.strerror}") from None
        if _digest(data[name]) != expected:
            raise BackupError(f"{folder / name}: damaged (its checksum differs from the manifest)")
    problems, games = _journal_problems(data[JOURNAL], Path(scratch))
    if problems:
        raise BackupError(f"{folder / JOURNAL}: " + "; ".join(problems))
    return Backup(folder, float(manifest.get("made", 0)), games, data[JOURNAL], data.get(CATALOGUE))


def _journal_problems(data: bytes, scratch: Path) -> tuple[list[str], int]:
    """What the journal's own checks find in these bytes, and its count of ended games."""
    handle, name = tempfile.mkstemp(dir=scratch, prefix=".restore-", suffix=".sqlite")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        with Journal(name, read_only=True) as journal:
            problems = journal.check()
            return problems, 0 if problems else len(journal.ended_games())
    except (JournalError, sqlite3.Error) as error:
        return [str(error)], 0
    finally:
        Path(name).unlink(missing_ok=True)


def restore(
    backup: Backup, journal_path: Path, catalogue: Path | None, now: float, live=None
) -> Path:
    """Replace the box's state by ``backup``; return the folder the replaced state is kept in.

    ``live`` is the daemon's open journal at ``journal_path``: closed for the swap, then
    opened again on the restored file (the caller reloads what it read from it).
    """
    journal_path = Path(journal_path)
    if catalogue is not None and not os.access(Path(catalogue).parent, os.W_OK):
        raise BackupError(f"{catalogue}: its folder is not writable; nothing was changed")
    aside = _new_folder(journal_path.parent, now, ASIDE)
    new = [(journal_path, backup.journal, aside / JOURNAL)]
    if catalogue is not None:
        new.append((Path(catalogue), backup.catalogue, aside / CATALOGUE))

    def keep() -> None:
        write_atomically(aside / JOURNAL, snapshot(journal_path))
        if catalogue is not None and Path(catalogue).is_file():
            write_atomically(aside / CATALOGUE, Path(catalogue).read_bytes())

    replace_as_one(journal_path, aside, new, keep, live)
    restored = [] if catalogue is None else [Path(catalogue)]
    _owned_as(journal_path, [aside, *aside.iterdir(), *restored])
    return aside


def _owned_as(journal_path: Path, paths: list[Path]) -> None:
    """Run as root (``sudo tableside restore``), the new files go to the journal's owner,
    so that the daemon, which runs as that user, can still read and write them."""
    if os.geteuid() != 0:
        return
    owner = journal_path.stat()
    for path in paths:
        if path.exists():
            os.chown(path, owner.st_uid, owner.st_gid)
