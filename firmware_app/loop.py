"""One tick of the main loop: inputs in, a frame out, the watchdog fed.

The same loop runs the device, the terminal simulator and the headless
scripts; only the hardware objects and the clock differ. A frame is drawn
only after an input (drawing is the costly part) and handed to the panel once; while the
panel is lost, the frame is offered to it every tick, which lets a panel that was unplugged
come back by itself. The journal's files are looked at twice a second (``LOOK``): one
deleted under the box is written again and said on the panel within half a second.

An input whose write the storage refuses (full, read-only, I/O error) is
refused as a whole: the screens go back to what they were before it, the
panel says the move was not saved, and the next input simply tries again,
so play continues by itself once the fault is gone. Any other exception of an input,
a slow screen's work, a background job or a drawing goes to the guard (``guard.py``),
which says so on the panel and goes on from the screens before it.

A slow screen (a virtual player thinking) does its work from the tick after the one that
put it on the panel, so every runner, the terminal's too, has drawn it before the work
holds up the loop. Where the screen ``drops_presses``, whatever was pressed or laid on the
reader while the work ran is dropped at the next poll, never handed to the screen the work
put in its place: the table could not see that screen when it pressed.
"""

import logging

from firmware_app.guard import Guard
from firmware_app.status import play_status
from firmware_app.store.faults import StorageError

LOG = logging.getLogger("tableside.loop")
LOOK = 0.5  # seconds between two looks at the journal's files (three ``stat`` calls)


class Loop:
    def __init__(
        self,
        app,
        buttons,
        reader,
        display,
        *,
        notifier=None,
        buzzer=None,
        backups=None,
        stick=None,
        missing="",
    ) -> None:
        self.app, self.buttons, self.reader, self.display = app, buttons, reader, display
        # the storage's work beside the loop: store/housekeeping.py's Keeper (the check after
        # start-up, then the backups), or only the backups
        self.notifier, self.buzzer, self.backups = notifier, buzzer, backups
        self.stick = stick  # flows/shared/stick.py's StickWatch: a USB stick plugged in
        self.missing = missing  # the parts that do not work, for the status line
        self.frame = None
        self.on_panel = None  # the frame last handed to the panel
        self.look_due = 0.0  # when the journal's files are looked at next
        self.shown = None  # the top screen when the last tick ended: the one on the panel
        self.busy = False  # a work that drops presses has just run: drop the next poll's inputs
        self.last_input = None
        self.asleep = False
        self.contrast = None
        self.status = None
        self.handoffs = app.handoffs
        self.guard = Guard(app)

    def tick(self, now: float) -> bool:
        """Poll every input, update the app, show the picture; True if it was redrawn."""
        shown = self.shown
        button_events = self.buttons.poll(now)
        tag_events = self.reader.poll(now)
        if self.busy:  # all made while a virtual player thought
            self._drop(len(button_events) + len(tag_events))
            button_events, tag_events = [], []
        before = self.guard.mark()  # what a failing draw of this tick's inputs returns to
        if button_events or tag_events:
            self.last_input = now
            if self.asleep:
                # the press that wakes the panel does nothing else
                self._wake()
                self.buttons.forget_held()
                button_events = []
            top = self.app.top
            for event in button_events:
                self._saved(self.app.button, event)
            for event in tag_events:
                if self.buzzer:
                    self.buzzer.click()
                self._saved(self.app.tag, event)
            if self.app.top is not top:
                self.buttons.forget_held()
            if self.app.handoffs != self.handoffs:
                self.handoffs = self.app.handoffs
                if self.buzzer and self.app.chirps():
                    self.buzzer.chirp()
        redrawn = False
        heeded = tag_events or not all(map(self.app.ignores, button_events))
        if self.frame is None or heeded:
            self.frame = self.guard.draw(before)
            redrawn = True
            self._tell_status()
        if self.last_input is None:
            self.last_input = now
        self._maybe_sleep(now)
        if not self.asleep:
            contrast = self.app.setting("contrast")
            if contrast != self.contrast:
                self.display.contrast(contrast)
                self.contrast = contrast
            self._show()
        if (slow := self.app.top).slow and slow is shown:  # on the panel since the last tick
            before = self._saved(lambda _: slow.work(), "work", leaving=slow)
            self.busy = slow.drops_presses
            self.frame, redrawn = self.guard.draw(before), True
            if not self.asleep:
                self._show()
        before = self.guard.mark()  # the jobs beside the play, from here
        found = self.guard.job("backups", self.backups.tick, now) if self.backups else None
        if found and (lines := found.message(self.app.t)):  # the check after start-up
            self.app.notice(self.app.t("Game record"), lines)
        if now >= self.look_due and self._replaced(now):  # deleted under the box: written again
            t = self.app.t
            lines = [
                t(
                    "The game record was deleted while the box was running; "
                    "it was written again in full. Nothing was lost."
                )
            ]
            self.app.notice(t("Game record"), lines)
        if self.stick and self.guard.job("stick", self.stick.tick, now):
            self.last_input = now  # the stick's screen, shown from the next tick
            if self.asleep:
                self._wake()
        if self.app.stack != before.stack:  # a job's screen, or the guard's word on a job
            self.frame, redrawn = self.guard.draw(before), True
        if self.notifier:
            self.notifier.watchdog()
        self.shown = self.app.top
        return redrawn

    def _show(self) -> None:
        """Hand the panel a frame it has not had, or any frame while it is lost (each
        offer is its chance to reconnect): a tick in which nothing changed sends nothing."""
        if self.frame is not self.on_panel or self.display.fault is not None:
            self.display.show(self.frame.image)
            self.on_panel = self.frame

    def _replaced(self, now: float) -> bool:
        """Whether the journal was written again, its files deleted or replaced while open
        (``store/in_place.py``); looked at once every ``LOOK`` seconds."""
        self.look_due = now + LOOK
        return self.app.journal.replaced()

    def _drop(self, inputs: int) -> None:
        """The first poll after a virtual player thought brings what was pressed meanwhile:
        none of it acts, and a button still held stays silent until pressed again."""
        self.busy = False
        self.buttons.forget_held()
        if inputs:
            LOG.info("%d inputs made while the box was thinking: dropped", inputs)

    def _saved(self, handle, event, leaving=None):
        """Hand one event to the app; if its write is refused, undo its screen changes; any
        other failure goes to the guard, which goes back to the screens before it (without
        ``leaving``, the slow screen whose work failed). Returns that mark of them."""
        before = self.guard.mark(leaving)
        part = self.app.top.part
        try:
            handle(event)
        except StorageError as error:
            LOG.error("input %s not saved: %s", event, error)
            self.app.stack = list(before.stack)
            self.app.unsaved(error.reason)
        except Exception as error:
            self.guard.failed(error, part, before)
        else:
            self.guard.passed(before)
        return before

    def _tell_status(self) -> None:
        if not self.notifier:
            return
        status = play_status(self.app) + (f"; {self.missing}" if self.missing else "")
        if status != self.status:
            self.status = status
            self.notifier.status(status)

    def _maybe_sleep(self, now: float) -> None:
        minutes = self.app.setting("sleep_minutes")
        if minutes and not self.asleep and now - self.last_input > minutes * 60:
            LOG.info("idle for %d min: panel off", minutes)
            self.display.sleep()
            self.asleep = True

    def _wake(self) -> None:
        self.display.wake()
        self.asleep = False
