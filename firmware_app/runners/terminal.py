"""``tableside sim``: the panel drawn in a terminal, keys for the buttons.

It is the first thing a newcomer runs without a Pi, so it runs the real app
and the real main loop on ``hw``'s fakes, on the real clock: a key becomes a
short press on the fake buttons (press now, release a moment later), and the
app's own button machines turn it into events exactly as they would for a
pin. ``u`` holds BACK past the long-press time, so undo is the device's own
long press too. ``--buttons 4`` (or a configuration's button set) simulates
a build with fewer buttons: the app draws its screens for that build, and a
key for a button it lacks does nothing.

One input runs at a time: the next key is read only once the previous
press has been released and the buttons' lock-out is over. Keys typed ahead
wait in the terminal's buffer, so none is swallowed by the debounce and they
act in the order typed; but the keys typed while a virtual player thinks are
dropped, as the box drops such presses (``loop.py``): the "Thinking…" screen is
drawn first, and nothing typed under it acts on the step that follows.

The panel is drawn in half blocks, its pixels square, on a terminal large
enough for that, the legend and the screen's text (130x45 or 164x38); on a
smaller one, down to 66x19 (an 80x24 terminal), in braille, 2x4 pixels a
character. The layout follows the terminal's size at every frame, so a
resized terminal is redrawn to fit.

Everything but the thin curses part at the end is plain code on any clock:
the key map (``command_for``), the picture as text (``terminal_view``: the
drawing, the layout) and the ``Simulator`` itself, so the tests need no terminal.
"""

import codecs
import curses
import locale
import logging
import os
import secrets
import string
import sys
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from enum import Enum
from itertools import count

from PIL import Image

from firmware_app.app import App
from firmware_app.flows.games import GAMES
from firmware_app.loop import Loop
from firmware_app.runners.tell import tell_start
from firmware_app.runners.terminal_view import (
    BLANK,
    BLANK_DOTS,
    COLOUR_KEYS,
    Layout,
    Piece,
    View,
    braille,
    compose,
    half_blocks,
    layout_for,
    size_text,
)
from firmware_app.store.bounds import TAG_UID_DIGITS
from firmware_app.store.config import AppSettings, load_config
from firmware_app.store.recovery import close_journal, open_journal
from hw.buttons import DEFAULT_TIMING, NAMES, FakeButtons
from hw.display import FakeDisplay
from hw.rfid.fake import FakeReader

LOG = logging.getLogger("tableside.terminal")

NOT_A_TERMINAL = "tableside sim needs a terminal; use --headless --script FILE"
NOT_UTF8 = "tableside sim needs a UTF-8 terminal: set LANG, e.g. LANG=C.UTF-8"

TICK_MS = 10  # the main loop's tick: how long one wait for a key may last
ESC_DELAY_MS = 25  # how long curses waits to tell Esc from an arrow key's sequence
# A key's press outlasts the glitch filter (the PRESS comes when it ends) and
# the lock-out after it; the quiet after the release outlasts the lock-out
# again. Each with a little to spare, so neither the release nor the next
# press falls inside one.
GAP = DEFAULT_TIMING.debounce_ms / 1000 + 0.01
TAP = DEFAULT_TIMING.min_press_ms / 1000 + GAP
HOLD = DEFAULT_TIMING.long_press_ms / 1000 + 0.1  # ``u``: BACK held past a long press
TAG_ON = 0.3  # how long a typed tag lies on the reader
TAG_GRACE = 0.3  # the reader's grace: a tag off this long has left

# --------------------------------------------------------------------- keys


class Do(Enum):
    """What a key asks for."""

    TAP = "tap"  # press a button and release it at once
    HOLD = "hold"  # hold a button past the long-press time
    TAG = "tag"  # open the prompt for a tag's UID
    QUIT = "quit"


@dataclass(frozen=True)
class Command:
    do: Do
    button: str = ""


