"""The USB stick on the panel: the results written by themselves, then backup and restore.

A stick plugged in gets the finished games and the statistics at once ("Writing to the USB
stick…"). A stick with a ``tableside/backup`` folder is one the owner keeps backups on: the
panel then offers to write the results again, to back the box up, to restore from the
stick (after a question whose first answer changes nothing) and "Done". Any other stick is
let go as soon as its results are written. Either way the stick is unmounted before the
panel says it may be pulled out.

Everything that touches the stick (writing to it, finding its newest backup, backing up,
checking a backup) runs in a thread, so the loop keeps feeding the watchdog however slow
or crowded the stick; the menu is built from what that thread found. Only the restore
itself, which replaces the journal the app holds, runs in the loop, between two inputs,
from the backup already read into memory. A stick whose ``tableside`` (or its ``backup``)
is not a folder is refused by name ("The stick's tableside is not a folder.") and let go.

The backups' module and the confirmation screen are imported when a stick first needs
them, not when the daemon starts: the watch is built before the home menu is shown.
"""

import logging
import sqlite3
from functools import partial

from firmware_app.transfer.folder_handle import NotAFolder
from firmware_app.transfer.stick import Job, back_up, check_on_stick, visit
from firmware_app.ui.screens import Item, Menu, Notice, Screen

LOG = logging.getLogger("tableside.stick")
LOOK = 1.0  # seconds between looks for a stick: one stat
ANSWER = 20.0  # seconds the root unit has to unmount the stick before the panel says so


class Busy(Screen):
    """Work on the stick under way: it ends by itself, so the buttons wait."""

    def __init__(self, app, text: str) -> None:
        super().__init__(app)
        self.text = text

    def draw(self, canvas) -> None:
        canvas.title(self.t("USB stick"))
        canvas.paragraph(self.text)


