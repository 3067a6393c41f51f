"""The end: the score sheet line by line, the winner, and ending a game for good.

A game that reaches its end is kept as finished at once, as soon as its
score is known (a value taught at the score sheet first), so a table that
switches off after the score sheet, or presses BACK, still finds it in the
statistics and the exports; undo ends there. A game ended before its end is
kept as abandoned after a question answered yes. Either way it stays in the
journal and is exported.
"""

import logging

from firmware_app.flows.shared.score_chart import score_chart_screen
from firmware_app.flows.shared.seats import player_label
from firmware_app.ui.screens import Item, Menu, Notice
from firmware_app.words.score_sheet import demo_lines
from rules.errors import RulesError

LOG = logging.getLogger("tableside.end")

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
        Item(t("Done"), lambda: leave(app)),
    ]
    return Menu(app, t("Game over"), items, back=lambda: leave(app))


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


def keep_result(app, session=None) -> None:
    """Keep the game that reached its end (the one in play by default) as finished, once:
    with its score sheet, or not yet while a value it needs is still to be taught."""
    session = session or app.session
    if session.game_id not in {game.id for game in app.journal.unfinished_games()}:
        return
    try:
        session.finish(now=app.clock())
    except RulesError as error:
        LOG.info("game %d over, its score not known yet: %s", session.game_id, error.text("en"))
        return
    LOG.info("game %d finished", session.game_id)


def leave(app) -> None:
    """Off the game-over screen, to the home menu (the game is kept already)."""
    app.session = None
    app.home()


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