ENTER = ("\n", "\r", curses.KEY_ENTER)
ERASE = (curses.KEY_BACKSPACE, "\x7f", "\b")
ESCAPE = "\x1b"
KEYS: Mapping[str | int, Command] = {
    curses.KEY_UP: Command(Do.TAP, "up"),
    curses.KEY_DOWN: Command(Do.TAP, "down"),
    **{key: Command(Do.TAP, "ok") for key in (*ENTER, " ")},
    **{key: Command(Do.TAP, "back") for key in (*ERASE, ESCAPE)},
    "u": Command(Do.HOLD, "back"),
    **{key: Command(Do.TAP, colour) for key, colour in COLOUR_KEYS.items()},
    "t": Command(Do.TAG),
    "q": Command(Do.QUIT),
}


def command_for(key: str | int) -> Command | None:
    """What a key from curses' ``get_wch`` does, or ``None`` for a key that does nothing.

    Letters work in either case, so a Caps Lock left on does not get in the way.
    """
    return KEYS.get(key.lower() if isinstance(key, str) else key)


# ---------------------------------------------------------------- simulator


class LogTail(logging.Handler):
    """The last message of the ``tableside`` loggers, kept for whoever debugs the simulator.

    While attached it also keeps those loggers off stderr, where a message
    would scribble over the curses screen. The status line does not show it:
    a log line is the program's English, with ids and values (``StatusLine``).
    """

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.text = ""
        self._logger = logging.getLogger("tableside")
        self._saved: tuple[int, bool] | None = None

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.text = record.getMessage()
        except Exception:  # a message that does not format: logging's own report
            self.handleError(record)

    def attach(self) -> None:
        """Catch the ``tableside`` loggers' INFO and above, and only here."""
        self._saved = (self._logger.level, self._logger.propagate)
        self._logger.setLevel(logging.INFO)
        self._logger.propagate = False
        self._logger.addHandler(self)

    def detach(self) -> None:
        """Put the loggers back as they were; detaching twice is harmless."""
        if self._saved is None:
            return
        self._logger.removeHandler(self)
        self._logger.setLevel(self._saved[0])
        self._logger.propagate = self._saved[1]
        self._saved = None


class StatusLine:
    """The simulator's status line: what just happened, in the table's words and language.

    It says the run's seed until the first action, then the last action played
    (as undo names it: "Ada bought Maurice"), an undo, or a tag laid. Each is
    worded when drawn, so a change of language re-words it at once.
    """

    def __init__(self, app, seed: int) -> None:
        self.app = app
        self._said = lambda t: t(
            "Seed {seed}: tableside sim --seed {seed} deals the same again.", seed=seed
        )
        self._seen: tuple[int, int] | None = None  # the game and its number of states

    def say(self, words) -> None:
        """``words(t)`` is the line from now on."""
        self._said = words

    def update(self) -> None:
        """After each tick: an action played or undone since the last one is said."""
        session = self.app.session
        seen = (session.game_id, len(session.states)) if session else None
        if seen != self._seen and seen is not None and self._seen is not None:
            if seen[0] == self._seen[0] and seen[1] > self._seen[1]:
                self.say(self._played(session))
            elif seen[0] == self._seen[0]:
                self.say(lambda t: t("Undone"))
        self._seen = seen

    def text(self) -> str:
        return self._said(self.app.t)

    def _played(self, session):
        """The action just played, in words worded now: later the app may hold another
        game, whose screens cannot word this one's actions."""
        notation = self.app.journal.record(session.game_id)["actions"][-1]
        before, describe = session.states[-2], GAMES[session.key].describe
        words = describe(self.app, before, notation)
        return lambda t: words