class StickWatch:
    """Looks for a stick from the main loop; :meth:`tick` says whether the panel must redraw."""

    def __init__(self, app, port, look: float = LOOK) -> None:
        self.app, self.port, self.look = app, port, look
        self.now = 0.0  # the loop's time at the last tick
        self.looked = self.served = self.current = None
        self.job = self.then = self.releasing = None
        self.screens: list[Screen] = []
        self.written = 0
        self.newest: str | None = None  # the name of the stick's newest finished backup
        self.note = ""  # what the last backup did, under its menu item
        self.problem = ""  # what went wrong before the release, said once it is done

    def tick(self, now: float) -> bool:
        self.now = now
        if self.current is None:
            if self.looked is not None and now - self.looked < self.look:
                return False
            self.looked = now
            marker = self.port.marker()
            if marker is None or marker == self.served:
                return False
            self.current = self.served = marker
            LOG.info("a USB stick is mounted on %s", self.port.mount)
            self._write_results()
        elif self.releasing is not None:
            return self._answered(now)
        else:
            return self._went_on()
        return True

    def _went_on(self) -> bool:
        """Whether the stick was pulled out or its work ended. Whether the work ended is read
        before the stick is looked for: work that failed because the stick was pulled ends
        after the stick is gone, so it is never taken for a stick that could not be written."""
        ended = self.job is not None and self.job.done
        if self.port.marker() != self.current:
            self._finish(self.app.t("The USB stick was pulled out before the box was done."))
        elif ended:
            job, self.job = self.job, None
            self.then(job)
        else:
            return False
        return True

    # ------------------------------------------------------------ the steps

    def _run(self, text: str, work, then) -> None:
        self._show(Busy(self.app, text))
        self.job, self.then = Job(work), then

    def _write_results(self) -> None:
        work = partial(visit, self.app.journal.path, self.port)
        self._run(self.app.t("Writing to the USB stick…"), work, self._results_written)

    def _results_written(self, job: Job) -> None:
        if job.error is not None:
            self._release(self._trouble(job.error))
            return
        found = job.result
        self.written, self.newest = found.written, found.newest
        if found.backups:
            self._menu()
        else:
            self._release()

    def _trouble(self, error: Exception) -> str:
        """What the panel says of a stick the box could not write to."""
        t = self.app.t
        if isinstance(error, NotAFolder) and error.path.is_relative_to(self.port.mount):
            name = error.path.relative_to(self.port.mount).as_posix()
            return t("The stick's {name} is not a folder.", name=name)
        return t("Could not write to the USB stick. Is it full or read-only?")

    def _menu(self, selected: str = "") -> None:
        """The stick's menu; ``selected`` is the label of the item the cursor starts on.
        Built from what the stick's thread found: nothing on the stick is looked at here."""
        t = self.app.t
        items = [
            Item(t("Write results"), self._write_results, t("{n} games written.", n=self.written)),
            Item(t("Back up this box"), self._back_up, self.note),
        ]
        if self.newest is not None:
            items.append(Item(t("Restore from this stick"), self._check))
        items.append(Item(t("Done"), self._release))
        menu = Menu(self.app, t("USB stick"), items, back=self._release)
        menu.cursor = next((i for i, item in enumerate(items) if item.label == selected), 0)
        self._show(menu)

    def _back_up(self) -> None:
        app = self.app
        work = partial(back_up, app.journal.path, app.owner_catalogue, self.port, app.clock())
        self._run(app.t("Backing up to the USB stick…"), work, self._backed_up)

    def _backed_up(self, job: Job) -> None:
        t = self.app.t
        self.note = t("Could not back up.") if job.error else t("Backed up.")
        if job.error is None:
            self.newest = job.result  # the backup just made is the one a restore takes
        self._menu(t("Back up this box"))

    def _check(self) -> None:
        """Read and check the newest backup before anything is asked or replaced."""
        work = partial(check_on_stick, self.port, self.newest, self.app.journal.path.parent)
        self._run(self.app.t("Checking the backup…"), work, self._checked)

    def _checked(self, job: Job) -> None:
        from firmware_app.flows.shared.end import confirm

        t = self.app.t
        self._menu()
        if job.error is not None:
            lines = [t("The backup is damaged."), t("Nothing was changed.")]
            self._add(Notice(self.app, t("Not restored"), lines))
            return
        backup = job.result
        yes = t("Yes: restore {n} games", n=backup.held.games)
        confirm(self.app, t("Replace all games?"), yes, partial(self._restore, backup))
        self.screens.append(self.app.top)

    def _restore(self, backup) -> None:
        from firmware_app.transfer.box_backup import BackupError, restore

        app, t = self.app, self.app.t
        try:
            aside = restore(
                backup, app.journal.path, app.owner_catalogue, app.clock(), live=app.journal
            )
        except (BackupError, OSError, sqlite3.Error) as error:
            LOG.error("restore from %s failed: %s", backup.folder, error)
            self._menu()
            self._add(Notice(app, t("Not restored"), [t("Could not restore.")]))
            return
        LOG.info("restored %s; the replaced state is kept in %s", backup.folder, aside)
        self.screens = []
        app.reload()  # the restored settings, tags and game in play
        t = app.t
        self._menu()
        held = backup.held
        lines = [
            t("Restored: {n} games.", n=held.games),
            t(
                "{finished} finished, {abandoned} abandoned, {unfinished} unfinished.",
                finished=held.finished,
                abandoned=held.abandoned,
                unfinished=held.unfinished,
            ),
            t("The replaced state is kept."),
        ]
        self._add(Notice(app, t("Restored"), lines))

    def _release(self, problem: str = "") -> None:
        """Ask for the unmount; the panel says what came of it (:meth:`_answered`)."""
        self.problem = problem
        self._show(Busy(self.app, self.app.t("Writing to the USB stick…")))
        try:
            self.port.request_release()
        except OSError as error:
            LOG.error("cannot ask for the stick's unmount: %s", error)
        self.releasing = self.now

    def _answered(self, now: float) -> bool:
        t = self.app.t
        answer = self.port.released()
        if answer is None and now - self.releasing < ANSWER:
            return False
        if answer != "ok":
            LOG.error("the stick was not unmounted: %s", answer or "no answer")
            self._finish(self.problem or t("Wait a moment before pulling the stick out."))
        elif self.problem:
            self._finish(self.problem)
        else:
            self._finish(t("Done: {n} games written. You can pull the stick out.", n=self.written))
        return True

    def _finish(self, text: str) -> None:
        """The stick is let go (or gone): its screens leave, a notice says how it ended."""
        self._show(Notice(self.app, self.app.t("USB stick"), [text]))
        self.screens = []  # the notice stays until read
        self.current = self.job = self.releasing = None

    # ----------------------------------------------------------- the screens

    def _show(self, screen: Screen) -> None:
        """``screen`` in place of the stick's screens, on top of whatever the table was doing."""
        for old in self.screens:
            self.app.pop(old)
        self.screens = []
        self._add(screen)

    def _add(self, screen: Screen) -> None:
        self.app.push(screen)
        self.screens.append(screen)
