"""The simulators open the journal as the daemon does: checked, recovered, and said so.

``tableside sim`` and ``--headless`` once opened the journal bare, so a damaged one gave a
Python traceback and another database's write-ahead log was applied without a word. Each
case here damages a copy of a played state folder, starts the headless runner and the
terminal simulator on it, and checks: no exception, and the first screen is the daemon's
own (``recovery.open_journal`` and ``tell_start`` on another copy of the same damage).
"""

import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from played_helpers import cut_in_play

from firmware_app.app import App
from firmware_app.runners.headless import Headless
from firmware_app.runners.tell import tell_start
from firmware_app.runners.terminal import Simulator
from firmware_app.store import identity
from firmware_app.store.config import load_config
from firmware_app.store.journal import Journal
from firmware_app.store.recovery import close_journal, open_journal

SEED = 7
PLAYED = 30
JOURNAL, LOG = "journal.sqlite", "journal.sqlite-wal"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Our box as cut in play, and another box's as well (for its log)."""
    root = tmp_path_factory.mktemp("played")
    cut_in_play(root / "ours", SEED, PLAYED)
    cut_in_play(root / "theirs", SEED + 1, PLAYED)
    return root


def _stopped(folder: Path) -> Path:
    """The journal as a clean stop leaves it: the log copied into the main file."""
    with Journal(folder / JOURNAL) as journal:
        journal.checkpoint()
    (folder / (JOURNAL + ".running")).unlink(missing_ok=True)
    return folder / JOURNAL


def _flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def _cut(path: Path, share: float) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * share) + 7])


def _random(path: Path) -> None:
    path.write_bytes(random.Random(path.stat().st_size).randbytes(path.stat().st_size))


def _other_program_log(folder: Path) -> None:
    """Another program's database log beside our journal."""
    other = folder.parent / f"{folder.name}-program.sqlite"
    db = sqlite3.connect(other)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE notes (text)")
    db.execute("INSERT INTO notes VALUES ('not a game')")
    db.commit()
    shutil.copyfile(other.with_name(other.name + "-wal"), folder / LOG)
    db.close()


def _other_box_log(folder: Path, played: Path) -> None:
    shutil.copyfile(played / "theirs" / LOG, folder / LOG)


def _folder_as_journal(folder: Path) -> None:
    for name in (JOURNAL, LOG):
        (folder / name).unlink()
    (folder / JOURNAL).mkdir()


def _nonsense_action(folder: Path) -> None:
    db = sqlite3.connect(folder / JOURNAL)
    db.execute("UPDATE actions SET notation = '%%%' WHERE seq = 20")
    db.commit()
    db.close()


DAMAGES = {
    "main truncated": lambda f, p: _cut(_stopped(f), 0.5),
    "main zeroed": lambda f, p: _stopped(f).write_bytes(bytes((f / JOURNAL).stat().st_size)),
    "main random bytes": lambda f, p: _random(_stopped(f)),
    "main emptied, its log kept": lambda f, p: (f / JOURNAL).write_bytes(b""),
    "header magic flipped": lambda f, p: _flip(_stopped(f), 0),
    "header application id flipped": lambda f, p: _flip(_stopped(f), 68),
    "log header flipped": lambda f, p: _flip(f / LOG, 20),
    "log random bytes": lambda f, p: _random(f / LOG),
    "log torn": lambda f, p: _cut(f / LOG, 0.6),
    "log deleted after a stop that was not clean": lambda f, p: (f / LOG).unlink(),
    "another program's log": lambda f, p: _other_program_log(f),
    "another box's log": _other_box_log,
    "a folder as journal": lambda f, p: _folder_as_journal(f),
    "an action changed to nonsense": lambda f, p: _nonsense_action(f),
}


def _damaged(played: Path, tmp_path: Path, damage: str, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(played / "ours", folder)
    (folder / (JOURNAL + ".running")).touch()  # the box had it open
    DAMAGES[damage](folder, played)
    return folder


def _daemons_screen(folder: Path) -> str:
    """What ``tableside run`` shows first on this folder."""
    journal, outcome = open_journal(folder / JOURNAL)
    try:
        app = App(journal, language="en")
        tell_start(app, outcome, [])
        return app.render().text()
    finally:
        close_journal(journal)


@pytest.mark.parametrize(
    "damage",
    list(DAMAGES),
)
def test_the_simulators_start_on_a_damaged_journal_as_the_daemon_does(played, tmp_path, damage):
    daemon = _daemons_screen(_damaged(played, tmp_path, damage, "daemon"))
    assert "[Game record]" in daemon, daemon  # every one of these is told

    headless = Headless(_damaged(played, tmp_path, damage, "headless"), seed=SEED)
    try:
        assert headless.screen == daemon
        headless.press("ok")  # read: the home menu, ready to play
        assert "[Game record]" not in headless.screen
    finally:
        headless.close()

    folder = _damaged(played, tmp_path, damage, "terminal")
    settings = load_config(None, environ={"TABLESIDE_STATE_DIR": str(folder)}).app
    terminal = Simulator(settings, "en", SEED, 0.0)
    try:
        terminal.tick(0.01)
        assert terminal.loop.frame.text() == daemon
    finally:
        terminal.close()


def test_another_journals_log_is_never_applied_in_silence(played, tmp_path):
    """A log of another box's journal is internally whole, so the log check passes it and
    SQLite would apply it: the identity it brings, against the box's mirror, catches it."""
    from firmware_app.store.wal import wal_problems

    folder = _damaged(played, tmp_path, "another box's log", "box")
    assert wal_problems(folder / LOG) == []  # a whole log, as far as its own sums go
    ours = identity.read_mirror(folder / JOURNAL)
    journal, outcome = open_journal(folder / JOURNAL)
    try:
        assert outcome.kind == "damaged", outcome
        assert any("another box's identity" in problem for problem in outcome.problems)
        assert journal.get_setting(identity.KEY) == ours
    finally:
        close_journal(journal)
