"""Who sits where: the players' names, their penguins or mice, and who starts.

Every screen that names a player asks ``player_label``, so the turn, the
corrections and the score sheet say the same thing: the name given at
setup, else "Player 2". The setup wizards ask the seat questions here, each
with a default that one OK takes (no names, the app deals, the app draws):
names come from those the box remembers (the journal's ``names`` setting,
which the configuration's ``[app] names`` fills at first), or are entered
once, letter by letter (two colour presses a letter where the build has the
colour buttons), and remembered from then on. This module imports
no other screen, so any of them can use it without an import circle.
"""

import logging

from firmware_app.store.config import MOUSE_PAWNS
from firmware_app.ui.screens import DONE, WHEEL, Item, LetterEntry, Marks, Menu
from firmware_app.words.table_text import penguin_label
from rules.colours import COLOURS

LOG = logging.getLogger("tableside.seats")
REMEMBERED = 20  # names the box keeps, the latest first
# The letters by colour button: the first press picks a group (red the first), the second
# the letter in it (red the first). Space and hyphen stay on the wheel.
GROUPS = ("AĄBCĆ", "DEĘFG", "HIJKL", "ŁMNŃO", "ÓPQRS", "ŚTUVW", "XYZŹŻ")

# Król Popiel's rulebook does not name the five pawn colours: the owner marks the
# nearest of these once (``PawnPicker``, the ``pawn_colours`` setting), and each seat
# picks from those. Each is a message of its own ("mysz" is feminine); the ids are
# ``store.config.MOUSE_COLOURS``, which checks the setting.
MOUSE_COLOURS = {
    "red": "Red mouse",
    "blue": "Blue mouse",
    "green": "Green mouse",
    "yellow": "Yellow mouse",
    "orange": "Orange mouse",
    "purple": "Purple mouse",
    "pink": "Pink mouse",
    "white": "White mouse",
    "black": "Black mouse",
    "grey": "Grey mouse",
    "brown": "Brown mouse",
}


def seat_label(t, names, index: int) -> str:
    """The name given to seat ``index`` (0-based) in ``names``, else "Player N"."""
    return names[index] if names and names[index] else t("Player {n}", n=index + 1)


def player_label(app, index: int) -> str:
    return seat_label(app.t, app.session.game.options.names, index)


def ask_names(app, count: int, then, hint: str = "") -> None:
    """Each seat's name, or none; ``then`` gets a tuple by seat (None: unnamed) or None.

    ``hint`` (who sits in seat 1, where the game says) is shown under the choices.
    """
    t = app.t
    names: list[str | None] = [None] * count

    def seat(i: int) -> None:
        if i == count:
            remember(app, [name for name in names if name])
            then(tuple(names) if any(names) else None)
            return
        title = t("Player {n}: name", n=i + 1)
        taken = set(names[:i])
        known = [name for name in app.setting("names") if name not in taken]

        def chosen(name: str | None) -> None:
            if name is not None and name in taken:
                app.notice(title, [t("{name} is taken by another player.", name=name)])
                return
            names[i] = name
            seat(i + 1)

        items = [Item(name, lambda name=name: chosen(name), hint) for name in known]
        items.append(Item(t("New name …"), lambda: app.push(NameEntry(app, title, chosen)), hint))
        items.append(Item(t("No name"), lambda: chosen(None), hint))
        app.push(Menu(app, title, items))

    items = [
        Item(t("No names"), lambda: then(None), hint),
        Item(t("Choose the names"), lambda: seat(0), hint),
    ]
    app.push(Menu(app, t("Names"), items))


class NameEntry(LetterEntry):
    """A new name: the letter wheel of every build, and with colour buttons two presses a
    letter, each letter where a family would look for it, none far away.

    The panel shows each group's first letter in button order; a colour picks that group,
    and the panel shows its letters in button order; a second colour adds one. BACK
    forgets a group picked. After a letter from the colours the wheel stands on "done",
    so OK finishes the name (the wheel is still one press from "A").
    """

    def __init__(self, app, title: str, done) -> None:
        super().__init__(app, title, done)
        self.group: int | None = None

    def draw(self, canvas) -> None:
        super().draw(canvas)
        if self.app.has_colour_buttons:
            shown = GROUPS[self.group] if self.group is not None else [g[0] for g in GROUPS]
            letters = " ".join(self._shown(letter) for letter in shown)
            canvas.row(1, self.t("Colours: {letters}", letters=letters))

    def button(self, name: str) -> None:
        if name in COLOURS:
            if self.app.has_colour_buttons:
                self._colour(COLOURS.index(name))
            return
        if name == "back" and self.group is not None:
            self.group = None
            return
        self.group = None
        super().button(name)

    def _colour(self, index: int) -> None:
        if self.group is None:
            self.group = index
            return
        letters = GROUPS[self.group]
        if index >= len(letters):  # said, and the group stays shown
            LOG.info("no letter under %s in the letter group %d", COLOURS[index], self.group)
            shown = " ".join(self._shown(letter) for letter in letters)
            lines = [self.t("No letter on that button: one of {letters}.", letters=shown)]
            self.app.notice(self.title, lines)
            return
        self.group = None
        if len(self.entered) < self.length:
            self.entered += self._shown(letters[index])
            self.cursor = WHEEL.index(DONE)


