"""A USB stick: how the daemon learns that one is mounted, writes to it, and lets it go.

The daemon runs unprivileged in a sandbox and never mounts anything itself. A udev rule
(``systemd/99-tableside-usb.rules``) starts ``tableside-stick@DEVICE.service`` as root for a
USB block device with a file system; its script (``systemd/tableside-stick``) mounts the stick
on a mount point only root can change (``StickPort.mount``) and says so in a file the
daemon reads. The daemon's main loop looks for that answer about once a second (one
``stat``); everything else on the stick is done in a :class:`Job`, a thread of its own:
writing the results in the stick's ``tableside/`` folder (``StickPort.folder``), finding
the newest backup, backing up, checking a backup. Then the daemon asks for the unmount and
the panel says the stick can be pulled only once the script answers that it is done.
docs/install.md tells the whole exchange.

The stick is anyone's: its ``tableside`` may be a link to a folder of the box, a file, a
pipe, or a folder of 100,000 entries. So the daemon reaches it only through folder handles
from the mount point down (``folder_handle``): no link is followed, anything but a folder
where a folder belongs is refused (:class:`NotAFolder`, which the panel names), and a folder
of backups is looked at only as far as its first names (``box_backup.SCAN``).
"""

import logging
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from firmware_app.store.faults import JournalError
from firmware_app.transfer.folder_handle import Folder, opened

LOG = logging.getLogger("tableside.stick")


def stick_folder(port, *, create: bool = False) -> Folder:
    """The stick's ``tableside/`` folder, open, reached from the mount point one folder at a
    time (made first when ``create``)."""
    return Folder.below(port.mount, port.folder.relative_to(port.mount).parts, create=create)


def write_stick_results(journal_path: Path, folder: "Folder | Path") -> int:
    """Write every ended game's record, the CSV, the JSON and the statistics in ``folder``
    (an open folder, or a path whose last folder is made if need be).

    Opens its own connections (it runs in a thread beside the main loop); every file is
    written whole or not at all, and synced. Returns how many game records were written.
    """
    # Imported here, at the first stick: the daemon imports this module before its home menu.
    from firmware_app.store.journal import Journal
    from firmware_app.store.statistics import Stats, cache_of
    from firmware_app.transfer.results import result_files

    with (
        Journal(journal_path, read_only=True) as journal,
        Stats(journal, cache_of(journal_path)) as stats,
    ):
        files = result_files(journal, stats)
    games = sum(name.startswith("game-") for name in files)
    with opened(folder, create=True) as target:
        for name, data in files.items():
            target.write(name, data)
        LOG.info("%d game(s) and the statistics written to %s", games, target.path)
    return games


@dataclass(frozen=True)
class Visit:
    """What a stick was given and what it holds, worked out off the main loop."""

    written: int  # game records written
    backups: bool  # the stick has a tableside/backup folder: the owner keeps backups on it
    newest: str | None  # the newest finished backup's name in that folder


def visit(journal_path: Path, port) -> Visit:
    """Write the results on the stick, then look for its folder of backups and the newest
    backup in it."""
    from firmware_app.transfer.box_backup import SHELF, newest_backup

    with stick_folder(port, create=True) as folder:
        written = write_stick_results(journal_path, folder)
        try:
            shelf = folder.child(SHELF)
        except FileNotFoundError:
            return Visit(written, False, None)
        with shelf:
            return Visit(written, True, newest_backup(shelf))


def back_up(journal_path: Path, owner_catalogue: Path | None, port, now: float) -> str:
    """Back the box up in the stick's folder of backups; return the new backup's name."""
    from firmware_app.transfer.box_backup import SHELF, make_backup

    with stick_folder(port) as folder, folder.child(SHELF) as shelf:
        return make_backup(journal_path, owner_catalogue, shelf, now).name


def check_on_stick(port, name: str, scratch: Path):
    """The backup ``name`` in the stick's folder of backups, read and checked."""
    from firmware_app.transfer.box_backup import SHELF, check_backup

    with stick_folder(port) as folder, folder.child(SHELF) as shelf, shelf.child(name) as made:
        return check_backup(made, scratch)


class Job:
    """Work done in a thread, so that a slow stick never holds up the panel or the watchdog."""

    def __init__(self, work) -> None:
        self.result = self.error = None
        self._thread = threading.Thread(target=self._run, args=(work,), name="stick", daemon=True)
        self._thread.start()

    def _run(self, work) -> None:
        try:
            self.result = work()
        except Exception as error:  # the caller says so on the panel
            from firmware_app.transfer.box_backup import BackupError

            expected = isinstance(error, OSError | sqlite3.Error | JournalError | BackupError)
            LOG.error("USB stick: %s", error, exc_info=not expected)  # a bug's traceback
            self.error = error

    @property
    def done(self) -> bool:
        return not self._thread.is_alive()
