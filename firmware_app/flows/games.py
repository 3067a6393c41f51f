"""The games the box can run, and the screens each brings: one table, one row a game.

``rules.record.VARIANTS`` names each game's engine; this table names, under
the same key, what the panel needs to play it: its name on the "New game"
menu and in the resume list, how far a game of it got, the first question
of its setup wizard, its turn screen, the words that tell the table what an
action asks of it, and its game-over screen.
The start screen and the app reach every game through it, so adding a game
is one row here and one in ``VARIANTS``, never an edit of the start screen.
"""

from collections.abc import Callable
from dataclasses import dataclass

from firmware_app.flows.pingwiny import advanced, advanced_table, turn
from firmware_app.flows.pingwiny.advanced_setup import AdvancedWizard
from firmware_app.flows.pingwiny.family_setup import Wizard
from firmware_app.flows.popiel import play as popiel
from firmware_app.flows.shared import end
from firmware_app.ui.screens import Screen
from firmware_app.words import table_text


@dataclass(frozen=True)
class GameScreens:
    name: Callable[..., str]  # t -> the game's name, as the "New game" menu shows it
    short: Callable[..., str]  # t -> a shorter name, for "Resume: …"
    progress: Callable[..., str]  # (t, state) -> how far a game got: "round 5"
    setup: Callable[..., Screen]  # app -> the setup wizard's first question
    turn: Callable[..., Screen]  # app -> the screen of the turn being played
    events: Callable[..., list[str]]  # (t, game, events) -> what the table must do
    end: Callable[..., Screen]  # app -> the game-over screen with the scores
    hand_off: Callable[..., None]  # (app, lines) -> the notice that passes the turn on
    describe: Callable[..., str]  # (app, state, notation) -> an action in words, for undo


def penguins_round(t, state) -> str:
    """The round being played: every player has a turn a round, the first player first."""
    return t("round {n}", n=state.turns // len(state.players) + 1)


GAMES: dict[tuple[str, str], GameScreens] = {
    ("pingwiny", "family"): GameScreens(
        lambda t: t("Penguins of Madagascar: family"),
        lambda t: t("Penguins family"),
        penguins_round,
        lambda app: Wizard(app).players(),
        turn.turn_screen,
        table_text.event_lines,
        end.end_screen,
        turn.hand_off,
        turn.describe,
    ),
    ("popiel", "standard"): GameScreens(
        lambda t: t("King Popiel"),
        lambda t: t("King Popiel"),
        lambda t, state: t("move {n}", n=state.moves + 1),
        lambda app: popiel.PopielWizard(app).players(),
        popiel.turn_screen,
        popiel.event_lines,
        popiel.end_screen,
        popiel.hand_off,
        popiel.describe,
    ),
    ("pingwiny", "advanced"): GameScreens(
        lambda t: t("Penguins: advanced"),
        lambda t: t("Penguins advanced"),
        penguins_round,
        lambda app: AdvancedWizard(app).players(),
        advanced.turn_screen,
        advanced_table.event_lines,
        end.end_screen,
        turn.hand_off,
        turn.describe,
    ),
}
