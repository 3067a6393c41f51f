"""The RC522 (NXP MFRC522, 13.56 MHz) on SPI: the optional ``rc522-spi`` reader.

Written against ``spidev`` by hand, because the libraries fall short here:
``mfrc522`` keeps only part of a 7-byte NTAG UID (collisions among 60
cards), and ``pi-rc522`` imports RPi.GPIO at import time (absent on a Pi 5)
and wires up the IRQ pin, which Tableside leaves unconnected. This driver
only does what Tableside needs: find one ISO 14443-A tag and read its full
UID through the cascade levels (4, 7 or 10 bytes).

Each poll wakes the tags (WUPA), runs anticollision and SELECT for each
cascade level, then sends HLTA. Halting is what keeps the reading steady:
a tag left selected ignores the next wake-up and would read as absent at
every other poll, the well-known RC522 flicker.

``spidev`` and gpiozero are imported only by :meth:`Rc522Reader.open`, so
``hw.rfid`` imports on machines without them. The chip's timer bounds every
exchange to about 5 ms, so a poll stays within a few milliseconds.
"""

from collections.abc import Callable
from functools import reduce
from operator import xor
from typing import Any, Protocol

from hw.errors import INSTALL_SPI, DeviceUnavailable, HardwareError
from hw.events import TagEvent
from hw.rfid.outage import DEFAULT_BACKOFF, Backoff, Outage
from hw.rfid.presence import PresenceTracker
from hw.rfid.reader import Reader

# Registers (MFRC522 datasheet, section 9).
COMMAND = 0x01
COM_IRQ = 0x04
ERROR = 0x06
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
BIT_FRAMING = 0x0D
MODE = 0x11
TX_CONTROL = 0x14
TX_ASK = 0x15
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_HIGH = 0x2C
T_RELOAD_LOW = 0x2D
VERSION = 0x37

# Chip commands and register bits.
IDLE = 0x00
TRANSMIT = 0x04
TRANSCEIVE = 0x0C
SOFT_RESET = 0x0F
POWER_DOWN = 0x10
TX_IRQ = 0x40
RX_IRQ = 0x20
IDLE_IRQ = 0x10
TIMER_IRQ = 0x01
ALL_IRQ = 0x7F
FLUSH = 0x80
START_SEND = 0x80
# BufferOvfl, CollErr, ParityErr, ProtocolErr: the answer is unusable.
RECEIVE_ERRORS = 0x1B

# ISO/IEC 14443-3 type A.
WUPA = 0x52
HLTA = bytes([0x50, 0x00])
SELECT_LEVELS = (0x93, 0x95, 0x97)
ANTICOLLISION = 0x20
SELECT = 0x70
CASCADE_TAG = 0x88
SAK_UID_INCOMPLETE = 0x04

# A status register read costs tens of microseconds; the chip's own timer
# ends a silent exchange long before this many reads.
MAX_STATUS_READS = 200
POLL_INTERVAL = 0.1
GRACE = 0.25
SPI_SPEED_HZ = 1_000_000


class MissingLibrary(HardwareError, ImportError):
    """A driver was asked for whose optional library is not installed."""


class Spi(Protocol):
    """The part of ``spidev.SpiDev`` this driver uses."""

    def xfer2(self, data: list[int]) -> list[int]: ...

    def close(self) -> None: ...


