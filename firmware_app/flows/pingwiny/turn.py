"""A player's turn: what is left to do, and only the legal choices.

The menus are built from the engine's ``legal_actions``, so the screen can
never offer a move the rules refuse. Colours drawn from the real bag are
entered with the colour buttons (or a colour menu); cards are chosen from a
menu or by tapping their tag.
"""

from collections import Counter

from firmware_app.flows.shared.cards import reveal_items
from firmware_app.flows.shared.seats import player_label
from firmware_app.ui.canvas import shortened, title_bar
from firmware_app.ui.screens import ColourEntry, Item, Menu, Notice
from firmware_app.words.i18n import card_name
from firmware_app.words.score_sheet import demo_lines
from firmware_app.words.table_text import (
    bag_line,
    cost_initials,
    counted,
    payment_words,
    penguin_name,
)
from rules.actions import Action
from rules.colours import COLOURS
from rules.errors import RulesError
from rules.pingwiny import exchange

# Headquarters first when a card can be paid, then the Gastro zone (the exchange that
# makes a cost payable, the visit a table makes most after buying), then the Zoo gate
# (a new row when nothing face up suits: the next most visited, benchmarks/presses.py).
LOCATION_ORDER = (
    "hq",
    "gastro",
    "gate",
    "chimp",
    "gorilla",
    "shop",
    "storehouse",
    "otter",
    "lemur",
)


def lasting(app) -> str:
    """What holds until it ends, for the title bar: the last round."""
    return app.t("last round") if app.session.state.last_round else ""


def turn_bar(app, *notes: str) -> tuple[str, str]:
    """The title bar of a player's turn: the name whole, ``notes`` (the most needed
    first), and the penguin where they leave room."""
    s = app.session.state
    name, penguin = player_label(app, s.current), s.players[s.current].penguin.capitalize()
    return title_bar(name, penguin, list(notes))


def noted(*notes: str) -> str:
    """The title bar's right-hand notes, the lasting state first."""
    return " ".join(note for note in notes if note)


def hand_off(app, lines: list[str]) -> None:
    """The turn passed: the next player's name and the bag in the notice's title.

    Every turn that passes shows it, even one that left the table nothing to do,
    so the next player's first press is never spent on the last player's menu.
    When the app is the bag, OK on the last page also draws the new player's
    tokens, so the hand-off costs no press of its own.
    """
    t, game, s = app.t, app.session.game, app.session.state
    who = player_label(app, s.current)
    title = t("Bag to {who}", who=who)
    ok = None
    if s.phase == "draw" and game.app_bag and not s.pending:
        lines = lines + [t.plural("OK: draw {n} token", "OK: draw {n} tokens", s.draw_count)]
        ok = lambda: app.act("draw")  # noqa: E731 - the notice's OK
    app.handed_off()
    app.push(Notice(app, title, lines or [t("{who}, your turn.", who=who)], ok=ok))


def kept_for(app, name: str) -> str:
    """A remembering menu's name for the player to move in this game: a choice is
    offered again to the one who made it, never to the next player or another game."""
    session = app.session
    return f"{name} {session.game_id} {session.state.current}"


def turn_screen(app) -> Menu:
    session, t = app.session, app.t
    game, s = session.game, session.state
    legal = game.legal_actions(s)
    if s.pending:
        title = t("Lay out space {space}", space=s.pending[0] + 1)
        return TurnMenu(app, title, reveal_items(app, legal), extras(app), lasting(app))
    if s.phase == "draw":
        who, right = turn_bar(app, t("draw {n}", n=s.draw_count), lasting(app))
        if game.app_bag:
            label = t.plural("Draw {n} token", "Draw {n} tokens", s.draw_count)
            items = [Item(label, lambda: app.act("draw"))]
        else:
            items = [Item(t("Enter the tokens drawn"), lambda: _enter_draw(app))]
        return TurnMenu(app, who, items, extras(app), right)
    who, right = turn_bar(app, t("visit {n}/2", n=3 - s.visits_left), lasting(app))
    by_location: dict[str, list] = {}
    for action in legal:
        by_location.setdefault(action[1], []).append(action)
    items = [
        _location_item(app, location, by_location[location])
        for location in LOCATION_ORDER
        if location in by_location
    ]
    missing = [loc for loc in LOCATION_ORDER if loc not in by_location]
    aside = [why_not_item(app, why_not_visits(app, missing))] if missing else []
    # No remembered cursor: the first item is what can be done now (Headquarters
    # when a card is affordable, else the Gastro zone); benchmarks/presses.py measured it shorter.
    menu = TurnMenu(app, who, items, aside + extras(app), right)
    if "gastro" in by_location:  # a colour button: the Gastro zone, giving that colour
        menu.shortcut = lambda colour: gastro(app, by_location["gastro"], 2, colour)
    return menu


