"""Tell systemd how the daemon is doing, and turn SIGTERM into an ordinary exit.

The unit is ``Type=notify`` with a watchdog: systemd waits for ``READY=1``,
kills and restarts the daemon when ``WATCHDOG=1`` stops coming, and shows
``STATUS=`` in ``systemctl status``. The protocol is one datagram of
``NAME=value`` lines to the Unix socket named in ``NOTIFY_SOCKET``; systemd
documents it as a stable interface, so a few lines here replace a C library.

Outside systemd (tests, the simulator, a shell) the variable is unset and
every call does nothing. A failed send is logged once and never raised: a
status message must not be what takes the table down.
"""

import logging
import os
import signal
import time
from collections.abc import Callable, Mapping
from types import FrameType

LOG = logging.getLogger("tableside.systemd")


class Notifier:
    """Sends ``sd_notify`` messages; built once by the daemon at start-up.

    ``watchdog()`` is meant to be called from every main-loop tick, and only
    from there: it sends at most one ping per half ``WATCHDOG_USEC``, so a
    loop that stops turning stops the pings and systemd restarts the daemon.
    """

    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        env = os.environ if environ is None else environ
        self._clock = clock
        self._warned = False
        self._last_ping: float | None = None
        self._address = _socket_address(env.get("NOTIFY_SOCKET", ""))
        self._interval = _watchdog_interval(env) if self._address is not None else None

    @property
    def enabled(self) -> bool:
        """Whether systemd asked for notifications (``NOTIFY_SOCKET`` is usable)."""
        return self._address is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between pings, half of ``WATCHDOG_USEC``; ``None`` when not watched."""
        return self._interval

    def ready(self) -> None:
        """Start-up is over: systemd marks the unit started."""
        self._send("READY=1")

    def status(self, text: str) -> None:
        """A one-line status for ``systemctl status``; newlines would end the field."""
        self._send("STATUS=" + " ".join(text.splitlines()))

    def watchdog(self) -> None:
        """Ping the watchdog, if one is set and half its period has passed."""
        if self._interval is None:
            return
        now = self._clock()
        if self._last_ping is not None and now - self._last_ping < self._interval:
            return
        self._last_ping = now
        self._send("WATCHDOG=1")

    def stopping(self) -> None:
        """Shutdown has begun: systemd stops expecting pings."""
        self._send("STOPPING=1")

    def _send(self, message: str) -> None:
        if self._address is None:
            return
        # Imported here, not at the top: outside systemd it is never needed, and
        # under systemd it is not needed before the daemon's first frame.
        import socket

        try:
            # A socket per message, as libsystemd does: nothing to keep open or clean up.
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                # Never stall the main loop on a busy manager: a full queue is a send error.
                sock.setblocking(False)
                sock.sendto(message.encode(), self._address)
        except OSError as error:
            if not self._warned:
                self._warned = True
                LOG.warning("cannot notify systemd at %r: %s", self._address, error)


def _socket_address(name: str) -> str | bytes | None:
    """The address to send to, or ``None`` when there is nothing usable."""
    if name.startswith("@"):
        return b"\0" + name[1:].encode()
    if name.startswith("/"):
        return name
    if name:
        LOG.warning("NOTIFY_SOCKET=%r is not a Unix socket path; not notifying", name)
    return None


def _watchdog_interval(env: Mapping[str, str]) -> float | None:
    """Seconds between pings (half of ``WATCHDOG_USEC``), or ``None`` for no pings.

    ``WATCHDOG_PID`` names the process systemd watches; any other process,
    such as a child that inherited the environment, must stay silent.
    """
    try:
        usec = int(env.get("WATCHDOG_USEC", "0"))
        pid = int(env.get("WATCHDOG_PID", str(os.getpid())))
    except ValueError:
        LOG.warning("unreadable WATCHDOG_USEC or WATCHDOG_PID; not pinging the watchdog")
        return None
    if usec <= 0 or pid != os.getpid():
        return None
    return usec / 2_000_000


def exit_on_sigterm() -> None:
    """Make SIGTERM raise ``SystemExit(0)`` in the main thread.

    ``systemctl stop`` sends SIGTERM, whose default action kills the process
    on the spot. Raised as an exception instead, it unwinds the main loop
    through its ``finally`` blocks: the journal is closed, the panel is left
    in a known state and ``STOPPING=1`` is sent. Call it from the main thread.
    """

    def _raise_exit(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, _raise_exit)
