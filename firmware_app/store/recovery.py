"""Opening the journal at start: check it, and recover what a damaged one still holds.

An SD card that lost power at the wrong moment, a full or read-only card, a
byte flipped by a worn cell: the box must still start, say what happened,
and keep every game it can. So :func:`open_journal` checks what can have
been damaged since the last stop: the write-ahead log, SQLite's check of the
tables that change in play (settings, actions, catalogues), and every row a
start reads back (each setting must be JSON, every unfinished game must
replay). What grows with the years, the sealed finished games, is checked
after the first screen, beside the main loop (``housekeeping.py``); damage
found there leaves a marker (``journal.sqlite.recheck``) that makes the next
start check the whole file. When something is wrong:

- the damaged files (main file and write-ahead log) are kept under names
  that say so (``journal.damaged-20261201-144300.sqlite``), never deleted;
- a fresh journal is built from what they still hold (with their log and
  without it), from every backup snapshot of this box and from the backups'
  archive of sealed games (``firmware_app/store/rolling_backups.py``), action
  by action: each game the longest sequence that replays, whichever files hold
  it (``sources.py``); a backup of another box (``identity.py``) is set aside,
  never used;
- the :class:`Outcome` tells the log where the files are and gives the
  panel one screen in the table's language.

A journal that is missing or empty while a backup exists was expected, so
it is restored from the backup and said so, never taken for a first start;
so is a journal or log that is not a regular file (a folder, a pipe, a link),
which is renamed aside unopened. Markers and left-over scratch files are
handled first (``markers.py``).

A storage that refuses writes (full, read-only) is no damage: nothing is
moved, the journal is opened read-only, and each input that needs a write
tries the file again (``Journal.reopen``).
"""

import contextlib
import logging
import shutil
import sqlite3
import tempfile
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from firmware_app.store import identity, markers, regular, rolling_backups
from firmware_app.store.faults import JournalError, StorageError, writable
from firmware_app.store.journal import APPLICATION_ID, SCHEMA_VERSION, Journal
from firmware_app.store.markers import SIDE_FILES, keep_aside, side
from firmware_app.store.rows import Rows, content_problems, json_value, read_live_rows, read_rows
from firmware_app.store.swap import finish_restore
from firmware_app.store.wal import wal_problems

LOG = logging.getLogger("tableside.recovery")
SQLITE_MAGIC = b"SQLite format 3\0"


@dataclass(frozen=True)
class Outcome:
    """What the start found, for the log and the panel."""

    kind: str  # "new", "sound", "damaged", "missing" or "unwritable"
    games: int = 0  # games in the journal now (after a sound start: the unfinished ones)
    known: int = 0  # games found in the damaged files and the backups together
    kept: tuple[Path, ...] = ()  # the copies of the damaged files
    backup: Path | None = None  # the newest backup that was read
    problems: tuple[str, ...] = ()
    reason: str = ""  # for "unwritable": full, read-only or io
    refused: tuple[str, ...] = ()  # what stood at the journal's names, not a file: set aside
    foreign: tuple[Path, ...] = ()  # other boxes' backups, set aside unused
    plan: str = ""  # why a restore plan this box did not write was set aside, untouched

    def log(self) -> None:
        for what in (*self.refused, *self.foreign):
            LOG.warning("set aside, not used: %s", what)
        if self.kind in ("new", "sound"):
            LOG.info("journal: %s, %d unfinished games", self.kind, self.games)
            return
        if self.kind == "unwritable":
            until = "the next start" if self.reason == "check" else "the storage takes writes"
            LOG.error("journal read-only until %s: %s", until, self.problems[0])
            return
        where = ", ".join(str(path) for path in self.kept) or "nothing moved"
        LOG.warning(
            "journal %s: %s; damaged files kept as: %s; %d of %d games recovered%s",
            self.kind,
            "; ".join(self.problems) or "no details",
            where,
            self.games,
            self.known,
            f" (with backup {self.backup})" if self.backup else "",
        )

    def message(self, t) -> list[str]:
        """The panel's words (``t`` is the app's translator); empty after a sound start."""
        lines = []
        if self.refused:
            lines.append(
                t("The game record was not a file (a folder, a link or a pipe); it is set aside.")
            )
        for path in self.foreign:
            lines.append(t("A backup of another box was set aside: {name}.", name=path.name))
        if self.plan:
            lines.append(t("A restore this box did not start was set aside; nothing changed."))
        return lines + self._state(t)

    def _state(self, t) -> list[str]:
        if self.kind == "unwritable":
            return [
                {
                    "full": t("Storage full: nothing can be saved until space is freed."),
                    "read-only": t("Storage is read-only: nothing can be saved."),
                    "check": t(
                        "The game record could not be checked: nothing can be saved until "
                        "the box starts again."
                    ),
                }.get(self.reason, t("Storage error: nothing can be saved now."))
            ]
        if self.kind == "missing":
            text = t(
                "The game record was missing. {recovered} of {known} games restored from a backup.",
                recovered=self.games,
                known=self.known,
            )
            return [text]
        if self.kind == "damaged":
            if not self.known:
                return [
                    t(
                        "The game record was damaged and nothing could be read; "
                        "the damaged copy is kept."
                    )
                ]
            text = t(
                "The game record was damaged. {recovered} of {known} games recovered; "
                "the damaged copy is kept.",
                recovered=self.games,
                known=self.known,
            )
            return [text]
        return []


