"""Peak memory: the resident set of a process that plays a whole game.

A Zero 2 W has 512 MB shared with the system, and the daemon runs for
hours. This plays a whole demo game with the autopilot on the shipped fakes
(the real app, main loop and SQLite journal) in a child process, and reads
the child's peak resident set size from ``resource.getrusage`` once it has
exited, so nothing of this process is counted.

The fakes keep records for the tests: every frame the fake panel received
(8 KiB each in Pillow, thousands in a game), every button event, the text
of every frame. A device keeps none of them, so the child drops them after
each screen, and what is measured is the imports, the app, the main loop
and the journal. Prints a table, or one JSON object with ``--json``:

    python benchmarks/memory.py [--players P] [--seed S] [--steps N] [--json]

``--steps`` stops the autopilot after that many screens (a quick run).

Keys: ``peak_rss_mb`` (MiB; the goal is 45 or less), ``players``,
``python``, ``machine``.
"""

import argparse
import resource
import subprocess
import sys
from pathlib import Path

from autoplay import headless, play_out
from report import report

# ru_maxrss is in kibibytes on Linux and in bytes on macOS.
RSS_UNIT = 1 if sys.platform == "darwin" else 1024


def play(players: int, seed: int, steps: int | None) -> None:
    """The child's work: one game, start screen to game over (or ``steps`` screens)."""
    with headless(seed, "tableside-memory-") as sim:

        def forget_records() -> None:
            sim.display.frames.clear()
            sim.buttons.history.clear()
            sim.frames.clear()

        play_out(sim, players, seed, steps, after_step=forget_records)


def measure(players: int, seed: int, steps: int | None) -> dict:
    child = [sys.executable, str(Path(__file__).resolve()), "--play"]
    child += ["--players", str(players), "--seed", str(seed)]
    child += [] if steps is None else ["--steps", str(steps)]
    subprocess.run(child, check=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * RSS_UNIT
    return {
        "peak_rss_mb": round(peak / 2**20, 1),
        "players": players,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, help="stop the autopilot after this many screens")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--play", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.players, args.seed, args.steps)
        return
    result = measure(args.players, args.seed, args.steps)
    report(result, args.json)


if __name__ == "__main__":
    main()
