"""Pixel fonts drawn for the 128x64 one-bit panel, with every Polish letter.

Pillow's built-in font has no Polish letters and TrueType fonts go soft at one
bit per pixel, so Tableside draws its own glyphs, as text files the project
owns in ``firmware_app/words/fonts/`` (the format is in ``docs/font.md``). A
character a font lacks is drawn as its "missing glyph" box and reported by
``PixelFont.missing``, so a screen can never silently lose a letter.

Each glyph becomes a mode "1" mask once, when it is first drawn; drawing
only stamps those masks with ``ImageDraw.bitmap``, which keeps a full screen
of text well under a millisecond on a desktop machine and affordable on a
Raspberry Pi Zero 2 W.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache, partial
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from PIL import Image

# ImageDraw, with the ImageFont it imports, would delay the daemon's first
# frame: text is stamped on images with ``Image.paste``, and an ImageDraw
# given by the caller is used without naming its class.
if TYPE_CHECKING:
    from PIL import ImageDraw

FONT_DIR = Path(__file__).with_name("fonts")

INK = "#"
PAPER = "."

_METRIC = re.compile(r"(height|baseline|spacing) (\d+)")
_CHAR = re.compile(r"char U\+([0-9A-F]{4,6}) (.) width ([1-9]\d*)")
_MISSING = re.compile(r"missing width ([1-9]\d*)")
_METRICS = ("height", "baseline", "spacing")


class FontFormatError(ValueError):
    """A font file breaks the text format; the message names the file and line."""


class Glyph:
    """One character's picture: rows of ``#`` (ink) and ``.`` (paper), one per pixel row.

    ``mask`` is the same picture as a mode "1" image, built once so that
    drawing is a single paste per character. A glyph is frozen and compared
    by its rows. It is a small class with slots rather than a dataclass:
    ``dataclasses`` imports ``inspect``, which would delay the daemon's first frame.
    """

    __slots__ = ("_rows", "_mask")

    def __init__(self, rows: tuple[str, ...]) -> None:
        self._rows = rows
        self._mask: Image.Image | None = None

    def __eq__(self, other: object) -> bool:
        return self._rows == other._rows if isinstance(other, Glyph) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._rows)

    def __repr__(self) -> str:
        return f"Glyph(rows={self._rows!r})"

    @property
    def rows(self) -> tuple[str, ...]:
        return self._rows

    @property
    def mask(self) -> Image.Image:
        """Built on first use: a screen needs few of the glyphs, and building
        every mask of every font would delay the daemon's first frame."""
        if self._mask is None:
            self._mask = _mask(self._rows)
        return self._mask

    @property
    def width(self) -> int:
        return len(self.rows[0])


def _bitmap(image: Image.Image, xy: tuple[int, int], mask: Image.Image, fill: int) -> None:
    """What ``ImageDraw.bitmap`` does, ink ``fill`` where ``mask`` is set, without ImageDraw."""
    image.paste(fill, xy, mask)


def _mask(rows: tuple[str, ...]) -> Image.Image:
    """Packs ``#``/``.`` rows into a mode "1" image (rows padded to whole bytes)."""
    width = len(rows[0])
    padded = -width % 8
    data = b"".join(
        int(row.replace(INK, "1").replace(PAPER, "0") + "0" * padded, 2).to_bytes(
            (width + padded) // 8, "big"
        )
        for row in rows
    )
    return Image.frombytes("1", (width, len(rows)), data)


