"""The journal: durability settings, undo/redo, resume, export, settings, and SIGKILL."""

import json
import multiprocessing
import os
import random
import select
import signal
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_app.store import journal as journal_module
from firmware_app.store.catalogue_files import load
from firmware_app.store.faults import JournalError
from firmware_app.store.journal import Journal
from firmware_app.store.listings import FinishedGame, UnfinishedGame
from rules.pingwiny.options import Options
from rules.record import game_of, new_record, replay

HEADER = {
    "format": "tableside-game-record",
    "version": 1,
    "game": "pingwiny",
    "variant": "family",
    "options": {"players": 2, "seed": 7},
    "catalogue": {},
    "actions": [],
}


@pytest.fixture
def journal(tmp_path: Path):
    with Journal(tmp_path / "journal.sqlite") as opened:
        yield opened


@pytest.fixture(scope="module")
def demo_record() -> dict:
    """An empty record of a real game, on the demo deck, that the engine can replay."""
    return new_record("pingwiny", "family", Options(players=2, seed=7), load([], demo=True))


def play(journal: Journal, *notations: str) -> int:
    game = journal.start_game(HEADER, now=100.0)
    for notation in notations:
        journal.append(game, notation)
    return game


# ------------------------------------------------------------------ storage


def test_wal_and_synchronous_full_are_in_effect(journal):
    assert journal.storage() == {
        "journal_mode": "wal",
        "synchronous": "FULL",
        "foreign_keys": True,
        "busy_timeout_ms": 5000,
        "schema": 3,
    }


def test_a_journal_that_cannot_use_wal_is_refused():
    # An in-memory database has no write-ahead log: its journal_mode stays "memory".
    with pytest.raises(JournalError, match=r"did not accept journal_mode = wal \(it is memory\)"):
        Journal(":memory:")


def test_the_file_is_marked_as_a_journal_for_any_reader(journal):
    other = sqlite3.connect(journal.path)
    try:
        assert other.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        # docs/journal.md: "marked with `PRAGMA application_id = 0x54424C53` ("TBLS")"
        tbls = int.from_bytes(b"TBLS", "big")
        assert other.execute("PRAGMA application_id").fetchone() == (tbls,)
        assert other.execute("PRAGMA user_version").fetchone() == (3,)
    finally:
        other.close()


def test_a_text_file_is_refused_naming_its_path(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping list\n" * 100)
    with pytest.raises(JournalError, match=f"^{path}: not a Tableside journal"):
        Journal(path)
    assert path.read_text() == "shopping list\n" * 100


def test_another_programs_sqlite_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "other.sqlite"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE t (x)")
    other.commit()
    other.close()
    with pytest.raises(JournalError) as caught:
        Journal(path)
    assert str(caught.value) == f"{path}: an SQLite file, but not a Tableside journal"
    other = sqlite3.connect(path)
    assert other.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    other.close()


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA user_version = 4")
    raw.commit()
    raw.close()
    with pytest.raises(JournalError) as caught:
        Journal(path)
    assert str(caught.value) == (
        f"{path}: journal schema 4 (a newer Tableside?); this one reads schema 3"
    )


# The schema of version 1, as Tableside wrote it before several unfinished games.
VERSION_1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    outcome TEXT CHECK (outcome IN ('finished', 'abandoned')),
    summary TEXT,
    CHECK ((ended IS NULL) = (outcome IS NULL)));
