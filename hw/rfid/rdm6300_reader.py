"""The RDM6300 (125 kHz, EM4100 tags) on a UART."""

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
        self.link = SerialLink(port, baudrate, backoff=backoff, on_open=self._opened)

    def poll(self, now: float) -> list[TagEvent]:
        """Tags whose frames arrived since the last poll and began a new visit."""
        data = self.link.read(now)
        if not self.link.is_open:
            return []
        seen = [number.hex().upper() for number in self._parser.feed(data)]
        return [TagEvent(uid, self.name, now) for uid in self._tracker.update(seen, now)]

    def close(self) -> None:
        """Close the port for good."""
        self.link.close()

    def _opened(self, now: float) -> None:
        self._parser.clear()
