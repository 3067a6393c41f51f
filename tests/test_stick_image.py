"""The stick writer on real file-system images, mounted by the real script on a loop device.

Needs root, loop devices and the file system's mkfs (``mkfs.vfat`` comes with dosfstools,
``mkfs.exfat`` with exfatprogs); where any is missing the test is skipped and says why.
The panel's part on a plain folder is tests/test_stick.py, which always runs.
"""

import pwd
import shutil

import pytest
from stats_helpers import known_games
from stick_helpers import Exchange, attach, mounts_of, need_root, run, screen_text, wait_for, watch

from firmware_app.runners.headless import Headless
from firmware_app.transfer.stick import write_stick_results
from firmware_app.transfer.stick_port import MOUNTED

MKFS = {"ext4": ["mkfs.ext4", "-q", "-F"], "vfat": ["mkfs.vfat"], "exfat": ["mkfs.exfat"]}


@pytest.fixture(params=sorted(MKFS))
def device(request, tmp_path):
    """A loop device holding an empty image of one file system; skipped where that cannot be."""
    kind = request.param
    need_root()
    if shutil.which(MKFS[kind][0]) is None:
        pytest.skip(f"{MKFS[kind][0]} is not installed")
    image = tmp_path / f"stick-{kind}.img"
    with image.open("wb") as file:
        file.truncate(16 * 1024 * 1024)
    made = run(*MKFS[kind], str(image))
    if made.returncode:
        pytest.skip(f"{MKFS[kind][0]} failed: {made.stderr.strip()}")
    loop = attach(image)
    try:
        probe = tmp_path / "probe"
        probe.mkdir()
        mounted = run("mount", "-t", kind, loop, str(probe))
        if mounted.returncode:
            pytest.skip(f"cannot mount {kind} here: {mounted.stderr.strip()}")
        run("umount", str(probe))
        yield kind, loop
    finally:
        run("losetup", "--detach", loop)


def test_the_script_mounts_the_box_writes_and_the_stick_is_unmounted(device, tmp_path):
    kind, loop = device
    sim = Headless(tmp_path / "state", language="en", seed=1)
    known_games(sim.journal)
    exchange = Exchange(tmp_path)
    watch(sim, exchange.run)
    script = exchange.start(loop)
    try:
        wait_for(sim, "Writing to the USB stick…")
        assert mounts_of(loop) == [str(exchange.port.mount)]
        wait_for(sim, "You can pull the stick out.")
        assert "Done: 6 games written." in screen_text(sim)
        assert script.wait(timeout=10) == 0, script.stderr.read()
    finally:
        if script.poll() is None:
            script.terminate()
            script.wait(timeout=10)
        sim.close()
    assert mounts_of(loop) == []  # unmounted
    assert not (exchange.run / MOUNTED).exists()

    check = tmp_path / "check"
    check.mkdir()
    assert run("mount", "-o", "ro", loop, str(check)).returncode == 0
    try:
        written = check / "tableside"
        if kind == "ext4":  # made by root, born with the tableside group: nothing chowned
            found = written.stat()
            assert (found.st_uid, found.st_gid) == (0, exchange.gid)
            assert found.st_mode & 0o7777 == 0o775
        else:
            assert written.stat().st_uid == pwd.getpwnam(exchange.user).pw_uid
        plain = tmp_path / "plain"
        plain.mkdir()
        assert write_stick_results(sim.journal.path, plain / "tableside") == 6
        expected = sorted(path.name for path in (plain / "tableside").iterdir())
        assert sorted(path.name for path in written.iterdir()) == expected
        for name in ("results.csv", "game-00005.json", "statistics.json"):
            assert (written / name).read_bytes() == (plain / "tableside" / name).read_bytes()
    finally:
        run("umount", str(check))
