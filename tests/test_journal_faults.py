"""The state folder damaged, lost or unwritable: the box starts, says so, keeps what it can.

The state folder of ``tests/played_helpers.py`` is played once (a finished game; a second
game partly in a backup and partly only in the log; a tag enrolled and the contrast
changed; copied as a power cut leaves it). Each kind of damage in ``KINDS``
(``tests/fault_kinds.py``; classed: file, log, records, settings, backup, marker, storage,
owner file, statistics, running box) damages a copy, starts the app as ``tableside run``
does (``recovery.open_journal``, ``App``, ``daemon.tell_start``, the check after start-up)
and ends with the count of ``tests/fault_count.py``: the app runs (a press through the
main loop answers), its panel says what happened, and no acknowledged action is lost that
some file (the damaged journal, a backup, the archive) still held, as SQLite reads them
from copies taken before the start. Then it plays on.

The faults of the storage's writes (read-only, full, an I/O error) are in
``tests/test_journal_write_faults.py``.
"""

import contextlib
import json
import logging
import os
import shutil
import signal
import sqlite3
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from fault_count import count, held, journal_games, kept
from fault_kinds import FILES, KINDS, OWNER, Kind
from played_helpers import (
    _copy,
    _games,
    _play_on,
    _start,
    played_fixture,  # noqa: F401  (a fixture)
    statistics_count_again,
)

from firmware_app.app import App
from firmware_app.store.faults import StorageError
from firmware_app.store.journal import Journal
from firmware_app.store.recovery import Outcome, open_journal
from firmware_app.store.rolling_backups import Backups, newest
from firmware_app.ui.screens import Notice
from firmware_app.words.i18n import Translator

COUNTS: list = []  # every count taken in this module's run: (case, Count)
RAN: set[str] = set()  # the tests of this module that ran in this process


def _act(app: App, times: int) -> list[str]:
    """``times`` moves of the game in play, each acknowledged (``act`` returned)."""
    app.show_game()
    for _ in range(times):
        state = app.session.state
        action = sorted(map(str, app.session.game.legal_actions(state)))[0]
        assert app.act(action)
    return app.journal.record(app.session.game_id)["actions"]


def _held_tags(folder: Path) -> dict[str, str]:
    """The enrolled tags that some file (the journal, a snapshot) still held, read from copies."""
    found: dict[str, str] = {}
    sources = [folder / FILES[0], *sorted((folder / "backups").glob("journal-*.sqlite"))]
    scratch = folder.parent / "tags-read"
    for number, source in enumerate(sources):
        if not source.is_file():
            continue
        scratch.mkdir(exist_ok=True)
        copy = scratch / f"{number}.sqlite"
        for suffix in ("", "-wal"):
            if Path(f"{source}{suffix}").is_file():
                shutil.copyfile(f"{source}{suffix}", f"{copy}{suffix}")
        with (
            contextlib.suppress(sqlite3.Error, ValueError, TypeError),
            contextlib.closing(sqlite3.connect(copy)) as db,
        ):
            (value,) = db.execute("SELECT value FROM settings WHERE key = 'tags'").fetchone()
            tags = json.loads(value)
            if isinstance(tags, dict):
                found.update({k: v for k, v in tags.items() if isinstance(v, str)})
    shutil.rmtree(scratch, ignore_errors=True)
    return found


def _temporary(folder: Path) -> list[str]:
    """Temporary files of a write or a rebuild left after the start."""
    if not folder.is_dir():
        return []
    return sorted(
        str(path.relative_to(folder))
        for pattern in (".*.tmp", ".salvage-*")
        for path in folder.rglob(pattern)
    )


def _holds(path: Path) -> bool:
    """A regular file with something in it: what a recovery must keep aside."""
    return path.is_file() and not path.is_symlink() and path.stat().st_size > 0


def _kept_originals(before: set[str], kept) -> set[str]:
    """The damaged files that are kept: a copy of each exists now, under a new name."""
    names = set()
    for copy in kept:
        if copy.name in before or not copy.is_file() or ".damaged-" not in copy.name:
            continue
        stem, _, rest = copy.name.partition(".damaged-")
        names.add(stem + ".sqlite" + rest.partition(".sqlite")[2])
    return names


def _settings_sane(app: App) -> None:
    contrast = app.setting("contrast")
    assert isinstance(contrast, int) and 0 <= contrast <= 255, contrast
    assert app.language in ("en", "pl"), app.language
    assert isinstance(app.tags(), dict) and all(isinstance(v, str) for v in app.tags().values())


