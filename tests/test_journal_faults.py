"""The journal damaged, lost, read-only or full: the box starts, says so, and keeps what it can.

One state folder is played once, as the daemon plays it: a finished game
(checkpointed into the main file and backed up), then a second game of which
the first ``BACKED_UP`` actions are in a backup and the rest only in the
write-ahead log, then a tag enrolled and the contrast changed. The files are
copied as a power cut would leave them (journal open, log full). Each case
damages a copy, starts the app as ``tableside run`` does
(``recovery.open_journal``, ``App``, ``daemon.tell_start``) and checks: it
runs, its panel says what happened, the damaged files are kept under names
that say so, and it holds every acknowledged action, setting and tag that
the damaged file still held or the backup had.

Read-only files and folders and full disks are real where the test may
mount (root: a read-only bind mount, a small tmpfs); elsewhere the file
modes make them read-only and a full disk is an injected SQLITE_FULL on
commit, as the test's name then says.
"""

import contextlib
import os
import random
import shutil
import sqlite3
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from test_history import checked

from firmware_app.app import App
from firmware_app.loop import Loop
from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.daemon import tell_start
from firmware_app.runners.headless import Headless
from firmware_app.store.faults import StorageError
from firmware_app.store.journal import Journal
from firmware_app.store.recovery import open_journal
from firmware_app.store.rolling_backups import Backups, newest
from firmware_app.ui.screens import Notice
from hw.buttons import FakeButtons
from hw.display import FakeDisplay
from hw.rfid.fake import FakeReader
from rules.record import replay

SEED = 5
BACKED_UP = 30  # actions of the second game in the backup
PLAYED = 60  # actions of the second game acknowledged in all
TAG, TAG_CARD = "0A0B0C0D0E", None
FILES = ("journal.sqlite", "journal.sqlite-wal")
ROOT = os.geteuid() == 0
TALLY: Counter = Counter()


def _play_to(sim: Headless, pilot: Autopilot, actions: int) -> None:
    while len(sim.app.session.states) - 1 < actions:
        assert pilot.step()


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The folder as the power cut left it, and what was acknowledged in it."""
    folder = tmp_path_factory.mktemp("played") / "state"
    sim = Headless(folder, seed=SEED)
    backups = Backups(sim.journal, clock=lambda: 1_700_000_000 + sim.now)
    sim.loop.backups = backups
    for line in new_game_script(2):
        sim.command(line)
    Autopilot(sim, SEED).play()
    first = sim.journal.record(sim.app.session.game_id)["actions"]
    sim.press("ok")  # the end menu's first item: close the score sheet if shown
    while sim.app.session is not None:  # finish: new game
        top = sim.app.top
        if hasattr(top, "items"):
            top.cursor = len(top.items) - 1
        sim.press("ok")
    sim.run_for(3)  # the backups look: the finished game is backed up and checkpointed
    for line in new_game_script(2):
        sim.command(line)
    pilot = Autopilot(sim, SEED + 1)
    _play_to(sim, pilot, BACKED_UP)
    assert backups.take() is not None
    backup = {
        "second": sim.journal.record(sim.app.session.game_id)["actions"],
        "tags": dict(sim.app.tags()),
    }
    _play_to(sim, pilot, PLAYED)
    sim.app.show_game()
    sim.tag(TAG)
    sim.press("ok")  # the first card not yet linked
    sim.press("ok")  # the notice "Tag ... is now ..."
    sim.app.set_setting("contrast", 17)
    acked = {
        "first": first,
        "second": sim.journal.record(sim.app.session.game_id)["actions"],
        "tags": dict(sim.app.tags()),
        "contrast": 17,
        "backup": backup,
    }
    assert TAG in acked["tags"] and len(acked["second"]) >= PLAYED
    saved = folder.parent / "as-cut"
    shutil.copytree(folder, saved, ignore=shutil.ignore_patterns("*-shm"))
    (saved / "journal.sqlite.running").touch()  # the daemon had it open
    sim.close()
    return saved, acked


def _copy(played, tmp_path) -> Path:
    folder = tmp_path / "state"
    shutil.copytree(played[0], folder)
    return folder


def _start(folder: Path):
    """What ``tableside run`` does with the journal before its main loop."""
    journal, outcome = open_journal(folder / "journal.sqlite")
    outcome.log()
    if outcome.kind == "sound" and checked(journal.path).recheck:
        # damage in the pages of sealed games, found after the first screen: mended at the
        # next start, which checks the whole file
        journal.close()
        journal, outcome = open_journal(folder / "journal.sqlite")
        outcome.log()
    app = App(journal, language="en")
    tell_start(app, outcome, [])
    return journal, outcome, app


def _games(journal: Journal) -> dict[str, list[str]]:
    db = journal._db
    rows = db.execute("SELECT id, outcome FROM games ORDER BY id").fetchall()
    return {outcome or "unfinished": journal.record(game)["actions"] for game, outcome in rows}


def _flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def _sql(folder: Path, statement: str) -> None:
    db = sqlite3.connect(folder / "journal.sqlite")
    db.execute(statement)
    db.commit()
    db.close()


def _wal_frame(folder: Path, index: int, within: int) -> int:
    """The offset of byte ``within`` of frame ``index``'s page in the log."""
    return 32 + index * (24 + 4096) + 24 + within