class Simulator:
    """The app and the main loop on the fakes, fed with keys, on the caller's clock.

    The curses part calls ``tick`` every few milliseconds with the real clock
    and ``key`` for each key, once ``ready``; the tests do the same with a
    clock of their own. The app's shuffles and draws take ``seed``, then
    ``seed + 1`` and so on, one per new game; the status line starts with it.
    A ``language`` given (``--language``) wins over the stored setting for
    this run; without one the stored setting holds, English at first. The journal is
    opened, checked and if need be recovered as the daemon does it, with the same words.
    """

    def __init__(
        self,
        settings: AppSettings,
        language: str | None,
        seed: int,
        now: float,
        buttons: tuple[str, ...] = NAMES,
    ) -> None:
        """``buttons``: the build's button set (``tableside sim --buttons 4``, or a
        configuration's): a key for a button the build lacks does nothing."""
        self.now = now
        settings.state_dir.mkdir(parents=True, exist_ok=True)
        self.log = LogTail()
        self.log.attach()
        self.journal, outcome = open_journal(settings.journal, settings.catalogue)
        outcome.log()
        seeds = count(seed)
        self.app = App(
            self.journal,
            language=language or "en",
            overrides={"language": language} if language else None,
            owner_catalogue=settings.catalogue,
            seeds=lambda: next(seeds),
            buttons=buttons,
            reader_name=FakeReader.name,
            defaults=settings.setting_defaults(),
        )
        tell_start(self.app, outcome, [])
        self.buttons = FakeButtons(buttons)
        self.reader = FakeReader(grace=TAG_GRACE)
        self.display = FakeDisplay(clock=lambda: self.now)
        self.loop = Loop(self.app, self.buttons, self.reader, self.display)
        self.prompt: str | None = None
        self._free_at = now  # when the next key may act
        self._tag_off_at: float | None = None
        self._image: Image.Image | None = None
        self._rows, self._dots = BLANK, BLANK_DOTS
        LOG.info("seed %d (tableside sim --seed %d draws the same again)", seed, seed)
        self.status = StatusLine(self.app, seed)

    def close(self) -> None:
        """Let go of the fakes, the journal and the log; the journal keeps the game."""
        for part in (self.buttons, self.reader, self.display):
            part.close()
        close_journal(self.journal)
        self.log.detach()

    def tick(self, now: float) -> bool:
        """One tick of the main loop; a typed tag leaves the reader when its time is up.

        True when a virtual player has just thought: the keys typed meanwhile, still in
        the terminal's buffer, must be dropped (the loop drops the presses already made)."""
        self.now = now
        if self._tag_off_at is not None and now >= self._tag_off_at:
            self.reader.remove(now)
            self._tag_off_at = None
        self.loop.tick(now)
        self.status.update()
        return self.loop.busy

    def ready(self, now: float) -> bool:
        """Whether the last input is over, so the next key may be read."""
        return now >= self._free_at

    def key(self, key: str | int, now: float) -> bool:
        """Act on one key read at ``now``; False when it asks to quit."""
        if self.prompt is not None:
            self._prompt_key(key, now)
            return True
        command = command_for(key)
        if command is None:
            return True
        if command.do is Do.QUIT:
            return False
        if command.do is Do.TAG:
            self.prompt = ""
        elif command.button in self.buttons.names:
            seconds = HOLD if command.do is Do.HOLD else TAP
            self.buttons.hold(command.button, seconds, now)
            self._free_at = now + seconds + GAP
        return True

    def _prompt_key(self, key: str | int, now: float) -> None:
        if key in ENTER:
            self._lay_tag(now)
        elif key == ESCAPE:
            self.prompt = None
        elif key in ERASE:
            self.prompt = self.prompt[:-1]
        elif isinstance(key, str) and len(key) == 1 and key in string.hexdigits:
            self.prompt = (self.prompt + key.upper())[:TAG_UID_DIGITS]

    def _lay_tag(self, now: float) -> None:
        uid, self.prompt = self.prompt, None
        try:
            self.reader.present(uid, now)
        except ValueError as error:
            LOG.info("no tag laid: %s", error)
            self.status.say(lambda t: t("No tag laid: its number is an even count of hex digits."))
            return
        LOG.info("tag %s on the reader", uid)
        self.status.say(lambda t: t("Tag {uid} on the reader.", uid=uid))
        self._tag_off_at = now + TAG_ON
        self._free_at = self._tag_off_at + TAG_GRACE + GAP

    def view(self) -> View:
        """What the terminal should show now; the pictures are redone only for a new frame."""
        image = self.display.last_image
        if image is not None and image is not self._image:
            self._image = image
            self._rows, self._dots = tuple(half_blocks(image)), tuple(braille(image))
        asleep = self.display.asleep
        frame = self.loop.frame
        return View(
            panel=BLANK if asleep else self._rows,
            dots=BLANK_DOTS if asleep else self._dots,
            text=tuple(frame.lines) if frame else (),
            log=self.status.text(),
            prompt=self.prompt,
            asleep=asleep,
            language=self.app.language,
            colour_keys=self.app.has_colour_buttons,
        )


