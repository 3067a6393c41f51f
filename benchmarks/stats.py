"""Statistics with years of history: opening each statistics screen over 10,000 finished games.

A family playing every week for years reaches a few thousand games; this builds a journal of
``--games`` finished games (default 10,000: one real demo game's record, each copy with other
players, penguins, scores and dates, stored as the box stores an imported game), indexes it
once, then times what opening each statistics screen costs the panel: opening the cache,
the refresh that finds nothing new, and the screen's query. Prints a table, or one JSON
object with ``--json``:

    python benchmarks/stats.py [--games N] [--runs R] [--json]

Keys: ``games``; ``build_s`` (writing the journal, not part of any screen); ``index_s`` (the
first indexing of every game, once in the box's life); ``open_games_ms``,
``open_player_ms``, ``open_head_to_head_ms``, ``open_last_games_ms``, ``open_wins_ms``
(each the median of ``runs`` openings); ``open_max_ms`` (the slowest of those medians; the
goal is 50 or less); ``runs``; ``python``, ``machine``.
"""

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from report import report

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT))

from firmware_app.session import summary  # noqa: E402
from firmware_app.store.journal import Journal  # noqa: E402
from firmware_app.store.statistics import Stats  # noqa: E402
from rules.record import replay  # noqa: E402

NAMES = ("Ala", "Olek", "Iza", "Kuba", "Gosia", "Filip", "Adam", "Monika")
PENGUINS = ("kowalski", "skipper", "rico", "szeregowy")
WEEK = 7 * 24 * 3600


def build(path: Path, games: int, seed: int) -> None:
    """``games`` finished copies of a real record, each with its own table and result."""
    record = json.loads((ROOT / "examples" / "family-3p-seed7.json").read_text(encoding="utf-8"))
    result = replay(record)
    sheet = summary(result.game, result.final)
    rng = random.Random(seed)
    with Journal(path) as journal:
        for number in range(games):
            names = rng.sample(NAMES, 3)
            penguins = rng.sample(PENGUINS, 3)
            lines = [
                line | {"penguin": penguin, "total": rng.randint(-5, 40)}
                for line, penguin in zip(sheet["players"], penguins, strict=True)
            ]
            best = max(line["total"] for line in lines)
            winners = [i for i, line in enumerate(lines) if line["total"] == best]
            copy = record | {"options": record["options"] | {"names": names}}
            started = 1.6e9 + number * WEEK / 2
            journal.import_finished(
                copy, sheet | {"players": lines, "winners": winners}, started, started + 2400
            )


def median_ms(work, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tableside-stats-") as folder:
        journal_path, cache = Path(folder) / "journal.sqlite", Path(folder) / "stats.sqlite"
        started = time.perf_counter()
        build(journal_path, args.games, args.seed)
        built = time.perf_counter() - started
        with Journal(journal_path) as journal:
            started = time.perf_counter()
            with Stats(journal, cache) as stats:
                stats.refresh()
            indexed = time.perf_counter() - started

            def opening(query):
                def work():
                    with Stats(journal, cache) as stats:
                        stats.refresh()
                        query(stats)

                return median_ms(work, args.runs)

            screens = {
                "open_games_ms": opening(lambda s: s.games("pingwiny", "family")),
                "open_player_ms": opening(lambda s: s.player("Ala")),
                "open_head_to_head_ms": opening(lambda s: s.head_to_head("Ala", "Olek")),
                "open_last_games_ms": opening(lambda s: s.last_games(10)),
                "open_wins_ms": opening(lambda s: s.wins()),
            }
    result = {
        "games": args.games,
        "build_s": round(built, 1),
        "index_s": round(indexed, 3),
        **screens,
        "open_max_ms": max(screens.values()),
        "runs": args.runs,
    }
    report(result, args.json)


if __name__ == "__main__":
    main()
