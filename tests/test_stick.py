"""The USB stick through the app on the fakes: a stick "appears" as a folder and a marker file."""

import csv
import json

import pytest
from backup_helpers import TAUGHT, state, teach
from screen_helpers import choose
from stats_helpers import finish, known_games
from stick_helpers import FakeUnit, box_with_games, screen_text, wait_for, watch

from firmware_app.flows.shared.stats import open_stats
from firmware_app.runners.headless import Headless
from firmware_app.transfer.box_backup import CATALOGUE, open_backup
from firmware_app.transfer.stick_port import MOUNTED, RELEASE


@pytest.fixture
def sim(tmp_path):
    sim = box_with_games(tmp_path / "state")
    yield sim
    sim.close()


@pytest.fixture
def unit(sim, tmp_path):
    watch(sim, tmp_path / "run")
    return FakeUnit(tmp_path / "run")


def newest(unit):
    """The folder of the newest finished backup on the stick."""
    with open_backup(unit.port.folder / "backup") as found:
        return found.path


def test_a_stick_gets_the_results_and_is_let_go_before_the_panel_says_so(sim, unit):
    unit.plug()
    wait_for(sim, "Writing to the USB stick…")
    while "pull the stick out" not in screen_text(sim):
        assert "pull" not in screen_text(sim) or unit.asked
        unit.serve()
        sim.run_for(0.05)
    assert unit.asked and not (unit.run / MOUNTED).exists()  # asked, then unmounted
    assert "Done: 6 games written. You can pull the stick out." in screen_text(sim)
    folder = unit.port.folder
    names = sorted(path.name for path in folder.iterdir())
    assert names[:2] == ["game-00001.json", "game-00002.json"] and "results.csv" in names
    assert len([n for n in names if n.startswith("game-")]) == 6  # 5 finished, 1 abandoned
    rows = list(csv.DictReader((folder / "results.csv").open(encoding="utf-8")))
    assert {row["player"] for row in rows} >= {"Ala", "Olek", "Iza"}
    assert json.loads((folder / "statistics.json").read_text())["games"]["plays"] == 5
    sim.press("ok")  # the notice read, the home menu is back
    assert sim.screen.startswith("[Tableside")


def test_a_unit_gone_before_the_unmount_is_asked_is_logged_in_a_line(sim, unit, caplog):
    """Nobody to ask for the unmount (the root unit stopped): the log says why, in a line."""
    unit.plug()
    (unit.run / RELEASE).unlink()

    def asked() -> list[str]:
        return [m for m in caplog.messages if m.startswith("cannot ask for the stick's")]

    wait_for(sim, "the log's line on the unmount", done=asked)
    [said] = asked()
    assert said == (
        "cannot ask for the stick's unmount: [Errno 2] No such file or directory: "
        f"'{unit.run / RELEASE}'"
    )


def test_the_same_stick_is_not_written_twice_but_the_next_one_is(sim, unit):
    unit.plug()
    wait_for(sim, "pull the stick out", unit)
    sim.press("ok")
    sim.run_for(3)
    assert "USB stick" not in sim.screen
    unit.plug()
    wait_for(sim, "pull the stick out", unit)


