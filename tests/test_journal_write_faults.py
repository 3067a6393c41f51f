"""Faults of the storage's writes: the box starts, says so, refuses each move it cannot
save, and saves again once the storage takes writes; nothing acknowledged is lost.

Each test starts the box on a copy of the state folder of ``tests/played_helpers.py``,
takes the count of ``tests/fault_count.py`` (running, shown, ``lost == 0``) and presses
through the real main loop on fake buttons. Read-only files and folders and full disks
are real where the test may mount (root: a read-only bind mount, a small tmpfs);
elsewhere the file modes make them read-only and a full disk is skipped. An I/O error on
commit is injected.
"""

import contextlib
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from fault_count import count
from played_helpers import (
    _copy,
    _games,
    _play_on,
    _start,
    played_fixture,  # noqa: F401  (a fixture)
    statistics_count_again,
)

from firmware_app.app import App
from firmware_app.loop import Loop
from firmware_app.ui.screens import Notice
from hw.buttons import FakeButtons
from hw.display import FakeDisplay
from hw.rfid.fake import FakeReader
from rules.record import replay

ROOT = os.geteuid() == 0


@contextlib.contextmanager
def _mounted(*args: str, target: Path):
    subprocess.run(["mount", *args, str(target)], check=True, capture_output=True)
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(target)], check=False, capture_output=True)


def _can_mount() -> bool:
    return ROOT and shutil.which("mount") is not None


@contextlib.contextmanager
def _read_only(path: Path):
    """``path`` (a file or a folder) read-only: a bind mount as root, its mode otherwise."""
    if _can_mount():
        with _mounted("--bind", str(path), target=path):
            subprocess.run(["mount", "-o", "remount,ro,bind", str(path)], check=True)
            yield
        return
    mode = path.stat().st_mode
    path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        yield
    finally:
        path.chmod(mode)


def play(table) -> str:
    """OK on the turn menu's first entry; a list it opens (Headquarters, then the ways to
    pay) plays its first line."""
    screen = table.press("ok")
    while screen.startswith(("[Headquarters]", "[Pay with]")):
        screen = table.press("ok")
    return screen


class Table:
    """The app's main loop on fake buttons, pressed as the table presses them."""

    def __init__(self, app: App) -> None:
        self.app, self.now = app, 0.0
        self.buttons = FakeButtons()
        self.loop = Loop(app, self.buttons, FakeReader(), FakeDisplay(clock=lambda: self.now))

    def press(self, name: str) -> str:
        """One press and release; the screen after it, on one line."""
        for pressed in (True, False):
            (self.buttons.press if pressed else self.buttons.release)(name, self.now)
            for _ in range(10):
                self.now = round(self.now + 0.01, 6)
                self.loop.tick(self.now)
        return " ".join(self.loop.frame.text().split())

    def resume(self) -> None:
        """Past any message to the game's menu, whose first move OK plays."""
        while isinstance(self.app.top, Notice):
            self.press("ok")
        if self.app.top is self.app.stack[0] and self.app.session is not None:
            self.app.show_game()


@pytest.mark.parametrize("which", ["file", "folder"])
def test_a_read_only_journal_starts_reading_and_refuses_each_move(played, tmp_path, which):
    folder = _copy(played, tmp_path)
    (folder / "journal.sqlite.running").unlink()
    target = folder / "journal.sqlite" if which == "file" else folder
    with _read_only(target):
        journal, outcome, app = _start(folder)
        result = count(app, [played[1]["first"], played[1]["second"]])
        assert result.running and result.shown and result.lost == 0, result
        assert outcome.kind == "unwritable", outcome
        assert "nothing can be saved" in result.screen
        table = Table(app)
        table.resume()
        states = list(app.session.states)
        for _ in range(3):  # refused each time, the game as it was
            assert "Storage is read-only: this move was not saved" in table.press("ok")
            assert table.press("ok").startswith("[Player") and app.session.states == states
    try:
        table.press("ok")  # the storage takes writes again: the same move is saved
        assert len(app.session.states) == len(states) + 1
        assert journal.read_only is False
        actions = _games(journal)["unfinished"]
        assert actions[:-1] == played[1]["second"]
    finally:
        journal.close()


