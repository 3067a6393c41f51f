"""The screen framework: a stack of screens that draw and take inputs.

A screen draws the app's current picture on a canvas and turns a button or
a card into something the app does: a rules action, a move through menus, a
setting. Screens are small objects on the app's stack; the top one gets the
inputs. Generic screens live here (menus, notices, colour and number entry);
the game's screens build on them.

Buttons: UP and DOWN move (and repeat while held), OK chooses, BACK goes
back on release; a long BACK is undo, handled by the app. The seven colour
buttons enter token colours; a 4-button build enters colours from a menu.
A name is entered letter by letter with UP, DOWN and OK, on any build.
"""

from collections.abc import Callable
from dataclasses import dataclass

from firmware_app.ui.canvas import WIDTH, Canvas
from rules.colours import COLOURS

NAVIGATION = ("up", "down", "ok", "back")


class Screen:
    """Base class: draws nothing, ignores everything."""

    def __init__(self, app) -> None:
        self.app = app

    @property
    def t(self):
        """The app's translator (follows a change of language at once)."""
        return self.app.t

    def draw(self, canvas: Canvas) -> None:
        raise NotImplementedError

    def button(self, name: str) -> None:
        """A press of ``name`` (BACK arrives on release, UP/DOWN also on repeat)."""

    def card(self, card_id: str) -> None:
        """A known card's tag was presented."""
        self.app.notice(self.t("Card"), [self.t("No card is expected now.")])


@dataclass(frozen=True)
class Item:
    label: str
    run: Callable[[], None]
    detail: str = ""  # more about the item, lines shown under the menu while it is selected


DETAIL_ROWS = 2  # rows a menu keeps for the selected item's detail, when items have one


class Menu(Screen):
    """A titled list; OK runs the selected item, BACK leaves."""

    def __init__(self, app, title: str, items: list[Item], right: str = "", back=None) -> None:
        super().__init__(app)
        self.title, self.items, self.right = title, items, right
        self.cursor = 0
        self.on_back = back

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title, self.right)
        detailed = any(item.detail for item in self.items)
        rows = canvas.body_rows - (DETAIL_ROWS if detailed else 0)
        top = min(max(0, self.cursor - rows + 1), max(0, len(self.items) - rows))
        top = min(top, self.cursor)
        for i, item in enumerate(self.items[top : top + rows]):
            canvas.row(i, item.label, selected=top + i == self.cursor)
        if detailed and self.items:
            detail = self.items[self.cursor].detail.splitlines()
            wrapped = [piece for line in detail for piece in canvas.font.wrap(line, WIDTH - 2)]
            for i, line in enumerate(wrapped[:DETAIL_ROWS]):
                canvas.row(rows + i, line)

    def button(self, name: str) -> None:
        if name == "up" and self.items:
            self.cursor = (self.cursor - 1) % len(self.items)
        elif name == "down" and self.items:
            self.cursor = (self.cursor + 1) % len(self.items)
        elif name == "ok" and self.items:
            self.items[self.cursor].run()
        elif name == "back":
            (self.on_back or self.app.pop)()


class Notice(Screen):
    """Text to read; UP/DOWN scroll, OK or BACK close it and ``then`` runs."""

    def __init__(self, app, title: str, lines: list[str], then=None) -> None:
        super().__init__(app)
        self.title, self.then = title, then
        self.lines = [piece for line in lines for piece in (app.wrap(line) or [""])]
        self.top = 0

    def draw(self, canvas: Canvas) -> None:
        rows = canvas.body_rows
        more = len(self.lines) > rows
        canvas.title(self.title, f"{self.top + 1}/{len(self.lines)}" if more else "")
        for i, line in enumerate(self.lines[self.top : self.top + rows]):
            canvas.row(i, line)

    def button(self, name: str) -> None:
        if name == "down" and self.top + 1 < len(self.lines):
            self.top += 1
        elif name == "up" and self.top:
            self.top -= 1
        elif name in ("ok", "back"):
            self.app.pop(self)
            if self.then:
                self.then()


