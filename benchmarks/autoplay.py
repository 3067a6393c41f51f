"""A whole demo game played by the autopilot through the buttons on the fakes.

The latency and memory benchmarks measure the same thing a table does: a
game from the start screen to the end, one button press at a time.
"""

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def headless(seed: int, prefix: str) -> Iterator:
    """The app on the fakes, over a journal in a temporary folder."""
    from firmware_app.runners.headless import Headless

    with tempfile.TemporaryDirectory(prefix=prefix) as folder:
        sim = Headless(Path(folder), seed=seed)
        try:
            yield sim
        finally:
            sim.close()


def play_out(sim, players: int, seed: int, steps: int | None, after_step: Callable = None):
    """Start a demo game and let the autopilot play it (or ``steps`` screens of it)."""
    from firmware_app.runners.autopilot import Autopilot, new_game_script

    for line in new_game_script(players):
        sim.command(line)
    pilot = Autopilot(sim, seed)
    played = 0
    while (steps is None or played < steps) and pilot.step():
        played += 1
        if after_step is not None:
            after_step()
