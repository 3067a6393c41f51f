"""The games the box can run, and the screens each brings: one table, one row a game.

``rules.record.VARIANTS`` names each game's engine; this table names, under
the same key, what the panel needs to play it: its name on the "New game"
menu and in the resume list, how far a game of it got, the first question
of its setup wizard, its turn screen, the words that tell the table what an
action asks of it, and its game-over screen.
The start screen and the app reach every game through it, so adding a game
is one row here and one in ``VARIANTS``, never an edit of the start screen.

Importing the table imports none of the games' screens or engines: the home
menu, the first screen after switching on, reads only the names and the
progress words, and the other columns import their module at their first
call (``OnFirstCall``, and the setup functions below).
"""

from collections.abc import Callable
from types import ModuleType
from typing import NamedTuple

from firmware_app.ui.screens import Screen


class GameScreens(NamedTuple):
    """One row of the table: what the panel needs to play one game."""

    name: Callable[..., str]  # t -> the game's name, as the "New game" menu shows it
    short: Callable[..., str]  # t -> a shorter name, for "Resume: …"
    progress: Callable[..., str]  # (t, step) -> how far a game got: "round 5"
    setup: Callable[..., Screen]  # app -> the setup wizard's first question
    turn: Callable[..., Screen]  # app -> the screen of the turn being played
    events: Callable[..., list[str]]  # (t, game, events) -> what the table must do
    end: Callable[..., Screen]  # app -> the game-over screen with the scores
    hand_off: Callable[..., None]  # (app, lines) -> the notice that passes the turn on
    describe: Callable[..., str]  # (app, state, notation) -> an action in words, for undo


class OnFirstCall:
    """The function ``name`` of the module ``load`` returns, imported at the first call.

    A Zero 2 W imports Python slowly, and after switching on the family waits
    for the home menu, which needs only each game's names and progress words
    (the light columns of the table below). A game's setup, turn and game-over
    screens, and through them its rules engine, are imported only when they are
    first called: when a game is set up, resumed or played.
    """

    def __init__(self, load: Callable[[], ModuleType], name: str) -> None:
        self.load, self.name = load, name
        self.function: Callable | None = None

    def __call__(self, *args, **kwargs):
        if self.function is None:
            self.function = getattr(self.load(), self.name)
        return self.function(*args, **kwargs)


# The modules of the games' screens, each imported by its function when first needed (an
# import statement, not a module name in a string, so the import contracts see them all).


def pingwiny_turn() -> ModuleType:
    from firmware_app.flows.pingwiny import turn

    return turn


def pingwiny_advanced() -> ModuleType:
    from firmware_app.flows.pingwiny import advanced

    return advanced


def pingwiny_advanced_table() -> ModuleType:
    from firmware_app.flows.pingwiny import advanced_table

    return advanced_table


def popiel_play() -> ModuleType:
    from firmware_app.flows.popiel import play

    return play


def shared_end() -> ModuleType:
    from firmware_app.flows.shared import end

    return end


def words_table_text() -> ModuleType:
    from firmware_app.words import table_text

    return table_text


def penguins_round(t, step: int) -> str:
    """The round being played (``Session.place`` counts it)."""
    return t("round {n}", n=step)


def family_setup(app) -> Screen:
    """The family game's setup wizard, at its first question (imported at the first call)."""
    from firmware_app.flows.pingwiny.family_setup import Wizard

    return Wizard(app).players()


def advanced_setup(app) -> Screen:
    """The advanced game's setup wizard, at its first question (imported at the first call)."""
    from firmware_app.flows.pingwiny.advanced_setup import AdvancedWizard

    return AdvancedWizard(app).players()


def popiel_setup(app) -> Screen:
    """King Popiel's setup wizard, at its first question (imported at the first call)."""
    from firmware_app.flows.popiel.play import PopielWizard

    return PopielWizard(app).players()


GAMES: dict[tuple[str, str], GameScreens] = {
    ("pingwiny", "family"): GameScreens(
        lambda t: t("Penguins of Madagascar: family"),
        lambda t: t("Penguins family"),
        penguins_round,
        family_setup,
        OnFirstCall(pingwiny_turn, "turn_screen"),
        OnFirstCall(words_table_text, "event_lines"),
        OnFirstCall(shared_end, "end_screen"),
        OnFirstCall(pingwiny_turn, "hand_off"),
        OnFirstCall(pingwiny_turn, "describe"),
    ),
    ("popiel", "standard"): GameScreens(
        lambda t: t("King Popiel"),
        lambda t: t("King Popiel"),
        lambda t, step: t("move {n}", n=step),
        popiel_setup,
        OnFirstCall(popiel_play, "turn_screen"),
        OnFirstCall(popiel_play, "event_lines"),
        OnFirstCall(popiel_play, "end_screen"),
        OnFirstCall(popiel_play, "hand_off"),
        OnFirstCall(popiel_play, "describe"),
    ),
    ("pingwiny", "advanced"): GameScreens(
        lambda t: t("Penguins: advanced"),
        lambda t: t("Penguins advanced"),
        penguins_round,
        advanced_setup,
        OnFirstCall(pingwiny_advanced, "turn_screen"),
        OnFirstCall(pingwiny_advanced_table, "event_lines"),
        OnFirstCall(shared_end, "end_screen"),
        OnFirstCall(pingwiny_turn, "hand_off"),
        OnFirstCall(pingwiny_turn, "describe"),
    ),
}
