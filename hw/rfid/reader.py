"""What the daemon asks of an RFID reader, and the reader for "no reader fitted"."""

from abc import ABC, abstractmethod

from hw.events import TagEvent


class Reader(ABC):
    """A reader under the table edge, polled once per tick of the daemon's loop.

    ``poll`` never blocks for more than a few milliseconds and never raises for
    a device that went away: drivers log that once and recover by themselves.
    A tag lying on the reader is reported once per visit (see ``presence``).
    """

    name: str

    @abstractmethod
    def poll(self, now: float) -> list[TagEvent]:
        """Tags that arrived since the last poll; ``now`` is the caller's monotonic clock."""

    @abstractmethod
    def close(self) -> None:
        """Release the device; later polls return nothing. Closing twice is harmless."""


class NoReader(Reader):
    """The build without a reader: every card is entered with the buttons."""

    name = "none"

    def poll(self, now: float) -> list[TagEvent]:
        """Never anything."""
        return []

    def close(self) -> None:
        """Nothing to release."""
