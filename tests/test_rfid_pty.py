"""The UART readers over a pseudo-terminal: a real tty, bytes written in pieces, and a device
that vanishes and comes back.

The slave side is reached through a symlink, as ``/dev/serial0`` is on a Pi. Unplugging
closes the pair and removes the link; plugging in opens a new pair and points the link at
it, as udev does for a USB-serial adapter put back.
"""

import fcntl
import logging
import os
import select
import struct
import termios
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hw.events import TagEvent
from hw.rfid.outage import Backoff
from hw.rfid.pn532 import IN_LIST_PASSIVE_TARGET, RF_CONFIGURATION, SAM_CONFIGURATION
from hw.rfid.pn532_reader import Pn532Reader
from hw.rfid.rdm6300 import encode
from hw.rfid.rdm6300_reader import Rdm6300Reader
from hw.rfid.reader import Reader
from hw.rfid.simulated import SimulatedPn532

LOG = "tableside.hw.rfid"
TICK = 0.01
QUICK = Backoff(first=0.01, ceiling=0.05)
NTAG = bytes.fromhex("04 A2 3B 5A 1C 6E 80")
OTHER_NTAG = bytes.fromhex("04 11 33 55 77 99 BB")
EM4100 = bytes.fromhex("0F 00 A1 B2 C3")


class Pty:
    """A pseudo-terminal standing in for a serial device at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.master = -1
        self._slave = -1
        self.plug_in()

    def plug_in(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        staging = self.path.with_name(self.path.name + ".new")
        os.symlink(os.ttyname(self._slave), staging)
        os.replace(staging, self.path)

    def unplug(self) -> None:
        self.path.unlink()
        os.close(self.master)
        os.close(self._slave)
        self.master = self._slave = -1

    def close(self) -> None:
        if self.master >= 0:
            self.unplug()

    def send(self, data: bytes, pieces: int = 4) -> None:
        """Write ``data`` to the device side in ``pieces`` writes; return once all of it
        waits on the reader's side (the kernel hands pty data over asynchronously)."""
        expected = self._waiting() + len(data)
        step = -(-len(data) // pieces)
        for start in range(0, len(data), step):
            os.write(self.master, data[start : start + step])
        deadline = time.monotonic() + 5.0
        pause = threading.Event()
        while self._waiting() < expected:
            # The kernel's worker moves the bytes over; give it the processor.
            assert time.monotonic() < deadline, "the pseudo-terminal never delivered the bytes"
            pause.wait(0.001)

    def _waiting(self) -> int:
        raw = fcntl.ioctl(self._slave, termios.FIONREAD, b"\0\0\0\0")
        return struct.unpack("i", raw)[0]


class Pn532OnPty:
    """A simulated PN532 on the device side, in its own thread as a real chip would be,
    answering in pieces of 5 bytes."""

    def __init__(self, master: int) -> None:
        self.chip = SimulatedPn532()
        self._master = master
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def polls(self) -> int:
        return self.chip.commands.count(IN_LIST_PASSIVE_TARGET)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5.0)

    def _serve(self) -> None:
        while not self._stop.is_set():
            if not select.select([self._master], [], [], TICK)[0]:
                continue
            answer = self.chip.respond(os.read(self._master, 1024))
            for start in range(0, len(answer), 5):
                os.write(self._master, answer[start : start + 5])


def run_until(
    reader: Reader, done: Callable[[list[TagEvent]], bool], timeout: float = 10.0
) -> list[TagEvent]:
    """Poll on the real clock at the daemon's 10 ms tick until ``done(events)``.

    ``timeout`` only keeps a broken reader from hanging the suite.
    """
    events: list[TagEvent] = []
    tick = threading.Event()
    deadline = time.monotonic() + timeout
    while not done(events):
        assert time.monotonic() < deadline, "the reader never got there"
        events += reader.poll(time.monotonic())
        tick.wait(TICK)
    return events


