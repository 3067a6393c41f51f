"""The player that presses the buttons by itself stops, saying so, when the app is stuck: a
test stepping through a game then fails where it would press on for ever."""

import pytest

from firmware_app.runners.autopilot import STUCK, Autopilot, Stuck
from firmware_app.runners.headless import Headless


def test_presses_that_change_nothing_stop_the_autopilot_only_when_that_many_come_in_a_row(
    tmp_path,
):
    sim = Headless(tmp_path / "state", language="en", seed=1)
    press, lost = sim.press, [True]
    sim.press = lambda *args: None if lost[0] else press(*args)  # as if each raised, caught
    try:
        pilot = Autopilot(sim, 1)
        for _ in range(STUCK - 1):
            assert pilot.step()
        lost[0] = False
        home = sim.screen
        assert pilot.step()  # one press goes through: the screen changes
        assert sim.screen != home
        lost[0] = True
        for _ in range(STUCK):
            assert pilot.step()
        with pytest.raises(Stuck, match=f"^{STUCK} presses changed nothing; the screen:\n"):
            pilot.step()
    finally:
        sim.close()
