"""Losing a reader, retrying it, and saying so once each way.

A USB-serial adapter pulled out, a PN532 that stopped answering or an SPI
read that failed must not stop the daemon nor flood its log: the first
failure is logged once as a warning, later attempts only at debug level, and
the return once as info. Attempts are spaced out with a doubling delay, so a
jostled plug is back within a second and a missing one costs one attempt
every few seconds.
"""

import logging
import math
from dataclasses import dataclass

log = logging.getLogger("tableside.hw.rfid")


@dataclass(frozen=True)
class Backoff:
    """Seconds before the first retry, and the ceiling the doubling delay stops at."""

    first: float = 0.5
    ceiling: float = 5.0


DEFAULT_BACKOFF = Backoff()


class Outage:
    """Tracks whether ``device`` is reachable and when to try it next."""

    def __init__(self, device: str, backoff: Backoff = DEFAULT_BACKOFF) -> None:
        self.device = device
        self.backoff = backoff
        self.down = False
        self.retry_at = -math.inf
        self._delay = backoff.first

    def due(self, now: float) -> bool:
        """Whether another attempt may be made at ``now``."""
        return now >= self.retry_at

    def failed(self, reason: object, now: float) -> None:
        """An attempt failed (or the device just vanished) at ``now``."""
        if self.down:
            log.debug("%s still unavailable: %s", self.device, reason)
        else:
            log.warning("%s is unavailable (%s); retrying in the background", self.device, reason)
            self.down = True
            self._delay = self.backoff.first
        self.retry_at = now + self._delay
        self._delay = min(self._delay * 2, self.backoff.ceiling)

    def recovered(self) -> None:
        """The device works; a later failure starts again from the first delay."""
        if self.down:
            log.info("%s is available again", self.device)
        self.down = False
        self.retry_at = -math.inf
