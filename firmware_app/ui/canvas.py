"""Drawing a screen on the 128x64 one-bit panel, and the text it showed.

A screen draws on a fresh ``Canvas``; the daemon sends ``canvas.image`` to
the panel only when it differs from the last frame. Every piece of text
drawn is also kept in ``canvas.lines`` so the headless simulator and the
tests can read a frame as text, in the order it was drawn; a text cut to fit
is kept whole in ``canvas.cuts`` beside what was shown, so a test can see what
an ellipsis hid.
"""

from functools import lru_cache

from PIL import Image

from firmware_app.words.font import PixelFont, small

# The primitives below fill and stamp with ``Image.paste`` rather than
# ImageDraw: its import, with the ImageFont it brings, would delay the
# daemon's first frame.

WIDTH, HEIGHT = 128, 64
ELLIPSIS = "…"
# Lines kept ready to stamp (see ``_ink``): a few screens' worth.
CACHED_LINES = 256


class Canvas:
    """A blank frame with the few drawing primitives every screen uses."""

    def __init__(self, font: PixelFont | None = None) -> None:
        self.image = Image.new("1", (WIDTH, HEIGHT))
        self.font = font or small()
        self.lines: list[str] = []
        self.cuts: list[tuple[str, str]] = []  # (the text given, what was shown)

    @property
    def row_height(self) -> int:
        return self.font.line_height

    @property
    def body_rows(self) -> int:
        """Rows of text that fit under the title bar."""
        return (HEIGHT - self.row_height - 1) // self.row_height

    def fit(self, text: str, width: int = WIDTH - 2) -> str:
        """``text`` cut with an ellipsis to fit ``width`` pixels."""
        shown = _fitted(self.font, text, width)
        if shown != text:
            self.cuts.append((text, shown))
        return shown

    def _text(self, xy: tuple[int, int], text: str, fill: int) -> None:
        self.image.paste(fill, xy, _ink(self.font, text))

    def title(self, text: str, right: str = "") -> None:
        """A lit bar across the top with dark text, and an optional right-hand note."""
        h = self.row_height
        self.image.paste(1, (0, 0, WIDTH, h))
        room = WIDTH - 2 - (self.font.text_width(right) + 4 if right else 0)
        asked = _asked(self.font, text, room)
        shown = self.fit(asked, room)
        if asked != text:
            self.cuts.append((text, shown))
        self._text((1, 0), shown, fill=0)
        if right:
            self._text((WIDTH - 1 - self.font.text_width(right), 0), right, fill=0)
        self.lines.append(f"[{shown}]" + (f" {right}" if right else ""))

    def row(self, index: int, text: str, selected: bool = False) -> None:
        """One line of the body; a selected line is drawn lit, with dark text."""
        y = self.row_height * (index + 1) + 1
        shown = self.fit(text)
        if selected:
            self.image.paste(1, (0, y, WIDTH, y + self.row_height))
        self._text((1, y), shown, fill=0 if selected else 1)
        self.lines.append(("> " if selected else "  ") + shown)

    def paragraph(self, text: str, first_row: int = 0) -> list[str]:
        """Wrapped text from ``first_row``; returns the lines that did not fit."""
        wrapped = self.font.wrap(text, WIDTH - 2) if text else []
        room = self.body_rows - first_row
        for i, line in enumerate(wrapped[:room]):
            self.row(first_row + i, line)
        return wrapped[room:]

    def text(self) -> str:
        return "\n".join(self.lines)


def shortened(head: str, tail: str, width: int = WIDTH - 2) -> str:
    """``head`` cut with an ellipsis so that ``head + tail`` fits a row: a card's name gives
    way, never its cost or points (a menu row cuts only the end of what it is given)."""
    font = small()
    room = width - font.text_width(tail) - font.spacing  # the gap where the two meet
    if room <= font.text_width(ELLIPSIS):
        return _fitted(font, head + tail, width)
    return _fitted(font, head, room) + tail


def title_bar(head: str, extra: str, notes: list[str]) -> tuple[str, str]:
    """A title and its right-hand note, with as much as fits whole: ``head`` (whose turn)
    always; then ``notes``, the most needed first (a count: "3 left"), shown last; the
    ``extra`` (a penguin) goes first. Nothing is cut: a name or a number is never lost."""
    font = small()
    wanted = [note for note in notes if note]
    tries = [(f"{head}: {extra}" if extra else head, wanted)]
    tries += [(head, wanted[:kept]) for kept in range(len(wanted), -1, -1)]
    for title, kept in tries:
        right = " ".join(reversed(kept))
        room = WIDTH - 2 - (font.text_width(right) + 4 if right else 0)
        if font.text_width(title) <= room:
            return title, right
    return head, ""


def message_frame(text: str, title: str = "Tableside") -> Canvas:
    """A frame with the title bar and ``text``, drawn without any screen: what the panel
    keeps after a stop, or when not even the home menu can be drawn."""
    canvas = Canvas()
    canvas.title(title)
    canvas.paragraph(text)
    return canvas


def body_rows() -> int:
    """Rows of text under the title bar with the panel's usual font."""
    return (HEIGHT - small().line_height - 1) // small().line_height


# A menu redraws the same lines on every press of UP or DOWN, so each line is
# cut to fit and inked once, then stamped as one mask: a frame costs a few
# pastes instead of one per character and a width sum per character removed.


def _asked(font: PixelFont, text: str, width: int) -> str:
    """A title that asks something of a card ("Maurice: type") and does not fit: the
    name gives way, so the question stays whole."""
    head, colon, question = text.rpartition(": ")
    if not colon or font.text_width(text) <= width:
        return text
    room = width - font.text_width(colon + question)
    if room < font.text_width(head[:3] + ELLIPSIS):
        return text
    return _fitted(font, head, room) + colon + question


@lru_cache(maxsize=CACHED_LINES)
def _fitted(font: PixelFont, text: str, width: int) -> str:
    if font.text_width(text) <= width:
        return text
    while text and font.text_width(text + ELLIPSIS) > width:
        text = text[:-1]
    return text + ELLIPSIS


@lru_cache(maxsize=CACHED_LINES)
def _ink(font: PixelFont, text: str) -> Image.Image:
    """``text`` drawn by ``font`` on a mask of its own size (ink = 1)."""
    lines = text.count("\n") + 1
    mask = Image.new("1", (max(1, font.text_width(text)), font.line_height * lines))
    font.draw(mask, (0, 0), text)
    return mask
