"""Speed of the rules engine: random legal play on the demo deck.

A step is one ``legal_actions`` plus one ``apply`` of a randomly chosen
legal action: what a game, or a search walking down its tree, does from
state to state. ``steps_per_second`` counts them by the clock on the wall,
``cpu_steps_per_second`` by the process's own CPU time (the same figure on
an idle machine; on a busy one the steadier of the two).

A search spends most of its engine time elsewhere, though: at a node it has
not been to it applies every legal action to the same state (its
expansion), so there are many applies to one listing. That is timed apart,
at every ``--expand-every``-th state of the same games:
``cpu_expand_states_per_second`` counts the states an expansion makes (one
``legal_actions`` and an ``apply`` of each action it lists) by CPU time, as
the expansions are timed one by one, in slices a busy machine would cut
into. What the search then does with the states (their evaluation, the
sampling of worlds) is ``benchmarks/players.py``'s to measure.

The other keys: ``variant``, ``players``, ``games``, ``steps``,
``seconds``, ``games_per_second``, ``expanded_states``, ``python``,
``machine``. Runs on one core
(the process is pinned where the platform allows it). Prints a table, or one
JSON object with ``--json``.

    python benchmarks/engine.py [--variant family|advanced] [--games N] [--players P]
                                [--expand-every K] [--json]
"""

import argparse
import os
import random
import time

from report import report

from firmware_app.store.catalogue_files import load
from rules.pingwiny.options import Options
from rules.record import VARIANTS


def start(catalogue, variant: str, players: int, seed: int):
    """A game set up from ``seed``, its first state, and the chooser of its random moves."""
    game = VARIANTS["pingwiny", variant](catalogue, Options(players=players, seed=seed))
    return game, game.new_state(), random.Random(seed)


def play(catalogue, variant: str, players: int, seed: int) -> int:
    """One whole game of random legal actions; returns its number of steps."""
    game, state, chooser = start(catalogue, variant, players, seed)
    steps = 0
    while True:
        actions = game.legal_actions(state)
        if not actions:
            return steps
        state, _ = game.apply(state, chooser.choice(actions))
        steps += 1


def expand(catalogue, variant: str, players: int, seed: int, every: int) -> tuple[int, float]:
    """The same game as ``play``, with every ``every``-th state expanded as a search does
    (every legal action applied to it); returns the states made and the CPU seconds they
    took (the game's own steps are not timed)."""
    game, state, chooser = start(catalogue, variant, players, seed)
    made, seconds, steps = 0, 0.0, 0
    while True:
        actions = game.legal_actions(state)
        if not actions:
            return made, seconds
        if steps % every == 0:
            started = time.process_time()
            listed = game.legal_actions(state)
            for action in listed:
                game.apply(state, action)
            seconds += time.process_time() - started
            made += len(listed)
        state, _ = game.apply(state, chooser.choice(actions))
        steps += 1


def measure(variant: str, games: int, players: int, every: int) -> dict:
    catalogue = load([], demo=True)
    play(catalogue, variant, players, seed=0)  # warm caches and imports
    steps = 0
    started, cpu = time.perf_counter(), time.process_time()
    for seed in range(1, games + 1):
        steps += play(catalogue, variant, players, seed)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    made, expanding = 0, 0.0
    for seed in range(1, games + 1):
        states, seconds = expand(catalogue, variant, players, seed, every)
        made, expanding = made + states, expanding + seconds
    return {
        "variant": variant,
        "players": players,
        "games": games,
        "steps": steps,
        "seconds": round(elapsed, 3),
        "steps_per_second": round(steps / elapsed),
        "cpu_steps_per_second": round(steps / cpu),
        "games_per_second": round(games / elapsed, 1),
        "expanded_states": made,
        "cpu_expand_states_per_second": round(made / expanding),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=["family", "advanced"], default="family")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--expand-every", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    result = measure(args.variant, args.games, args.players, args.expand_every)
    report(result, args.json)


if __name__ == "__main__":
    main()
