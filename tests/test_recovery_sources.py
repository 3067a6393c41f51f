"""Recovery per action, from every source; the box's identity; markers; regular files only.

The state folder of ``played_helpers.py`` (a finished game, then a second game of
which 30 actions are in a backup and 60 acknowledged) is damaged in the ways that lost
actions when each game came from one source only, or when names were trusted over
content; each case asserts that every acknowledged action some file still held is back.
"""

import json
import os
import random
import shutil
import signal
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest
from fault_kinds import _flip_last_page, _stopped
from played_helpers import (
    _copy,
    _games,
    _start,
    played_fixture,  # noqa: F401  (a fixture)
    spin_until,
)
from stats_helpers import EXAMPLES
from test_journal import write_version_1

from firmware_app.store import identity, markers, rolling_backups, sources
from firmware_app.store.journal import Journal
from firmware_app.store.recovery import Outcome, close_journal, open_journal
from firmware_app.store.rolling_backups import Backups, newest
from firmware_app.store.rows import read_rows

JOURNAL = "journal.sqlite"


def _second(journal: Journal) -> list[str]:
    return _games(journal).get("unfinished", [])


def _lost(journal: Journal, acked: dict) -> int:
    second = _second(journal)
    assert second == acked["second"][: len(second)], "an action that was never played"
    return len(acked["second"]) - len(second)


def _recovered(folder: Path, acked: dict) -> None:
    """The box started on the damaged folder: the journal rebuilt, no action lost."""
    journal, outcome, _ = _start(folder)
    try:
        assert outcome.kind == "damaged", outcome
        assert _lost(journal, acked) == 0, f"{len(_second(journal))} of 60 recovered"
    finally:
        journal.close()


def _replace_page(path: Path, names: str, other: Path) -> None:
    """The first page of ``names`` replaced by a page of another database."""
    db = sqlite3.connect(path)
    (page,) = db.execute(f"SELECT min(pageno) FROM dbstat WHERE name IN ({names})").fetchone()
    db.close()
    data = bytearray(path.read_bytes())
    data[(page - 1) * 4096 : page * 4096] = other.read_bytes()[4096:8192]
    path.write_bytes(bytes(data))


def test_a_page_replaced_by_another_databases_page_loses_no_action(played, tmp_path):
    folder = _copy(played, tmp_path)
    path = _stopped(folder)
    _replace_page(path, "'catalogues'", newest(path)[0])
    _recovered(folder, played[1])


@pytest.mark.parametrize("seq", [20, 40])  # within what the backup holds, and beyond
def test_a_flipped_undone_flag_loses_no_action(played, tmp_path, seq):
    folder = _copy(played, tmp_path)
    path = _stopped(folder)
    db = sqlite3.connect(path)
    db.execute(
        """UPDATE actions SET undone = 1 WHERE seq = ?
        AND game_id = (SELECT id FROM games WHERE outcome IS NULL)""",
        (seq,),
    )
    db.commit()
    db.close()
    _recovered(folder, played[1])


def _foreign_snapshot(folder: Path, name: str) -> Path:
    """A snapshot of this box's newest, marked as another box's, under ``name``."""
    source = newest(folder / JOURNAL)[0]
    target = folder / "backups" / name
    shutil.copyfile(source, target)
    db = sqlite3.connect(target)
    db.execute(f"UPDATE {identity.TABLE} SET box = 'ffffffffffffffff', seq = 999")
    db.execute("DELETE FROM actions")  # were it used, the game would lose its actions
    db.commit()
    db.close()
    return target