def open_journal(path: Path, owner: Path | None = None) -> tuple[Journal, Outcome]:
    """The journal at ``path``, checked and if need be rebuilt; never raises on damage.

    ``owner`` is the owner's catalogue the box is configured with: with the journal, the
    only file a restore cut short may be finished on. Call :func:`close_journal` at a clean
    stop: the marker it removes tells the next start whether the daemon stopped cleanly.
    """
    path = Path(path)
    refused, problems, plans = [], [], []
    # Before the journal opens, each on its own: one that fails (an unwritable folder, or
    # a failure nothing foresaw, logged) skips none of the others, and the check still runs.
    for step in (
        lambda: refused.extend(markers.refuse_irregular(path)),  # first: nothing hangs
        lambda: plans.append(finish_restore(path, owner)),  # finished, undone or refused
        lambda: problems.extend(markers.finish_install(path, identity.read_mirror(path))),
        lambda: markers.clean_scratch(path),
        lambda: rolling_backups.settle_archive(path),
    ):
        try:
            step()
        except OSError:  # an unwritable folder: the open says so below
            pass
        except Exception:
            LOG.exception("the work before opening the journal failed")
    try:
        journal, outcome = _open(path)  # what was set aside is missing: as for a lost file
    except Exception as error:  # the check itself failed: never a start that loops
        LOG.exception("the journal's check failed")
        return _refusing(path, error)
    plan = next(filter(None, plans), "")  # a plan refused: the panel says so
    if refused or problems or plan:
        found = (*outcome.problems, *refused, *problems, *filter(None, [plan]))
        outcome = replace(outcome, refused=tuple(refused), problems=found, plan=plan)
    try:
        identity.ensure(journal, lambda: _carried(path))
    except Exception:  # the identity waits for the next start; the games are in place
        LOG.exception("the box's identity cannot be kept now")
    with contextlib.suppress(OSError):  # an unwritable folder: the outcome says so
        _running(path).touch()
    return journal, outcome


def _refusing(path: Path, error: Exception) -> tuple[Journal, Outcome]:
    """The journal as it is, read-only, every write refused until the next start.

    The check failed in a way nothing foresaw (a bug, or damage no check knows): nothing
    may be written into a file the start could not vouch for, and the box must still
    reach its home menu and say so, or systemd restarts it into the same failure. An
    empty journal stands in when not even a reader can open the file.
    """
    refused = StorageError(f"{path}: the journal's check failed: {error}", "check")
    try:
        journal, outcome = _unwritable(path, refused)
    except Exception:
        LOG.exception("the journal cannot be read either: an empty one stands in")
        stand_in = Path(tempfile.mkdtemp(prefix="tableside-readonly-")) / path.name
        Journal(stand_in).close()
        journal = Journal(stand_in, read_only=True)
        outcome = Outcome("unwritable", problems=(str(refused),), reason="check")
    journal.refusing = str(refused)
    return journal, outcome


def close_journal(journal: Journal) -> None:
    """A clean stop: the log copied into the main file, the file closed, the marker removed."""
    journal.checkpoint()
    journal.close()
    with contextlib.suppress(OSError):
        _running(journal.path).unlink(missing_ok=True)