SAID_ROWS = 2  # rows of the table's lines a turn menu shows above its choices


class TurnMenu(Menu):
    """The turn's choices, then the extras; BACK stays here, a tapped card is played.

    ``moves`` counts the items that play the turn (the first ones).
    """

    def __init__(
        self, app, title: str, items: list[Item], aside: list[Item], right: str, remember=None
    ) -> None:
        super().__init__(app, title, items + aside, right, back=app.home, remember=remember)
        self.moves = len(items)
        self.shortcut = None  # what a colour button does here, if anything

    def colour(self, name: str) -> None:
        if self.shortcut is not None:
            self.shortcut(name)
        else:
            super().colour(name)

    def card(self, card_id: str) -> None:
        on_card(self.app, card_id)

    def say(self, lines: list[str]) -> bool:
        """What the action just played asks of the table ("From the bag: blue, green."),
        above the next choices of the same turn when it fits ``SAID_ROWS`` rows: the
        table reads it while choosing, so it costs no notice and no press of its own.

        When it does not fit, the last sentences that do stay here and the first ones
        go on a notice over this menu, if that saves the notice a page ("Take Maurice;
        return …" read first, then "Die 6 (1–2): no Officer X." above the choices):
        the table still reads every sentence, in the order it happened."""
        rows = [len(self.app.wrap(line)) for line in lines]
        kept = len(lines)
        while kept and sum(rows[kept - 1 :]) <= SAID_ROWS:
            kept -= 1
        if kept == 0:
            self.header = list(lines)
            return True
        if kept == len(lines) or _pages(self.app, lines[:kept]) == _pages(self.app, lines):
            return False
        self.header = lines[kept:]
        self.app.notice(self.t("At the table"), lines[:kept])
        return True


def _pages(app, lines: list[str]) -> int:
    """The pages a notice of ``lines`` takes on the panel."""
    return Notice(app, "", lines).pages


def why_not_item(app, reasons: list[str]) -> Item:
    """The entry that says what is not offered now, and the engine's reason."""
    t = app.t
    return Item(t("Why not …"), lambda: app.notice(t("Not offered now"), reasons))


def why_not_visits(app, missing: list[str]) -> list[str]:
    """For each location not offered, why: the engine's own refusals, one sentence a line,
    each under the location's name (a card that cannot be paid is one line of its own)."""
    t, game, s = app.t, app.session.game, app.session.state
    reasons = []
    for location in missing:
        if location == "hq":
            tries = [f"visit hq {card}" for card in s.faceup if card is not None]
            said = [] if tries else [t("No card lies face up.")]
        elif location == "gastro":
            tries, said = [], [t("No exchange you can make.")]
        elif location == "lemur":
            tries, said = [], [t("No mission lies above the board.")]
        else:
            tries, said = [f"visit {location}"], []
        said += dict.fromkeys(r for r in (refusal(app, game, s, a) for a in tries) if r)
        reasons += reason_lines(t.name(location), said)
    return reasons


def reason_lines(place: str, reasons: list[str]) -> list[str]:
    """``Headquarters: Not enough yellow tokens …``: a line per reason, each a sentence."""
    return [f"{place}: {reason}" for reason in reasons]


def refusal(app, game, state, action: str) -> str:
    """The engine's reason for refusing ``action`` now, in the table's words ("" if allowed)."""
    try:
        game.apply(state, Action.parse(action))
    except RulesError as error:
        return app.t.refusal(error, app.session)
    return ""


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


def extras(app, own: dict | None = None) -> list[Item]:
    """A turn screen's last entry, "More …": the hint, the score so far, the table,
    help, corrections, undo and redo, settings and ending the game.

    They open a menu of their own so that a turn's choices stay a short list,
    where UP from the first reaches the last. ``own`` replaces the runs of
    some entries by label (the advanced variant's score sheet, table and help).
    """
    from firmware_app.flows.pingwiny.correct import correction_menu
    from firmware_app.flows.pingwiny.help import help_menu
    from firmware_app.flows.shared.end import end_game, score_pages
    from firmware_app.flows.shared.settings import settings_menu

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
    chosen = dict(zip(EXTRAS, runs, strict=True)) | (own or {})
    items = [Item(t(label), chosen[label]) for label in EXTRAS]
    return [Item(t("More …"), lambda: app.push(More(app, t("More"), items)))]


