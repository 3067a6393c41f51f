"""Hostile sticks, and a hostile daemon, against the real root script on an ext4 image.

Each case writes a stick onto one image (formatted once for the module), runs
systemd/tableside-stick as its unit runs it (root, the stand-in user's group, CAP_SYS_ADMIN
alone), lets the stand-in daemon do its part as that user, and asks for the unmount as the
daemon does (StickPort). Every case asserts that the canary files and folders outside the
stick keep their owner, mode and content; that the stick was mounted on root's mount point
and nowhere else, and nowhere once the script ended; that nothing on the stick changed owner
or mode; and that the next good stick mounts and is writable by the daemon.

Needs root, loop devices, mkfs.ext4 and setpriv; skipped, saying why, elsewhere.
"""

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from stick_helpers import (
    FILTER,
    Exchange,
    attach,
    can_filter,
    mounts_of,
    need_root,
    run,
    unit_system_calls,
)

from firmware_app.transfer.stick_port import MOUNTED, RELEASE, RELEASED

SIZE = 8 * 1024 * 1024
STRANGER = 4321  # a uid and gid of nobody on the box: someone else's stick
PWNED = "PWNED"  # the file a shell would make if it ran a name


@pytest.fixture(scope="module")
def box():
    """One ext4 image on a loop device, a prep mount point and canaries outside the stick."""
    need_root("mkfs.ext4", "findmnt")
    base = Path(tempfile.mkdtemp(prefix="tableside-stick-", dir="/tmp"))  # not the run's own:
    base.chmod(0o755)  # the stand-in daemon must reach the mount point below it
    image = base / "stick.img"
    with image.open("wb") as file:
        file.truncate(SIZE)
    made = run("mkfs.ext4", "-q", "-F", str(image))
    if made.returncode:
        pytest.skip(f"mkfs.ext4 failed: {made.stderr.strip()}")
    loop = attach(image)
    canary = base / "canary"
    (canary / "inner").mkdir(parents=True)
    (canary / "secret").write_text("root's own\n")
    (canary / "inner" / "file").write_text("deeper\n")
    os.mkfifo(canary / "fifo")
    for path, mode in ((canary, 0o700), (canary / "secret", 0o600), (canary / "fifo", 0o600)):
        path.chmod(mode)
    prep = base / "prep"
    prep.mkdir()
    try:
        yield SimpleNamespace(base=base, loop=loop, canary=canary, prep=prep)
    finally:
        for target in mounts_of(loop):
            run("umount", "--lazy", target)
        run("losetup", "--detach", loop)
        shutil.rmtree(base)


@pytest.fixture
def exchange(box):
    """A fresh run folder for one case, root's with the stand-in daemon's group."""
    folder = Path(tempfile.mkdtemp(dir=box.base))
    folder.chmod(0o755)
    return Exchange(folder)


def write_stick(box, build=None) -> dict:
    """The image's content made anew: an empty top folder of root's, then ``build(top)``.

    Returns :func:`looks` of what was written.
    """
    assert run("mount", box.loop, str(box.prep)).returncode == 0
    try:
        for entry in box.prep.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        os.chown(box.prep, 0, 0)
        box.prep.chmod(0o755)
        if build is not None:
            build(box.prep, box.canary)
        return looks(box.prep)
    finally:
        assert run("umount", str(box.prep)).returncode == 0


@contextlib.contextmanager
def stick_read(box):
    """The image mounted read-only on the prep point, to look at what the script left."""
    assert run("mount", "-o", "ro,nosymfollow", box.loop, str(box.prep)).returncode == 0
    try:
        yield box.prep
    finally:
        run("umount", str(box.prep))


def looks(top: Path) -> dict:
    """Owner, mode and, for a link, target of everything on the stick (links not followed)."""
    found = {}
    for folder, names, files in os.walk(top):
        for name in names + files:
            path = Path(folder, name)
            info = path.lstat()
            link = os.readlink(path) if stat.S_ISLNK(info.st_mode) else None
            found[str(path.relative_to(top))] = (info.st_uid, info.st_gid, info.st_mode, link)
    return found


def canaries(box) -> dict:
    """Owner, mode and content of every canary, and of the folders that lead to them."""
    found = {}
    for path in [box.base, *box.canary.rglob("*"), box.canary]:
        info = path.lstat()
        content = path.read_bytes() if stat.S_ISREG(info.st_mode) else None
        found[str(path)] = (info.st_uid, info.st_gid, info.st_mode, content)
    return found


