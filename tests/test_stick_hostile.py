"""Sticks made to hurt the box, on the daemon's side: plain folders stand for the mounted stick.

A stick is anyone's: its ``tableside`` may be a link to a folder of the box, a file or a
named pipe; its backups links to files elsewhere, pipes or endless devices where a file
belongs; its folder of backups 100,000 entries; it may be pulled (or its folders swapped)
while the box writes. Each case asserts what a family would want: nothing outside the stick
changed (a "canary" folder and file stand for the box's own), the panel says something
plain, the journal and the owner's files are as they were, and the stick is let go.

The moment a stick is pulled mid-write is made exact with an audit hook (``sys.addaudithook``):
Python announces every ``os.rename`` before it is made, and the hook pulls the stick there.
The same hook tells which thread looks at the folder of 100,000 entries: no timing asserted.
"""

import contextlib
import os
import shutil
import stat
import sys
import threading
from pathlib import Path

import pytest
from backup_helpers import state, teach
from screen_helpers import choose
from stick_helpers import FakeUnit, box_with_games, wait_for, watch

from firmware_app.transfer.box_backup import (
    CATALOGUE,
    JOURNAL,
    MANIFEST,
    SCAN,
    make_backup,
    stamp,
)
from firmware_app.transfer.stick_port import MOUNTED
from firmware_app.ui.screens import Notice

NOW = 1_800_000_000.0
NOT_A_FOLDER = "The stick's tableside is not a folder."
SHELF_NOT_A_FOLDER = "The stick's tableside/backup is not a folder."
DAMAGED = "The backup is damaged. Nothing was changed."
WRITTEN = "Done: 6 games written. You can pull the stick out."
CANNOT_WRITE = "Could not write to the USB stick. Is it full or read-only?"
PULLED = "The USB stick was pulled out before the box was done."

# ------------------------------------------------------------------ the audit hook

_LISTENERS: list = []


def _audit(event: str, args: tuple) -> None:
    for listener in list(_LISTENERS):
        listener(event, args)


sys.addaudithook(_audit)  # for the process: a hook cannot be removed, so it only dispatches


@contextlib.contextmanager
def listening(listener):
    """``listener(event, args)`` called for each audit event while inside, never for the
    events its own work raises."""
    busy = threading.local()

    def once(event, args):
        if not getattr(busy, "on", False):
            busy.on = True
            try:
                listener(event, args)
            finally:
                busy.on = False

    _LISTENERS.append(once)
    try:
        yield
    finally:
        _LISTENERS.remove(once)


# ------------------------------------------------------------------ the box and the stick


@pytest.fixture
def sim(tmp_path):
    folder = tmp_path / "state"
    folder.mkdir()
    teach(folder / CATALOGUE)
    sim = box_with_games(folder, folder / CATALOGUE)
    yield sim
    sim.close()


@pytest.fixture
def unit(sim, tmp_path):
    watch(sim, tmp_path / "run")
    unit = FakeUnit(tmp_path / "run")
    unit.port.mount.mkdir()
    return unit


@pytest.fixture
def canary(tmp_path):
    """A folder of the box's own, off the stick: what a link on the stick points at."""
    folder = tmp_path / "canary"
    folder.mkdir()
    (folder / "precious.txt").write_text("the family's photos\n")
    (folder / "results.csv").write_text("not the stick's\n")
    return folder


def fingerprint(folder: Path) -> dict:
    """Every entry under ``folder`` (and the folder itself): its kind, time and bytes."""
    found = {}
    for path in [folder, *sorted(folder.rglob("*"))]:
        info = os.lstat(path)
        data = path.read_bytes() if stat.S_ISREG(info.st_mode) else None
        found[path.relative_to(folder).as_posix()] = (info.st_mode, info.st_mtime_ns, data)
    return found


