"""Scripted button and tag events on the shipped fakes, on a virtual clock.

The script language is documented in ``docs/sim-script.md``. Each command
turns into presses and releases on ``hw``'s fake buttons or a tag on its
fake reader, and the real main loop runs over them, so a script exercises
exactly what the device does between the pins and the panel.
"""

import math
import shlex
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from firmware_app.app import App
from firmware_app.loop import Loop
from firmware_app.runners.tell import tell_start
from firmware_app.store.recovery import close_journal, open_journal
from firmware_app.words.score_sheet import demo_label
from hw.buttons import FakeButtons
from hw.display import FakeDisplay
from hw.rfid.fake import FakeReader

TICK = 0.01  # seconds between loop ticks on the virtual clock
TAP = 0.08  # how long a scripted press is held
GAP = 0.12  # pause after a scripted input
HOLD = 1.2  # a scripted hold: longer than the long-press time


class ScriptError(ValueError):
    """A script line cannot be read, or an ``expect`` did not hold."""


@dataclass
class Headless:
    """The app on fakes, with a virtual clock that only moves when told.

    A ``language`` given wins over the stored setting (as ``--language`` does);
    without one the stored setting holds, English at first. The journal is opened,
    checked and if need be recovered as the daemon does it, and the panel says the same.
    """

    state_dir: Path
    language: str | None = None
    seed: int = 1
    owner_catalogue: Path | None = None
    now: float = 0.0
    frames: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.journal, outcome = open_journal(
            self.state_dir / "journal.sqlite", self.owner_catalogue
        )
        outcome.log()
        seeds = iter(range(self.seed, self.seed + 1000))
        self.app = App(
            self.journal,
            language=self.language or "en",
            overrides={"language": self.language} if self.language else None,
            owner_catalogue=self.owner_catalogue,
            clock=lambda: 1_700_000_000 + self.now,
            think_clock=None,  # the virtual clock stands still while a player thinks
            seeds=lambda: next(seeds),
        )
        tell_start(self.app, outcome, [])
        self.buttons = FakeButtons()
        self.reader = FakeReader()
        self.display = FakeDisplay(clock=lambda: self.now)
        self.loop = Loop(self.app, self.buttons, self.reader, self.display)
        self.run_for(TICK)

    def close(self) -> None:
        """A clean stop, as the daemon's: the log copied into the journal, the file closed."""
        close_journal(self.journal)

    def summary(self) -> dict:
        """The final state and score sheet, for ``--json`` and the tests."""
        session = self.app.session
        if session is None:
            return {"screen": self.screen, "state": None, "score": None}
        return {
            "screen": self.screen,
            "finished": session.over,
            "actions": self.journal.record(session.game_id)["actions"],
            "state": session.state.to_json(),
            "score": session.game.score(session.state).to_json(),
            "catalogue": demo_label(session.game) or "printed",
        }

    @property
    def screen(self) -> str:
        return self.loop.frame.text()

    def run_for(self, seconds: float) -> None:
        """Tick the loop until the virtual clock has moved ``seconds``."""
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.now = round(self.now + TICK, 6)
            if self.loop.tick(self.now):
                text = self.screen
                if not self.frames or self.frames[-1] != text:
                    self.frames.append(text)

    def press(self, name: str, times: int = 1) -> None:
        for _ in range(times):
            self.buttons.press(name, self.now)
            self.run_for(TAP)
            self.buttons.release(name, self.now)
            self.run_for(GAP)

    def hold(self, name: str, seconds: float = HOLD) -> None:
        self.buttons.press(name, self.now)
        self.run_for(seconds)
        self.buttons.release(name, self.now)
        self.run_for(GAP)

    def tag(self, uid: str) -> None:
        self.reader.present(uid, self.now)
        self.run_for(GAP * 3)
        self.reader.remove(self.now)
        self.run_for(GAP * 3)

    def command(self, line: str) -> None:
        """Run one script line (see docs/sim-script.md)."""
        words = shlex.split(line, comments=True)
        if not words:
            return
        verb, args = words[0], words[1:]
        try:
            if verb == "press" and len(args) in (1, 2):
                self.press(args[0], _count(args[1]) if len(args) == 2 else 1)
            elif verb == "hold" and len(args) in (1, 2):
                self.hold(args[0], _seconds(args[1], "hold") if len(args) == 2 else HOLD)
            elif verb == "tag" and len(args) == 1:
                self.tag(args[0])
            elif verb == "wait" and len(args) == 1:
                self.run_for(_seconds(args[0], "wait"))
            elif verb == "expect" and len(args) == 1:
                if args[0] not in self.screen:
                    raise ScriptError(f"expected {args[0]!r} on the screen:\n{self.screen}")
            else:
                raise ScriptError(f"cannot read {line.strip()!r}")
        except (KeyError, ValueError) as error:
            if isinstance(error, ScriptError):
                raise
            raise ScriptError(f"cannot run {line.strip()!r}: {error}") from None


def _count(word: str) -> int:
    """How many presses: at least one, so a line that would do nothing is refused."""
    times = int(word)
    if times < 1:
        raise ValueError(f"a press count must be at least 1, not {times}")
    return times


def _seconds(word: str, verb: str) -> float:
    """A time in seconds: finite, and above zero for a hold."""
    seconds = float(word)
    if not math.isfinite(seconds) or seconds < 0 or (verb == "hold" and seconds == 0):
        least = "above 0" if verb == "hold" else "0 or more"
        raise ValueError(f"{verb} takes a number of seconds {least}, not {word}")
    return seconds


def run_script(lines: list[str], state_dir: Path | None = None, **options) -> Headless:
    """Run a whole script; the returned object holds the frames and the app."""
    folder = state_dir or Path(tempfile.mkdtemp(prefix="tableside-"))
    sim = Headless(folder, **options)
    for number, line in enumerate(lines, start=1):
        try:
            sim.command(line)
        except ScriptError as error:
            raise ScriptError(f"line {number}: {error}") from None
    return sim