class More(Menu):
    """A turn screen's extras: nothing here plays the turn (the autopilot leaves it)."""


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
    if location == "gastro":
        return Item(name + " …", lambda: gastro(app, actions, 2))
    return Item(name + " …", lambda: app.push(_choices(app, location, actions)))


def _choices(app, location: str, actions: list) -> Menu:
    t, cards = app.t, app.session.game.cards
    if location == "lemur":
        items = [
            Item(card_name(t, cards.missions[a[2]]), lambda a=a: app.act(str(a))) for a in actions
        ]
        return Menu(app, t.name(location), items, remember=kept_for(app, "lemur"))
    return Headquarters(app, actions, 2)


def gastro(app, actions: list, word: int, give_colour: str | None = None) -> None:
    """The Gastro zone in two choices: the colour you give, then the colour you get.

    The colour buttons choose at once; ``word`` is where the exchange sits in
    an action (``visit gastro GIVE>GET``: 2). With ``give_colour`` (a colour
    button on the turn menu) the first choice is made already.
    """
    t = app.t
    by_give: dict[tuple, list] = {}
    for action in actions:
        give, _ = exchange.PARSED[action[word]]
        by_give.setdefault(give, []).append(action)

    def got(group: list) -> None:
        items = [
            Item(
                counted(t, _named(exchange.PARSED[a[word]][1])),
                _play(app, a),
                colour=_colour_of(a, word),
            )
            for a in group
        ]
        app.push(Menu(app, t("Gastro: you get"), items, remember=kept_for(app, "gastro get")))

    items = [
        Item(counted(t, _named(give)), lambda g=group: got(g), colour=COLOURS[give[0]])
        for give, group in by_give.items()
    ]
    chosen = [item for item in items if item.colour == give_colour]
    if chosen:
        chosen[0].run()
    elif give_colour is None:
        app.push(Menu(app, t("Gastro: you give"), items, remember=kept_for(app, "gastro give")))


def _named(colours: tuple[int, ...]) -> list[str]:
    return [COLOURS[c] for c in colours]


def _colour_of(action, word: int) -> str:
    return COLOURS[exchange.PARSED[action[word]][1][0]]


def _play(app, action):
    return lambda: app.act(str(action))


class Headquarters(Menu):
    """The face-up cards one can pay: cost in colour initials and points, a line each,
    the most points first (the card a table buys most often, benchmarks/presses.py).

    A colour button keeps the cards whose cost has that colour (again: all of
    them). A card payable in several ways (grey as a joker) asks how. The list
    shows even when one card is left: acquiring is never a surprise.
    """

    def __init__(self, app, actions: list, word: int) -> None:
        figurants = app.session.game.cards.figurants
        self.by_card: dict[str, list] = {}
        for action in sorted(actions, key=lambda a: -(figurants[a[word]].points or 0)):
            self.by_card.setdefault(action[word], []).append(action)
        self.app, self.shown_colour = app, None
        super().__init__(app, app.t.name("hq"), self._items(None), remember=kept_for(app, "hq"))

    def _items(self, colour: str | None) -> list[Item]:
        app, game = self.app, self.app.session.game
        items = []
        for card, ways in self.by_card.items():
            if colour is None or game.cards.figurants[card].cost[COLOURS.index(colour)]:
                label = card_line(app, card)
                items.append(Item(label, lambda ways=ways: pay(app, ways)))
        return items

    def colour(self, name: str) -> None:
        self.shown_colour = None if self.shown_colour == name else name
        selected = self.items[self.cursor].label if self.items else None
        self.items = self._items(self.shown_colour) or self._items(None)
        self.cursor = self.index_of(selected)  # the same card, if it is still listed
        self.right = self.t.initial(self.shown_colour) if self.shown_colour else ""


def card_line(app, card: str) -> str:
    """``Becky 2R Y · 3 pts``: a card's name, its cost in colour initials, its points."""
    t, game = app.t, app.session.game
    figurant = game.cards.figurants[card]
    cost = cost_initials(t, figurant.cost)
    points = "?"  # points the table will teach at the score sheet
    if figurant.points is not None:
        points = t.plural("{n} pt", "{n} pts", figurant.points)
    return shortened(card_name(t, figurant), f" {cost} · {points}")


