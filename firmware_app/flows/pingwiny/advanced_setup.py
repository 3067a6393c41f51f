"""Setting up an advanced game: the wizard's questions and the table's layout, step by step."""

from dataclasses import replace

from firmware_app.flows.pingwiny.advanced_table import colours_of
from firmware_app.flows.pingwiny.family_setup import Wizard, own_deck_lines
from firmware_app.flows.shared.seats import player_label
from firmware_app.ui.screens import Menu
from firmware_app.words.i18n import card_name, deck_sentence
from firmware_app.words.score_sheet import demo_lines
from firmware_app.words.table_text import counted, grey_beside, penguin_name
from rules.pingwiny.options import Options


class AdvancedWizard(Wizard):
    """The family wizard's questions, the die, and the advanced table's layout."""

    variant = "advanced"

    def after_deck(self) -> Menu:
        t = self.t
        options = [(t("The app rolls the die"), "app"), (t("We roll a real die"), "table")]
        return self._ask(t("Officer X's die"), options, "die", self.cards)

    def options(self, seed: int) -> Options:
        return replace(super().options(seed), die=self.choices["die"])

    def pages(self) -> list[tuple[str, list[str]]]:
        return setup_pages(self.app, self.switched)


def setup_pages(app, switched: bool = False) -> list[tuple[str, list[str]]]:
    """Step-by-step setup of the advanced table, matching the app's deal; ``switched``: the
    table asked the app to shuffle, and the app could not."""
    t, game, s = app.t, app.session.game, app.session.state
    pages = []
    if game.cards.demo_label:
        pages.append((t("Cards"), [deck_sentence(t, game.cards.demo_label)]))
    rows = [
        t(
            "Row {n}: {tiles}",
            n=r + 1,
            tiles=", ".join(t.name(x) for x in s.layout[r * 3 : r * 3 + 3]),
        )
        for r in range(3)
    ]
    pages.append((t("Board"), [t("Lay the tiles, Headquarters in the middle:")] + rows))
    penguins = [
        t("{who}: {penguin}", who=player_label(app, i), penguin=penguin_name(t, game, p.penguin))
        for i, p in enumerate(s.players)
    ]
    pages.append((t("Penguins"), penguins + [t("Every penguin starts on Headquarters.")]))
    first = t("{who} starts: first-player marker.", who=player_label(app, s.first))
    pages.append((t("First player"), [first]))
    if game.app_deck:
        laid = [
            t("{space}. {card}", space=i + 1, card=card_name(t, game.cards.figurants[c]))
            for i, c in enumerate(s.faceup)
        ]
        pages.append((t("Figurants"), [t("Lay face up below the board:")] + laid))
        missions = [card_name(t, game.cards.missions[m]) for m in s.mission_row]
        pages.append((t("Missions above board"), missions))
    else:
        n = len(s.faceup)
        lines = [t("Shuffle the deck, lay {n} cards face up, name each one.", n=n)]
        pages.append((t("Figurants"), lines + own_deck_lines(app, switched)))
        n = len(s.mission_row)
        pages.append(
            (t("Missions"), [t("Shuffle the missions, lay {n} face up, name each one.", n=n)])
        )
    if game.app_bag:
        hands = [
            t("{who}: {tokens}", who=player_label(app, i), tokens=counted(t, colours_of(p.tokens)))
            for i, p in enumerate(s.players)
        ]
        pages.append((t("Tokens"), [t("The app is the bag. Take from the pile:")] + hands))
    else:
        pages.append((t("Tokens"), [t("All tokens but grey into the bag; each player draws 5.")]))
    pages.append(
        (
            t("Grey tokens"),
            [
                *demo_lines(t, game),
                grey_beside(t, game, s),
                t("Officer X markers beside the board."),
            ],
        )
    )
    return pages
