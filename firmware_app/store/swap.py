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
That marker is read from a folder the daemon's user (or a copy) can write, so it is
trusted only when it is a small regular file and every name in it is one this box makes
(the journal, the owner's catalogue, their staged names, a ``replaced-by-restore-`` folder
in the state folder): a plan naming anything else would delete or overwrite it at the
next start, so it is refused and set aside, and nothing is touched.
"""

import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

from firmware_app.store import identity, regular
from firmware_app.store.atomic import sync_folder, write_atomically
from firmware_app.store.config import popiel_owner_file

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


def finish_restore(journal: Path, owner: Path | None = None) -> str | None:
    """Bring a restore cut short to one whole state; run at every start before the journal
    opens (``recovery.open_journal``).

    ``journal`` is the box's journal (its folder is the state folder) and ``owner`` the
    owner's catalogue the box is configured with: the only files a restore replaces. A swap
    under way (every new file was staged whole) is finished; a restore cut before it, or
    whose staged files are no longer whole, leaves the old state as it was. The staged and
    temporary files go either way, and so do the copies an undone restore made. A marker
    this box cannot have written is refused: nothing is touched, the marker is set aside,
    and why is returned for the panel.
    """
    journal = Path(os.path.normpath(Path(journal).absolute()))
    owner = None if owner is None else Path(os.path.normpath(Path(owner).absolute()))
    state_dir = journal.parent
    marker = state_dir / MARKER
    try:
        plan = _trusted(regular.read_bytes(marker, MARKER_LIMIT), journal, owner)
    except FileNotFoundError:
        plan = None
    except (regular.NotRegular, ValueError) as error:  # a pipe, a folder, a link, too large
        plan = str(error)
    except OSError as error:  # unreadable now (permissions, I/O): the next start tries again
        LOG.error("%s cannot be read (%s): left as it is, no restore finished", marker, error)
        return None
    files: list[dict] = []
    try:
        if plan is not None:
            if isinstance(plan, str):
                _refuse(marker, plan)
            else:
                files = plan["files"]
                _finish(plan, files, Path(plan["aside"]))
                _done(marker)
        _sweep(state_dir, files)
    except OSError as error:  # a storage that refuses writes: the next start tries again
        LOG.error("a restore cut short cannot be finished now: %s", error)
    return plan if isinstance(plan, str) else None


# The marker names the aside folder and two files (four names each, at most PATH_MAX =
# 4096 bytes apiece) with their checksums: under 40 KiB even then; a marker beyond 64 KiB
# was not written by this box, and a limit keeps a huge (or sparse) one out of memory.
MARKER_LIMIT = 64 * 1024
_SHA = re.compile("[0-9a-f]{64}")
_PLAN_KEYS, _ENTRY_KEYS = {"aside", "files", "swap"}, {"path", "staged", "sha256", "kept"}


def _trusted(text: bytes, journal: Path, owner: Path | None) -> dict | str:
    """The plan in ``text`` rebuilt from the box's own names, or why it is refused.

    Every name must be one :func:`replace_as_one` makes for this box: the plan is read at
    every start from a folder anyone with the daemon's rights (or a copy) can write, and
    trusted as written it would delete or overwrite any file the daemon may touch.
    """
    try:
        plan = json.loads(text.decode("utf-8"))
    except (ValueError, RecursionError) as error:  # also UnicodeDecodeError, deep nesting
        return f"not a plan this box writes ({error})"
    if not isinstance(plan, dict) or set(plan) != _PLAN_KEYS:
        return "not a plan this box writes (its keys differ)"
    if not isinstance(plan["swap"], bool):
        return "its 'swap' is not true or false"
    aside = _normal(plan["aside"])
    if aside is None or aside.parent != journal.parent or not aside.name.startswith(ASIDE):
        return f"its folder of kept copies is not a {ASIDE}… folder in {journal.parent}"
    if regular.irregular(aside) not in (None, "a folder") or aside.is_file():
        return f"{aside} is not a folder"
    allowed = [journal] if owner is None else [journal, owner, popiel_owner_file(owner)]
    entries = plan["files"]
    if not isinstance(entries, list) or not 1 <= len(entries) <= len(allowed):
        return "its list of files is not one this box writes"
    files, seen = [], set()
    for number, entry in enumerate(entries):
        if not isinstance(entry, dict) or set(entry) != _ENTRY_KEYS:
            return f"file {number} is not one this box writes (its keys differ)"
        path, kept, sha = _normal(entry["path"]), _normal(entry["kept"]), entry["sha256"]
        if path not in allowed or path in seen or (number == 0) != (path == journal):
            return f"file {number} is not the journal (first) or an owner's file"
        if entry["staged"] != entry["path"] + STAGED:
            return f"file {number}'s staged name is not {path.name}{STAGED}"
        if kept is None or kept.parent != aside:
            return f"file {number}'s kept copy is not in {aside}"
        if not (sha is None or (isinstance(sha, str) and _SHA.fullmatch(sha))):
            return f"file {number}'s checksum is not a SHA-256"
        if sha is None and path == journal:
            return "it would remove the journal"
        seen.add(path)
        files.append(
            {
                "path": str(path),
                "staged": str(path) + STAGED,
                "sha256": sha,
                "kept": str(aside / kept.name),
            }
        )
    return {"aside": str(aside), "files": files, "swap": plan["swap"]}


def _normal(name: object) -> Path | None:
    """An absolute name, normalised as text (no link resolved); None for anything else."""
    if not isinstance(name, str) or not os.path.isabs(name) or "\0" in name:
        return None
    return Path(os.path.normpath(name))


def _refuse(marker: Path, why: str) -> None:
    """Set a marker this box cannot trust aside, never following a link: nothing else moves."""
    aside = regular.aside_name(marker, "refused")
    os.rename(marker, aside)  # moves a link or a pipe itself, never what it names
    sync_folder(marker.parent)
    LOG.error("%s refused, nothing restored or removed (moved to %s): %s", marker, aside, why)


def _finish(plan: dict, files: list[dict], aside: Path) -> None:
    if plan["swap"] and all(_ready(entry) for entry in files):
        LOG.warning("a restore was cut short: its swap is finished now")
        _swap(files, stopped=True)
        return
    LOG.warning("a restore was cut short before its swap: the state is as it was")
    if plan["swap"]:
        _undo(files)
    if regular.irregular(aside) == "a folder":  # the copies of a state that stays in place
        shutil.rmtree(aside, ignore_errors=True)
    for entry in files:
        Path(entry["staged"]).unlink(missing_ok=True)


def _ready(entry: dict) -> bool:
    """Whether a file can take its new state: staged whole, or already in place."""
    wanted = entry["sha256"]
    return wanted is None or wanted in (
        regular.sha256(Path(entry["staged"])),
        regular.sha256(Path(entry["path"])),
    )


def _swap(files: list[dict], *, stopped: bool) -> None:
    """Rename each staged file over its own (the journal first); each step may be run
    again after a cut. ``stopped``: no daemon has the journal open.

    The new journal is in place before the old log goes: until then the old journal is
    untouched (what :func:`_undo` relies on), and a cut in between is finished the same way.
    """
    for entry in files:
        path, staged = Path(entry["path"]), Path(entry["staged"])
        if entry["sha256"] is None:
            path.unlink(missing_ok=True)
            staged.unlink(missing_ok=True)
        elif (
            regular.sha256(staged) == entry["sha256"]
        ):  # a regular file, whole: never a pipe or link
            os.replace(staged, path)
        else:  # the new file is already in place: what is left under the staged name goes
            staged.unlink(missing_ok=True)
        if entry is files[0]:
            _companions_gone(path, (*COMPANIONS, RUNNING) if stopped else COMPANIONS)
            # the restored journal's identity is the box's now: the next start mirrors it
            identity.mirror(path).unlink(missing_ok=True)
        sync_folder(path.parent)


def _undo(files: list[dict]) -> None:
    """Put back the kept copy of each file whose new state is already in place."""
    for entry in files:
        path, kept = Path(entry["path"]), Path(entry["kept"])
        if entry["sha256"] is None or regular.sha256(path) != entry["sha256"]:
            continue
        copy = _kept(kept)
        if copy is not None:
            write_atomically(path, copy)
        elif entry is files[0] or os.path.lexists(kept):  # no whole copy: nothing is lost
            LOG.error("%s has no whole copy in %s: left as it is", path, kept)
            continue
        else:  # the file did not exist before the restore
            path.unlink(missing_ok=True)
        if entry is files[0]:
            _companions_gone(path, COMPANIONS)


def _kept(kept: Path) -> bytes | None:
    """The bytes of a kept copy, a regular file (never through a link); None otherwise."""
    try:
        handle = regular.open_regular(kept)
    except OSError:
        return None
    with os.fdopen(handle, "rb") as file:
        return file.read()


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
        for pattern in (f".*{STAGED}.*.tmp", f".{MARKER}.*.tmp", ".restore-*.sqlite*"):
            for found in folder.glob(pattern):
                found.unlink(missing_ok=True)
    for kept in state_dir.glob(f"{ASIDE}*"):
        if regular.irregular(kept) != "a folder":  # never into a folder through a link
            continue
        for found in kept.glob(".*.tmp"):
            found.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            kept.rmdir()  # only an empty one: the copy of a replaced state stays