def let_go(sim, unit) -> None:
    """Close a notice, leave the stick's menu, and wait for the unmount."""
    if isinstance(sim.app.top, Notice):
        sim.press("ok")
    choose(sim, "Done")
    wait_for(sim, WRITTEN, unit)


def released(sim, unit) -> bool:
    """The stick unmounted and the watch free for the next one."""
    return not (unit.run / MOUNTED).exists() and sim.loop.stick.current is None


def a_backup(sim, unit) -> Path:
    """A sound backup of this box on the stick, made before it is plugged in."""
    return make_backup(sim.journal.path, sim.app.owner_catalogue, unit.port.folder / "backup", NOW)


def menu_labels(sim) -> list[str]:
    return [item.label for item in getattr(sim.app.top, "items", [])]


# ------------------------------------------------------------- where tableside belongs


def as_link(unit, canary):
    unit.port.folder.symlink_to(canary)


def as_link_to_a_file(unit, canary):
    unit.port.folder.symlink_to(canary / "precious.txt")


def as_dangling_link(unit, canary):
    unit.port.folder.symlink_to(canary / "made-by-the-box")


def as_file(unit, canary):
    unit.port.folder.write_text("a file where the folder goes")


def as_pipe(unit, canary):
    os.mkfifo(unit.port.folder)


def results_as_links(unit, canary):
    unit.port.folder.mkdir()
    (unit.port.folder / "results.csv").symlink_to(canary / "results.csv")
    (unit.port.folder / "statistics.json").symlink_to(canary / "precious.txt")
    (unit.port.folder / "game-00001.json").symlink_to(canary / "made-by-the-box")


def results_as_pipe(unit, canary):
    unit.port.folder.mkdir()
    os.mkfifo(unit.port.folder / "results.csv")


def plugged_until(sim, unit, canary, message: str) -> None:
    """The stick plugged in until the panel says ``message``: then it is released, and
    neither the box's state nor the canary outside the stick has changed."""
    before, found = state(sim.state_dir), fingerprint(canary)
    unit.plug()
    wait_for(sim, message, unit)
    assert released(sim, unit)
    assert fingerprint(canary) == found and state(sim.state_dir) == before


def test_links_and_pipes_where_results_go_are_replaced_never_followed(sim, unit, canary):
    for hostile in (results_as_links, results_as_pipe):
        shutil.rmtree(unit.port.mount)
        unit.port.mount.mkdir()
        hostile(unit, canary)
        plugged_until(sim, unit, canary, WRITTEN)
        for name in ("results.csv", "statistics.json", "game-00001.json"):
            written = unit.port.folder / name
            assert written.is_file() and not written.is_symlink()
        sim.press("ok")


def test_a_folder_where_a_result_goes_is_said_so(sim, unit, canary):
    (unit.port.folder / "results.csv").mkdir(parents=True)
    before = state(sim.state_dir)
    unit.plug()
    wait_for(sim, CANNOT_WRITE, unit)
    assert released(sim, unit) and state(sim.state_dir) == before


# ------------------------------------------------------------- the folder of backups


def shelf_as_link(unit, canary):
    (canary / "20200101-000000").mkdir()
    (canary / "20200101-000000" / MANIFEST).write_text("{}")
    unit.port.folder.mkdir()
    (unit.port.folder / "backup").symlink_to(canary)


def shelf_as_file(unit, canary):
    unit.port.folder.mkdir()
    (unit.port.folder / "backup").write_text("")


@pytest.mark.parametrize(
    "hostile, message",
    [
        (way, NOT_A_FOLDER)
        for way in (as_link, as_link_to_a_file, as_dangling_link, as_file, as_pipe)
    ]
    + [(way, SHELF_NOT_A_FOLDER) for way in (shelf_as_link, shelf_as_file)],
)
def test_a_folder_of_the_box_that_is_not_a_folder_is_refused_by_name(
    sim, unit, canary, hostile, message
):
    hostile(unit, canary)
    plugged_until(sim, unit, canary, message)
    assert os.path.lexists(unit.port.folder)  # left as found


