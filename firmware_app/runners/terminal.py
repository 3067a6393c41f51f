"""``tableside sim``: the panel drawn in a terminal, keys for the buttons.

It is the first thing a newcomer runs without a Pi, so it runs the real app
and the real main loop on ``hw``'s fakes, on the real clock: a key becomes a
short press on the fake buttons (press now, release a moment later), and the
app's own button machines turn it into events exactly as they would for a
pin. ``u`` holds BACK past the long-press time, so undo is the device's own
long press too.

One input runs at a time: the next key is read only once the previous
press has been released and the buttons' lock-out is over. Keys typed ahead
wait in the terminal's buffer, so none is swallowed by the debounce and they
act in the order typed.

The panel is drawn in half blocks, its pixels square, on a terminal large
enough for that, the legend and the screen's text (130x45 or 164x38); on a
smaller one, down to 66x19 (an 80x24 terminal), in braille, 2x4 pixels a
character. The layout follows the terminal's size at every frame, so a
resized terminal is redrawn to fit.

Everything but the thin curses part at the end is plain code on any clock:
the key map (``command_for``), the drawing (``half_blocks``, ``braille``), the
layout (``layout_for``, ``compose``) and the ``Simulator`` itself, so the
tests need no terminal.
"""

import codecs
import curses
import locale
import logging
import os
import secrets
import string
import sys
import textwrap
import time
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import count

from PIL import Image

from firmware_app.app import App
from firmware_app.config import AppSettings, load_config
from firmware_app.i18n import Translator
from firmware_app.journal import Journal
from firmware_app.loop import Loop
from firmware_app.ui.canvas import HEIGHT, WIDTH
from hw.buttons import DEFAULT_TIMING, FakeButtons
from hw.display import FakeDisplay
from hw.rfid.fake import FakeReader

LOG = logging.getLogger("tableside.terminal")

NOT_A_TERMINAL = "tableside sim needs a terminal; use --headless --script FILE"
NOT_UTF8 = "tableside sim needs a UTF-8 terminal: set LANG, e.g. LANG=C.UTF-8"
TOO_SMALL = (
    "tableside sim needs a terminal of at least {smallest} characters "
    "({below} or {beside} for the full picture); this one is {cols}x{rows}"
)

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
UID_DIGITS = 20  # the longest NFC UID, 10 bytes, in hex

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


COLOUR_KEYS: Mapping[str, str] = {
    "r": "red",
    "b": "blue",
    "g": "green",
    "y": "yellow",
    "e": "grey",
    "w": "white",
    "k": "black",
}
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


# ------------------------------------------------------------------ drawing

BLOCKS = " ▄▀█"  # indexed by 2 * (upper pixel lit) + (lower pixel lit)
BRAILLE = 0x2800  # the braille cell with no dot raised; each raised dot adds its bit
# The bit of each dot of a braille cell, by (column, row) of its 2x4 pixels:
# dots 1-2-3 down the left, 4-5-6 down the right, then 7 and 8 under them.
DOT_BITS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


def _lit(image: Image.Image) -> bytes:
    """One byte a pixel (0 or 255) of a one-bit image, row by row."""
    if image.mode != "1":
        raise ValueError(f"expected a one-bit image (mode '1'), not mode {image.mode!r}")
    return image.convert("L").tobytes()


def half_blocks(image: Image.Image) -> list[str]:
    """Text rows that draw a one-bit image, each character two pixels stacked.

    A terminal cell is about twice as tall as it is wide, so two pixel rows
    per character row keep the panel's square pixels square. An odd last
    pixel row is drawn over an unlit one.
    """
    width, height = image.size
    lit = _lit(image)
    rows = []
    for y in range(0, height, 2):
        upper = lit[y * width : (y + 1) * width]
        lower = lit[(y + 1) * width : (y + 2) * width] or bytes(width)
        rows.append(
            "".join(BLOCKS[2 * (a > 0) + (b > 0)] for a, b in zip(upper, lower, strict=True))
        )
    return rows


