"""A restore plan this box did not write is refused at the start, and nothing moves.

``restore-under-way.json`` is read at every start from the state folder, which the
daemon's user (or a copy) can write. Each hostile plan here names files outside the
state folder, the journal or the archive as staged files, a device, or is a pipe, a huge
file or a plan without its keys: the start must return within seconds (a hang fails the
test, it never blocks the suite), leave every file outside the state folder, the journal
and the archive as they were, and set the marker aside. A genuine restore cut short is
still finished or undone.
"""

import hashlib
import json
import os
import signal
import time
from pathlib import Path

import pytest

from firmware_app.store import swap
from firmware_app.store.swap import finish_restore, replace_as_one

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

SECONDS = 5.0
OLD_JOURNAL, OLD_WAL, ARCHIVE = b"old journal\n", b"old log\n", b"archive\n"
OLD_CATALOGUE, VICTIM, OTHER = b"# old catalogue\n", b"not the box's\n", b"hostile bytes\n"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def box(tmp_path):
    """A state folder, the owner's catalogue beside it, and a folder that is not the box's."""
    state, owner, outside = tmp_path / "state", tmp_path / "owner", tmp_path / "outside"
    for folder in (state, state / "backups", owner, outside):
        folder.mkdir()
    (state / "journal.sqlite").write_bytes(OLD_JOURNAL)
    (state / "journal.sqlite-wal").write_bytes(OLD_WAL)
    (state / "backups" / "archive.sqlite").write_bytes(ARCHIVE)
    (owner / "catalogue.toml").write_bytes(OLD_CATALOGUE)
    (outside / "victim.txt").write_bytes(VICTIM)
    (outside / "other.txt").write_bytes(OTHER)
    (outside / "victim.txt-wal").write_bytes(VICTIM)
    (outside / f"{swap.ASIDE}x").mkdir()
    (outside / f"{swap.ASIDE}x" / "kept").write_bytes(VICTIM)
    return state, owner / "catalogue.toml", outside


def _everything(folder: Path) -> dict[str, bytes | str]:
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        found[name] = "folder" if path.is_dir() else path.read_bytes()
    return found


def _start(journal: Path, owner: Path | None) -> float:
    """``finish_restore`` in a forked child; fails the test if it hangs or raises."""
    began = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            finish_restore(journal, owner)
            code = 0
        finally:
            os._exit(code)
    while time.monotonic() - began < SECONDS:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "it raised"
            return time.monotonic() - began
        time.sleep(0.02)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    pytest.fail(f"the start still waited after {SECONDS} s")


def _entry(path, staged, sha, kept) -> dict:
    return {"path": str(path), "staged": str(staged), "sha256": sha, "kept": str(kept)}


def _genuine_entry(path: Path, sha: str | None, aside: Path) -> dict:
    return _entry(path, f"{path}.restoring", sha, aside / path.name)


def _write(marker: Path, plan: dict) -> None:
    marker.write_text(json.dumps(plan))


# Each builds the hostile marker in the state folder (and what it names).
def outside_delete(state, owner, outside):
    aside = outside / f"{swap.ASIDE}x"
    victim = outside / "victim.txt"
    plan = {"aside": str(aside), "swap": False, "files": [_entry(victim, victim, None, "k")]}
    _write(state / swap.MARKER, plan)


def outside_overwrite(state, owner, outside):
    victim, other = outside / "victim.txt", outside / "other.txt"
    entry = _entry(victim, other, _sha(OTHER), outside / "kept")
    plan = {"aside": str(state / f"{swap.ASIDE}1"), "swap": True, "files": [entry]}
    _write(state / swap.MARKER, plan)


def outside_overwrite_second(state, owner, outside):
    """The journal first as this box writes it, then a file outside with a matching sha."""
    aside = state / f"{swap.ASIDE}1"
    victim, other = outside / "victim.txt", outside / "other.txt"
    files = [
        _genuine_entry(state / "journal.sqlite", _sha(OLD_JOURNAL), aside),
        _entry(victim, other, _sha(OTHER), aside / "victim.txt"),
    ]
    _write(state / swap.MARKER, {"aside": str(aside), "swap": True, "files": files})


def journal_as_staged(state, owner, outside):
    journal = state / "journal.sqlite"
    staged = [journal, state / "journal.sqlite-wal", state / "backups" / "archive.sqlite"]
    files = [_entry(journal, name, None, "k") for name in staged]
    _write(state / swap.MARKER, {"aside": str(state / "nothing"), "swap": False, "files": files})


def dev_zero(state, owner, outside):
    aside = state / f"{swap.ASIDE}1"
    files = [_entry("/dev/zero", "/dev/zero.restoring", "0" * 64, aside / "zero")]
    _write(state / swap.MARKER, {"aside": str(aside), "swap": True, "files": files})


