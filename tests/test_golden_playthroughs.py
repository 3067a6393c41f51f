"""Whole games as text, compared with the transcripts kept in tests/golden.

Regenerate on purpose, then read the diff before committing it:
``TABLESIDE_REGENERATE_GOLDEN=1 pytest tests/test_golden_playthroughs.py``
"""

import os
from pathlib import Path

import pytest
from family_helpers import new_game, random_playout

from rules.pingwiny.transcript import playthrough

GOLDEN = Path(__file__).parent / "golden" / "playthroughs"
CASES = [
    ("family-2p-app-seed1", {"players": 2, "seed": 1}),
    ("family-3p-short-seed2", {"players": 3, "seed": 2, "short": True}),
    ("family-2p-table-seed3", {"players": 2, "seed": 3, "bag": "table", "deck": "table"}),
]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_playthrough_matches_its_transcript(demo, name, options):
    game, s = new_game(demo, **options)
    actions = [action for _, action, _ in random_playout(game, s, options["seed"], eager=True)]
    text = playthrough(game, actions)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("TABLESIDE_REGENERATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
