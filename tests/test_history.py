"""Years of history: sealed games, a start that reads only what changes, backups that stay small.

A finished game is sealed as it ends (``store/sealed.py``) and exported byte for byte as
before; the start reads the unfinished games and the tables that change in play, never the
sealed games, which the check after start-up reads back beside the main loop
(``store/housekeeping.py``); a damaged old game is found there, reported, kept aside, and
the box plays on. Backups copy each sealed game once (``store/rolling_backups.py``).
"""

import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from firmware_app import session as session_module
from firmware_app.app import App
from firmware_app.flows.start import start_screen
from firmware_app.loop import Loop
from firmware_app.session import Session, summary
from firmware_app.store import rolling_backups
from firmware_app.store.catalogue_files import load
from firmware_app.store.housekeeping import Keeper, check_after_start
from firmware_app.store.journal import Journal
from firmware_app.store.recovery import close_journal, open_journal, recheck
from hw.buttons import FakeButtons
from hw.display import FakeDisplay
from hw.rfid.fake import FakeReader
from rules.pingwiny.options import Options
from rules.record import replay

EXAMPLE = Path(__file__).parent.parent / "examples" / "family-3p-seed7.json"


@pytest.fixture(scope="module")
def finished() -> tuple[dict, dict]:
    """A real finished game's record and the summary the box keeps of it."""
    record = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    result = replay(record)
    return record, summary(result.game, result.final)


def _import(journal: Journal, finished, count: int) -> list[int]:
    record, sheet = finished
    ids = []
    for number in range(count):
        copy = record | {"options": record["options"] | {"names": [f"P{number}", "A", "B"]}}
        ids.append(journal.import_finished(copy, sheet, 1000.0 + number, 2000.0 + number))
    return ids


def _raw(path: Path, statement: str, *values) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        rows = db.execute(statement, values).fetchall()
        db.commit()
        return rows
    finally:
        db.close()


def checked(path: Path):
    """What the check after start-up finds, on a connection of its own as in the daemon."""
    with Journal(path) as journal:
        return check_after_start(journal)


def _unfinished(journal: Journal, actions: int = 5, seed: int = 3) -> Session:
    session = Session.start(journal, Options(players=2, seed=seed), load([], demo=True), 50.0)
    for _ in range(actions):
        session.act(next(iter(session.game.legal_actions(session.state))), now=60.0)
    return session


# ------------------------------------------------------------------ sealing


def test_a_sealed_game_is_exported_byte_for_byte_as_it_was_played(tmp_path, finished):
    record, sheet = finished
    with Journal(tmp_path / "journal.sqlite") as journal:
        (game_id,) = _import(journal, (record, sheet), 1)
        exported = journal.export(game_id)
    names = record["options"] | {"names": ["P0", "A", "B"]}
    expected = record | {"options": names, "played": {"started": 1000.0, "ended": 2000.0}}
    assert json.dumps(exported, ensure_ascii=False, indent=2) == json.dumps(
        expected, ensure_ascii=False, indent=2
    )