def marker_fifo(state, owner, outside):
    os.mkfifo(state / swap.MARKER)


def marker_folder(state, owner, outside):
    (state / swap.MARKER).mkdir()


def marker_link(state, owner, outside):
    (state / swap.MARKER).symlink_to(outside / "victim.txt")


def marker_huge(state, owner, outside):
    with open(state / swap.MARKER, "wb") as file:
        file.truncate(10 * 1024 * 1024)


def marker_deep(state, owner, outside):
    (state / swap.MARKER).write_text("[" * 60_000)


def missing_keys(state, owner, outside):
    aside = state / f"{swap.ASIDE}1"
    entry = _genuine_entry(state / "journal.sqlite", _sha(OTHER), aside)
    del entry["staged"]
    _write(state / swap.MARKER, {"aside": str(aside), "swap": True, "files": [entry]})


def aside_outside(state, owner, outside):
    aside = outside / f"{swap.ASIDE}x"
    files = [_genuine_entry(state / "journal.sqlite", _sha(OTHER), aside)]
    _write(state / swap.MARKER, {"aside": str(aside), "swap": False, "files": files})


def aside_link(state, owner, outside):
    aside = state / f"{swap.ASIDE}x"
    aside.symlink_to(outside / f"{swap.ASIDE}x")
    files = [_genuine_entry(state / "journal.sqlite", _sha(OTHER), aside)]
    _write(state / swap.MARKER, {"aside": str(aside), "swap": False, "files": files})


def aside_dotdot(state, owner, outside):
    aside = state / ".." / "outside" / f"{swap.ASIDE}x"
    files = [_genuine_entry(state / "journal.sqlite", _sha(OTHER), aside)]
    _write(state / swap.MARKER, {"aside": str(aside), "swap": False, "files": files})


def removes_journal(state, owner, outside):
    aside = state / f"{swap.ASIDE}1"
    files = [_genuine_entry(state / "journal.sqlite", None, aside)]
    _write(state / swap.MARKER, {"aside": str(aside), "swap": True, "files": files})


REFUSED = [
    outside_delete,
    outside_overwrite,
    outside_overwrite_second,
    journal_as_staged,
    dev_zero,
    marker_fifo,
    marker_folder,
    marker_link,
    marker_huge,
    marker_deep,
    missing_keys,
    aside_outside,
    aside_link,
    aside_dotdot,
    removes_journal,
]


def _untouched(state: Path, owner: Path, outside: Path, before: dict) -> None:
    assert _everything(outside) == before
    assert (state / "journal.sqlite").read_bytes() == OLD_JOURNAL
    assert (state / "journal.sqlite-wal").read_bytes() == OLD_WAL
    assert (state / "backups" / "archive.sqlite").read_bytes() == ARCHIVE
    assert owner.read_bytes() == OLD_CATALOGUE


@pytest.mark.parametrize("hostile", REFUSED, ids=lambda f: f.__name__)
def test_a_hostile_plan_is_refused_and_nothing_moves(box, hostile):
    state, owner, outside = box
    hostile(state, owner, outside)
    before = _everything(outside)
    _start(state / "journal.sqlite", owner)
    _untouched(state, owner, outside, before)
    assert not os.path.lexists(state / swap.MARKER)
    assert len(list(state.glob("restore-under-way.refused-*.json"))) == 1
    _start(state / "journal.sqlite", owner)  # the next start: nothing left to refuse
    _untouched(state, owner, outside, before)


def test_a_plan_naming_the_catalogue_is_refused_without_it(box):
    state, owner, outside = box
    aside = state / f"{swap.ASIDE}1"
    files = [
        _genuine_entry(state / "journal.sqlite", _sha(OTHER), aside),
        _genuine_entry(owner, _sha(OTHER), aside),
    ]
    _write(state / swap.MARKER, {"aside": str(aside), "swap": True, "files": files})
    before = _everything(outside)
    _start(state / "journal.sqlite", None)
    _untouched(state, owner, outside, before)
    assert len(list(state.glob("restore-under-way.refused-*.json"))) == 1


def _plan_of_the_box(state: Path, owner: Path, sha: str, swap_begun: bool) -> Path:
    aside = state / f"{swap.ASIDE}1"
    aside.mkdir()
    (aside / "journal.sqlite").write_bytes(OLD_JOURNAL)
    (aside / "catalogue.toml").write_bytes(OLD_CATALOGUE)
    files = [
        _genuine_entry(state / "journal.sqlite", sha, aside),
        _genuine_entry(owner, _sha(OTHER), aside),
    ]
    _write(state / swap.MARKER, {"aside": str(aside), "swap": swap_begun, "files": files})
    return aside


