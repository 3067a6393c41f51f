"""Who sits where: the players' names, their penguins or mice, and who starts.

Every screen that names a player asks ``player_label``, so the turn, the
corrections and the score sheet say the same thing: the name given at
setup, else "Player 2". The setup wizards ask the seat questions here, each
with a default that one OK takes (no names, the app deals, the app draws):
names come from those the box remembers (the journal's ``names`` setting,
which the configuration's ``[app] names`` fills at first), or are entered
once, letter by letter, and remembered from then on. This module imports
no other screen, so any of them can use it without an import circle.
"""

from firmware_app.ui.screens import Item, LetterEntry, Menu
from firmware_app.words.table_text import penguin_label

REMEMBERED = 20  # names the box keeps, the latest first

# Król Popiel's rulebook does not name the five pawn colours: the table picks
# the nearest of these. Each is a message of its own ("mysz" is feminine).
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
        items.append(Item(t("New name …"), lambda: app.push(LetterEntry(app, title, chosen)), hint))
        items.append(Item(t("No name"), lambda: chosen(None), hint))
        app.push(Menu(app, title, items))

    items = [
        Item(t("No names"), lambda: then(None), hint),
        Item(t("Choose the names"), lambda: seat(0), hint),
    ]
    app.push(Menu(app, t("Names"), items))


def remember(app, names: list[str]) -> None:
    """The names just given first, then the others the box knew."""
    if names:
        known = [name for name in app.setting("names") if name not in names]
        app.set_setting("names", (names + known)[:REMEMBERED])


def _one_each(app, seats: list[str], choices: list[tuple[str, str]], title: str, then) -> None:
    """Each seat in turn picks one of ``choices`` (id, label), none taken twice; ``then``
    gets the ids by seat. ``title`` names the seat (``{who}``)."""
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
        app.push(Menu(app, title.format(who=seats[i]), items))

    seat(0)


def ask_penguins(app, seats: list[str], penguins, then) -> None:
    """The penguin card each seat was dealt, or the app deals: a tuple of ids, or None."""
    t = app.t
    choices = [(p.id, penguin_label(t, p.name, p.colour)) for p in penguins]
    title = t("{who}: penguin", who="{who}")
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
    """Each seat's mouse colour, or numbered mice: a tuple of colour ids, or None."""
    t = app.t
    choices = [(colour, t(label)) for colour, label in MOUSE_COLOURS.items()]
    title = t("{who}: mouse", who="{who}")
    items = [
        Item(t("Numbered mice"), lambda: then(None)),
        Item(t("Choose the colours"), lambda: _one_each(app, seats, choices, title, then)),
    ]
    app.push(Menu(app, t("Mouse colours"), items))


def mouse_label(t, mouse: str, index: int) -> str:
    """A mouse by its colour, or "Mouse N" where the table did not say."""
    return t(MOUSE_COLOURS[mouse]) if mouse in MOUSE_COLOURS else t("Mouse {n}", n=index + 1)
