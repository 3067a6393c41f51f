"""Parts that do not work at start: a stand-in, one log line, and the fix.

A box with a wrong group, an SPI bus left off or a missing pin library must
still start: the table can play with what works, and the owner needs to read
what to do. So the daemon builds each part through :func:`build_part`; a
part that fails is replaced by a stand-in that does nothing (no buttons
pressed, no tags, no beeps), and its problem names the part and the fix,
worked out from the error: the package, the group, the ``raspi-config`` step.
"""

import errno
import logging
from collections.abc import Callable
from typing import Any, NamedTuple

from hw.errors import INSTALL_GPIO, INSTALL_SPI, ConfigError

LOG = logging.getLogger("tableside.parts")
GROUPS = {"buttons": "gpio", "buzzer": "gpio", "reader": "dialout", "display": "i2c"}
# Libraries a part may miss, and what brings them.
PACKAGES = {
    "lgpio": f"python3-lgpio: {INSTALL_GPIO}",
    "RPi": f"rpi-lgpio: {INSTALL_SPI}",
    "spidev": f"spidev: {INSTALL_SPI}",
    "serial": f"pyserial: {INSTALL_GPIO}",
    "smbus2": f"smbus2: {INSTALL_GPIO}",
}
BUSES = {
    "spidev": "SPI is off: sudo raspi-config nonint do_spi 0, then reboot",
    "i2c-": "I2C is off: sudo raspi-config nonint do_i2c 0, then reboot",
    "tty": "the UART is off: sudo raspi-config nonint do_serial_hw 0, then reboot",
    "serial": "the UART is off: sudo raspi-config nonint do_serial_hw 0, then reboot",
}


class Problem(NamedTuple):
    """A part that does not work: which, why, and what fixes it."""

    part: str
    error: str
    fix: str

    def __str__(self) -> str:
        return f"{self.part} does not work ({self.error}); fix: {self.fix}"


def build_part(part: str, build: Callable[[], Any], stand_in: Callable[[], Any], problems: list):
    """``build()``, or when it fails ``stand_in()`` with the problem logged and kept."""
    try:
        return build()
    except ConfigError:
        raise  # the configuration is wrong: refused at start like any other mistake
    except Exception as error:  # every library fails in its own way
        problem = Problem(part, str(error), fix_for(part, error))
        LOG.error("%s", problem)
        problems.append(problem)
        return stand_in()


def fix_for(part: str, error: BaseException) -> str:
    """The step that would make ``part`` work, read from the error and its causes."""
    chain = []
    while error is not None and len(chain) < 5:
        chain.append(error)
        error = error.__cause__ or error.__context__
    text = " ".join(str(item) for item in chain)
    for item in chain:
        name = getattr(item, "name", None)
        if isinstance(item, ImportError) and name:
            package = PACKAGES.get(name.split(".")[0], name.split(".")[0])
            return f"install {package}"
    for item in chain:
        if isinstance(item, OSError) and item.errno in (errno.EACCES, errno.EPERM):
            return _group(part, text)
    if "Permission denied" in text or "permission" in text.lower():
        return _group(part, text)
    if "No module named" in text:
        missing = text.split("No module named", 1)[1].strip(" '\"").split("'")[0]
        return f"install {PACKAGES.get(missing.split('.')[0], missing)}"
    if "pin factory" in text:
        return f"install {PACKAGES['lgpio']}"
    for device, fix in BUSES.items():
        if f"/dev/{device}" in text and ("No such file" in text or "not found" in text):
            return fix
    return "check the wiring (wiring.md) and the configuration"


def _group(part: str, text: str) -> str:
    group = "spi" if "spidev" in text else "i2c" if "/dev/i2c" in text else GROUPS[part]
    return f"add the user to the {group} group: sudo usermod -aG {group} tableside"