def _open(path: Path) -> tuple[Journal, Outcome]:
    wal = side(path, "-wal")
    if _empty(path) and _empty(wal):
        if not writable(path):
            refused = StorageError(f"{path}: cannot create the journal", "read-only")
            return _unwritable(path, refused)
        if rolling_backups.newest(path) or rolling_backups.archive(path).exists():
            return _rebuild(path, ["the journal is missing or empty, but backups exist"], "missing")
        return Journal(path), Outcome("new")
    problems = wal_problems(wal)
    if _empty(path):
        problems.append("the main file is empty but its log is not")
    elif not wal.exists() and _running(path).exists():
        problems.append("the log is missing after a stop that was not clean")
    if problems:
        return _rebuild(path, problems, "damaged")
    if not writable(path):
        return _unwritable(path, StorageError(f"{path}: the storage is read-only", "read-only"))
    refused = _not_ours(path)
    if refused:
        return _rebuild(path, [refused], "damaged")
    try:
        journal = Journal(path)
    except StorageError as error:
        return _unwritable(path, error)
    except JournalError as error:
        return _rebuild(path, [str(error)], "damaged")
    whole = recheck(path).exists()  # damage was found after the last start
    problems = journal.check() if whole else journal.check_live()
    if not problems:
        rows = read_rows(path) if whole else read_live_rows(path)
        problems = rows.problems + content_problems(rows) + _another_box(rows, path)
    if not problems:
        _drop(recheck(path))
        unfinished = sum(row.get("outcome") is None for row in rows.games().values())
        return journal, Outcome("sound", games=unfinished)
    # kept before the close, which would copy the log into the damaged main file
    kept = keep_aside(path)
    journal.close()
    return _rebuild(path, problems, "damaged", kept)


def _another_box(rows: Rows, path: Path) -> list[str]:
    """A journal that carries another box's identity than the mirror's: another box's log
    beside ours is whole by its own sums, and SQLite applies it; the result passes every
    other check. (A restore makes the mirror follow the restored journal: ``swap.py``.)"""
    carried, ours = _carried_box(rows), identity.read_mirror(path)
    if carried and ours and carried != ours:
        return [f"the journal carries another box's identity ({carried}; this box is {ours})"]
    return []


def _carried_box(rows: Rows) -> str | None:
    """The identity a journal's rows carry in its settings; None when none is readable."""
    return identity.valid(json_value(rows.settings().get(identity.KEY, {}).get("value")))


def _not_ours(path: Path) -> str:
    """Why the file is no journal of ours, asked read-only; empty when it may be opened.

    A journal opened for writing that turns out not to be ours is closed again, and
    SQLite's last close copies the log into the file and deletes it: the log would
    be gone before it was kept aside. A read-only look leaves both as they are.
    """
    try:
        db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        try:
            application = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
        finally:
            db.close()
    except sqlite3.OperationalError:  # cannot look (locked, storage): the open will tell
        return ""
    except sqlite3.Error as error:
        return f"{path}: not a Tableside journal ({error})"
    if application != APPLICATION_ID:
        return f"{path}: an SQLite file, but not a Tableside journal"
    if not 1 <= version <= SCHEMA_VERSION:
        return f"{path}: journal schema {version}; this one reads schema {SCHEMA_VERSION}"
    return ""


def _drop(marker: Path) -> None:
    """Remove a marker that has done its work; one that is not a file is set aside."""
    kind = regular.irregular(marker)
    if kind is not None:
        markers.refuse(marker, kind)
    marker.unlink(missing_ok=True)


def recheck(path: Path) -> Path:
    """The marker that damage was found after start-up: the next start checks everything."""
    return side(path, ".recheck")


# ------------------------------------------------------------ rebuilding


def _rebuild(
    path: Path, problems: list[str], kind: str, kept: list[Path] | None = None
) -> tuple[Journal, Outcome]:
    """Keep the damaged files, build a fresh journal beside them, then put it in place.

    Every step leaves the box able to start again if the power goes: until
    the fresh journal is complete the originals are untouched (a new start
    redoes the work), and its installation is finished at the next start
    when a marker says it was under way (``markers.py``).
    """
    kept = keep_aside(path) if kept is None else kept
    found = _damaged(path, kept, problems)
    box = _box(path, found)
    foreign = rolling_backups.set_aside_foreign(path, box)
    backups = [read_rows(snapshot) for snapshot in rolling_backups.newest(path, box)]
    archive = rolling_backups.archive(path)
    carried = identity.in_file(archive)[0]
    if carried == identity.UNREADABLE or (box and carried not in (None, box)):
        foreign.append(rolling_backups.set_aside(archive))
    elif archive.exists():
        archived = read_rows(archive)  # the sealed games, each copied once
        if archived.problems:
            LOG.warning("the backups' archive is damaged: %s", "; ".join(archived.problems))
        backups.append(archived)
    rebuilt = side(path, markers.REBUILT)
    for suffix in ("", *SIDE_FILES):
        side(rebuilt, suffix).unlink(missing_ok=True)
    Journal(rebuilt).close()
    from firmware_app.store import sources  # only a rebuild needs it: not at every start

    db = sqlite3.connect(rebuilt, isolation_level=None)
    try:
        known = sources.write(db, found + backups)
        if box is not None:  # the box's identity, whichever source held it
            db.execute(_SET_BOX, (identity.KEY, f'"{box}"'))
    finally:
        db.close()
    markers.install(path, rebuilt, regular.sha256(kept[0]) if kept and _main(kept[0]) else None)
    markers.finish_install(path, box)
    _drop(recheck(path))  # the rebuilt file was checked row by row
    journal = Journal(path)
    outcome = Outcome(
        kind,
        games=len(read_rows(path).games()),
        known=known,
        kept=tuple(kept),
        backup=backups[0].source if backups else None,
        problems=tuple(problems),
        foreign=tuple(foreign),
    )
    return journal, outcome


