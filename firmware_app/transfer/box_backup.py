"""Backup of the whole box to a folder (a USB stick's ``tableside/backup``), and restore from it.

The whole state is the journal (every game and action, and in its settings table the
panel's settings and the enrolled tags) and the owner's files of taught values: the
Pingwiny catalogue and, beside it, the Król Popiel file (``config.popiel_owner_file``). A
backup is a folder named for its UTC time holding them and a ``manifest.json`` with each
file's SHA-256, written last: a backup without its manifest is unfinished and never
restored. The journal is copied with SQLite's online backup API, so a backup taken while
the daemon plays is a consistent snapshot. A folder of backups keeps them all; the newest
finished one is the one restored. Version 1 backups (before the Król Popiel file was kept)
are still read: their restore leaves the box's Król Popiel file as it is.

Everything on the backup's side goes through folder handles (``folder_handle``): no link
is followed, each file is read only as a plain file within the size the box would write,
and a folder of backups is looked at only as far as its first :data:`SCAN` names.

A restore checks the backup first and changes nothing if any of this fails, each problem
told in one line: the manifest, each file's checksum, a journal of this box whose schema is
the one the box makes (no trigger, view, table or index of its own, none made otherwise),
SQLite's integrity check, then ``bounds.backup_problems``: settings, games, actions,
catalogues and owner's files the box itself would have written. A journal of an older
schema is migrated in the check's scratch copy, as the box would at its next start, and
restored as it was checked.

Then the restore keeps the state it replaces in ``replaced-by-restore-TIME/`` beside the
journal, never deleting it, and swaps the journal and the owner's files as one step: a
power cut or a kill at any moment leaves the old state or the new one, each whole, never
the restored journal beside the old owner's files (``store/swap.py``: staged files, a
marker, renames, and at the next start the swap finished or undone). A box that has never
run (no state folder, no journal) gets both from the backup.

The daemon's own journal (a restore from a USB stick) is closed for the swap and opened
again on the new file, so the table goes on with the restored state; a reader opening
the journal sees either file whole, since a rename is one step.
"""

import hashlib
import json
import logging
import os
import re
import sqlite3
import tempfile
import time
from collections.abc import Mapping
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from firmware_app.store import bounded_read, bounds, regular
from firmware_app.store.atomic import write_atomically
from firmware_app.store.config import OWNER_FILE_LIMIT, popiel_owner_file
from firmware_app.store.faults import JournalError
from firmware_app.store.journal import APPLICATION_ID, SCHEMA_VERSION, Journal
from firmware_app.store.plain_values import date_problem
from firmware_app.store.swap import ASIDE, replace_as_one
from firmware_app.transfer.folder_handle import Folder, NotAFolder, opened

LOG = logging.getLogger("tableside.backup")
FORMAT = "tableside-backup"
VERSION = 2  # 2: the owner's Król Popiel file too
MANIFEST, JOURNAL, CATALOGUE = "manifest.json", "journal.sqlite", "catalogue.toml"
POPIEL = popiel_owner_file(CATALOGUE).name  # the owner's Król Popiel file in a backup
FILES = {1: (JOURNAL, CATALOGUE), 2: (JOURNAL, CATALOGUE, POPIEL)}  # what each version holds
SHELF = "backup"  # the folder of backups in a stick's tableside/
# The names of a folder of backups looked at (on the stick's thread, never all of a folder
# of 100,000): a backup a week for nineteen years. More are said in the log.
SCAN = 1000
# The largest files a backup's check reads into memory. A finished game is sealed in about
# 2 KB (docs/journal.md), so 128 MiB is some 60,000 games, far beyond a box's life, and
# still a quarter of a Zero 2 W's memory; a manifest is under 1 KiB.
LIMITS = {
    MANIFEST: 64 << 10,
    JOURNAL: 128 << 20,
    CATALOGUE: OWNER_FILE_LIMIT,
    POPIEL: OWNER_FILE_LIMIT,
}
_NAME = re.compile(r"(\d{8}-\d{6})(?:-(\d{1,3}))?")  # what :func:`make_backup` names
_SHA = re.compile("[0-9a-f]{64}")


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


