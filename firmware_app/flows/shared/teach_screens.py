"""Screens that teach a card in few presses: its points and type at once, a mission's step.

On the 11-button build the seven colour buttons stand for the seven figurant
types, in the order both are printed in ``rules.colours`` (red: bird … black:
insect); every screen that takes a type that way shows each type beside its
colour's mark, so the table sees what each button does. The 4-button build
picks a type from a list and a step in three questions, as it always did.
"""

from firmware_app.ui.screens import Item, NumberEntry, Screen
from rules.colours import COLOURS, TYPES

TYPE_COLOUR = dict(zip(TYPES, COLOURS, strict=True))
HIGHEST = 9  # the most points, or cards in a mission's step (``rules.catalogue.teaching``)
SECOND_COLUMN = 58  # pixels: room for the widest type on either side ("N człowiek", "○ amphibian")


def type_labels(app) -> dict[str, str]:
    """Each type's line: ``R bird`` where a colour button picks it, else ``bird``."""
    t = app.t
    names = {kind: t(kind) for kind in TYPES}
    if not app.has_colour_buttons:
        return names
    return {kind: f"{t.initial(TYPE_COLOUR[kind])} {name}" for kind, name in names.items()}


def type_items(app, done) -> list[Item]:
    """The seven types as menu lines, ``done(type)``; a type's colour button picks it."""
    labels = type_labels(app)
    return [Item(labels[kind], lambda k=kind: done(k), colour=TYPE_COLOUR[kind]) for kind in TYPES]


def in_columns(canvas, left: str, right: str) -> str:
    """Two texts on one row, the second starting at the same place on every row."""
    if not right:
        return left
    padded = left + " "
    while canvas.font.text_width(padded) < SECOND_COLUMN:
        padded += " "
    return padded + right


class PointsTypeEntry(NumberEntry):
    """A figurant's points and type on one screen.

    UP and DOWN set the points; a colour button picks the type shown beside its
    mark and finishes the card. OK goes on to the list of types (the 4-button
    build's way, which shows no marks): ``choose_type(then)`` opens it.
    """

    def __init__(self, app, title: str, value: int, done, choose_type) -> None:
        def listed(points: int) -> None:
            choose_type(lambda kind: done(points, kind))

        super().__init__(app, title, "", listed, value=value, high=HIGHEST)
        self.finished = done

    def draw(self, canvas) -> None:
        t = self.t
        canvas.title(self.title)
        if not self.app.has_colour_buttons:
            canvas.row(0, t("↑↓ points: {n}", n=self.value))
            canvas.row(1, t("OK: the type"))
            return
        canvas.row(0, t("↑↓ points: {n}, then the type:", n=self.value))
        labels = list(type_labels(self.app).values())
        for row, start in enumerate(range(0, len(labels), 2)):
            pair = labels[start : start + 2] + [""]
            canvas.row(row + 1, in_columns(canvas, pair[0], pair[1]))

    def button(self, name: str) -> None:
        if name in COLOURS:
            self.finished(self.value, TYPES[COLOURS.index(name)])
        else:
            super().button(name)


class StepEntry(Screen):
    """One step of a mission's scoring on one screen (the 11-button build).

    UP and DOWN set its points, red and green one card (or type) fewer or more;
    OK keeps the step and asks one more, blue keeps it as the last. Each line
    says which button does what.
    """

    FEWER, MORE, LAST = "red", "green", "blue"

    def __init__(self, app, title: str, n: int, count: int, points: int, types: bool, done):
        """``done(count, points, last)``; ``types``: the step counts different types."""
        super().__init__(app)
        self.title, self.n, self.count, self.points = title, n, count, points
        self.types, self.done = types, done

    def draw(self, canvas) -> None:
        t = self.t
        marks = {"fewer": t.initial(self.FEWER), "more": t.initial(self.MORE), "n": self.count}
        if self.types:
            counted = t("{fewer}-/{more}+ types: {n}", **marks)
        else:
            counted = t("{fewer}-/{more}+ cards: {n}", **marks)
        canvas.title(self.title)
        canvas.row(0, t("Step {n}", n=self.n))
        canvas.row(1, counted)
        canvas.row(2, t("↑↓ points: {n}", n=self.points))
        canvas.row(3, t("OK: one more step"))
        canvas.row(4, t("{mark}: this step is the last", mark=t.initial(self.LAST)))

    def button(self, name: str) -> None:
        if name == "up":
            self.points = min(HIGHEST, self.points + 1)
        elif name == "down":
            self.points = max(1, self.points - 1)
        elif name == self.FEWER:
            self.count = max(1, self.count - 1)
        elif name == self.MORE:
            self.count = min(HIGHEST, self.count + 1)
        elif name in ("ok", self.LAST):
            self.done(self.count, self.points, name == self.LAST)
        elif name == "back":
            self.app.pop(self)