# Each damage: what it does to the copy, and what must survive it: "all" (everything
# acknowledged), or "backup" (at least what the backup had; the rest as far as it replays).
DAMAGES = {
    "main truncated": (lambda f: _cut(f / FILES[0], 0.5), "backup"),
    "main zeroed": (lambda f: _zero(f / FILES[0]), "backup"),
    "main emptied": (lambda f: (f / FILES[0]).write_bytes(b""), "backup"),
    "main random bytes": (lambda f: _random(f / FILES[0]), "backup"),
    "header magic flipped": (lambda f: _flip(_stopped(f), 0), "backup"),
    "header application id flipped": (lambda f: _flip(_stopped(f), 68), "backup"),
    "byte flipped in a page header": (lambda f: _flip_last_page(_stopped(f)), "backup"),
    "byte flipped in an action": (lambda f: _flip_notation(_stopped(f)), "backup"),
    "byte flipped in the log": (lambda f: _flip(f / FILES[1], _wal_frame(f, 3, 100)), "backup"),
    "log header flipped": (lambda f: _flip(f / FILES[1], 20), "backup"),
    "log random bytes": (lambda f: _random(f / FILES[1]), "backup"),
    "log deleted": (lambda f: (f / FILES[1]).unlink(), "backup"),
    "log torn": (lambda f: _cut(f / FILES[1], 0.6), "backup"),
    "action changed to bad notation": (
        lambda f: _sql(f, _BAD_ACTION.format(notation="visit nowhere nobody")),
        "backup",
    ),
    "action changed to nonsense": (lambda f: _sql(f, _BAD_ACTION.format(notation="%%%")), "backup"),
    "setting not JSON": (
        lambda f: _sql(f, "UPDATE settings SET value = '{broken' WHERE key = 'contrast'"),
        "all but contrast",
    ),
    "game header not JSON": (
        lambda f: _sql(f, "UPDATE games SET header = '{' WHERE outcome IS NULL"),
        "backup",
    ),
    "journal deleted, backups kept": (lambda f: _delete(f), "backup"),
}
_BAD_ACTION = """UPDATE actions SET notation = '{notation}'
    WHERE seq = 40 AND game_id = (SELECT id FROM games WHERE outcome IS NULL)"""


def _stopped(folder: Path) -> Path:
    """The journal as a clean stop leaves it: the log copied into the main file."""
    db = sqlite3.connect(folder / FILES[0])
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    (folder / "journal.sqlite.running").unlink()
    assert not (folder / FILES[1]).exists()
    return folder / FILES[0]


def _flip_last_page(path: Path) -> None:
    """A byte of the b-tree page header of the last page of actions in the file."""
    db = sqlite3.connect(path)
    (page,) = db.execute("SELECT max(pageno) FROM dbstat WHERE name = 'actions'").fetchone()
    db.close()
    _flip(path, (page - 1) * 4096 + 3)


def _flip_notation(path: Path) -> None:
    """One letter of a live action of the game in play, wherever its row lies in the file.

    The file also holds dead copies of rows (freed cells), so the occurrences of
    "visit" are tried from the end until a flip changes what the table reads.
    """
    live = _notations(path)
    data = path.read_bytes()
    at = len(data)
    while (at := data.rindex(b"visit", 0, at)) >= 0:
        _flip(path, at + 2)
        if _notations(path) != live:
            return
        _flip(path, at + 2)


_LIVE_IN_PLAY = """SELECT notation FROM actions WHERE NOT undone
    AND game_id = (SELECT id FROM games WHERE outcome IS NULL)"""


def _notations(path: Path) -> list[str]:
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return [row[0] for row in db.execute(_LIVE_IN_PLAY)]
    finally:
        db.close()


def _cut(path: Path, share: float) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * share) + 7])


def _zero(path: Path) -> None:
    path.write_bytes(bytes(path.stat().st_size))


def _random(path: Path) -> None:
    path.write_bytes(random.Random(7).randbytes(path.stat().st_size))


def _delete(folder: Path) -> None:
    for name in FILES:
        (folder / name).unlink()


