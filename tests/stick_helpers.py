"""A USB stick for the tests: a folder with the root unit's part played by the test, or the
real root script on a loop device, run as its unit runs it."""

import ctypes.util
import os
import pwd
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from stats_helpers import known_games

from firmware_app.flows.shared.stick import StickWatch
from firmware_app.runners.headless import Headless
from firmware_app.transfer.stick_port import MOUNTED, RELEASE, RELEASED, StickPort

SCRIPT = Path(__file__).resolve().parents[1] / "systemd" / "tableside-stick"
UNIT = SCRIPT.parent / "tableside-stick@.service"
STAND_IN = "nobody"  # stands for the tableside user


def box_with_games(folder: Path, owner_catalogue: Path | None = None) -> Headless:
    """A headless box in ``folder``, in English, with the statistics' known games ended on it."""
    sim = Headless(folder, language="en", seed=1, owner_catalogue=owner_catalogue)
    known_games(sim.journal)
    sim.app.reload()
    return sim


class FakeUnit:
    """Does what tableside-stick@.service does, on a plain folder: "mounts", then lets go.

    As the unit does, it makes a FIFO for each stick and reads the daemon's byte from it;
    ``asked`` says whether the daemon asked for the unmount since the last plug.
    """

    def __init__(self, run) -> None:
        self.port = StickPort(run)
        self.run = self.port.run
        self.run.mkdir(parents=True, exist_ok=True)
        self.call = None  # the unit's end of the FIFO, while a stick is "mounted"
        self.asked = False

    def plug(self) -> None:
        self.port.mount.mkdir(exist_ok=True)
        (self.run / RELEASED).unlink(missing_ok=True)
        os.mkfifo(self.run / RELEASE)
        self.call = os.open(self.run / RELEASE, os.O_RDWR | os.O_NONBLOCK)
        self.asked = False
        (self.run / "marker.tmp").write_text("sdz1\n")
        os.replace(self.run / "marker.tmp", self.run / MOUNTED)

    def pull(self) -> None:
        self._let_go()

    def serve(self) -> None:
        """Answer a release request as the unit does once it has unmounted the stick."""
        if self.call is None:
            return
        try:
            os.read(self.call, 1)
        except BlockingIOError:
            return
        self.asked = True
        self._let_go()
        (self.run / RELEASED).write_text("ok\n")

    def _let_go(self) -> None:
        os.close(self.call)
        self.call = None
        (self.run / RELEASE).unlink()
        (self.run / MOUNTED).unlink()


def watch(sim, run) -> StickWatch:
    """The daemon's stick watch on a headless app's loop."""
    sim.loop.stick = StickWatch(sim.app, StickPort(run))
    return sim.loop.stick


def screen_text(sim) -> str:
    return " ".join(sim.screen.split())


def wait_for(sim, text: str, unit=None, seconds: float = 30.0, done=None) -> None:
    """Run the loop (the stick's work is in a thread, in real time) until ``text`` shows,
    or until ``done()`` when given (``text`` then says what is awaited)."""
    deadline = time.monotonic() + seconds
    done = done or (lambda: text in screen_text(sim))
    while not done():
        assert time.monotonic() < deadline, f"{text!r} never showed; the screen: {sim.screen}"
        if unit is not None:
            unit.serve()
        sim.run_for(0.05)
        time.sleep(0.005)


# ---------------------------------------------------------------- the real script, as root


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)


def need_root(*tools: str) -> None:
    """Skip, saying why, where the image tests cannot run: not root, or a tool missing."""
    if os.geteuid() != 0:
        pytest.skip("loop devices and mount need root")
    for tool in ("losetup", "setpriv", *tools):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")


def attach(image: Path) -> str:
    """A loop device for ``image``; skipped where this system gives none."""
    attached = run("losetup", "--find", "--show", str(image))
    if attached.returncode:
        pytest.skip(f"no loop device here: {attached.stderr.strip()}")
    return attached.stdout.strip()


def mounts_of(device: str) -> list[str]:
    """Where ``device`` is mounted now (none, one, or more)."""
    found = run("findmnt", "--raw", "--noheadings", "--source", device, "--output", "TARGET")
    return found.stdout.split()