# ------------------------------------------------------------------- curses


def fresh_seed() -> int:
    """A seed for a run without ``--seed``: a new game each launch, short enough to retype."""
    return secrets.randbelow(1_000_000)


def run_terminal(
    state_dir: str | None,
    language: str | None,
    seed: int | None,
    buttons: tuple[str, ...] = NAMES,
) -> int:
    """Play on the keyboard until ``q``; the exit status for ``tableside sim``.

    The journal lives in the simulator's default state folder unless
    ``state_dir`` is given, so a game survives quitting and is offered for
    resuming next time. Without ``seed``, a fresh one; it is shown on the
    status line and printed on the way out, so a game can be dealt again.
    """
    with suppress(locale.Error):  # an unknown LANG: the UTF-8 check says what to do
        locale.setlocale(locale.LC_ALL, "")  # curses writes in the locale's encoding
    problem = _terminal_problem()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    environ = {**os.environ, **({"TABLESIDE_STATE_DIR": state_dir} if state_dir else {})}
    settings = load_config(None, environ=environ).app
    seed = fresh_seed() if seed is None else seed
    sim = Simulator(settings, language, seed, time.monotonic(), buttons)
    try:
        curses.wrapper(_play, sim)
    except KeyboardInterrupt:
        pass  # Ctrl-C leaves like ``q``: every action is already in the journal
    finally:
        sim.close()
    print(f"The journal is kept in {settings.journal}; tableside sim goes on from there.")
    print(f"This run's seed was {seed}: tableside sim --seed {seed} draws the same again.")
    return 0


def _terminal_problem() -> str | None:
    """Why this process cannot draw the simulator, in one line, or None."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return NOT_A_TERMINAL
    if codecs.lookup(locale.getpreferredencoding(False)).name != "utf-8":
        return NOT_UTF8
    try:
        curses.setupterm(fd=sys.stdout.fileno())
    except curses.error as error:
        return f"tableside sim cannot drive this terminal: {error}"
    cols, rows = os.get_terminal_size(sys.stdout.fileno())
    return size_text(cols, rows) if layout_for(cols, rows) is Layout.TOO_SMALL else None


def _play(screen: "curses.window", sim: Simulator) -> None:
    with suppress(curses.error):  # a terminal that cannot hide its cursor still works
        curses.curs_set(0)
    curses.set_escdelay(ESC_DELAY_MS)
    screen.timeout(TICK_MS)
    shown = None
    while True:
        now = time.monotonic()
        if sim.tick(now):
            curses.flushinp()  # the keys typed while a virtual player thought
        rows, cols = screen.getmaxyx()
        picture = (sim.view(), cols, rows)
        if picture != shown:
            _draw(screen, compose(*picture))
            shown = picture
        if not sim.ready(now):
            curses.napms(TICK_MS)
            continue
        try:
            key = screen.get_wch()
        except curses.error:
            continue  # no key this tick
        if key == curses.KEY_RESIZE:  # curses has taken the new size: repaint every cell
            screen.clear()
            shown = None
            continue
        if not sim.key(key, time.monotonic()):
            return


def _draw(screen: "curses.window", pieces: list[Piece]) -> None:
    screen.erase()
    for row, col, text in pieces:
        screen.addstr(row, col, text)
    screen.refresh()
