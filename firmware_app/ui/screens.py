"""The screen framework: a stack of screens that draw and take inputs.

A screen draws the app's current picture on a canvas and turns a button or
a card into something the app does: a rules action, a move through menus, a
setting. Screens are small objects on the app's stack; the top one gets the
inputs. Generic screens live here (menus, notices, colour and number entry);
the game's screens build on them.

Buttons: UP and DOWN move (and repeat while held), OK chooses, BACK goes
back on release; a long BACK is undo, handled by the app. The seven colour
buttons enter token colours, and pick the item of their colour wherever a
menu offers colours; a 4-button build enters colours from a menu.
A name is entered letter by letter with UP, DOWN and OK, on any build.
"""

from collections.abc import Callable
from dataclasses import dataclass

from firmware_app.ui.canvas import WIDTH, Canvas, body_rows
from firmware_app.words.table_text import marks
from rules.colours import COLOURS

NAVIGATION = ("up", "down", "ok", "back")


class Screen:
    """Base class: draws nothing, ignores everything."""

    # A screen with slow work (a virtual player thinking) is put on the panel first; the
    # loop then calls ``work``, which replaces the screen with what the work found.
    slow = False
    # Whether what is pressed while that work runs is dropped rather than handed to the
    # screen the work puts in its place, which the table could not see when it pressed.
    drops_presses = False
    # What the panel names when this screen fails: a key of firmware_app/guard.py's PARTS.
    part = "screen"

    def __init__(self, app) -> None:
        self.app = app

    def work(self) -> None:
        """The slow part of a ``slow`` screen, run by the loop once the screen is shown."""

    @property
    def t(self):
        """The app's translator (follows a change of language at once)."""
        return self.app.t

    def draw(self, canvas: Canvas) -> None:
        raise NotImplementedError

    def button(self, name: str) -> None:
        """A press of ``name`` (BACK arrives on release, UP/DOWN also on repeat)."""

    def say(self, lines: list[str]) -> bool:
        """Show ``lines`` (what the table must do after an action) on this screen itself,
        if it can keep them in view while it waits (a turn menu, above its choices);
        False: they need a notice of their own."""
        return False

    def card(self, card_id: str) -> None:
        """A known card's tag was presented."""
        self.app.notice(self.t("Card"), [self.t("No card is expected now.")])


@dataclass(frozen=True)
class Item:
    """A menu line; ``colour`` is the colour button that runs it at once.

    ``remembered`` is False for a line that ends, skips or spends a turn ("Cannot
    place", "Block", "End turn"): a remembering menu never opens on it, so one OK
    can never do that again for the next player.
    """

    label: str
    run: Callable[[], None]
    detail: str = ""  # more about the item, lines shown under the menu while it is selected
    colour: str | None = None
    remembered: bool = True


DETAIL_ROWS = 2  # rows a menu keeps for the selected item's detail, when items have one


class Menu(Screen):
    """A titled list; OK runs the selected item, BACK leaves, a colour runs its item.

    With ``remember`` set, the cursor starts on the item chosen last time under
    that name (the app keeps it), so a player who does the same again presses OK.
    The choice is found by its label, not its row: lines added above it do not move
    the cursor onto another choice. A name that should not carry from one player to
    the next includes the player (``flows.pingwiny.turn.kept_for``).
    ``header`` holds sentences shown above the items while the menu is open (what the
    table must still do, said here rather than on a notice of its own: ``Screen.say``).
    """

    def __init__(
        self,
        app,
        title: str,
        items: list[Item],
        right: str = "",
        back=None,
        remember: str | None = None,
    ) -> None:
        super().__init__(app)
        self.title, self.items, self.right = title, items, right
        self.on_back, self.remember = back, remember
        self.header: list[str] = []
        labels = [item.label for item in items if item.remembered]
        chosen = app.cursors.get(remember) if remember else None
        self.cursor = self.index_of(chosen) if chosen in labels else 0

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title, self.right)
        head = [piece for line in self.header for piece in canvas.font.wrap(line, WIDTH - 2)]
        for i, line in enumerate(head):
            canvas.row(i, line)
        detailed = bool(self.items) and bool(self.items[self.cursor].detail)
        rows = canvas.body_rows - len(head) - (DETAIL_ROWS if detailed else 0)
        top = min(max(0, self.cursor - rows + 1), max(0, len(self.items) - rows))
        top = min(top, self.cursor)
        for i, item in enumerate(self.items[top : top + rows]):
            canvas.row(len(head) + i, item.label, selected=top + i == self.cursor)
        if detailed and self.items:
            detail = self.items[self.cursor].detail.splitlines()
            wrapped = [piece for line in detail for piece in canvas.font.wrap(line, WIDTH - 2)]
            for i, line in enumerate(wrapped[:DETAIL_ROWS]):
                canvas.row(len(head) + rows + i, line)

    def button(self, name: str) -> None:
        if name == "up" and self.items:
            self.cursor = (self.cursor - 1) % len(self.items)
        elif name == "down" and self.items:
            self.cursor = (self.cursor + 1) % len(self.items)
        elif name == "ok" and self.items:
            self.run(self.items[self.cursor])
        elif name == "back":
            (self.on_back or self.app.pop)()
        elif name in COLOURS:
            self.colour(name)

    def index_of(self, label: str | None) -> int:
        """The row of the item labelled ``label`` (the first row if there is none)."""
        labels = [item.label for item in self.items]
        return labels.index(label) if label in labels else 0

    def run(self, item: Item) -> None:
        if self.remember and item.remembered:
            self.app.cursors[self.remember] = item.label
        item.run()

    def colour(self, name: str) -> None:
        """A colour button: the item of that colour, if the menu has one."""
        for item in self.items:
            if item.colour == name:
                self.run(item)
                return