class PixelFont:
    """A proportional pixel font: measure, wrap and draw text on one-bit images.

    Every glyph is ``height`` rows tall; the cell's top row is the ``y`` that
    ``draw`` is given, ``baseline`` is the number of rows above the baseline,
    and ``spacing`` blank columns separate neighbouring glyphs. Lines of text
    are ``line_height`` apart. A newline in the text starts a new line.
    """

    def __init__(
        self,
        name: str,
        *,
        height: int,
        baseline: int,
        spacing: int,
        glyphs: Mapping[str, Glyph],
        missing_glyph: Glyph,
    ) -> None:
        self.name = name
        self.height = height
        self.baseline = baseline
        self.spacing = spacing
        self.glyphs: Mapping[str, Glyph] = MappingProxyType(dict(glyphs))
        self.missing_glyph = missing_glyph
        # Measuring is the inner loop of wrapping and fitting: a plain table of
        # widths keeps it to one lookup per character.
        self._widths = {char: glyph.width for char, glyph in self.glyphs.items()}

    def __repr__(self) -> str:
        return f"<PixelFont {self.name!r}: {len(self.glyphs)} glyphs, {self.height} px>"

    @property
    def line_height(self) -> int:
        """The cell already holds the accents and descenders, so lines need no extra leading."""
        return self.height

    def glyph(self, char: str) -> Glyph:
        """The glyph for ``char``, or the missing-glyph box when the font lacks it."""
        return self.glyphs.get(char, self.missing_glyph)

    def missing(self, text: str) -> set[str]:
        """The characters of ``text`` this font would draw as the missing-glyph box."""
        return {char for char in text if char != "\n" and char not in self.glyphs}

    def text_width(self, text: str) -> int:
        """Width in pixels of the widest line, from its first inked column to its last.

        Every glyph but the space has ink in its first and last column, so
        this is exactly the width ``draw`` inks for text that neither starts
        nor ends with a space.
        """
        return max(self._line_width(line) for line in text.split("\n"))

    def _line_width(self, line: str) -> int:
        if not line:
            return 0
        widths, missing = self._widths, self.missing_glyph.width
        inked = sum([widths.get(char, missing) for char in line])
        return inked + self.spacing * (len(line) - 1)

    def draw(
        self,
        target: Image.Image | ImageDraw.ImageDraw,
        xy: tuple[int, int],
        text: str,
        fill: int = 1,
    ) -> None:
        """Draws ``text`` with the top-left of its first cell at ``xy``.

        ``target`` is a PIL image or an ``ImageDraw`` on one (such as luma's
        ``canvas``). Only the glyphs' ink is painted, in ``fill``: 1 draws
        lit pixels, 0 cuts dark text out of a lit bar.
        """
        stamp = partial(_bitmap, target) if isinstance(target, Image.Image) else target.bitmap
        glyph, spacing = self.glyph, self.spacing
        left, y = xy
        for line in text.split("\n"):
            x = left
            for char in line:
                shape = glyph(char)
                stamp((x, y), shape.mask, fill=fill)
                x += shape.width + spacing
            y += self.line_height

    def wrap(self, text: str, width_px: int) -> list[str]:
        """Splits ``text`` into lines no wider than ``width_px``.

        Each newline-separated paragraph that fits is kept as it is. One that
        does not is broken at spaces (runs of spaces become one); a word
        wider than ``width_px`` on its own is broken between characters.
        Raises ``ValueError`` when a single character is wider than ``width_px``.
        """
        lines: list[str] = []
        for paragraph in text.split("\n"):
            if self._line_width(paragraph) <= width_px:
                lines.append(paragraph)
                continue
            line = ""
            for word in paragraph.split(" "):
                if not word:
                    continue
                candidate = f"{line} {word}" if line else word
                if self._line_width(candidate) <= width_px:
                    line = candidate
                    continue
                if line:
                    lines.append(line)
                *whole, line = self._break_word(word, width_px)
                lines += whole
            lines.append(line)
        return lines

    def _break_word(self, word: str, width_px: int) -> list[str]:
        """The word as one piece if it fits, else as pieces that each fill a line."""
        pieces = [""]
        for char in word:
            if self.glyph(char).width > width_px:
                raise ValueError(
                    f"width_px={width_px} is narrower than {char!r}"
                    f" ({self.glyph(char).width} px in the {self.name} font)"
                )
            if pieces[-1] and self._line_width(pieces[-1] + char) > width_px:
                pieces.append(char)
            else:
                pieces[-1] += char
        return pieces


