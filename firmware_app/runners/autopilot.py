"""A player that presses the buttons by itself: for demos, soak and crash tests.

It reads the screen on top of the app and presses what a person would: OK
on notices, a random legal move on the turn menu, a random item in the
sub-menus, colours from the bag when the table draws, a made-up name where
a name is asked. On a teaching screen it makes values up (a random cost,
the first number offered): a game it taught is labelled as made up, like
the demo deck. Its choices are drawn
from a generator seeded by the seed and the number of actions played so
far, so after a restart it makes exactly the same moves again.
"""

import random

from firmware_app.flows.pingwiny.turn import More, TurnMenu
from firmware_app.flows.shared.teach import CostEntry
from firmware_app.flows.shared.teach_screens import StepEntry
from firmware_app.ui.screens import WHEEL, ColourEntry, LetterEntry, Menu, Notice, NumberEntry
from rules.colours import COLOURS
from rules.pingwiny.options import LEVELS

# Presses in a row that leave the screen as it was: no game needs that many (each press of a
# sound game shows something new), so the app is stuck, say on a screen that takes none of the
# buttons the autopilot presses. A test stepping through a game then fails, where it would
# press on for ever.
STUCK = 1000


class Stuck(RuntimeError):
    """The screen stopped changing: the game cannot go on."""


class Autopilot:
    """Plays ``sim``, a table with the ``app``, its ``press(name, times)`` and its ``screen``
    (the panel's text)."""

    def __init__(self, sim, seed: int) -> None:
        self.sim, self.seed = sim, seed
        self.chooser = random.Random()
        self.at = -1
        self.last, self.same = "", 0  # the screen before this step, and since when

    def _rng(self) -> random.Random:
        played = len(self.sim.app.session.states) if self.sim.app.session else 0
        if played != self.at:
            self.at = played
            self.chooser.seed(self.seed * 1_000_003 + played)
        return self.chooser

    def step(self) -> bool:
        """Press what the screen asks for; False once the game is over."""
        app, sim = self.sim.app, self.sim
        self._progress(sim.screen)
        top = app.top
        if app.session is not None and app.session.over and len(app.stack) == 1:
            return False  # the end screen, with nothing left to read or teach
        if isinstance(top, Notice | NumberEntry):
            sim.press("ok")  # a teaching screen's number: its first value, made up
        elif isinstance(top, CostEntry):
            self._make_up_cost()
        elif isinstance(top, StepEntry):
            sim.press(self._rng().choice(("ok", top.LAST)))  # a made-up step, the last or not
        elif isinstance(top, ColourEntry):
            self._enter_colour(top)
        elif isinstance(top, LetterEntry):
            self._enter_letter(top)
        elif isinstance(top, TurnMenu):
            self._choose(top, self._rng().randrange(top.moves))
        elif isinstance(top, More):
            sim.press("back")  # it plays the turn, never the extras
        elif isinstance(top, Menu) and top.items:
            self._choose(top, self._start_or_random(top))
        else:
            sim.press("back")
        return True

    def _progress(self, screen: str) -> None:
        """Raise ``Stuck`` once ``STUCK`` presses in a row changed nothing on the screen."""
        self.same = self.same + 1 if screen == self.last else 0
        self.last = screen
        if self.same >= STUCK:
            raise Stuck(f"{STUCK} presses changed nothing; the screen:\n{screen}")

    def _enter_colour(self, entry: ColourEntry) -> None:
        """A colour from the bag as the model sees it; an open-ended entry is finished."""
        if entry.count is None:
            self._choose_colour_item(entry, len(entry.allowed))  # the "done" entry
            return
        bag = self.sim.app.session.state.bag if self.sim.app.session else ()
        weights = [bag[COLOURS.index(c)] for c in entry.allowed] if bag else []
        if sum(weights):
            colour = self._rng().choices(entry.allowed, weights=weights)[0]
        else:
            colour = self._rng().choice(entry.allowed)
        self.sim.press(colour)

    def _enter_letter(self, entry: LetterEntry) -> None:
        """A random letter, or "done" once the name has two or more (a name taken gets longer)."""
        rng = self._rng()
        finish = len(entry.entered) >= 2 and rng.random() < 0.5
        target = len(WHEEL) - 1 if finish else rng.randrange(len(WHEEL) - 3)
        steps = target - entry.cursor
        if steps:
            self.sim.press("down" if steps > 0 else "up", abs(steps))
        self.sim.press("ok")

    def _make_up_cost(self) -> None:
        """A cost the autopilot makes up while teaching: 1 to 5 tokens, no grey."""
        rng = self._rng()
        for _ in range(rng.randint(1, 5)):
            self.sim.press(rng.choice([c for c in COLOURS if c != "grey"]))
        self.sim.press("ok")

    def _choose_colour_item(self, entry: ColourEntry, index: int) -> None:
        steps = index - entry.cursor
        if steps:
            self.sim.press("down" if steps > 0 else "up", abs(steps))
        self.sim.press("ok")

    def _start_or_random(self, menu: Menu) -> int:
        if menu is self.sim.app.stack[0]:
            return 0  # the start screen after a restart: resume the game
        return self._rng().randrange(len(menu.items))

    def _choose(self, menu: Menu, index: int) -> None:
        steps = index - menu.cursor
        if steps:
            self.sim.press("down" if steps > 0 else "up", abs(steps))
        self.sim.press("ok")

    def play(self, limit: int = 100_000) -> None:
        for _ in range(limit):
            if not self.step():
                return


def new_game_script(players: int = 2, demo: bool = True, virtual: str | None = None) -> list[str]:
    """Button presses from the start screen to the first turn with app randomness.

    With ``virtual`` (a level) the box plays every seat at that level.
    """
    if virtual is None:
        seats = ["press ok"]  # everyone plays at the table
    else:
        down = 1 + LEVELS.index(virtual)  # past "Plays at the table"
        seats = ["press down", "press ok"] + [f"press down {down}", "press ok"] * players
    return [
        "press ok",
        "press ok",
        f"press down {players - 2}" if players > 2 else "",
        "press ok",
        "press ok",
        "press ok",
        "press ok",
        "press down" if demo else "",
        "press ok",
        "press ok",  # no names
        "press ok",  # the app deals the penguins
        "press ok",  # the app draws the first player
        *seats,
    ]
