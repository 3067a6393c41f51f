"""The RDM6300 (125 kHz, EM4100 tags) on a UART.

A tag counts only once two frames in a row carry the same number. The
frame's checksum is a XOR of five bytes, so about 1 % of frames with two bit
errors pass it with a wrong number; the module repeats its frame every
~65 ms while the tag lies there, so waiting for a second, matching frame
costs a player nothing noticeable and takes a wrong tag to two identical
errors in a row.
"""

from hw.events import TagEvent
from hw.rfid.outage import DEFAULT_BACKOFF, Backoff
from hw.rfid.presence import PresenceTracker
from hw.rfid.rdm6300 import Rdm6300Parser
from hw.rfid.reader import Reader
from hw.rfid.serial_link import SerialLink

BAUDRATE = 9600

# The module repeats its frame every ~65 ms while a tag is there; half a
# second without one means the tag left, even with a few frames lost.
GRACE = 0.5


class Rdm6300Reader(Reader):
    """Listens to the module's frames; it never needs to be asked anything.

    The UID is the tag's 5-byte number as 10 upper-case hex digits.
    """

    name = "rdm6300"

    def __init__(
        self,
        port: str = "/dev/serial0",
        baudrate: int = BAUDRATE,
        *,
        grace: float = GRACE,
        backoff: Backoff = DEFAULT_BACKOFF,
    ) -> None:
        self._parser = Rdm6300Parser()
        self._tracker = PresenceTracker(grace)
        self._grace = grace
        self._last: tuple[str, float] | None = None  # the previous frame: number, when
        self.link = SerialLink(port, baudrate, backoff=backoff, on_open=self._opened)

    def poll(self, now: float) -> list[TagEvent]:
        """Tags whose frames arrived since the last poll and began a new visit."""
        data = self.link.read(now)
        if not self.link.is_open:
            return []
        seen = self._matching([number.hex().upper() for number in self._parser.feed(data)], now)
        return [TagEvent(uid, self.name, now) for uid in self._tracker.update(seen, now)]

    def _matching(self, frames: list[str], now: float) -> list[str]:
        """The numbers of the frames that match the frame before them (within ``grace``)."""
        confirmed = []
        for uid in frames:
            if (
                self._last is not None
                and self._last[0] == uid
                and now - self._last[1] <= self._grace
            ):
                confirmed.append(uid)
            self._last = (uid, now)
        return confirmed

    def close(self) -> None:
        """Close the port for good."""
        self.link.close()

    def _opened(self, now: float) -> None:
        self._parser.clear()
        self._last = None