@contextlib.contextmanager
def _small_disk(folder: Path):
    """A small file system mounted at ``folder``; skipped where the test cannot mount."""
    folder.mkdir()
    if not _can_mount():
        pytest.skip("needs root to mount a small file system")
    with _mounted("-t", "tmpfs", "-o", "size=4m", "tmpfs", target=folder):
        yield


def _fill(folder: Path) -> Path:
    filler = folder / "filler"
    with open(filler, "ab", buffering=0) as file:
        for size in (65536, 512):
            with contextlib.suppress(OSError):
                while True:
                    file.write(bytes(size))
    return filler


def test_a_full_disk_at_start_and_mid_game_refuses_moves_and_loses_nothing(played, tmp_path):
    disk = tmp_path / "disk"
    with _small_disk(disk):
        folder = disk / "state"
        shutil.copytree(played[0], folder)
        filler = _fill(disk)
        journal, outcome, app = _start(folder)  # full at start
        try:
            result = count(app, [played[1]["first"], played[1]["second"]])
            assert result.running and result.lost == 0, result
            table = Table(app)
            table.resume()
            states = list(app.session.states)
            for _ in range(3):
                assert "Storage full: this move was not saved" in play(table)
                assert table.press("ok").startswith("[Player") and app.session.states == states
            filler.unlink()
            play(table)  # space again: saved
            assert len(app.session.states) == len(states) + 1
            filler = _fill(disk)  # full mid-game
            table.resume()
            states = list(app.session.states)
            assert "Storage full: this move was not saved" in play(table)
            assert app.session.states == states
            filler.unlink()
            table.resume()
            play(table)
            assert len(app.session.states) == len(states) + 1
            actions = _games(journal)["unfinished"]
            assert actions[: len(played[1]["second"])] == played[1]["second"]
            assert len(actions) == len(states)
            assert replay(journal.record(app.session.game_id)).final == app.session.state
        finally:
            journal.close()


