"""The end: the end-of-round notice, the score sheet line by line, the winner."""

from firmware_app.flows.turn import player_label
from firmware_app.i18n import data_label
from firmware_app.ui.screens import Item, Menu, Notice

DECIDED = {
    "points": "Most points.",
    "figurants": "Tie on points: more figurant cards wins.",
    "shared": "Tie on points and cards: a shared win.",
}


def end_screen(app) -> Menu:
    t = app.t
    items = [
        Item(t("Score sheet"), lambda: app.push(score_pages(app, final=True))),
        Item(t("Undo the last action"), app.undo),
        Item(t("Finish: new game"), lambda: finish(app)),
    ]
    return Menu(app, t("Game over"), items, back=lambda: None)


def score_pages(app, final: bool) -> Notice:
    """Each player's breakdown, then the winner and the tie-break that decided it.

    The advanced variant adds its missions (more than one) and the cards' own bonuses.
    """
    t, game = app.t, app.session.game
    advanced = game.variant == "advanced"
    sheet = game.score(app.session.state)
    lines = []
    if game.cards.demo_label:
        lines.append(f"[{data_label(t, game.cards.demo_label)}]")
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
    return Notice(app, t("Score sheet") if final else t("Score so far"), lines)


def finish(app) -> None:
    from firmware_app.flows.start import start_screen

    app.session.finish(now=app.clock())
    app.session = None
    app.reset(start_screen(app))