def backup_as_link(sim, unit, canary):
    made = a_backup(sim, unit)
    shutil.move(made, canary / made.name)
    made.symlink_to(canary / made.name)


def manifest_as_link(sim, unit, canary):
    made = a_backup(sim, unit)
    os.replace(made / MANIFEST, canary / MANIFEST)
    (made / MANIFEST).symlink_to(canary / MANIFEST)


def manifest_as_pipe(sim, unit, canary):
    made = a_backup(sim, unit)
    (made / MANIFEST).unlink()
    os.mkfifo(made / MANIFEST)


def manifest_as_folder(sim, unit, canary):
    made = a_backup(sim, unit)
    (made / MANIFEST).unlink()
    (made / MANIFEST).mkdir()


@pytest.mark.parametrize(
    "hostile", [backup_as_link, manifest_as_link, manifest_as_pipe, manifest_as_folder]
)
def test_a_backup_that_is_not_a_folder_with_a_plain_manifest_is_not_offered(
    sim, unit, canary, hostile
):
    hostile(sim, unit, canary)
    before, found = state(sim.state_dir), fingerprint(canary)
    unit.plug()
    wait_for(sim, "Back up this box")
    assert menu_labels(sim) == ["Write results", "Back up this box", "Done"]
    let_go(sim, unit)
    assert released(sim, unit)
    assert fingerprint(canary) == found and state(sim.state_dir) == before


def journal_as_link(made, canary):
    """The very bytes the manifest lists, behind a link: refused all the same."""
    os.replace(made / JOURNAL, canary / JOURNAL)
    (made / JOURNAL).symlink_to(canary / JOURNAL)


def catalogue_as_link(made, canary):
    os.replace(made / CATALOGUE, canary / CATALOGUE)
    (made / CATALOGUE).symlink_to(canary / CATALOGUE)


def journal_as_pipe(made, canary):
    (made / JOURNAL).unlink()
    os.mkfifo(made / JOURNAL)


def journal_as_endless_device(made, canary):
    (made / JOURNAL).unlink()
    (made / JOURNAL).symlink_to("/dev/zero")


def journal_as_sparse_gigabyte(made, canary):
    """Larger than the manifest says: never read into memory."""
    with (made / JOURNAL).open("r+b") as file:
        file.truncate(1 << 30)


def manifest_as_gigabyte(made, canary):
    with (made / MANIFEST).open("r+b") as file:
        file.truncate(1 << 30)


def journal_as_folder(made, canary):
    (made / JOURNAL).unlink()
    (made / JOURNAL).mkdir()


def manifest_as_pipe_after_the_menu(made, canary):
    """A finished backup when the stick was looked at, a pipe when it is read."""
    (made / MANIFEST).unlink()
    os.mkfifo(made / MANIFEST)


FILES = [
    journal_as_link, catalogue_as_link, journal_as_pipe, journal_as_endless_device,
    journal_as_sparse_gigabyte, manifest_as_gigabyte, journal_as_folder,
    manifest_as_pipe_after_the_menu,
]  # fmt: skip


@pytest.mark.parametrize("hostile", FILES)
def test_a_backup_whose_files_are_not_plain_files_is_refused(sim, unit, canary, hostile):
    made = a_backup(sim, unit)
    if hostile is not manifest_as_pipe_after_the_menu:
        hostile(made, canary)
    sim.app.set_setting("contrast", 9)  # the box moved on since the backup
    before, found = state(sim.state_dir), fingerprint(canary)
    unit.plug()
    wait_for(sim, "Restore from this stick")
    if hostile is manifest_as_pipe_after_the_menu:
        hostile(made, canary)
    choose(sim, "Restore from this stick")
    wait_for(sim, DAMAGED)
    assert sim.app.setting("contrast") == 9
    assert not list(sim.state_dir.glob("replaced-by-restore-*"))
    let_go(sim, unit)
    assert released(sim, unit)
    assert fingerprint(canary) == found and state(sim.state_dir) == before


