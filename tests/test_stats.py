"""Statistics of finished games, on a journal of known games."""

import csv
import errno
import io
import itertools
import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest
from stats_helpers import EXAMPLES, every_figure, finish, header, known_games, more_games

from firmware_app.cli.main import main
from firmware_app.cli.results import stats_text
from firmware_app.store.faults import StorageError
from firmware_app.store.journal import Journal
from firmware_app.store.listings import GameResult
from firmware_app.store.statistics import Stats, result_problem
from firmware_app.transfer.record_import import import_record
from firmware_app.transfer.results import (
    SHEET_COLUMNS,
    csv_text,
    overview,
    score_app_json,
    write_results,
)
from rules.pingwiny.scoring import Line


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as opened:
        known_games(opened)
        yield opened


@pytest.fixture
def stats(journal, tmp_path):
    with Stats(journal, tmp_path / "stats.sqlite") as opened:
        assert opened.refresh() == 5
        yield opened


def test_per_game_plays_best_average_length_and_winners(stats):
    pingwiny = stats.games("pingwiny")
    assert pingwiny["plays"] == 4
    assert pingwiny["best_score"] == 30 and pingwiny["best_by"] == "Ala"
    assert pingwiny["average_score"] == round((20 + 15 + 12 + 18 + 9 + 9 + 4 + 30 + 2) / 9, 1)
    assert pingwiny["average_minutes"] == 32.5
    assert pingwiny["winners"] == [("Ala", 3), ("Olek", 2), ("Iza", 0)]
    assert stats.games("pingwiny", "family")["plays"] == 3
    assert stats.games("popiel")["winners"] == [("Iza", 1), ("Ala", 0)]
    assert stats.games()["plays"] == 5


def test_a_shared_win_counts_for_each_winner(stats):
    (shared,) = [g for g in stats.last_games(10) if len(g["winners"]) == 2]
    assert [w["name"] for w in shared["winners"]] == ["Ala", "Olek"]
    assert stats.player("Olek")["wins"] == 2


def test_per_player_games_wins_rate_scores_favourite_and_last_results(stats):
    ala = stats.player("Ala")
    assert (ala["games"], ala["wins"], ala["win_rate"]) == (5, 3, 0.6)
    assert ala["best_score"] == 31 and ala["average_score"] == round((20 + 12 + 9 + 30 + 31) / 5, 1)
    assert ala["favourite"] == "rico"
    assert [r["game"] for r in ala["last"]] == ["popiel"] + ["pingwiny"] * 4
    assert [r["won"] for r in ala["last"]] == [False, True, True, False, True]
    family = stats.player("Ala", "pingwiny", "family")
    assert (family["games"], family["wins"]) == (3, 2)
    assert stats.player("Iza", "popiel")["favourite"] == "blue"


def test_the_last_ten_results_are_the_newest(journal, tmp_path):
    for n in range(12):
        finish(journal, ["Ala", "Olek"], ["rico", "skipper"], [n, 0], [0], 30000 + n * 100)
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        stats.refresh()
        last = stats.player("Ala")["last"]
    assert [r["score"] for r in last] == list(range(11, 1, -1))


def test_head_to_head_over_the_games_both_played(stats):
    assert stats.head_to_head("Ala", "Olek") == {
        "players": ["Ala", "Olek"],
        "games": 3,
        "wins": [1, 1],
        "shared": 1,
        "neither": 0,
    }
    assert stats.head_to_head("Ala", "Iza")["games"] == 2
    assert stats.head_to_head("Ala", "Iza", "popiel")["wins"] == [0, 1]


def test_unnamed_seats_are_nobody_and_abandoned_games_do_not_count(stats):
    assert stats.players() == ["Ala", "Olek", "Iza"]
    assert stats.games()["plays"] == 5  # the abandoned and the unfinished game are left out
    (advanced,) = stats.last_games(10, "pingwiny", "advanced")
    assert advanced["winners"] == [{"seat": 0, "name": "Ala"}]


