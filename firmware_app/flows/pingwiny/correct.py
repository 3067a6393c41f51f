"""The correction screens: make the app's picture match the real table.

Each correction is one ``correct`` action, checked and journaled like a
move, so it can be undone and it shows in the exported record.
"""

from firmware_app.flows.shared.seats import player_label
from firmware_app.ui.screens import ColourEntry, Item, Menu, Notice
from firmware_app.words.i18n import card_name
from rules.catalogue.teaching import identified


def correction_menu(app) -> Menu:
    t = app.t
    items = [
        Item(t("A token is elsewhere"), lambda: _token(app)),
        Item(t("A face-up card differs"), lambda: _faceup(app)),
        Item(t("A card is someone else's"), lambda: _owner(app)),
        Item(t("A penguin differs"), lambda: _penguin(app)),
    ]
    return Menu(app, t("Correct the table"), items)


def _places(app) -> list[tuple[str, str]]:
    t, s = app.t, app.session.state
    places = [(t("the bag"), "bag"), (t("the board"), "board"), (t("the box"), "box")]
    return places + [(player_label(app, i), f"p{i + 1}") for i in range(len(s.players))]


def _token(app) -> None:
    t = app.t

    def colour_chosen(colours: list[str]) -> None:
        app.pop()
        app.push(_pick(app, t("From"), _places(app), lambda source: to(colours[0], source)))

    def to(colour: str, source: str) -> None:
        app.push(
            _pick(
                app,
                t("To"),
                _places(app),
                lambda target: _done(app, f"correct token {colour} {source} {target}"),
            )
        )

    app.push(ColourEntry(app, t("Token"), t("Which colour?"), colour_chosen, count=1))


def _faceup(app) -> None:
    t, game, s = app.t, app.session.game, app.session.state
    spaces = [
        (f"{i + 1}. {card_name(t, game.cards.figurants[c]) if c else '—'}", str(i + 1))
        for i, c in enumerate(s.faceup)
    ]
    in_deck = sorted({c for group in s.deck for c in group})
    cards = [  # the cards the table can find by name (``flows.shared.cards``)
        (card_name(t, game.cards.figurants[c]), c)
        for c in in_deck
        if identified("figurant", c, game.cards.figurants[c].name)
    ]

    def space_chosen(space: str) -> None:
        app.push(
            _pick(
                app,
                t("Real card"),
                cards,
                lambda card: _done(app, f"correct faceup {space} {card}"),
            )
        )

    app.push(_pick(app, t("Space"), spaces, space_chosen))


def _owner(app) -> None:
    t, game, s = app.t, app.session.game, app.session.state
    held = [(card_name(t, game.cards.figurants[f]), f) for p in s.players for f in p.figurants]
    players = [(player_label(app, i), f"p{i + 1}") for i in range(len(s.players))]

    def card_chosen(card: str) -> None:
        app.push(
            _pick(app, t("Belongs to"), players, lambda p: _done(app, f"correct owner {card} {p}"))
        )

    app.push(_pick(app, t("Card"), held, card_chosen))


def _penguin(app) -> None:
    t, game, s = app.t, app.session.game, app.session.state
    players = [(player_label(app, i), f"p{i + 1}") for i in range(len(s.players))]
    penguins = [(p.capitalize(), p) for p in game.cards.penguins]

    def player_chosen(player: str) -> None:
        app.push(
            _pick(
                app, t("Penguin"), penguins, lambda p: _done(app, f"correct penguin {player} {p}")
            )
        )

    app.push(_pick(app, t("Player"), players, player_chosen))


def _pick(app, title: str, options: list[tuple[str, str]], then):
    """A menu of the options, or a notice when there is nothing to choose from."""
    if not options:
        return Notice(app, title, [app.t("Nothing to correct here.")])
    return Menu(app, title, [Item(label, lambda v=value: then(v)) for label, value in options])


def _done(app, action: str) -> None:
    app.act(action)