class Marks(Menu):
    """A list whose lines OK marks or unmarks ("[x] bird"), then "That is all" hands the
    keys marked, in the list's order, to ``finish`` (which may refuse them and say why)."""

    def __init__(
        self, app, title: str, choices: list[tuple[str, str]], finish, detail="", marked=()
    ):
        self.choices, self.finish, self.detail = choices, finish, detail
        self.chosen = set(marked)
        super().__init__(app, title, [])
        self.items = self._items()

    def _items(self) -> list[Item]:
        items = [
            Item(
                ("[x] " if key in self.chosen else "[ ] ") + label,
                lambda k=key: self._toggle(k),
                self.detail,
            )
            for key, label in self.choices
        ]
        return items + [Item(self.t("That is all"), self._done, self.detail)]

    def _toggle(self, key: str) -> None:
        self.chosen ^= {key}
        self.items = self._items()

    def _done(self) -> None:
        self.finish([key for key, _ in self.choices if key in self.chosen])


class Notice(Screen):
    """Text to read, a page at a time; OK turns the page and closes on the last one.

    UP and DOWN page back and forth, BACK closes at once; closing runs
    ``then``. Once the last page is read, a press that has nothing left to do
    here (DOWN, UP on a single page, a colour) closes it and goes on to the
    screen beneath, so moving the menu under a notice costs no press of its
    own. The title bar shows the page count when there is more than one. With
    ``ok`` set, OK on the last page runs it instead of ``then`` (the hand-off:
    reading the last page and drawing the next player's tokens is one press).
    """

    def __init__(self, app, title: str, lines: list[str], then=None, ok=None) -> None:
        super().__init__(app)
        self.title, self.then, self.ok = title, then, ok
        wrapped = [app.wrap(line) or [""] for line in lines]
        self.lines = [piece for pieces in wrapped for piece in pieces]
        self.rows = body_rows()
        self.sheets = _paged(wrapped, self.rows)
        self.page = 0

    @property
    def pages(self) -> int:
        return len(self.sheets)

    def draw(self, canvas: Canvas) -> None:
        more = self.pages > 1
        canvas.title(self.title, f"{self.page + 1}/{self.pages}" if more else "")
        for i, line in enumerate(self.sheets[self.page]):
            canvas.row(i, line)

    def button(self, name: str) -> None:
        if name in ("down", "ok") and self.page + 1 < self.pages:
            self.page += 1
        elif name == "up" and self.page:
            self.page -= 1
        elif name in ("ok", "back"):
            self.app.pop(self)
            after = self.ok if name == "ok" and self.ok else self.then
            if after:
                after()
        elif name in (*COLOURS, "up", "down") and self.page + 1 == self.pages:
            self.app.pop(self)
            if self.then:
                self.then()
            if self.app.top is not self:
                self.app.top.button(name)


def _paged(wrapped: list[list[str]], rows: int) -> list[list[str]]:
    """Pages of ``rows`` lines; a sentence that fits on a page is never split across two."""
    sheets: list[list[str]] = [[]]
    for pieces in wrapped:
        if len(sheets[-1]) + len(pieces) > rows and sheets[-1] and len(pieces) <= rows:
            sheets.append([])
        for piece in pieces:
            if len(sheets[-1]) == rows:
                sheets.append([])
            sheets[-1].append(piece)
    return sheets


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
        canvas.row(1, self.entered_marks() or "—")
        choice = self._choices()[self.cursor]
        label = self.t("done") if choice == "done" else self.t.name(choice)
        canvas.row(3, self.t("↑↓ colour, OK: {choice}", choice=label))

    def entered_marks(self) -> str:
        """``2C N ●``: what is entered so far, as counted colour marks, so that a cost of
        seven tokens fits one line (the marks are those of a card's cost)."""
        return marks(self.t, self.entered)

    def button(self, name: str) -> None:
        if name in COLOURS and name in self.allowed:  # "any" has no button
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