CREATE UNIQUE INDEX one_unfinished ON games (outcome IS NULL) WHERE outcome IS NULL;
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    notation TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
PRAGMA application_id = 1413631059;
PRAGMA user_version = 1;
"""


def write_version_1(path: Path) -> None:
    """A version-1 journal: a finished game, an abandoned one, one in play with redo, a setting."""
    raw = sqlite3.connect(path)
    raw.executescript(VERSION_1)
    header = json.dumps({k: v for k, v in HEADER.items() if k != "actions"})
    raw.executemany(
        "INSERT INTO games (id, header, started, ended, outcome, summary) VALUES (?,?,?,?,?,?)",
        [
            (1, header, 10.0, 20.0, "finished", json.dumps({"winners": [0]})),
            (2, header, 30.0, 40.0, "abandoned", None),
            (3, header, 50.0, None, None, None),
        ],
    )
    raw.executemany(
        "INSERT INTO actions (game_id, seq, notation, undone) VALUES (?,?,?,?)",
        [(1, 1, "draw", 0), (2, 1, "draw", 0), (3, 1, "draw", 0), (3, 2, "visit chimp", 1)],
    )
    raw.execute("INSERT INTO settings VALUES ('language', '\"en\"')")
    raw.commit()
    raw.close()


def shape(path: Path) -> dict:
    raw = sqlite3.connect(path)
    try:
        tables = [row[0] for row in raw.execute("SELECT name FROM sqlite_schema ORDER BY name")]
        return {
            name: raw.execute(f"PRAGMA table_info({name})").fetchall()
            + raw.execute(f"PRAGMA index_list({name})").fetchall()
            for name in tables
            if not name.startswith("sqlite_")
        }
    finally:
        raw.close()


def test_a_version_1_journal_is_migrated_keeping_every_game(tmp_path):
    path = tmp_path / "journal.sqlite"
    write_version_1(path)
    with Journal(path) as journal:
        assert journal.storage()["schema"] == 3
        assert journal.check() == []
        assert journal.ended_games() == [
            FinishedGame(1, "pingwiny", "family", 10.0, 20.0, {"winners": [0]}, 1),
            FinishedGame(2, "pingwiny", "family", 30.0, 40.0, {}, 1, "abandoned"),
        ]
        assert journal.unfinished_games() == [
            UnfinishedGame(3, "pingwiny", "family", 50.0, 50.0, 1)
        ]
        assert journal.record(3)["actions"] == ["draw"]
        assert journal.redo(3) == "visit chimp"  # the undone tail survives
        assert journal.get_setting("language") == "en"
        second = journal.start_game(HEADER, now=60.0)  # version 1 allowed one only
        assert {game.id for game in journal.unfinished_games()} == {3, second}
    Journal(tmp_path / "new.sqlite").close()
    assert shape(path) == shape(tmp_path / "new.sqlite")


def test_a_migration_that_fails_leaves_version_1_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "journal.sqlite"
    write_version_1(path)
    before = shape(path)
    broken = {1: (*journal_module._MIGRATIONS[1], "SELECT no_such_function()")}
    monkeypatch.setattr(journal_module, "_MIGRATIONS", broken)
    with pytest.raises(JournalError):
        Journal(path)
    assert shape(path) == before
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone() == (1,)
    raw.close()


def test_a_missing_folder_is_reported(tmp_path):
    path = tmp_path / "absent" / "journal.sqlite"
    with pytest.raises(JournalError, match=f"^{path}: cannot open the journal"):
        Journal(path)


# ------------------------------------------------------------------ games


def test_a_new_journal_has_no_game(journal):
    assert journal.unfinished() is None
    assert journal.finished_games() == []


def test_start_game_stores_the_header_without_actions(journal):
    game = journal.start_game(HEADER, now=100.0)
    assert journal.unfinished() == game
    assert journal.record(game) == HEADER


def test_starting_a_game_leaves_the_unfinished_ones_to_play_on(journal):
    first = play(journal, "draw")
    second = journal.start_game(HEADER, now=200.0)
    assert journal.unfinished() == second
    journal.append(first, "visit chimp", now=300.0)
    assert journal.unfinished() == first  # played last
    assert journal.record(first)["actions"] == ["draw", "visit chimp"]
    assert journal.unfinished_games() == [
        UnfinishedGame(first, "pingwiny", "family", 100.0, 300.0, 2),
        UnfinishedGame(second, "pingwiny", "family", 200.0, 200.0, 0),
    ]
    assert journal.finished_games() == []


def test_an_abandoned_game_is_kept_closed_and_exported_as_abandoned(journal, tmp_path):
    game = play(journal, "draw", "visit chimp", "visit otter")
    journal.undo(game)
    journal.abandon(game, now=400.0)
    assert journal.unfinished_games() == []
    assert journal.finished_games() == []
    assert journal.ended_games() == [
        FinishedGame(game, "pingwiny", "family", 100.0, 400.0, {}, 2, "abandoned")
    ]
    with pytest.raises(JournalError, match=f"game {game} is abandoned; it cannot change"):
        journal.append(game, "visit chimp")
    exported = journal.export(game)
    assert exported == HEADER | {
        "actions": ["draw", "visit chimp"],
        "outcome": "abandoned",
        "played": {"started": 100.0, "ended": 400.0},
    }
    files = journal.export_files()
    assert list(files) == [f"game-{game:05d}-abandoned.json"]
    assert json.loads(files[f"game-{game:05d}-abandoned.json"].decode()) == exported


@pytest.mark.parametrize(
    "header, message",
    [
        ({"format": "something else"}, "a game header is a 'tableside-game-record' mapping"),
        (["draw"], "a game header is a 'tableside-game-record' mapping"),
        (HEADER | {"actions": ["draw"]}, "a new game's header has no actions"),
    ],
)
def test_a_bad_header_is_refused(journal, header, message):
    with pytest.raises(ValueError, match=message):
        journal.start_game(header, now=1.0)
    assert journal.unfinished() is None


def test_an_unknown_game_is_an_error(journal):
    with pytest.raises(JournalError, match=f"^{journal.path}: no game 42$"):
        journal.record(42)
    with pytest.raises(JournalError, match="no game 42"):
        journal.append(42, "draw")


@pytest.mark.parametrize("notation", ["", "   ", None, 3])
def test_an_empty_or_non_text_action_is_refused(journal, notation):
    game = play(journal)
    with pytest.raises(ValueError, match="an action is a non-empty notation"):
        journal.append(game, notation)
    assert journal.record(game)["actions"] == []


# -------------------------------------------------------- append, undo, redo


def test_append_numbers_actions_from_one(journal):
    game = journal.start_game(HEADER, now=1.0)
    assert [journal.append(game, n) for n in ("draw", "visit chimp", "visit otter")] == [1, 2, 3]
    assert journal.record(game)["actions"] == ["draw", "visit chimp", "visit otter"]


def test_undo_takes_back_the_last_action_and_keeps_it_for_redo(journal):
    game = play(journal, "draw", "visit chimp", "visit otter")
    assert journal.undo(game) == "visit otter"
    assert journal.undo(game) == "visit chimp"
    assert journal.record(game)["actions"] == ["draw"]
    assert journal.can_undo(game) and journal.can_redo(game)
    assert journal.redo(game) == "visit chimp"
    assert journal.record(game)["actions"] == ["draw", "visit chimp"]
    assert journal.redo(game) == "visit otter"
    assert journal.redo(game) is None
    assert not journal.can_redo(game)


def test_undo_with_nothing_to_undo_returns_none(journal):
    game = play(journal, "draw")
    assert journal.undo(game) == "draw"
    assert not journal.can_undo(game)
    assert journal.undo(game) is None
    assert journal.record(game)["actions"] == []
    assert journal.can_redo(game)


def test_a_new_action_after_undo_drops_the_redo_tail(journal):
    game = play(journal, "draw", "visit chimp", "visit otter")
    journal.undo(game)
    journal.undo(game)
    assert journal.append(game, "visit gate") == 2
    assert not journal.can_redo(game)
    assert journal.redo(game) is None
    assert journal.record(game)["actions"] == ["draw", "visit gate"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["append", "undo", "redo"]), max_size=15))
def test_undo_redo_and_append_follow_a_list_and_a_cursor(steps):
    """The journal behaves like the obvious model: a list of actions and how many are live."""
    actions: list[str] = []
    live = 0
    with tempfile.TemporaryDirectory() as folder, Journal(Path(folder) / "j.sqlite") as journal:
        game = journal.start_game(HEADER, now=1.0)
        for number, step in enumerate(steps):
            if step == "append":
                actions[live:] = [f"act {number}"]
                live += 1
                assert journal.append(game, f"act {number}") == live
            elif step == "undo":
                expected = actions[live - 1] if live else None
                live = max(live - 1, 0)
                assert journal.undo(game) == expected
            else:
                expected = actions[live] if live < len(actions) else None
                live = min(live + 1, len(actions))
                assert journal.redo(game) == expected
            assert journal.record(game)["actions"] == actions[:live]
            assert journal.can_undo(game) == (live > 0)
            assert journal.can_redo(game) == (live < len(actions))
        assert journal.check() == []


def test_close_and_reopen_resumes_the_same_game(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        game = play(journal, "draw", "visit chimp", "visit otter")
        journal.undo(game)
        before = journal.record(game)
    with Journal(path) as journal:
        assert journal.unfinished() == game
        assert journal.record(game) == before
        assert journal.redo(game) == "visit otter"


# ------------------------------------------------------------- finishing


def test_finish_lists_the_game_and_closes_it(journal):
    game = play(journal, "draw", "visit chimp", "visit otter")
    journal.undo(game)
    journal.finish(game, {"winners": [1]}, now=250.0)
    assert journal.unfinished() is None
    assert journal.finished_games() == [
        FinishedGame(game, "pingwiny", "family", 100.0, 250.0, {"winners": [1]}, 2)
    ]
    assert not journal.can_undo(game) and not journal.can_redo(game)
    for change in (journal.undo, journal.redo, lambda g: journal.append(g, "draw")):
        with pytest.raises(JournalError, match=f"game {game} is finished; it cannot change"):
            change(game)
    assert journal.export(game)["actions"] == ["draw", "visit chimp"]


def test_only_a_finished_game_is_exported(journal):
    game = play(journal, "draw")
    with pytest.raises(JournalError, match=f"game {game} is not finished"):
        journal.export(game)


def test_the_exported_record_replays_to_the_state_the_table_saw(journal, demo_record):
    """Play through the journal as the daemon does, with undo and redo, then replay."""
    engine = game_of(demo_record)
    state = engine.new_state()
    game = journal.start_game(demo_record, now=1.0)
    chooser = random.Random(5)
    while state.phase != "over":
        if chooser.random() < 0.1 and journal.can_undo(game):
            journal.undo(game)
            state = replay(journal.record(game)).final
            if chooser.random() < 0.5:
                state, _ = engine.apply(state, journal.redo(game))
            continue
        action = chooser.choice(engine.legal_actions(state))
        state, _ = engine.apply(state, action)
        journal.append(game, str(action))
    journal.finish(game, engine.score(state).to_json(), now=2.0)
    exported = journal.export(game)
    assert exported == demo_record | {
        "actions": exported["actions"],
        "played": {"started": 1.0, "ended": 2.0},
    }
    assert replay(exported).final == state


def test_export_files_hold_one_record_per_finished_game(journal):
    done = play(journal, "draw", "visit chimp")
    journal.finish(done, {}, now=2.0)
    play(journal, "draw")
    files = journal.export_files()
    assert list(files) == [f"game-{done:05d}.json"]
    assert json.loads(files[f"game-{done:05d}.json"].decode()) == journal.export(done)
    assert journal.export_files() == files


def test_an_exported_record_keeps_a_polish_name_as_it_is_written(journal):
    """The file is read by people too: "Łucja" stays "Łucja", not "\\u0141ucja"."""
    names = {**HEADER, "options": {**HEADER["options"], "names": ["Łucja", "Żaneta"]}}
    done = journal.start_game(names, now=100.0)
    journal.append(done, "draw")
    journal.finish(done, {}, now=2.0)
    text = journal.export_files()[f"game-{done:05d}.json"].decode("utf-8")
    assert '"Łucja"' in text and '"Żaneta"' in text


def test_how_far_a_game_got_is_kept_for_the_resume_list(tmp_path):
    """A game from before places were kept gets its place stored when it is loaded; the
    resume list reads it back, after the box starts again too."""
    with Journal(tmp_path / "journal.sqlite") as journal:
        game = play(journal, "draw")
        assert journal.place(game) is None  # not kept yet
        journal.set_place(game, {"round": 2, "player": 1})
        assert journal.place(game) == {"round": 2, "player": 1}
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert journal.place(game) == {"round": 2, "player": 1}


def test_an_undo_keeps_how_far_the_game_is_after_it(tmp_path):
    """Undo takes the game back: the resume list reads the place the undo gave, not the
    place of the action it took back."""
    with Journal(tmp_path / "journal.sqlite") as journal:
        game = play(journal, "draw")
        journal.append(game, "visit chimp", place={"round": 1, "player": 2})
        assert journal.undo(game, place={"round": 1, "player": 1}) == "visit chimp"
        assert journal.place(game) == {"round": 1, "player": 1}


def test_a_finished_game_whose_packed_actions_are_damaged_counts_them_as_lost(tmp_path):
    """A finished game keeps its actions packed in its row, with their count: when the packed
    bytes no longer unpack, the check says none of that many replays, and why."""
    from firmware_app.store.rows import read_rows, replaying

    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        game = play(journal, "draw", "visit chimp")
        journal.finish(game, {}, now=2.0)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT packed_count FROM games").fetchall() == [(2,)]
        db.execute("UPDATE games SET packed = x'00ff00ff' WHERE id = ?", (game,))
    db.close()
    assert replaying(read_rows(path), game) == (0, 2, "its packed actions are not readable")


def test_a_catalogue_taught_during_a_game_replaces_the_one_in_its_record(tmp_path):
    """What the table teaches in a game goes into that game's record, so that its export and
    its resume replay with the values taught; the actions stay as they were."""
    with Journal(tmp_path / "journal.sqlite") as journal:
        game = play(journal, "draw")
        taught = {"figurants": [{"id": "becky", "points": 3}]}
        journal.complete_catalogue(game, taught)
        record = journal.record(game)
    assert (record["catalogue"], record["actions"]) == (taught, ["draw"])


def test_an_exported_record_is_laid_out_as_the_docs_show_one(journal):
    """A field to a line, indented by two spaces, as the record in docs/game-record.md: a
    person reads and compares records in a text editor."""
    done = play(journal, "draw", "visit chimp")
    journal.finish(done, {}, now=2.0)
    text = journal.export_files()[f"game-{done:05d}.json"].decode()
    docs = (Path(__file__).parent.parent / "docs" / "game-record.md").read_text(encoding="utf-8")
    shown = docs.split("```json\n", 1)[1].splitlines()
    assert text.splitlines()[:3] == shown[:3]  # {, "format": ..., "version": 1,
    assert text.endswith("}\n")


# ------------------------------------------------------------- settings


def test_settings_hold_json_values_across_reopening(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        assert journal.get_setting("language") is None
        assert journal.get_setting("language", "pl") == "pl"
        journal.set_setting("language", "en")
        journal.set_setting("contrast", 128)
        journal.set_setting("contrast", 200)
        journal.set_setting("seats", {"names": ["Iza", "Ąda"]})
    with Journal(path) as journal:
        assert journal.get_setting("language", "pl") == "en"
        assert journal.get_setting("contrast") == 200
        assert journal.get_setting("seats") == {"names": ["Iza", "Ąda"]}


def test_a_setting_that_is_not_json_is_refused(journal):
    with pytest.raises(TypeError):
        journal.set_setting("when", object())
    with pytest.raises(ValueError):
        journal.set_setting("ratio", float("nan"))
    with pytest.raises(ValueError, match="a setting's key is a non-empty string"):
        journal.set_setting("", 1)
    assert journal.get_setting("when") is None


# ------------------------------------------------------------- integrity


def test_check_finds_nothing_in_a_sound_journal(journal):
    play(journal, "draw", "visit chimp")
    assert journal.check() == []


def test_check_reports_a_broken_undo_tail_and_a_lost_game(journal):
    game = play(journal, "draw", "visit chimp")
    raw = sqlite3.connect(journal.path)
    raw.execute("UPDATE actions SET undone = 1 WHERE seq = 1")
    raw.execute("INSERT INTO actions (game_id, seq, notation) VALUES (99, 1, 'draw')")
    raw.commit()
    raw.close()
    assert journal.check() == [
        "a row of actions refers to a missing row of games",
        f"game {game}: live action 2 follows an undone action",
    ]


# ------------------------------------------------------------- power cuts

KILLS = 50
STUCK = 30.0  # seconds without a report before the test gives up instead of hanging


def _append_forever(path: Path, game: int, report: int) -> None:
    """The child: append numbered actions and report each number once append returned."""
    journal = Journal(path)
    number = len(journal.record(game)["actions"])
    while True:
        number += 1
        seq = journal.append(game, f"act {number}")
        os.write(report, f"{seq}\n".encode())


def _reports(read_end: int) -> Iterator[int]:
    """The numbers the child reported, until its end of the pipe closes."""
    pending = b""
    while True:
        if not select.select([read_end], [], [], STUCK)[0]:
            pytest.fail(f"the writing child reported nothing for {STUCK} s")
        chunk = os.read(read_end, 4096)
        if not chunk:
            return
        *lines, pending = (pending + chunk).split(b"\n")
        yield from (int(line) for line in lines)


def test_every_acknowledged_append_survives_sigkill(tmp_path):
    """Kill a writer at random moments, 50 times; nothing acknowledged is lost, nothing added."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        game = journal.start_game(HEADER, now=1.0)
    fork = multiprocessing.get_context("fork")
    chooser = random.Random(1)
    acknowledged = 0
    for _ in range(KILLS):
        read_end, write_end = os.pipe()
        child = fork.Process(target=_append_forever, args=(path, game, write_end))
        child.start()
        os.close(write_end)
        try:
            reports = _reports(read_end)
            for _ in range(chooser.randrange(1, 8)):
                acknowledged = next(reports)
            os.kill(child.pid, signal.SIGKILL)
            child.join()
            acknowledged = max([acknowledged, *reports])
        finally:
            if child.is_alive():  # the test failed before the kill: leave no writer behind
                os.kill(child.pid, signal.SIGKILL)
                child.join()
            os.close(read_end)
        assert child.exitcode == -signal.SIGKILL
        with Journal(path) as journal:
            assert journal.check() == []
            actions = journal.record(game)["actions"]
        # Every acknowledged append is there; at most the one in flight is extra.
        assert acknowledged <= len(actions) <= acknowledged + 1
        assert actions == [f"act {n}" for n in range(1, len(actions) + 1)]