def test_a_new_backups_name_taken_by_a_link_is_never_written_through(sim, unit, canary):
    shelf = unit.port.folder / "backup"
    shelf.mkdir(parents=True)
    for second in range(600):  # the names the next backup may take, on the panel's clock
        (shelf / stamp(sim.app.clock() + second)).symlink_to(canary)
    before, found = state(sim.state_dir), fingerprint(canary)
    unit.plug()
    wait_for(sim, "Back up this box")
    choose(sim, "Back up this box")
    wait_for(sim, "Backed up.")
    [made] = [path for path in shelf.iterdir() if not path.is_symlink()]
    assert made.name.endswith("-2") and (made / MANIFEST).is_file()
    let_go(sim, unit)
    assert fingerprint(canary) == found and state(sim.state_dir) == before


# ------------------------------------------------------------- 100,000 entries


@pytest.fixture
def crowded(tmp_path):
    """A folder of 100,000 empty folders, each named as a backup, none finished; in memory
    where the machine has a memory file system (tests/conftest.py: made and removed there in
    about a second, where a disk may take half a minute), removed with the test's folder."""
    shelf = tmp_path / "crowded" / "run" / "stick" / "tableside" / "backup"
    shelf.mkdir(parents=True)
    handle = os.open(shelf, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for number in range(100_000):
            os.mkdir(stamp(NOW - number), dir_fd=handle)
    finally:
        os.close(handle)
    return tmp_path / "crowded"


def test_a_folder_of_100000_entries_is_looked_at_off_the_loop_and_only_in_part(
    sim, crowded, canary, caplog
):
    watch(sim, crowded / "run")
    unit = FakeUnit(crowded / "run")
    before, found = state(sim.state_dir), fingerprint(canary)
    main = threading.main_thread()
    seen: list[tuple[str, bool, object]] = []

    def note(event, args):
        if event in ("os.scandir", "os.listdir", "open", "os.stat"):
            seen.append((event, threading.current_thread() is main, args[0]))

    with listening(note):
        unit.plug()
        wait_for(sim, "Back up this box")
        assert menu_labels(sim) == ["Write results", "Back up this box", "Done"]
        let_go(sim, unit)
    scans = [(on_main, path) for event, on_main, path in seen if event == "os.scandir"]
    assert scans and not any(on_main for on_main, _ in scans)  # in the stick's thread only

    def on_the_stick(path) -> bool:
        """A handle or a name in a folder (only the stick's thread has those), or a path
        on the stick."""
        if isinstance(path, int):
            return True
        path = Path(os.fsdecode(path))
        return not path.is_absolute() or path.is_relative_to(unit.port.mount)

    on_loop = [(event, path) for event, on_main, path in seen if on_main and on_the_stick(path)]
    assert any(on_main for _, on_main, _ in seen)  # the loop was heard: it served the unit
    assert on_loop == []  # ... and never opened nor listed anything on the stick
    assert f"holds more than {SCAN} names: only the first {SCAN} looked at" in caplog.text
    assert released(sim, unit)
    assert fingerprint(canary) == found and state(sim.state_dir) == before


# ------------------------------------------------------------- pulled while writing


def at_rename(number: int, then, mount: Path):
    """An audit listener that runs ``then()`` just before the ``number``-th rename in a
    folder on the stick mounted on ``mount`` (the moment a file written there takes its
    name). Renames of the box's own files, in any thread, are not counted."""
    count = {"renames": 0}

    def listener(event, args):
        if event == "os.rename" and in_a_folder_on(mount, args[3]):
            count["renames"] += 1
            if count["renames"] == number:
                then()

    return listener


def in_a_folder_on(mount: Path, handle) -> bool:
    """Whether the folder ``handle`` is open on (its link in /proc names it) is on the
    stick: the stick's files are renamed through a handle on their folder."""
    if not isinstance(handle, int) or handle < 0:
        return False
    try:
        return Path(os.readlink(f"/proc/self/fd/{handle}")).is_relative_to(mount)
    except OSError:
        return False


def test_a_tableside_swapped_for_a_link_mid_write_keeps_the_writes_off_the_link(sim, unit, canary):
    folder = unit.port.folder

    def swap():
        folder.rename(folder.with_name("moved"))
        folder.symlink_to(canary)

    before, found = state(sim.state_dir), fingerprint(canary)
    with listening(at_rename(3, swap, unit.port.mount)):
        unit.plug()
        wait_for(sim, WRITTEN, unit)
    assert released(sim, unit)
    assert fingerprint(canary) == found and state(sim.state_dir) == before
    assert (folder.with_name("moved") / "results.csv").is_file()  # where the box had opened


def test_a_stick_pulled_mid_write_is_said_so_and_loses_nothing(sim, unit, canary):
    folder = unit.port.folder
    writer = []

    def pull():
        writer.append(threading.current_thread())  # the stick's thread, still writing
        shutil.rmtree(folder)
        folder.symlink_to(canary)
        unit.pull()

    before, found = state(sim.state_dir), fingerprint(canary)
    with listening(at_rename(3, pull, unit.port.mount)):
        unit.plug()
        wait_for(sim, PULLED)
    writer[0].join(timeout=30)  # nothing it still writes escapes the asserts
    assert not writer[0].is_alive()
    assert sim.loop.stick.current is None  # free for the next stick
    assert fingerprint(canary) == found and state(sim.state_dir) == before
    unit.port.folder.unlink()
    unit.plug()  # the next stick is served as any other
    wait_for(sim, WRITTEN, unit)


def test_a_stick_pulled_just_as_its_writing_fails_is_said_pulled(sim, unit):
    """The loop looks for the stick, finds it, and before it reads whether the writing ended
    the stick is pulled and the writing fails for it: the panel says the stick was pulled,
    not that it could not be written."""
    held, go = [], threading.Event()
    port = sim.loop.stick.port
    look = port.marker

    def hold():
        held.append(threading.current_thread())
        go.wait(30)

    def marker():
        found = look()
        if held and not go.is_set():  # the stick's thread waits at its third rename
            shutil.rmtree(unit.port.folder)
            unit.pull()
            go.set()
            held[0].join(30)  # its rename failed: the writing ended, for the pulled stick
        return found

    port.marker = marker
    with listening(at_rename(3, hold, unit.port.mount)):
        unit.plug()
        wait_for(sim, PULLED)
    assert go.is_set() and not held[0].is_alive()


def test_a_tableside_removed_mid_write_is_said_so(sim, unit, canary):
    folder = unit.port.folder
    before = state(sim.state_dir)
    with listening(at_rename(3, lambda: shutil.rmtree(folder), unit.port.mount)):
        unit.plug()
        wait_for(sim, CANNOT_WRITE, unit)
    assert released(sim, unit) and state(sim.state_dir) == before


def test_a_backup_folder_swapped_mid_backup_keeps_the_backup_off_the_link(sim, unit, canary):
    shelf = unit.port.folder / "backup"
    shelf.mkdir(parents=True)
    unit.plug()
    wait_for(sim, "Back up this box")

    def swap():
        shelf.rename(shelf.with_name("moved"))
        shelf.symlink_to(canary)

    before, found = state(sim.state_dir), fingerprint(canary)
    with listening(at_rename(2, swap, unit.port.mount)):
        choose(sim, "Back up this box")
        wait_for(sim, "Backed up.")
    let_go(sim, unit)
    assert fingerprint(canary) == found and state(sim.state_dir) == before
    [made] = shelf.with_name("moved").iterdir()
    assert (made / MANIFEST).is_file()  # whole, where the box had opened