def _check(folder: Path, kind: Kind, lists: list[list[str]], tags: dict, foreign: list[str]):
    """Start the box on the damaged folder; the count, and what each class must keep."""
    before = {p.name: _holds(p) for p in folder.iterdir()}
    owner = folder / OWNER
    owner_bytes = owner.read_bytes() if owner.is_file() else None
    journal, outcome, app = _start(folder)
    try:
        result = count(app, lists)
        assert not result.error and result.running, result
        if kind.says is not None:
            assert result.shown == kind.says, result
        found = [len(game) for game in journal_games(journal)]
        assert result.lost == 0, (result, "held", [len(a) for a in lists], "found", found)
        rebuilt = outcome.kind in ("damaged", "missing")
        if kind.rebuilt is not None:
            assert rebuilt == kind.rebuilt, outcome
        if rebuilt:
            assert result.screen.startswith("[Game record]"), result
            originals = {name for name in FILES if before.get(name)}
            missing = originals - _kept_originals(set(before), outcome.kept)
            assert not missing, f"not kept aside as found: {sorted(missing)}; kept {outcome.kept}"
            assert journal.check() == []
        assert tags.items() <= app.tags().items(), (tags, app.tags())
        assert foreign not in journal_games(journal), "another box's game was taken in"
        _settings_sane(app)
        assert not _temporary(folder), _temporary(folder)
        if kind.cls == "owner file":
            app.catalogue(demo=True)  # the box can set a game up: the file is read or set aside
            # said at the start, or where the file is first loaded (a value out of bounds)
            assert result.shown or isinstance(app.top, Notice), "the panel said nothing"
            if owner_bytes is not None:
                copies = [p for p in folder.iterdir() if p.name not in before and p.is_file()]
                assert any(p.read_bytes() == owner_bytes for p in copies), "not kept aside"
        if kind.cls == "statistics":
            statistics_count_again(journal)
        _play_on(app)
    finally:
        journal.close()
    return result


def _in_child(work: Callable[[], object], seconds: float) -> object:
    """``work()`` in a forked child, its result pickled back; a child that hangs (SQLite
    blocked on a FIFO) is killed and the test fails instead of the suite hanging."""
    import pickle

    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(reading)
        try:
            answer = (True, work())
        except BaseException:
            answer = (False, traceback.format_exc())
        try:
            data = pickle.dumps(answer)
        except Exception:
            data = pickle.dumps((answer[0], repr(answer[1])))
        with os.fdopen(writing, "wb") as pipe:
            pipe.write(data)
        os._exit(0)
    os.close(writing)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.02)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(reading)
        pytest.fail(f"the start hung for {seconds} s and was killed")
    with os.fdopen(reading, "rb") as pipe:
        ok, value = pickle.loads(pipe.read() or pickle.dumps((False, "the child died")))
    if not ok:
        pytest.fail(value, pytrace=False)
    return value


def _run_and_kill(folder: Path, during: Callable[[Path], None]) -> list[list[str]]:
    """A box started on the folder plays 3 moves, ``during`` is done to it, it plays 3
    more, then it is killed; the games as it acknowledged them."""

    def box() -> list[list[str]]:
        journal, _, app = _start(folder)
        first = journal_games(journal)
        _act(app, 3)
        during(folder)
        second = _act(app, 3)
        return [*(g for g in first if g != second[: len(g)]), second]

    games = _in_child(lambda: _killed_after(box), 60)
    assert folder.is_dir() or not folder.exists()
    folder.mkdir(exist_ok=True)
    return games


def _killed_after(work: Callable[[], object]) -> object:
    """The work's result; the caller's child then ends as a killed box does (no checkpoint,
    no close: ``os._exit`` runs no clean-up)."""
    return work()