def braille(image: Image.Image) -> list[str]:
    """Text rows that draw a one-bit image in braille, each character 2x4 pixels.

    The panel's 128x64 pixels become 64x16 characters, small enough for an
    80x24 terminal. The pixels are no longer square (a cell is about twice as
    tall as wide, so four pixel rows are squeezed into it), but every pixel is
    there. A cell past the image's edge is drawn unlit.
    """
    width, height = image.size
    lit = _lit(image)
    rows = []
    for top in range(0, height, 4):
        cells = [BRAILLE] * ((width + 1) // 2)
        for dy in range(min(4, height - top)):
            line = lit[(top + dy) * width : (top + dy + 1) * width]
            for x in range(width):
                if line[x]:
                    cells[x // 2] |= DOT_BITS[x % 2][dy]
        rows.append("".join(map(chr, cells)))
    return rows


class Layout(Enum):
    """How the terminal is filled, by its size (see ``layout_for``)."""

    BESIDE = "beside"  # half blocks, the screen's text to their right
    BELOW = "below"  # half blocks, the screen's text under the legend
    BRAILLE = "braille"  # braille, a short legend beside, the text below where it fits
    TOO_SMALL = "too small"


PANEL_COLS = WIDTH + 2  # the half blocks inside a frame
PANEL_ROWS = HEIGHT // 2 + 2
LEGEND_ROWS = 3
TEXT_ROWS = 7  # the frame's text: a title and the body rows, with one to spare
TEXT_COLS = 32
BESIDE = (PANEL_COLS + 2 + TEXT_COLS, PANEL_ROWS + LEGEND_ROWS + 1)  # text right of the panel
BELOW = (PANEL_COLS, PANEL_ROWS + LEGEND_ROWS + 1 + TEXT_ROWS)  # text under the status line
DOTS_COLS = WIDTH // 2 + 2  # the braille cells inside a frame
DOTS_ROWS = HEIGHT // 4 + 2
SMALLEST = (DOTS_COLS, DOTS_ROWS + 1)  # the braille panel and the status line
BLANK = (" " * WIDTH,) * (HEIGHT // 2)
BLANK_DOTS = (chr(BRAILLE) * (WIDTH // 2),) * (HEIGHT // 4)

# The terminal's own words, in the app's language; the colour names are the app's.
WORDS: Mapping[str, Mapping[str, str | tuple[str, ...]]] = {
    "en": {
        "keys": "↑ ↓ up, down   Enter/Space OK   Backspace/Esc BACK   u undo (long BACK)",
        "more": "t lay a tag on the reader (type its UID)   q quit (the journal keeps the game)",
        "short": ("↑ ↓ up, down", "Enter OK", "Esc BACK", "u undo", "t tag", "q quit"),
        "prompt": "Tag UID in hex (Enter lays it on the reader, Esc cancels): ",
        "asleep": "The panel is asleep: any key wakes it.",
    },
    "pl": {
        "keys": "↑ ↓ góra, dół   Enter/Spacja OK   Backspace/Esc WSTECZ   u cofnij (długie WSTECZ)",
        "more": "t połóż tag na czytniku (wpisz UID)   q wyjście (dziennik zachowuje grę)",
        "short": ("↑ ↓ góra, dół", "Enter OK", "Esc WSTECZ", "u cofnij", "t tag", "q wyjście"),
        "prompt": "UID tagu szesnastkowo (Enter kładzie go na czytniku, Esc anuluje): ",
        "asleep": "Ekran śpi: dowolny klawisz go budzi.",
    },
}


def _colour_keys(language: str) -> list[str]:
    name = Translator(language).name
    return [f"{key} {name(colour)}" for key, colour in COLOUR_KEYS.items()]


@cache
def legend(language: str) -> list[str]:
    """The key legend, its colour line built from the key map itself."""
    words = WORDS[language]
    return [words["keys"], "   ".join(_colour_keys(language)), words["more"]]


@cache
def short_legend(language: str) -> list[str]:
    """The legend one key a line, for the narrow column beside the braille panel."""
    return [*WORDS[language]["short"], *_colour_keys(language)]


@dataclass(frozen=True)
class View:
    """Everything the terminal shows; the screen is redrawn only when it changes."""

    panel: tuple[str, ...]  # the half-block rows of the panel (blank while it sleeps)
    dots: tuple[str, ...]  # the same frame in braille rows, for a small terminal
    text: tuple[str, ...]  # the frame's text lines, for reading and for screen readers
    log: str  # the last log line: refusals, actions, undo
    prompt: str | None  # the tag UID being typed, or None
    asleep: bool
    language: str


def layout_for(cols: int, rows: int) -> Layout:
    """The full picture when the half blocks, legend and text fit; else braille; else none."""
    if cols >= BESIDE[0] and rows >= BESIDE[1]:
        return Layout.BESIDE
    if cols >= BELOW[0] and rows >= BELOW[1]:
        return Layout.BELOW
    if cols >= SMALLEST[0] and rows >= SMALLEST[1]:
        return Layout.BRAILLE
    return Layout.TOO_SMALL


def size_text(cols: int, rows: int) -> str:
    """Why a terminal of ``cols`` x ``rows`` is too small, and what is enough."""
    smallest, below, beside = ("{}x{}".format(*size) for size in (SMALLEST, BELOW, BESIDE))
    return TOO_SMALL.format(smallest=smallest, below=below, beside=beside, cols=cols, rows=rows)


Piece = tuple[int, int, str]  # row, column, text


def compose(view: View, cols: int, rows: int) -> list[Piece]:
    """Where each text goes on a terminal of ``cols`` x ``rows``.

    The panel in a frame, then the legend and the status line; the frame's
    text beside the panel or below. On a terminal too small for the half
    blocks, the panel in braille with a short legend beside it and the text
    below, in columns, as far as it fits. Every piece is cut to the screen,
    and the bottom-right cell is never written (curses refuses it).
    """
    layout = layout_for(cols, rows)
    if layout is Layout.TOO_SMALL:
        lines = textwrap.wrap(size_text(cols, rows), max(cols - 1, 1))
        return _clip([(i, 0, line) for i, line in enumerate(lines)], cols, rows)
    text = (WORDS[view.language]["asleep"],) if view.asleep else view.text[:TEXT_ROWS]
    if layout is Layout.BRAILLE:
        return _clip(_braille_pieces(view, text, cols, rows), cols, rows)
    pieces = _framed(view.panel)
    pieces += [(PANEL_ROWS + i, 0, line) for i, line in enumerate(legend(view.language))]
    status_row = PANEL_ROWS + LEGEND_ROWS
    pieces.append((status_row, 0, _status(view)))
    if layout is Layout.BESIDE:
        pieces += [(1 + i, PANEL_COLS + 2, line) for i, line in enumerate(text)]
    else:
        pieces += [(status_row + 1 + i, 0, line) for i, line in enumerate(text)]
    return _clip(pieces, cols, rows)


def _braille_pieces(view: View, text: tuple[str, ...], cols: int, rows: int) -> list[Piece]:
    pieces = _framed(view.dots)
    keys = short_legend(view.language)
    row = DOTS_ROWS
    pieces.append((row, 0, _status(view)))
    row += 1
    if cols >= DOTS_COLS + 1 + max(map(len, keys)):
        pieces += [(i, DOTS_COLS + 1, key) for i, key in enumerate(keys)]
    else:  # the legend under the status line, as many keys a line as fit
        lines = _packed(keys, cols - 1)
        pieces += [(row + i, 0, line) for i, line in enumerate(lines)]
        row += len(lines)
    room = rows - row  # the text in columns under it, when it is longer than the rows left
    if room > 0:
        columns = max(1, (cols + 2) // (TEXT_COLS + 2))
        shown = text[: room * columns]
        width = TEXT_COLS if len(shown) > room else cols
        for i, line in enumerate(shown):
            pieces.append((row + i % room, (i // room) * (TEXT_COLS + 2), line[:width]))
    return pieces


def _packed(items: list[str], width: int) -> list[str]:
    """The items in lines of at most ``width`` characters, three spaces apart."""
    lines = [items[0]]
    for item in items[1:]:
        joined = f"{lines[-1]}   {item}"
        if len(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(item)
    return lines


def _framed(panel: tuple[str, ...]) -> list[Piece]:
    """The panel's rows in a box titled Tableside."""
    width = len(panel[0])
    title = "─ Tableside "
    pieces = [(0, 0, "┌" + title + "─" * (width - len(title)) + "┐")]
    pieces += [(1 + i, 0, f"│{row}│") for i, row in enumerate(panel)]
    pieces.append((len(panel) + 1, 0, "└" + "─" * width + "┘"))
    return pieces


def _status(view: View) -> str:
    """The status line: the last log line, or the tag prompt while a UID is typed."""
    if view.prompt is None:
        return view.log
    return WORDS[view.language]["prompt"] + view.prompt + "_"


def _clip(pieces: list[Piece], cols: int, rows: int) -> list[Piece]:
    clipped = []
    for row, col, text in pieces:
        room = cols - col - (row == rows - 1)
        if row < rows and room > 0:
            clipped.append((row, col, text[:room]))
    return clipped


# ---------------------------------------------------------------- simulator


class LogTail(logging.Handler):
    """The last message of the ``tableside`` loggers, for the status line.

    While attached it also keeps those loggers off stderr, where a message
    would scribble over the curses screen.
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


class Simulator:
    """The app and the main loop on the fakes, fed with keys, on the caller's clock.

    The curses part calls ``tick`` every few milliseconds with the real clock
    and ``key`` for each key, once ``ready``; the tests do the same with a
    clock of their own. The app's shuffles and draws take ``seed``, then
    ``seed + 1`` and so on, one per new game; the status line starts with it.
    A ``language`` given (``--language``) wins over the stored setting for
    this run; without one the stored setting holds, English at first.
    """

    def __init__(self, settings: AppSettings, language: str | None, seed: int, now: float) -> None:
        self.now = now
        settings.state_dir.mkdir(parents=True, exist_ok=True)
        self.journal = Journal(settings.journal)
        self.log = LogTail()
        self.log.attach()
        seeds = count(seed)
        self.app = App(
            self.journal,
            language=language or "en",
            overrides={"language": language} if language else None,
            owner_catalogue=settings.catalogue,
            seeds=lambda: next(seeds),
            reader_name=FakeReader.name,
            defaults=settings.setting_defaults(),
        )
        self.buttons = FakeButtons()
        self.reader = FakeReader(grace=TAG_GRACE)
        self.display = FakeDisplay(clock=lambda: self.now)
        self.loop = Loop(self.app, self.buttons, self.reader, self.display)
        self.prompt: str | None = None
        self._free_at = now  # when the next key may act
        self._tag_off_at: float | None = None
        self._image: Image.Image | None = None
        self._rows, self._dots = BLANK, BLANK_DOTS
        LOG.info("seed %d (tableside sim --seed %d draws the same again)", seed, seed)

    def close(self) -> None:
        """Let go of the fakes, the journal and the log; the journal keeps the game."""
        for part in (self.buttons, self.reader, self.display, self.journal):
            part.close()
        self.log.detach()

    def tick(self, now: float) -> None:
        """One tick of the main loop; a typed tag leaves the reader when its time is up."""
        self.now = now
        if self._tag_off_at is not None and now >= self._tag_off_at:
            self.reader.remove(now)
            self._tag_off_at = None
        self.loop.tick(now)

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
        else:
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
            self.prompt = (self.prompt + key.upper())[:UID_DIGITS]

    def _lay_tag(self, now: float) -> None:
        uid, self.prompt = self.prompt, None
        try:
            self.reader.present(uid, now)
        except ValueError as error:
            LOG.info("no tag laid: %s", error)
            return
        LOG.info("tag %s on the reader", uid)
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
            log=self.log.text,
            prompt=self.prompt,
            asleep=asleep,
            language=self.app.language,
        )


# ------------------------------------------------------------------- curses


def fresh_seed() -> int:
    """A seed for a run without ``--seed``: a new game each launch, short enough to retype."""
    return secrets.randbelow(1_000_000)


def run_terminal(state_dir: str | None, language: str | None, seed: int | None) -> int:
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
    sim = Simulator(settings, language, seed, time.monotonic())
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
        sim.tick(now)
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