@pytest.mark.parametrize("which", ["staged", "kept"])
def test_a_pipe_in_a_plan_of_the_right_shape_never_waits(box, which):
    """Staged or kept files that are pipes are not whole: the restore is undone."""
    state, owner, outside = box
    # kept: the journal's new state "in place" (its sha), so its kept copy is read back
    sha = _sha(OLD_JOURNAL) if which == "kept" else _sha(OTHER)
    aside = _plan_of_the_box(state, owner, sha, True)
    if which == "staged":
        os.mkfifo(str(owner) + ".restoring")
        os.mkfifo(state / "journal.sqlite.restoring")
    else:
        (aside / "journal.sqlite").unlink()
        os.mkfifo(aside / "journal.sqlite")
    before = _everything(outside)
    _start(state / "journal.sqlite", owner)
    _untouched(state, owner, outside, before)
    assert not os.path.lexists(state / swap.MARKER)
    assert not os.path.lexists(state / "journal.sqlite.restoring")
    assert not os.path.lexists(str(owner) + ".restoring")


def test_a_plan_without_a_whole_journal_copy_keeps_the_journal(box):
    """A plan whose journal checksum matches the journal, without its kept copy: kept."""
    state, owner, outside = box
    aside = _plan_of_the_box(state, owner, _sha(OLD_JOURNAL), True)
    (aside / "journal.sqlite").unlink()
    _start(state / "journal.sqlite", owner)
    assert (state / "journal.sqlite").read_bytes() == OLD_JOURNAL


class _Cut(Exception):
    pass


class _CutBeforeSwap:
    """A daemon's journal whose close is where the cut comes: the marker says swap."""

    def close(self):
        raise _Cut

    def reopen(self):
        raise AssertionError("never reached")


def _new_state(state: Path, owner: Path) -> list:
    aside = state / f"{swap.ASIDE}1"
    aside.mkdir()
    return [
        (state / "journal.sqlite", b"new journal\n", aside / "journal.sqlite"),
        (owner, b"# new catalogue\n", aside / "catalogue.toml"),
    ]


def _keep(state: Path, owner: Path):
    def keep() -> None:
        aside = state / f"{swap.ASIDE}1"
        (aside / "journal.sqlite").write_bytes((state / "journal.sqlite").read_bytes())
        (aside / "catalogue.toml").write_bytes(owner.read_bytes())

    return keep


def test_a_genuine_restore_cut_at_its_swap_is_finished(box):
    state, owner, outside = box
    journal = state / "journal.sqlite"
    new = _new_state(state, owner)
    with pytest.raises(_Cut):
        replace_as_one(
            journal, state / f"{swap.ASIDE}1", new, _keep(state, owner), _CutBeforeSwap()
        )
    assert json.loads((state / swap.MARKER).read_text())["swap"] is True
    before = _everything(outside)
    _start(journal, owner)
    assert journal.read_bytes() == b"new journal\n"
    assert owner.read_bytes() == b"# new catalogue\n"
    assert not (state / "journal.sqlite-wal").exists()  # the old log never meets the new file
    assert not os.path.lexists(state / swap.MARKER)
    assert not list(state.glob("restore-under-way.refused-*"))
    assert not list(state.rglob("*.restoring")) and not list(owner.parent.glob("*.restoring"))
    assert (state / f"{swap.ASIDE}1" / "journal.sqlite").read_bytes() == OLD_JOURNAL
    assert _everything(outside) == before


def test_a_genuine_restore_cut_before_its_swap_is_undone(box):
    state, owner, outside = box
    journal = state / "journal.sqlite"
    new = _new_state(state, owner)

    def keep() -> None:
        _keep(state, owner)()
        raise _Cut

    with pytest.raises(_Cut):
        replace_as_one(journal, state / f"{swap.ASIDE}1", new, keep)
    _start(journal, owner)
    assert journal.read_bytes() == OLD_JOURNAL
    assert (state / "journal.sqlite-wal").read_bytes() == OLD_WAL
    assert owner.read_bytes() == OLD_CATALOGUE
    assert not os.path.lexists(state / swap.MARKER)
    assert not (state / f"{swap.ASIDE}1").exists()
    assert not list(state.glob("restore-under-way.refused-*"))


def test_a_genuine_restore_with_a_relative_journal_name_is_trusted(box, monkeypatch):
    state, owner, outside = box
    monkeypatch.chdir(state.parent)
    journal = Path("state") / ".." / "state" / "journal.sqlite"
    new = _new_state(state, owner)
    with pytest.raises(_Cut):
        replace_as_one(
            journal, state / f"{swap.ASIDE}1", new, _keep(state, owner), _CutBeforeSwap()
        )
    _start(Path("state/journal.sqlite"), owner)
    assert (state / "journal.sqlite").read_bytes() == b"new journal\n"
    assert owner.read_bytes() == b"# new catalogue\n"
    assert not list(state.glob("restore-under-way.refused-*"))