@pytest.mark.parametrize("name", list(KINDS))
def test_each_kind_of_damage_ends_with_a_count(played, tmp_path, name):
    kind = KINDS[name]
    if (kind.hangs or kind.running) and not hasattr(os, "fork"):
        pytest.skip("needs os.fork")
    folder = _copy(played, tmp_path)
    acked = played[1]
    if kind.running is not None:
        lists = _run_and_kill(folder, kind.running)  # the box had every one: none may go
        tags = acked["tags"]
    else:
        kind.damage(folder)
        lists = kept([acked["first"], acked["second"]], held(folder))
        tags = _held_tags(folder)
    args = (folder, kind, lists, tags, acked["foreign"])
    result = _in_child(lambda: _check(*args), 20) if kind.hangs else _check(*args)
    COUNTS.append((name, result))
    print(f"{name}: {result}")


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
        result = count(app, [])
        COUNTS.append(("state folder not a folder", result))
        assert result.running and result.shown and result.lost == 0, result
        assert result.screen == "[Game record] Storage is read-only: nothing can be saved."
        assert app.render().text().startswith("[Tableside]")  # the press closed the message
        with pytest.raises(StorageError):
            app.set_setting("contrast", 64)
        assert app.setting("contrast") == 255
    finally:
        journal.close()


def test_a_sound_journal_starts_without_a_word(played, tmp_path, caplog):
    folder = _copy(played, tmp_path)
    caplog.set_level(logging.INFO)
    journal, outcome, app = _start(folder)
    try:
        assert outcome.kind == "sound"
        # one game finished, one in play when the power went: the log's one line says so
        assert "journal: sound, 1 unfinished games" in caplog.messages
        assert app.render().text().startswith("[Tableside]")
        result = count(app, [played[1]["first"], played[1]["second"]])
        COUNTS.append(("sound", result))
        assert result.running and not result.shown and result.lost == 0, result
        assert _games(journal)["unfinished"] == played[1]["second"]
        assert app.tags() == played[1]["tags"]
    finally:
        journal.close()


def test_a_log_gone_after_a_stop_that_was_not_clean_is_named_in_the_log(played, tmp_path, caplog):
    """The box was running (its marker is there) and its log is gone: the games the log
    held may be lost, so the journal is rebuilt, and the log says why."""
    folder = _copy(played, tmp_path)
    KINDS["log deleted"].damage(folder)
    journal, outcome, _ = _start(folder)
    try:
        assert outcome.kind == "damaged"
        assert "the log is missing after a stop that was not clean" in caplog.text
    finally:
        journal.close()


def test_a_storage_error_neither_full_nor_read_only_is_told_in_plain_words():
    """A failing card (an input/output error) has no words of its own: the general ones."""
    outcome = Outcome("unwritable", problems=("disk I/O error",), reason="io")
    assert outcome.message(Translator("en")) == ["Storage error: nothing can be saved now."]


@pytest.mark.parametrize(
    ("reason", "until"),
    [("full", "the storage takes writes"), ("read-only", "the storage takes writes"),
     ("check", "the next start")],
)  # fmt: skip
def test_a_read_only_journal_logs_until_when(caplog, reason, until):
    """docs/log.md: "journal read-only until %s: %s", an error; the storage's own refusal
    lasts until it takes writes, a failed check until the next start."""
    Outcome("unwritable", problems=("the first problem", "another"), reason=reason).log()
    [record] = caplog.records
    assert (record.levelname, record.getMessage()) == (
        "ERROR",
        f"journal read-only until {until}: the first problem",
    )


def test_backups_are_rotated(played, tmp_path):
    folder = _copy(played, tmp_path)
    with Journal(folder / "journal.sqlite") as journal:
        taker = Backups(journal, keep=3)
        for _ in range(5):
            assert taker.take() is not None
        taker.close()
    assert len(newest(folder / "journal.sqlite")) == 3


def test_a_backup_that_cannot_be_written_is_logged_once_until_backups_work_again(
    played, tmp_path, caplog
):
    """A backup that fails (here ``backups`` is a file, not a folder) is logged once while
    they keep failing, play going on (docs/log.md); the first that works again says so."""
    caplog.set_level(logging.INFO, logger="tableside.backups")
    folder = _copy(played, tmp_path)
    shutil.rmtree(folder / "backups", ignore_errors=True)
    (folder / "backups").write_text("not a folder\n")
    with Journal(folder / "journal.sqlite") as journal:
        taker = Backups(journal, keep=3)
        assert (taker.take(), taker.take()) == (None, None)
        [failed] = [r.getMessage() for r in caplog.records]
        assert failed.startswith(f"cannot write the backup {folder / 'backups'}: ")
        assert failed.endswith("; trying again later")
        (folder / "backups").unlink()
        made = taker.take()
        taker.close()
    assert made is not None and made.parent == folder / "backups"
    said = [r.getMessage() for r in caplog.records][1:]
    assert said == ["backups work again", f"backup {made}"]