class FailingCommits:
    """The journal's connection with SQLite's "disk I/O error" on COMMIT while ``failing``:
    an I/O error cannot be made on demand with a real card, so this one is injected."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db, self.failing = db, True

    def execute(self, statement: str, *args):
        if self.failing and statement == "COMMIT":
            error = sqlite3.OperationalError("disk I/O error")
            error.sqlite_errorcode = 10  # SQLITE_IOERR
            raise error
        return self.db.execute(statement, *args)

    def __getattr__(self, name: str):
        return getattr(self.db, name)


def test_an_io_error_on_commit_refuses_the_move_and_the_next_one_is_saved(played, tmp_path):
    folder = _copy(played, tmp_path)
    journal, outcome, app = _start(folder)
    try:
        result = count(app, [played[1]["first"], played[1]["second"]])
        assert result.running and not result.shown and result.lost == 0, result
        failing = FailingCommits(journal._db)
        journal._db = failing
        table = Table(app)
        table.resume()
        states = list(app.session.states)
        assert "Storage error: this move was not saved" in table.press("ok")
        assert app.session.states == states
        failing.failing = False
        journal._db = failing.db  # the fault is gone (the journal also reopens its file)
        table.resume()
        table.press("ok")
        assert len(app.session.states) == len(states) + 1
        assert _games(journal)["unfinished"][:-1] == played[1]["second"]
    finally:
        journal.close()


def test_a_full_disk_while_statistics_are_counted_loses_nothing(played, tmp_path):
    """The statistics cache cannot be written: the counting stops, says so, the box plays on;
    with space again the statistics are counted and nothing acknowledged is lost."""
    from firmware_app.flows.shared.stats_counting import Counting

    disk = tmp_path / "disk"
    with _small_disk(disk):
        folder = disk / "state"
        shutil.copytree(played[0], folder)
        journal, outcome, app = _start(folder)
        try:
            filler = _fill(disk)
            counting = Counting(app)
            for _ in range(1000):
                if counting.done:
                    break
                counting.step()
            counting.close()
            assert counting.done and counting.fault == "full", counting.fault
            assert counting.notes()[0] == "Storage full: some games are not counted yet."
            filler.unlink()
            result = count(app, [played[1]["first"], played[1]["second"]])
            assert result.running and result.lost == 0, result
            statistics_count_again(journal)
            _play_on(app)
        finally:
            journal.close()
        journal, outcome, app = _start(folder)  # and the next start
        try:
            result = count(app, [played[1]["first"], played[1]["second"]])
            assert result.running and result.lost == 0, result
        finally:
            journal.close()


def test_the_screens_are_restored_after_a_refused_write(tmp_path):
    """OK on the hand-off's last page closes the notice, then draws the next player's tokens;
    when that draw cannot be saved, the whole input is refused (``loop.py``): after the
    "Not saved" notice the hand-off is on the panel again, and OK on it draws once saved."""
    from firmware_app.runners.autopilot import Autopilot, new_game_script
    from firmware_app.runners.headless import Headless

    sim = Headless(tmp_path / "state", seed=5)
    try:
        for line in new_game_script(2):
            sim.command(line)
        pilot = Autopilot(sim, 5)
        while not (isinstance(sim.app.top, Notice) and sim.app.top.ok):
            assert pilot.step()
        hand_off = sim.app.top
        while hand_off.page + 1 < hand_off.pages:
            sim.press("ok")
        title = hand_off.title
        states = list(sim.app.session.states)
        failing = FailingCommits(sim.journal._db)
        sim.journal._db = failing
        sim.press("ok")
        assert "Storage error: this move was not saved" in " ".join(sim.screen.split())
        assert sim.app.session.states == states
        sim.press("ok")  # the "Not saved" notice read
        assert sim.app.top is hand_off and sim.screen.startswith(f"[{title}]")
        sim.journal._db = failing.db  # the fault is gone
        sim.press("ok")
        assert len(sim.app.session.states) == len(states) + 1
        assert sim.app.top is not hand_off
    finally:
        sim.close()


def test_any_other_refusal_of_the_storage_is_an_io_error_that_a_look_may_narrow(
    tmp_path, monkeypatch
):
    """EIO, or an errno the box has no name for, is "io": the one reason a look at the
    storage narrows (``faults.refine``), to "read-only" where the folder takes no writes."""
    import errno

    from firmware_app.store import faults

    for number in (errno.EIO, errno.ENODEV):
        assert faults.storage_fault(OSError(number, os.strerror(number))) == "io"
    journal = tmp_path / "journal.sqlite"
    assert faults.refine("io", journal) == "io"  # space, and writes taken: an I/O error
    monkeypatch.setattr(faults, "writable", lambda path: False)
    assert faults.refine("io", journal) == "read-only"


def test_a_read_only_or_refused_storage_is_reported_as_read_only():
    """EROFS ("Read-only file system", a card mounted read-only after errors) and EACCES
    ("Permission denied", a folder the daemon's user may not write) both tell the table its
    storage takes no writes: "read-only", not an I/O error."""
    import errno

    from firmware_app.store.faults import storage_fault

    for number in (errno.EROFS, errno.EACCES):
        assert storage_fault(OSError(number, os.strerror(number))) == "read-only"


def test_a_full_disk_is_reported_as_a_full_disk(tmp_path):
    """SQLite's result code 13 is SQLITE_FULL ("insertion failed because database is full",
    sqlite.org/rescode.html) and errno ENOSPC is "No space left on device": both are the
    storage full, told to the table as such, not as an I/O error, even on a disk that still
    has space by the time the box looks (``faults.refine`` only ever narrows "io")."""
    import errno

    from firmware_app.store.faults import StorageError, storage_fault
    from firmware_app.store.journal import Journal

    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13
    assert storage_fault(full) == "full"
    assert storage_fault(OSError(errno.ENOSPC, "No space left on device")) == "full"

    class FullCommits(FailingCommits):
        def execute(self, statement: str, *args):
            if statement == "COMMIT":
                raise full
            return self.db.execute(statement, *args)

    journal = Journal(tmp_path / "journal.sqlite")
    db = journal._db
    try:
        journal._db = FullCommits(db)
        with pytest.raises(StorageError) as refused:
            journal.set_setting("contrast", 64)
        assert refused.value.reason == "full"
    finally:
        journal._db = db
        journal.close()
