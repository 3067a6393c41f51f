"""Speed of the rules engine: random legal play on the demo deck.

A step is one ``legal_actions`` plus one ``apply`` of a randomly chosen
legal action. Runs on one core (the process is pinned where the platform
allows it). Prints a table, or one JSON object with ``--json``.

    python benchmarks/engine.py [--variant family|advanced] [--games N] [--players P] [--json]
"""

import argparse
import os
import random
import time

from report import report

from firmware_app.store.catalogue_files import load
from rules.pingwiny.options import Options
from rules.record import VARIANTS


def play(catalogue, variant: str, players: int, seed: int) -> int:
    """One whole game of random legal actions; returns its number of steps."""
    game = VARIANTS["pingwiny", variant](catalogue, Options(players=players, seed=seed))
    state = game.new_state()
    chooser = random.Random(seed)
    steps = 0
    while True:
        actions = game.legal_actions(state)
        if not actions:
            return steps
        state, _ = game.apply(state, chooser.choice(actions))
        steps += 1


def measure(variant: str, games: int, players: int) -> dict:
    catalogue = load([], demo=True)
    play(catalogue, variant, players, seed=0)  # warm caches and imports
    steps = 0
    started = time.perf_counter()
    for seed in range(1, games + 1):
        steps += play(catalogue, variant, players, seed)
    elapsed = time.perf_counter() - started
    return {
        "variant": variant,
        "players": players,
        "games": games,
        "steps": steps,
        "seconds": round(elapsed, 3),
        "steps_per_second": round(steps / elapsed),
        "games_per_second": round(games / elapsed, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=["family", "advanced"], default="family")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    result = measure(args.variant, args.games, args.players)
    report(result, args.json)


if __name__ == "__main__":
    main()
