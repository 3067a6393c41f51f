"""``build_display``: defaults from the reference wiring, and exact configuration errors."""

from unittest.mock import call, patch

import pytest
from display_helpers import CONTRAST, SSD1306_INIT, dots, mock_port
from luma.core.device import dummy
from luma.core.interface.serial import noop
from luma.oled.device import sh1106, ssd1306

from hw.display import DEFAULTS, FakeDisplay, build_display
from hw.errors import ConfigError

# build_display: defaults from the reference wiring, and exact errors.


def test_defaults_are_an_ssd1306_on_i2c_bus_1_at_0x3c():
    port = mock_port()
    with patch("hw.display.i2c", return_value=port) as opener:
        display = build_display({})

    opener.assert_called_once_with(port=1, address=0x3C)
    assert isinstance(display.device, ssd1306)
    assert display.where == "I2C bus 1 at 0x3C"
    assert port.mock_calls[0] == SSD1306_INIT
    assert port.mock_calls[-1] == call.command(CONTRAST, 255)


def test_spi_uses_the_reference_pins_and_4_mhz():
    port = mock_port()
    with patch("hw.display.spi", return_value=port) as opener:
        display = build_display({"driver": "sh1106", "interface": "spi", "rotate": 2})

    opener.assert_called_once_with(
        port=0, device=0, bus_speed_hz=4_000_000, gpio_DC=16, gpio_RST=20
    )
    assert isinstance(display.device, sh1106)
    assert display.device.rotate == 2
    assert display.where == "SPI port 0 device 0"


def test_dummy_is_luma_dummy_in_mode_1_on_a_noop_port():
    with patch("hw.display.noop", wraps=noop) as opener:
        display = build_display({"driver": "dummy", "contrast": 9})

    opener.assert_called_once_with()
    assert isinstance(display.device, dummy)
    display.show(dots((0, 0)))
    assert display.device.image.mode == "1"
    assert display.device.image.getpixel((0, 0)) == 255


def test_fake_driver_is_the_shipped_fake():
    display = build_display({"driver": "fake", "contrast": 9})

    assert isinstance(display, FakeDisplay)
    assert display.contrast_level == 9


ACCEPTED_KEYS = (
    "driver, interface, i2c_port, i2c_address, spi_port, spi_device, spi_speed_hz,"
    " gpio_dc, gpio_rst, rotate, contrast"
)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"driver": "ssd1305"},
            "display setting 'driver' must be one of"
            " 'ssd1306', 'sh1106', 'ssd1309', 'dummy', 'fake', not 'ssd1305'",
        ),
        (
            {"interface": "usb"},
            "display setting 'interface' must be one of 'i2c', 'spi', not 'usb'",
        ),
        ({"rotate": 1}, "display setting 'rotate' must be one of 0, 2, not 1"),
        ({"rotate": 0.0}, "display setting 'rotate' must be one of 0, 2, not 0.0"),
        (
            {"contrast": 256},
            "display setting 'contrast' must be an integer from 0 to 255, not 256",
        ),
        (
            {"i2c_address": "0x3C"},
            "display setting 'i2c_address' must be an integer from 0x08 to 0x77, not '0x3C'",
        ),
        (
            {"i2c_port": True},
            "display setting 'i2c_port' must be an integer from 0 to 255, not True",
        ),
        (
            {"spi_speed_hz": 10_000_000},
            "display setting 'spi_speed_hz' must be one of"
            " 500000, 1000000, 2000000, 4000000, 8000000, not 10000000",
        ),
        (
            {"gpio_rst": 40},
            "display setting 'gpio_rst' must be an integer from 0 to 27, not 40",
        ),
        (
            {"i2c_adress": 0x3D, "colour": "blue"},
            f"unknown display setting 'colour', 'i2c_adress'; accepted: {ACCEPTED_KEYS}",
        ),
    ],
)
def test_config_errors_name_the_key_and_the_accepted_values(settings, message):
    with pytest.raises(ConfigError) as refused:
        build_display(settings)

    assert str(refused.value) == message
    assert isinstance(refused.value, ValueError)


def test_defaults_follow_the_reference_wiring():
    assert DEFAULTS == {
        "driver": "ssd1306",
        "interface": "i2c",
        "i2c_port": 1,
        "i2c_address": 0x3C,
        "spi_port": 0,
        "spi_device": 0,
        "spi_speed_hz": 4_000_000,
        "gpio_dc": 16,
        "gpio_rst": 20,
        "rotate": 0,
        "contrast": 255,
    }