class ResetPin(Protocol):
    """The RST line, held high while the chip runs (a gpiozero output device)."""

    def close(self) -> None: ...


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A of ``data``, low byte first, as SELECT and HLTA carry it."""
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc.to_bytes(2, "little")


class Rc522Reader(Reader):
    """Polls an RC522 every ``poll_interval`` seconds for one tag's full UID."""

    name = "rc522-spi"

    def __init__(
        self,
        spi: Spi,
        reset: ResetPin | None = None,
        *,
        where: str = "SPI",
        poll_interval: float = POLL_INTERVAL,
        grace: float = GRACE,
        backoff: Backoff = DEFAULT_BACKOFF,
    ) -> None:
        self.poll_interval = poll_interval
        self._spi = spi
        self._reset = reset
        self._chip = Outage(f"RC522 on {where}", backoff)
        self._tracker = PresenceTracker(grace)
        self._ready = False
        self._closed = False
        self._next_poll = 0.0

    @classmethod
    def open(
        cls,
        spi_port: int = 0,
        spi_device: int = 1,
        gpio_rst: int = 21,
        *,
        pin_factory: Any = None,
        **options: Any,
    ) -> "Rc522Reader":
        """Open ``/dev/spidev{spi_port}.{spi_device}`` and hold RST (BCM ``gpio_rst``) high."""
        spidev = _import_spidev()
        from gpiozero import DigitalOutputDevice

        path = f"/dev/spidev{spi_port}.{spi_device}"
        reset = DigitalOutputDevice(gpio_rst, initial_value=True, pin_factory=pin_factory)
        spi = spidev.SpiDev()
        try:
            spi.open(spi_port, spi_device)
        except OSError as error:
            reset.close()
            raise DeviceUnavailable(f"cannot open {path} (is SPI enabled?): {error}") from error
        spi.max_speed_hz = SPI_SPEED_HZ
        spi.mode = 0
        return cls(spi, reset, where=path, **options)

    def poll(self, now: float) -> list[TagEvent]:
        """Look for a tag if a poll is due; a failing chip is logged once and retried."""
        if self._closed or now < self._next_poll or not self._chip.due(now):
            return []
        self._next_poll = now + self.poll_interval
        try:
            if not self._ready:
                self._initialise()
                self._ready = True
            found = self._read_uid()
        except OSError as error:
            self._ready = False
            self._chip.failed(error, now)
            return []
        self._chip.recovered()
        seen = [] if found is None else [found.hex().upper()]
        return [TagEvent(uid, self.name, now) for uid in self._tracker.update(seen, now)]

    def close(self) -> None:
        """Release SPI and the RST pin; closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        self._spi.close()
        if self._reset is not None:
            self._reset.close()

    def _initialise(self) -> None:
        self._write(COMMAND, SOFT_RESET)
        self._wait(lambda: not self._read(COMMAND) & POWER_DOWN, "did not finish its reset")
        version = self._read(VERSION)
        if version in (0x00, 0xFF):
            raise DeviceUnavailable(f"no chip answers (version register reads 0x{version:02X})")
        self._write(T_MODE, 0x80)  # timer starts by itself after each transmission
        self._write(T_PRESCALER, 0xA9)  # 13.56 MHz / (2 * 169 + 1): 25 us a tick
        self._write(T_RELOAD_HIGH, 0x00)
        self._write(T_RELOAD_LOW, 200)  # 200 ticks: 5 ms without an answer ends it
        self._write(TX_ASK, 0x40)  # 100 % ASK modulation, as type A requires
        self._write(MODE, 0x3D)  # CRC preset 6363h, the type A value
        self._write(TX_CONTROL, self._read(TX_CONTROL) | 0x03)  # antenna drivers on

    def _read_uid(self) -> bytes | None:
        answer_to_request = self._transceive(bytes([WUPA]), last_bits=7)
        if answer_to_request is None or len(answer_to_request) != 2:
            return None
        uid = b""
        for level in SELECT_LEVELS:
            part = self._transceive(bytes([level, ANTICOLLISION]))
            if part is None or len(part) != 5 or reduce(xor, part) != 0:
                return None  # no answer, a collision, or a bad BCC
            select = bytes([level, SELECT]) + part
            sak = self._transceive(select + crc_a(select))
            if sak is None or len(sak) != 3 or crc_a(sak[:1]) != sak[1:]:
                return None
            if not sak[0] & SAK_UID_INCOMPLETE:
                self._transmit(HLTA + crc_a(HLTA))
                return uid + part[:4]
            if part[0] != CASCADE_TAG:
                return None
            uid += part[1:4]
        return None

    def _transceive(self, data: bytes, last_bits: int = 0) -> bytes | None:
        """Send ``data`` to the tag; its answer, or None for silence or a receive error."""
        self._load(data)
        self._write(BIT_FRAMING, last_bits)
        self._write(COMMAND, TRANSCEIVE)
        self._write(BIT_FRAMING, START_SEND | last_bits)
        irq = self._wait(
            lambda: self._read(COM_IRQ) & (RX_IRQ | IDLE_IRQ | TIMER_IRQ), "never ended an exchange"
        )
        self._write(BIT_FRAMING, 0)
        if not irq & RX_IRQ or self._read(ERROR) & RECEIVE_ERRORS:
            return None
        count = self._read(FIFO_LEVEL) & 0x7F
        return bytes(self._read(FIFO_DATA) for _ in range(count))

    def _transmit(self, data: bytes) -> None:
        """Send ``data`` and expect no answer (HLTA)."""
        self._load(data)
        self._write(COMMAND, TRANSMIT)
        self._wait(lambda: self._read(COM_IRQ) & TX_IRQ, "never finished sending")

    def _load(self, data: bytes) -> None:
        self._write(COMMAND, IDLE)
        self._write(COM_IRQ, ALL_IRQ)  # clear every interrupt request bit
        self._write(FIFO_LEVEL, FLUSH)
        self._write(FIFO_DATA, *data)

    def _wait(self, condition: Callable[[], int | bool], failure: str) -> int:
        for _ in range(MAX_STATUS_READS):
            state = condition()
            if state:
                return int(state)
        raise DeviceUnavailable(f"the chip {failure}")

    def _read(self, register: int) -> int:
        return self._spi.xfer2([0x80 | register << 1, 0])[1]

    def _write(self, register: int, *values: int) -> None:
        self._spi.xfer2([register << 1, *values])


def _import_spidev() -> Any:
    try:
        import spidev
    except ImportError as error:
        raise MissingLibrary(
            f"the rc522-spi reader needs the spidev package: {INSTALL_SPI}"
        ) from error
    return spidev
