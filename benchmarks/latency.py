"""Event-to-frame latency: from a button event being polled to its frame reaching the panel.

A player judges the box by how fast the panel answers a press. This plays a
whole demo game with the autopilot on the shipped fakes (the real app and
main loop, a virtual clock) and times, with ``time.perf_counter``, every
loop tick whose button poll returned events: from just before the poll to
the moment the loop offers the new frame to the display. The virtual clock
does not wait, so only the work on the input-to-frame path is measured.

That path includes the journal's commit of each accepted action, which
waits for the disk (``fsync``) by design: the table sees nothing that a
power cut could undo. So the commits are also timed on their own
(``commit_*``), and the path without them (``app_*``), to tell the app's
work from the disk's. The journal lives in a temporary folder, on the disk
that holds it. Prints a table, or one JSON object with ``--json``:

    python benchmarks/latency.py [--players P] [--seed S] [--steps N] [--json]

``--steps`` stops the autopilot after that many screens (a quick run);
without it the game is played to its end.

Keys: ``events`` (button events timed), ``p50_ms``, ``p99_ms``, ``max_ms``
(event to frame); ``app_p50_ms``, ``app_p99_ms``, ``app_max_ms`` (the same
less the commits); ``commits``, ``commit_p50_ms``, ``commit_p99_ms``,
``commit_max_ms`` (``null`` if nothing was committed); ``players``,
``python``, ``machine``.
"""

import argparse
import math
import statistics
import time

from autoplay import headless, play_out
from report import report

from firmware_app.runners.headless import Headless


class Stopwatch:
    """Wraps the fakes' ``poll`` and ``show``: a tick with events starts a timing.

    It also wraps the journal's ``append``, the commit of each action.
    """

    def __init__(self, sim: Headless) -> None:
        self.samples: list[float] = []  # seconds, one per button event
        self.app_samples: list[float] = []  # the same, less the commits in them
        self.commits: list[float] = []  # seconds, one per action committed
        self._started: float | None = None
        self._events = 0
        self._committing = 0.0  # seconds of commits since the timing started
        self._poll, self._show = sim.buttons.poll, sim.display.show
        self._append = sim.journal.append
        sim.buttons.poll, sim.display.show = self.poll, self.show
        sim.journal.append = self.append

    def poll(self, now: float) -> list:
        started = time.perf_counter()
        events = self._poll(now)
        if events:
            self._started, self._events, self._committing = started, len(events), 0.0
        return events

    def show(self, image) -> bool:
        if self._started is not None:
            elapsed = time.perf_counter() - self._started
            self.samples += [elapsed] * self._events
            self.app_samples += [elapsed - self._committing] * self._events
            self._started = None
        return self._show(image)

    def append(self, game_id: int, notation: str, **when) -> int:
        started = time.perf_counter()
        number = self._append(game_id, notation, **when)
        self.commits.append(time.perf_counter() - started)
        self._committing += self.commits[-1]
        return number


def milliseconds(samples: list[float]) -> dict[str, float | None]:
    """Median, 99th centile (nearest rank) and maximum of ``samples`` (seconds), in ms."""
    if not samples:  # a quick run may end before anything was committed
        return {"p50_ms": None, "p99_ms": None, "max_ms": None}
    ordered = sorted(samples)
    p99 = ordered[math.ceil(0.99 * len(ordered)) - 1]
    return {
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p99_ms": round(p99 * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


def measure(players: int, seed: int, steps: int | None) -> dict:
    with headless(seed, "tableside-latency-") as sim:
        watch = Stopwatch(sim)
        play_out(sim, players, seed, steps)
    if not watch.samples:
        raise SystemExit("no button event was timed")
    return {
        "events": len(watch.samples),
        **milliseconds(watch.samples),
        **{f"app_{key}": value for key, value in milliseconds(watch.app_samples).items()},
        "commits": len(watch.commits),
        **{f"commit_{key}": value for key, value in milliseconds(watch.commits).items()},
        "players": players,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, help="stop the autopilot after this many screens")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.players, args.seed, args.steps)
    report(result, args.json)


if __name__ == "__main__":
    main()