def owner_files(catalogue: Path | None) -> dict[str, Path]:
    """The owner's files of a box whose Pingwiny catalogue is ``catalogue``, by their names
    in a backup."""
    if catalogue is None:
        return {}
    return {CATALOGUE: Path(catalogue), POPIEL: popiel_owner_file(catalogue)}


def _owner_bytes(path: Path) -> bytes | None:
    """An owner's file as it is (None when there is none), read as a plain file."""
    try:
        return regular.read_bytes(path, OWNER_FILE_LIMIT)
    except FileNotFoundError:
        return None
    except ValueError as error:  # larger than any owner's file the box reads
        raise BackupError(str(error)) from None


def _digest(data: bytes) -> dict:
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}


def make_backup(
    journal_path: Path, catalogue: Path | None, shelf: "Folder | Path", now: float
) -> Path:
    """Back the box up into a new folder of ``shelf`` (an open folder, or a path made if
    need be); return that folder's path."""
    files = {JOURNAL: snapshot(journal_path)}
    for name, path in owner_files(catalogue).items():
        data = _owner_bytes(path)
        if data is not None:
            files[name] = data
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "made": now,
        "files": {name: _digest(data) for name, data in files.items()},
    }
    with opened(shelf, create=True) as folder:
        name = folder.new_child(stamp(now))
        with folder.child(name) as made:
            for file, data in files.items():
                made.write(file, data)
            made.write(MANIFEST, (json.dumps(manifest, indent=2) + "\n").encode())
        folder.sync()
        return folder.path / name


def _key(name: str) -> tuple[str, int] | None:
    """Where a backup's folder name sorts (its time, then its number); None for a name the
    box does not give a backup."""
    found = _NAME.fullmatch(name)
    return None if found is None else (found[1], int(found[2] or 1))


def newest_backup(shelf: Folder) -> str | None:
    """The name of the newest finished backup among the first :data:`SCAN` names of
    ``shelf``: a folder the box names, no link, holding a plain ``manifest.json``."""
    names, more = shelf.names(SCAN)
    if more:
        LOG.warning(
            "%s holds more than %d names: only the first %d looked at", shelf.path, SCAN, SCAN
        )
    for name in sorted(filter(_key, names), key=_key, reverse=True):
        try:
            with shelf.child(name) as folder:
                if folder.is_file(MANIFEST):
                    return name
        except OSError:  # a link, a file, gone: not a backup
            continue
    return None


def open_backup(source: Path) -> Folder | None:
    """``source`` if it is a finished backup, else the newest finished backup in it, open;
    None when there is none."""
    try:
        folder = Folder.open(source)
    except (FileNotFoundError, NotAFolder):
        return None
    if folder.is_file(MANIFEST):
        return folder
    with folder:
        name = newest_backup(folder)
        return None if name is None else folder.child(name)


@dataclass(frozen=True)
class Held:
    """The games a backup holds, by how they stand."""

    finished: int
    abandoned: int
    unfinished: int

    @property
    def games(self) -> int:
        return self.finished + self.abandoned + self.unfinished

    def __str__(self) -> str:
        parts = [f"{self.finished} finished"]
        parts += [f"{self.abandoned} abandoned"] if self.abandoned else []
        parts += [f"{self.unfinished} unfinished"] if self.unfinished else []
        return f"{self.games} game{'' if self.games == 1 else 's'}: {', '.join(parts)}"


NOTHING = Held(0, 0, 0)  # what a refused backup is said to hold


@dataclass(frozen=True)
class Backup:
    """A backup that passed every check, read into memory."""

    folder: Path
    version: int
    made: float
    held: Held
    files: Mapping[str, bytes]  # its journal and owner's files, by their names in it


def check_backup(folder: "Folder | Path", scratch: Path) -> Backup:
    """Read and check the backup in ``folder``; ``scratch`` is a folder for a temporary copy."""
    with opened(folder) as backup:
        where = backup.path
        manifest = _manifest(backup)
        version, listed = manifest["version"], manifest["files"]
        data = {}
        for name, expected in listed.items():
            try:
                data[name] = backup.read(name, expected["bytes"])
            except OSError as error:  # a link, a pipe, a device, larger than listed, gone
                raise BackupError(f"{where / name}: cannot read: {error}") from None
            if _digest(data[name]) != expected:
                raise BackupError(f"{where / name}: damaged (its checksum differs)")
    problems, held, migrated = _journal_problems(data, Path(scratch))
    if problems:
        raise BackupError("\n".join(f"{where}: {problem}" for problem in problems))
    if migrated is not None:  # restored as it was checked, of this version's schema
        data[JOURNAL] = migrated
    return Backup(where, version, manifest["made"], held, data)


