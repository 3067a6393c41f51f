"""The OLED display: luma's real drivers on a mock bus, the shared interface, faults, config.

Bytes are checked on luma.oled's own ``ssd1306`` and ``sh1106`` classes
talking to a ``Mock`` serial interface, the way luma.oled tests its drivers.
Time is a hand-moved clock, so backoff is checked exactly without waiting.
"""

import errno
import logging
from unittest.mock import Mock, call, patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError
from luma.core.interface.serial import i2c, noop
from luma.oled.device import sh1106, ssd1306, ssd1309
from PIL import Image, ImageDraw

from hw.display import (
    DEFAULTS,
    FakeDisplay,
    LumaDisplay,
    build_display,
)
from hw.errors import ConfigError, DeviceUnavailable

LOGGER = "tableside.hw.display"

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

# luma's sh1106 initialisation, as it reaches the bus.
SH1106_INIT = call.command(
    *bytes.fromhex(
        "AE"  # display off
        "20"  # an SSD1306 memory-mode byte the SH1106 ignores
        "10 B0"  # column high nibble 0, page 0
        "C8"  # scan COM outputs from the bottom
        "00 10"  # column 0
        "40"  # start line 0
        "A1"  # column 131 drives SEG0
        "A6"  # normal, not inverted
        "A8 3F"  # multiplex: 64 rows
        "A4"  # show the RAM, not all pixels on
        "D3 00"  # no vertical offset
        "D5 F0"  # clock divide ratio and oscillator
        "D9 22"  # pre-charge period
        "DA 12"  # COM pins: alternative configuration
        "DB 20"  # VCOMH deselect level
        "8D 14"  # the SSD1306 charge-pump command, which the SH1106 ignores
    )
)

CONTRAST = 0x81
DISPLAY_OFF = 0xAE
DISPLAY_ON = 0xAF


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


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


def luma_on_mock(driver: str = "ssd1306", **options) -> tuple[LumaDisplay, Mock]:
    port = mock_port()
    display = LumaDisplay(driver, lambda: port, where="mock bus", **options)
    return display, port


# luma's drivers on a mock serial interface: the exact bytes.


def test_ssd1306_initialisation_then_our_contrast():
    display, port = luma_on_mock(contrast=0x40)

    assert port.mock_calls == [
        SSD1306_INIT,
        call.command(CONTRAST, 0xCF),  # luma's own contrast
        SSD1306_WINDOW,  # luma clears the panel ...
        call.data([0] * 1024),  # ... with a blank frame
        call.command(DISPLAY_ON),
        call.command(CONTRAST, 0x40),  # then the contrast we asked for
    ]
    assert isinstance(display.device, ssd1306)
    assert display.fault is None


def test_ssd1306_frame_is_one_window_and_one_data_burst():
    display, port = luma_on_mock()
    port.reset_mock()

    assert display.show(dots((0, 0), (5, 9), (127, 63))) is True

    assert port.mock_calls == [
        SSD1306_WINDOW,
        # Byte = column x of page y // 8, bit y % 8.
        call.data(ssd1306_bytes({0: 0x01, 128 + 5: 0x02, 1023: 0x80})),
    ]


def test_identical_frame_sends_nothing_and_changed_frame_sends_again():
    display, port = luma_on_mock()
    display.show(dots((0, 0)))
    port.reset_mock()

    assert display.show(dots((0, 0))) is False
    assert port.mock_calls == []

    assert display.show(dots((1, 0))) is True
    assert port.mock_calls == [SSD1306_WINDOW, call.data(ssd1306_bytes({1: 0x01}))]


def test_an_image_drawn_on_in_place_is_seen_as_changed():
    display, port = luma_on_mock()
    image = blank()
    display.show(image)
    ImageDraw.Draw(image).point((2, 8), fill=1)
    port.reset_mock()

    assert display.show(image) is True
    assert port.mock_calls == [SSD1306_WINDOW, call.data(ssd1306_bytes({128 + 2: 0x01}))]


def test_ssd1306_contrast_sleep_and_wake_commands():
    display, port = luma_on_mock()
    port.reset_mock()

    display.contrast(0x10)
    display.sleep()
    display.wake()

    assert port.mock_calls == [
        call.command(CONTRAST, 0x10),
        call.command(DISPLAY_OFF),
        call.command(DISPLAY_ON),
    ]