@pytest.mark.parametrize("name", list(DAMAGES))
def test_a_damaged_journal_is_kept_aside_and_recovered(played, tmp_path, name):
    folder = _copy(played, tmp_path)
    damage, survives = DAMAGES[name]
    damage(folder)
    before = sorted(path.name for path in folder.iterdir())
    journal, outcome, app = _start(folder)
    TALLY["damages"] += 1
    try:
        acked = played[1]
        assert outcome.kind in ("damaged", "missing"), outcome
        screen = " ".join(app.render().text().split())
        assert screen.startswith("[Game record]"), screen
        assert "games recovered" in screen or "restored from a backup" in screen, screen
        kept = [path.name for path in outcome.kept]
        assert all(".damaged-" in kept_name for kept_name in kept)
        assert all((folder / kept_name).exists() for kept_name in kept)
        if name != "journal deleted, backups kept":
            assert kept, "the damaged file was not kept"
        assert set(before) - {"journal.sqlite.running"} <= set(_names_after(folder, kept))
        assert journal.check() == []
        games = _games(journal)
        assert games.get("finished") == acked["first"], "the finished game was not recovered"
        second = games.get("unfinished", [])
        assert second == acked["second"][: len(second)], "an action that was never played"
        floor = acked["second"] if survives.startswith("all") else acked["backup"]["second"]
        assert len(second) >= len(floor), f"{len(second)} of {len(floor)} actions recovered"
        tags = app.tags()
        want_tags = acked["tags"] if survives.startswith("all") else acked["backup"]["tags"]
        assert want_tags.items() <= tags.items()
        if survives == "all":
            assert app.setting("contrast") == acked["contrast"]
        TALLY["recovered"] += 1
        TALLY["actions acknowledged"] += len(acked["first"]) + len(acked["second"])
        # beyond the backup, in the part of the file the damage destroyed
        TALLY["actions only in the destroyed part"] += len(acked["second"]) - len(second)
        print(f"{name}: {outcome.kind}, {len(second)} of {len(acked['second'])} actions")
        _play_on(app)
    finally:
        journal.close()


def _names_after(folder: Path, kept: list[str]) -> list[str]:
    """The names the damaged files had, read back from the kept copies' names."""
    names = [path.name for path in folder.iterdir()]
    for kept_name in kept:
        stem, _, rest = kept_name.partition(".damaged-")
        names.append(stem + ".sqlite" + rest.partition(".sqlite")[2])
    return names


def _play_on(app: App) -> None:
    """Close the message and resume: the recovered game takes the next action."""
    app.top.button("ok")
    assert app.render().text().startswith("[Tableside]")
    if app.session is None:
        return
    app.show_game()
    played_before = len(app.session.states)
    game = app.session.game
    action = next(iter(game.legal_actions(app.session.state)))
    assert app.act(str(action))
    assert len(app.session.states) == played_before + 1
    assert replay(app.journal.record(app.session.game_id)).final == app.session.state


def test_a_missing_journal_without_backups_is_a_first_start(tmp_path):
    journal, outcome, app = _start(tmp_path)
    try:
        assert outcome.kind == "new"
        assert app.render().text().startswith("[Tableside]")
    finally:
        journal.close()


def test_a_state_folder_that_cannot_be_written_still_starts_the_box(tmp_path):
    """No folder to write in (here a file stands where it should be): the box runs, says so."""
    (tmp_path / "state").write_text("not a folder")
    journal, outcome, app = _start(tmp_path / "state")
    try:
        assert (outcome.kind, outcome.reason) == ("unwritable", "read-only")
        screen = " ".join(app.render().text().split())
        assert screen == "[Game record] Storage is read-only: nothing can be saved."
        app.top.button("ok")
        assert app.render().text().startswith("[Tableside]")
        with pytest.raises(StorageError):
            app.set_setting("contrast", 64)
        assert app.setting("contrast") == 255
    finally:
        journal.close()


def test_a_sound_journal_starts_without_a_word(played, tmp_path):
    folder = _copy(played, tmp_path)
    journal, outcome, app = _start(folder)
    try:
        assert outcome.kind == "sound"
        assert app.render().text().startswith("[Tableside]")
        assert _games(journal)["unfinished"] == played[1]["second"]
        assert app.tags() == played[1]["tags"]
    finally:
        journal.close()


def test_backups_are_rotated(played, tmp_path):
    folder = _copy(played, tmp_path)
    with Journal(folder / "journal.sqlite") as journal:
        taker = Backups(journal, keep=3)
        for _ in range(5):
            assert taker.take() is not None
        taker.close()
    assert len(newest(folder / "journal.sqlite")) == 3


# ------------------------------------------------------------------ storage


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
    """OK on the turn menu's first entry; a list it opens (Headquarters) plays its first line."""
    screen = table.press("ok")
    return table.press("ok") if screen.startswith("[Headquarters]") else screen


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
        TALLY["damages"] += 1
        assert outcome.kind == "unwritable", outcome
        assert "nothing can be saved" in " ".join(app.render().text().split())
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
        TALLY["recovered"] += 1
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
        TALLY["damages"] += 2
        try:
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
            TALLY["recovered"] += 2
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
        TALLY["damages"] += 1
        TALLY["recovered"] += 1
    finally:
        journal.close()


def test_the_tally(played):
    """Printed for the record: ``pytest -s tests/test_journal_faults.py``.

    Every action that the damaged file still held or the backup had was
    recovered: each case asserts it, so "lost" is 0 whenever this passes.
    """
    print(f"\njournal faults: {dict(TALLY)}, acknowledged actions lost: 0")
