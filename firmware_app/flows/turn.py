"""A player's turn: what is left to do, and only the legal choices.

The menus are built from the engine's ``legal_actions``, so the screen can
never offer a move the rules refuse. Colours drawn from the real bag are
entered with the colour buttons (or a colour menu); cards are chosen from a
menu or by tapping their tag.
"""

from collections import Counter

from firmware_app.flows.seats import player_label
from firmware_app.table_text import counted, exchange_label, penguin_name
from firmware_app.ui.screens import ColourEntry, Item, Menu
from rules.colours import COLOURS

LOCATION_ORDER = (
    "chimp",
    "gorilla",
    "shop",
    "storehouse",
    "otter",
    "lemur",
    "gate",
    "gastro",
    "hq",
)


def turn_screen(app) -> Menu:
    session, t = app.session, app.t
    game, s = session.game, session.state
    legal = game.legal_actions(s)
    who = f"{player_label(app, s.current)}: {s.players[s.current].penguin.capitalize()}"
    if s.pending:
        title, right = t("Lay out space {space}", space=s.pending[0] + 1), ""
        items = [Item(game.cards.figurants[a[1]].name, lambda a=a: app.act(str(a))) for a in legal]
        return TurnMenu(app, title, items + extras(app), right)
    if s.phase == "draw":
        right = t("draw {n}", n=s.draw_count)
        if game.app_bag:
            items = [Item(t("Draw {n} tokens", n=s.draw_count), lambda: app.act("draw"))]
        else:
            items = [Item(t("Enter the tokens drawn"), lambda: _enter_draw(app))]
        return TurnMenu(app, who, items + extras(app), right)
    right = t("visit {n}/2", n=3 - s.visits_left)
    by_location: dict[str, list] = {}
    for action in legal:
        by_location.setdefault(action[1], []).append(action)
    items = [
        _location_item(app, location, by_location[location])
        for location in LOCATION_ORDER
        if location in by_location
    ]
    return TurnMenu(app, who, items + extras(app), right)


class TurnMenu(Menu):
    """The turn's choices; BACK stays here, a tapped card is played if it can be."""

    def __init__(self, app, title: str, items: list[Item], right: str) -> None:
        super().__init__(app, title, items, right, back=app.home)
        self.moves = len(items) - len(EXTRAS)

    def card(self, card_id: str) -> None:
        on_card(self.app, card_id)


EXTRAS = (
    "Hint",
    "Score so far",
    "Table status",
    "Help",
    "Correct the table",
    "Undo",
    "Redo",
    "Settings",
    "End game",
)


def extras(app) -> list[Item]:
    """Every turn screen also offers the score so far, help, corrections and settings."""
    from firmware_app.flows.correct import correction_menu
    from firmware_app.flows.end import end_game, score_pages
    from firmware_app.flows.help import help_menu
    from firmware_app.flows.settings import settings_menu

    t = app.t
    runs = (
        app.hint,
        lambda: app.push(score_pages(app, final=False)),
        lambda: app.notice(t("Table"), status_lines(app)),
        lambda: app.push(help_menu(app)),
        lambda: app.push(correction_menu(app)),
        app.undo,
        app.redo,
        lambda: app.push(settings_menu(app)),
        lambda: end_game(app),
    )
    return [Item(t(label), run) for label, run in zip(EXTRAS, runs, strict=True)]


def _enter_draw(app) -> None:
    s = app.session.state
    count = min(s.draw_count, sum(s.bag))
    if count == 0:
        app.act("draw")  # the bag is empty: nothing to enter
        return
    allowed = [c for i, c in enumerate(COLOURS) if s.bag[i]]
    entry = ColourEntry(
        app,
        app.t("Tokens drawn"),
        app.t("Colours drawn ({n}):", n=count),
        lambda colours: app.act("draw " + " ".join(colours)),
        count=count,
        allowed=allowed,
    )
    app.push(entry)


def _location_item(app, location: str, actions: list) -> Item:
    t = app.t
    name = t.name(location)
    game = app.session.game
    if location in ("chimp", "gorilla", "shop", "storehouse", "gate") or (
        location == "otter" and game.app_bag
    ):
        return Item(name, lambda: app.act(str(actions[0])))
    if location == "otter":
        colours = [a[2] for a in actions]
        return Item(
            name,
            lambda: app.push(
                ColourEntry(
                    app,
                    name,
                    t("Colour drawn:"),
                    lambda c: app.act(f"visit otter {c[0]}"),
                    count=1,
                    allowed=colours,
                )
            ),
        )
    return Item(name + " …", lambda: app.push(_choices(app, location, actions)))


def _choices(app, location: str, actions: list) -> Menu:
    t, cards = app.t, app.session.game.cards
    if location == "lemur":
        items = [Item(cards.missions[a[2]].name, lambda a=a: app.act(str(a))) for a in actions]
    elif location == "gastro":
        items = [Item(exchange_label(t, a[2]), lambda a=a: app.act(str(a))) for a in actions]
    else:
        by_card: dict[str, list] = {}
        for action in actions:
            by_card.setdefault(action[2], []).append(action)
        items = [
            Item(cards.figurants[card].name, lambda ways=ways: _pay(app, ways))
            for card, ways in by_card.items()
        ]
    return Menu(app, t.name(location), items)


def _pay(app, ways: list) -> None:
    """One way to pay: act at once; several (grey as a joker): ask which."""
    if len(ways) == 1:
        app.act(str(ways[0]))
        return
    t = app.t
    items = [Item(payment_label(t, a), lambda a=a: app.act(str(a))) for a in ways]
    app.push(Menu(app, t("Pay with"), items))


def payment_label(t, action) -> str:
    if len(action) < 4:
        return t("Without grey")
    colours = action[3].partition("=")[2].split("+")
    return t("Grey for {colours}", colours=counted(t, colours))


def on_card(app, card: str) -> None:
    """A tapped card: name the revealed card, take a mission, or acquire a figurant."""
    session = app.session
    legal = session.game.legal_actions(session.state)
    matching = [a for a in legal if card in a[1:3]]
    if not matching:
        app.notice(app.t("Card"), [app.t("That card cannot be played now.")])
    elif matching[0][0] == "visit" and matching[0][1] == "hq":
        _pay(app, matching)
    else:
        app.act(str(matching[0]))


def status_lines(app) -> list[str]:
    """Who holds what, and what lies on the board, as the app sees it."""
    t, game, s = app.t, app.session.game, app.session.state
    lines = []
    for i, p in enumerate(s.players):
        tokens = counted(t, [COLOURS[c] for c, n in enumerate(p.tokens) for _ in range(n)])
        lines.append(f"{player_label(app, i)}: {penguin_name(t, game, p.penguin)}")
        lines.append("  " + (tokens or "—"))
        lines.append("  " + t("{n} figurants", n=len(p.figurants)))
        if p.mission:
            lines.append("  " + game.cards.missions[p.mission].name)
    board = Counter({COLOURS[c]: n for c, n in enumerate(s.board) if n})
    lines.append(t("Board: {tokens}", tokens=counted(t, list(board.elements())) or "—"))
    lines.append(t("Bag: {n} tokens, deck: {d} cards", n=sum(s.bag), d=s.deck_size))
    return lines
