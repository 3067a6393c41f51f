"""How long the table waits for a virtual player's turn in the simulator, as a person sees it.

A game with a virtual player of one level on every seat is played through the buttons on
the shipped fakes (the real app and main loop), with a real thinking clock as in
``tableside sim``: each move thinks under the "Thinking…" screen until its choice is
settled or its node budget is spent, the clock only a cap. Every ``Thinking`` screen's
work is timed, in wall time (``perf_counter``: what the table waits) and CPU time
(``process_time``: the same less the time others held the core on a shared machine); a
turn is the moves one seat makes in a row. The presses in between are the table's time
and are not counted. Prints a table, or one JSON object with ``--json``:

    python benchmarks/virtual_turns.py [--variant V] [--level L] [--games N] [--presses P] [--json]

``--presses`` stops each game after that many presses (a quick run).
Keys: ``turns``, ``moves``; ``turn_wall_ms_p50``, ``turn_wall_ms_p95``, ``turn_cpu_ms_p95``,
``move_wall_ms_p95``; ``capped`` (moves the clock ended); ``variant``, ``level``,
``python``, ``machine``.
"""

import argparse
import time

from autoplay import headless
from report import report

from firmware_app.flows.pingwiny import virtual
from firmware_app.session import Session
from rules.pingwiny.options import Options

LIMIT = 5000  # presses: a game still going after this many is left there (``--presses``)


class Timer:
    """Wraps ``virtual.think``: each move's wall and CPU time, gathered into turns."""

    def __init__(self) -> None:
        self.moves: list[float] = []
        self.turns: list[tuple[float, float]] = []  # (wall, cpu) seconds
        self.capped = 0
        self.seat = None  # whose turn the last move was
        self._think = virtual.think
        virtual.think = self.think

    def think(self, app, level: str, turn: bool = True):
        seat = app.session.state.current
        wall, cpu = time.perf_counter(), time.process_time()
        choice = self._think(app, level, turn)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        self.moves.append(wall)
        self.capped += choice.stopped == "clock"
        if seat != self.seat:
            self.seat = seat
            self.turns.append((0.0, 0.0))
        self.turns[-1] = (self.turns[-1][0] + wall, self.turns[-1][1] + cpu)
        return choice

    def close(self) -> None:
        virtual.think = self._think


def centile(samples: list[float], share: float) -> float:
    """The nearest-rank centile of ``samples`` (seconds), in ms."""
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000, 1)


def play(variant: str, level: str, seed: int, timer: Timer, presses: int) -> None:
    """One game, every seat at ``level``, OK pressed on every screen (the move, each step,
    a draw from the app's bag) until it ends."""
    with headless(seed, "tableside-turns-") as sim:
        app = sim.app
        app.think_clock = time.monotonic  # as in the simulator and on the box
        options = Options(players=2, seed=seed, virtual=(level, level))
        box = app.catalogue(demo=True)
        app.session = Session.start(app.journal, options, box, now=0.0, game=("pingwiny", variant))
        app.show_game()
        for _ in range(presses):
            if app.session.over:
                break
            sim.press("ok")
        timer.seat = None


def measure(variant: str, level: str, games: int, presses: int = LIMIT) -> dict:
    timer = Timer()
    try:
        for seed in range(1, games + 1):
            play(variant, level, seed, timer, presses)
    finally:
        timer.close()
    walls = [wall for wall, _ in timer.turns]
    return {
        "variant": variant,
        "level": level,
        "turns": len(timer.turns),
        "moves": len(timer.moves),
        "turn_wall_ms_p50": centile(walls, 0.5),
        "turn_wall_ms_p95": centile(walls, 0.95),
        "turn_cpu_ms_p95": centile([cpu for _, cpu in timer.turns], 0.95),
        "move_wall_ms_p95": centile(timer.moves, 0.95),
        "capped": timer.capped,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("family", "advanced"), default="family")
    parser.add_argument("--level", choices=("normal", "strong"), default="normal")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--presses", type=int, default=LIMIT)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report(measure(args.variant, args.level, args.games, args.presses), args.json)


if __name__ == "__main__":
    main()
