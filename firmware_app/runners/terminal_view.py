"""The simulator's picture as text: the panel in half blocks or braille, the legend, the status
line and the screen's text, laid out to fit the terminal's size.

Plain code on strings, no curses: ``runners/terminal.py`` draws what ``compose`` lays out, and
the tests read it without a terminal.
"""

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache

from PIL import Image

from firmware_app.ui.canvas import HEIGHT, WIDTH
from firmware_app.words.i18n import Translator

TOO_SMALL = (
    "tableside sim needs a terminal of at least {smallest} characters "
    "({below} or {beside} for the full picture); this one is {cols}x{rows}"
)

COLOUR_KEYS: Mapping[str, str] = {
    "r": "red",
    "b": "blue",
    "g": "green",
    "y": "yellow",
    "e": "grey",
    "w": "white",
    "k": "black",
}


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
        "four": "A 4-button build: colours are chosen from lists with ↑ ↓ and Enter.",
    },
    "pl": {
        "keys": "↑ ↓ góra, dół   Enter/Spacja OK   Backspace/Esc WSTECZ   u cofnij (długie WSTECZ)",
        "more": "t połóż tag na czytniku (wpisz UID)   q wyjście (dziennik zachowuje grę)",
        "short": ("↑ ↓ góra, dół", "Enter OK", "Esc WSTECZ", "u cofnij", "t tag", "q wyjście"),
        "prompt": "UID tagu szesnastkowo (Enter kładzie go na czytniku, Esc anuluje): ",
        "asleep": "Ekran śpi: dowolny klawisz go budzi.",
        "four": "Wersja z 4 przyciskami: kolory wybiera się z list ↑ ↓ i Enterem.",
    },
}


def _colour_keys(language: str) -> list[str]:
    name = Translator(language).name
    return [f"{key} {name(colour)}" for key, colour in COLOUR_KEYS.items()]


@cache
def legend(language: str, colour_keys: bool = True) -> list[str]:
    """The key legend, its colour line built from the key map itself (a 4-button build
    has no colour keys: the line says so)."""
    words = WORDS[language]
    colours = "   ".join(_colour_keys(language)) if colour_keys else words["four"]
    return [words["keys"], colours, words["more"]]


@cache
def short_legend(language: str, colour_keys: bool = True) -> list[str]:
    """The legend one key a line, for the narrow column beside the braille panel."""
    return [*WORDS[language]["short"], *(_colour_keys(language) if colour_keys else ())]


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
    colour_keys: bool = True  # False on a 4-button build: the legend has no colour keys


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
    pieces += [
        (PANEL_ROWS + i, 0, line) for i, line in enumerate(legend(view.language, view.colour_keys))
    ]
    status_row = PANEL_ROWS + LEGEND_ROWS
    pieces.append((status_row, 0, _status(view)))
    if layout is Layout.BESIDE:
        pieces += [(1 + i, PANEL_COLS + 2, line) for i, line in enumerate(text)]
    else:
        pieces += [(status_row + 1 + i, 0, line) for i, line in enumerate(text)]
    return _clip(pieces, cols, rows)


def _braille_pieces(view: View, text: tuple[str, ...], cols: int, rows: int) -> list[Piece]:
    pieces = _framed(view.dots)
    keys = short_legend(view.language, view.colour_keys)
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
