"""The registry of games: every engine has its screens, and each game is played on them.

That the screens import no circle, and the home menu no game, is an import contract
(``pyproject.toml``, run by tests/test_lint.py). That the home menu is shown before any
game's screens or engine is imported (they load when a game is first set up or resumed)
is checked here, in a fresh interpreter."""

import subprocess
import sys

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
            for _ in range(1000):  # random presses: marking the five pawn colours takes a while
                if sim.app.session is not None:
                    break
                pilot.step()
            assert sim.app.session.key == key
            shown = sim.app.stack[0]
            expected = screens.turn(sim.app)
            assert (type(shown), shown.title) == (type(expected), expected.title)
        finally:
            sim.close()


# What the home menu must not wait for: the games' screens and engines, which the registry
# imports when a game is first set up or resumed (a package here stands for its modules).
NOT_BEFORE_THE_HOME_MENU = (
    "firmware_app.flows.pingwiny",
    "firmware_app.flows.popiel",
    "firmware_app.flows.shared.end",
    "firmware_app.flows.shared.stats",
    "firmware_app.transfer.box_backup",
    "rules.catalogue",
    "rules.pingwiny",
    "rules.players",
    "rules.popiel",
)


def probe(lines: str) -> list[str]:
    """What ``lines`` print in a fresh interpreter, where ``early()`` names the modules of
    ``NOT_BEFORE_THE_HOME_MENU`` imported so far."""
    source = (
        "import sys\n"
        f"HEAVY = {NOT_BEFORE_THE_HOME_MENU!r}\n"
        "def early():\n"
        "    return sorted(m for m in sys.modules if any(m == h or m.startswith(h + '.')"
        " for h in HEAVY))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", source + lines],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_home_menu_of_an_empty_journal_imports_no_game_until_one_is_chosen(tmp_path):
    shown = probe(
        "from firmware_app.app import App\n"
        "from firmware_app.store.recovery import close_journal, open_journal\n"
        f"journal, _ = open_journal({str(tmp_path / 'journal.sqlite')!r})\n"
        "app = App(journal, language='en')\n"
        "app.render()\n"
        "print(app.top.title, *(item.label for item in app.top.items), sep='|')\n"
        "print('home:', *early())\n"
        "app.top.button('ok')\n"  # New game: the games' names
        "print('names:', *early())\n"
        "app.top.button('down')\n"
        "app.top.button('down')\n"
        "app.top.button('ok')\n"  # the third game: its setup wizard
        "app.render()\n"
        "print('setup:', *early())\n"
        "close_journal(journal)\n"
    )
    assert shown[:3] == ["Tableside|New game|Settings|Statistics", "home:", "names:"]
    assert list(GAMES)[2] == ("pingwiny", "advanced")
    assert "firmware_app.flows.pingwiny.advanced_setup" in shown[3].split()


def test_the_daemon_shows_its_home_menu_before_importing_any_game(tmp_path):
    """The whole start of ``tableside run``: parts, journal, app, stick watch, first tick."""
    config = tmp_path / "tableside.toml"
    config.write_text(
        "[buttons]\ndriver = 'fake'\n[display]\ndriver = 'fake'\n[reader]\ndriver = 'fake'\n"
        f"[buzzer]\ndriver = 'fake'\n[app]\nstate_dir = {str(tmp_path / 'state')!r}\n"
    )
    shown = probe(
        "from firmware_app.cli.main import main\n"
        f"status = main(['run', '--config', {str(config)!r}, '--home'])\n"
        "print('home:', *early())\n"
        "sys.exit(status)\n"
    )
    assert [line.rsplit(" ", 1)[0] for line in shown[:2]] == [
        "first frame shown at",
        "home menu shown at",
    ]
    assert shown[2:] == ["home:"]
