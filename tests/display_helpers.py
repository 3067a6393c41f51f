"""Shared bytes and pictures for the display tests."""

from unittest.mock import Mock, call

from PIL import Image

# luma's ssd1306 (and ssd1309) initialisation, as it reaches the bus.
SSD1306_INIT = call.command(
    *bytes.fromhex(
        "AE"  # display off
        "D5 80"  # clock divide ratio and oscillator
        "A8 3F"  # multiplex: 64 rows
        "D3 00"  # no vertical offset
        "40"  # start line 0
        "8D 14"  # charge pump on
        "20 00"  # horizontal addressing mode
        "A1"  # column 127 drives SEG0
        "C8"  # scan COM outputs from the bottom
        "DA 12"  # COM pins: alternative configuration
        "D9 F1"  # pre-charge period
        "DB 40"  # VCOMH deselect level
        "A4"  # show the RAM, not all pixels on
        "A6"  # normal, not inverted
    )
)
# Column 0 to 127, page 0 to 7: the one burst before every ssd1306 frame.
SSD1306_WINDOW = call.command(0x21, 0, 127, 0x22, 0, 7)

CONTRAST = 0x81
DISPLAY_OFF = 0xAE
DISPLAY_ON = 0xAF


def mock_port() -> Mock:
    """A stand-in for luma's i2c/spi interface that records every call."""
    return Mock(spec=["command", "data", "cleanup"])


def blank() -> Image.Image:
    return Image.new("1", (128, 64))


def dots(*points: tuple[int, int]) -> Image.Image:
    image = blank()
    for point in points:
        image.putpixel(point, 1)
    return image


def ssd1306_bytes(lit: dict[int, int]) -> list[int]:
    """A 1024-byte ssd1306 frame: zero except the given index -> byte values."""
    frame = [0] * 1024
    for index, value in lit.items():
        frame[index] = value
    return frame
