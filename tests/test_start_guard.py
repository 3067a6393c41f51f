"""A start that fails in a way nothing foresaw still reaches the home menu and loses nothing.

Each state source a start reads is made to raise, as a bug would: the work before the
journal opens, the journal's check, the box's identity, the settings, the game in play,
the owner's card files. The box is started as ``tableside run`` starts it (``open_journal``,
``App``, ``tell_start``) and counted (``fault_count.py``): it runs, the panel says what
failed, and every acknowledged action is still in the journal.
"""

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from fault_count import count, journal_games

from firmware_app.app import App
from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.runners.tell import tell_start
from firmware_app.session import Session
from firmware_app.store import identity, markers, recovery, rolling_backups, state_check, swap
from firmware_app.store.faults import StorageError
from firmware_app.store.recovery import close_journal, open_journal

PLAYED = 20


class Bug(Exception):
    """What a state source raises here: nothing in the box expects it."""


def _raise(*args, **kwargs):
    raise Bug("injected at start")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A state folder with a game in play, stopped cleanly, and its acknowledged actions."""
    folder = tmp_path_factory.mktemp("start") / "state"
    sim = Headless(folder, seed=3)
    for line in new_game_script(2):
        sim.command(line)
    pilot = Autopilot(sim, 3)
    while len(sim.app.session.states) - 1 < PLAYED:
        assert pilot.step()
    acknowledged = journal_games(sim.journal)
    sim.close()
    return folder, acknowledged


def _plan(folder, aside=None) -> None:
    """A restore plan in the state folder: the journal's new state already in place, its
    copy to be kept in ``aside`` (by default one a restore of this box makes)."""
    journal = folder / "journal.sqlite"
    aside = aside or folder / f"{swap.ASIDE}20261202-000000"
    entry = {
        "path": str(journal),
        "staged": f"{journal}{swap.STAGED}",
        "sha256": hashlib.sha256(journal.read_bytes()).hexdigest(),
        "kept": str(Path(aside) / "journal.sqlite"),
    }
    plan = {"aside": str(aside), "files": [entry], "swap": True}
    (folder / swap.MARKER).write_text(json.dumps(plan))


def _start(folder):
    journal, outcome = open_journal(folder / "journal.sqlite")
    outcome.log()
    app = App(journal, language="en")
    tell_start(app, outcome, [])
    return journal, outcome, app


# Each source, the function it is made to raise from, and the panel's first words then.
SOURCES = {
    "a restore cut short": (swap, "_finish", None),
    "the markers": (markers, "finish_install", None),
    "the scratch of cut writes": (markers, "clean_scratch", None),
    "the archive's cut write": (rolling_backups, "settle_archive", None),
    "the journal's check": (recovery, "content_problems", "[Game record] The game record could"),
    "the box's identity": (identity, "ensure", None),
    "the settings": (state_check, "check_settings", "[Unexpected error] Not read at start: the"),
    "the game in play": (Session, "resume", "[Unexpected error] Not read at start: the game"),
    "the owner's cards": (
        state_check,
        "check_owner_files",
        "[Unexpected error] Not read at start: the owner's",
    ),
}


@pytest.mark.parametrize("source", list(SOURCES))
def test_a_state_source_that_fails_at_start_still_reaches_home(
    played, tmp_path, monkeypatch, source
):
    folder = tmp_path / "state"
    shutil.copytree(played[0], folder)
    if source == "a restore cut short":  # a plan this box writes, so that its work runs
        _plan(folder)
    owner, name, says = SOURCES[source]
    monkeypatch.setattr(owner, name, _raise)
    journal, outcome, app = _start(folder)
    try:
        counted = count(app, played[1])
        assert counted.running and counted.lost == 0, counted
        if says:
            assert counted.screen.startswith(says), counted.screen
        else:  # the start went on past the failing step: a sound journal, no word
            assert outcome.kind == "sound", outcome
            assert counted.screen.startswith("[Tableside]"), counted.screen
    finally:
        close_journal(journal)


def test_a_journal_whose_check_failed_refuses_every_write_and_keeps_its_games(
    played, tmp_path, monkeypatch
):
    folder = tmp_path / "state"
    shutil.copytree(played[0], folder)
    before = (folder / "journal.sqlite").read_bytes()
    monkeypatch.setattr(recovery, "content_problems", _raise)
    journal, outcome, app = _start(folder)
    try:
        assert (outcome.kind, outcome.reason) == ("unwritable", "check")
        with pytest.raises(StorageError):
            app.set_setting("contrast", 64)
        assert journal_games(journal) == played[1]
    finally:
        journal.close()
    assert (folder / "journal.sqlite").read_bytes() == before
    monkeypatch.undo()  # the next start, without the failure, checks and opens it as usual
    journal, outcome, app = _start(folder)
    try:
        assert outcome.kind == "sound"
        assert journal_games(journal) == played[1]
    finally:
        close_journal(journal)


def test_a_restore_plan_this_box_did_not_write_is_told_and_changes_nothing(played, tmp_path):
    folder = tmp_path / "state"
    shutil.copytree(played[0], folder)
    elsewhere = tmp_path / f"{swap.ASIDE}elsewhere"
    _plan(folder, aside=elsewhere)  # copies kept outside the box
    journal, outcome, app = _start(folder)
    try:
        counted = count(app, played[1])
        assert counted.running and counted.lost == 0, counted
        assert "A restore this box did not start was set aside" in counted.screen, counted
        assert not (folder / swap.MARKER).exists()
        assert len(list(folder.glob("restore-under-way.refused-*.json"))) == 1
    finally:
        close_journal(journal)


def test_a_journal_not_even_a_reader_opens_leaves_an_empty_stand_in_that_refuses_writes(
    played, tmp_path, monkeypatch, caplog
):
    """The check failed, and so did opening the file read-only: the box still starts, on an
    empty journal of its own that refuses every write, the file left as it was."""
    folder = tmp_path / "state"
    shutil.copytree(played[0], folder)
    before = (folder / "journal.sqlite").read_bytes()
    monkeypatch.setattr(recovery, "content_problems", _raise)
    monkeypatch.setattr(recovery, "_unwritable", _raise)
    journal, outcome, app = _start(folder)
    try:
        assert (outcome.kind, outcome.reason) == ("unwritable", "check")
        assert journal.path.parent != folder and journal_games(journal) == []
        with pytest.raises(StorageError):
            app.set_setting("contrast", 64)
    finally:
        journal.close()
    assert (folder / "journal.sqlite").read_bytes() == before
    assert "the journal cannot be read either: an empty one stands in" in caplog.messages
