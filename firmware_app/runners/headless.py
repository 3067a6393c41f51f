"""Scripted button and tag events on the shipped fakes, on a virtual clock.

The script language is documented in ``docs/sim-script.md``. Each command
turns into presses and releases on ``hw``'s fake buttons or a tag on its
fake reader, and the real main loop runs over them, so a script exercises
exactly what the device does between the pins and the panel.
"""

import math
import os
import re
import shlex
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from firmware_app.app import App
from firmware_app.flows.shared.settings import SLEEP_MINUTES
from firmware_app.loop import Loop
from firmware_app.runners.tell import tell_start
from firmware_app.store import bounded_read
from firmware_app.store.bounds import tag_problem, told
from firmware_app.store.recovery import close_journal, open_journal
from firmware_app.words.score_sheet import demo_label
from hw.buttons import NAMES, FakeButtons
from hw.display import FakeDisplay
from hw.rfid.fake import FakeReader

TICK = 0.01  # seconds between loop ticks on the virtual clock
TAP = 0.08  # how long a scripted press is held
GAP = 0.12  # pause after a scripted input
HOLD = 1.2  # a scripted hold: longer than the long-press time

# What a person at the table could do, so that no script runs for ever: a button pressed a
# hundred times in a row (more than any menu or the letter wheel needs); held a minute (the
# longest long press the configuration allows is 10 s); a wait, and a whole script, of an
# hour on the virtual clock (twice the longest sleep the settings screen offers, so the
# panel can be seen to go dark; a whole game takes a few minutes). A line holds a command
# and its words; a script is a megabyte at most.
MOST_PRESSES = 100
MOST_HOLD = 60.0
MOST_WAIT = MOST_SCRIPT_TIME = 2 * 60.0 * SLEEP_MINUTES[-1]
LINE_LIMIT = 1000
SCRIPT_LIMIT = 1 << 20
# What a script may cost: each input (one press of ``press NAME N``, a hold, a tag) runs the
# app, a millisecond or a few here (a Zero 2 W is some ten times slower), a tag the box does
# not know some twenty (it reads the cards to offer them); a wait costs a few ticks
# (``Headless.wait``), an ``expect`` nothing. Within these bounds a script runs in seconds:
# 2,000 inputs take a family game from the first press to its score sheet; a longer game
# goes on in the next script, from the same state folder. The box's 52 cards are each
# tagged in 52 tags, twice over in 104.
MOST_COMMANDS = 2000
MOST_INPUTS = 2000
MOST_TAGS = 104
_PRESSES = re.compile(r"[0-9]+")  # ASCII digits only: int() takes "1_000" and "٣" too
_SECONDS = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")  # and float() "1e9", "inf", " 5 "


class ScriptError(bounded_read.Refused):
    """A script that cannot be run (``problems``: one line each, naming the script's line),
    or an ``expect`` that did not hold."""