def test_the_cache_is_kept_incrementally(journal, stats):
    assert stats.refresh() == 0
    finish(journal, ["Ala", "Olek"], ["rico", "skipper"], [1, 2], [1], 40000)
    assert stats.refresh() == 1
    assert stats.player("Olek")["games"] == 4


def test_a_damaged_or_foreign_cache_is_rebuilt_from_the_journal(journal, tmp_path):
    path = tmp_path / "stats.sqlite"
    path.write_bytes(b"not a database at all" * 100)
    with Stats(journal, path) as stats:
        assert stats.refresh() == 5
    with Stats(journal, path) as stats:
        assert stats.refresh() == 0


def test_a_cache_held_by_another_process_is_refused_not_rebuilt(journal, tmp_path, monkeypatch):
    """``tableside stats`` run beside the panel holds the cache's write lock: a slice waits
    (``BUSY_SECONDS``, shortened here), then is refused. The cache is busy, not damaged:
    nothing is set aside or built again, and once it is free the games counted stay."""
    monkeypatch.setattr("firmware_app.store.statistics.BUSY_SECONDS", 0.1)
    path = tmp_path / "stats.sqlite"
    with Stats(journal, path) as stats:
        assert stats.refresh() == 5
    finish(journal, ["Ala", "Olek"], ["rico", "skipper"], [1, 2], [1], 40000)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    with Stats(journal, path) as stats:
        with pytest.raises(StorageError, match="cannot write the statistics cache"):
            stats.refresh()
        holder.execute("ROLLBACK")
        assert stats.refresh() == 1  # only the new game: the five were kept
    holder.close()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("stats")) == [
        "stats.sqlite"
    ]


def test_a_replaced_journal_rebuilds_the_cache(journal, tmp_path):
    path = tmp_path / "stats.sqlite"
    with Stats(journal, path) as stats:
        stats.refresh()
    with Journal(tmp_path / "other.sqlite") as other:
        finish(other, ["Ewa", "Jan"], ["rico", "skipper"], [5, 6], [1], 50)
        with Stats(other, path) as stats:
            assert stats.refresh() == 1
            assert stats.players() == ["Ewa", "Jan"]


# Indexing in slices: 5 known games and 12 more, 17 finished in all; the journal's newest
# game (the unfinished one among the known) is number 7, the 12 more are numbers 8 to 19.
FINISHED, NEWEST = 17, 19


@pytest.fixture
def seventeen(journal, tmp_path):
    """The journal with 17 finished games, and every figure of a cache indexed in one go."""
    more_games(journal, 12)
    with Stats(journal, tmp_path / "whole.sqlite") as whole:
        assert whole.refresh() == FINISHED
        return every_figure(whole)


def test_slices_index_every_game_once_and_agree_with_one_refresh(journal, tmp_path, seventeen):
    with Stats(journal, tmp_path / "sliced.sqlite") as sliced:
        assert sliced.progress() == (0, NEWEST)
        more = [sliced.index_slice(limit=3) for _ in range(6)]
        assert more == [True] * 5 + [False]  # the sixth finds the last 2 games and says so
        assert sliced.index_slice(limit=3) is False and sliced.refresh() == 0
        assert sliced.progress() == (NEWEST, NEWEST)
        assert len({row[0] for row in sliced.rows()}) == FINISHED
        assert every_figure(sliced) == seventeen


def test_a_slice_with_a_time_budget_ends_after_the_read_that_spends_it(journal, tmp_path):
    ticks = itertools.count()  # a clock that moves a second each time it is read
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        assert stats.index_slice(limit=100, seconds=0.5, clock=lambda: next(ticks)) is True
        assert len(stats.rows()) == 2 + 2 + 3 + 2  # the first slice's games: 4 Pingwiny
        assert stats.games()["plays"] == 4


@pytest.mark.parametrize("limit", [0, -3])
def test_a_slice_of_no_game_is_refused_naming_the_limit(journal, tmp_path, limit):
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        with pytest.raises(ValueError, match=f"^a slice indexes at least one game, not {limit}$"):
            stats.index_slice(limit=limit)
        assert stats.progress()[0] == 0  # nothing was indexed