def test_a_backup_stick_offers_backup_and_a_confirmed_restore(sim, unit):
    tags = {"04a1b2c3": "becky"}
    sim.app.set_setting("tags", tags)
    (unit.port.folder / "backup").mkdir(parents=True)
    unit.plug()
    wait_for(sim, "Back up this box")
    labels = [item.label for item in sim.app.top.items]
    assert labels == ["Write results", "Back up this box", "Done"]  # nothing to restore yet
    assert sim.app.top.items[1].detail == ""  # no backup made yet: nothing under it
    choose(sim, "Back up this box")
    wait_for(sim, "Backed up.")
    assert sim.app.top.items[1].detail == "Backed up."
    assert newest(unit).parent == unit.port.folder / "backup"
    sim.app.set_setting("tags", {})  # the box moves on: a tag forgotten, a game ended
    sim.journal.abandon(sim.journal.unfinished(), now=1)
    finish(sim.journal, ["Ala", "Olek"], ["rico", "skipper"], [7, 3], [0], 30000)
    with open_stats(sim.app) as stats:
        stats.refresh()  # as opening the statistics menu does, a slice a tick
        assert stats.games()["plays"] == 6
    assert [item.label for item in sim.app.top.items][2] == "Restore from this stick"

    choose(sim, "Restore from this stick")
    wait_for(sim, "Replace all games?")
    assert sim.app.top.items[sim.app.top.cursor].label == "No: go back"  # the safe answer first
    sim.press("ok")
    assert sim.journal.unfinished() is None and sim.app.tags() == {}  # nothing changed

    choose(sim, "Restore from this stick")
    wait_for(sim, "Replace all games?")
    choose(sim, "Yes: restore 7 games")  # what the backup holds: the game in play too
    assert "Restored: 7 games. 5 finished, 1 abandoned, 1 unfinished." in screen_text(sim)
    assert sim.journal.unfinished() is not None  # the game in play is back, and resumable
    assert sim.app.session is not None and sim.app.tags() == tags
    with open_stats(sim.app) as stats:  # the statistics follow the restored journal
        stats.refresh()
        assert stats.games()["plays"] == 5
    assert list(sim.journal.path.parent.glob("replaced-by-restore-*"))
    sim.press("ok")
    choose(sim, "Done")
    wait_for(sim, "Done: 6 games written. You can pull the stick out.", unit)


def test_a_card_laid_on_the_reader_at_the_sticks_menu_is_only_said_to_be_unexpected(sim, unit):
    sim.app.set_setting("tags", {"0A1B2C3D": "becky"})
    (unit.port.folder / "backup").mkdir(parents=True)
    unit.plug()
    wait_for(sim, "Back up this box")
    labels = [item.label for item in sim.app.top.items]
    sim.tag("0A1B2C3D")
    assert "No card is expected now." in screen_text(sim)
    sim.press("ok")
    assert [item.label for item in sim.app.top.items] == labels


def test_a_damaged_backup_is_refused_and_changes_nothing(sim, unit):
    (unit.port.folder / "backup").mkdir(parents=True)
    unit.plug()
    wait_for(sim, "Back up this box")
    choose(sim, "Back up this box")
    wait_for(sim, "Backed up.")
    made = newest(unit)
    (made / "journal.sqlite").write_bytes(b"not what the manifest says")
    sim.app.set_setting("contrast", 9)
    choose(sim, "Restore from this stick")
    wait_for(sim, "The backup is damaged.")
    assert sim.app.setting("contrast") == 9
    assert not list(sim.journal.path.parent.glob("replaced-by-restore-*"))
    assert (made / "journal.sqlite").read_bytes() == b"not what the manifest says"  # left as found


def test_a_restore_that_fails_on_the_way_says_so_and_keeps_the_box_as_it_was(
    sim, unit, monkeypatch, caplog
):
    """The card fills up while the backup is put in place (docs/log.md, "restore from %s
    failed"): the panel says it was not restored, and the games in play stay."""
    import errno

    (unit.port.folder / "backup").mkdir(parents=True)
    unit.plug()
    wait_for(sim, "Back up this box")
    choose(sim, "Back up this box")
    wait_for(sim, "Backed up.")
    in_play = sim.journal.unfinished()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("firmware_app.transfer.box_backup.restore", full)
    choose(sim, "Restore from this stick")
    wait_for(sim, "Replace all games?")
    choose(sim, "Yes: restore 7 games")
    assert sim.app.top.title == "Not restored"
    assert "Could not restore." in screen_text(sim)
    assert sim.journal.unfinished() == in_play
    [said] = [m for m in caplog.messages if m.startswith("restore from")]
    assert said == f"restore from {newest(unit)} failed: [Errno 28] No space left on device"


def test_a_stick_pulled_out_early_is_said_so(sim, unit):
    (unit.port.folder / "backup").mkdir(parents=True)
    unit.plug()
    wait_for(sim, "Back up this box")
    unit.pull()
    wait_for(sim, "pulled out before the box was done")


