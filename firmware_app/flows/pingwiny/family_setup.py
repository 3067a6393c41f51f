"""Setting up a family game: the wizard's questions and the table's layout, step by step."""

import logging

from firmware_app.flows.pingwiny.virtual import ask_virtual
from firmware_app.flows.shared.seats import (
    ask_first,
    ask_names,
    ask_penguins,
    player_label,
    seat_label,
)
from firmware_app.session import Session
from firmware_app.ui.screens import Item, Menu
from firmware_app.words.i18n import data_label
from firmware_app.words.table_text import counted, penguin_name
from rules.colours import COLOURS
from rules.errors import RulesError
from rules.pingwiny.options import Options

LOG = logging.getLogger("tableside.setup")


class Wizard:
    """Asks the setup questions one menu at a time, then starts the game.

    The advanced variant's wizard builds on this one: it asks one more
    question (the die) and lays out a different table, so those steps are
    methods it overrides.
    """

    variant = "family"

    def __init__(self, app) -> None:
        self.app, self.t = app, app.t
        self.choices: dict = {"bag": app.setting("bag"), "deck": app.setting("deck")}

    def _ask(self, title: str, options: list[tuple[str, object]], key: str, then) -> Menu:
        def choose(value):
            self.choices[key] = value
            depth = len(self.app.stack)
            screen = then()
            # a notice raised while the next question was built (an owner's file kept
            # aside) stays above it, to be read first
            self.app.stack[depth:] = [screen, *self.app.stack[depth:]]

        items = [Item(label, lambda v=value: choose(v)) for label, value in options]
        return Menu(self.app, title, items)

    def players(self) -> Menu:
        t = self.t
        options = [(t.plural("{n} player", "{n} players", n), n) for n in (2, 3, 4)]
        return self._ask(t("Players"), options, "players", self.length)

    def length(self) -> Menu:
        t = self.t
        options = [(t("Normal game"), False), (t("Short game"), True)]
        return self._ask(t("Length"), options, "short", self.bag)

    def bag(self) -> Menu:
        t = self.t
        options = [(t("The app draws tokens"), "app"), (t("We draw from the bag"), "table")]
        return self._ask(t("Token bag"), options, "bag", self.deck)

    def deck(self) -> Menu:
        t = self.t
        options = [(t("The app shuffles cards"), "app"), (t("We shuffle real cards"), "table")]
        return self._ask(t("Figurant deck"), options, "deck", self.after_deck)

    def after_deck(self) -> Menu:
        return self.cards()

    def cards(self) -> Menu:
        t = self.t
        from firmware_app.flows.shared.teach import own_cards

        app_bag = self.choices["bag"] == "app"
        items = [Item(t("Our own cards"), lambda: own_cards(self.app, self.seats, app_bag))]
        demo = self.app.catalogue(demo=True)
        items.append(Item(t("Demo deck (made up)"), lambda: self.seats(demo)))
        return Menu(self.app, t("Cards"), items)

    def seats(self, catalogue) -> None:
        """The names, the penguins dealt and who starts, each the app's unless told; then begin."""
        app, t, count = self.app, self.t, self.choices["players"]

        def named(names) -> None:
            self.choices["names"] = names
            seats = [seat_label(t, names, i) for i in range(count)]
            ask_penguins(app, seats, catalogue.penguins, lambda penguins: dealt(penguins, seats))

        def dealt(penguins, seats: list[str]) -> None:
            self.choices["penguins"] = penguins
            hint = t("Rulebook: who last visited a zoo starts.")
            ask_first(app, seats, hint, lambda first: drawn(first, seats))

        def drawn(first: int | None, seats: list[str]) -> None:
            self.choices["first"] = first
            ask_virtual(app, seats, lambda virtual: seated(virtual))

        def seated(virtual) -> None:
            self.choices["virtual"] = virtual
            self.begin(catalogue)

        ask_names(app, count, named)

    def options(self, seed: int) -> Options:
        c = self.choices
        return Options(
            players=c["players"],
            short=c["short"],
            bag=c["bag"],
            deck=c["deck"],
            seed=seed,
            names=c["names"],
            penguins=c["penguins"],
            first=c["first"],
            virtual=c["virtual"],
        )

    def pages(self) -> list[tuple[str, list[str]]]:
        return setup_pages(self.app)

    def begin(self, catalogue) -> None:
        app = self.app
        game = ("pingwiny", self.variant)
        options = self.options(app.seed())
        try:
            app.session = Session.start(app.journal, options, catalogue, now=app.clock(), game=game)
        except RulesError as error:
            LOG.info("setup refused: %s", error.text("en"))
            app.notice(self.t("Not allowed"), [app.t.refusal(error)])
            return
        app.show_game()
        for title, lines in reversed(self.pages()):
            app.notice(title, lines)


def setup_pages(app) -> list[tuple[str, list[str]]]:
    """Step-by-step setup of the real table, matching the app's deal."""
    t, game, s = app.t, app.session.game, app.session.state
    label = game.cards.demo_label
    pages = []
    if label:
        pages.append((t("Cards"), [t("Playing with the {deck}.", deck=data_label(t, label))]))
    penguins = [
        t("{who}: {penguin}", who=player_label(app, i), penguin=penguin_name(t, game, p.penguin))
        for i, p in enumerate(s.players)
    ]
    pages.append((t("Penguins"), penguins))
    first = t("{who} starts: first-player marker.", who=player_label(app, s.first))
    pages.append((t("First player"), [first]))
    missions = [game.cards.missions[m].name for m in s.missions]
    pages.append((t("Missions"), [t("Above the board:")] + missions))
    if game.app_deck:
        laid = [
            t("{space}. {card}", space=i + 1, card=game.cards.figurants[c].name)
            for i, c in enumerate(s.faceup)
        ]
        pages.append((t("Figurants"), [t("Lay face up below the board:")] + laid))
    else:
        pages.append(
            (
                t("Figurants"),
                [t("Shuffle the deck, lay {n} cards face up, name each one.", n=len(s.faceup))],
            )
        )
    if game.app_bag:
        hands = [
            t("{who}: {tokens}", who=player_label(app, i), tokens=counted(t, _colours(p.tokens)))
            for i, p in enumerate(s.players)
        ]
        pages.append((t("Tokens"), [t("The app is the bag. Take from the pile:")] + hands))
    else:
        pages.append((t("Tokens"), [t("All tokens into the bag; each player draws 5.")]))
    return pages


def _colours(counts: tuple[int, ...]) -> list[str]:
    return [COLOURS[c] for c, n in enumerate(counts) for _ in range(n)]
