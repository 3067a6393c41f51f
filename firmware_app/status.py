"""The daemon's one-line status for ``systemctl status``: what the box is doing now.

systemd shows the last ``STATUS=`` the daemon sent, so the line says what an
owner logged in over SSH wants to know at a glance: the game and how far it
is ("Penguins family, 3 players, round 5", in the words of the resume list,
in English like the rest of the log), or that the box waits at its start
screen, followed by any part that does not work ("missing: reader").
"""

from firmware_app.flows.games import GAMES
from firmware_app.words.i18n import Translator


def play_status(app) -> str:
    """The game on the box and how far it got, or that none is being played."""
    session = app.session
    if session is None:
        return "waiting at the start screen"
    screens = GAMES[session.key]
    english = Translator("en")  # its catalogue is read once, at the first game's status
    progress = "game over" if session.over else screens.progress(english, session.place()["step"])
    return f"{screens.short(english)}, {session.game.n} players, {progress}"