def daemon_writes(box, exchange) -> None:
    """The daemon's turn as the stand-in user: a file in tableside/ (if it may)."""
    exchange.as_user("touch", str(exchange.port.folder / "probe"))


def play(box, exchange, build=None, turn=daemon_writes):
    """One stick, start to end: the script's exit code, answer and log, and the stick after.

    ``turn(box, exchange)`` is the daemon's part while the stick is mounted.
    """
    before = write_stick(box, build)
    kept = canaries(box)
    where, code, answer = [], None, None
    try:
        with running(exchange, box.loop) as script:
            if exchange.mounted(script):
                where = mounts_of(box.loop)
                turn(box, exchange)
                where += mounts_of(box.loop)
                code, answer, log = exchange.release(script)
            else:
                log = ended(script)
    finally:
        assert canaries(box) == kept  # first, whatever else went wrong
    assert where == [str(exchange.port.mount)] * 2, log
    assert mounts_of(box.loop) == []
    assert sorted(path.name for path in exchange.run.iterdir()) == ["lock", "stick", RELEASED]
    assert list(box.base.rglob(PWNED)) == [] and not Path(PWNED).exists()
    with stick_read(box) as top:
        after = looks(top)
    return SimpleNamespace(code=code, answer=answer, log=log, before=before, after=after)


@contextlib.contextmanager
def running(exchange, loop, **options) -> Iterator[subprocess.Popen]:
    """The script started on ``loop``; killed on the way out if it has not ended by then."""
    script = exchange.start(loop, **options)
    try:
        yield script
    finally:
        if script.poll() is None:
            script.kill()
            script.wait(timeout=10)


def ended(script: subprocess.Popen) -> str:
    """The script's log, once it has ended by itself (ten seconds at most)."""
    return script.communicate(timeout=10)[1]


def next_good_stick_mounts(box, exchange) -> None:
    """An empty stick after whatever came before: mounted, a folder the daemon writes in."""
    write_stick(box)
    with running(exchange, box.loop) as script:
        assert exchange.mounted(script), ended(script)
        assert mounts_of(box.loop) == [str(exchange.port.mount)]
        folder = exchange.port.folder
        info = folder.lstat()
        assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (0, exchange.gid, 0o775)
        assert stat.S_ISDIR(info.st_mode)
        wrote = exchange.as_user("touch", str(folder / "results.csv"))
        assert wrote.returncode == 0, wrote.stderr
        script.send_signal(signal.SIGTERM)  # as systemd stops the unit: at once
        assert script.wait(timeout=10) == 0
    assert mounts_of(box.loop) == []
    assert not (exchange.run / MOUNTED).exists()


# ------------------------------------------------------------------------ hostile sticks


def link(target):
    """A builder: ``tableside`` a link to ``target(canary)``."""
    return lambda top, canary: (top / "tableside").symlink_to(target(canary))


def backup_link(top, canary):
    (top / "tableside").mkdir()
    (top / "tableside" / "backup").symlink_to(canary)


def strangers_folder(top, canary):
    backup_link(top, canary)
    os.chown(top / "tableside", STRANGER, STRANGER)
    (top / "tableside").chmod(0o700)


HOSTILE = {
    "tableside links to a folder outside": link(lambda canary: canary),
    "tableside links to a file outside": link(lambda canary: canary / "secret"),
    "tableside links to a FIFO outside": link(lambda canary: canary / "fifo"),
    "tableside is a dangling link": link(lambda canary: canary / "gone"),
    "tableside links upwards": link(lambda canary: "../../../../../../.."),
    "tableside is a plain file": lambda top, canary: (top / "tableside").write_text("x"),
    "tableside is a FIFO": lambda top, canary: os.mkfifo(top / "tableside"),
    "tableside/backup links outside": backup_link,
    "tableside is someone else's": strangers_folder,
}


