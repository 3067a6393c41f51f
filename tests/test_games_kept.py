"""Several games at once, none lost: the resume list, BACK to it, ending a game only on a yes."""

import json

import pytest

from firmware_app.cli.main import main
from firmware_app.flows.pingwiny.turn import More, TurnMenu
from firmware_app.flows.start import ago
from firmware_app.runners.autopilot import new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.ui.screens import Notice
from firmware_app.words.i18n import Translator

MINUTE = 60.0


def to_the_turn(sim) -> None:
    """OK through the setup pages to the first turn screen."""
    while not isinstance(sim.app.top, TurnMenu):
        assert isinstance(sim.app.top, Notice), sim.screen
        sim.press("ok")


def new_family_game(sim, players: int) -> int:
    sim.press("down", len(sim.journal.unfinished_games()))  # past the resume items
    for line in new_game_script(players):
        sim.command(line)
    to_the_turn(sim)
    return sim.app.session.game_id


def items(sim) -> list[str]:
    return [item.label for item in sim.app.top.items]


@pytest.fixture
def folder(tmp_path):
    return tmp_path / "state"


def test_the_resume_list_survives_a_restart_named_by_game_players_round_and_time(folder):
    sim = Headless(folder, language="en", seed=3)
    first = new_family_game(sim, 3)
    sim.press("ok")  # draw 2: the first action
    to_the_turn(sim)
    first_state = sim.app.session.state
    sim.press("back")  # home, the game kept
    assert items(sim)[:2] == ["Resume: Penguins family", "New game"]
    sim.now += 5 * MINUTE
    second = new_family_game(sim, 2)
    sim.close()

    sim = Headless(folder, language="en", seed=3, now=sim.now + 12 * MINUTE)
    try:
        assert items(sim) == [
            "Resume: Penguins family",
            "Resume: Penguins family",
            "New game",
            "Settings",
            "Statistics",
        ]
        details = [item.detail for item in sim.app.top.items[:2]]
        assert details == ["2 players, round 1\n12 min ago", "3 players, round 1\n17 min ago"]
        assert sim.screen.endswith("  2 players, round 1\n  12 min ago")  # the selected one's
        sim.press("down")
        assert sim.screen.endswith("  3 players, round 1\n  17 min ago")
        sim.press("ok")
        assert sim.app.session.game_id == first != second
        assert sim.app.session.state == first_state
        assert isinstance(sim.app.top, TurnMenu)
    finally:
        sim.close()


def test_the_resume_list_in_polish(folder):
    sim = Headless(folder, language="pl", seed=3)
    try:
        new_family_game(sim, 4)
        sim.now += 3 * 60 * MINUTE
        sim.press("back")
        assert items(sim)[0] == "Wznów: Pingwiny rodzinne"
        assert sim.app.top.items[0].detail == "4 gracze, runda 1\n3 godz. temu"
    finally:
        sim.close()


@pytest.mark.parametrize(
    "seconds, en, pl",
    [
        (20, "just now", "przed chwilą"),
        (61, "1 min ago", "1 min temu"),
        (59 * 60, "59 min ago", "59 min temu"),
        (2 * 3600 + 5, "2 h ago", "2 godz. temu"),
        (30 * 3600, "yesterday", "wczoraj"),
        (5 * 86400, "5 days ago", "5 dni temu"),
        (-300, "just now", "przed chwilą"),  # a clock set back since
    ],
)
def test_how_long_ago_in_both_languages(seconds, en, pl):
    assert ago(Translator("en"), seconds) == en
    assert ago(Translator("pl"), seconds) == pl


def test_back_from_a_game_reaches_home_and_the_game_stays_resumable(folder):
    sim = Headless(folder, language="en", seed=4)
    try:
        game = new_family_game(sim, 2)
        sim.press("ok")
        to_the_turn(sim)
        state = sim.app.session.state
        sim.press("back")
        assert sim.screen.startswith("[Tableside]")
        assert sim.journal.unfinished() == game
        sim.press("ok")
        assert sim.app.session.state == state and isinstance(sim.app.top, TurnMenu)
    finally:
        sim.close()


def test_end_game_asks_first_and_keeps_the_game_as_abandoned_for_export(folder, tmp_path, capsys):
    sim = Headless(folder, language="en", seed=5)
    game = new_family_game(sim, 2)
    sim.press("ok")  # draw 2
    to_the_turn(sim)
    actions = sim.journal.record(game)["actions"]
    sim.press("up")  # the last entry of the game menu: "More …"
    sim.press("ok")
    sim.press("up")  # and its last: ending the game
    assert sim.app.top.items[sim.app.top.cursor].label == "End game"
    sim.press("ok")
    assert sim.screen.splitlines()[:3] == [
        "[End this game?]",
        "> No: go back",
        "  Yes: end the game",
    ]
    sim.press("ok")  # no: back where it was asked
    assert isinstance(sim.app.top, More) and sim.journal.unfinished() == game
    sim.press("ok")  # End game, still selected
    sim.press("down")
    sim.press("ok")  # yes
    assert sim.screen.startswith("[Game ended]")
    sim.press("ok")
    assert items(sim) == ["New game", "Settings", "Statistics"]
    assert sim.app.session is None
    (ended,) = sim.journal.ended_games()
    assert (ended.id, ended.outcome) == (game, "abandoned")
    sim.close()

    config = tmp_path / "tableside.toml"
    config.write_text(f'[app]\nstate_dir = "{folder}"\n')
    out = tmp_path / "out"
    assert main(["export", "--config", str(config), "--out", str(out)]) == 0
    assert "0 finished, 1 abandoned game(s) exported" in capsys.readouterr().out
    record = json.loads((out / f"game-{game:05d}-abandoned.json").read_text(encoding="utf-8"))
    assert record["outcome"] == "abandoned" and record["actions"] == actions


def test_popiel_has_end_game_and_back_goes_home(folder):
    sim = Headless(folder, language="en", seed=6)
    try:
        for line in ["press ok", "press down", "press ok", "press ok", "press down", "press ok"]:
            sim.command(line)  # New game, King Popiel, 2 players, demo box
        sim.press("ok")  # side A
        sim.press("ok")  # the app draws the rewards
        sim.press("ok", 2)  # no names, numbered mice
        sim.press("back")  # the setup notice, whatever its pages
        assert "End game" in items(sim)
        sim.press("back")
        assert items(sim)[0] == "Resume: King Popiel"
        assert sim.app.top.items[0].detail.startswith("2 players, move 1\n")
    finally:
        sim.close()