@pytest.mark.parametrize("slices", [1, 2, 5])
def test_closing_between_slices_keeps_the_progress_and_the_next_one_finishes(
    journal, tmp_path, seventeen, slices
):
    path = tmp_path / "stats.sqlite"
    with Stats(journal, path) as first:
        for _ in range(slices):
            assert first.index_slice(limit=2)
        reached = first.progress()[0]
    with Stats(journal, path) as second:
        assert second.progress()[0] == reached > 0
        assert second.refresh() == FINISHED - 2 * slices
        assert every_figure(second) == seventeen


KILLED = """
import os, sys
sys.path.insert(0, sys.argv[1])
from firmware_app.store.journal import Journal
from firmware_app.store.statistics import Stats
stats = Stats(Journal(sys.argv[2]), sys.argv[3])
for _ in range(3):
    stats.index_slice(limit=2)
print(stats.progress()[0], flush=True)
os._exit(9)  # killed: nothing closed, nothing checkpointed
"""


def test_a_process_killed_between_slices_keeps_every_committed_slice(journal, tmp_path, seventeen):
    path = tmp_path / "stats.sqlite"
    root = str(Path(__file__).parents[1])
    done = subprocess.run(
        [sys.executable, "-c", KILLED, root, str(journal.path), str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 9, done.stderr
    with Stats(journal, path) as stats:
        assert stats.progress()[0] == int(done.stdout) > 0
        assert stats.refresh() == FINISHED - 6
        assert every_figure(stats) == seventeen


def test_a_cache_damaged_between_slices_is_rebuilt_and_finished(journal, tmp_path, seventeen):
    path = tmp_path / "stats.sqlite"
    with Stats(journal, path) as stats:
        stats.index_slice(limit=2)
        stats.index_slice(limit=2)
        page = stats._db.execute("PRAGMA page_size").fetchone()[0]
    with path.open("r+b") as file:  # every page but the first (the header and the schema)
        size = file.seek(0, io.SEEK_END)
        file.seek(page)
        file.write(b"\xa5" * (size - page))
    with Stats(journal, path) as stats:  # its check on opening finds the damage
        assert stats.progress()[0] == 0  # the damaged cache moved aside, a new one begun
        assert stats.refresh() == FINISHED
        assert every_figure(stats) == seventeen
    assert len(list(tmp_path.glob("stats.sqlite.damaged-*"))) == 1


def test_a_journal_whose_newest_game_cannot_be_read_leaves_no_end_to_count_to(
    tmp_path, monkeypatch
):
    def damaged():
        raise sqlite3.DatabaseError("database disk image is malformed")

    with Journal(tmp_path / "journal.sqlite") as journal:
        with Stats(journal, tmp_path / "stats.sqlite") as stats:
            assert stats.progress() == (0, 0)  # no game yet: counted to its end
        monkeypatch.setattr(journal, "newest_id", damaged)
        with Stats(journal, tmp_path / "stats.sqlite") as stats:
            assert stats.progress() == (0, None)  # nothing known of its end


@pytest.mark.parametrize(
    "mistake",
    [sqlite3.ProgrammingError("Incorrect number of bindings supplied."),
     sqlite3.IntegrityError("UNIQUE constraint failed: games.id")],
    ids=["programming", "integrity"],
)  # fmt: skip
def test_a_mistake_of_the_counting_is_raised_as_it_is_and_not_taken_for_damage(
    journal, tmp_path, monkeypatch, mistake
):
    """A wrong statement is a bug to see, not a damaged cache to rebuild: its error comes out
    unchanged, though the module raises it with no SQLite error code (Python's own check)."""
    path = tmp_path / "stats.sqlite"
    with Stats(journal, path) as stats:
        stats.index_slice(limit=2)

        def wrong(game, plays):
            raise mistake

        monkeypatch.setattr(stats, "_add", wrong)
        with pytest.raises(type(mistake)) as raised:
            stats.index_slice(limit=2)
        assert raised.value is mistake
        assert stats.progress()[0] == 2
    assert list(tmp_path.glob("stats.sqlite.damaged-*")) == []


def test_a_full_storage_refuses_a_slice_and_keeps_the_slices_before(journal, tmp_path, seventeen):
    path = tmp_path / "stats.sqlite"
    with Stats(journal, path) as stats:
        stats.index_slice(limit=2)
        reached = stats.progress()[0]
        pages = stats._db.execute("PRAGMA page_count").fetchone()[0]
        stats._db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "disk full"
        with pytest.raises(StorageError) as refused:
            stats.index_slice(limit=FINISHED)
        assert refused.value.reason == "full"
        assert (
            str(refused.value)
            == f"{path}: cannot write the statistics cache: database or disk is full"
        )
        assert stats.progress()[0] == reached  # the refused slice left nothing half-done
    with Stats(journal, path) as stats:
        assert stats.refresh() == FINISHED - 2
        assert every_figure(stats) == seventeen


def test_the_csv_has_one_row_a_player_of_a_game_in_plain_columns(stats):
    text = csv_text(stats)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert text.splitlines()[0] == (
        "date,game,variant,game number,seat,player,penguin,mouse colour,score,winner,"
        "figurant points,penguin bonus,mission points,card bonuses,penalty,figurant cards,"
        "demo data"
    )
    assert len(rows) == 2 + 2 + 3 + 2 + 2
    first = rows[0]
    assert {k: first[k] for k in ("game", "variant", "game number", "seat", "player")} == {
        "game": "Pingwiny z Madagaskaru", "variant": "family", "game number": "1",
        "seat": "1", "player": "Ala",
    }  # fmt: skip
    assert (first["penguin"], first["mouse colour"]) == ("Rico", "")  # as the panel names it
    assert (first["score"], first["winner"], first["demo data"]) == ("20", "yes", "yes")
    assert (first["figurant points"], first["penalty"], first["card bonuses"]) == ("20", "0", "")
    assert rows[7]["card bonuses"] == "0"  # the advanced variant's
    assert rows[8]["player"] == "Player 2"
    popiel = rows[-1]
    assert (popiel["game"], popiel["variant"], popiel["penguin"]) == ("Król Popiel", "", "")
    assert (popiel["mouse colour"], popiel["score"], popiel["figurant points"]) == (
        "blue", "40", "",
    )  # fmt: skip
    assert "{" not in text  # no JSON in a cell


def test_the_score_sheet_has_a_column_for_each_of_its_parts():
    parts = {field.name for field in fields(Line)} - {"player", "penguin", "total"}
    assert parts == {key for key, _ in SHEET_COLUMNS}


def test_the_csv_of_real_games_adds_up_and_leaves_blank_what_does_not_apply(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        for name in ("family-3p-seed7", "advanced-3p-seed5", "krol-popiel-3p-game"):
            import_record(journal, EXAMPLES / f"{name}.json", now=0)
        with Stats(journal, tmp_path / "stats.sqlite") as stats:
            stats.refresh()
            rows = list(csv.DictReader(io.StringIO(csv_text(stats))))
    parts = ["figurant points", "penguin bonus", "mission points", "card bonuses", "penalty"]
    for row in rows:
        if row["game"] == "Król Popiel":
            assert [row[title] for _, title in SHEET_COLUMNS] == [""] * len(SHEET_COLUMNS)
            assert row["penguin"] == row["mouse colour"] == ""  # numbered mice: no colour
            continue
        assert row["penguin"] in {"Kowalski", "Skipper", "Rico", "Szeregowy"}
        assert (row["card bonuses"] == "") == (row["variant"] == "family")
        assert sum(int(row[part] or 0) for part in parts) == int(row["score"])
    assert [row["game"] for row in rows].count("Król Popiel") == 3


def test_a_name_that_a_spreadsheet_would_take_for_a_formula_stays_text(journal, tmp_path):
    finish(journal, ["=1+2", "Ola"], ["rico", "skipper"], [5, 3], [0], 30_000)
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        stats.refresh()
        rows = list(csv.DictReader(io.StringIO(csv_text(stats))))
    assert [row["player"] for row in rows[-2:]] == ["'=1+2", "Ola"]


def test_a_mouse_colour_that_a_spreadsheet_would_take_for_a_formula_stays_text(journal, tmp_path):
    mice = ["=1+2", "@SUM(1)", "+cmd|x", "-1"]  # as a record from another box may carry them
    game = journal.start_game(
        header(["Ala", "Ola", "Iza", "Ed"], game="popiel", variant="standard", mice=mice), now=9
    )
    journal.finish(game, {"scores": [31, 40, 2, -1], "winners": [1]}, now=99)
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        stats.refresh()
        rows = csv.DictReader(io.StringIO(csv_text(stats)))
        rows = [row for row in rows if row["game number"] == str(game)]
    assert [row["mouse colour"] for row in rows] == ["'=1+2", "'@SUM(1)", "'+cmd|x", "'-1"]
    assert [row["score"] for row in rows] == ["31", "40", "2", "-1"]  # numbers stay numbers


def test_the_score_app_json_lists_players_games_and_plays(stats):
    shaped = score_app_json(stats)
    assert [p["name"] for p in shaped["players"]] == ["Ala", "Olek", "Iza", "Player 2"]
    assert [g["name"] for g in shaped["games"]] == [
        "Pingwiny z Madagaskaru (family)",
        "Pingwiny z Madagaskaru (advanced)",
        "Król Popiel",
    ]
    assert len(shaped["plays"]) == 5
    first = shaped["plays"][0]
    assert first["durationMin"] == 30 and first["gameRefId"] == 1
    assert first["playerScores"] == [
        {"playerRefId": 1, "score": "20", "winner": True, "seatOrder": 0},
        {"playerRefId": 2, "score": "15", "winner": False, "seatOrder": 1},
    ]


def played_record(tmp_path: Path) -> Path:
    """A whole game played on the app and exported: a real record to import."""
    from firmware_app.runners.autopilot import Autopilot, new_game_script
    from firmware_app.runners.headless import Headless

    sim = Headless(tmp_path / "box", language="en", seed=3)
    for line in new_game_script(2):
        sim.command(line)
    Autopilot(sim, seed=3).play()  # kept as finished at its end
    out = tmp_path / "out"
    with Stats(sim.journal, tmp_path / "box" / "stats.sqlite") as stats:
        write_results(sim.journal, stats, out)
    sim.close()
    (record,) = out.glob("game-*.json")
    return record


def test_a_record_from_another_box_is_imported_once(tmp_path, capsys):
    record = played_record(tmp_path)
    state = tmp_path / "here"
    assert main(["import", "--state-dir", str(state), str(record)]) == 0
    assert f"added to {state} as game 1" in capsys.readouterr().out
    assert main(["import", "--state-dir", str(state), str(record)]) == 1
    assert f"{record}: already in the journal as game 1" in capsys.readouterr().err
    with Journal(state / "journal.sqlite") as journal:
        exported = journal.export(1)
    assert exported == json.loads(record.read_text(encoding="utf-8"))


def test_an_unfinished_or_broken_record_is_refused_by_name(tmp_path):
    example = Path(__file__).parents[1] / "examples" / "family-3p-seed7.json"
    record = json.loads(example.read_text(encoding="utf-8"))
    record["actions"] = record["actions"][:10]
    unfinished = tmp_path / "half.json"
    unfinished.write_text(json.dumps(record))
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with Journal(tmp_path / "journal.sqlite") as journal:
        for path, reason in ((unfinished, "not finished"), (broken, "not a game record")):
            with pytest.raises(ValueError, match=f"{path}: .*{reason}"):
                import_record(journal, path, now=0)
        assert journal.finished_games() == []


def test_stats_print_a_block_a_game_with_names_not_ids(journal, tmp_path, capsys):
    assert main(["stats", "--state-dir", str(tmp_path)]) == 0
    assert (
        capsys.readouterr().out
        == f"""\
{tmp_path}: 5 finished games (3 Pingwiny z Madagaskaru (family), \
1 Pingwiny z Madagaskaru (advanced), 1 Król Popiel)
Wins over all these games: Ala 3, Olek 2, Iza 1

Pingwiny z Madagaskaru (family): 3 games, 33.3 min on average
  best score 20 (Ala), average score 12.4
  Ala: 3 games, 2 wins (67%), average score 13.7, best 20, favourite penguin: Rico
  Olek: 3 games, 2 wins (67%), average score 14.0, best 18, favourite penguin: Kowalski
  Iza: 1 game, 0 wins (0%), average score 4.0, best 4, favourite penguin: Skipper

Pingwiny z Madagaskaru (advanced): 1 game, 30.0 min on average
  best score 30 (Ala), average score 16.0
  Ala: 1 game, 1 win (100%), average score 30.0, best 30, favourite penguin: Rico

Król Popiel: 1 game, 10.0 min on average
  best score 40 (Iza), average score 35.5
  Ala: 1 game, 0 wins (0%), average score 31.0, best 31, favourite mouse colour: red
  Iza: 1 game, 1 win (100%), average score 40.0, best 40, favourite mouse colour: blue
"""
    )


def test_stats_of_one_game_or_one_player(journal, tmp_path, capsys):
    folder = str(tmp_path)
    assert main(["stats", "--state-dir", folder, "--game", "popiel"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{tmp_path}: 1 finished game\n\nKról Popiel: 1 game")
    assert "Pingwiny" not in out
    assert main(["stats", "--state-dir", folder, "--player", "Iza"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"Iza in {tmp_path}:",
        "  Pingwiny z Madagaskaru (family): 1 game, 0 wins (0%), average score 4.0, best 4, "
        "favourite penguin: Skipper",
        "  Król Popiel: 1 game, 1 win (100%), average score 40.0, best 40, "
        "favourite mouse colour: blue",
    ]
    assert main(["stats", "--state-dir", folder, "--player", "Iza", "--variant", "advanced"]) == 0
    assert capsys.readouterr().out == (
        f"Iza in {tmp_path}: no finished games of the advanced variant\n"
    )
    assert main(["stats", "--state-dir", folder, "--variant", "standard"]) == 0
    out = capsys.readouterr().out
    assert "Król Popiel: 1 game, 10.0 min on average" in out and "Pingwiny" not in out
    assert main(["stats", "--state-dir", folder, "--player", "Zosia"]) == 1
    assert "no player 'Zosia'" in capsys.readouterr().err


def test_stats_json_keeps_each_games_scores_apart(journal, tmp_path, capsys):
    assert main(["stats", "--state-dir", str(tmp_path), "--json"]) == 0
    overview = json.loads(capsys.readouterr().out)
    assert overview["games"] == {"plays": 5, "winners": [["Ala", 3], ["Olek", 2], ["Iza", 1]]}
    family, advanced, popiel = overview["sections"]
    assert (family["title"], family["piece"], family["games"]["best_score"]) == (
        "Pingwiny z Madagaskaru (family)", "penguin", 20,
    )  # fmt: skip
    assert [p["name"] for p in advanced["players"]] == ["Ala"]  # only who played it
    assert (popiel["piece"], popiel["games"]["best_score"]) == ("mouse colour", 40)
    assert [p["favourite"] for p in popiel["players"]] == ["red", "blue"]


def test_export_without_out_writes_a_new_folder_in_the_state_folder(
    journal, tmp_path, capsys, monkeypatch
):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    folders = []
    for _ in range(2):
        assert main(["export", "--state-dir", str(tmp_path)]) == 0
        last = capsys.readouterr().out.splitlines()[-1]
        assert last.startswith("5 finished, 1 abandoned game(s) exported to ")
        folders.append(Path(last.split(" exported to ")[1].split(" from ")[0]))
    assert list(here.iterdir()) == []  # nothing written where the command was run
    first, second = folders
    assert first.parent == second.parent == tmp_path / "exports" and first != second
    assert {p.name for p in first.iterdir()} == {p.name for p in second.iterdir()} >= {
        "results.csv", "results-scorekeeping.json", "statistics.json", "game-00001.json",
    }  # fmt: skip
    out = tmp_path / "out"
    assert main(["export", "--state-dir", str(tmp_path), "--out", str(out)]) == 0
    assert f"exported to {out} from" in capsys.readouterr().out


def test_an_export_to_a_full_card_is_one_line_and_leaves_no_half_folder(
    journal, tmp_path, capsys, monkeypatch
):
    def full(handle: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    before = journal.finished_games()
    monkeypatch.setattr(os, "fsync", full)  # where a full card shows at the latest
    assert main(["export", "--state-dir", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(f"tableside: {tmp_path / 'exports'}/")
    assert line.endswith(": cannot write the results: No space left on device")
    assert list((tmp_path / "exports").iterdir()) == []
    out = tmp_path / "out"
    assert main(["export", "--state-dir", str(tmp_path), "--out", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"tableside: {out}: cannot write the results: No space left on device\n"
    )
    assert journal.finished_games() == before


def test_a_missing_journal_is_named(tmp_path, capsys):
    assert main(["stats", "--state-dir", str(tmp_path / "nowhere")]) == 1
    assert capsys.readouterr().err == (
        f"tableside: {tmp_path / 'nowhere'}: no journal in that folder, nothing to show\n"
    )


def test_a_best_score_of_a_seat_with_no_name_says_so(tmp_path, capsys):
    """Only unnamed seats have played: the best score is nobody's by name, and the terminal
    says whose it is in words, not an empty pair of brackets."""
    with Journal(tmp_path / "journal.sqlite") as journal:
        finish(journal, ["", ""], ["rico", "skipper"], [5, 25], [1], 30000)
    assert main(["stats", "--state-dir", str(tmp_path)]) == 0
    assert "  best score 25 (a seat with no name), average score 15" in capsys.readouterr().out


def test_an_empty_seat_name_is_not_counted_as_a_player(journal, tmp_path):
    """statistics.py: "A seat without a name ("Player 2") is counted in the game's figures
    but is nobody's in the players' figures"; a name left empty is no name either."""
    finish(journal, ["Ala", ""], ["rico", "skipper"], [5, 25], [1], 30000)
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        stats.refresh()
        assert stats.players() == ["Ala", "Olek", "Iza"]
        assert "" not in dict(stats.wins())
        (last,) = stats.last_games(1)
        assert last["winners"] == [{"seat": 1, "name": None}]
        assert stats.games("pingwiny", "family")["plays"] == 4  # the game itself counts


@pytest.mark.parametrize("names", ["AB", ("A", "B"), ["A", 2]])
def test_names_that_are_not_a_list_of_names_keep_a_game_from_being_counted(names):
    """A header's names read as a string of two letters for two seats, a tuple (JSON gives
    none) or a number among them: the game is not counted; the same names as a list are."""
    summary = {"scores": [31, 40], "winners": [1]}
    game = GameResult(1, "popiel", "standard", 1000.0, 1600.0, summary, 10, names, 2, False)
    assert result_problem(game) is not None
    assert result_problem(game._replace(names=["A", "B"])) is None


def test_stats_of_records_without_their_times_say_no_average_time(stats, tmp_path):
    """Records brought in without their times average 0 minutes: no time is printed."""
    result = overview(stats, None, None)
    for section in result["sections"]:
        section["games"]["average_minutes"] = 0
    lines = stats_text(result, tmp_path).splitlines()
    assert "Pingwiny z Madagaskaru (family): 3 games" in lines
    assert "Król Popiel: 1 game" in lines
    assert not [line for line in lines if "on average" in line]
