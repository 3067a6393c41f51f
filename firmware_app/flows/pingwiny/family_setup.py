"""Setting up a family game: the wizard's questions and the table's layout, step by step."""

import logging
from dataclasses import replace

from firmware_app.flows.pingwiny.virtual import ask_virtual
from firmware_app.flows.shared.cards import new_to_app
from firmware_app.flows.shared.seats import (
    ask_first,
    ask_names,
    ask_penguins,
    player_label,
    seat_label,
)
from firmware_app.session import Session
from firmware_app.ui.screens import Item, Menu
from firmware_app.words.i18n import card_name, deck_sentence
from firmware_app.words.table_text import counted, penguin_name
from rules.catalogue.teaching import unidentified_in_play
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
        self.switched = False  # the app's deck asked for, the table's given: cards not named

    def _ask(
        self, title: str, options: list[tuple[str, object]], key: str, then, details=()
    ) -> Menu:
        """A question; ``details`` (one a choice, when given) say more under the choice."""

        def choose(value):
            self.choices[key] = value
            depth = len(self.app.stack)
            screen = then()
            # a notice raised while the next question was built (an owner's file kept
            # aside) stays above it, to be read first
            self.app.stack[depth:] = [screen, *self.app.stack[depth:]]

        details = [*details, *[""] * (len(options) - len(details))]
        items = [
            Item(label, lambda v=value: choose(v), detail=detail)
            for (label, value), detail in zip(options, details, strict=True)
        ]
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
        from firmware_app.flows.shared.teach import own_mix_known

        t = self.t
        options = [(t("The app draws tokens"), "app"), (t("We draw from the bag"), "table")]
        details = []
        if not own_mix_known(self.app):  # "we don't know" the mix: only with our own bag
            details = [
                t("With our own cards, count their tokens once first."),
                t("With our own cards, their mix may stay unknown."),
            ]
        return self._ask(t("Token bag"), options, "bag", self.deck, details=details)

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
        return setup_pages(self.app, self.switched)

    def begin(self, catalogue) -> None:
        app = self.app
        game = ("pingwiny", self.variant)
        options = self.options(app.seed())
        unknown = unidentified_in_play(catalogue, self.variant, options.short)
        if options.deck == "app" and unknown:  # the app cannot send the table to find them
            LOG.info("%d cards not known by name: the table shuffles its own deck", unknown)
            options = replace(options, deck="table")
            self.switched = True
        try:
            app.session = Session.start(app.journal, options, catalogue, now=app.clock(), game=game)
        except RulesError as error:
            LOG.info("setup refused: %s", error.text("en"))
            app.notice(self.t("Not allowed"), [app.t.refusal(error)])
            return
        app.show_game()
        for title, lines in reversed(self.pages()):
            app.notice(title, lines)


def own_deck_lines(app, switched: bool) -> list[str]:
    """Why the table shuffles (when it asked the app to) and what to do with a card the
    app cannot name yet."""
    t, n = app.t, new_to_app(app.session.game)
    if not n:
        return []
    lines = [t("The app shuffles once it knows every card by name.")] if switched else []
    return lines + [
        t.plural(
            '{n} card is new to the app: when it comes up, choose "Not in this list".',
            '{n} cards are new to the app: when one comes up, choose "Not in this list".',
            n,
        )
    ]


def setup_pages(app, switched: bool = False) -> list[tuple[str, list[str]]]:
    """Step-by-step setup of the real table, matching the app's deal; ``switched``: the
    table asked the app to shuffle, and the app could not."""
    t, game, s = app.t, app.session.game, app.session.state
    label = game.cards.demo_label
    pages = []
    if label:
        pages.append((t("Cards"), [deck_sentence(t, label)]))
    penguins = [
        t("{who}: {penguin}", who=player_label(app, i), penguin=penguin_name(t, game, p.penguin))
        for i, p in enumerate(s.players)
    ]
    pages.append((t("Penguins"), penguins))
    first = t("{who} starts: first-player marker.", who=player_label(app, s.first))
    pages.append((t("First player"), [first]))
    missions = [card_name(t, game.cards.missions[m]) for m in s.missions]
    pages.append((t("Missions above board"), missions))
    if game.app_deck:
        laid = [
            t("{space}. {card}", space=i + 1, card=card_name(t, game.cards.figurants[c]))
            for i, c in enumerate(s.faceup)
        ]
        pages.append((t("Figurants"), [t("Lay face up below the board:")] + laid))
    else:
        lines = [t("Shuffle the deck, lay {n} cards face up, name each one.", n=len(s.faceup))]
        pages.append((t("Figurants"), lines + own_deck_lines(app, switched)))
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
