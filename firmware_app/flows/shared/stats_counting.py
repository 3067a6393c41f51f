"""Counting the finished games into the statistics cache, a slice a loop tick, shown as it goes.

The first opening of Statistics after years of games (or after the cache was lost) has
thousands of games to index: minutes on a Zero 2 W in one go, past the watchdog. So the menu
indexes one slice as it opens, which is all there is in the usual case (the few games finished
since), and while more remain it says how far it got and indexes one slice a tick of the main
loop (the ``work`` of a ``slow`` screen). Each slice is committed, so BACK, a kill or a power
cut keeps what was done, and the next opening goes on from there.

The storage refusing the cache (full, read-only, failing) ends the counting with a notice; the
menu then shows the games counted so far. The cache itself rebuilds when it is damaged.
"""

import logging
import sqlite3

from firmware_app.store.faults import JournalError
from firmware_app.store.statistics import Stats, cache_of
from firmware_app.ui.canvas import Canvas

LOG = logging.getLogger("tableside.stats")
# A slice: at most this many games, and about this long, so that a tick of the loop (a
# slice, then drawing the panel) stays well under 30 ms; the games cap bounds a fast machine.
SLICE_GAMES = 200
SLICE_SECONDS = 0.01
THOUSANDS = {"pl": " "}  # how a language groups thousands, where not with ","


class Counting:
    """The indexing done by one opening of Statistics: ``step`` is a slice, ``draw`` shows it."""

    def __init__(self, app) -> None:
        self.app = app
        self.stats: Stats | None = None
        self.more, self.fault = True, None
        self.reached, self.total = 0, None
        self.kept = 0  # finished games not counted (their header or summary unreadable)
        try:
            self.stats = Stats(app.journal, cache_of(app.journal.path), self._keep_aside)
        except JournalError as error:
            self._stop(error)

    @property
    def done(self) -> bool:
        return not self.more

    def step(self) -> None:
        """Index one slice and note how far it got; the storage refusing it ends the counting."""
        if self.stats is None:
            return
        try:
            self.more = self.stats.index_slice(SLICE_GAMES, SLICE_SECONDS)
        except JournalError as error:
            self._stop(error)
            return
        self.reached, self.total = self.stats.progress()
        if not self.more:
            self.close()

    def _keep_aside(self, game_id: int, problem: str) -> None:
        """A finished game the statistics cannot count: kept aside as the check after start-up
        keeps a damaged one (its row in ``journal.damaged-game-NNNNN-TIME.json``, then out of
        the journal, so no list or export trips over it)."""
        from firmware_app.store.housekeeping import keep_game_aside  # rarely needed: not at start

        self.kept += 1
        journal = self.app.journal
        if journal.read_only:
            return
        try:
            keep_game_aside(journal, game_id, self.app.clock, from_archive=False)
        except (JournalError, sqlite3.Error, OSError) as error:
            LOG.warning("finished game %d not kept aside: %s", game_id, error)

    def notes(self) -> list[str]:
        """What the panel says once counting ends: the storage refusing, games kept aside."""
        t = self.app.t
        lines = [self.fault_words()] if self.fault else []
        if self.kept:
            lines.append(
                t.plural(
                    "{n} finished game was damaged: it is kept aside, the others are safe.",
                    "{n} finished games were damaged: they are kept aside, the others are safe.",
                    self.kept,
                )
            )
        return lines

    def _stop(self, error: JournalError) -> None:
        LOG.warning("statistics not brought up to date: %s", error)
        self.fault = getattr(error, "reason", "io")
        self.more = False
        self.close()

    def close(self) -> None:
        if self.stats is not None:
            self.stats.close()
            self.stats = None

    def draw(self, canvas: Canvas, title: str) -> None:
        t = self.app.t
        canvas.title(title)
        canvas.row(0, t("Counting games…"))
        reached = _number(t, self.reached)
        canvas.row(
            1,
            t("{done} of {total}", done=reached, total=_number(t, self.total))
            if self.total
            else reached,
        )
        canvas.row(3, t("BACK: later"))

    def fault_words(self) -> str:
        """What the storage's refusal means for the figures, in the app's language."""
        t = self.app.t
        return {
            "full": t("Storage full: some games are not counted yet."),
            "read-only": t("Storage is read-only: some games are not counted yet."),
        }.get(self.fault, t("Storage error: some games are not counted yet."))


def _number(t, n: int) -> str:
    """1,200 in English, 1 200 in Polish."""
    return f"{n:,}".replace(",", THOUSANDS.get(t.language, ","))
