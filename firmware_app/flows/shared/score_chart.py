"""The end of a game in one picture: each player's score after every round.

Król Popiel's figure is the track; a Pingwiny game's is what the score sheet would say if
the game ended after that round (cards, penguin bonus, missions, minus tokens held), so the
last point is the final score. A round ends when the turn comes back to the first player.
"""

from firmware_app.flows.shared.seats import player_label
from firmware_app.ui.charts import Chart, score_chart


def totals(game, state) -> list[int]:
    if game.variant == "popiel":
        return list(state.scores)
    return [line.total for line in game.score(state).lines]


def round_scores(game, states) -> list[list[int]]:
    """Each player's figure at the start, after each whole round, and at the end."""
    first = getattr(states[0], "first", states[0].current)
    points = [totals(game, states[0])]
    for before, after in zip(states, states[1:], strict=False):
        if after.current == first and before.current != first and after.phase != "setup":
            points.append(totals(game, after))
    final = totals(game, states[-1])
    if points[-1] != final or len(points) == 1:
        points.append(final)
    return [list(column) for column in zip(*points, strict=True)]


def score_chart_screen(app) -> Chart:
    """The chart of the game being ended, with the players by name."""
    session = app.session
    series = [
        (player_label(app, seat), points)
        for seat, points in enumerate(round_scores(session.game, session.states))
    ]
    return Chart(app, lambda canvas: score_chart(canvas, app.t("Scores by round"), series))
