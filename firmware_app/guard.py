"""The guard: a bug in one screen or one job beside the play never stops the box.

The loop hands every input, every slow screen's work, every background job's tick and
every drawing of the panel through here. An exception none of them expected (an input's
storage refusal is expected: the loop answers it itself; a stop, ``KeyboardInterrupt`` or
SIGTERM's ``SystemExit``, is no ``Exception`` and goes through) is logged with its
traceback, the panel says in one notice what failed and that the game is safe, and the
table goes on from the screens it had before the failure. The guard never writes the
journal: every move the panel acknowledged was committed before it was shown, and stays.

Nothing may turn a bug into a loop, so every way back is shorter than the last:

- a failing input, or slow screen's work, returns to the screens as they were before it;
  after a failing draw, the panel is drawn again on those, under the notice;
- home instead when those screens belong to a game that moved on since (an action was
  committed before the failure: the old turn menu would offer the old moves), when the
  same error comes again in a row (with only the guard's notice read in between), or
  when the screens to return to cannot be drawn either;
- a plain frame, drawn without any screen, when not even the home menu can be drawn;
- a background job failing ``STOP_AFTER`` ticks in a row is stopped until the next start,
  and the panel tells the first failure of a row only, so a job failing every tick cannot
  fill the panel with notices.
"""

import logging
import traceback
from dataclasses import dataclass

from firmware_app.ui.canvas import message_frame

LOG = logging.getLogger("tableside.guard")
STOP_AFTER = 3  # a background job failing this many ticks in a row is stopped for the run
# What failed, the notice's first line: by the part's name (``Screen.part`` names a screen's).
PARTS = {
    "screen": "An error on this screen.",
    "drawing": "An error drawing the screen.",
    "virtual": "An error in the virtual player.",
    "statistics": "An error in the statistics.",
    "backups": "An error in the backups.",
    "stick": "An error with the USB stick.",
}


@dataclass(frozen=True)
class Mark:
    """What a failure returns to: the screens, and the game with its state at that moment."""

    stack: list
    session: object
    state: object


class Guard:
    """Catches what the loop's inputs, jobs and drawing did not expect; see the module."""

    def __init__(self, app, stop_after: int = STOP_AFTER) -> None:
        self.app, self.stop_after = app, stop_after
        self.last = None  # where the last failure came from, while the table has not moved on
        self.notice = None  # the guard's last notice
        self.failures: dict[str, int] = {}  # a job's part -> its failures in a row
        self.stopped: set[str] = set()  # the jobs stopped for this run

    def mark(self, leaving=None) -> Mark:
        """The app as it is now, without ``leaving`` (a slow screen whose work is to run)."""
        session = self.app.session
        stack = [screen for screen in self.app.stack if screen is not leaving]
        return Mark(stack, session, session.state if session else None)

    def passed(self, before: Mark) -> None:
        """An input went through: unless it only closed the guard's notice, the row ends."""
        if self.notice not in before.stack:
            self.last = None

    def failed(self, error: Exception, part: str, before: Mark | None) -> None:
        """An input, a slow screen's work or a draw raised ``error``: back to ``before``
        (None: home), said on the panel."""
        LOG.exception("%s failed", part, exc_info=error)
        origin = _origin(error)
        again, self.last = origin == self.last, origin
        self._back(None if again else before)
        self._tell(part)

    def job(self, part: str, tick, now: float):
        """A background job's ``tick(now)``; None if it failed or is stopped."""
        if part in self.stopped:
            return None
        before = self.mark()
        try:
            found = tick(now)
        except Exception:
            LOG.exception("%s failed", part)
            failures = self.failures[part] = self.failures.get(part, 0) + 1
            self._back(before)  # from the screens the job may have half changed
            if failures == 1:
                self._tell(part)
            if failures >= self.stop_after:
                LOG.error(
                    "%s failed %d ticks in a row: stopped until the next start", part, failures
                )
                self.stopped.add(part)
            return None
        self.failures.pop(part, None)
        return found

    def draw(self, before: Mark):
        """The app's frame: on a failure, drawn again back at ``before``, then at home,
        then a plain frame that needs no screen."""
        for back in (before, None):
            try:
                return self.app.render()
            except Exception as error:
                self.failed(error, "drawing", back)
        try:
            return self.app.render()
        except Exception:
            LOG.exception("not even the home menu can be drawn")
            return message_frame(" ".join(self._lines("drawing")), self._title())

    def _back(self, before: Mark | None) -> None:
        """The screens of ``before``; home when None, when there are none, or when the game
        moved on since (their menus would offer the moves of a state that is gone)."""
        session = self.app.session
        if (
            before is not None
            and before.stack
            and session is before.session
            and (session is None or session.state is before.state)
        ):
            self.app.stack = list(before.stack)
            return
        try:
            self.app.home()
        except Exception:  # the stack stays; the draw that follows has its own way out
            LOG.exception("the home menu cannot be built")

    def _tell(self, part: str) -> None:
        self.app.notice(self._title(), self._lines(part))
        self.notice = self.app.top

    def _title(self) -> str:
        return self.app.t("Unexpected error")

    def _lines(self, part: str) -> list[str]:
        t = self.app.t
        return [t(PARTS[part]), t("The game is safe: every move made is saved.")]


def _origin(error: Exception) -> tuple:
    """The error's kind and the line that raised it: the same error again has the same."""
    frames = traceback.extract_tb(error.__traceback__)
    where = (frames[-1].filename, frames[-1].lineno) if frames else None
    return type(error), where