def shown(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [
        (record.levelno, record.getMessage())
        for record in caplog.records
        if record.name == LOG and record.levelno >= logging.INFO
    ]


def retries(caplog: pytest.LogCaptureFixture) -> int:
    return sum(record.levelno == logging.DEBUG for record in caplog.records)


@pytest.fixture
def pty(tmp_path: Path) -> Iterator[Pty]:
    made = Pty(tmp_path / "serial0")
    yield made
    made.close()


def test_rdm6300_over_a_pty(pty: Pty, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOG)
    reader = Rdm6300Reader(str(pty.path), backoff=QUICK)
    try:
        assert reader.poll(0.0) == []
        assert reader.link.is_open

        pty.send(encode(EM4100))
        assert reader.poll(0.01) == []  # one frame is not enough: a bit error may hide in it
        pty.send(encode(EM4100))
        assert reader.poll(0.075) == [TagEvent("0F00A1B2C3", "rdm6300", 0.075)]
        now = 0.075
        for _ in range(30):  # left on: the frame repeats every 65 ms
            now += 0.065
            pty.send(encode(EM4100), pieces=3)
            assert reader.poll(now) == []

        assert reader.poll(now + 0.1) == []  # taken away...
        pty.send(encode(EM4100) * 2, pieces=28)
        assert reader.poll(now + 0.7) == [TagEvent("0F00A1B2C3", "rdm6300", now + 0.7)]
        now += 0.7

        pty.unplug()
        assert reader.poll(now + 0.01) == []
        assert not reader.link.is_open
        for step in range(1, 20):  # attempts to reopen fail while the device is away
            assert reader.poll(now + 0.01 + step * 0.05) == []
        assert retries(caplog) > 3

        pty.plug_in()
        now += 2.0
        assert reader.poll(now) == []
        assert reader.link.is_open
        pty.send(encode(bytes.fromhex("0A 0B 0C 0D 0E")) * 2, pieces=2)
        assert reader.poll(now + 0.01) == [TagEvent("0A0B0C0D0E", "rdm6300", now + 0.01)]
    finally:
        reader.close()
    (lost, lost_text), (back, back_text) = shown(caplog)
    assert (lost, back) == (logging.WARNING, logging.INFO)
    assert lost_text.startswith(f"RFID reader port {pty.path} is unavailable (")
    assert back_text == f"RFID reader port {pty.path} is available again"


def test_pn532_over_a_pty_with_a_chip_answering_in_pieces(
    pty: Pty, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=LOG)
    reader = Pn532Reader(
        str(pty.path), poll_interval=0.02, answer_timeout=2.0, grace=0.05, backoff=QUICK
    )
    peer = Pn532OnPty(pty.master)
    try:
        peer.chip.tag = NTAG
        events = run_until(reader, lambda events: bool(events))
        polls = peer.polls()
        events += run_until(reader, lambda _: peer.polls() >= polls + 8)
        assert [event.uid for event in events] == [NTAG.hex().upper()], "left on: one event"

        peer.chip.tag = None
        polls = peer.polls()
        assert run_until(reader, lambda _: peer.polls() >= polls + 8) == []
        peer.chip.tag = NTAG
        events = run_until(reader, lambda events: bool(events))
        assert [event.uid for event in events] == [NTAG.hex().upper()], "back: a new visit"

        peer.stop()
        pty.unplug()
        run_until(reader, lambda _: retries(caplog) > 3)
        assert not reader.link.is_open

        pty.plug_in()
        peer = Pn532OnPty(pty.master)
        peer.chip.tag = OTHER_NTAG
        events = run_until(reader, lambda events: bool(events))
        assert [event.uid for event in events] == [OTHER_NTAG.hex().upper()]
        assert peer.chip.commands[:2] == [SAM_CONFIGURATION, RF_CONFIGURATION]
    finally:
        reader.close()
        peer.stop()
    (lost, lost_text), (back, back_text) = shown(caplog)
    assert (lost, back) == (logging.WARNING, logging.INFO)
    assert lost_text.startswith(f"RFID reader port {pty.path} is unavailable (")
    assert back_text == f"RFID reader port {pty.path} is available again"


def test_rdm6300_needs_two_matching_frames_in_a_row(pty: Pty) -> None:
    reader = Rdm6300Reader(str(pty.path), backoff=QUICK)
    wrong = bytes.fromhex("0F10A1A2C3")  # two bit errors in EM4100's number: the XOR still fits
    try:
        reader.poll(0.0)
        for at, number in ((0.01, EM4100), (0.075, wrong), (0.14, EM4100)):
            pty.send(encode(number))
            assert reader.poll(at) == [], "a frame that does not match the one before it"
        pty.send(encode(wrong))
        assert reader.poll(0.9) == []
        pty.send(encode(wrong))  # a lone frame long after the last one is not a pair either
        assert reader.poll(2.0) == []
        pty.send(encode(EM4100) * 2)
        assert reader.poll(2.065) == [TagEvent("0F00A1B2C3", "rdm6300", 2.065)]
    finally:
        reader.close()