def test_rotate_2_turns_the_picture_upside_down():
    display, port = luma_on_mock(rotate=2)
    port.reset_mock()

    display.show(dots((0, 0)))

    assert port.mock_calls == [SSD1306_WINDOW, call.data(ssd1306_bytes({1023: 0x80}))]


def test_ssd1309_uses_luma_ssd1309_with_the_ssd1306_commands():
    display, port = luma_on_mock("ssd1309")

    assert isinstance(display.device, ssd1309)
    assert port.mock_calls[0] == SSD1306_INIT


def sh1106_frame(pages: dict[int, list[int]]) -> list:
    """The eight sh1106 page bursts; pages not given are blank."""
    bursts = []
    for page in range(8):
        # Page `page`, column 2: the 128 visible columns of the 132-column RAM.
        bursts.append(call.command(0xB0 + page, 0x02, 0x10))
        bursts.append(call.data(pages.get(page, [0] * 128)))
    return bursts


def test_sh1106_initialisation_then_our_contrast():
    display, port = luma_on_mock("sh1106")

    assert port.mock_calls == [
        SH1106_INIT,
        call.command(CONTRAST, 0x7F),  # luma's own contrast
        *sh1106_frame({}),  # luma clears the panel
        call.command(DISPLAY_ON),
        call.command(CONTRAST, 0xFF),  # then ours, the default
    ]
    assert isinstance(display.device, sh1106)


def test_sh1106_frame_is_eight_page_bursts_and_skips_repeats():
    display, port = luma_on_mock("sh1106")
    port.reset_mock()

    assert display.show(dots((0, 0), (127, 63))) is True
    assert port.mock_calls == sh1106_frame({0: [1] + [0] * 127, 7: [0] * 127 + [0x80]})

    port.reset_mock()
    assert display.show(dots((0, 0), (127, 63))) is False
    assert port.mock_calls == []


# One interface, parametrised over a luma device and the shipped fake.


class DummyPanel:
    """``LumaDisplay`` on luma's dummy device, its commands going to a mock port."""

    def __init__(self) -> None:
        self.port = mock_port()
        self.display = LumaDisplay("dummy", lambda: self.port, where="dummy")

    def frame(self) -> Image.Image | None:
        return self.display.device.image

    def commands(self, *codes: int) -> list[tuple[int, ...]]:
        return [c.args for c in self.port.command.call_args_list if c.args[0] in codes]

    def contrast(self) -> int | None:
        return self.commands(CONTRAST)[-1][1]

    def asleep(self) -> bool:
        return self.commands(DISPLAY_OFF, DISPLAY_ON)[-1:] == [(DISPLAY_OFF,)]


class FakePanel:
    """``FakeDisplay``, read through its own attributes."""

    def __init__(self) -> None:
        self.display = FakeDisplay()

    def frame(self) -> Image.Image | None:
        return self.display.last_image

    def contrast(self) -> int | None:
        return self.display.contrast_level

    def asleep(self) -> bool:
        return self.display.asleep


@pytest.fixture(params=[DummyPanel, FakePanel], ids=["luma-dummy", "fake"])
def panel(request):
    return request.param()


def test_size_is_the_panel_resolution(panel):
    assert panel.display.size == (128, 64)


def test_show_sends_changed_frames_only(panel):
    first, second = dots((3, 4)), dots((100, 60))

    assert panel.display.show(first) is True
    assert panel.frame().tobytes() == first.tobytes()
    assert panel.display.show(first.copy()) is False
    assert panel.display.show(second) is True
    assert panel.frame().tobytes() == second.tobytes()


@pytest.mark.parametrize(
    ("image", "message"),
    [
        (
            Image.new("L", (128, 64)),
            "the display takes a mode '1' image of 128x64 pixels, not a mode 'L' image of 128x64",
        ),
        (
            Image.new("1", (64, 128)),
            "the display takes a mode '1' image of 128x64 pixels, not a mode '1' image of 64x128",
        ),
    ],
)
def test_show_refuses_other_modes_and_sizes(panel, image, message):
    panel.display.show(dots((1, 1)))

    with pytest.raises(ValueError) as refused:
        panel.display.show(image)

    assert str(refused.value) == message
    assert panel.frame().tobytes() == dots((1, 1)).tobytes()


def test_contrast_starts_at_the_setting_and_follows_calls(panel):
    assert panel.contrast() == 255

    panel.display.contrast(0)

    assert panel.contrast() == 0