@pytest.mark.parametrize("build", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_stick_changes_nothing_outside_it_nor_any_owner_on_it(box, exchange, build):
    played = play(box, exchange, build)
    assert played.code == 0 and played.answer == "ok", played.log
    assert played.after == played.before  # left as it was found: no owner, mode or link changed
    assert "left as it is" in played.log
    next_good_stick_mounts(box, exchange)


def test_a_top_folder_others_may_write_gets_no_folder_from_root(box, exchange):
    played = play(box, exchange, lambda top, canary: top.chmod(0o777))
    assert played.code == 0 and played.answer == "ok", played.log
    assert played.after == {} and "not root's alone" in played.log
    played = play(box, exchange, lambda top, canary: os.chown(top, STRANGER, STRANGER))
    assert played.after == {} and "not root's alone" in played.log
    next_good_stick_mounts(box, exchange)


def test_names_with_shell_metacharacters_on_the_stick_are_only_names(box, exchange):
    names = [f"$(touch {PWNED})", f";touch {PWNED};", f"`touch {PWNED}`", "-rf", "*", "a\nb",
             f"tableside;touch {PWNED}", "tableside ", f"' \"; touch {PWNED}"]  # fmt: skip

    def build(top, canary):
        for name in names:
            (top / name).write_text(name)

    played = play(box, exchange, build)
    assert played.code == 0 and played.answer == "ok", played.log
    assert played.after["tableside"][:3] == (0, exchange.gid, stat.S_IFDIR | 0o775)
    untouched = {name: entry for name, entry in played.after.items() if "tableside/" not in name}
    del untouched["tableside"]
    assert untouched == played.before


def test_a_good_stick_gets_a_folder_born_with_the_daemons_group(box, exchange):
    played = play(box, exchange)
    assert played.code == 0 and played.answer == "ok", played.log
    assert played.after["tableside"][:3] == (0, exchange.gid, stat.S_IFDIR | 0o775)
    assert played.after["tableside/probe"][:2] == (exchange.uid, exchange.gid)  # the daemon's


# ------------------------------------------------------------------------ a hostile daemon


def plants(box, exchange) -> None:
    """The daemon's turn gone bad: at every name in root's folder, and on the stick."""
    run_folder, canary = exchange.run, box.canary
    for name in ("stick.mounted.tmp", MOUNTED, f"{RELEASED}.tmp", RELEASED, "lock", "x"):
        tried = exchange.as_user("ln", "-sfn", str(canary / "secret"), str(run_folder / name))
        assert tried.returncode != 0  # root's folder: nothing planted
    assert exchange.as_user("rm", "-f", str(run_folder / MOUNTED)).returncode != 0
    assert exchange.as_user("cat", str(run_folder / RELEASE)).returncode != 0  # write-only
    folder = exchange.port.folder  # its own folder on the stick: links root never follows
    for name, target in (("backup", canary), ("results.csv", canary / "secret")):
        exchange.as_user("ln", "-s", str(target), str(folder / name))


def test_the_daemon_can_plant_nothing_that_root_follows(box, exchange):
    played = play(box, exchange, turn=plants)
    assert played.code == 0 and played.answer == "ok", played.log
    assert played.after["tableside"][:3] == (0, exchange.gid, stat.S_IFDIR | 0o775)
    assert played.after["tableside/backup"][3] == str(box.canary)  # left on the stick
    next_good_stick_mounts(box, exchange)


def test_the_daemon_asks_with_a_byte_and_a_flood_is_harmless(box, exchange):
    def flood(box, exchange):
        fifo = exchange.run / RELEASE
        command = f"head -c 65536 /dev/zero > {fifo}; printf x > {fifo}"  # as the daemon
        assert exchange.as_user("sh", "-c", command).returncode == 0

    write_stick(box)
    with running(exchange, box.loop) as script:
        assert exchange.mounted(script)
        flood(box, exchange)
        log = ended(script)
    assert script.returncode == 0, log
    assert exchange.port.released() == "ok" and mounts_of(box.loop) == []
    with pytest.raises(FileNotFoundError):  # the FIFO went with the stick: a late ask fails
        exchange.port.request_release()
    next_good_stick_mounts(box, exchange)


# ------------------------------------------------------------------ steps that fail


def test_an_ext4_stick_that_asks_for_a_panic_on_errors_is_mounted_to_go_read_only(box, exchange):
    """A stick's superblock may ask the kernel to panic on the first error it finds: one
    damaged inode read would then hang the box until its power is cut."""
    write_stick(box)
    assert run("tune2fs", "-e", "panic", box.loop).returncode == 0
    try:
        with running(exchange, box.loop) as script:
            assert exchange.mounted(script), ended(script)
            options = Path("/proc/fs/ext4", Path(box.loop).name, "options").read_text()
            code, answer, log = exchange.release(script)
    finally:
        assert run("tune2fs", "-e", "continue", box.loop).returncode == 0
    assert "errors=remount-ro" in options.split() and (code, answer) == (0, "ok"), log


def test_a_stick_pulled_out_is_unmounted_and_the_next_one_mounts(box, exchange):
    write_stick(box)
    with running(exchange, box.loop) as script:
        assert exchange.mounted(script)
        script.send_signal(signal.SIGTERM)  # systemd stops the unit bound to the gone device
        log = ended(script)
    assert script.returncode == 0 and "unmounted" in log
    assert mounts_of(box.loop) == [] and not (exchange.run / MOUNTED).exists()
    next_good_stick_mounts(box, exchange)


def test_a_step_that_fails_after_the_mount_unmounts_the_stick(box, exchange):
    write_stick(box)
    (exchange.run / f"{MOUNTED}.tmp").mkdir()  # the "mounted" answer cannot be written
    with running(exchange, box.loop) as script:
        log = ended(script)
    assert script.returncode != 0 and "a step failed" in log
    assert mounts_of(box.loop) == [] and not (exchange.run / MOUNTED).exists()
    (exchange.run / f"{MOUNTED}.tmp").rmdir()
    next_good_stick_mounts(box, exchange)


def test_a_second_stick_while_one_is_in_use_is_left_alone(box, exchange):
    write_stick(box)
    with running(exchange, box.loop) as first:
        assert exchange.mounted(first)
        with running(exchange, box.loop) as second:
            log = ended(second)
        assert second.returncode == 0 and "another stick is in use" in log
        assert mounts_of(box.loop) == [str(exchange.port.mount)]
        code, answer, _ = exchange.release(first)
        assert (code, answer) == (0, "ok")
    assert mounts_of(box.loop) == []


def test_a_root_folder_others_may_write_is_refused_before_any_mount(box, exchange):
    write_stick(box)
    exchange.run.chmod(0o770)  # the group (the daemon's) could plant links in it
    with running(exchange, box.loop) as script:
        log = ended(script)
    assert script.returncode == 1 and "nothing mounted" in log
    assert mounts_of(box.loop) == [] and sorted(exchange.run.iterdir()) == []


def test_an_unknown_file_system_is_left_alone(box, exchange):
    with open(box.loop, "r+b") as device:  # no superblock left that blkid knows
        device.write(bytes(SIZE))
    try:
        with running(exchange, box.loop) as script:
            log = ended(script)
        assert script.returncode == 0 and "file system unknown" in log
        assert mounts_of(box.loop) == [] and not (exchange.run / MOUNTED).exists()
    finally:
        assert run("mkfs.ext4", "-q", "-F", box.loop).returncode == 0
    next_good_stick_mounts(box, exchange)


# ------------------------------------------------------------------ the unit's own limits


def test_the_script_works_within_the_units_system_call_filter(box, exchange):
    """The unit's SystemCallFilter=, RestrictAddressFamilies=none, Group= and its one
    capability, played by hand: the script mounts, makes the folder and lets go."""
    why = can_filter()
    if why is not None:
        pytest.skip(why)
    allowed = ",".join(unit_system_calls())
    refused = run(sys.executable, "-c", FILTER, allowed, "/bin/chown", "0:0", str(box.base))
    assert "Operation not permitted" in refused.stderr  # the filter holds: chown is privileged
    write_stick(box)
    with running(exchange, box.loop, filtered=True) as script:
        assert exchange.mounted(script), ended(script)
        assert exchange.port.folder.stat().st_gid == exchange.gid
        code, answer, log = exchange.release(script)
    assert (code, answer) == (0, "ok"), log
    assert mounts_of(box.loop) == []


def test_a_stale_answer_is_removed_before_the_daemon_asks_again(box, exchange):
    """The last stick's "ok" still in the run folder would tell the daemon this stick is
    unmounted before it is: the script removes it before it says a stick is mounted."""
    write_stick(box)
    (exchange.run / RELEASED).write_text("ok\n")  # the answer about the stick before
    with running(exchange, box.loop) as script:
        assert exchange.mounted(script), ended(script)
        assert exchange.port.released() is None
        code, answer, log = exchange.release(script)
    assert (code, answer) == (0, "ok"), log
    assert mounts_of(box.loop) == []