def pay(app, ways: list) -> None:
    """One way to pay: act at once; several (grey as a joker): ask which."""
    if len(ways) == 1:
        app.act(str(ways[0]))
        return
    t = app.t
    items = [Item(payment_label(t, a), lambda a=a: app.act(str(a))) for a in ways]
    app.push(Menu(app, t("Pay with"), items))


def payment_label(t, action) -> str:
    return payment_words(t, tuple(word for word in action if "=" in word))


def on_card(app, card: str) -> None:
    """A tapped card: name the revealed card, take a mission, or acquire a figurant."""
    session = app.session
    legal = session.game.legal_actions(session.state)
    matching = [a for a in legal if card in a[1:3]]
    if not matching:
        app.notice(app.t("Card"), [app.t("That card cannot be played now.")])
    elif matching[0][0] == "visit" and matching[0][1] == "hq":
        pay(app, matching)
    else:
        app.act(str(matching[0]))


def status_lines(app) -> list[str]:
    """Who holds what, and what lies on the board, as the app sees it."""
    t, game, s = app.t, app.session.game, app.session.state
    lines = demo_lines(t, game)
    for i, p in enumerate(s.players):
        tokens = counted(t, [COLOURS[c] for c, n in enumerate(p.tokens) for _ in range(n)])
        lines.append(f"{player_label(app, i)}: {penguin_name(t, game, p.penguin)}")
        lines.append("  " + (tokens or "—"))
        lines.append("  " + t.plural("{n} figurant", "{n} figurants", len(p.figurants)))
        if p.mission:
            lines.append("  " + card_name(t, game.cards.missions[p.mission]))
    board = Counter({COLOURS[c]: n for c, n in enumerate(s.board) if n})
    lines.append(t("Board: {tokens}", tokens=counted(t, list(board.elements())) or "—"))
    lines.append(bag_line(t, game, s))
    lines.append(t.plural("Deck: {n} card", "Deck: {n} cards", s.deck_size))
    return lines


VERBS = {
    "draw": "{who} drew tokens",
    "rummage": "{who} rummaged in the bag",
    "gastro": "{who} went to the Gastro zone",
    "done": "{who} finished the exchanges",
    "penguin": "{who} used the penguin's action",
    "pass": "{who} passed",
    "correct": "a correction of the table",
    "": "{who} played",
}


def describe(app, state, notation: str) -> str:
    """An action in words, as ``state`` (the one it was played in) saw it.

    ``Rico bought Maurice`` rather than ``visit hq maurice``: for undo, which
    says what it took back.
    """
    t, cards = app.t, app.session.game.cards
    action = Action.parse(notation)
    who = player_label(app, state.current)
    words = action[1:] if action.verb == "visit" else action[:]
    verb, rest = (words[0], words[1:]) if words else (action.verb, ())
    if action.verb == "visit" and verb not in ("hq", "gastro", "lemur"):
        return t("{who} visited {place}", who=who, place=t.name(verb))
    if verb == "hq":
        return t("{who} bought {card}", who=who, card=card_name(t, cards.figurants[rest[0]]))
    if verb in ("lemur", "reveal-mission") or (verb == "visit" and rest[:1] == ("lemur",)):
        return t("{who} took {mission}", who=who, mission=card_name(t, cards.missions[rest[-1]]))
    if (verb == "gastro" and rest) or verb == "exchange":
        give, get = exchange.PARSED[rest[0]]
        return t(
            "{who} exchanged {give} for {get}",
            who=who,
            give=counted(t, _named(give)),
            get=counted(t, _named(get)),
        )
    if verb == "reveal":
        return t("{card} laid face up", card=card_name(t, cards.figurants[rest[0]]))
    if verb in ("move", "otter"):
        return t("{who} moved to {place}", who=who, place=t.name(rest[0]))
    if verb == "use":
        return t("{who} used {card}", who=who, card=card_name(t, cards.figurants[rest[0]]))
    if verb == "take":
        return t.plural("{who} took {n} token", "{who} took {n} tokens", int(rest[0]), who=who)
    if verb == "roll":
        return t("the die: {n}", n=rest[0])
    if verb == "officer":
        return t("Officer X to the {place}", place=t.name(rest[0]))
    if verb == "lose":
        return t("a lost {colour} token", colour=t.name(rest[0]))
    if verb == "gate":
        return t("{who} visited {place}", who=who, place=t.name("gate"))
    return t(VERBS[verb if verb in VERBS else ""], who=who)
