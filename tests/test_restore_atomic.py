"""A restore killed at any moment leaves the old state or the new one, each whole.

A restore replaces the journal and the owner's catalogue. A child process restores a
backup into a copy of a played state folder and is killed with SIGKILL after a random
delay, from before its first write to after its last; then the next start
(``recovery.open_journal``, which first finishes or undoes a restore cut short) must
find the journal and the catalogue both old or both new, the journal sound, and no
staged or temporary file left.
"""

import os
import random
import shutil
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
from played_helpers import cut_in_play, spin_until

from firmware_app.store.recovery import close_journal, open_journal
from firmware_app.transfer.box_backup import check_backup, make_backup, restore

KILLS = 60
NOW = 1_800_000_000.0
JOURNAL, CATALOGUE = "journal.sqlite", "catalogue.toml"
PLAN = "restore-under-way.json"  # written before the swap, removed once it is done


def _played(folder: Path, seed: int, actions: int, catalogue: str) -> list[str]:
    """A state folder as a power cut leaves it in play; the actions of its game."""
    played = cut_in_play(folder, seed, actions)
    (folder / CATALOGUE).write_text(catalogue)
    return played


@pytest.fixture(scope="module")
def states(tmp_path_factory):
    root = tmp_path_factory.mktemp("restore")
    old = _played(root / "old", 3, 20, "# the old catalogue\n")
    new = _played(root / "new", 4, 30, "# the new catalogue\n")
    made = make_backup(root / "new" / JOURNAL, root / "new" / CATALOGUE, root / "stick", NOW)
    backup = check_backup(made, root)
    return (
        root,
        backup,
        {"old": (old, "# the old catalogue\n"), "new": (new, "# the new catalogue\n")},
    )


def _restore_in_child(backup, folder: Path) -> int:
    pid = os.fork()
    if pid == 0:  # the child: restore, then leave without running the parent's cleanup
        code = 1
        try:
            restore(backup, folder / JOURNAL, folder / CATALOGUE, NOW)
            code = 0
        finally:
            os._exit(code)
    return pid


def _state(folder: Path) -> tuple[list[str], str, str]:
    """What the next start finds: the game's actions, the catalogue, the journal's state."""
    journal, outcome = open_journal(folder / JOURNAL, folder / CATALOGUE)
    try:
        actions = journal.record(journal.unfinished())["actions"]
    finally:
        close_journal(journal)
    return actions, (folder / CATALOGUE).read_text(), outcome.kind


def _leftovers(folder: Path) -> list[str]:
    found = []
    for path in folder.rglob("*"):
        name = path.name
        if name.endswith((".restoring", ".tmp")) or name.startswith(".restore-"):
            found.append(str(path.relative_to(folder)))
        if name == PLAN:
            found.append(name)
    return found


def test_a_restore_killed_at_any_moment_leaves_one_whole_state(states, tmp_path):
    """KILLS kills after random delays, then, until one has cut a restore mid-way (its plan
    written, the swap not finished: a window of a few milliseconds that a busy machine's
    random delays can miss), more, each as soon as the plan shows."""
    root, backup, expected = states
    took = []  # a few restores to the end, for the spread of the kills
    for run in range(3):
        timing = tmp_path / f"timing-{run}"
        shutil.copytree(root / "old", timing)
        started = time.monotonic()
        pid = _restore_in_child(backup, timing)
        assert os.waitpid(pid, 0)[1] == 0
        took.append(time.monotonic() - started)
        assert _state(timing)[:2] == expected["new"]
    took = sorted(took)[1]

    rng = random.Random(12)
    found: Counter = Counter()
    for kill in range(KILLS + 100):
        if kill >= KILLS and found["old", "cut mid-way"] + found["new", "cut mid-way"]:
            break
        folder = tmp_path / f"kill-{kill}"
        shutil.copytree(root / "old", folder)
        pid = _restore_in_child(backup, folder)
        if kill < KILLS:
            time.sleep(rng.uniform(0, took))
        else:
            spin_until((folder / PLAN).exists, seconds=5)
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        killed = os.WIFSIGNALED(status)
        cut = "cut mid-way" if (folder / PLAN).exists() else "killed"
        actions, catalogue, kind = _state(folder)
        which = next((k for k, v in expected.items() if (actions, catalogue) == v), "mixed")
        assert which != "mixed", (kill, len(actions), catalogue)
        assert kind == "sound", (kill, kind)
        assert _leftovers(folder) == [], kill
        found[which, cut if killed else "had finished"] += 1
        shutil.rmtree(folder)
    # kills before, within and after the restore
    assert found["old", "killed"] + found["old", "cut mid-way"], found
    assert found["old", "cut mid-way"] + found["new", "cut mid-way"], found
    assert found["new", "cut mid-way"] + found["new", "had finished"], found


def test_the_checks_scratch_copy_left_by_a_cut_restore_is_swept_at_the_next_start(tmp_path):
    """A restore killed while it checks the backup leaves its scratch journal (and SQLite's
    files beside it) in the state folder: named so that the next start's sweep removes it,
    while a file of the box's own stays. Run here, in the test's process, as well as in the
    killed children above."""
    from firmware_app.store.swap import _sweep
    from firmware_app.transfer.box_backup import _scratch

    scratch = _scratch(tmp_path)
    for beside in ("-wal", "-shm"):
        Path(f"{scratch}{beside}").write_bytes(b"left over")
    (tmp_path / JOURNAL).write_bytes(b"the box's own")
    _sweep(tmp_path, [])
    assert sorted(p.name for p in tmp_path.iterdir()) == [JOURNAL]