@pytest.mark.parametrize("level", [-1, 256, 1.5, True])
def test_contrast_out_of_range_is_refused(panel, level):
    with pytest.raises(ValueError) as refused:
        panel.display.contrast(level)

    assert str(refused.value) == f"contrast must be an integer from 0 to 255, not {level!r}"
    assert panel.contrast() == 255


def test_sleep_and_wake_and_a_sleeping_panel_still_takes_frames(panel):
    panel.display.sleep()
    assert panel.asleep() is True

    assert panel.display.show(dots((9, 9))) is True
    assert panel.frame().tobytes() == dots((9, 9)).tobytes()

    panel.display.wake()
    assert panel.asleep() is False


def test_closed_display_refuses_use_and_closes_once(panel):
    panel.display.close()
    panel.display.close()

    assert panel.display.closed is True
    with pytest.raises(ValueError, match="is closed$"):
        panel.display.show(blank())
    with pytest.raises(ValueError, match="is closed$"):
        panel.display.sleep()


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from([(0, 0), (64, 32), (127, 63)]), max_size=12))
def test_show_sends_exactly_when_the_picture_differs_from_the_last_sent(points):
    display = FakeDisplay()
    last = None
    for point in points:
        sent = display.show(dots(point))
        assert sent == (point != last)
        last = point
    kept = [p for i, p in enumerate(points) if i == 0 or points[i - 1] != p]
    assert [frame.tobytes() for frame in display.frames] == [dots(p).tobytes() for p in kept]


# Closing: the panel keeps its last frame unless told to blank.


def test_close_keeps_the_last_frame_and_releases_the_bus():
    display, port = luma_on_mock()
    display.show(dots((0, 0)))
    port.reset_mock()

    display.close()

    assert port.mock_calls == [call.cleanup()]
    assert display.device.persist is True  # luma's exit hook will not blank it either


def test_close_blank_switches_off_and_clears_before_releasing():
    display, port = luma_on_mock()
    display.show(dots((0, 0)))
    port.reset_mock()

    display.close(blank=True)

    assert port.mock_calls == [
        call.command(DISPLAY_OFF),
        SSD1306_WINDOW,
        call.data([0] * 1024),
        call.cleanup(),
    ]


def test_fake_close_blank_leaves_a_dark_blank_panel():
    display = FakeDisplay()
    display.show(dots((0, 0)))

    display.close(blank=True)

    assert display.last_image.tobytes() == blank().tobytes()
    assert display.asleep is True


def test_the_luma_device_cannot_reach_a_closed_bus():
    display, port = luma_on_mock()
    display.close()

    with pytest.raises(DeviceUnavailable, match="^the bus is closed$"):
        display.device.contrast(1)


# Faults: a wire comes loose and is put back.


def display_log(caplog) -> list[tuple[str, str]]:
    return [(r.levelname, r.getMessage()) for r in caplog.records if r.name == LOGGER]


