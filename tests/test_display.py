"""The OLED display: luma's real drivers on a mock bus, the shared interface, closing.

Bytes are checked on luma.oled's own ``ssd1306`` and ``sh1106`` classes
talking to a ``Mock`` serial interface, the way luma.oled tests its drivers.
"""

from unittest.mock import Mock, call

import pytest
from display_helpers import (
    CONTRAST,
    DISPLAY_OFF,
    DISPLAY_ON,
    SSD1306_INIT,
    SSD1306_WINDOW,
    blank,
    dots,
    mock_port,
    ssd1306_bytes,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.oled.device import sh1106, ssd1306, ssd1309
from PIL import Image, ImageDraw

from hw.display import FakeDisplay, LumaDisplay
from hw.errors import DeviceUnavailable

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
    display.close(blank=True)  # closing twice does nothing, blank or not

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