def test_a_stick_that_cannot_be_written_is_said_so(sim, unit):
    unit.port.mount.mkdir()
    unit.port.folder.write_text("a file where the folder goes")
    unit.plug()
    wait_for(sim, "The stick's tableside is not a folder.", unit)
    assert not (unit.run / MOUNTED).exists()  # let go: the next stick is served
    assert unit.port.folder.read_text() == "a file where the folder goes"


def test_a_backup_restored_onto_a_box_that_has_never_run_is_the_same_box(tmp_path):
    """Every game, setting and taught value of one box, through the stick, onto another."""
    old = Headless(tmp_path / "old", language="pl", owner_catalogue=tmp_path / "old" / CATALOGUE)
    known_games(old.journal)
    old.app.set_setting("tags", {"04a1b2c3": "becky"})
    old.app.set_setting("language", "pl")
    old.app.reload()  # the game in play resumed, as at a start
    teach(tmp_path / "old" / CATALOGUE)
    watch(old, tmp_path / "run")
    unit = FakeUnit(tmp_path / "run")
    (unit.port.folder / "backup").mkdir(parents=True)
    unit.plug()
    wait_for(old, "Zrób kopię zapasową")
    choose(old, "Zrób kopię zapasową")
    wait_for(old, "Kopia gotowa.")
    choose(old, "Gotowe")
    wait_for(old, "Można wyjąć pendrive.", unit)
    old.close()
    before = state(tmp_path / "old")
    assert before["taught"] == TAUGHT

    new = Headless(tmp_path / "new", owner_catalogue=tmp_path / "new" / CATALOGUE)
    watch(new, tmp_path / "run")
    unit.plug()
    wait_for(new, "Restore from this stick")
    choose(new, "Restore from this stick")
    wait_for(new, "Replace all games?")
    choose(new, "Yes: restore 7 games")
    assert "Przywrócone gry: 7." in screen_text(new)  # the restored box speaks Polish
    assert "Zakończone: 5, przerwane: 1, w toku: 1." in screen_text(new)
    new.close()
    after = state(tmp_path / "new")
    assert after == before


def test_a_stick_wakes_the_sleeping_panel(sim, unit):
    sim.app.set_setting("sleep_minutes", 1)
    sim.run_for(61)
    assert sim.loop.asleep
    unit.plug()
    # awake as soon as the box sees the stick: the family sees it is being written
    wait_for(sim, "the stick seen", done=lambda: sim.loop.stick.current is not None)
    assert not sim.loop.asleep
    wait_for(sim, "pull the stick out", unit)
    assert not sim.loop.asleep


def test_the_unmount_answer_is_consumed_and_the_next_stick_is_served_anew(sim, unit):
    """Once the unit has answered, the watch waits for no answer any more: the next stick
    gets its results, its own request to unmount and its own "Done", not an old wait run
    out ("Wait a moment before pulling the stick out")."""
    unit.plug()
    wait_for(sim, "You can pull the stick out.", unit)
    sim.press("ok")
    for path in unit.port.folder.iterdir():  # another, empty stick
        path.unlink()
    unit.plug()
    wait_for(sim, "You can pull the stick out.", unit)
    assert unit.asked and not (unit.run / MOUNTED).exists()
    assert "Done: 6 games written. You can pull the stick out." in screen_text(sim)
    assert (unit.port.folder / "results.csv").exists()


def test_a_backup_that_fails_says_so_under_its_item(sim, unit, monkeypatch):
    def fails(*args):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("firmware_app.flows.shared.stick.back_up", fails)
    (unit.port.folder / "backup").mkdir(parents=True)
    unit.plug()
    wait_for(sim, "Back up this box")
    choose(sim, "Back up this box")
    wait_for(sim, "Could not back up.")
    assert sim.app.top.items[1].detail == "Could not back up."
    assert list((unit.port.folder / "backup").iterdir()) == []


def test_waiting_for_the_unmount_asks_for_no_new_frame_until_the_answer(sim, unit):
    """The watch's tick says whether the panel must be drawn again: while the unit has not
    answered, nothing changed."""
    stick = sim.loop.stick
    unit.plug()
    wait_for(sim, "the unmount asked", done=lambda: stick.releasing is not None)
    assert stick.tick(stick.releasing + 0.1) is False
    wait_for(sim, "Done: 6 games written. You can pull the stick out.", unit)
