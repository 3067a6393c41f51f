"""The only tests that need a real Raspberry Pi, with the parts wired as in wiring.md.

Each test is skipped unless its environment variable names the part to
check, so this file is harmless in the ordinary test run. On the Pi, from
the repository, as a user in the gpio, i2c, spi and dialout groups::

    TABLESIDE_HW_DISPLAY=ssd1306 .venv/bin/python -m pytest tests/test_real_hardware.py
    TABLESIDE_HW_BUTTON=ok .venv/bin/python -m pytest tests/test_real_hardware.py
    TABLESIDE_HW_READER=pn532-uart .venv/bin/python -m pytest tests/test_real_hardware.py

or all three variables at once. The variables:

- ``TABLESIDE_HW_DISPLAY``: the panel driver (``ssd1306``, ``sh1106``,
  ``ssd1309``); ``TABLESIDE_HW_DISPLAY_INTERFACE``: ``i2c`` (default) or
  ``spi``. The test draws a pattern and leaves it on the panel: a frame
  along the edges, "Tableside" at the top left, a checkerboard at the
  bottom right. A picture shifted sideways or garbled means the panel is
  of the other kind (an SH1106 driven as an SSD1306 or the reverse). On
  I2C the panel must acknowledge every byte, so a pass also proves it is
  wired; on SPI nothing answers, so look at it.
- ``TABLESIDE_HW_BUTTON``: a button name from the reference wiring (``ok``,
  ``red``, ...); press it when the test asks.
- ``TABLESIDE_HW_READER``: the reader driver (``pn532-uart``, ``rdm6300``,
  ``rc522-spi``); ``TABLESIDE_HW_READER_PORT`` overrides the serial port.
  Tap a tag on the reader when the test asks.
- ``TABLESIDE_HW_TIMEOUT``: seconds to wait for the press or the tag
  (default 30).
"""

import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

import pytest
from PIL import Image, ImageDraw

from hw.display import build_display
from hw.events import Press

Event = TypeVar("Event")

TICK = 0.01  # the daemon's main-loop period


def required(variable: str) -> str:
    value = os.environ.get(variable, "")
    if not value:
        pytest.skip(f"set {variable} to run this test on a Raspberry Pi")
    return value


def timeout() -> float:
    return float(os.environ.get("TABLESIDE_HW_TIMEOUT", "30"))


def tell(capsys: pytest.CaptureFixture[str], message: str) -> None:
    """Speak to the person at the Pi even while pytest captures output."""
    with capsys.disabled():
        print(f"\n>>> {message}", flush=True)


def wait_for(
    poll: Callable[[float], Sequence[Event]], wanted: Callable[[Event], bool], seconds: float
) -> Event | None:
    """Poll as the daemon's main loop does until ``wanted(event)``, or give up."""
    idle = threading.Event()  # never set: its timed wait paces the loop
    deadline = time.monotonic() + seconds
    while (now := time.monotonic()) < deadline:
        for event in poll(now):
            if wanted(event):
                return event
        idle.wait(TICK)
    return None


def pattern() -> Image.Image:
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 63), outline=1)
    draw.text((4, 4), "Tableside", fill=1)
    for x in range(96, 124, 4):
        for y in range(36, 60, 4):
            if (x + y) % 8 == 0:
                draw.rectangle((x, y, x + 3, y + 3), fill=1)
    return image


def test_real_display_shows_a_pattern() -> None:
    settings = {
        "driver": required("TABLESIDE_HW_DISPLAY"),
        "interface": os.environ.get("TABLESIDE_HW_DISPLAY_INTERFACE", "i2c"),
    }
    display = build_display(settings)
    try:
        assert display.fault is None, str(display.fault)
        display.contrast(255)
        assert display.show(pattern()) is True, str(display.fault)
        assert display.show(pattern()) is False
        display.sleep()
        display.wake()
        assert display.fault is None, str(display.fault)
    finally:
        display.close()  # the pattern stays up for a look


def test_real_button_press_arrives(capsys: pytest.CaptureFixture[str]) -> None:
    name = required("TABLESIDE_HW_BUTTON")
    from hw.buttons import build_buttons

    buttons = build_buttons({})
    try:
        assert name in buttons.names, f"{name!r} is not one of {buttons.names}"
        tell(capsys, f"Press the {name} button within {timeout():g} s")
        pressed = wait_for(
            buttons.poll, lambda e: e.name == name and e.kind is Press.PRESS, timeout()
        )
    finally:
        buttons.close()
    assert pressed is not None, f"no press of {name!r} within {timeout():g} s"


def test_real_reader_reads_a_tag(capsys: pytest.CaptureFixture[str]) -> None:
    settings = {"driver": required("TABLESIDE_HW_READER")}
    if port := os.environ.get("TABLESIDE_HW_READER_PORT"):
        settings["port"] = port
    from hw.rfid import build_reader

    reader = build_reader(settings)
    try:
        tell(capsys, f"Tap a tag on the {settings['driver']} reader within {timeout():g} s")
        tag = wait_for(reader.poll, lambda e: True, timeout())
    finally:
        reader.close()
    assert tag is not None, f"no tag read within {timeout():g} s"
    assert re.fullmatch(r"(?:[0-9A-F]{2})+", tag.uid), tag.uid
    tell(capsys, f"Read tag {tag.uid}")
