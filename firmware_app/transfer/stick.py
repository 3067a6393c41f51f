"""A USB stick: how the daemon learns that one is mounted, writes to it, and lets it go.

The daemon runs unprivileged in a sandbox and never mounts anything itself. A udev rule
(``systemd/99-tableside-usb.rules``) starts ``tableside-stick@DEVICE.service`` as root for a
USB block device with a file system; its script (``systemd/tableside-stick``) mounts the stick
on ``/run/tableside/stick`` so that the ``tableside`` user may write there, then writes the
file ``stick.mounted`` beside it. The daemon's main loop looks for that file about once a
second (one ``stat``), writes in ``stick/tableside/`` from a thread of its own, fsyncs, and
writes ``stick.release``; the script unmounts the stick and answers ``stick.released`` ("ok",
or why not). Only then does the panel say the stick can be pulled. docs/install.md tells
the whole exchange.
"""

import logging
import sqlite3
import threading
from pathlib import Path

from firmware_app.store.atomic import sync_folder
from firmware_app.store.faults import JournalError

LOG = logging.getLogger("tableside.stick")


def write_stick_results(journal_path: Path, folder: Path) -> int:
    """Write every ended game's record, the CSV, the JSON and the statistics in ``folder``.

    Opens its own connections (it runs in a thread beside the main loop); every file is
    written atomically and fsynced. Returns how many game records were written.
    """
    # Imported here, at the first stick: the daemon imports this module before its home menu.
    from firmware_app.store.journal import Journal
    from firmware_app.store.statistics import Stats, cache_of
    from firmware_app.transfer.results import write_results

    folder = Path(folder)
    folder.mkdir(exist_ok=True)
    sync_folder(folder.parent)
    with (
        Journal(journal_path, read_only=True) as journal,
        Stats(journal, cache_of(journal_path)) as stats,
    ):
        written = write_results(journal, stats, folder)
    sync_folder(folder)
    games = sum(path.name.startswith("game-") for path in written)
    LOG.info("%d game(s) and the statistics written to %s", games, folder)
    return games


class Job:
    """Work done in a thread, so that a slow stick never holds up the panel or the watchdog."""

    def __init__(self, work) -> None:
        self.result = self.error = None
        self._thread = threading.Thread(target=self._run, args=(work,), daemon=True)
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
