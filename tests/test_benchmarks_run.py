"""The daemon's benchmarks run, on a tiny workload, and print the keys their docstrings promise.

Speed itself is never asserted here: the figures depend on the machine and
its load, and belong in the benchmarks' own output.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parent.parent / "benchmarks"


def run_all(script: str, *args: str) -> list[dict]:
    """The script's JSON objects, one a line; each of their keys is named in its docstring."""
    path = BENCHMARKS / script
    done = subprocess.run(
        [sys.executable, str(path), "--json", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    docstring = path.read_text(encoding="utf-8").split('"""')[1]
    for result in results:
        assert [key for key in result if f"``{key}``" not in docstring] == []
    return results


def run(script: str, *args: str) -> dict:
    """The script's one JSON object."""
    (result,) = run_all(script, *args)
    return result


def positive(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def test_latency_times_the_button_events_of_a_game_opening():
    result = run("latency.py", "--players", "2", "--steps", "12")
    assert isinstance(result["events"], int) and result["events"] > 10
    for key in ("p50_ms", "p99_ms", "max_ms", "app_p50_ms", "app_p99_ms", "app_max_ms"):
        assert positive(result[key]), key
    assert result["p50_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert result["commits"] >= 1 and positive(result["commit_p99_ms"])


def test_startup_compares_the_first_frame_and_the_home_menu_with_a_bare_pillow_import():
    result = run("startup.py", "--runs", "1")
    for key in ("startup_ratio", "first_frame_ms", "home_ratio", "home_ms", "baseline_ms"):
        assert positive(result[key]), key
    assert result["runs"] == 1  # two timings of one run each: no order between them holds


def test_memory_reads_the_peak_of_a_child_that_played():
    result = run("memory.py", "--players", "2", "--steps", "3")
    assert positive(result["peak_rss_mb"])


def test_presses_prints_one_object_per_game_and_build():
    path = BENCHMARKS / "presses.py"
    done = subprocess.run(
        [sys.executable, str(path), "--json", "--seeds", "1", "--variant", "popiel"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["variant"], r["buttons"]) for r in results] == [("popiel", 11), ("popiel", 4)]
    docstring = path.read_text(encoding="utf-8").split('"""')[1]
    for result in results:
        assert [key for key in result if f"``{key}``" not in docstring] == []
        assert positive(result["presses_per_turn_median"]) and result["turns"] > 1
        assert result["presses_per_turn_median"] <= result["presses_per_turn_p90"]


def test_presses_reading_every_notice_says_so_and_counts_by_screen():
    results = run_all("presses.py", "--seeds", "1", "--variant", "popiel", "--reading")
    assert [(r["variant"], r["buttons"], r["reading"]) for r in results] == [
        ("popiel", 11, True),
        ("popiel", 4, True),
    ]
    for result in results:
        assert sum(result["presses_by_screen"].values()) >= result["turns"]


def test_presses_first_game_counts_a_first_evening_from_launch():
    """The opening of a first printed-box game (a few actions of it), on both builds."""
    results = run_all(
        "presses.py", "--first-game", "--variant", "family", "--seeds", "1", "--actions", "4"
    )
    assert [(r["first_game"], r["buttons"], r["reading"]) for r in results] == [
        ("family", 11, True),
        ("family", 4, True),
    ]
    eleven, four = results
    for result in results:
        before = result["before_first_turn"]
        assert result["launch_to_first_turn"] == sum(before.values())
        assert set(before) == {"setup", "names", "teaching"} and result["players"] == 3
        assert result["cards_taught"]["mix"] == 1  # the token mix, counted before the game
        median, most = result["save_wait_ms"]
        assert 0 < median <= most
        assert result["presses"]["turn"] > 0
    # three 3-letter names: "Choose the names", then each "New name …", two colours a
    # letter and OK (flows/shared/seats.py); the wheel on 4 buttons
    assert eleven["before_first_turn"]["names"] == 2 + 3 * (1 + 2 * 3 + 1)
    assert four["before_first_turn"]["names"] > eleven["before_first_turn"]["names"]


def test_players_prints_a_pairing_and_each_levels_move_times():
    path = BENCHMARKS / "players.py"
    done = subprocess.run(
        [sys.executable, str(path), "--json", "--games", "2", "--variant", "family"]
        + ["--pairing", "normal-vs-greedy"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    pairing, *levels = [json.loads(line) for line in done.stdout.splitlines()]
    docstring = path.read_text(encoding="utf-8").split('"""')[1]
    for result in (pairing, *levels):
        assert [key for key in result if f"``{key}``" not in docstring] == []
    assert (pairing["variant"], pairing["pairing"], pairing["games"]) == (
        "family",
        "normal-vs-greedy",
        2,
    )
    assert 0 <= pairing["win_rate"] <= 1
    assert {row["level"] for row in levels} == {"normal", "easy"}
    for row in levels:
        assert row["move_ms_p50"] <= row["move_ms_p95"]


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_engine_times_steps_and_a_search_s_expansions(variant):
    result = run("engine.py", "--variant", variant, "--games", "2", "--players", "2")
    assert result["games"] == 2 and result["steps"] > 100
    for key in ("steps_per_second", "cpu_steps_per_second", "cpu_expand_states_per_second"):
        assert positive(result[key]), key
    # a state in ten expanded, each into all its legal actions: more states than steps out of ten
    assert result["expanded_states"] > result["steps"] // 10


def test_stats_times_each_statistics_screen_over_a_journal_of_games():
    result = run("stats.py", "--games", "30", "--runs", "3")
    assert result["games"] == 30
    for key in ("open_games_ms", "open_player_ms", "open_wins_ms", "open_max_ms", "index_s"):
        assert positive(result[key]), key


# The figures the history benchmark must print for each size, by name.
HISTORY_KEYS = """finished_games home_ms home_ratio rss_mb resume_list_ms resume_list_100_ms
    stats_open_ms stats_games_ms bytes_per_finished_game backup_ms backup_bytes_written
    state_dir_bytes max_loop_block_ms runs load""".split()  # noqa: SIM905 (names, read as one)


def test_history_prints_one_object_per_size_with_every_figure():
    # enough finished games that the journal file grows by whole pages
    tiny = ["--sizes", "0,20", "--unfinished", "2", "--many", "3", "--pool", "1", "--runs", "1"]
    results = run_all("history.py", *tiny)
    assert [result["finished_games"] for result in results] == [0, 20]
    for result in results:
        for key in HISTORY_KEYS:
            value = result[key]
            assert isinstance(value, int | float) and not isinstance(value, bool), key
        for key in ("home_ms", "rss_mb", "resume_list_ms", "stats_open_ms", "max_loop_block_ms"):
            assert positive(result[key]), key
        assert result["state_dir_bytes"] > 0 and result["backup_bytes_written"] > 0
    assert results[0]["bytes_per_finished_game"] == 0
    assert positive(results[1]["bytes_per_finished_game"])
