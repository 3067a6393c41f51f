"""The main loop's own timing (``firmware_app/loop.py``), on the headless runner's clock."""

from firmware_app.runners.headless import Headless


def test_the_panel_sleeps_after_the_set_time_and_not_before(tmp_path):
    """docs/configuration.md: "the panel sleeps after this long without input"; set to two
    minutes, it is still lit just before 120 s of quiet and dark just after."""
    sim = Headless(tmp_path / "state")
    try:
        sim.app.set_setting("sleep_minutes", 2)
        sim.press("down")  # the last input, some 0.2 s ago once the press is over
        sim.wait(119)
        assert not sim.display.asleep and not sim.loop.asleep
        sim.wait(2)
        assert sim.display.asleep and sim.loop.asleep
        sim.press("down")  # any press wakes it
        assert not sim.display.asleep
    finally:
        sim.close()
