"""The 128x64 OLED: redraw only when the picture changed, and survive a loose wire.

luma's ``ssd1306`` and ``sh1106`` drivers send the whole 1 KiB frame on every
``display()`` (about 24 ms on I2C at 400 kHz on a Pi), so ``show`` compares
the picture's bytes with the last frame the panel actually received and skips
identical ones.

A panel that stops answering never stops the daemon. No call raises for it:
the first failure is logged once, the wanted contrast, power state and
picture are kept, and later calls retry with exponential backoff. When the
panel answers again it is initialised afresh, given back that state, and one
"display back" line is logged. A panel absent at start is handled the same
way, so it is picked up whenever it appears.

What the panel shows after the daemon stops is decided here, not by luma.
luma's exit hook would clear the panel and switch it off, which leaves a
family looking at a dark box with no idea whether it is safe to unplug. So
every luma device is built with ``persist = True``, and ``close`` chooses:
by default the last frame stays, so the daemon draws a "stopped" frame and
then closes, and that frame remains while the panel has power (on most Pis
the 3.3 V rail stays up after a halt). ``close(blank=True)`` clears the
panel and switches it off, for when a static picture would otherwise sit on
the OLED for days and wear it.
"""

import errno
import logging
import os
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

from PIL import Image

from hw.errors import INSTALL_SPI, ConfigError, DeviceUnavailable

log = logging.getLogger("tableside.hw.display")

SIZE = (128, 64)

# Backoff between reconnection attempts: the first retry comes soon, because
# a wire that was only jostled answers again at once; a panel that is really
# gone costs one attempt every half minute.
FIRST_RETRY = 0.5
MAX_RETRY = 30.0

Clock = Callable[[], float]


class Port(Protocol):
    """What luma's drivers talk through: luma.core's ``i2c``, ``spi`` or ``noop``."""

    def command(self, *cmd: int) -> None: ...

    def data(self, data: Sequence[int]) -> None: ...

    def cleanup(self) -> None: ...


class Display(ABC):
    """A 128x64 one-bit panel; owns frame skipping and recovery for every driver.

    A subclass only talks to its panel (``_open``, ``_send``,
    ``_set_contrast``, ``_set_awake``, ``_blank``, ``_release``) and lets
    its library's errors (``_failures``) fly. This class catches them,
    remembers what the panel should show, and puts it back after a
    reconnection, so the real drivers and the fake recover by the same code.
    A subclass sets up its own attributes first and calls ``super().__init__``
    last, because that connects to the panel.
    """

    size: tuple[int, int] = SIZE
    #: What the driver's library raises when the panel does not answer.
    _failures: tuple[type[Exception], ...] = (OSError,)

    def __init__(self, where: str, *, contrast: int = 255, clock: Clock = time.monotonic) -> None:
        _check_contrast(contrast)
        self.where = where
        self._clock = clock
        self._contrast = contrast
        self._asleep = False
        self._wanted: bytes | None = None  # the picture the daemon last asked for
        self._sent: bytes | None = None  # the frame the panel holds, when known
        self._fault: DeviceUnavailable | None = None
        self._delay = FIRST_RETRY
        self._retry_at = 0.0
        self._closed = False
        self._try(self._connect)

    @property
    def fault(self) -> DeviceUnavailable | None:
        """Why the panel is not answering, or ``None`` while it is."""
        return self._fault

    @property
    def closed(self) -> bool:
        """Whether ``close`` has been called."""
        return self._closed

    def show(self, image: Image.Image) -> bool:
        """Put ``image`` on the panel; return whether a frame was actually sent.

        Nothing is sent when the image equals the last frame sent, or while
        the panel is unreachable (the image is kept and sent when it is back).
        An unchanged image costs only a 1 KiB comparison, and each call also
        gives a lost panel its chance to reconnect, so calling this every
        tick with the current picture is cheap and keeps recovery prompt.
        """
        self._refuse_if_closed()
        _check_image(image)
        data = image.tobytes()
        if data == self._sent:
            return False
        self._wanted = data
        return self._apply(partial(self._put, data))

    def contrast(self, level: int) -> None:
        """Set the brightness, 0 to 255 (a lost panel gets it when it is back)."""
        self._refuse_if_closed()
        _check_contrast(level)
        self._contrast = level
        self._apply(partial(self._set_contrast, level))

    def sleep(self) -> None:
        """Switch the panel off; it keeps its picture and still takes new ones."""
        self._refuse_if_closed()
        self._asleep = True
        self._apply(partial(self._set_awake, False))

    def wake(self) -> None:
        """Switch the panel back on, showing the latest picture."""
        self._refuse_if_closed()
        self._asleep = False
        self._apply(partial(self._set_awake, True))

    def close(self, blank: bool = False) -> None:
        """Let go of the bus. The panel keeps its last frame unless ``blank``.

        ``blank=True`` clears the panel and switches it off first (see the
        module docstring for when to choose which). Closing twice does nothing.
        """
        if self._closed:
            return
        self._closed = True
        if blank and self._fault is None:
            self._try(self._blank)
        self._try(self._release)

    # The panel-specific part, raising one of ``_failures`` when it fails.

    @abstractmethod
    def _open(self) -> None:
        """Connect and initialise the panel: awake, blank, its own contrast."""

    @abstractmethod
    def _send(self, image: Image.Image) -> None:
        """Send one whole frame."""

    @abstractmethod
    def _set_contrast(self, level: int) -> None:
        """Send the contrast command."""

    @abstractmethod
    def _set_awake(self, awake: bool) -> None:
        """Send display on (``True``) or display off (``False``)."""

    @abstractmethod
    def _blank(self) -> None:
        """Clear the panel and switch it off."""

    @abstractmethod
    def _release(self) -> None:
        """Let go of the bus."""

    # Shared bookkeeping.

    def _refuse_if_closed(self) -> None:
        if self._closed:
            raise ValueError(f"the display on {self.where} is closed")

    def _put(self, data: bytes) -> None:
        self._send(Image.frombytes("1", SIZE, data))
        self._sent = data

    def _connect(self) -> None:
        """Open the panel afresh, then give it back contrast, picture and power."""
        self._open()
        self._set_contrast(self._contrast)
        if self._wanted is not None:
            self._put(self._wanted)
        if self._asleep:
            self._set_awake(False)

    def _apply(self, action: Callable[[], None]) -> bool:
        """Run ``action`` on a live panel, or give a lost one its due retry.

        A successful retry restores everything wanted, ``action``'s effect
        included. Returns whether the panel was reached.
        """
        if self._fault is None:
            return self._try(action)
        if self._clock() < self._retry_at or not self._try(self._connect):
            return False
        self._fault = None
        log.info("display back on %s", self.where)
        return True

    def _try(self, action: Callable[[], None]) -> bool:
        try:
            action()
        except self._failures as exc:
            self._lost(DeviceUnavailable(f"display on {self.where} unavailable: {exc}"))
            return False
        return True

    def _lost(self, fault: DeviceUnavailable) -> None:
        """Record a failure: log the first one, and push the next retry back."""
        if self._fault is None:
            log.warning("%s", fault)
            self._delay = FIRST_RETRY
        else:
            self._delay = min(self._delay * 2, MAX_RETRY)
        self._fault = fault
        self._sent = None
        self._retry_at = self._clock() + self._delay


