"""``tableside sim --headless`` plays the build it is given: ``--buttons 4`` or the buttons a
configuration's ``[buttons] pins`` wire, as the simulator in the terminal does (issue 24,
point 9). A script that presses a button the build lacks is refused before it starts."""

import json
from pathlib import Path

import pytest

from firmware_app.cli.main import main
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.session import Session
from rules.pingwiny.options import Options

FOUR = ("up", "down", "ok", "back")
# Into the new-game wizard and out again: buttons every build has.
SCRIPT = "press down\npress ok\npress back\n"


def sim(tmp_path, script: str, *options: str) -> list[str]:
    path = tmp_path / "script.txt"
    path.write_text(script)
    state = tmp_path / "state"
    return ["sim", "--headless", "--script", str(path), "--state-dir", str(state), *options]


def four_button_config(tmp_path):
    config = tmp_path / "four.toml"
    config.write_text("[buttons]\npins = { up = 5, down = 6, ok = 13, back = 19 }\n")
    return config


@pytest.mark.parametrize("build", ["buttons", "config"])
def test_headless_takes_the_4_button_build(tmp_path, capsys, build):
    options = (
        ("--buttons", "4")
        if build == "buttons"
        else ("--config", str(four_button_config(tmp_path)))
    )
    assert main(sim(tmp_path, SCRIPT, "--json", *options)) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["state"] is None  # no game started: back on the home menu
    assert main(sim(tmp_path, "press red\n", *options)) == 1
    error = capsys.readouterr().err
    assert "line 1: cannot run 'press red': no button 'red'; this panel has up, down, ok, back" in (
        error
    )


def test_headless_takes_the_11_button_build_as_before(tmp_path, capsys):
    assert main(sim(tmp_path, "press red\n" + SCRIPT, "--buttons", "11")) == 0
    assert main(sim(tmp_path, "press red\n" + SCRIPT)) == 0
    capsys.readouterr()


def test_a_bad_configuration_is_reported_as_for_the_terminal(tmp_path, capsys):
    config = tmp_path / "bad.toml"
    config.write_text("[buttons]\npins = { up = 5, down = 6, ok = 13 }\n")
    assert main(sim(tmp_path, SCRIPT, "--config", str(config))) != 0
    assert "the navigation buttons are required; missing: back" in capsys.readouterr().err
    assert not (tmp_path / "state").exists()  # nothing started


class FourButtons(Headless):
    """The autopilot's colour picked from the entry's list with DOWN/UP and OK, as a person
    at a 4-button box does."""

    def press(self, name: str, times: int = 1) -> None:
        if name in FOUR:
            super().press(name, times)
            return
        for _ in range(times):
            entry = self.app.top
            steps = entry._choices().index(name) - entry.cursor
            if steps:
                super().press("down" if steps > 0 else "up", abs(steps))
            super().press("ok")


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_whole_game_with_the_tables_bag_on_the_headless_4_button_build(tmp_path, language):
    headless = FourButtons(tmp_path, language=language, seed=5, fitted=FOUR)
    try:
        app = headless.app
        assert not app.has_colour_buttons
        options = Options(players=2, short=True, bag="table", seed=5)
        box = app.catalogue(demo=True)
        app.session = Session.start(app.journal, options, box, now=0.0, game=("pingwiny", "family"))
        app.show_game()
        Autopilot(headless, 5).play()
        assert app.session.over
        assert {event.name for event in headless.buttons.history} <= set(FOUR)
        with pytest.raises(ValueError, match="no button 'red'"):  # the build has none
            Headless.press(headless, "red")
    finally:
        headless.close()


def test_the_readme_says_headless_takes_the_build_too():
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    headless = [line for line in readme.splitlines() if "tableside sim --headless" in line]
    assert any("--buttons 4|11" in line and "--config FILE" in line for line in headless)