@dataclass
class Headless:
    """The app on fakes, with a virtual clock that only moves when told.

    A ``language`` given wins over the stored setting (as ``--language`` does);
    without one the stored setting holds, English at first. ``fitted`` is the build's
    button set (``--buttons 4``, or a configuration's): the app draws its screens for that
    build, and a script may press only those. The journal is opened,
    checked and if need be recovered as the daemon does it, and the panel says the same.
    """

    state_dir: Path
    language: str | None = None
    seed: int = 1
    owner_catalogue: Path | None = None
    fitted: tuple[str, ...] = NAMES
    scratch: bool = False  # the state folder is a temporary one of its own, removed on close
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
            buttons=self.fitted,
            clock=lambda: 1_700_000_000 + self.now,
            think_clock=None,  # the virtual clock stands still while a player thinks
            seeds=lambda: next(seeds),
        )
        tell_start(self.app, outcome, [])
        self.buttons = FakeButtons(self.fitted)
        self.reader = FakeReader()
        self.display = FakeDisplay(clock=lambda: self.now)
        self.loop = Loop(self.app, self.buttons, self.reader, self.display)
        self.run_for(TICK)

    def close(self) -> None:
        """A clean stop, as the daemon's: the log copied into the journal, the file closed;
        a temporary state folder of its own removed with it."""
        close_journal(self.journal)
        if self.scratch:
            shutil.rmtree(self.state_dir, ignore_errors=True)

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
            self._tick()

    def wait(self, seconds: float) -> None:
        """:meth:`run_for`, moving the clock over the ticks in which nothing can happen.

        The loop acts on its own only through what is due: an input's events (a press
        confirmed, a long press, a tag just laid), a slow screen's work (the statistics
        counting games; a virtual player here thinks within the tick of the input, for its
        node budget), the jobs beside the play (backups, a stick: none unless a test gives
        the loop some), a lost panel tried again, and the panel's sleep.
        Once a tick has run and none of these can come before the buttons' next event (a
        press confirmed, a long press or a repeat of a button held), the clock goes on to a
        tick before that event, the sleep or the end of the wait, and the loop ticks from
        there, so an hour is a few ticks and not 360,000; what the panel shows, when it
        sleeps and the clock at the end are those of ``run_for``. Only a journal deleted
        under the box, which the loop looks for twice a second, is seen at the next tick run
        rather than at its look. Presses and holds are waited out this way (``press``).
        """
        end = self.now + seconds
        while self.now < end - 1e-9:
            self._tick()
            if self._idle():
                self._skip_to(min(end, self._sleep_due(), self.buttons.next_due()))

    def _tick(self) -> None:
        self.now = round(self.now + TICK, 6)
        if self.loop.tick(self.now):
            text = self.screen
            if not self.frames or self.frames[-1] != text:
                self.frames.append(text)

    def _idle(self) -> bool:
        """Whether the loop's next ticks do nothing until the panel's sleep or the buttons'
        next event (see ``wait``): the reader was just polled, and a tag lying on it or taken
        off says nothing more; no poll is waiting to drop what a virtual player's thinking
        held up (the next tick's would, and a later one not)."""
        loop = self.loop
        return (
            not loop.busy
            and not self.app.top.slow
            and loop.backups is None
            and loop.stick is None
            and loop.notifier is None
            and self.display.fault is None
        )

    def _sleep_due(self) -> float:
        """When the panel's sleep falls due (``inf``: it does not)."""
        minutes = self.app.setting("sleep_minutes")
        if not minutes or self.loop.asleep:
            return math.inf
        return self.loop.last_input + minutes * 60

    def _skip_to(self, moment: float) -> None:
        """Move the clock over whole ticks to one before ``moment``, where ticks run again.
        ``round(now + n * TICK, 6)`` is the time ``n`` ticks of ``_tick`` reach."""
        ticks = math.floor((moment - self.now) / TICK) - 1
        if ticks > 0:
            self.now = round(self.now + ticks * TICK, 6)

    def press(self, name: str, times: int = 1) -> None:
        """Press ``name`` ``times`` times: held ``TAP`` s, then a ``GAP`` s pause, both
        waited out as ``wait`` does (between the press confirmed and the release, and after
        the release settles, nothing comes)."""
        for _ in range(times):
            self.buttons.press(name, self.now)
            self.wait(TAP)
            self.buttons.release(name, self.now)
            self.wait(GAP)

    def hold(self, name: str, seconds: float = HOLD) -> None:
        self.buttons.press(name, self.now)
        self.wait(seconds)
        self.buttons.release(name, self.now)
        self.wait(GAP)

    def tag(self, uid: str) -> None:
        self.reader.present(uid, self.now)
        self.run_for(GAP * 3)
        self.reader.remove(self.now)
        self.run_for(GAP * 3)

    def command(self, line: str) -> None:
        """Run one script line (see docs/sim-script.md)."""
        step = read_line(line, self.fitted)
        if step is not None:
            self.run_step(step)

    def run_step(self, step: "Step") -> None:
        """Run a line already read; ``ScriptError`` when an ``expect`` does not hold."""
        if step.verb == "press":
            self.press(step.word, int(step.amount))
        elif step.verb == "hold":
            self.hold(step.word, step.amount)
        elif step.verb == "tag":
            self.tag(step.word)
        elif step.verb == "wait":
            self.wait(step.amount)
        elif step.word not in self.screen:  # expect
            raise ScriptError(f"expected {step.word!r} on the screen:\n{self.screen}")


