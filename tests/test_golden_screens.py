"""Key screens in both languages, pixel for pixel against reference PNGs.

Regenerate on purpose, then look at the pictures before committing them:
``TABLESIDE_REGENERATE_GOLDEN=1 pytest tests/test_golden_screens.py``
"""

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from screen_helpers import choose

from firmware_app.runners.autopilot import new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.ui.screens import Notice

GOLDEN = Path(__file__).parent / "golden" / "screens"


def screens(sim: Headless):
    """Walk from switching on to the end of a first visit; name each key screen."""
    yield "start"
    for line in new_game_script(3)[:3]:
        sim.command(line)
    yield "players"
    for line in new_game_script(3)[3:]:
        sim.command(line)
    sim.press("ok")
    yield "setup-penguins"
    while isinstance(sim.app.top, Notice):
        sim.press("ok")
    yield "turn-draw"
    sim.press("ok")
    yield "drawn"  # the turn menu: the tokens drawn above the first visit
    sim.press("down")
    yield "turn-visit"
    name = sim.app.t.name("gastro")
    gastro = [i for i, item in enumerate(sim.app.top.items) if name in item.label]
    sim.press("down", gastro[0] - sim.app.top.cursor)
    sim.press("ok")
    yield "gastro-exchanges"
    sim.press("down")
    sim.press("ok")
    yield "gastro-get"
    sim.press("back")
    sim.press("back")
    choose(sim, sim.app.t("Why not …"))
    yield "why-not"
    sim.press("back")
    sim.app.act("visit hq nobody")
    yield "refusal"
    sim.press("ok")
    choose(sim, sim.app.t("More …"))
    yield "more"
    choose(sim, sim.app.t("Score so far"))
    yield "score-so-far"


@pytest.mark.parametrize("language", ["en", "pl"])
def test_key_screens_match_their_pictures(tmp_path, language):
    sim = Headless(tmp_path, language=language, seed=7)
    try:
        for name in screens(sim):
            image = sim.app.render().image
            path = GOLDEN / f"{name}-{language}.png"
            if os.environ.get("TABLESIDE_REGENERATE_GOLDEN"):
                GOLDEN.mkdir(parents=True, exist_ok=True)
                image.save(path)
            expected = Image.open(path).convert("1")
            diff = ImageChops.difference(image.convert("L"), expected.convert("L")).getbbox()
            assert diff is None, f"{path.name} differs in {diff}"
    finally:
        sim.close()