def remember(app, names: list[str]) -> None:
    """The names just given first, then the others the box knew."""
    if names:
        known = [name for name in app.setting("names") if name not in names]
        app.set_setting("names", (names + known)[:REMEMBERED])


def _one_each(app, seats: list[str], choices: list[tuple[str, str]], title, then) -> None:
    """Each seat in turn picks one of ``choices`` (id, label), none taken twice; ``then``
    gets the ids by seat. ``title(who)`` is the heading that names the seat."""
    picked: list[str] = []

    def seat(i: int) -> None:
        if i == len(seats):
            then(tuple(picked))
            return

        def pick(choice: str) -> None:
            del picked[i:]  # BACK may have led here again
            picked.append(choice)
            seat(i + 1)

        items = [
            Item(label, lambda choice=choice: pick(choice))
            for choice, label in choices
            if choice not in picked[:i]
        ]
        app.push(Menu(app, title(seats[i]), items))

    seat(0)


def ask_penguins(app, seats: list[str], penguins, then) -> None:
    """The penguin card each seat was dealt, or the app deals: a tuple of ids, or None."""
    t = app.t
    choices = [(p.id, penguin_label(t, p.name, p.colour)) for p in penguins]
    title = lambda who: t("{who}: penguin", who=who)  # noqa: E731 - one line, read once
    items = [
        Item(t("The app deals"), lambda: then(None)),
        Item(t("We dealt real cards"), lambda: _one_each(app, seats, choices, title, then)),
    ]
    app.push(Menu(app, t("Penguins"), items))


def ask_first(app, seats: list[str], hint: str, then) -> None:
    """Who starts (a seat, 0-based), or None for the app's draw; the rulebook's hint shown."""
    t = app.t
    items = [Item(t("The app draws"), lambda: then(None), detail=hint)]
    items += [Item(who, lambda i=i: then(i), detail=hint) for i, who in enumerate(seats)]
    app.push(Menu(app, t("First player"), items))


def ask_mice(app, seats: list[str], then) -> None:
    """Each seat's mouse colour, or numbered mice: a tuple of colour ids, or None.

    Each seat picks from the box's pawn colours; until the owner has marked them, the
    first "Choose the colours" asks for them (``PawnPicker``), once."""
    t = app.t
    title = lambda who: t("{who}: mouse", who=who)  # noqa: E731 - one line, read once

    def each_seat(pawns: list[str]) -> None:
        choices = [(colour, t(label)) for colour, label in MOUSE_COLOURS.items() if colour in pawns]
        _one_each(app, seats, choices, title, then)

    def colours() -> None:
        if app.setting("pawn_colours"):
            each_seat(app.setting("pawn_colours"))
            return

        def marked(pawns: list[str]) -> None:
            app.pop(picker)  # BACK from the first seat leads to "Mouse colours"
            each_seat(pawns)

        picker = PawnPicker(app, marked)
        app.push(picker)

    items = [
        Item(t("Numbered mice"), lambda: then(None)),
        Item(t("Choose the colours"), colours),
    ]
    app.push(Menu(app, t("Mouse colours"), items))


class PawnPicker(Marks):
    """The colours of the box's mouse pawns, marked once: OK marks or unmarks a colour,
    then "That is all" keeps exactly ``MOUSE_PAWNS`` of them in the ``pawn_colours``
    setting (any other count is refused, and says so) and hands them to ``done``."""

    def __init__(self, app, done) -> None:
        t, self.done = app.t, done
        choices = [(colour, t(label)) for colour, label in MOUSE_COLOURS.items()]
        hint = t("Mark the colours of the box's {n} mouse pawns.", n=MOUSE_PAWNS)
        marked = app.setting("pawn_colours")
        super().__init__(app, t("Pawn colours"), choices, self._chosen, hint, marked)

    def _chosen(self, pawns: list[str]) -> None:
        if len(pawns) != MOUSE_PAWNS:
            marked = len(pawns)
            LOG.info("pawn colours refused: %d marked, the box has %d pawns", marked, MOUSE_PAWNS)
            line = self.t.plural(
                "The box has {n} mouse pawn: mark {n} colour, not {marked}.",
                "The box has {n} mouse pawns: mark {n} colours, not {marked}.",
                MOUSE_PAWNS,
                marked=marked,
            )
            self.app.notice(self.t("Not possible"), [line])
            return
        self.app.set_setting("pawn_colours", pawns)
        self.done(pawns)


def mouse_label(t, mouse: str, index: int) -> str:
    """A mouse by its colour, or "Mouse N" where the table did not say."""
    return t(MOUSE_COLOURS[mouse]) if mouse in MOUSE_COLOURS else t("Mouse {n}", n=index + 1)