class Step(NamedTuple):
    """One script line, read: what it does, to what (a button, a tag's UID, the text
    expected), and how many presses or how many seconds."""

    verb: str
    word: str = ""
    amount: float = 0

    @property
    def seconds(self) -> float:
        """How long it runs on the virtual clock."""
        if self.verb == "press":
            return self.amount * (TAP + GAP)
        if self.verb == "hold":
            return self.amount + GAP
        if self.verb == "tag":
            return 6 * GAP
        return self.amount if self.verb == "wait" else 0.0

    @property
    def inputs(self) -> int:
        """How many times it runs the app: each press, a hold, a tag."""
        if self.verb == "press":
            return int(self.amount)
        return 1 if self.verb in ("hold", "tag") else 0


USAGE = {
    "press": "press NAME [N]",
    "hold": "hold NAME [SECONDS]",
    "tag": "tag UID",
    "wait": "wait SECONDS",
    "expect": 'expect "TEXT"',
}


def read_line(line: str, fitted: tuple[str, ...] = NAMES) -> Step | None:
    """A script line as a step (None: blank, or a comment); ``ScriptError`` saying what
    is wrong when it cannot be read or asks for more than a person at the table does
    (a button the build, ``fitted``, does not have)."""
    if len(line) > LINE_LIMIT:
        raise ScriptError(f"a line has at most {LINE_LIMIT:,} characters, not {len(line):,}")
    try:
        words = shlex.split(line, comments=True)
    except ValueError as error:  # an unclosed quote
        raise ScriptError(f"cannot read {line.strip()!r}: {error}") from None
    if not words:
        return None
    verb, args = words[0], words[1:]
    try:
        step = _step(verb, args, fitted)
    except ValueError as error:
        raise ScriptError(f"cannot run {line.strip()!r}: {error}") from None
    if step is None:
        *others, last = USAGE
        commands = f"{', '.join(others)} or {last}"
        wrong = f"expected {USAGE[verb]}" if verb in USAGE else f"a line starts with {commands}"
        raise ScriptError(f"cannot read {line.strip()!r}: {wrong}")
    return step


def _step(verb: str, args: list[str], fitted: tuple[str, ...]) -> Step | None:
    """The step of a command and its words, each checked (``ValueError``); None when the
    command is not one or has too many or too few words."""
    if verb == "press" and len(args) in (1, 2):
        return Step(verb, _button(args[0], fitted), _count(args[1]) if len(args) == 2 else 1)
    if verb == "hold" and len(args) in (1, 2):
        seconds = _seconds(args[1], "hold") if len(args) == 2 else HOLD
        return Step(verb, _button(args[0], fitted), seconds)
    if verb == "tag" and len(args) == 1:
        if problem := tag_problem(args[0]):
            raise ValueError(problem)
        return Step(verb, args[0])
    if verb == "wait" and len(args) == 1:
        return Step(verb, amount=_seconds(args[0], "wait"))
    if verb == "expect" and len(args) == 1:
        if not args[0] or not args[0].isprintable():
            raise ValueError(f"expect takes printable text, not {args[0]!r}")
        return Step(verb, args[0])
    return None


def _button(name: str, fitted: tuple[str, ...]) -> str:
    """One of the build's buttons (``hw.buttons.NAMES``, all of the fake panel's, unless
    the simulated build has fewer)."""
    if name not in fitted:
        raise ValueError(f"no button {name!r}; this panel has {', '.join(fitted)}")
    return name


