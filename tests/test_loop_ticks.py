"""What the main loop does in a tick in which nothing happens: as little as it can.

The daemon ticks a hundred times a second. A frame is handed to the panel once, not every
tick; while the panel is lost, every tick offers it again (its chance to come back). The
journal's files are looked at twice a second, not at every tick. A taught value goes into
the game only if every recorded move replays to the same states.
"""

import copy
import math

import pytest

from firmware_app.app import App
from firmware_app.loop import LOOK, Loop
from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.store.journal import Journal
from hw.buttons import FakeButtons
from hw.display import FakeDisplay
from hw.rfid.fake import FakeReader

TICK = 0.01


class CountingDisplay(FakeDisplay):
    """The shipped fake panel, counting what the loop hands it."""

    def __init__(self, **kwargs) -> None:
        self.offered = 0
        super().__init__(**kwargs)

    def show(self, image) -> bool:
        self.offered += 1
        return super().show(image)


class Table:
    """A loop on the shipped fakes, on a clock the test moves tick by tick."""

    def __init__(self, folder) -> None:
        self.now, self.drawn = 0.0, 0
        self.journal = Journal(folder / "journal.sqlite")
        self.app = App(self.journal, language="en")
        self.buttons = FakeButtons()
        self.display = CountingDisplay(clock=lambda: self.now)
        self.loop = Loop(self.app, self.buttons, FakeReader(), self.display)

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / TICK)):
            self.now = round(self.now + TICK, 6)
            self.drawn += self.loop.tick(self.now)  # True when the tick drew a frame

    def press(self, name: str) -> None:
        self.buttons.press(name, self.now)
        self.run(0.05)
        self.buttons.release(name, self.now)
        self.run(0.05)


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path)
    yield table
    table.journal.close()


def test_a_tick_with_nothing_new_hands_the_panel_nothing(table):
    table.run(2.0)  # 200 ticks
    assert table.display.offered == 1  # the first frame, once
    assert len(table.display.frames) == 1
    table.press("down")  # its press draws a frame; its release, which no screen takes, none
    assert table.drawn == table.display.offered == 2
    table.run(1.0)
    assert table.display.offered == 2


def test_back_is_drawn_for_at_its_release_which_is_when_it_acts(table):
    table.press("ok")  # the home menu's first entry opens the next screen
    opened, drawn = table.app.top, table.drawn
    table.buttons.press("back", table.now)
    table.run(0.05)
    assert (table.app.top, table.drawn) == (opened, drawn)  # held: nothing done, nothing drawn
    table.buttons.release("back", table.now)
    table.run(0.05)
    assert table.app.top is not opened and table.drawn == drawn + 1


def test_a_lost_panel_is_offered_the_frame_every_tick_and_comes_back(table):
    table.run(0.1)
    table.display.unplug()
    table.press("down")  # a frame the panel cannot take
    offered = table.display.offered
    table.run(0.5)
    assert table.display.offered == offered + 50
    table.display.plug()
    table.run(40.0)  # past the longest wait between two tries
    assert table.display.last_image.tobytes() == table.app.render().image.tobytes()
    offered = table.display.offered
    table.run(1.0)
    assert table.display.offered == offered  # back: nothing more to hand it


def test_the_journals_files_are_looked_at_twice_a_second(table, monkeypatch):
    looks = []
    replaced = table.journal.replaced
    monkeypatch.setattr(table.journal, "replaced", lambda: looks.append(table.now) or replaced())
    table.run(2.0)
    assert LOOK == 0.5  # docs/journal.md: "twice a second"
    assert len(looks) == math.ceil(2.0 / LOOK)
    assert all(b - a >= LOOK for a, b in zip(looks, looks[1:], strict=False))


def test_taught_values_that_would_change_the_recorded_moves_are_refused(tmp_path):
    sim = Headless(tmp_path / "state", seed=5)
    for line in new_game_script(2):
        sim.command(line)
    session = sim.app.session
    pilot = Autopilot(sim, 5)
    while len(session.states) < 4:
        assert pilot.step()
    before = sim.journal.record(session.game_id)
    states = list(session.states)
    other_bag = copy.deepcopy(before["catalogue"])
    other_bag["tokens"]["red"] += 1  # another mix: the bag drawn from at the setup differs
    other_bag["tokens"]["blue"] -= 1
    with pytest.raises(ValueError, match="would change the game"):
        session.teach(other_bag)
    assert sim.journal.record(session.game_id) == before
    assert session.states == states
    points = copy.deepcopy(before["catalogue"])  # a value no move has read yet
    points["figurant"][0]["family"]["points"] += 1
    session.teach(points)
    assert sim.journal.record(session.game_id)["catalogue"] == points
    sim.close()