@pytest.fixture(autouse=True)
def _ran_here(request):
    """Notes each test of this module that ran in this process, for the tally."""
    yield
    RAN.add(request.node.nodeid)


def test_the_tally(request):
    """At least 50 kinds of damage, in at least 8 classes; every count taken in this module's
    run (the tests above, run before this one in this process) ran and lost nothing, each
    kind counted once, and every class found acknowledged actions to count (so its "lost 0"
    counts something). Each figure printed is one asserted. Where the cases ran elsewhere
    (workers of ``-n``) or were not selected, there is nothing to tally here: skipped.
    (The faults of the storage's writes, in their own module, assert their count where it
    is taken.)"""
    items = request.session.items
    earlier = items[: items.index(request.node)]
    cases = [item for item in earlier if item.module is request.module]
    kinds = {
        item.callspec.params["name"]
        for item in cases
        if item.originalname == test_each_kind_of_damage_ends_with_a_count.__name__
    }
    if kinds != set(KINDS) or not RAN.issuperset(item.nodeid for item in cases):
        pytest.skip("the tally counts every kind of damage, run before it in this process")
    classes = Counter(kind.cls for kind in KINDS.values())
    assert len(KINDS) >= 50, len(KINDS)
    assert len(classes) >= 8 and min(classes.values()) >= 3, classes
    by_class: dict[str, Counter] = {}
    for name, result in COUNTS:
        tally = by_class.setdefault(KINDS[name].cls if name in KINDS else name, Counter())
        tally.update(
            tried=1,
            survived=int(result.running and result.lost == 0),
            acknowledged=result.acknowledged,
            lost=result.lost,
        )
    extra = [name for name, _ in COUNTS if name not in KINDS]  # the tests' own starts
    assert sorted(name for name, _ in COUNTS if name in KINDS) == sorted(KINDS), "each kind once"
    assert len(extra) == len(set(extra)), extra
    print(f"\nkinds of damage: {len(KINDS)} in {len(classes)} classes; counts: {len(COUNTS)}")
    for cls, tally in sorted(by_class.items()):
        print(f"{cls}: " + ", ".join(f"{key} {tally[key]}" for key in tally))
        assert tally["tried"] == classes.get(cls, 1), (cls, tally)
        assert tally["survived"] == tally["tried"] and tally["lost"] == 0, (cls, tally)
        if cls in classes:
            assert tally["acknowledged"] > 0, (cls, tally)


def _torn(folder: Path) -> None:
    """The log's last frame cut short: the commit in it would be dropped unsaid."""
    wal = folder / "journal.sqlite-wal"
    wal.write_bytes(wal.read_bytes()[:-100])


def _bad_setting(folder: Path) -> None:
    """A whole log that brings a setting that is not JSON: damage found once it is read."""
    with contextlib.closing(sqlite3.connect(folder / "journal.sqlite")) as db, db:
        db.execute("UPDATE settings SET value = '{not json' WHERE key = 'contrast'")


# how the log is damaged: while the journal is open, or in the copy the power cut left
LOG_DAMAGE = {"torn log": (None, _torn), "bad row in the log": (_bad_setting, None)}


@pytest.mark.parametrize("name", list(LOG_DAMAGE))
def test_the_damaged_log_is_kept_aside(tmp_path, name):
    """recovery.py: "the damaged files (main file and write-ahead log) are kept under names
    that say so, never deleted": a copy of the log, byte for byte as the start found it."""
    while_open, in_the_copy = LOG_DAMAGE[name]
    live, folder = tmp_path / "live", tmp_path / "state"
    live.mkdir()
    folder.mkdir()
    with Journal(live / "journal.sqlite") as journal:
        journal.set_setting("contrast", 64)  # only in the log as yet
        if while_open:
            while_open(live)
        for suffix in ("", "-wal"):  # copied as a power cut leaves them
            shutil.copyfile(live / f"journal.sqlite{suffix}", folder / f"journal.sqlite{suffix}")
    if in_the_copy:
        in_the_copy(folder)
    log = (folder / "journal.sqlite-wal").read_bytes()
    journal, outcome = open_journal(folder / "journal.sqlite")
    journal.close()
    assert outcome.kind == "damaged", outcome
    logs = [path for path in outcome.kept if path.name.endswith(".sqlite-wal")]
    assert [path.name.startswith("journal.damaged-") for path in logs] == [True], outcome.kept
    assert logs[0].read_bytes() == log
