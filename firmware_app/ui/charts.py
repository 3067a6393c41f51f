"""Small one-bit charts for the 128x64 panel: scores over the rounds, wins per player.

People look at a chart rather than read it, so each one is drawn to be told apart at arm's
length on a monochrome panel: one line per player, each with its own dash pattern and the
player's mark (an initial, or as many letters as tell the names apart) at the line's end,
the rounds numbered along the bottom; bars with the count written on them. Every chart also
leaves its figures in ``canvas.lines``, so the simulator's text and the tests read what it
shows: each player's mark and name, then the points round by round.
"""

from firmware_app.ui.canvas import HEIGHT, WIDTH, Canvas
from firmware_app.ui.screens import Screen

# Dash patterns, one per player: which pixels of each run of 4 are lit.
DASHES = ((1, 1, 1, 1), (1, 1, 0, 0), (1, 0, 1, 0), (1, 1, 1, 0, 1, 0))
ZERO_LINE = (1, 0, 0, 0)


def _plot(canvas: Canvas, x: int, y: int) -> None:
    if 0 <= x < WIDTH and 0 <= y < HEIGHT:
        canvas.image.putpixel((x, y), 1)


def _line(canvas: Canvas, start: tuple[int, int], end: tuple[int, int], dash) -> None:
    """A straight line, lit where its dash pattern says (Bresenham's steps)."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    error, step = dx + dy, 0
    while True:
        if dash[step % len(dash)]:
            _plot(canvas, x0, y0)
        if (x0, y0) == (x1, y1):
            return
        step += 1
        twice = 2 * error
        if twice >= dy:
            error, x0 = error + dy, x0 + sx
        if twice <= dx:
            error, y0 = error + dx, y0 + sy


def score_chart(canvas: Canvas, title: str, series: list[tuple[str, list[int]]]) -> None:
    """Each player's score after each round, as lines, the player's mark at its end; the
    left axis shows the lowest and highest score, the bottom one the rounds (0: the start)."""
    canvas.title(title)
    marks = initials([name for name, _ in series])
    top, bottom = canvas.row_height + 2, HEIGHT - canvas.row_height - 1
    values = [v for _, points in series for v in points] or [0]
    low, high = min(0, *values), max(1, *values)
    rounds = max((len(points) for _, points in series), default=1)
    left = max(canvas.font.text_width(str(v)) for v in (low, high)) + 3
    right = WIDTH - 3 - max((canvas.font.text_width(mark) for mark in marks), default=0)

    def at(index: int, value: int) -> tuple[int, int]:
        x = left + (right - left) * index // max(1, rounds - 1)
        y = bottom - (bottom - top) * (value - low) // (high - low)
        return x, y

    _line(canvas, (left - 1, top), (left - 1, bottom), (1,))
    _line(canvas, (left - 1, at(0, 0)[1]), (right, at(0, 0)[1]), ZERO_LINE)
    canvas._text((0, top - 1), str(high), fill=1)
    canvas._text((0, bottom - canvas.row_height + 1), str(low), fill=1)
    _round_axis(canvas, [at(index, low)[0] for index in range(rounds)], bottom + 1)
    ends = []
    for number, (name, points) in enumerate(series):
        dash = DASHES[number % len(DASHES)]
        for index in range(1, len(points)):
            _line(canvas, at(index - 1, points[index - 1]), at(index, points[index]), dash)
        if points:
            ends.append((at(len(points) - 1, points[-1])[1], marks[number]))
        shown = name if marks[number] == name else f"{marks[number]} {name}"
        canvas.lines.append(f"{shown}: " + " ".join(str(v) for v in points))
    _end_labels(canvas, ends, right + 2, top, bottom)


def _round_axis(canvas: Canvas, xs: list[int], y: int) -> None:
    """The rounds under the chart: a tick at each, numbered as often as the numbers fit."""
    for x in xs:
        _plot(canvas, x, y - 1)
    width = canvas.font.text_width(str(len(xs) - 1)) + 3
    gap = xs[1] - xs[0] if len(xs) > 1 else width
    every = max(1, -(-width // max(1, gap)))  # ceiling: each number clear of the next
    for number in range(0, len(xs), every):
        label = str(number)
        x = xs[number] - canvas.font.text_width(label) // 2
        canvas._text((max(0, min(x, WIDTH - canvas.font.text_width(label))), y), label, fill=1)


def _end_labels(canvas: Canvas, ends: list[tuple[int, str]], x: int, top: int, bottom: int):
    """Each line's mark beside its end, pushed down where two would overlap."""
    height = canvas.row_height
    below = top
    for y, mark in sorted(ends):
        y = max(below, min(y - height // 2, bottom - height))
        canvas._text((x, y), mark, 1)
        below = y + height - 2


def initials(names: list[str]) -> list[str]:
    """A line's mark: the name's initial, or as many first letters as tell the names apart
    (up to three), or the words' initials ("Gracz 2": "G2"); the seat's number if none do."""
    for letters in (1, 2, 3):
        marks = [name[:letters].strip() for name in names]
        if len(set(marks)) == len(marks):
            return [mark[:1].upper() + mark[1:] for mark in marks]
    words = ["".join(word[:1] for word in name.split()).upper() for name in names]
    if len(set(words)) == len(words):
        return words
    return [str(seat + 1) for seat in range(len(names))]


def bar_chart(canvas: Canvas, title: str, bars: list[tuple[str, int]]) -> None:
    """One horizontal bar a name, longest for the most; the count at the bar's end."""
    canvas.title(title)
    rows = canvas.body_rows
    most = max((count for _, count in bars[:rows]), default=0) or 1
    label = max((canvas.font.text_width(name[:6]) for name, _ in bars[:rows]), default=0) + 3
    for index, (name, count) in enumerate(bars[:rows]):
        y = canvas.row_height * (index + 1) + 1
        canvas._text((1, y), name[:6], fill=1)
        room = WIDTH - label - canvas.font.text_width(str(count)) - 4
        length = room * count // most
        canvas.image.paste(1, (label, y + 2, label + length, y + canvas.row_height - 2))
        canvas._text((label + length + 2, y), str(count), fill=1)
        canvas.lines.append(f"{name}: {count}")


class Chart(Screen):
    """A chart on the panel; OK or BACK closes it, and ``then`` runs."""

    def __init__(self, app, draw, then=None) -> None:
        super().__init__(app)
        self.draw_chart, self.then = draw, then

    def draw(self, canvas: Canvas) -> None:
        self.draw_chart(canvas)

    def button(self, name: str) -> None:
        if name in ("ok", "back"):
            self.app.pop(self)
            if self.then:
                self.then()
