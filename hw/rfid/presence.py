"""One event per visit of a tag, whatever the reader's habits.

Readers see a tag lying on them again and again (the RDM6300 repeats its
frame every ~65 ms; the PN532 and RC522 find it at every poll) and also miss
it now and then (a poll lost on the wire, RF flicker). A player expects one
event per tap, and a card left on the reader must not fire again and again.
So a visit ends only once the tag has been out of sight for ``grace`` seconds
in a row; seen again sooner, it is the same visit.

Absence is counted from observations, not from silence: a reader reports
what it sees at each look (an empty look included), and a reader that cannot
look (its port is gone) reports nothing. A tag left on a reader that was
unplugged for a minute is therefore not announced again when it comes back.
"""

from collections.abc import Iterable


class PresenceTracker:
    """Decides which tags are arrivals; pure, fed with the caller's clock."""

    def __init__(self, grace: float) -> None:
        if grace < 0:
            raise ValueError(f"grace must be zero or more seconds, not {grace!r}")
        self.grace = grace
        # Every tag of an ongoing visit -> when it was first missed, or None
        # while it is in sight.
        self._missing_since: dict[str, float | None] = {}

    def update(self, seen: Iterable[str], now: float) -> list[str]:
        """Record one look of the reader at ``now``; return the tags that just arrived.

        ``seen`` holds every tag the reader sees at this look (possibly none);
        the arrivals keep its order.
        """
        in_sight = list(dict.fromkeys(seen))
        for uid, since in list(self._missing_since.items()):
            if since is not None and now - since >= self.grace:
                del self._missing_since[uid]
        arrivals = [uid for uid in in_sight if uid not in self._missing_since]
        for uid, since in self._missing_since.items():
            if since is None and uid not in in_sight:
                self._missing_since[uid] = now
        for uid in in_sight:
            self._missing_since[uid] = None
        return arrivals
