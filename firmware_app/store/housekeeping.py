"""The storage's work that grows with the years, done beside the main loop, never in it.

The start reads only what can have changed since the last stop (``recovery.py``), so a
box with ten thousand games shows its home menu as fast as a new one. What remains is
done here, in a thread of its own with its own connection, once the first screen is up:

1. the ended games of an older journal are sealed (``sealed.py``), a few per
   transaction, so what is done before a power cut stays done;
2. SQLite's whole-file integrity check, which reads every page;
3. each sealed game is read back and its CRC compared.

A sealed game whose values are damaged is kept aside: its row is written to
``journal.damaged-game-NNNNN-TIME.json`` beside the journal, then it is restored from
the backups' archive when the copy there is sound, or else taken out of the journal so
that no list, export or statistic trips over it (the statistics cache, derived data, is
then counted again). Damage SQLite finds in the file's pages
leaves the marker ``journal.sqlite.recheck``: the next start checks the whole file and
rebuilds it from what it holds and the backups, as after any damage. Either way the
table is told on the panel and play goes on. Backups (``rolling_backups.py``) start
once this work is done, so the first one already holds the sealed games.
"""

import base64
import json
import logging
import sqlite3
import threading
import time
from contextlib import closing
from dataclasses import dataclass

from firmware_app.store import rolling_backups
from firmware_app.store.atomic import write_atomically
from firmware_app.store.faults import JournalError
from firmware_app.store.journal import Journal
from firmware_app.store.recovery import recheck

LOG = logging.getLogger("tableside.housekeeping")
SEAL_SLICE = 20  # old games sealed per transaction round
INTERRUPT_EVERY = 0.05  # seconds between interrupts of the check at a stop
# Reading the sealed games back is Python work, which holds the interpreter's lock: a few
# games at a time, then a pause in which the main loop has the lock to itself.
READ_SLICE, PAUSE = 25, 0.003


def _let_the_loop_run() -> None:
    time.sleep(PAUSE)


@dataclass
class Findings:
    """What the check after start-up found, for the log and the panel."""

    problems: list[str]  # every problem, in words for the log
    restored: int = 0  # damaged sealed games put back from the archive
    aside: int = 0  # damaged sealed games taken out of the journal, their rows kept
    recheck: bool = False  # damage in the file's pages: the next start repairs it

    def message(self, t) -> list[str]:
        """The panel's words (``t`` is the app's translator); empty when nothing was found."""
        lines = []
        if self.restored:
            lines.append(
                t.plural(
                    "{n} damaged finished game was restored from the backup.",
                    "{n} damaged finished games were restored from the backup.",
                    self.restored,
                )
            )
        if self.aside:
            lines.append(
                t.plural(
                    "{n} finished game was damaged: it is kept aside, the others are safe.",
                    "{n} finished games were damaged: they are kept aside, the others are safe.",
                    self.aside,
                )
            )
        if self.recheck:
            lines.append(t("Part of the game record is damaged; it is mended at the next start."))
        return lines


def check_after_start(journal: Journal, clock=time.time) -> Findings:
    """Seal the old games, check the whole file, read back every sealed game (see above).

    ``journal`` is a connection of the check's own: ``Journal.interrupt`` cuts it short.
    """
    path = journal.path
    try:
        while journal.seal_ended(SEAL_SLICE):
            pass
    except sqlite3.DatabaseError as error:  # damaged pages: the check below names them
        LOG.warning("sealing the ended games stopped: %s", error)
    findings = Findings(journal.check())
    if findings.problems:  # pages damaged: reading the games back could mislead
        findings.recheck = True
    else:
        for game_id, problem in journal.damaged_sealed_games(READ_SLICE, _let_the_loop_run):
            findings.problems.append(f"finished game {game_id}: {problem}")
            if keep_game_aside(journal, game_id, clock):
                findings.restored += 1
            else:
                findings.aside += 1
    if findings.aside:  # the statistics counted the games taken out: counted again
        from firmware_app.store.statistics import CACHE, cache_of  # rarely needed: not at start

        for suffix in ("", "-wal", "-shm"):
            cache_of(path).with_name(CACHE + suffix).unlink(missing_ok=True)
    if findings.recheck:
        write_atomically(recheck(path), "\n".join(findings.problems).encode("utf-8") + b"\n")
    return findings


def keep_game_aside(journal: Journal, game_id: int, clock, *, from_archive=True) -> bool:
    """Write the damaged row beside the journal, then put the archive's copy back or take
    the game out; True when the copy replaced it. ``from_archive`` False: the archive's
    copy is the same row (a header of the wrong shape was archived as it was)."""
    path = journal.path
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(clock()))
    aside = path.with_name(f"{path.stem}.damaged-game-{game_id:05d}-{stamp}.json")
    kept = {key: _plain(value) for key, value in journal.row(game_id).items()}
    write_atomically(aside, json.dumps(kept, ensure_ascii=False, indent=1).encode("utf-8"))
    archive = rolling_backups.archive(path) if from_archive else None
    if journal.put_back(game_id, archive):
        LOG.warning("finished game %d restored from %s", game_id, archive)
        return True
    LOG.warning("finished game %d is damaged: taken out, its row kept in %s", game_id, aside)
    return False


def _plain(value):
    """A row's value as JSON can hold it: bytes as base64."""
    return {"base64": base64.b64encode(value).decode()} if isinstance(value, bytes) else value


class Keeper:
    """The check after start-up, then the backups: :meth:`tick` is called by the main loop.

    ``beside`` runs the work in a thread of its own; False runs it within the tick
    (scripts and tests that want it done).
    """

    def __init__(self, journal, *, clock=time.time, beside: bool = True, backups=None):
        self.journal, self.clock, self.beside = journal, clock, beside
        self.backups = backups or rolling_backups.Backups(journal, clock=clock, beside=beside)
        self._worker: threading.Thread | None = None
        self._findings: Findings | None = None
        self._checked = False
        self._checking: Journal | None = None  # the check's connection, while it runs
        self._closing = False

    def tick(self, now: float) -> Findings | None:
        """Start or follow the work; the findings once, when there is something to tell."""
        if not self._checked:
            if self._worker is None:
                self._start()
            if self._worker is not None and self._worker.is_alive():
                return None
            self._worker, self._checked = None, True
            found, self._findings = self._findings, None
            return found if found and found.problems else None
        self.backups.tick(now)
        return None

    def _start(self) -> None:
        if self.journal.read_only:  # nothing can be sealed or kept aside: at the next start
            self._checked = True
            return
        if self.beside:
            self._worker = threading.Thread(target=self._check, name="check", daemon=True)
            self._worker.start()
        else:
            self._check()

    def _check(self) -> None:
        try:
            with closing(Journal(self.journal.path)) as journal:
                self._checking = journal
                self._findings = check_after_start(journal, self.clock)
        except (JournalError, sqlite3.Error, OSError) as error:
            self._findings = Findings([f"the check after start-up stopped: {error}"])
        finally:
            self._checking = None
        if not self._closing:
            for problem in self._findings.problems:
                LOG.warning("%s", problem)

    def close(self) -> None:
        """A stop: the check is cut short (the next start does it again), a backup under
        way is finished."""
        self._closing = True
        while self._worker is not None and self._worker.is_alive():
            # again and again: SQLite drops an interrupt that comes between two statements
            if (checking := self._checking) is not None:
                checking.interrupt()
            self._worker.join(INTERRUPT_EVERY)
        self._worker = None
        self.backups.close()
