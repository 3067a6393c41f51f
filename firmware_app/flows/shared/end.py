"""The end: the score sheet line by line, the winner, and ending a game for good.

A game ends only after a question answered yes: finished once the table
accepts the final score, or abandoned from the game menu before its end.
Either way it stays in the journal and is exported.
"""

from firmware_app.flows.shared.score_chart import score_chart_screen
from firmware_app.flows.shared.seats import player_label
from firmware_app.ui.screens import Item, Menu, Notice
from firmware_app.words.score_sheet import demo_lines
from rules.errors import RulesError

DECIDED = {
    "points": "Most points.",
    "figurants": "Tie on points: more figurant cards wins.",
    "shared": "Tie on points and cards: a shared win.",
}


def end_screen(app) -> Menu:
    t = app.t
    items = [
        Item(t("Score sheet"), lambda: app.push(score_pages(app, final=True))),
        Item(t("Scores by round"), lambda: app.push(score_chart_screen(app))),
        Item(t("Undo the last action"), app.undo),
        Item(t("Finish: new game"), lambda: finish(app)),
    ]
    return Menu(app, t("Game over"), items, back=app.home)


def score_pages(app, final: bool) -> Notice:
    """Each player's breakdown, then the winner and the tie-break that decided it.

    The advanced variant adds its missions (more than one) and the cards' own bonuses.
    """
    t, game = app.t, app.session.game
    advanced = game.variant == "advanced"
    title = t("Score sheet") if final else t("Score so far")
    try:
        sheet = game.score(app.session.state)
    except RulesError as error:  # a value the table has not taught yet
        return Notice(app, title, [t.refusal(error)])
    lines = demo_lines(t, game)
    for line in sheet.lines:
        missions = (
            t("missions +{n}", n=line.mission) if advanced else t("mission +{n}", n=line.mission)
        )
        lines += [
            f"{player_label(app, line.player)}: {line.total}",
            "  "
            + t.plural(
                "cards {points} ({n} card)",
                "cards {points} ({n} cards)",
                line.cards,
                points=line.figurants,
            ),
            "  " + t("penguin +{n}", n=line.penguin_bonus),
            "  " + missions,
            *(["  " + t("card bonuses +{n}", n=line.bonus)] if advanced else []),
            "  " + t("tokens {n}", n=line.penalty),
        ]
    winners = ", ".join(player_label(app, w) for w in sheet.winners)
    label = t("Winner: {names}", names=winners) if final else t("Leading: {names}", names=winners)
    lines += [label, t(DECIDED[sheet.decided_by])]
    return Notice(app, title, lines)


def finish(app) -> None:
    """Keep the result, once the table says so; undo ends here."""

    def finished() -> None:
        app.session.finish(now=app.clock())
        app.session = None
        app.home()

    confirm(app, app.t("Keep this result?"), app.t("Yes: the game is finished"), finished)


def end_game(app) -> None:
    """End the game before its end, once the table says so; it is kept as abandoned."""
    t = app.t

    def abandoned() -> None:
        app.session.abandon(now=app.clock())
        app.session = None
        app.home()
        app.notice(t("Game ended"), [t("Kept as abandoned: it is exported with the others.")])

    confirm(app, t("End this game?"), t("Yes: end the game"), abandoned)


def confirm(app, question: str, yes: str, then) -> None:
    """A question whose first (and selected) answer changes nothing."""
    items = [Item(app.t("No: go back"), app.pop), Item(yes, then)]
    app.push(Menu(app, question, items))
