"""The statistics on the panel and the end-of-game chart, through the buttons, in both languages.

Regenerate the pictures on purpose, then look at them before committing:
``TABLESIDE_REGENERATE_GOLDEN=1 pytest tests/test_stats_screens.py``
"""

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from screen_helpers import choose
from stats_helpers import known_games

from firmware_app.flows.shared.score_chart import round_scores
from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import Headless

GOLDEN = Path(__file__).parent / "golden" / "screens"


def same_picture(sim: Headless, name: str) -> None:
    image = sim.app.render().image
    path = GOLDEN / f"{name}.png"
    if os.environ.get("TABLESIDE_REGENERATE_GOLDEN"):
        image.save(path)
    expected = Image.open(path).convert("L")
    assert ImageChops.difference(image.convert("L"), expected).getbbox() is None, path.name


@pytest.fixture
def sim(tmp_path):
    sim = Headless(tmp_path, language="en", seed=1)
    known_games(sim.journal)
    sim.app.home()  # the resume list now holds the unfinished game
    yield sim
    sim.close()


def open_statistics(sim: Headless) -> None:
    choose(sim, sim.app.t("Statistics"))
    assert sim.screen.startswith(f"[{sim.app.t('Statistics')}]")


def test_the_game_figures_and_the_filter(sim):
    open_statistics(sim)
    choose(sim, "Games")
    assert "Games played: 5" in sim.screen and "Best score: 40 (Iza)" in sim.screen
    sim.press("back")  # the notice, whatever its pages
    choose(sim, "All games")  # OK on the filter turns it to the next one
    assert sim.app.top.items[0].label == "Penguins: family"
    choose(sim, "Games")
    assert "Games played: 3" in sim.screen


def test_a_player_head_to_head_and_the_last_games(sim):
    open_statistics(sim)
    choose(sim, "Players")
    assert [item.label for item in sim.app.top.items] == ["Ala", "Olek", "Iza"]
    choose(sim, "Olek")
    text = "\n".join(sim.app.top.lines)
    assert "Games: 3, wins: 2 (67%)" in text and "Favourite penguin: Kowalski" in text
    sim.press("back")  # the notice, whatever its pages
    sim.press("back")
    choose(sim, "Head to head")
    choose(sim, "Ala")
    choose(sim, "Olek")
    assert sim.app.top.lines[:4] == ["Games together: 3", "Ala: 1", "Olek: 1", "Shared wins: 1"]
    sim.press("back")  # the notice, whatever its pages
    for _ in range(2):
        sim.press("back")
    choose(sim, "Last games")
    assert sim.app.top.lines[0].endswith("King Popiel: Iza")
    sim.press("back")  # the notice, whatever its pages
    choose(sim, "Players")
    choose(sim, "Iza")
    assert "Favourite penguin: Skipper" in "\n".join(sim.app.top.lines)
    sim.press("back")  # the notice, whatever its pages
    sim.press("back")
    for _ in range(3):
        choose(sim, sim.app.top.items[0].label)  # the filter, on to King Popiel
    choose(sim, "Players")
    choose(sim, "Iza")
    assert "Favourite mouse: Blue mouse" in "\n".join(sim.app.top.lines)


def test_an_empty_journal_says_so_instead_of_an_empty_screen(tmp_path):
    sim = Headless(tmp_path, language="en")
    try:
        open_statistics(sim)
        for label in ("Games", "Players", "Head to head", "Last games", "Wins chart"):
            choose(sim, label)
            assert sim.app.top.__class__.__name__ == "Notice", label
            sim.press("ok")
    finally:
        sim.close()


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_wins_chart_matches_its_picture(tmp_path, language):
    sim = Headless(tmp_path, language=language, seed=1)
    try:
        known_games(sim.journal)
        sim.app.home()
        open_statistics(sim)
        choose(sim, sim.app.t("Wins chart"))
        assert sim.app.render().lines[1:] == ["Ala: 3", "Olek: 2", "Iza: 1"]
        same_picture(sim, f"wins-chart-{language}")
    finally:
        sim.close()


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A whole family game played by the autopilot, left on its game-over screen."""
    sim = Headless(tmp_path_factory.mktemp("game"), language="en", seed=5)
    for line in new_game_script(3):
        sim.command(line)
    Autopilot(sim, seed=5).play()
    yield sim
    sim.close()


def test_the_rounds_end_with_the_final_score(finished):
    session = finished.app.session
    series = round_scores(session.game, session.states)
    sheet = session.game.score(session.state)
    assert [points[-1] for points in series] == [line.total for line in sheet.lines]
    start = session.game.score(session.states[0])
    assert [points[0] for points in series] == [line.total for line in start.lines]
    rounds = session.state.turns // session.game.options.players
    assert all(rounds <= len(points) <= rounds + 2 for points in series)


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_score_chart_matches_its_picture(finished, language):
    finished.app.set_setting("language", language)
    finished.app.show_game()
    choose(finished, finished.app.t("Scores by round"))
    lines = finished.app.render().lines
    session = finished.app.session
    first = round_scores(session.game, session.states)[0]
    assert len(lines) == 4 and lines[1].endswith(": " + " ".join(map(str, first)))
    same_picture(finished, f"score-chart-{language}")
    finished.press("ok")
