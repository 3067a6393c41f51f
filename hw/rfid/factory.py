"""``build_reader``: the reader named by the ``[rfid]`` table of the configuration.

Every setting is checked before anything is opened, and a wrong one raises
``ConfigError`` naming the key and what it accepts. A serial port that is
missing is not a configuration error: the reader keeps retrying it, so a
USB adapter plugged in later is picked up.
"""

from collections.abc import Mapping
from typing import Any

from hw.errors import ConfigError
from hw.rfid.fake import FakeReader
from hw.rfid.reader import NoReader, Reader

# Each driver is imported only when it is built: the configuration checks and
# the daemon's first frame need none of them, and the serial ones bring in
# pyserial, which a Zero 2 W is slow to import.

DRIVERS = ("none", "pn532-uart", "rdm6300", "rc522-spi", "fake")
DEFAULTS: dict[str, Any] = {
    "driver": "none",
    "port": "/dev/serial0",
    "baudrate": None,  # the driver's own: 115200 for the PN532, 9600 for the RDM6300
    "spi_port": 0,
    "spi_device": 1,  # CE1, BCM7
    "gpio_rst": 21,
}


def build_reader(settings: Mapping[str, Any]) -> Reader:
    """Build the reader from ``driver``, ``port``, ``baudrate``, ``spi_port``,
    ``spi_device`` and ``gpio_rst`` (all optional; without ``driver``, no reader)."""
    unknown = [key for key in settings if key not in DEFAULTS]
    if unknown:
        raise ConfigError(f"rfid.{unknown[0]}: unknown setting; accepted: {', '.join(DEFAULTS)}")
    given = {**DEFAULTS, **settings}
    driver = given["driver"]
    if driver not in DRIVERS:
        raise ConfigError(f"rfid.driver: unknown driver {driver!r}; accepted: {', '.join(DRIVERS)}")
    port = given["port"]
    if not isinstance(port, str) or not port:
        raise ConfigError(f"rfid.port: expected a device path such as '/dev/serial0', got {port!r}")
    baudrate = given["baudrate"]
    if baudrate is not None:
        baudrate = _integer("baudrate", baudrate, range(300, 4_000_001))
    spi_port = _integer("spi_port", given["spi_port"], range(0, 7))
    spi_device = _integer("spi_device", given["spi_device"], range(0, 3))
    gpio_rst = _integer("gpio_rst", given["gpio_rst"], range(0, 28))
    match driver:
        case "pn532-uart":
            from hw.rfid.pn532_reader import BAUDRATE, Pn532Reader

            return Pn532Reader(port, baudrate or BAUDRATE)
        case "rdm6300":
            from hw.rfid.rdm6300_reader import BAUDRATE, Rdm6300Reader

            return Rdm6300Reader(port, baudrate or BAUDRATE)
        case "rc522-spi":
            from hw.rfid.rc522_reader import Rc522Reader

            return Rc522Reader.open(spi_port, spi_device, gpio_rst)
        case "fake":
            return FakeReader()
        case _:
            return NoReader()


def _integer(key: str, value: Any, accepted: range) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in accepted:
        raise ConfigError(
            f"rfid.{key}: expected an integer from {accepted.start} to {accepted.stop - 1}, "
            f"got {value!r}"
        )
    return value
