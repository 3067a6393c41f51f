"""The files beside the journal that say what to do at the next start, and those left over.

A marker is trusted no more than a backup's name: ``journal.sqlite.installing`` makes
the next start put a rebuilt journal in place of the one at the path, so a stale
marker, or one copied from elsewhere, must never replace a sound journal. It is
honoured only when the file it names is our own scratch name, a regular file, a
journal of this box (``identity.py``), and exactly the file the rebuild wrote (the
marker holds its SHA-256). Otherwise it is removed and logged, the journal untouched;
a marker of an earlier version, without the SHA-256, is not followed either: the
journal it would have replaced is still in place, so the start checks it and, if
damaged, rebuilds it again. And before the journal at the path is replaced, it is kept aside
unless it is the very file this rebuild already kept (the marker holds its SHA-256
too): nothing disappears without a copy.

``journal.sqlite.recheck`` and ``journal.sqlite.running`` only make the start check
more; they never make it delete or replace anything.

What killed writes leave behind is removed at the start, in the state folder and in
``backups/``: ``.NAME.XXXXXXXX.tmp`` of ``atomic.py``, the ``.salvage-XXXXXXXX``
folders of a recovery, ``journal.sqlite.rebuilt`` (and its log) without a marker.
Only these names, only regular files (and our own folders), never through a link.
Where the journal or its log should be, anything but a regular file (a folder, a
pipe that would hang SQLite's open, a device, a link) is renamed aside unopened as
``journal.refused-TIME.sqlite`` (and ``-wal``, ``-shm``), and the journal is rebuilt
from the backups.
"""

import contextlib
import json
import logging
import os
import re
import shutil
from pathlib import Path

from firmware_app.store import identity, regular, rolling_backups
from firmware_app.store.atomic import sync_folder, write_atomically

LOG = logging.getLogger("tableside.recovery")
SIDE_FILES = ("-wal", "-shm")
REBUILT = ".rebuilt"
# atomic.py's temporary files: "." + the name + "." + mkstemp's 8 characters + ".tmp"
_TEMPORARY = re.compile(r"\..+\.[a-z0-9_]{8}\.tmp")
_SALVAGE = re.compile(r"\.salvage-[a-z0-9_]{8}")


def side(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def installing(path: Path) -> Path:
    return side(path, ".installing")


def install(path: Path, rebuilt: Path, kept_sha: str | None) -> None:
    """Put the fresh journal in place; finished at the next start if cut.

    The marker names the fresh file with its SHA-256, and the SHA-256 of the file it
    replaces as this rebuild kept it aside (None: nothing was kept).
    """
    plan = {"rebuilt": rebuilt.name, "sha256": regular.sha256(rebuilt), "replaces": kept_sha}
    write_atomically(installing(path), json.dumps(plan).encode())


def finish_install(path: Path, box: str | None) -> list[str]:
    """Honour a marker left by a rebuild, or remove it (see above); the problems found."""
    marker = installing(path)
    kind = regular.irregular(marker)
    if kind is not None:
        aside = refuse(marker, kind)
        return [f"{marker.name} was {kind}, not a marker: set aside as {aside.name}"]
    if not marker.exists():
        return []
    plan = _plan(marker)
    rebuilt = side(path, REBUILT)
    why = _untrusted(plan, rebuilt, box)
    if why:
        LOG.warning("%s not followed: %s; removed, the journal left as it is", marker.name, why)
        marker.unlink()
        return []
    if path.exists() and regular.sha256(path) != plan.get("replaces"):
        keep_aside(path)  # not the file this rebuild kept: kept now, before it goes
    for suffix in SIDE_FILES:
        side(path, suffix).unlink(missing_ok=True)
    os.replace(rebuilt, path)
    for suffix in SIDE_FILES:  # left by the readers that checked it, empty
        side(rebuilt, suffix).unlink(missing_ok=True)
    marker.unlink()
    sync_folder(path.parent)
    return []


def _plan(marker: Path) -> dict:
    try:
        text = regular.read_bytes(marker, 4096).decode("utf-8", "replace").strip()
    except (OSError, ValueError):
        return {}
    with contextlib.suppress(ValueError):
        plan = json.loads(text)
        if isinstance(plan, dict):
            return plan
    return {"rebuilt": text}  # an earlier version's marker: the name only


def _untrusted(plan: dict, rebuilt: Path, box: str | None) -> str:
    """Why the marker must not be followed; empty when it may."""
    if plan.get("rebuilt") != rebuilt.name:
        return f"it names {plan.get('rebuilt')!r}, not {rebuilt.name}"
    kind = regular.irregular(rebuilt)
    if kind is not None or not rebuilt.exists():
        return f"{rebuilt.name} is {kind or 'missing'}"
    if identity.in_file(rebuilt)[0] not in (None, box):
        return f"{rebuilt.name} is another box's journal"
    if plan.get("sha256") is None or regular.sha256(rebuilt) != plan["sha256"]:
        return f"{rebuilt.name} is not the file the rebuild made"
    return ""


def keep_aside(path: Path) -> list[Path]:
    """Copy the journal and its log to ``<name>.damaged-<time><suffix>``; return the copies.

    Copies, each written under a temporary name and then renamed, so a power
    cut never leaves half a copy under the kept name; the originals stay
    until the fresh journal replaces them.
    """
    target = regular.aside_name(path, "damaged", ("", *SIDE_FILES))
    kept = []
    for suffix in ("", "-wal"):  # the -shm index is rebuilt from the log: not worth keeping
        if side(path, suffix).exists():
            write_atomically(side(target, suffix), side(path, suffix).read_bytes())
            kept.append(side(target, suffix))
    return kept


def refuse_irregular(path: Path) -> list[str]:
    """Rename aside whatever is not a regular file at the journal's name or the names of
    the files SQLite opens beside it."""
    problems = []
    for suffix in ("", *regular.SQLITE_SIDES):
        kind = regular.irregular(side(path, suffix))
        if kind is not None:
            aside = refuse(side(path, suffix), kind)
            problems.append(f"{path.name}{suffix} was {kind}: set aside as {aside.name}")
    return problems


def refuse(path: Path, kind: str) -> Path:
    """Rename ``path`` (the link, folder or pipe itself) to ``<stem>.refused-TIME...``."""
    target = regular.aside_name(path, "refused")
    os.rename(path, target)
    LOG.warning("%s is %s, not a regular file: set aside as %s", path, kind, target.name)
    return target


def clean_scratch(path: Path) -> list[Path]:
    """Remove what killed writes left (see above); return what was removed."""
    removed = []
    rebuilt = side(path, REBUILT)
    names = [side(rebuilt, suffix) for suffix in ("", *SIDE_FILES)]
    for where in (path.parent, rolling_backups.folder(path)):
        if regular.irregular(where) != "a folder":  # none, or a link not to follow
            continue
        for entry in where.iterdir():
            scratch = entry in names or bool(_TEMPORARY.fullmatch(entry.name))
            kind = regular.irregular(entry)
            if scratch and kind is None:
                entry.unlink()
                removed.append(entry)
            elif scratch and entry in names:  # our scratch name, but not a file: not followed
                refuse(entry, kind)
            elif _SALVAGE.fullmatch(entry.name) and kind == "a folder":
                shutil.rmtree(entry)  # never follows a link inside
                removed.append(entry)
    if removed:
        LOG.info("removed what interrupted writes left: %s", ", ".join(p.name for p in removed))
    return removed
