"""Files replaced as one step: a power cut or a kill leaves the old ones or the new ones.

A restore replaces two files, the journal and the owner's catalogue; replaced one after
the other, a cut in between would leave the restored journal beside the old catalogue,
and the next start would call that sound. So the new files are first written whole
under staged names (``journal.sqlite.restoring``), then a marker (``restore-under-way.json``
in the state folder, written atomically) says the swap may begin, then each staged file
is renamed over its own, and the marker goes. Before that, the same marker (saying the
swap may not begin yet) names the staged files and the copies of the replaced state in
``replaced-by-restore-TIME/``, so that :func:`finish_restore`, run at every start before
the journal opens, knows what a cut left: it finishes a swap under way, or undoes a
restore cut short before it. Either way no staged or temporary file is left.
"""

import contextlib
import hashlib
import json
import logging
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from firmware_app.store import identity
from firmware_app.store.atomic import sync_folder, write_atomically

LOG = logging.getLogger("tableside.restore")
ASIDE = "replaced-by-restore-"
MARKER, STAGED = "restore-under-way.json", ".restoring"
# What belongs to the journal file a restore replaces: its log and the log's index (SQLite
# would apply an old log to the new file) and recovery.py's marker of damage found in it;
# with the daemon stopped, also the marker that it had the file open.
COMPANIONS, RUNNING = ("-wal", "-shm", ".recheck"), ".running"


def replace_as_one(
    journal: Path,
    aside: Path,
    new: list[tuple[Path, bytes | None, Path]],
    keep: Callable[[], None],
    live=None,
) -> None:
    """Replace the journal (first in ``new``) and the other files as one step.

    ``new`` holds, for each file, its new bytes (None: the file goes) and where ``keep``
    writes the copy of what it replaces, in ``aside``. ``live`` is the daemon's open
    ``Journal``: closed for the swap, then opened again on the new file.
    """
    files = [
        {
            "path": str(path.absolute()),
            "staged": str(path.absolute().with_name(path.name + STAGED)),
            "sha256": None if data is None else hashlib.sha256(data).hexdigest(),
            "kept": str(kept.absolute()),
        }
        for path, data, kept in new
    ]
    plan = {"aside": str(aside.absolute()), "files": files, "swap": False}
    marker = journal.parent / MARKER
    write_atomically(marker, json.dumps(plan).encode())  # a cut from here on is undone
    keep()
    for entry, (path, data, _) in zip(files, new, strict=True):
        if data is not None:
            _stage(Path(entry["staged"]), data, path)
    write_atomically(marker, json.dumps(plan | {"swap": True}).encode())  # ... finished
    if live is None:
        _swap(files, stopped=True)
        _done(marker)
        return
    live.close()
    try:
        _swap(files, stopped=False)
        _done(marker)  # before the journal takes commits again: the swap is never redone
    finally:
        live.reopen()


def _stage(staged: Path, data: bytes, path: Path) -> None:
    """Write the new bytes whole under the staged name, with the mode and (run as root)
    the owner of the file they replace, so the daemon's user can still write them."""
    write_atomically(staged, data)
    with contextlib.suppress(FileNotFoundError):
        was = path.stat()
        os.chmod(staged, stat.S_IMODE(was.st_mode))
        if os.geteuid() == 0:
            os.chown(staged, was.st_uid, was.st_gid)


def finish_restore(state_dir: Path) -> None:
    """Bring a restore cut short to one whole state; run at every start before the journal
    opens (``recovery.open_journal``).

    A swap under way (every new file was staged whole) is finished; a restore cut before
    it, or whose staged files are no longer whole, leaves the old state as it was. The
    staged and temporary files go either way, and so do the copies an undone restore made.
    """
    state_dir = Path(state_dir)
    marker = state_dir / MARKER
    try:
        plan = json.loads(marker.read_text(encoding="utf-8"))
        files, aside = plan["files"], Path(plan["aside"])
    except FileNotFoundError:
        plan = None
    except (OSError, ValueError, KeyError, TypeError) as error:
        LOG.error("%s cannot be read (%s): left as it is, no restore finished", marker, error)
        return
    try:
        if plan is not None:
            _finish(plan, files, aside)
            _done(marker)
        _sweep(state_dir, [] if plan is None else files)
    except OSError as error:  # a storage that refuses writes: the next start tries again
        LOG.error("a restore cut short cannot be finished now: %s", error)


def _finish(plan: dict, files: list[dict], aside: Path) -> None:
    if plan.get("swap") and all(_ready(entry) for entry in files):
        LOG.warning("a restore was cut short: its swap is finished now")
        _swap(files, stopped=True)
        return
    LOG.warning("a restore was cut short before its swap: the state is as it was")
    if plan.get("swap"):
        _undo(files)
    if aside.name.startswith(ASIDE):  # the copies of a state that stays in place
        shutil.rmtree(aside, ignore_errors=True)
    for entry in files:
        Path(entry["staged"]).unlink(missing_ok=True)


def _ready(entry: dict) -> bool:
    """Whether a file can take its new state: staged whole, or already in place."""
    wanted = entry["sha256"]
    return wanted is None or wanted in (_sha(Path(entry["staged"])), _sha(Path(entry["path"])))


def _sha(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _swap(files: list[dict], *, stopped: bool) -> None:
    """Rename each staged file over its own (the journal first); each step may be run
    again after a cut. ``stopped``: no daemon has the journal open.

    The new journal is in place before the old log goes: until then the old journal is
    untouched (what :func:`_undo` relies on), and a cut in between is finished the same way.
    """
    for entry in files:
        path, staged = Path(entry["path"]), Path(entry["staged"])
        if staged.exists():
            os.replace(staged, path)
        elif entry["sha256"] is None:
            path.unlink(missing_ok=True)
        if entry is files[0]:
            _companions_gone(path, (*COMPANIONS, RUNNING) if stopped else COMPANIONS)
            # the restored journal's identity is the box's now: the next start mirrors it
            identity.mirror(path).unlink(missing_ok=True)
        sync_folder(path.parent)


def _undo(files: list[dict]) -> None:
    """Put back the kept copy of each file whose new state is already in place."""
    for entry in files:
        path, kept = Path(entry["path"]), Path(entry["kept"])
        if entry["sha256"] is None or _sha(path) != entry["sha256"]:
            continue
        if kept.exists():
            write_atomically(path, kept.read_bytes())
        else:
            path.unlink(missing_ok=True)
        if entry is files[0]:
            _companions_gone(path, COMPANIONS)


def _companions_gone(journal: Path, suffixes: tuple[str, ...]) -> None:
    for suffix in suffixes:
        journal.with_name(journal.name + suffix).unlink(missing_ok=True)


def _done(marker: Path) -> None:
    marker.unlink(missing_ok=True)
    sync_folder(marker.parent)


def _sweep(state_dir: Path, files: list[dict]) -> None:
    """Remove what a restore cut short leaves: temporary files (atomic writes, the backup
    check's scratch copy) and empty ``replaced-by-restore-`` folders; never a file with
    content under its own name."""
    folders = {state_dir} | {Path(entry["staged"]).parent for entry in files}
    for folder in folders:
        for pattern in (f".*{STAGED}.*.tmp", f".{MARKER}.*.tmp", ".restore-*.sqlite"):
            for found in folder.glob(pattern):
                found.unlink(missing_ok=True)
    for kept in state_dir.glob(f"{ASIDE}*"):
        for found in kept.glob(".*.tmp"):
            found.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            kept.rmdir()  # only an empty one: the copy of a replaced state stays
