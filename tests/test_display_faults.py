"""The OLED display's faults: a wire comes loose and is put back, on a hand-moved clock."""

import errno
import logging
from unittest.mock import Mock, call

from display_helpers import (
    CONTRAST,
    DISPLAY_OFF,
    DISPLAY_ON,
    SSD1306_INIT,
    SSD1306_WINDOW,
    dots,
    mock_port,
    ssd1306_bytes,
)
from luma.core.error import DeviceNotFoundError
from luma.core.interface.serial import i2c

from hw.display import FakeDisplay, LumaDisplay
from hw.errors import DeviceUnavailable

LOGGER = "tableside.hw.display"


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


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
