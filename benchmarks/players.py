"""Strength and speed of the virtual players: seeded 2-player games on the demo deck.

Each pairing (``strong-vs-random``, ``strong-vs-greedy``, ``normal-vs-greedy``,
``normal-vs-planner``, ``strong-vs-planner``, ``easy-vs-planner``; greedy is the
easy level, the planner a target-led heuristic of another kind,
``rules.players.planner``) plays ``--games`` games per variant (family and
advanced), seat 1 and seat 2 swapped every other game, the app as the bag,
the deck and the die. A game's seed sets the deal and every sample seed of
the players, so a run gives the same games again (the times differ).

``--jobs N`` plays the games in N worker processes. Each game is seeded by
its index alone and the figures are gathered in game order, so the win rates,
scores and tokens do not depend on N (the times do). The players think by
node budget, never by the clock, for the same reason: a busy machine slows a
move down but does not change it. The games go a pair of seeds at a time
through every pairing. ``--seconds S`` stops the run after S seconds (at a
pair's start, so each pairing keeps its seats swapped half the time), for a
machine too slow or too busy for the full run: the output says how many games
were played. ``kill -USR1`` of the main process stops it the same way.
``--first K`` starts at game K, so a run cut short goes on where it stopped
(each game is the same whichever run plays it).
``--progress`` prints each game's end to standard error as it comes (a JSON
object: the levels by seat, totals, tokens left, winners, seconds).

``--json`` prints one JSON object per line. Per pairing: ``variant``,
``pairing``, ``games``, ``win_rate`` (games won outright by the first-named
level) and ``win_rate_95`` (its 95 % Wilson interval), ``shared_rate`` (games it
shared), ``unfinished`` (games stopped after 20 000 actions, left out of the
rates), ``score`` and ``tokens_left`` (the average final total and tokens still
held, by level), ``seconds`` (its games'
wall time, summed over the workers), ``jobs``. Then per level and variant:
``level``, ``variant``, ``moves`` (decisions timed), ``turns``, ``move_ms_p50``,
``move_ms_p95``, ``move_ms_max``, ``turn_ms_p95`` (wall clock, a move and a whole
turn: what a table waits, inflated when other work shares the cores),
``cpu_ms_p50``, ``cpu_ms_p95``, ``turn_cpu_ms_p95`` (the thinking process's own
time: what a move or turn costs, however busy the machine), ``zero_turn_s_p95``
(a turn's CPU time on a Zero 2 W, estimated: ``turn_cpu_ms_p95`` times
``zero_factor``, the Zero's estimated time for ``reference_loop`` over the loop's
median CPU time here, run once a game), ``nodes_per_second`` (engine states the
search generated per second of its CPU time; 0 for the levels that do not
search). Every object also names ``python`` and ``machine``.

    python benchmarks/players.py [--games N] [--variant family|advanced]
        [--pairing NAME] [--jobs N] [--seconds S] [--first K] [--progress] [--json]
"""

import argparse
import json
import math
import signal
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from report import report

from firmware_app.store.catalogue_files import load
from rules.pingwiny.options import Options
from rules.players import play
from rules.record import VARIANTS

LIMIT = 20_000  # actions: a game still going after this many is counted unfinished
PAIRINGS = {
    "strong-vs-random": ("strong", "random"),
    "strong-vs-greedy": ("strong", "easy"),
    "normal-vs-greedy": ("normal", "easy"),
    "normal-vs-planner": ("normal", "planner"),
    "strong-vs-planner": ("strong", "planner"),
    "easy-vs-planner": ("easy", "planner"),
}
CATALOGUE = None  # the demo deck, loaded once in each process
# The reference loop's CPU seconds on a Zero 2 W (Cortex-A53, 1 GHz), estimated, not
# measured: this machine ran it in 0.10-0.11 s, and a Zero runs CPython very roughly
# 25-35 times slower than this machine (docs/virtual-players.md, "The Zero's figure").
ZERO_REFERENCE_SECONDS = 3.0


def reference_loop() -> int:
    """A fixed piece of pure-Python work in the engine's manner: small tuples built and
    compared, dicts read and written, short calls. Never change it: the Zero's estimate
    above is for this loop."""
    counts: dict = {}
    total = 0
    hand = (0, 0, 0, 0, 0, 0, 0)
    for i in range(100_000):
        c = i % 7
        hand = hand[:c] + (hand[c] + 1,) + hand[c + 1 :]
        key = (c, hand[c] & 3)
        counts[key] = counts.get(key, 0) + 1
        total += max(hand) - min(hand) + len(counts)
    return total


