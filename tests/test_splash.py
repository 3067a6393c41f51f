"""The ready-made first frame is the one the pixel font draws."""

import os

from firmware_app.runners.splash import SPLASH, draw_splash, splash


def test_the_splash_bytes_are_what_the_font_draws():
    drawn = draw_splash()
    if os.environ.get("TABLESIDE_REGENERATE_GOLDEN"):
        SPLASH.write_bytes(drawn.tobytes())
    assert splash().tobytes() == drawn.tobytes()
