"""A reader driven by hand, for the tests and the simulator."""

import string

from hw.events import TagEvent
from hw.rfid.presence import PresenceTracker
from hw.rfid.reader import Reader


class FakeReader(Reader):
    """Put a tag on it with :meth:`present`, take it off with :meth:`remove`.

    It holds one tag at a time and looks at it at the given instants and at
    every poll, through the same presence tracker as the real readers: a tag
    taken off and put back within ``grace`` seconds is the same visit.
    Events carry the instant the tag was put on; ``history`` keeps every event
    handed out by :meth:`poll`, for asserts.
    """

    name = "fake"

    def __init__(self, *, grace: float = 0.3) -> None:
        self.history: list[TagEvent] = []
        self.closed = False
        self._tracker = PresenceTracker(grace)
        self._on_reader: str | None = None
        self._arrived: list[TagEvent] = []

    def present(self, uid: str, at: float) -> None:
        """Lay the tag ``uid`` (hex) on the reader at ``at``; any other tag is taken off."""
        if not uid or len(uid) % 2 or not set(uid) <= set(string.hexdigits):
            raise ValueError(f"a tag UID is an even number of hex digits, not {uid!r}")
        self._on_reader = uid.upper()
        self._look(at)

    def remove(self, at: float) -> None:
        """Take the tag off the reader at ``at``."""
        self._on_reader = None
        self._look(at)

    def poll(self, now: float) -> list[TagEvent]:
        """Arrivals since the last poll; nothing once closed."""
        if self.closed:
            return []
        self._look(now)
        events, self._arrived = self._arrived, []
        self.history += events
        return events

    def close(self) -> None:
        """Stop reporting; closing twice is harmless."""
        self.closed = True

    def _look(self, at: float) -> None:
        seen = [] if self._on_reader is None else [self._on_reader]
        self._arrived += [TagEvent(uid, self.name, at) for uid in self._tracker.update(seen, at)]