class _Link:
    """The serial interface a luma device is built on: a port that can be re-opened.

    luma's drivers send their initialisation sequence from their constructor,
    and every constructor registers an exit hook that keeps the device alive
    for the life of the process. Building a fresh device on each reconnection
    would pile up hooks and dead devices during a long outage. So the device
    is built once, on this link, which records what the constructor sends;
    every ``open`` then makes a fresh port and replays that record on it.
    """

    def __init__(self, open_port: Callable[[], Port]) -> None:
        self._open_port = open_port
        self._port: Port | None = None
        self._recording = True
        self._setup: list[tuple[str, tuple[Any, ...]]] = []

    def command(self, *cmd: int) -> None:
        self._write("command", cmd)

    def data(self, data: Sequence[int]) -> None:
        self._write("data", (data,))

    def cleanup(self) -> None:
        """Called by luma's exit hook: let go of the bus, leave the panel as it is."""
        self.close()

    def open(self) -> None:
        """Open a fresh port and send it the device's initialisation."""
        self.close()
        self._recording = False
        self._port = self._open_port()
        for method, args in self._setup:
            self._write(method, args)

    def close(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            port.cleanup()

    def _write(self, method: str, args: tuple[Any, ...]) -> None:
        if self._recording:
            self._setup.append((method, args))
        elif self._port is None:
            raise DeviceUnavailable("the bus is closed")
        else:
            getattr(self._port, method)(*args)


# luma is imported when a luma panel is built, not when this module is: the
# fake panel, the configuration checks and the daemon's first frame need none
# of it, and on a Zero 2 W the import would delay that first frame.
LUMA_DRIVERS = ("ssd1306", "sh1106", "ssd1309", "dummy")


def _luma_device(driver: str) -> Callable[..., Any]:
    """luma's device class for ``driver``, one of ``LUMA_DRIVERS``."""
    from luma.core.device import dummy
    from luma.oled.device import sh1106, ssd1306, ssd1309

    if driver == "dummy":
        return partial(dummy, mode="1")
    return {"ssd1306": ssd1306, "sh1106": sh1106, "ssd1309": ssd1309}[driver]


def i2c(**options: Any) -> Port:
    """luma's ``i2c`` interface (imported on first use, see ``LUMA_DRIVERS``)."""
    from luma.core.interface.serial import i2c as luma_i2c

    return luma_i2c(**options)


def spi(**options: Any) -> Port:
    """luma's ``spi`` interface (imported on first use, see ``LUMA_DRIVERS``)."""
    from luma.core.interface.serial import spi as luma_spi

    try:
        return luma_spi(**options)
    except ImportError as error:  # spidev or RPi.GPIO: reported like an absent panel
        needs = f"an SPI panel needs spidev and RPi.GPIO: {INSTALL_SPI}"
        raise ImportError(f"{error}; {needs}") from error
    except Exception as error:
        # rpi-lgpio's RPi.GPIO raises lgpio's own error, no OSError, when the
        # GPIO chip for the DC and RST lines cannot be opened.
        lgpio = sys.modules.get("lgpio")
        if lgpio is None or not isinstance(error, lgpio.error):
            raise
        raise OSError(errno.ENODEV, f"the DC and RST lines: {error}") from error


def noop() -> Port:
    """luma's ``noop`` interface, for its dummy device (imported on first use)."""
    from luma.core.interface.serial import noop as luma_noop

    return luma_noop()


# The screens are drawn for a landscape panel; 2 turns the picture upside
# down for a panel mounted that way (1 and 3 would make it 64x128).
ROTATIONS = (0, 2)


class LumaDisplay(Display):
    """A panel driven by luma.oled's ``ssd1306``, ``sh1106`` or ``ssd1309``, or luma's ``dummy``.

    ``open_port`` makes a fresh luma serial interface (``i2c``, ``spi``,
    ``noop``, or a mock in tests); it is called at start and on every
    reconnection. ``where`` names the bus and address in messages.
    ``device`` is the luma device; the dummy keeps its last frame in
    ``device.image``.
    """

    def __init__(
        self,
        driver: str,
        open_port: Callable[[], Port],
        *,
        where: str,
        rotate: int = 0,
        contrast: int = 255,
        clock: Clock = time.monotonic,
    ) -> None:
        from luma.core.error import Error as LumaError  # not at the top: see LUMA_DRIVERS

        self._failures = (
            OSError,
            LumaError,
            # luma imports smbus2, spidev and RPi.GPIO when a port is opened: a
            # missing one is reported like an absent panel, so the daemon still
            # starts and its log says why the panel stays dark.
            ImportError,
        )
        make = _luma_device(_choice("driver", driver, LUMA_DRIVERS))
        self._link = _Link(open_port)
        self.device = make(
            serial_interface=self._link,
            width=SIZE[0],
            height=SIZE[1],
            rotate=_choice("rotate", rotate, ROTATIONS),
        )
        self.device.persist = True  # luma's exit hook must not blank the panel
        super().__init__(where, contrast=contrast, clock=clock)

    def _open(self) -> None:
        self._link.open()

    def _send(self, image: Image.Image) -> None:
        self.device.display(image)

    def _set_contrast(self, level: int) -> None:
        self.device.contrast(level)

    def _set_awake(self, awake: bool) -> None:
        if awake:
            self.device.show()
        else:
            self.device.hide()

    def _blank(self) -> None:
        self.device.hide()
        self.device.clear()

    def _release(self) -> None:
        self._link.close()


class FakeDisplay(Display):
    """The shipped fake panel: what it was sent, and a wire to pull.

    ``frames`` lists every image the panel received and ``last_image`` is
    the latest; ``contrast_level`` and ``asleep`` are the panel's own state
    (a ``None`` contrast is the panel's power-on level). ``unplug()`` makes
    every transfer raise ``OSError`` errno 121, as the I2C bus does when a
    panel stops answering, so the shared recovery code runs; ``plug()``
    puts the wire back.
    """

    def __init__(
        self, *, plugged: bool = True, contrast: int = 255, clock: Clock = time.monotonic
    ) -> None:
        self.frames: list[Image.Image] = []
        self.contrast_level: int | None = None
        self.asleep = False
        self._plugged = plugged
        super().__init__("fake panel", contrast=contrast, clock=clock)

    @property
    def last_image(self) -> Image.Image | None:
        return self.frames[-1] if self.frames else None

    def unplug(self) -> None:
        self._plugged = False

    def plug(self) -> None:
        self._plugged = True

    def _wire(self) -> None:
        if not self._plugged:
            raise OSError(errno.EREMOTEIO, os.strerror(errno.EREMOTEIO))

    def _open(self) -> None:
        self._wire()
        self.contrast_level = None
        self.asleep = False

    def _send(self, image: Image.Image) -> None:
        self._wire()
        self.frames.append(image)

    def _set_contrast(self, level: int) -> None:
        self._wire()
        self.contrast_level = level

    def _set_awake(self, awake: bool) -> None:
        self._wire()
        self.asleep = not awake

    def _blank(self) -> None:
        self._wire()
        self.frames.append(Image.new("1", SIZE))
        self.asleep = True

    def _release(self) -> None:
        """A fake panel has no bus to let go of."""


DRIVERS = ("ssd1306", "sh1106", "ssd1309", "dummy", "fake")
INTERFACES = ("i2c", "spi")
# Speeds luma's spi() accepts, up to what these panels are specified for.
SPI_SPEEDS = (500_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000)

DEFAULTS: Mapping[str, Any] = {
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


def build_display(settings: Mapping[str, Any], *, clock: Clock = time.monotonic) -> Display:
    """Build the display described by the ``[display]`` table of the configuration.

    Keys and defaults are ``DEFAULTS`` (the reference wiring). ``spi_speed_hz``
    defaults to 4 MHz because the SH1106 is specified to 4 MHz while luma's
    default is 8 MHz. The I2C bus speed is not a setting here: the kernel sets
    it, from ``dtparam=i2c_arm=on,i2c_baudrate=400000`` in
    /boot/firmware/config.txt (the Pi's default 100 kHz takes about 95 ms a
    frame, 400 kHz about 24 ms). An absent panel does not raise: see
    ``Display``. Unknown keys or values raise ``ConfigError``.
    """
    unknown = sorted(set(settings) - set(DEFAULTS))
    if unknown:
        names = ", ".join(repr(name) for name in unknown)
        raise ConfigError(f"unknown display setting {names}; accepted: {', '.join(DEFAULTS)}")
    given = {**DEFAULTS, **settings}
    driver = _choice("driver", given["driver"], DRIVERS)
    interface = _choice("interface", given["interface"], INTERFACES)
    rotate = _choice("rotate", given["rotate"], ROTATIONS)
    contrast = _integer("contrast", given["contrast"], range(256))
    i2c_port = _integer("i2c_port", given["i2c_port"], range(256))
    address = _integer("i2c_address", given["i2c_address"], range(0x08, 0x78), "0x{:02X}")
    spi_port = _integer("spi_port", given["spi_port"], range(256))
    spi_device = _integer("spi_device", given["spi_device"], range(256))
    speed = _choice("spi_speed_hz", given["spi_speed_hz"], SPI_SPEEDS)
    gpio_dc = _integer("gpio_dc", given["gpio_dc"], range(28))
    gpio_rst = _integer("gpio_rst", given["gpio_rst"], range(28))

    if driver == "fake":
        return FakeDisplay(contrast=contrast, clock=clock)
    if driver == "dummy":
        open_port, where = noop, "luma dummy device"
    elif interface == "i2c":
        open_port = partial(i2c, port=i2c_port, address=address)
        where = f"I2C bus {i2c_port} at 0x{address:02X}"
    else:
        open_port = partial(
            spi,
            port=spi_port,
            device=spi_device,
            bus_speed_hz=speed,
            gpio_DC=gpio_dc,
            gpio_RST=gpio_rst,
        )
        where = f"SPI port {spi_port} device {spi_device}"
    return LumaDisplay(
        driver, open_port, where=where, rotate=rotate, contrast=contrast, clock=clock
    )


def _choice(key: str, value: Any, accepted: Sequence[Any]) -> Any:
    # Compare types too: 0.0 == 0 and True == 1, but neither is a valid setting.
    if not any(type(value) is type(good) and value == good for good in accepted):
        listed = ", ".join(repr(good) for good in accepted)
        raise ConfigError(f"display setting {key!r} must be one of {listed}, not {value!r}")
    return value


def _integer(key: str, value: Any, accepted: range, shown: str = "{}") -> int:
    if type(value) is not int or value not in accepted:
        low, high = shown.format(accepted[0]), shown.format(accepted[-1])
        raise ConfigError(
            f"display setting {key!r} must be an integer from {low} to {high}, not {value!r}"
        )
    return value


def _check_image(image: Image.Image) -> None:
    if image.mode != "1" or image.size != SIZE:
        width, height = image.size
        raise ValueError(
            "the display takes a mode '1' image of 128x64 pixels,"
            f" not a mode {image.mode!r} image of {width}x{height}"
        )


def _check_contrast(level: int) -> None:
    if type(level) is not int or not 0 <= level <= 255:
        raise ValueError(f"contrast must be an integer from 0 to 255, not {level!r}")