def _manifest(backup: Folder) -> dict:
    """The backup's manifest, read within bounds and checked to be one this box writes."""
    where = backup.path / MANIFEST
    try:
        manifest = bounded_read.parse_json(
            bounded_read.text_of(backup.read(MANIFEST, LIMITS[MANIFEST]))
        )
    except OSError as error:
        raise BackupError(f"{where}: cannot read: {error}") from None
    except ValueError as error:  # not UTF-8, not JSON, NaN, deep nesting, huge numbers
        raise BackupError(f"{where}: not JSON this box writes: {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{where}: not a Tableside backup's manifest")
    version = manifest.get("version")
    if type(version) is not int or version not in FILES:
        raise BackupError(f"{where}: backup version {version!r}, this reads {sorted(FILES)}")
    made = manifest.get("made", 0)  # version 1 backups may lack it
    if (problem := date_problem(made)) is not None:
        raise BackupError(f"{where}: its time: {problem}")
    listed = manifest.get("files")
    if not isinstance(listed, dict) or JOURNAL not in listed or set(listed) - set(FILES[version]):
        raise BackupError(f"{where}: lists {_names(listed)}, not the journal and owner's files")
    for name, expected in listed.items():
        if not _entry(expected, LIMITS[name]):
            raise BackupError(f"{where}: {name}'s checksum or size is not one this box writes")
    return {"version": version, "made": float(made), "files": listed}


def _names(listed: object) -> str:
    return str(sorted(map(str, listed))[:5]) if isinstance(listed, dict) else "no files"


def _entry(expected: object, limit: int) -> bool:
    """Whether a manifest's entry for a file is a SHA-256 and a size within ``limit``."""
    return (
        isinstance(expected, dict)
        and set(expected) == {"sha256", "bytes"}
        and isinstance(expected["sha256"], str)
        and _SHA.fullmatch(expected["sha256"]) is not None
        and type(expected["bytes"]) is int
        and 0 <= expected["bytes"] <= limit
    )


def _journal_problems(
    data: Mapping[str, bytes], scratch: Path
) -> tuple[list[str], Held, bytes | None]:
    """What the backup's journal holds that the box would not have written: a schema other
    than the one the box makes, what the journal's own checks find, then what ``bounds``
    refuses in it or in its owner's files; the games it holds; and, for a journal of an
    older schema, the journal migrated as it was checked (None: restored as it is).

    The journal is checked in a copy in ``scratch``, the box's own temporary file: opened
    for writing, so an older schema is migrated as the box would at its next start. A
    migration writes, and a trigger runs at a write: none may be there before it runs.
    """
    copy, fresh = _scratch(scratch), _scratch(scratch)
    try:
        copy.write_bytes(data[JOURNAL])
        Journal(fresh).close()  # a journal as the box makes one now
        expected = _schema(fresh)[0]
        found, application, version = _schema(copy)
        older = version < SCHEMA_VERSION
        problems = [problem] if (problem := _identity_problem(application, version)) else []
        # an older schema changes when migrated: compared whole after, its triggers before
        problems = problems or bounds.schema_problems(found, expected, _RUN if older else None)
        if problems:
            return _told(problems, copy), NOTHING, None
        with Journal(copy) as journal:  # an older schema is migrated here
            problems = bounds.schema_problems(_schema(copy)[0], expected) if older else []
            problems = problems or journal.check()
            if problems:
                return _told(problems, copy), NOTHING, None
            owners = {file: data[file] for file in data if file != JOURNAL}
            problems = bounds.backup_problems(journal, owners)
            if problems:
                return problems, NOTHING, None
            return [], _held(journal), snapshot(copy) if older else None
    except (JournalError, sqlite3.Error) as error:
        return _told([str(error)], copy), NOTHING, None
    finally:
        _gone(copy)
        _gone(fresh)


