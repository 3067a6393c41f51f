"""Start-up: from spawning the daemon to its first frame and to its home menu, against Pillow.

A Zero 2 W takes seconds to import Python, and until the first frame the
panel is dark and the family wonders whether the box is on; until the home
menu is shown no press does anything. This spawns the real daemon path with
a configuration whose display is luma's own ``dummy`` device (so luma is
imported as on the Pi) and whose buttons, reader and buzzer are the shipped
fakes, in two ways: ``tableside run --config FILE --first-frame`` prints the
``time.time()`` at which its first frame (the splash) was shown and exits;
``tableside run --config FILE --home`` goes through the whole start (journal
opened and checked, app built, the first loop tick that shows the home menu),
prints the time of the first frame and then of the home menu, and stops
cleanly. The time from just before each spawn to what it reports is
compared with the same measure for ``python -c "import PIL.Image"`` (the
least any frame can cost), run after run, interleaved so that a busy moment
slows all three alike.

All commands run with compiled bytecode, as an installed daemon does: the
children write and read their ``.pyc`` files in a temporary folder
(``PYTHONPYCACHEPREFIX``), filled by one run of each before timing starts,
so the result does not depend on ``PYTHONDONTWRITEBYTECODE`` and leaves no
files behind. The journal is a new one in a temporary state folder, created
by that first run. Prints a table, or one JSON object with ``--json``:

    python benchmarks/startup.py [--runs N] [--json]

Keys: ``startup_ratio`` (first frame over the bare import; the goal is 1.5
or less), ``first_frame_ms`` (median, from the ``--first-frame`` runs),
``home_ratio`` and ``home_ms`` (the home menu over the bare import, and its
median, from the ``--home`` runs), ``baseline_ms`` (median of the bare
import), ``runs`` (of each command), ``python``, ``machine``.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from report import report

CONFIG = """\
[buttons]
driver = "fake"
[display]
driver = "dummy"
[reader]
driver = "fake"
[buzzer]
driver = "fake"
[app]
state_dir = "{state}"
"""
BASELINE = "import time, PIL.Image; print(time.time(), flush=True)"
# ru_maxrss is in kibibytes on Linux and in bytes on macOS.
RSS_UNIT = 1 if sys.platform == "darwin" else 1024
# On Linux a child's ru_maxrss starts from its parent's resident set at the fork, which a
# benchmark holding hundreds of played games inflates; so where /proc is, the daemon says
# its own peak (VmHWM, kibibytes) on stderr as it exits.
STATUS = Path("/proc/self/status")
OWN_PEAK = """import atexit, re, sys
def peak():
    print("peak", re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read())[1],
          file=sys.stderr)
atexit.register(peak)
from firmware_app.cli.main import main
sys.exit(main())"""


def write_config(path: Path, state_dir: Path) -> Path:
    """A configuration file at ``path``: luma's dummy panel, the fakes, ``state_dir``."""
    path.write_text(CONFIG.format(state=state_dir), encoding="utf-8")
    return path


def daemon_command(config: Path, stop: str) -> list[str]:
    """``tableside run`` stopping at ``stop`` (``--first-frame`` or ``--home``).

    The installed ``tableside`` script next to this interpreter, else the module.
    """
    script = shutil.which("tableside", path=str(Path(sys.executable).parent))
    start = [script] if script else [sys.executable, "-m", "firmware_app.cli.main"]
    if STATUS.exists():
        start = [sys.executable, "-c", OWN_PEAK]
    return [*start, "run", "--config", str(config), stop]


def baseline_command() -> list[str]:
    return [sys.executable, "-c", BASELINE]


def child_environ(pycache: Path) -> dict[str, str]:
    """This environment, compiled bytecode kept in ``pycache``, no systemd socket."""
    unset = ("NOTIFY_SOCKET", "PYTHONDONTWRITEBYTECODE")
    environ = {key: value for key, value in os.environ.items() if key not in unset}
    environ["PYTHONPYCACHEPREFIX"] = str(pycache)
    return environ


def spawn(command: list[str], environ: dict[str, str]) -> tuple[list[float], int]:
    """Seconds from just before the spawn to each time the child prints (the last word
    of each line), and the child's own peak resident set in bytes."""
    with tempfile.TemporaryFile() as errors:  # the child's own peak is read from it too
        spawned = time.time()
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, env=environ)
        out = child.stdout.read().decode()
        child.stdout.close()
        _, status, usage = os.wait4(child.pid, 0)  # this child's figures, no other's
        child.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        text = errors.read().decode(errors="replace")
        if child.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed ({child.returncode}):\n{text}")
    times = [float(line.split()[-1]) - spawned for line in out.splitlines() if line.strip()]
    peaks = [int(line.split()[1]) * 1024 for line in text.splitlines() if line.startswith("peak ")]
    return times, peaks[-1] if peaks else usage.ru_maxrss * RSS_UNIT


def measure(runs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="tableside-startup-") as folder:
        config = write_config(Path(folder) / "tableside.toml", Path(folder) / "state")
        environ = child_environ(Path(folder) / "pycache")
        baseline = baseline_command()
        first = daemon_command(config, "--first-frame")
        home = daemon_command(config, "--home")
        for command in (baseline, first, home):  # the file cache, the .pyc files, the journal
            spawn(command, environ)
        bases, firsts, homes = [], [], []
        for _ in range(runs):  # interleaved, so a busy moment slows all alike
            bases.append(spawn(baseline, environ)[0][-1])
            firsts.append(spawn(first, environ)[0][-1])
            homes.append(spawn(home, environ)[0][-1])
    base, first, home = (statistics.median(times) for times in (bases, firsts, homes))
    return {
        "startup_ratio": round(first / base, 2),
        "first_frame_ms": round(first * 1000, 1),
        "home_ratio": round(home / base, 2),
        "home_ms": round(home * 1000, 1),
        "baseline_ms": round(base * 1000, 1),
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    result = measure(args.runs)
    report(result, args.json)


if __name__ == "__main__":
    main()