class ColourEntry(Screen):
    """Enter token colours: a colour button adds one, BACK removes the last.

    With ``count`` set, the entry completes by itself at that many colours;
    otherwise OK completes it. A 4-button build picks colours with UP/DOWN
    and adds the highlighted one with OK (the last entry, "done", finishes).
    """

    def __init__(self, app, title: str, prompt: str, done, count: int | None = None, allowed=None):
        super().__init__(app)
        self.title, self.prompt, self.done, self.count = title, prompt, done, count
        self.allowed = COLOURS if allowed is None else tuple(allowed)
        self.entered: list[str] = []
        self.cursor = 0

    def _choices(self) -> list[str]:
        return list(self.allowed) + ([] if self.count else ["done"])

    def draw(self, canvas: Canvas) -> None:
        goal = f"{len(self.entered)}/{self.count}" if self.count else str(len(self.entered))
        canvas.title(self.title, goal)
        canvas.row(0, self.prompt)
        canvas.row(1, ", ".join(self.t.name(c) for c in self.entered) or "—")
        choice = self._choices()[self.cursor]
        label = self.t("done") if choice == "done" else self.t.name(choice)
        canvas.row(3, self.t("↑↓ colour, OK: {choice}", choice=label))

    def button(self, name: str) -> None:
        if name in COLOURS and name in self.allowed:
            self._add(name)
        elif name in ("up", "down"):
            step = -1 if name == "up" else 1
            self.cursor = (self.cursor + step) % len(self._choices())
        elif name == "ok":
            choice = self._choices()[self.cursor]
            if choice == "done":
                self._finish()
            else:
                self._add(choice)
        elif name == "back":
            if self.entered:
                self.entered.pop()
            else:
                self.app.pop(self)

    def _add(self, colour: str) -> None:
        self.entered.append(colour)
        if self.count and len(self.entered) >= self.count:
            self._finish()

    def _finish(self) -> None:
        entered, self.entered = self.entered, []
        self.done(entered)


class NumberEntry(Screen):
    """A number picked with UP/DOWN between bounds; OK confirms."""

    def __init__(self, app, title: str, prompt: str, done, value=0, low=0, high=99) -> None:
        super().__init__(app)
        self.title, self.prompt, self.done = title, prompt, done
        self.value, self.low, self.high = value, low, high

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title)
        canvas.row(0, self.prompt)
        canvas.row(2, f"↑  {self.value}  ↓")

    def button(self, name: str) -> None:
        if name == "up":
            self.value = min(self.high, self.value + 1)
        elif name == "down":
            self.value = max(self.low, self.value - 1)
        elif name == "ok":
            self.done(self.value)
        elif name == "back":
            self.app.pop(self)


# The letter wheel of a name: UP from the first letter reaches "done" at once.
LETTERS = "AĄBCĆDEĘFGHIJKLŁMNŃOÓPQRSŚTUVWXYZŹŻ"
DONE = "done"
WHEEL = (*LETTERS, " ", "-", DONE)
NAME_LENGTH = 12


class LetterEntry(Screen):
    """A name, letter by letter, with the four buttons every build has.

    UP/DOWN turn a wheel of letters (held, they run on), OK adds the letter
    shown; the wheel stays where it was, so the next letter is near. A word
    starts with a capital, the rest are small. The wheel ends with a space,
    a hyphen and "done", one UP from "A". BACK deletes the last letter, and
    leaves when there is none. ``done`` gets the name, never empty.
    """

    def __init__(self, app, title: str, done, length: int = NAME_LENGTH) -> None:
        super().__init__(app)
        self.title, self.done, self.length = title, done, length
        self.entered = ""
        self.cursor = 0

    def _shown(self, symbol: str) -> str:
        word_start = not self.entered or self.entered[-1] in " -"
        return symbol if word_start else symbol.lower()

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title, f"{len(self.entered)}/{self.length}")
        canvas.row(0, self.entered + "_")
        symbol = WHEEL[self.cursor]
        label = {" ": self.t("space"), DONE: self.t("done")}.get(symbol) or self._shown(symbol)
        canvas.row(2, self.t("↑↓ letter, OK: {choice}", choice=label))
        canvas.row(3, self.t("BACK: delete"))

    def button(self, name: str) -> None:
        if name in ("up", "down"):
            self.cursor = (self.cursor + (-1 if name == "up" else 1)) % len(WHEEL)
        elif name == "ok":
            symbol = WHEEL[self.cursor]
            if symbol == DONE:
                if self.entered.strip():
                    self.done(self.entered.strip())
            elif len(self.entered) < self.length:
                self.entered += self._shown(symbol)
        elif name == "back":
            if self.entered:
                self.entered = self.entered[:-1]
            else:
                self.app.pop(self)
