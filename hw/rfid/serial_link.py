"""A serial port that never blocks the daemon and reopens itself.

Why non-blocking reads from ``poll`` rather than a reader thread: the daemon
runs one single-threaded loop, and a reader's bytes are only useful at its
next tick anyway. Reading in that loop keeps the driver a plain state
machine on the caller's clock (exact tests, no locks, no thread to stop,
no exception lost in a thread), and it costs little, because:

- the port is opened with ``timeout=0``, so a read is one ``select`` that
  does not wait plus one ``read`` of what is already in the kernel's buffer;
- opening is non-blocking too (pyserial opens with ``O_NONBLOCK``) and fails
  at once when the device node is missing;
- writes are a few dozen bytes into the kernel's buffer, bounded by a short
  write timeout should the line ever stall.

When the port fails (``SerialException`` or ``OSError``: a USB adapter
pulled out, a pseudo-terminal hung up) it is closed, the loss is logged once,
and it is reopened with backoff, from the same path or URL, on later reads.
"""

from collections.abc import Callable
from contextlib import suppress

import serial

from hw.rfid.outage import DEFAULT_BACKOFF, Backoff, Outage

READ_SIZE = 4096
WRITE_TIMEOUT = 0.02


class SerialLink:
    """One serial device, by path (``/dev/serial0``) or pyserial URL (``loop://``).

    ``on_open(now)`` runs after every successful (re)open, so a driver can
    redo its handshake. Nothing is opened before the first :meth:`read`.
    """

    def __init__(
        self,
        url: str,
        baudrate: int,
        *,
        backoff: Backoff = DEFAULT_BACKOFF,
        on_open: Callable[[float], None] | None = None,
    ) -> None:
        self.url = url
        self.baudrate = baudrate
        self.port: serial.SerialBase | None = None
        self._outage = Outage(f"RFID reader port {url}", backoff)
        self._on_open = on_open
        self._closed = False

    @property
    def is_open(self) -> bool:
        """Whether the port is open right now."""
        return self.port is not None

    def read(self, now: float) -> bytes:
        """Whatever has arrived, opening the port first if it is closed and a retry is due."""
        if self.port is None and not self._open(now):
            return b""
        try:
            return self.port.read(READ_SIZE)
        except (serial.SerialException, OSError) as error:
            self._lost(error, now)
            return b""

    def write(self, data: bytes, now: float) -> None:
        """Send ``data``; a failure counts as the port vanishing."""
        if self.port is None:
            return
        try:
            self.port.write(data)
        except (serial.SerialException, OSError) as error:
            self._lost(error, now)

    def close(self) -> None:
        """Close the port for good: later reads return nothing. Closing twice is harmless."""
        self._closed = True
        self._release()

    def _open(self, now: float) -> bool:
        if self._closed or not self._outage.due(now):
            return False
        try:
            self.port = serial.serial_for_url(
                self.url,
                baudrate=self.baudrate,
                timeout=0,
                write_timeout=WRITE_TIMEOUT,
                exclusive=True,
            )
        except (serial.SerialException, OSError) as error:
            self._outage.failed(error, now)
            return False
        self._outage.recovered()
        if self._on_open is not None:
            self._on_open(now)
        return self.port is not None

    def _lost(self, error: Exception, now: float) -> None:
        self._release()
        self._outage.failed(error, now)

    def _release(self) -> None:
        port, self.port = self.port, None
        if port is not None:
            with suppress(serial.SerialException, OSError):
                port.close()
