"""Who sits where: how the screens name a player.

Every screen that names a player asks here, so the turn, the corrections and
the score sheet say the same thing. It imports no screen, so any of them can
use it without an import circle.
"""


def player_label(app, index: int) -> str:
    names = app.session.game.options.names
    return names[index] if names else app.t("Player {n}", n=index + 1)