def _count(word: str) -> int:
    """How many presses: at least one, so a line that would do nothing is refused, and at
    most ``MOST_PRESSES``."""
    if not _PRESSES.fullmatch(word):
        raise ValueError(f"a press count is written in the digits 0 to 9, not {word!r}")
    if len(word) > 9:
        raise ValueError(f"a press count is a whole number from 1 to {MOST_PRESSES}, not {word}")
    times = int(word)
    if times < 1:
        raise ValueError(f"a press count must be at least 1, not {times}")
    if times > MOST_PRESSES:
        raise ValueError(f"a press count is at most {MOST_PRESSES}, not {times}")
    return times


def _seconds(word: str, verb: str) -> float:
    """A time in seconds, in digits with a decimal point or none: above zero for a hold,
    and within what a person waits."""
    if not _SECONDS.fullmatch(word):
        raise ValueError(
            f"{verb} takes a number of seconds in the digits 0 to 9, with a point or none, "
            f"not {word!r}"
        )
    seconds = float(word)  # digits: never NaN, infinite only past any bound
    if verb == "hold" and seconds == 0:
        raise ValueError(f"hold takes a number of seconds above 0, not {word}")
    most = MOST_HOLD if verb == "hold" else MOST_WAIT
    if seconds > most:
        raise ValueError(f"{verb} takes at most {most:g} seconds, not {word}")
    return seconds


def read_script(path: str | os.PathLike[str]) -> list[str]:
    """The lines of the script at ``path``, read within bounds (``store.bounded_read``: a
    regular file of at most ``SCRIPT_LIMIT`` bytes, UTF-8); ``ScriptError`` otherwise,
    ``OSError`` when it cannot be read at all."""
    try:
        return bounded_read.read_text(path, SCRIPT_LIMIT, follow=True).splitlines()
    except bounded_read.Refused as error:
        raise ScriptError(error.problems) from None


def read_steps(lines: list[str], fitted: tuple[str, ...] = NAMES) -> list[tuple[int, Step]]:
    """Every line read and checked, with its number; ``ScriptError`` with one line for each
    line that cannot be run and for the line that takes the script past each of its
    bounds (commands, inputs, tags, time on the clock), at most ``bounds.MOST_TOLD``."""
    bounds: list[tuple[Callable[[Step], float], float, str]] = [
        (lambda step: 1, MOST_COMMANDS, f"a script has at most {MOST_COMMANDS:,} commands"),
        (
            lambda step: step.inputs,
            MOST_INPUTS,
            f"a script presses, holds and lays tags at most {MOST_INPUTS:,} times in all",
        ),
        (lambda step: step.verb == "tag", MOST_TAGS, f"a script lays at most {MOST_TAGS} tags"),
        (
            lambda step: step.seconds,
            MOST_SCRIPT_TIME,
            f"the script runs past {MOST_SCRIPT_TIME / 3600:g} h of the clock",
        ),
    ]
    totals = [0.0] * len(bounds)
    steps, problems = [], []
    for number, line in enumerate(lines, start=1):
        try:
            step = read_line(line, fitted)
        except ScriptError as error:
            problems += [f"line {number}: {problem}" for problem in error.problems]
            continue
        if step is None:
            continue
        for index, (cost, most, passed) in enumerate(bounds):
            before, totals[index] = totals[index], totals[index] + cost(step)
            if before <= most < totals[index]:  # said once, at the line that passes it
                problems.append(f"line {number}: {passed}")
        steps.append((number, step))
    if problems:
        raise ScriptError(told(problems))
    return steps


def run_script(lines: list[str], state_dir: Path | None = None, **options) -> Headless:
    """Run a whole script; the returned object holds the frames and the app.

    Every line is read and checked first (``read_steps``): a script refused there starts
    nothing and makes no state folder. A failed ``expect`` stops the script where it is,
    with a clean stop of the box.
    """
    steps = read_steps(lines, options.get("fitted", NAMES))
    scratch = state_dir is None
    folder = Path(tempfile.mkdtemp(prefix="tableside-")) if scratch else state_dir
    sim = Headless(folder, scratch=scratch, **options)
    for number, step in steps:
        try:
            sim.run_step(step)
        except ScriptError as error:
            sim.close()
            raise ScriptError(f"line {number}: {error}") from None
    return sim
