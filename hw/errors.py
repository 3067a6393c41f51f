"""Every error the hardware layer raises, in one flat file.

Each one also inherits the builtin a caller would naturally catch.
"""


class HardwareError(Exception):
    """Base class of every error raised by ``hw``."""


class ConfigError(HardwareError, ValueError):
    """A driver was asked for by a name or with settings it does not know."""


class DeviceUnavailable(HardwareError, OSError):
    """A device did not answer: unplugged, wrong address, or no permission."""


class FrameError(HardwareError, ValueError):
    """Bytes from a reader did not form a valid frame."""


# The install step that brings an optional library, for the messages that miss one.
INSTALL_GPIO = "sudo systemd/install.sh"
INSTALL_SPI = "sudo systemd/install.sh --with spi"
