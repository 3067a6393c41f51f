"""The daemon's one-line status for ``systemctl status``: what the box is doing now.

systemd shows the last ``STATUS=`` the daemon sent, so the line says what an
owner logged in over SSH wants to know at a glance: the game and how far it
is ("Pingwiny family, 3 players, round 5"), or that the box waits at its start
screen, followed by any part that does not work ("missing: reader").
"""


def play_status(app) -> str:
    """The game on the box and its round, or that none is being played."""
    session = app.session
    if session is None:
        return "waiting at the start screen"
    game, state = session.game, session.state
    title = "Król Popiel" if game.variant == "popiel" else f"Pingwiny {game.variant}"
    players = len(getattr(state, "players", None) or state.scores)
    if state.phase == "over":
        return f"{title}, {players} players, game over"
    turns = getattr(state, "turns", None)
    if turns is None:
        return f"{title}, {players} players, action {len(session.states) - 1}"
    return f"{title}, {players} players, round {turns // players + 1}"