class Exchange:
    """Root's run folder as on the box, and the script run as tableside-stick@.service runs it.

    The folder is root's with the stand-in's group, mode 0750. The script runs as root with
    the stand-in's group and CAP_SYS_ADMIN alone, as the unit's Group= and
    CapabilityBoundingSet= have it; the daemon's part is played by the real StickPort.
    """

    def __init__(self, base: Path, user: str = STAND_IN) -> None:
        entry = pwd.getpwnam(user)
        self.user, self.uid, self.gid = user, entry.pw_uid, entry.pw_gid
        self.run = base / "run"
        self.run.mkdir()
        os.chown(self.run, 0, self.gid)
        self.run.chmod(0o750)
        self.port = StickPort(self.run)

    def start(self, device: str, filtered: bool = False) -> subprocess.Popen:
        """The script on ``device``; ``filtered``: under the unit's system-call filter too."""
        unit = ["setpriv", f"--regid={self.gid}", "--clear-groups", "--no-new-privs",
                "--bounding-set=-all,+sys_admin", "--inh-caps=-all", "--"]  # fmt: skip
        if filtered:
            unit += [sys.executable, "-c", FILTER, ",".join(unit_system_calls())]
        env = os.environ | {"TABLESIDE_STICK_RUN": str(self.run), "TABLESIDE_STICK_USER": self.user}
        return subprocess.Popen(
            [*unit, str(SCRIPT), device], env=env, stderr=subprocess.PIPE, text=True
        )  # fmt: skip

    def mounted(self, script: subprocess.Popen, seconds: float = 10.0) -> bool:
        """Wait for the script's "mounted" answer; False if it ended without one."""
        deadline = time.monotonic() + seconds
        while self.port.marker() is None:
            if script.poll() is not None:
                return False
            assert time.monotonic() < deadline, "the script never said the stick is mounted"
            time.sleep(0.005)
        return True

    def release(self, script: subprocess.Popen) -> tuple[int, str | None, str]:
        """Ask for the unmount as the daemon does: the script's exit code, answer and log."""
        self.port.request_release()
        _, log = script.communicate(timeout=10)
        return script.returncode, self.port.released(), log

    def as_user(self, *command: str) -> subprocess.CompletedProcess:
        """``command`` run as the stand-in user, as the daemon would run it."""
        who = [f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups"]
        return run("setpriv", *who, "--", *command)


# ------------------------------------------------- the unit's system-call filter, by hand

# Loads a seccomp filter that allows the system calls named in argv[1] (EPERM for the rest,
# as SystemCallErrorNumber=EPERM; EAFNOSUPPORT for socket, as RestrictAddressFamilies=none),
# then runs argv[2:]. libseccomp through ctypes: what systemd itself uses to build a filter.
FILTER = """
import ctypes, ctypes.util, errno, os, sys
lib = ctypes.CDLL(ctypes.util.find_library("seccomp"))
lib.seccomp_init.restype = ctypes.c_void_p
context = ctypes.c_void_p(lib.seccomp_init(ctypes.c_uint32(0x50000 | errno.EPERM)))
for name in sys.argv[1].split(","):
    number = lib.seccomp_syscall_resolve_name(name.encode())
    if number >= 0 and name != "socket":
        lib.seccomp_rule_add(context, ctypes.c_uint32(0x7FFF0000), number, 0)
socket = lib.seccomp_syscall_resolve_name(b"socket")
lib.seccomp_rule_add(context, ctypes.c_uint32(0x50000 | errno.EAFNOSUPPORT), socket, 0)
assert lib.seccomp_load(context) == 0
os.execv(sys.argv[2], sys.argv[2:])
"""


def can_filter() -> str | None:
    """Why the unit's filter cannot be played here, or None if it can."""
    if shutil.which("systemd-analyze") is None:
        return "systemd-analyze is not installed (it names the system calls of each group)"
    if ctypes.util.find_library("seccomp") is None:
        return "libseccomp is not installed"
    return None


def unit_system_calls() -> set[str]:
    """What the unit's SystemCallFilter= lines allow: @default, each allow-list added, each
    ~deny-list taken away, in order (systemd's own reading), groups as systemd-analyze has
    them."""
    groups: dict[str, list[str]] = {}
    listed = run("systemd-analyze", "syscall-filter").stdout
    for line in listed.splitlines():
        if line.startswith("@"):
            members = groups.setdefault(line.strip(), [])
        elif line.strip() and not line.strip().startswith("#"):
            members.append(line.strip())

    def expand(name: str) -> set[str]:
        if not name.startswith("@"):
            return {name}
        return set().union(*(expand(member) for member in groups[name]))

    allowed = expand("@default")
    for line in UNIT.read_text().splitlines():
        if line.startswith("SystemCallFilter="):
            value = line.partition("=")[2]
            named = set().union(*(expand(name) for name in value.lstrip("~").split()))
            allowed = allowed - named if value.startswith("~") else allowed | named
    return allowed