def test_a_backup_of_another_box_is_set_aside_and_never_used(played, tmp_path, caplog):
    folder = _copy(played, tmp_path)
    odd = _foreign_snapshot(folder, "journal-99999999-20991231-000000.sqlite")
    data = (folder / JOURNAL).read_bytes()
    (folder / JOURNAL).write_bytes(data[: len(data) // 2])
    journal, outcome, app = _start(folder)
    try:
        assert [path.name for path in outcome.foreign] == [
            "foreign-journal-99999999-20991231-000000.sqlite"
        ]
        assert (folder / "backups" / outcome.foreign[0].name).exists()
        said = f"A backup of another box was set aside: {outcome.foreign[0].name}."
        assert said in outcome.message(app.t)
        logged = f"{odd} is not this box's: set aside as {outcome.foreign[0].name}"
        assert logged in caplog.messages
        assert len(_second(journal)) >= 30 and _lost(journal, played[1]) <= 30
    finally:
        journal.close()


def test_a_pipe_among_the_backups_is_set_aside_with_another_boxs_snapshot(tmp_path):
    """set_aside_foreign's docstring: each snapshot of another box *and* anything not a
    regular file goes to ``foreign-<name>``; finding the one must not forget the other."""
    backups = tmp_path / "backups"
    backups.mkdir()
    pipe = backups / "journal-00000002-20240101-000000.sqlite"
    os.mkfifo(pipe)
    theirs = backups / "journal-00000001-20240101-000000.sqlite"
    with closing(sqlite3.connect(theirs)) as db:
        db.execute(identity.CREATE)
        db.execute(f"INSERT INTO {identity.TABLE} VALUES ('ffffffffffffffff', 1)")
        db.commit()
    moved = rolling_backups.set_aside_foreign(tmp_path / JOURNAL, "0123456789abcdef")
    expected = [f"foreign-{theirs.name}", f"foreign-{pipe.name}"]
    assert sorted(path.name for path in moved) == expected
    assert sorted(path.name for path in backups.iterdir()) == expected


def test_backups_named_in_the_future_do_not_win_and_new_ones_are_kept(played, tmp_path):
    folder = _copy(played, tmp_path)
    (folder / "journal.sqlite.running").unlink()
    journal, outcome = open_journal(folder / JOURNAL)
    try:
        ahead = Backups(journal, clock=lambda: 4_102_444_800.0)  # 2100: the clock ran ahead
        for _ in range(3):
            ahead.take()
        back = Backups(journal, clock=lambda: 1_700_000_000.0, keep=3)  # and then back
        taken = [back.take() for _ in range(3)]
        assert newest(folder / JOURNAL) == taken[::-1]
        assert all(path.exists() for path in taken)
    finally:
        journal.close()


def test_a_stale_installing_marker_never_replaces_a_sound_journal(played, tmp_path):
    folder = _copy(played, tmp_path)
    (folder / "journal.sqlite.running").unlink()
    Journal(folder / "journal.sqlite.rebuilt").close()  # someone else's empty journal
    (folder / "journal.sqlite.installing").write_text("journal.sqlite.rebuilt")
    journal, outcome, _ = _start(folder)
    try:
        assert outcome.kind == "sound", outcome
        assert _lost(journal, played[1]) == 0
        assert not (folder / "journal.sqlite.installing").exists()
        assert not (folder / "journal.sqlite.rebuilt").exists()  # scratch, removed
    finally:
        journal.close()


def _in_time(work, seconds: float = 60.0):
    """``work()`` in a thread: a hang fails the test instead of stopping the run."""
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", work()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the start hangs"
    return result["value"]


def _irregular(folder: Path, name: str, how: str) -> None:
    target = folder / name
    target.unlink(missing_ok=True)
    if how == "folder":
        target.mkdir()
    elif how == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to(folder.parent / "elsewhere")


def _start_and_look(folder: Path) -> tuple:
    """Start, note what came out, stop: all in the thread that opened the journal."""
    journal, outcome, app = _start(folder)
    try:
        return outcome, " ".join(outcome.message(app.t)), len(_second(journal))
    finally:
        journal.close()


def test_a_folder_pipe_or_link_as_journal_or_log_is_refused(played, tmp_path):
    for name in (JOURNAL, "journal.sqlite-wal"):
        for how in ("folder", "fifo", "link"):
            folder = _copy(played, tmp_path / f"{name}-{how}")
            _irregular(folder, name, how)
            outcome, message, second = _in_time(lambda f=folder: _start_and_look(f))
            assert any(name in text for text in outcome.refused), (name, how, outcome)
            assert list(folder.glob("journal.refused-*")), (name, how)
            assert "not a file" in message, (name, how, message)
            assert second >= 30  # at least what the backups held


def _temporary(folder: Path) -> list[str]:
    """The temporary files of interrupted writes in the state folder and in backups/."""
    places = (folder, rolling_backups.folder(folder / JOURNAL))
    return [path.name for where in places for path in where.iterdir() if path.suffix == ".tmp"]


def _take_in_child(folder: Path) -> int:
    pid = os.fork()
    if pid == 0:  # the child: backups, until killed
        try:
            with Journal(folder / JOURNAL) as journal:
                taker = Backups(journal)
                while True:
                    taker.take()
        finally:
            os._exit(0)
    return pid


def test_killed_backups_leave_no_temporary_file_after_the_next_start(played, tmp_path):
    """25 backups killed at random moments, then more, each as soon as a temporary file shows,
    until one is left (a kill rarely lands inside a write): the next start removes them."""
    folder = _copy(played, tmp_path)
    (folder / "journal.sqlite.running").unlink()
    rng = random.Random(3)
    for kills in range(1, 201):
        pid = _take_in_child(folder)
        if kills <= 25:
            time.sleep(rng.uniform(0.01, 0.3))
        else:
            spin_until(lambda: _temporary(folder), seconds=2)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        if kills >= 25 and _temporary(folder):
            break
    assert _temporary(folder), f"{kills} killed backups left no temporary file"
    journal, outcome, _ = _start(folder)
    try:
        assert _temporary(folder) == []
        assert _lost(journal, played[1]) == 0
    finally:
        journal.close()


def test_a_rebuild_cut_before_its_install_is_finished_and_keeps_the_journal_it_replaces(
    played, tmp_path
):
    folder = _copy(played, tmp_path)
    (folder / "journal.sqlite.running").unlink()
    path = folder / JOURNAL
    with Journal(path) as journal:
        box = identity.ensure(journal)
    rebuilt = folder / "journal.sqlite.rebuilt"
    shutil.copyfile(newest(path)[0], rebuilt)  # this box's copy, as a rebuild would write
    markers.install(path, rebuilt, kept_sha=None)  # cut here: nothing kept aside yet
    before = len(list(folder.glob("journal.damaged-*")))
    markers.finish_install(path, box)
    assert not rebuilt.exists() and not markers.installing(path).exists()
    assert len(list(folder.glob("journal.damaged-*"))) > before  # the replaced one is kept


def test_a_journal_of_an_earlier_version_gets_an_identity_kept_in_it_and_beside_it(
    played, tmp_path
):
    folder = _copy(played, tmp_path)
    (folder / "journal.sqlite.running").unlink()
    (folder / identity.FILE).unlink(missing_ok=True)
    db = sqlite3.connect(folder / JOURNAL)
    db.execute("DELETE FROM settings WHERE key = ?", (identity.KEY,))
    db.commit()
    db.close()
    journal, outcome = open_journal(folder / JOURNAL)
    try:
        assert outcome.kind == "sound", outcome
        box = journal.get_setting(identity.KEY)
        assert identity.valid(box) and identity.read_mirror(folder / JOURNAL) == box
        numbers = [identity.in_file(path)[1] for path in newest(folder / JOURNAL)]
        taken = Backups(journal).take()
        assert identity.in_file(taken) == (box, max(numbers) + 1)
        assert newest(folder / JOURNAL)[0] == taken
    finally:
        journal.close()


def _foreign_rebuilt(folder: Path) -> None:
    """Another box's journal as the rebuilt file, with a marker that names it exactly."""
    rebuilt = folder / "journal.sqlite.rebuilt"
    _foreign_snapshot(folder, "other.sqlite").rename(rebuilt)
    markers.install(folder / JOURNAL, rebuilt, kept_sha=None)


def _linked_rebuilt(folder: Path) -> None:
    """The scratch name a link to a snapshot, and a marker that names it."""
    (folder / "journal.sqlite.rebuilt").symlink_to(newest(folder / JOURNAL)[0])
    (folder / "journal.sqlite.installing").write_text('{"rebuilt": "journal.sqlite.rebuilt"}')


MARKERS = {
    "an earlier version's marker, an empty journal": lambda folder: (
        Journal(folder / "journal.sqlite.rebuilt").close(),
        (folder / "journal.sqlite.installing").write_text("journal.sqlite.rebuilt"),
    ),
    "a marker naming another box's journal": _foreign_rebuilt,
    "a marker naming a link": _linked_rebuilt,
    "a marker naming a file elsewhere": lambda folder: (
        folder / "journal.sqlite.installing"
    ).write_text('{"rebuilt": "../../journal.sqlite"}'),
    "the scratch name a folder, no marker": lambda folder: (
        folder / "journal.sqlite.rebuilt"
    ).mkdir(),
    "the marker a folder": lambda folder: (folder / "journal.sqlite.installing").mkdir(),
}


@pytest.mark.parametrize("name", list(MARKERS))
def test_stale_or_foreign_markers_never_replace_a_sound_journal(played, tmp_path, name):
    folder = _copy(played, tmp_path)
    (folder / "journal.sqlite.running").unlink()
    journal_bytes = (folder / JOURNAL).read_bytes()
    MARKERS[name](folder)
    journal, outcome, _ = _start(folder)
    try:
        assert outcome.kind == "sound", outcome
        assert _lost(journal, played[1]) == 0
        assert (folder / JOURNAL).read_bytes()[:100] == journal_bytes[:100]
        assert not os.path.lexists(folder / "journal.sqlite.installing")
        assert not os.path.lexists(folder / "journal.sqlite.rebuilt")
        assert newest(folder / JOURNAL)[0].exists()  # a link's target is left as it was
    finally:
        journal.close()


def test_a_recovery_uses_only_the_actions_of_a_backup_that_replay(tmp_path):
    """The module's docstring (``sources.py``): each game "the longest sequence that
    replays". The journal is lost; the newer snapshot holds six actions but its third was
    damaged into one the rules refuse, the older holds four good ones: the game comes back
    with the older snapshot's four, and every action in it replays."""
    from firmware_app.session import Session
    from firmware_app.store.catalogue_files import load
    from rules.pingwiny.options import Options
    from rules.record import replay

    path = tmp_path / JOURNAL
    with Journal(path) as journal:
        session = Session.start(journal, Options(players=2, seed=3), load([], demo=True), 50.0)
        taker = Backups(journal)
        for _ in range(4):
            session.act(sorted(map(str, session.game.legal_actions(session.state)))[0], now=60.0)
        older = taker.take()
        for _ in range(2):
            session.act(sorted(map(str, session.game.legal_actions(session.state)))[0], now=60.0)
        newer = taker.take()
        played = journal.record(session.game_id)["actions"]
        taker.close()
    db = sqlite3.connect(newer)
    db.execute("UPDATE actions SET notation = 'visit hq nowhere' WHERE seq = 3")
    db.commit()
    db.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    journal, outcome = open_journal(path)
    try:
        assert outcome.kind == "missing" and newest(path) == [newer, older], outcome
        record = journal.record(session.game_id)
        assert record["actions"] == played[:4]
        assert len(replay(record).states) == 5  # the setup and the four actions
    finally:
        journal.close()


def test_a_journal_rebuilt_without_its_mirror_keeps_its_box_over_another_boxs_backup(
    played, tmp_path
):
    """The mirror lost, this box's backups lost, another box's snapshot in their folder, the
    journal damaged: its own rows still name the box, so the rebuilt journal keeps that name
    and the other box's snapshot is set aside, not taken for this box's."""
    folder = _copy(played, tmp_path)
    box = identity.read_mirror(folder / JOURNAL)
    assert identity.valid(box)
    foreign = _foreign_snapshot(folder, "journal-99999999-20991231-000000.sqlite")
    for ours in newest(folder / JOURNAL):
        if ours != foreign:
            ours.unlink()
    identity.mirror(folder / JOURNAL).unlink()
    rolling_backups.archive(folder / JOURNAL).unlink(missing_ok=True)
    path = _stopped(folder)
    _flip_last_page(path)
    journal, outcome = open_journal(path)
    try:
        assert outcome.kind == "damaged" and outcome.games == 2, outcome
        assert [p.name for p in outcome.foreign] == [f"foreign-{foreign.name}"]
        assert journal.get_setting(identity.KEY) == box
        assert identity.read_mirror(path) == box
    finally:
        journal.close()


def test_a_snapshot_is_made_in_memory_and_leaves_no_file_where_the_box_runs(
    played, tmp_path, monkeypatch
):
    folder = _copy(played, tmp_path)
    box = identity.read_mirror(folder / JOURNAL)
    where = tmp_path / "cwd"
    where.mkdir()
    monkeypatch.chdir(where)  # the daemon's working folder
    for seq in (7, 8):
        data = rolling_backups.snapshot(folder / JOURNAL, box, seq)
        (tmp_path / f"{seq}.sqlite").write_bytes(data)
        assert identity.in_file(tmp_path / f"{seq}.sqlite") == (box, seq)
    assert list(where.iterdir()) == []


def test_a_version_1_journal_at_the_start_is_migrated_where_it_is_not_rebuilt(tmp_path):
    """The box's first journals were of schema 1: the check at the start takes one for
    ours, and opening it migrates it in place with every game; nothing is set aside."""
    path = tmp_path / JOURNAL
    write_version_1(path)
    record = json.loads((EXAMPLES / "family-3p-seed7.json").read_text(encoding="utf-8"))
    first, second = record.pop("actions")[:2]
    with closing(sqlite3.connect(path)) as db, db:  # a real game's header and first actions
        db.execute("UPDATE games SET header = ?", (json.dumps(record),))
        db.execute("UPDATE actions SET notation = ? WHERE seq = 1", (first,))
        db.execute("UPDATE actions SET notation = ? WHERE seq = 2", (second,))
    journal, outcome = open_journal(path)
    try:
        assert outcome.kind == "sound", outcome
        assert journal.storage()["schema"] == 3
        assert [game.id for game in journal.ended_games()] == [1, 2]
        assert [game.id for game in journal.unfinished_games()] == [3]
    finally:
        close_journal(journal)  # as the daemon stops
    assert sorted(p.name for p in tmp_path.iterdir()) == [identity.FILE, JOURNAL]


def test_games_rebuilt_from_a_version_1_journal_are_dated_as_its_migration_dates_them(tmp_path):
    """Version 1 kept no "played" time: a rebuild from such a source gives each game the
    time that migrating the same file gives it (what the statistics order games by)."""
    old, migrated, rebuilt = (tmp_path / name for name in ("v1.sqlite", "m.sqlite", "r.sqlite"))
    write_version_1(old)
    shutil.copyfile(old, migrated)
    Journal(migrated).close()  # opening it migrates it
    Journal(rebuilt).close()
    db = sqlite3.connect(rebuilt, isolation_level=None)
    try:
        assert sources.write(db, [read_rows(old)]) == 3
    finally:
        db.close()
    dated = {}
    for path in (migrated, rebuilt):
        with closing(sqlite3.connect(path)) as db:
            dated[path] = db.execute("SELECT id, played FROM games ORDER BY id").fetchall()
    assert dated[migrated] == [(1, 20.0), (2, 40.0), (3, 50.0)]  # ended, else started
    assert dated[rebuilt] == dated[migrated]


def test_a_rebuild_keeps_the_settings_it_can_read_and_drops_a_damaged_one(tmp_path):
    """A setting is JSON (contrast 17, the language "pl"); a value cut to ``{"no`` by the
    damage is not, and the box would start with its default instead: only that one goes."""
    damaged, rebuilt = tmp_path / "d.sqlite", tmp_path / "r.sqlite"
    with Journal(damaged) as journal:
        journal.set_setting("contrast", 17)
        journal.set_setting("language", "pl")
        journal.set_setting("volume", 3)
    with closing(sqlite3.connect(damaged)) as db, db:
        db.execute("UPDATE settings SET value = '{\"no' WHERE key = 'volume'")
    Journal(rebuilt).close()
    db = sqlite3.connect(rebuilt, isolation_level=None)
    try:
        sources.write(db, [read_rows(damaged)])
    finally:
        db.close()
    with Journal(rebuilt) as journal:
        assert journal.setting_texts() == {"contrast": "17", "language": '"pl"'}


def test_a_source_continues_the_chosen_actions_only_where_it_agrees_with_them():
    """The best replay is carried on by the sources whose actions match it where they
    overlap, one action at a time while they all offer the same next one (numbered from 1,
    as the journal's ``seq``): a source that differs anywhere offers nothing."""
    from firmware_app.store.sources import _extend

    agrees = {1: "a", 2: "b", 3: "c", 4: "d"}
    differs = {1: "x", 2: "b", 3: "e"}
    assert _extend(["a", "b"], [agrees, differs]) == ["a", "b", "c", "d"]
    assert _extend(["a", "b"], [differs]) == ["a", "b"]
    shorter = {1: "a", 2: "b", 3: "c"}
    other = {1: "a", 2: "b", 3: "c", 4: "f"}
    assert _extend(["a", "b"], [agrees, shorter, other]) == ["a", "b", "c"]  # then they differ


def test_a_damaged_page_in_the_middle_of_a_table_costs_only_the_rows_it_held(tmp_path):
    """rows.py reads a table from its start up to a damaged page, then from its end back to
    it: the rows on either side are all read back, and the problem says where each read
    stopped. A leaf page in the middle of 2,000 actions is overwritten with zeros."""
    from firmware_app.store.rows import read_rows

    path = tmp_path / "journal.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA page_size = 4096")
        db.execute("CREATE TABLE actions (seq INTEGER PRIMARY KEY, notation TEXT)")
        db.executemany(
            "INSERT INTO actions VALUES (?, ?)", ((n, f"{n:0200}") for n in range(1, 2001))
        )
    db.close()
    pages = path.stat().st_size // 4096
    with path.open("r+b") as file:
        file.seek(pages // 2 * 4096)
        file.write(bytes(4096))
    rows = read_rows(path)
    seqs = sorted(row["seq"] for row in rows.tables["actions"])
    assert seqs[0] == 1 and seqs[-1] == 2000  # both ends
    assert 2000 - 40 < len(seqs) < 2000  # one page of rows of about 200 bytes lost
    before = next(i for i, seq in enumerate(seqs) if seq != i + 1)  # the rows before the page
    stopped = [p.rpartition(": ")[0] for p in rows.problems if p.startswith("table actions: ")]
    assert stopped == [
        f"table actions: read ASC stopped after {before} rows",
        f"table actions: read DESC stopped after {len(seqs) - before} rows",
    ]


def test_the_salvage_folder_of_a_recovery_cut_short_is_swept_at_the_next_start(
    played, tmp_path, monkeypatch
):
    """A recovery killed while it reads the damaged files on copies leaves its scratch
    folder beside the journal: named so that the next start's sweep removes it (run here in
    the test's own process, the kill stood for by a removal that never comes)."""
    from firmware_app.store import recovery

    folder = _copy(played, tmp_path)
    journal = folder / JOURNAL
    kept = folder / "journal.damaged.sqlite"
    shutil.copyfile(journal, kept)
    problems: list[str] = []
    with monkeypatch.context() as cut:
        cut.setattr(recovery.shutil, "rmtree", lambda *args, **kwargs: None)
        assert len(recovery._damaged(journal, [kept], problems)) == 1
    left = [p for p in folder.iterdir() if p.is_dir() and p.name.startswith(".salvage-")]
    assert len(left) == 1 and problems == []
    assert markers.clean_scratch(journal) == left
    assert not left[0].exists()


def test_a_source_missing_an_early_action_still_carries_the_game_on():
    """Where the sources overlap they must agree; an action a source lacks (its page lost)
    is no disagreement, and the actions after it are still used."""
    best = ["draw", "take 1", "pass"]
    gap = {2: "take 1", 3: "pass", 4: "draw", 5: "take 2"}
    assert sources._extend(best, [gap]) == [*best, "draw", "take 2"]
    other = {1: "draw", 2: "take 3", 3: "pass", 4: "draw"}
    assert sources._extend(best, [other]) == best  # it disagrees at the second action
    assert sources._extend(best, [gap, {**gap, 4: "pass"}]) == best  # two fourth actions


def test_the_log_names_every_damaged_file_kept_and_each_problem(caplog):
    kept = (Path("/state/journal.damaged-1.sqlite"), Path("/state/journal.damaged-1.sqlite-wal"))
    outcome = Outcome("damaged", games=3, known=4, kept=kept, problems=("torn page", "bad log"))
    with caplog.at_level("WARNING", "tableside.recovery"):
        outcome.log()
    assert caplog.messages == [
        "journal damaged: torn page; bad log; damaged files kept as: "
        "/state/journal.damaged-1.sqlite, /state/journal.damaged-1.sqlite-wal; "
        "3 of 4 games recovered"
    ]


def test_an_archive_whose_cut_write_cannot_be_rolled_back_is_logged_and_left_as_it_is(
    tmp_path, caplog
):
    """Damaged beyond SQLite's roll-back, the archive is left for the recovery to read what
    it can: one line says why, and neither the file nor its hot journal is touched."""
    journal = tmp_path / JOURNAL
    target = rolling_backups.archive(journal)
    target.parent.mkdir(parents=True)
    target.write_bytes(b"not a database" * 300)
    hot = target.with_name(target.name + "-journal")
    hot.write_bytes(bytes(512))
    with caplog.at_level("WARNING", "tableside.backups"):
        rolling_backups.settle_archive(journal)
    assert caplog.messages == ["cannot roll back the archive's cut write: file is not a database"]
    assert target.read_bytes() == b"not a database" * 300 and hot.read_bytes() == bytes(512)
