"""The journal deleted or replaced under a running box: noticed, written again, nothing lost.

SQLite keeps its files open, so a state folder, a journal or a write-ahead log deleted
while the box plays takes every later commit with it at the next start, without a word.
Each case plays a game through the headless runner and the real main loop, damages the
files in play, and checks that the next tick says so on the panel, play goes on, and a
start after a power cut (the folder copied as it stands, then ``recovery.open_journal``)
and after a clean stop finds every acknowledged action: none is lost.
"""

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from firmware_app.loop import LOOK
from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.store.faults import JournalError, StorageError
from firmware_app.store.journal import Journal
from firmware_app.store.recovery import close_journal, open_journal

SEED = 11
BEFORE, AFTER = 20, 45  # actions acknowledged before the damage, and in all
NOTICE = "Nothing was lost."
JOURNAL = "journal.sqlite"


def _other_journal(folder: Path) -> Path:
    """Another box's journal, with a game of its own, beside the state folder."""
    path = folder.parent / "other" / JOURNAL
    path.parent.mkdir()
    with Journal(path) as other:
        other.set_setting("owner", "someone else")
    return path


def _replace_journal(folder: Path) -> None:
    os.replace(_other_journal(folder), folder / JOURNAL)


def _replace_log(folder: Path) -> None:
    """The log replaced by another journal's (left open, so it has one)."""
    other = sqlite3.connect(_other_journal(folder))
    other.execute("PRAGMA journal_mode = WAL")
    other.execute("CREATE TABLE IF NOT EXISTS t (x)")
    other.execute("INSERT INTO t VALUES (1)")
    other.commit()
    os.replace(_other_journal_wal(folder), folder / (JOURNAL + "-wal"))
    other.close()


def _other_journal_wal(folder: Path) -> Path:
    return folder.parent / "other" / (JOURNAL + "-wal")


DAMAGES = {
    "state folder deleted": lambda f: shutil.rmtree(f),
    "journal deleted": lambda f: (f / JOURNAL).unlink(),
    "log deleted": lambda f: (f / (JOURNAL + "-wal")).unlink(),
    "journal and log deleted": lambda f: [(f / (JOURNAL + s)).unlink() for s in ("", "-wal")],
    "journal replaced by another file": _replace_journal,
    "log replaced by another journal's log": _replace_log,
}


def _play_to(sim: Headless, pilot: Autopilot, actions: int) -> None:
    while len(sim.app.session.states) - 1 < actions:
        assert pilot.step()


def _acknowledged(sim: Headless) -> list[str]:
    return sim.journal.record(sim.app.session.game_id)["actions"]


def _actions(folder: Path) -> tuple[list[str], str]:
    journal, outcome = open_journal(folder / JOURNAL)
    try:
        return journal.record(journal.unfinished())["actions"], outcome.kind
    finally:
        close_journal(journal)


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_journal_deleted_or_replaced_in_play_is_written_again_and_nothing_is_lost(
    tmp_path, damage
):
    folder = tmp_path / "state"
    sim = Headless(folder, seed=SEED)
    for line in new_game_script(2):
        sim.command(line)
    pilot = Autopilot(sim, SEED)
    _play_to(sim, pilot, BEFORE)
    DAMAGES[damage](folder)
    sim.run_for(LOOK)  # the loop looks within half a second, writes it again and says so
    assert NOTICE in sim.screen
    sim.press("ok")  # read
    assert NOTICE not in sim.screen
    _play_to(sim, pilot, AFTER)
    acknowledged = _acknowledged(sim)
    assert len(acknowledged) >= AFTER
    cut = tmp_path / "as-cut"  # a power cut now: the files as they stand
    shutil.copytree(folder, cut, ignore=shutil.ignore_patterns("*-shm"))
    (cut / (JOURNAL + ".running")).touch()
    sim.close()
    for start in (cut, folder):  # after the power cut, and after a clean stop
        actions, kind = _actions(start)
        lost = len(acknowledged) - len(actions)
        print(f"{damage}: {len(acknowledged)} acknowledged, {lost} lost ({start.name}, {kind})")
        assert (actions, kind) == (acknowledged, "sound")
    if "replaced" in damage:  # what was found at the name is kept, never deleted
        kept = sorted(folder.glob("journal.foreign-*"))
        assert kept, sorted(p.name for p in folder.iterdir())
        if kept[0].suffix == ".sqlite":
            with Journal(kept[0], read_only=True) as other:
                assert other.get_setting("owner") == "someone else"


def test_a_write_after_the_deletion_is_kept_before_the_loop_looks(tmp_path):
    """The write itself looks first: nothing is committed into a deleted file."""
    path = tmp_path / "state" / JOURNAL
    path.parent.mkdir()
    journal = Journal(path)
    journal.set_setting("contrast", 3)
    shutil.rmtree(path.parent)
    journal.set_setting("contrast", 7)
    assert path.exists()
    assert journal.replaced()  # said once ...
    assert not journal.replaced()  # ... and only once
    journal.close()
    with Journal(path) as again:
        assert again.get_setting("contrast") == 7


def test_a_journal_that_cannot_be_written_again_refuses_the_write(tmp_path):
    """Nowhere to write it again (a file stands where the state folder was): the write is
    refused as a storage error, so the panel says the move was not saved; once the folder
    can be made again, the next write first writes the whole journal again."""
    path = tmp_path / "state" / JOURNAL
    path.parent.mkdir()
    journal = Journal(path)
    journal.set_setting("contrast", 3)
    shutil.rmtree(path.parent)
    path.parent.write_text("not a folder")
    assert not journal.replaced()
    with pytest.raises(StorageError):
        journal.set_setting("contrast", 7)
    path.parent.unlink()
    journal.set_setting("contrast", 8)
    assert journal.replaced()
    journal.close()
    with Journal(path) as again:
        assert again.get_setting("contrast") == 8


def test_a_journal_left_alone_is_never_written_again(tmp_path):
    sim = Headless(tmp_path / "state", seed=SEED)
    for line in new_game_script(2):
        sim.command(line)
    _play_to(sim, Autopilot(sim, SEED), 10)
    assert not sim.journal.replaced()
    assert not list((tmp_path / "state").glob("journal.foreign-*"))
    sim.close()


def test_only_the_first_journal_of_a_file_writes_it_again(tmp_path):
    """A second connection to the same file (the check after start-up, in its thread)
    refuses to write once the file moved, instead of writing into a file no name leads
    to or writing it again over the box's own."""
    path = tmp_path / "state" / JOURNAL
    path.parent.mkdir()
    box, check = Journal(path), Journal(path)
    box.set_setting("contrast", 3)
    path.unlink()
    with pytest.raises(JournalError):
        check.set_setting("contrast", 5)
    assert box.replaced()
    check.close()
    box.close()
    with Journal(path) as again:
        assert again.get_setting("contrast") == 3
