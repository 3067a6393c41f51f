"""Whole advanced games as text, compared with the transcripts kept in tests/golden.

Regenerate on purpose, then read the diff before committing it:
``TABLESIDE_REGENERATE_GOLDEN=1 pytest tests/test_golden_advanced.py``
"""

import os
import random
from pathlib import Path

import pytest
from advanced_helpers import new_advanced

from rules.pingwiny.advanced_transcript import playthrough

GOLDEN = Path(__file__).parent / "golden" / "playthroughs"
CASES = [
    ("advanced-2p-app-seed1", {"players": 2, "seed": 1}),
    (
        "advanced-3p-short-table-seed2",
        {"players": 3, "seed": 2, "short": True, "bag": "table", "deck": "table", "die": "table"},
    ),
    ("advanced-4p-app-seed3", {"players": 4, "seed": 3}),
]
# An eager player acquires whenever it can, else gathers tokens: games end sooner (short
# transcripts) and reach Officer X and the end of the game.
GATHER = ("take", "rummage")


def eager_game(game, state, seed: int, limit: int = 2000):
    """The actions of an eager game from ``state``, and the state they lead to."""
    chooser = random.Random(seed)
    actions = []
    while state.phase != "over" and len(actions) < limit:
        legal = game.legal_actions(state)
        wanted = [a for a in legal if a.verb == "hq"] or [a for a in legal if a.verb in GATHER]
        action = chooser.choice(wanted or legal)
        state, _ = game.apply(state, action)
        actions.append(action)
    return actions, state


@pytest.mark.parametrize(("name", "options"), CASES)
def test_advanced_playthrough_matches_its_transcript(demo, name, options):
    game, s = new_advanced(demo, **options)
    actions, final = eager_game(game, s, options["seed"])
    assert final.phase == "over"
    text = playthrough(game, actions)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("TABLESIDE_REGENERATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
