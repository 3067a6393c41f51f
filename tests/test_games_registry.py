"""The registry of games: every engine has its screens, and each game is played on them.

That the screens import no circle, and the home menu no game, is an import contract
(``pyproject.toml``, run by tests/test_lint.py)."""

from firmware_app.flows.games import GAMES
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from rules.record import VARIANTS


def test_every_engine_has_its_screens_and_every_screen_set_an_engine():
    assert set(GAMES) == set(VARIANTS)


def test_the_new_game_menu_lists_the_registry_in_its_order(tmp_path):
    sim = Headless(tmp_path / "state", language="en", seed=1)
    try:
        sim.press("ok")
        names = [screens.name(sim.app.t) for screens in GAMES.values()]
        assert sim.screen.splitlines()[1:] == ["> " + names[0]] + ["  " + n for n in names[1:]]
    finally:
        sim.close()


def test_each_game_starts_from_the_menu_and_plays_on_its_registered_screens(tmp_path):
    for index, (key, screens) in enumerate(GAMES.items()):
        sim = Headless(tmp_path / f"state-{index}", language="en", seed=1)
        try:
            sim.press("ok")
            sim.press("down", index)
            sim.press("ok")
            assert sim.screen.splitlines()[0] == f"[{screens.setup(sim.app).title}]"
            pilot = Autopilot(sim, seed=index)
            for _ in range(200):
                if sim.app.session is not None:
                    break
                pilot.step()
            assert sim.app.session.key == key
            shown = sim.app.stack[0]
            expected = screens.turn(sim.app)
            assert (type(shown), shown.title) == (type(expected), expected.title)
        finally:
            sim.close()