# What identifies a journal in its SQLite header, read before it is opened as one; the
# kinds of schema object that hold SQL of their own to run, looked for before a migration
# writes (a trigger runs at a write).
_IDENTITY = ("application_id", "user_version")
_RUN = ("trigger", "view")


def _identity_problem(application: int, version: int) -> str | None:
    """A journal of this box, of a schema it reads (an older one it migrates); said before
    the journal is opened for writing, which makes a journal in an empty SQLite file."""
    if application != APPLICATION_ID:
        return "an SQLite file, but not a Tableside journal"
    if not 1 <= version <= SCHEMA_VERSION:
        return f"journal schema {version}; this version reads 1 to {SCHEMA_VERSION}"
    return None


def _schema(path: Path) -> tuple[bounds.Schema, int, int]:
    """The schema of the SQLite file at ``path``, its application id and its version; read
    without running anything of it."""
    with closing(sqlite3.connect(path)) as db:
        application, version = (db.execute(f"PRAGMA {name}").fetchone()[0] for name in _IDENTITY)
        return bounds.schema_of(db), application, version


def _held(journal: Journal) -> Held:
    ended = journal.ended_games()
    finished = sum(game.outcome == "finished" for game in ended)
    return Held(finished, len(ended) - finished, len(journal.unfinished_games()))


def _told(problems: list[str], copy: Path) -> list[str]:
    """The journal's problems, said of the backup's file, never of its scratch copy."""
    return bounds.told(f"{JOURNAL}: {problem.replace(f'{copy}: ', '')}" for problem in problems)


def _scratch(folder: Path) -> Path:
    """A new temporary file in ``folder``, named as a restore cut short sweeps them away
    (``swap.py``)."""
    handle, name = tempfile.mkstemp(dir=folder, prefix=".restore-", suffix=".sqlite")
    os.close(handle)
    return Path(name)


def _gone(path: Path) -> None:
    """A scratch journal removed, with its log and the log's index."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def restore(
    backup: Backup, journal_path: Path, catalogue: Path | None, now: float, live=None
) -> Path | None:
    """Replace the box's state by ``backup``; return the folder the replaced state is kept in
    (None: there was none to keep, on a box that has never run).

    ``catalogue`` is the box's Pingwiny owner's file (its Król Popiel file is beside it).
    ``live`` is the daemon's open journal at ``journal_path``: closed for the swap, then
    opened again on the restored file (the caller reloads what it read from it). A state
    folder that does not exist yet is made.
    """
    journal_path = Path(journal_path)
    owners = {
        name: path for name, path in owner_files(catalogue).items() if name in FILES[backup.version]
    }
    journal_path.parent.mkdir(parents=True, exist_ok=True)
    for path in owners.values():
        if not os.access(path.parent, os.W_OK):
            raise BackupError(f"{path}: its folder is not writable; nothing was changed")
    owner = journal_path if journal_path.exists() else journal_path.parent
    kept = {name: _owner_bytes(path) for name, path in owners.items()}  # before any write
    if journal_path.exists():
        kept[JOURNAL] = snapshot(journal_path)
    with Folder.open(journal_path.parent) as state:
        aside = journal_path.parent / state.new_child(ASIDE + stamp(now))
    new = [(journal_path, backup.files[JOURNAL], aside / JOURNAL)]
    new += [
        (path, backup.files.get(name), aside / name)
        for name, path in owners.items()
        if name in backup.files or kept[name] is not None  # else neither has it: nothing to do
    ]

    def keep() -> None:
        for name, data in kept.items():
            if data is not None:
                write_atomically(aside / name, data)

    replace_as_one(journal_path, aside, new, keep, live)
    restored = [journal_path, *owners.values()]
    if all(data is None for data in kept.values()):
        aside.rmdir()  # empty: a box that has never run had nothing to keep
        _owned_as(owner, restored)
        return None
    _owned_as(owner, [aside, *aside.iterdir(), *restored])
    return aside


def _owned_as(owner: Path, paths: list[Path]) -> None:
    """Run as root (``sudo tableside restore``), the new files go to the owner of the journal
    they replace (of the state folder, on a box that has never run), so that the daemon,
    which runs as that user, can still read and write them."""
    if os.geteuid() != 0:
        return
    found = owner.stat()
    for path in paths:
        if path.exists():
            os.chown(path, found.st_uid, found.st_gid, follow_symlinks=False)