def test_a_game_played_here_is_sealed_when_it_ends_and_replays_the_same(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        session = _unfinished(journal, actions=12)
        before = journal.record(session.game_id)
        journal.abandon(session.game_id, now=70.0)
        assert journal.record(session.game_id) == before
        rows = _raw(journal.path, "SELECT count(*) FROM actions")
        packed = _raw(journal.path, "SELECT packed_count, sealed FROM games")
    assert rows == [(0,)]
    assert packed == [(12, 1)]


def test_many_games_share_one_stored_catalogue_and_cost_a_few_kilobytes(tmp_path, finished):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        journal.checkpoint()
        empty = path.stat().st_size
        _import(journal, finished, 50)
        journal.checkpoint()
        full = path.stat().st_size
    assert _raw(path, "SELECT count(*) FROM catalogues") == [(1,)]
    per_game = (full - empty) / 50
    assert per_game <= 10_000, f"{per_game:.0f} bytes a finished game"


def test_an_older_journals_ended_games_are_sealed_after_start_keeping_their_records(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        session = _unfinished(journal, actions=8)
        record = journal.record(session.game_id)
        session.abandon(now=70.0)
    # as a journal of schema 2 kept it: the header whole, the actions in their table
    header = json.dumps({k: v for k, v in record.items() if k != "actions"}, ensure_ascii=False)
    _raw(path, "DELETE FROM catalogues")
    _raw(path, "UPDATE games SET header = ?, packed = NULL, packed_count = NULL, sealed = NULL, "
         "catalogue_hash = NULL, crc = NULL", header)  # fmt: skip
    for seq, notation in enumerate(record["actions"], 1):
        _raw(path, "INSERT INTO actions VALUES (1, ?, ?, 0)", seq, notation)
    with Journal(path) as journal:
        assert journal.record(1) == record  # read as it is until sealed
    assert checked(path).problems == []
    with Journal(path) as journal:
        assert journal.record(1) == record
    assert _raw(path, "SELECT count(*) FROM actions") == [(0,)]
    assert _raw(path, "SELECT sealed IS NOT NULL FROM games") == [(1,)]


# -------------------------------------------------------------- the start


def test_the_start_reads_no_sealed_game_and_the_check_after_it_does(tmp_path, finished):
    """A damaged old game does not slow or stop the start: it is found beside the loop."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        _import(journal, finished, 3)
    _raw(path, "UPDATE games SET summary = '{\"winners\": [2]}' WHERE id = 2")
    journal, outcome = open_journal(path)
    journal.close()
    assert outcome.kind == "sound"
    found = checked(path)
    assert found.problems == [
        "finished game 2: its values changed after it was sealed (CRC mismatch)"
    ]
    assert (found.restored, found.aside, found.recheck) == (0, 1, False)
    kept = list(tmp_path.glob("journal.damaged-game-00002-*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text())["summary"] == '{"winners": [2]}'
    with Journal(path) as journal:
        assert [game.id for game in journal.ended_games()] == [1, 3]
        assert journal.damaged_sealed_games() == []


def test_a_damaged_old_game_is_restored_from_the_archive_and_the_table_told(tmp_path, finished):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        _import(journal, finished, 3)
        good = journal.export(2)
        rolling_backups.Backups(journal).take()
    _raw(path, "UPDATE games SET packed = x'00' WHERE id = 2")
    journal, outcome = open_journal(path)
    app = App(journal, language="en")
    loop = Loop(
        app, FakeButtons(), FakeReader(), FakeDisplay(), backups=Keeper(journal, beside=False)
    )
    try:
        loop.tick(0.0)
        screen = " ".join(app.render().text().split())
        assert screen == "[Game record] 1 damaged finished game was restored from the backup."
        assert journal.export(2) == good
        assert len(list(tmp_path.glob("journal.damaged-game-00002-*.json"))) == 1
        app.top.button("ok")
        assert app.render().text().startswith("[Tableside]")  # and play goes on
    finally:
        loop.backups.close()
        journal.close()


def test_damaged_pages_of_old_games_are_mended_at_the_next_start(tmp_path, finished):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        _import(journal, finished, 6)
        wanted = [journal.export(game.id) for game in journal.ended_games()]
        rolling_backups.Backups(journal).take()
        journal.checkpoint()
    (page,) = _raw(path, "SELECT max(pageno) FROM dbstat WHERE name = 'games'")[0]
    data = bytearray(path.read_bytes())
    data[(page - 1) * 4096 + 3] ^= 0x5A  # the page's cell count
    path.write_bytes(bytes(data))
    journal, outcome = open_journal(path)
    journal.close()
    assert outcome.kind == "sound"  # the start does not read the old games
    found = checked(path)
    assert found.recheck and recheck(path).exists()
    journal, outcome = open_journal(path)
    try:
        assert outcome.kind == "damaged" and outcome.kept
        assert [journal.export(game.id) for game in journal.ended_games()] == wanted
        assert not recheck(path).exists()
    finally:
        journal.close()


# ---------------------------------------------------------- the resume list


def test_the_resume_list_shows_stored_places_and_replays_nothing(tmp_path, monkeypatch):
    with Journal(tmp_path / "journal.sqlite") as journal:
        for seed in (3, 4, 5):
            _unfinished(journal, actions=seed, seed=seed)
        app = App(journal, language="en", clock=lambda: 120.0)

        def no_replay(record):
            raise AssertionError("the resume list replayed a game")

        monkeypatch.setattr(session_module, "replay", no_replay)
        details = [item.detail for item in start_screen(app).items[:3]]
    assert details == ["2 players, round 1\n1 min ago"] * 3


def test_a_game_without_a_stored_place_is_replayed_once_which_stores_it(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        session = _unfinished(journal, actions=6)
        _raw(journal.path, "UPDATE games SET place = NULL")
        app = App(journal, language="en", clock=lambda: 120.0)
        first = start_screen(app).items[0].detail
        assert journal.unfinished_games()[0].place == session.place()
        assert start_screen(app).items[0].detail == first


# ------------------------------------------------------------------ backups


def test_a_backup_copies_each_sealed_game_once_and_snapshots_only_the_games_in_play(
    tmp_path, finished
):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        _unfinished(journal)
        _import(journal, finished, 4)
        taker = rolling_backups.Backups(journal)
        first = taker.take()
        _import(journal, finished, 1)
        second = taker.take()
    archive = rolling_backups.archive(path)
    assert _raw(archive, "SELECT id FROM games ORDER BY sealed") == [(2,), (3,), (4,), (5,), (6,)]
    assert _raw(archive, "SELECT count(*) FROM catalogues") == [(1,)]
    for snapshot in (first, second):
        assert _raw(snapshot, "SELECT id, outcome FROM games") == [(1, None)]
    assert first.stat().st_size == second.stat().st_size  # the same, whatever the history


def test_a_stop_during_the_check_after_start_is_no_damage(tmp_path, finished, monkeypatch):
    """The stop interrupts SQLite's whole-file check; nothing is marked for the next start."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        _import(journal, finished, 2)
    endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT 'ok' FROM n"
    started = threading.Event()

    def slow_check(self):
        started.set()
        return self._problems((endless,))

    monkeypatch.setattr(Journal, "check", slow_check)
    journal, outcome = open_journal(path)
    keeper = Keeper(journal)
    try:
        assert keeper.tick(0.0) is None  # the check is under way, beside the loop
        assert started.wait(10)
    finally:
        keeper.close()  # returns: the endless check was cut short
        close_journal(journal)
    assert not recheck(path).exists()
    journal, outcome = open_journal(path)
    journal.close()
    assert outcome.kind == "sound", outcome.problems


def test_a_stop_as_the_check_closes_its_own_journal_is_no_error(tmp_path, monkeypatch):
    """The check's connection may be closed between the stop's look at it and its interrupt:
    the stop then has nothing to cut short, and ends without an error (the daemon's exit
    after ``tableside run --home`` raised one from here under load)."""
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    closed = threading.Event()

    def check_then_close(self):
        self.close()  # as the check's ``with`` ends, in its own thread
        closed.set()
        time.sleep(0.5)  # that thread not yet gone when the stop looks
        return []

    monkeypatch.setattr(Journal, "check", check_then_close)
    journal, outcome = open_journal(path)
    keeper = Keeper(journal)
    try:
        assert keeper.tick(0.0) is None
        assert closed.wait(10)
    finally:
        keeper.close()  # interrupts the closed connection: no error
        close_journal(journal)


def test_a_backup_failing_as_nothing_foresaw_is_logged_and_tried_at_the_next_look(
    tmp_path, monkeypatch, caplog
):
    """docs/log.md: "the backup failed": play goes on and the next look tries again."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        _unfinished(journal, actions=1)
        taker = rolling_backups.Backups(journal, beside=False)
        works = taker.take
        monkeypatch.setattr(taker, "take", lambda: 1 / 0)
        taker.tick(0.0)  # no error comes out of the tick
        failed = [r for r in caplog.records if r.getMessage() == "the backup failed"]
        assert [r.exc_info[0] for r in failed] == [ZeroDivisionError]
        assert rolling_backups.newest(path) == []
        monkeypatch.setattr(taker, "take", works)
        taker.tick(rolling_backups.LOOK)
        taker.close()
    assert len(rolling_backups.newest(path)) == 1


def test_a_backup_is_taken_as_soon_as_the_first_game_exists(tmp_path):
    """The module's docstring: "as soon as the first game has an action (so a journal that
    later goes missing is known to have existed)". A journal with no game gets none; one
    whose first game began before any backup (the box stopped before its first one) gets
    one at the first look, with no wait for the journal to change again."""
    empty, played = tmp_path / "empty" / "journal.sqlite", tmp_path / "played" / "journal.sqlite"
    for path in (empty, played):
        path.parent.mkdir()
    with Journal(empty) as journal:
        taker = rolling_backups.Backups(journal, beside=False)
        taker.tick(0.0)
        taker.close()
    assert rolling_backups.newest(empty) == []
    with Journal(played) as journal:
        _unfinished(journal, actions=1)
        taker = rolling_backups.Backups(journal, beside=False)
        taker.tick(0.0)
        first = rolling_backups.newest(played)
        taker.tick(60.0)  # nothing changed since: no second one
        taker.close()
    assert len(first) == 1 and rolling_backups.newest(played) == first
    assert _raw(first[0], "SELECT count(*) FROM actions") == [(1,)]