def reference_seconds() -> float:
    """The reference loop's CPU time here, now."""
    started = time.process_time()
    reference_loop()
    return time.process_time() - started


class Timings:
    """Each level's move and turn times and nodes, across every game of a run.

    A turn is the moves one seat makes in a row (every decision of its turn:
    two visits in the family variant, four actions and what they lead to in
    the advanced one); its time is what the table waits for the whole turn.
    """

    def __init__(self) -> None:
        self.ms: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.cpu_ms: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.turn_ms: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.turn_cpu_ms: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.nodes: dict[tuple[str, str], int] = defaultdict(int)
        self.reference: list[float] = []  # the reference loop's CPU seconds, once a game

    def timer(self, variant: str):
        turn = {"seat": None, "key": None, "ms": 0.0, "cpu": 0.0}

        def on_move(seat, level, think):
            if seat != turn["seat"]:
                self.end_turn(turn)
                turn.update(seat=seat, key=(variant, level), ms=0.0, cpu=0.0)
            started, cpu = time.perf_counter(), time.process_time()
            choice = think()
            ms, cpu_ms = (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000
            self.ms[variant, level].append(ms)
            self.cpu_ms[variant, level].append(cpu_ms)
            self.nodes[variant, level] += choice.nodes
            turn["ms"] += ms
            turn["cpu"] += cpu_ms
            return choice

        on_move.turn = turn
        return on_move

    def end_turn(self, turn: dict) -> None:
        """Count the turn ``turn`` holds, if any (at a change of seat, and at the game's end)."""
        if turn["key"] is not None:
            self.turn_ms[turn["key"]].append(turn["ms"])
            self.turn_cpu_ms[turn["key"]].append(turn["cpu"])
            turn["key"] = None

    def add(self, other: "Timings") -> None:
        """Take in the times of a game played elsewhere (in a worker process)."""
        self.reference += other.reference
        for key, ms in other.ms.items():
            self.ms[key] += ms
            self.cpu_ms[key] += other.cpu_ms[key]
            self.turn_ms[key] += other.turn_ms[key]
            self.turn_cpu_ms[key] += other.turn_cpu_ms[key]
            self.nodes[key] += other.nodes[key]

    def zero_factor(self) -> float:
        """How many times slower a Zero 2 W is than this machine, about: the Zero's estimated
        seconds for the reference loop over its median CPU time here. The loop runs once a
        game, beside the games, so a busy shared core slows it as much as the moves."""
        ordered = sorted(self.reference)
        return round(ZERO_REFERENCE_SECONDS / ordered[len(ordered) // 2], 1) if ordered else 0.0

    def rows(self) -> list[dict]:
        rows = []
        zero_factor = self.zero_factor()
        for (variant, level), ms in sorted(self.ms.items()):
            ms, cpu = sorted(ms), sorted(self.cpu_ms[variant, level])
            turns, turn_cpu = (
                sorted(self.turn_ms[variant, level]),
                sorted(self.turn_cpu_ms[variant, level]),
            )
            seconds = sum(cpu) / 1000
            rows.append(
                {
                    "level": level,
                    "variant": variant,
                    "moves": len(ms),
                    "turns": len(turns),
                    "move_ms_p50": _at(ms, 0.5),
                    "move_ms_p95": _at(ms, 0.95),
                    "move_ms_max": round(ms[-1], 2),
                    "cpu_ms_p50": _at(cpu, 0.5),
                    "cpu_ms_p95": _at(cpu, 0.95),
                    "turn_ms_p95": _at(turns, 0.95),
                    "turn_cpu_ms_p95": _at(turn_cpu, 0.95),
                    "zero_turn_s_p95": round(_at(turn_cpu, 0.95) * zero_factor / 1000, 2),
                    "zero_factor": zero_factor,
                    "nodes_per_second": round(self.nodes[variant, level] / seconds)
                    if seconds
                    else 0,
                }
            )
        return rows


def _at(ordered: list[float], share: float) -> float:
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * share))], 2)


def _load() -> None:
    global CATALOGUE
    CATALOGUE = load([], demo=True)