class Wire:
    """Opens mock ports; while unplugged they fail the way luma's i2c does.

    The first transfer on a pulled wire raises ``OSError`` errno 121, as
    smbus2 does; once unplugged, a re-opened port's commands raise luma's
    ``DeviceNotFoundError``, as luma's i2c does for an address that does
    not answer.
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.ports: list[Mock] = []
        self.opened_at: list[float] = []
        self.plugged = True

    def open(self) -> Mock:
        port = mock_port()
        if not self.plugged:
            port.command.side_effect = DeviceNotFoundError("I2C device not found on address: 0x3C")
        self.ports.append(port)
        self.opened_at.append(self.clock())
        return port

    def pull(self) -> None:
        self.plugged = False
        pulled = OSError(errno.EREMOTEIO, "Remote I/O error")
        self.ports[-1].command.side_effect = pulled
        self.ports[-1].data.side_effect = pulled


def test_lost_panel_is_retried_with_backoff_and_restored(caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    clock = Clock(0.0)
    wire = Wire(clock)
    display = LumaDisplay("ssd1306", wire.open, where="I2C bus 1 at 0x3C", clock=clock)
    display.show(dots((0, 0)))

    clock.now = 10.0
    wire.pull()
    assert display.show(dots((1, 0))) is False
    display.contrast(40)
    display.sleep()
    assert display.fault is not None
    assert str(display.fault) == (
        "display on I2C bus 1 at 0x3C unavailable: [Errno 121] Remote I/O error"
    )

    while clock.now < 102.0:  # a 10 ms tick would do the same, only slower
        clock.now += 0.25
        assert display.show(dots((1, 0))) is False

    # 0.5 s after the failure, then each wait doubles, up to 30 s.
    assert wire.opened_at[1:] == [10.5, 11.5, 13.5, 17.5, 25.5, 41.5, 71.5, 101.5]
    assert all(port.cleanup.called for port in wire.ports[:-1])

    wire.plugged = True
    clock.now = 131.25
    assert display.show(dots((1, 0))) is False  # not due until 131.5
    clock.now = 131.5
    assert display.show(dots((1, 0))) is True

    fresh = wire.ports[-1]
    assert fresh.mock_calls == [
        SSD1306_INIT,
        call.command(CONTRAST, 0xCF),
        SSD1306_WINDOW,
        call.data([0] * 1024),
        call.command(DISPLAY_ON),
        # luma's initialisation again, then what was wanted meanwhile:
        call.command(CONTRAST, 40),
        SSD1306_WINDOW,
        call.data(ssd1306_bytes({1: 0x01})),
        call.command(DISPLAY_OFF),
    ]
    assert display.fault is None
    assert display.show(dots((1, 0))) is False
    assert display_log(caplog) == [
        ("WARNING", "display on I2C bus 1 at 0x3C unavailable: [Errno 121] Remote I/O error"),
        ("INFO", "display back on I2C bus 1 at 0x3C"),
    ]


def test_panel_absent_at_start_does_not_raise_and_is_picked_up(caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    clock = Clock(0.0)
    opener = Mock(side_effect=DeviceNotFoundError("I2C device not found: /dev/i2c-1"))

    display = LumaDisplay("ssd1306", opener, where="I2C bus 1 at 0x3C", clock=clock)

    assert str(display.fault) == (
        "display on I2C bus 1 at 0x3C unavailable: I2C device not found: /dev/i2c-1"
    )
    assert display.show(dots((0, 0))) is False

    port = mock_port()
    opener.side_effect = None
    opener.return_value = port
    clock.now = 0.5
    assert display.show(dots((0, 0))) is True
    assert port.mock_calls[0] == SSD1306_INIT
    assert port.mock_calls[-1] == call.data(ssd1306_bytes({0: 0x01}))
    assert display_log(caplog) == [
        ("WARNING", "display on I2C bus 1 at 0x3C unavailable: I2C device not found: /dev/i2c-1"),
        ("INFO", "display back on I2C bus 1 at 0x3C"),
    ]


def test_luma_i2c_translates_a_silent_address_and_we_name_the_bus():
    smbus = Mock(spec=["write_i2c_block_data"])
    smbus.write_i2c_block_data.side_effect = OSError(errno.EREMOTEIO, "Remote I/O error")

    display = LumaDisplay(
        "ssd1306", lambda: i2c(bus=smbus, address=0x3C), where="I2C bus 1 at 0x3C"
    )

    assert isinstance(display.fault, DeviceUnavailable)
    assert str(display.fault) == (
        "display on I2C bus 1 at 0x3C unavailable: I2C device not found on address: 0x3C"
    )


def test_fake_unplug_and_plug_run_the_same_recovery(caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    clock = Clock(0.0)
    display = FakeDisplay(contrast=100, clock=clock)
    display.show(dots((0, 0)))

    display.unplug()
    assert display.show(dots((5, 5))) is False
    display.sleep()
    clock.now = 0.4
    display.plug()
    assert display.show(dots((5, 5))) is False  # the retry is not due yet

    clock.now = 0.5
    assert display.show(dots((5, 5))) is True
    assert display.last_image.tobytes() == dots((5, 5)).tobytes()
    assert (display.contrast_level, display.asleep) == (100, True)
    assert display_log(caplog) == [
        ("WARNING", "display on fake panel unavailable: [Errno 121] Remote I/O error"),
        ("INFO", "display back on fake panel"),
    ]


def test_fake_absent_at_start_is_picked_up():
    clock = Clock(0.0)
    display = FakeDisplay(plugged=False, clock=clock)
    assert display.fault is not None

    display.plug()
    clock.now = 0.5
    display.contrast(7)

    assert display.fault is None
    assert display.contrast_level == 7
    assert display.frames == []


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
