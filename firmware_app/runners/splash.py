"""The first frame, ready-made: the panel shows it before anything else is loaded.

It is the start screen's title bar with "…" under it, drawn once with the
pixel font and kept as the panel's 1 KiB of bytes in ``splash.bin``, so
showing it costs a file read instead of parsing a font (tens of
milliseconds on a Zero 2 W). ``tests/test_splash.py`` checks the bytes are
what the font draws today and rewrites them on purpose with
``TABLESIDE_REGENERATE_GOLDEN=1``.
"""

from pathlib import Path

from PIL import Image

SPLASH = Path(__file__).with_name("splash.bin")
SIZE = (128, 64)


def splash() -> Image.Image:
    return Image.frombytes("1", SIZE, SPLASH.read_bytes())


def draw_splash() -> Image.Image:
    """The splash as the font draws it (the source of ``splash.bin``)."""
    from firmware_app.ui.canvas import Canvas

    canvas = Canvas()
    canvas.title("Tableside")
    canvas.paragraph("…")
    return canvas.image
