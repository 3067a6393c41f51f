"""The PN532 (13.56 MHz: NTAG stickers, MIFARE cards) on a UART in HSU mode.

The PN532 only speaks when spoken to, so the reader is a small state machine
advanced by ``poll``: send one command, then collect its answer on later
polls, never waiting in between. After every (re)open of the port it wakes
the chip and configures it (SAMConfiguration in normal mode, and a finite
retry count so that InListPassiveTarget answers "no target" instead of
waiting for a tag forever), then asks InListPassiveTarget every
``poll_interval`` seconds.

A command unanswered within ``answer_timeout``, or refused with an error
frame, means the chip is lost (reset, brown-out, wrong DIP switches): that is
logged once, and the wake-up and configuration are tried again with backoff.
"""

import logging

from hw.errors import FrameError
from hw.events import TagEvent
from hw.rfid.outage import DEFAULT_BACKOFF, Backoff, Outage
from hw.rfid.pn532 import (
    IN_LIST_PASSIVE_TARGET,
    IN_LIST_PASSIVE_TARGET_FRAME,
    MAX_RETRIES_FRAME,
    RF_CONFIGURATION,
    SAM_CONFIGURATION,
    SAM_CONFIGURATION_FRAME,
    WAKE_UP,
    ErrorFrame,
    Frame,
    FrameParser,
    Nack,
    Response,
    target_uid,
)
from hw.rfid.presence import PresenceTracker
from hw.rfid.reader import Reader
from hw.rfid.serial_link import SerialLink

log = logging.getLogger("tableside.hw.rfid")

BAUDRATE = 115200
POLL_INTERVAL = 0.1
ANSWER_TIMEOUT = 0.5
# A tag must be missing for two or three polls in a row before its visit ends:
# one empty answer may be RF flicker.
GRACE = 0.25

# What to send after each (re)open, and the answer code each one expects.
HANDSHAKE = (
    (WAKE_UP + SAM_CONFIGURATION_FRAME, SAM_CONFIGURATION + 1),
    (MAX_RETRIES_FRAME, RF_CONFIGURATION + 1),
)
POLL = (IN_LIST_PASSIVE_TARGET_FRAME, IN_LIST_PASSIVE_TARGET + 1)


class Pn532Reader(Reader):
    """Polls a PN532 for one ISO 14443-A tag and reports its full UID (4, 7 or 10 bytes)."""

    name = "pn532-uart"

    def __init__(
        self,
        port: str = "/dev/serial0",
        baudrate: int = BAUDRATE,
        *,
        poll_interval: float = POLL_INTERVAL,
        answer_timeout: float = ANSWER_TIMEOUT,
        grace: float = GRACE,
        backoff: Backoff = DEFAULT_BACKOFF,
    ) -> None:
        self.poll_interval = poll_interval
        self.answer_timeout = answer_timeout
        self._parser = FrameParser()
        self._tracker = PresenceTracker(grace)
        self._chip = Outage(f"PN532 on {port}", backoff)
        self._steps: list[tuple[bytes, int]] = []
        self._awaiting: int | None = None
        self._deadline = 0.0
        self._next_send = 0.0
        self.link = SerialLink(port, baudrate, backoff=backoff, on_open=self._opened)

    def poll(self, now: float) -> list[TagEvent]:
        """Collect any answer, then send the next command if one is due."""
        data = self.link.read(now)
        if not self.link.is_open:
            return []
        events: list[TagEvent] = []
        for frame in self._parser.feed(data):
            events += self._receive(frame, now)
        if self._awaiting is not None and now >= self._deadline:
            self._lose_chip(f"no answer within {self.answer_timeout} s", now)
        if self._awaiting is None and now >= self._next_send:
            self._send(now)
        return events

    def close(self) -> None:
        """Close the port for good."""
        self.link.close()

    def _opened(self, now: float) -> None:
        self._steps = list(HANDSHAKE)
        self._awaiting = None
        self._next_send = now

    def _send(self, now: float) -> None:
        command, answer = self._steps[0] if self._steps else POLL
        self._parser.clear()
        self.link.write(command, now)
        self._awaiting = answer
        self._deadline = now + self.answer_timeout

    def _receive(self, frame: Frame, now: float) -> list[TagEvent]:
        if self._awaiting is None:
            return []
        if isinstance(frame, ErrorFrame):
            self._lose_chip("it refused a command with an error frame", now)
            return []
        if isinstance(frame, Nack):
            self._lose_chip("it asked for a frame again (NACK)", now)
            return []
        if not isinstance(frame, Response) or frame.code != self._awaiting:
            return []  # ACKs, our own echo, stale answers
        self._awaiting = None
        self._chip.recovered()
        if self._steps:
            self._steps.pop(0)
            self._next_send = now
            return []
        self._next_send = now + self.poll_interval
        try:
            found = target_uid(frame)
        except FrameError as error:
            log.debug("PN532 answer ignored: %s", error)
            return []
        seen = [] if found is None else [found.hex().upper()]
        return [TagEvent(uid, self.name, now) for uid in self._tracker.update(seen, now)]

    def _lose_chip(self, reason: str, now: float) -> None:
        self._chip.failed(reason, now)
        self._opened(now)
        self._next_send = self._chip.retry_at