def one_game(task: tuple[str, str, int]) -> tuple[dict, Timings]:
    """Game number ``seed`` of a pairing: the levels by seat, the end, and the move times."""
    variant, name, seed = task
    if CATALOGUE is None:
        _load()
    started = time.perf_counter()
    first, second = PAIRINGS[name]
    levels = (first, second) if seed % 2 else (second, first)
    game = VARIANTS["pingwiny", variant](CATALOGUE, Options(players=2, seed=seed))
    timings = Timings()
    timings.reference.append(reference_seconds())
    timer = timings.timer(variant)
    _, end = play(game, game.new_state(), levels, seed, timer, limit=LIMIT)
    timings.end_turn(timer.turn)
    outcome = {"levels": levels, "over": end.phase == "over"}
    if outcome["over"]:
        sheet = game.score(end)
        outcome["totals"] = [line.total for line in sheet.lines]
        outcome["tokens"] = [sum(seat.tokens) for seat in end.players]
        outcome["winners"] = sheet.winners
    outcome["seconds"] = time.perf_counter() - started
    return outcome, timings


class Tally:
    """One pairing's games, summed up in game order."""

    def __init__(self, variant: str, name: str) -> None:
        self.variant, self.name = variant, name
        self.first, self.second = PAIRINGS[name]
        self.won = self.shared = self.played = self.unfinished = 0
        self.score: dict[str, int] = defaultdict(int)
        self.tokens: dict[str, int] = defaultdict(int)
        self.seconds = 0.0

    def add(self, outcome: dict) -> None:
        self.seconds += outcome["seconds"]
        if not outcome["over"]:
            self.unfinished += 1
            return
        levels = outcome["levels"]
        for seat, level in enumerate(levels):
            self.score[level] += outcome["totals"][seat]
            self.tokens[level] += outcome["tokens"][seat]
        mine = levels.index(self.first)
        if outcome["winners"] == (mine,):
            self.won += 1
        elif mine in outcome["winners"]:
            self.shared += 1
        self.played += 1

    def result(self, jobs: int) -> dict:
        played, levels = max(1, self.played), (self.first, self.second)
        return {
            "variant": self.variant,
            "pairing": self.name,
            "games": self.played,
            "unfinished": self.unfinished,
            "win_rate": round(self.won / played, 3),
            "win_rate_95": wilson(self.won, self.played),
            "shared_rate": round(self.shared / played, 3),
            "score": {level: round(self.score[level] / played, 2) for level in levels},
            "tokens_left": {level: round(self.tokens[level] / played, 2) for level in levels},
            "seconds": round(self.seconds, 1),
            "jobs": jobs,
        }


def wilson(won: int, played: int, z: float = 1.96) -> list[float]:
    """The 95 % Wilson score interval of a win rate of ``won`` in ``played`` games."""
    if not played:
        return [0.0, 1.0]
    rate, spread = won / played, z * z / played
    middle = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / played + spread / (4 * played)) / (1 + spread)
    return [round(middle - half, 3), round(middle + half, 3)]


def run(
    pairings: list[tuple[str, str]], games: int, seconds, jobs: int, progress, first: int = 1
) -> tuple:
    """Every pairing's games, a pair of seeds at a time across all pairings (so a run cut
    short by ``seconds`` has played about as many games of each), in ``jobs`` processes."""
    tallies = {key: Tally(*key) for key in pairings}
    timings = Timings()
    tasks = [(v, n, seed) for seed in range(first, first + games) for v, n in pairings]
    pool = ProcessPoolExecutor(jobs, initializer=_load) if jobs > 1 else None
    results = iter(pool.map(one_game, tasks) if pool else map(one_game, tasks))
    started, stop = time.perf_counter(), []
    signal.signal(signal.SIGUSR1, lambda *_: stop.append(True))
    try:
        for variant, name, seed in tasks:
            late = seconds is not None and time.perf_counter() - started > seconds
            if seed % 2 == 1 and (variant, name) == pairings[0] and (late or stop):
                break  # before the game is waited for (one process: before it is played)
            outcome, times = next(results)
            tallies[variant, name].add(outcome)
            timings.add(times)
            if progress:
                line = {"variant": variant, "pairing": name, "seed": seed, **outcome}
                print(json.dumps(line), file=sys.stderr, flush=True)
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    return [tally.result(jobs) for tally in tallies.values()], timings.rows()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant", choices=["family", "advanced"], action="append")
    parser.add_argument("--pairing", choices=sorted(PAIRINGS), action="append")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--first", type=int, default=1, help="the first game's seed")
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pairings = [
        (variant, name)
        for variant in args.variant or ["family", "advanced"]
        for name in args.pairing or list(PAIRINGS)
    ]
    results, rows = run(pairings, args.games, args.seconds, args.jobs, args.progress, args.first)
    for row in results + rows:
        report(row, args.json)


if __name__ == "__main__":
    main()
