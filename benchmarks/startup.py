"""Start-up: from spawning the daemon to its first frame, against a bare Pillow import.

A Zero 2 W takes seconds to import Python, and until the first frame the
panel is dark and the family wonders whether the box is on. This spawns the
real daemon path, ``tableside run --config FILE --first-frame``, with a
configuration that selects the shipped fake drivers; the daemon prints the
``time.time()`` at which its first frame was shown and exits. The time from
just before the spawn to that report is compared with the same measure for
``python -c "import PIL.Image"`` (the least any frame can cost), run after
run, and the ratio of the medians is ``startup_ratio``.

Both commands run with compiled bytecode, as an installed daemon does: the
children write and read their ``.pyc`` files in a temporary folder
(``PYTHONPYCACHEPREFIX``), filled by one run of each before timing starts,
so the result does not depend on ``PYTHONDONTWRITEBYTECODE`` and leaves no
files behind. Prints a table, or one JSON object with ``--json``:

    python benchmarks/startup.py [--runs N] [--json]

Keys: ``startup_ratio`` (the goal is 1.5 or less), ``first_frame_ms`` and
``baseline_ms`` (medians), ``runs`` (of each command), ``python``,
``machine``.
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

FAKES = """\
[buttons]
driver = "fake"
[display]
driver = "fake"
[reader]
driver = "fake"
[buzzer]
driver = "fake"
[app]
state_dir = "state"
"""
BASELINE = "import time, PIL.Image; print(time.time(), flush=True)"


def daemon_command(config: Path) -> list[str]:
    """The installed ``tableside`` script next to this interpreter, else the module."""
    script = shutil.which("tableside", path=str(Path(sys.executable).parent))
    start = [script] if script else [sys.executable, "-m", "firmware_app.cli.main"]
    return [*start, "run", "--config", str(config), "--first-frame"]


def seconds_to_report(command: list[str], environ: dict[str, str]) -> float:
    """Time from just before the spawn to the ``time.time()`` the child prints last."""
    spawned = time.time()
    done = subprocess.run(command, capture_output=True, text=True, env=environ, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return float(done.stdout.split()[-1]) - spawned


def measure(runs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="tableside-startup-") as folder:
        config = Path(folder) / "tableside.toml"
        config.write_text(FAKES, encoding="utf-8")
        unset = ("NOTIFY_SOCKET", "PYTHONDONTWRITEBYTECODE")
        environ = {key: value for key, value in os.environ.items() if key not in unset}
        environ["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        daemon, baseline = daemon_command(config), [sys.executable, "-c", BASELINE]
        for command in (baseline, daemon):  # fill the file cache and the .pyc files
            seconds_to_report(command, environ)
        firsts, bases = [], []
        for _ in range(runs):  # interleaved, so a busy moment slows both alike
            bases.append(seconds_to_report(baseline, environ))
            firsts.append(seconds_to_report(daemon, environ))
    first, base = statistics.median(firsts), statistics.median(bases)
    return {
        "startup_ratio": round(first / base, 2),
        "first_frame_ms": round(first * 1000, 1),
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