def parse_font(text: str, name: str, source: str = "<text>") -> PixelFont:
    """Builds a font from the text format of ``docs/font.md``.

    Raises ``FontFormatError`` naming ``source`` and the line at fault, so a
    slip while editing a glyph is found at once rather than drawn wrong.
    """
    lines = text.splitlines()
    metrics: dict[str, int] = {}
    glyphs: dict[str, Glyph] = {}
    missing_glyph: Glyph | None = None
    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        where = f"{source}:{number}"
        if not line.strip() or line.startswith(";"):
            continue
        if metric := _METRIC.fullmatch(line):
            if glyphs or missing_glyph is not None:
                raise FontFormatError(f"{where}: metrics must come before the first glyph")
            metrics[metric[1]] = int(metric[2])
            continue
        char, width = _glyph_header(line, where)
        height = _cell_metrics(metrics, where)[0]
        rows = tuple(lines[number : number + height])
        _check_rows(rows, width, height, source, number)
        number += height
        if char is None:
            if missing_glyph is not None:
                raise FontFormatError(f"{where}: a second missing glyph")
            missing_glyph = Glyph(rows)
        elif char in glyphs:
            raise FontFormatError(f"{where}: U+{ord(char):04X} {char} is already defined")
        else:
            glyphs[char] = Glyph(rows)
    if missing_glyph is None:
        raise FontFormatError(f"{source}: no missing glyph ('missing width N')")
    height, baseline, spacing = _cell_metrics(metrics, source)
    return PixelFont(
        name,
        height=height,
        baseline=baseline,
        spacing=spacing,
        glyphs=glyphs,
        missing_glyph=missing_glyph,
    )


def _glyph_header(line: str, where: str) -> tuple[str | None, int]:
    """``(char, width)`` from a glyph's header line; ``char`` is None for the missing glyph."""
    if missing := _MISSING.fullmatch(line):
        return None, int(missing[1])
    header = _CHAR.fullmatch(line)
    if not header:
        raise FontFormatError(
            f"{where}: expected 'char U+XXXX C width N', 'missing width N'"
            f" or a metric (height, baseline, spacing), got {line!r}"
        )
    code, shown, width = header.groups()
    if chr(int(code, 16)) != shown:
        raise FontFormatError(f"{where}: U+{code} is not {shown!r}")
    return shown, int(width)


def _cell_metrics(metrics: Mapping[str, int], where: str) -> tuple[int, int, int]:
    """``(height, baseline, spacing)``, once all three are known and agree."""
    absent = [name for name in _METRICS if name not in metrics]
    if absent:
        raise FontFormatError(f"{where}: metrics missing before the glyphs: {', '.join(absent)}")
    height, baseline, spacing = (metrics[name] for name in _METRICS)
    if not 0 < baseline <= height:
        raise FontFormatError(f"{where}: baseline {baseline} is outside the cell (1..{height})")
    return height, baseline, spacing


def _check_rows(rows: tuple[str, ...], width: int, height: int, source: str, header: int) -> None:
    """Every glyph is exactly one cell: ``height`` rows of ``width`` pixels each."""
    if len(rows) < height:
        raise FontFormatError(
            f"{source}:{header}: {height} rows expected, the file ends after {len(rows)}"
        )
    for number, row in enumerate(rows, start=header + 1):
        # Stripping ink and paper leaves any other character; it is the
        # quickest test, and the daemon parses a font before its first frame.
        if len(row) != width or row.strip(INK + PAPER):
            raise FontFormatError(
                f"{source}:{number}: {row!r} is not {width} characters of '#' and '.'"
            )


def load_font(path: Path) -> PixelFont:
    """Reads one font file; the font is named after the file (``small.txt`` -> "small")."""
    return parse_font(path.read_text(encoding="utf-8"), path.stem, str(path))


@cache
def fonts() -> Mapping[str, PixelFont]:
    """Every font in ``firmware_app/words/fonts``, by name, read from disk once per process."""
    names = sorted(path.stem for path in FONT_DIR.glob("*.txt"))
    return MappingProxyType({name: _font(name) for name in names})


@cache
def _font(name: str) -> PixelFont:
    # One file at a time: the daemon's first frame needs only the small font.
    return load_font(FONT_DIR / f"{name}.txt")


def small() -> PixelFont:
    """The 10-pixel font for body text: six lines fit on the panel."""
    return _font("small")


def large() -> PixelFont:
    """The 16-pixel bold font for headings and big numbers: four lines fit on the panel."""
    return _font("large")
