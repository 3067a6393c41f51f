"""One tick of the main loop: inputs in, a frame out, the watchdog fed.

The same loop runs the device, the terminal simulator and the headless
scripts; only the hardware objects and the clock differ. A frame is drawn
only after an input (drawing is the costly part); the last frame is offered
to the panel every tick, which costs a 1 KiB comparison and lets a panel
that was unplugged come back by itself.
"""

import logging

LOG = logging.getLogger("tableside.loop")


class Loop:
    def __init__(self, app, buttons, reader, display, *, notifier=None, buzzer=None) -> None:
        self.app, self.buttons, self.reader, self.display = app, buttons, reader, display
        self.notifier, self.buzzer = notifier, buzzer
        self.frame = None
        self.last_input = None
        self.asleep = False
        self.contrast = None

    def tick(self, now: float) -> bool:
        """Poll every input, update the app, show the picture; True if it was redrawn."""
        button_events = self.buttons.poll(now)
        tag_events = self.reader.poll(now)
        if button_events or tag_events:
            self.last_input = now
            if self.asleep:
                # the press that wakes the panel does nothing else
                self._wake()
                self.buttons.forget_held()
                button_events = []
            top = self.app.top
            for event in button_events:
                self.app.button(event)
            for event in tag_events:
                if self.buzzer:
                    self.buzzer.click()
                self.app.tag(event)
            if self.app.top is not top:
                self.buttons.forget_held()
        redrawn = False
        if self.frame is None or button_events or tag_events:
            self.frame = self.app.render()
            redrawn = True
        if self.last_input is None:
            self.last_input = now
        self._maybe_sleep(now)
        if not self.asleep:
            contrast = self.app.setting("contrast")
            if contrast != self.contrast:
                self.display.contrast(contrast)
                self.contrast = contrast
            self.display.show(self.frame.image)
        if self.notifier:
            self.notifier.watchdog()
        return redrawn

    def _maybe_sleep(self, now: float) -> None:
        minutes = self.app.setting("sleep_minutes")
        if minutes and not self.asleep and now - self.last_input > minutes * 60:
            LOG.info("idle for %d min: panel off", minutes)
            self.display.sleep()
            self.asleep = True

    def _wake(self) -> None:
        self.display.wake()
        self.asleep = False
