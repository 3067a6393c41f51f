"""The statistics on the panel and the end-of-game chart, through the buttons, in both languages.

Regenerate the pictures on purpose, then look at them before committing:
``TABLESIDE_REGENERATE_GOLDEN=1 pytest tests/test_stats_screens.py``
"""

import os
import time
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from screen_helpers import choose
from stats_helpers import finish, known_games, more_games

from firmware_app.flows.shared import stats_counting
from firmware_app.flows.shared.score_chart import round_scores
from firmware_app.flows.shared.stats import StatsMenu
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
    assert "Games played: 5" in sim.screen
    assert "score" not in sim.screen  # a Król Popiel track and Pingwiny points do not mix
    sim.press("back")  # the notice, whatever its pages
    choose(sim, "All games")  # OK on the filter turns it to the next one
    assert sim.app.top.items[0].label == "Penguins: family"
    choose(sim, "Games")
    assert "Games played: 3" in sim.screen and "Best score: 20 (Ala)" in sim.screen
    sim.press("back")  # the notice, whatever its pages
    choose(sim, "Players")
    choose(sim, "Ala")  # her own figures in the family game: the best score among them
    assert "Best score: 20" in sim.app.top.lines


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
    sim.press("back")  # the notice, whatever its pages
    choose(sim, "Olek")  # no game of King Popiel: no rate to give
    assert sim.app.top.lines[0] == "Games: 0, wins: 0 (-)"


@pytest.fixture
def one_a_tick(monkeypatch):
    """A slice of one game: many ticks of counting from a few games."""
    monkeypatch.setattr(stats_counting, "SLICE_GAMES", 1)


def progress_lines(frames: list[str]) -> list[str]:
    """The "n of total" line of each frame that shows the counting."""
    return [frame.splitlines()[2].strip() for frame in frames if "Counting games…" in frame]


def test_new_games_are_counted_a_slice_a_tick_then_the_menu_shows(sim, one_a_tick):
    sim.frames.clear()
    open_statistics(sim)
    shown = progress_lines(sim.frames)  # the 5 finished games; the newest game is number 7
    assert len(shown) >= 3 and shown[-1] == "5 of 7"
    assert shown == sorted(set(shown)), "the count only goes up"
    assert "BACK: later" in sim.frames[-2]
    assert "All games" in sim.screen and "Counting" not in sim.screen
    choose(sim, "Games")
    assert "Games played: 5" in sim.screen


def test_back_while_counting_leaves_and_the_next_opening_goes_on(sim, one_a_tick):
    more_games(sim.journal, 40)  # 45 finished games, the newest number 47
    open_statistics(sim)
    assert isinstance(sim.app.top, StatsMenu) and "Counting games…" in sim.screen
    sim.press("back")
    assert not isinstance(sim.app.top, StatsMenu)
    reached = int(progress_lines(sim.frames)[-1].split(" of ")[0])
    assert 0 < reached < 45
    sim.frames.clear()
    open_statistics(sim)  # goes on from the games counted before BACK
    assert int(progress_lines(sim.frames)[0].split(" of ")[0]) > reached
    sim.run_for(1)
    assert "All games" in sim.screen
    choose(sim, "Games")
    assert "Games played: 45" in sim.screen


def test_a_full_storage_while_counting_says_so_and_the_menu_shows_what_was_counted(sim, one_a_tick):
    more_games(sim.journal, 40)
    open_statistics(sim)
    cache = sim.app.top.counting.stats._db
    pages = cache.execute("PRAGMA page_count").fetchone()[0]
    cache.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "disk full"
    sim.run_for(1)
    assert " ".join(sim.app.top.lines) == "Storage full: some games are not counted yet."
    sim.press("ok")
    assert "All games" in sim.screen
    choose(sim, "Games")
    counted = int(sim.screen.split("Games played: ")[1].split()[0])
    assert 0 < counted < 45


def test_a_counting_closed_twice_or_stepped_after_its_end_does_nothing(sim):
    """Closing is safe to repeat, as a file's: the end of the counting closes it, and a
    screen leaving later may close it again."""
    counting = stats_counting.Counting(sim.app)
    while not counting.done:
        counting.step()
    counting.close()
    counting.step()
    assert (counting.done, counting.fault, counting.reached) == (True, None, 5)


def test_an_empty_journal_says_so_instead_of_an_empty_screen(tmp_path):
    sim = Headless(tmp_path, language="en")
    said = {
        "Games": "No finished games yet.",
        "Players": "No named players yet.",
        "Head to head": "Two named players are needed.",
        "Last games": "No finished games yet.",
        "Wins chart": "No named players yet.",
    }
    try:
        open_statistics(sim)
        for label, words in said.items():
            choose(sim, label)
            assert sim.app.top.__class__.__name__ == "Notice", label
            assert sim.screen.splitlines()[0] == f"[{label}]"
            assert " ".join(sim.app.top.lines).startswith(words), label
            sim.press("ok")
    finally:
        sim.close()


@pytest.fixture
def in_utc(monkeypatch):
    """Dates on the panel are the box's local day: the tests' box lives in UTC."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_results_are_dated_day_then_month_and_a_win_is_ticked(sim, in_utc):
    """3 December 2025, 00:00 UTC, is 1 764 720 000 seconds after the epoch."""
    finish(sim.journal, ["Ala", "Olek"], ["rico", "skipper"], [7, 11], [1], 1_764_720_000 - 1800)
    open_statistics(sim)
    choose(sim, "Players")
    choose(sim, "Olek")
    assert sim.app.top.lines[2:] == [
        "Last results:", "  03.12 11 ✓", "  01.01 9 ✓", "  01.01 18 ✓", "  01.01 15",
    ]  # fmt: skip
    sim.press("back")  # the notice
    sim.press("back")  # the list of players
    choose(sim, "Last games")
    assert sim.app.top.lines[:2] == ["03.12 Penguins: family: Olek", "01.01 King Popiel: Iza"]


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


def test_a_box_without_named_players_says_so_under_players_and_head_to_head(tmp_path):
    """A family that never typed a name: each list that needs names tells what is missing."""
    sim = Headless(tmp_path, language="en", seed=1)
    try:
        open_statistics(sim)
        choose(sim, "Players")
        assert sim.screen.splitlines()[0] == "[Players]"
        assert sim.app.top.lines == ["No named players yet."]
        sim.press("back")
        choose(sim, "Head to head")
        assert sim.screen.splitlines()[0] == "[Head to head]"
        assert " ".join(sim.app.top.lines) == "Two named players are needed."
    finally:
        sim.close()


def test_a_players_favourite_piece_is_named_as_the_table_knows_it():
    """A penguin by its name, a mouse by its colour; a mouse the table only numbered
    ("mouse-2", the seat's colour never marked) and no piece at all are both "-"."""
    from firmware_app.flows.shared.stats import _piece
    from firmware_app.words.i18n import Translator

    t = Translator("en")
    named = [_piece(t, piece) for piece in ("rico", "red", "mouse-2", None)]
    assert named == ["Rico", "Red mouse", "-", "-"]