_SET_BOX = """INSERT INTO settings (key, value) VALUES (?, ?)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value"""


def _main(kept: Path) -> bool:
    return not kept.name.endswith(SIDE_FILES)


def _damaged(path: Path, kept: list[Path], problems: list[str]) -> list[Rows]:
    """What the kept files hold: read with their log applied, and the main file alone.

    A log applied to a damaged main file may hide rows the file itself still has (or
    the reverse), so both are sources; each read on a copy whose SQLite signature is
    mended if that was what broke.
    """
    main = [original for original in kept if _main(original)]
    variants = [kept] + ([main] if main and len(kept) > 1 else [])
    found = []
    for files in variants:
        scratch = Path(tempfile.mkdtemp(prefix=".salvage-", dir=path.parent))
        try:
            copy = scratch / path.name
            for original in files:
                suffix = next((s for s in SIDE_FILES if original.name.endswith(s)), "")
                shutil.copyfile(original, side(copy, suffix))
            if copy.exists():
                _mend_magic(copy)
            found.append(read_rows(copy))
        except (OSError, sqlite3.Error) as error:
            problems.append(f"cannot copy the damaged files to read them: {error}")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return found


def _box(path: Path, found: list[Rows]) -> str | None:
    """This box's identity: the mirror file's (a damaged journal may carry another box's
    log), else the damaged journal's own, else the one the backups carry most often (a
    state folder that lost both)."""
    if (box := identity.read_mirror(path)) is not None:
        return box
    for rows in found:
        if (box := _carried_box(rows)) is not None:
            return box
    return _carried(path)


def _carried(path: Path) -> str | None:
    """The identity the backups carry most often: that of a box whose state folder lost
    both the journal's and the mirror's."""
    held = [one.box for one in rolling_backups.held(path)]
    held.append(identity.in_file(rolling_backups.archive(path))[0])
    boxes = Counter(box for box in held if box not in (None, identity.UNREADABLE))
    return boxes.most_common(1)[0][0] if boxes else None


def _mend_magic(copy: Path) -> None:
    """Give the copy back SQLite's 16-byte signature, which a damaged file may have lost."""
    with contextlib.suppress(OSError), open(copy, "r+b") as file:
        if file.read(16) not in (SQLITE_MAGIC, b""):
            file.seek(0)
            file.write(SQLITE_MAGIC)


# ---------------------------------------------------------------- storage


def _unwritable(path: Path, error: StorageError) -> tuple[Journal, Outcome]:
    """The storage refuses writes: read the journal as it is and let each write retry."""
    try:
        journal = Journal(path, read_only=True)
    except JournalError:
        # Not even a reader can set up the log's index here (or there is no file): read a
        # copy in the temporary folder, an empty journal if there is nothing to copy.
        copy = Path(tempfile.mkdtemp(prefix="tableside-readonly-")) / path.name
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                shutil.copyfile(side(path, suffix), side(copy, suffix))
        if not copy.exists():
            Journal(copy).close()
        journal = Journal(copy, read_only=True)
    games = len(read_live_rows(journal.path).games())
    journal.path = path  # the next write retries the real file
    return journal, Outcome("unwritable", games=games, problems=(str(error),), reason=error.reason)


def _running(path: Path) -> Path:
    """The marker that the daemon has the journal open; a clean stop removes it."""
    return side(path, ".running")


def _empty(path: Path) -> bool:
    return not path.exists() or path.stat().st_size == 0
