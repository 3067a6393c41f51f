"""Every reader against one interface test, and the UART readers' behaviour over ``loop://``.

The real drivers run against the simulated chips of ``hw.rfid.simulated``: the
UART ones through pyserial's ``loop://`` port (what the driver writes is taken
out of the loop by the simulated chip, which writes its answer back in), the
RC522 through its SPI stand-in. All of it runs on a clock the test advances
by hand, one 10 ms tick of the daemon's loop at a time.
"""

import logging
from abc import ABC, abstractmethod
from collections.abc import Iterator
from unittest import mock

import pytest
import serial

from hw.events import TagEvent
from hw.rfid import FakeReader, NoReader, Reader
from hw.rfid.outage import Backoff
from hw.rfid.pn532 import (
    IN_LIST_PASSIVE_TARGET,
    NACK_FRAME,
    RF_CONFIGURATION,
    SAM_CONFIGURATION,
    SAM_CONFIGURATION_FRAME,
    WAKE_UP,
)
from hw.rfid.pn532_reader import Pn532Reader
from hw.rfid.rc522_reader import Rc522Reader
from hw.rfid.rdm6300 import encode
from hw.rfid.rdm6300_reader import Rdm6300Reader
from hw.rfid.simulated import SimulatedPn532, SimulatedRc522, SimulatedRdm6300

LOG = "tableside.hw.rfid"
TICK = 0.01
QUICK = Backoff(first=0.05, ceiling=0.2)
NTAG = bytes.fromhex("04 A2 3B 5A 1C 6E 80")
OTHER_NTAG = bytes.fromhex("04 11 33 55 77 99 BB")
EM4100 = bytes.fromhex("0F 00 A1 B2 C3")


class Bench(ABC):
    """A reader and a tag to put on it, run tick by tick on the test's clock."""

    tag = NTAG

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.now = 0.0

    @abstractmethod
    def put(self, tag: bytes | None) -> None:
        """Bring ``tag`` to the reader, or take the tag away with ``None``."""

    @abstractmethod
    def between_polls(self) -> None:
        """What the hardware does between two polls."""

    def run(self, seconds: float) -> list[TagEvent]:
        events: list[TagEvent] = []
        for _ in range(round(seconds / TICK)):
            events += self.reader.poll(self.now)
            self.between_polls()
            self.now += TICK
        return events


class FakeBench(Bench):
    def __init__(self) -> None:
        super().__init__(FakeReader())

    def put(self, tag: bytes | None) -> None:
        fake = self.reader
        assert isinstance(fake, FakeReader)
        if tag is None:
            fake.remove(self.now)
        else:
            fake.present(tag.hex(), self.now)

    def between_polls(self) -> None:
        """Nothing: the fake has no wire."""


class Pn532Bench(Bench):
    def __init__(self, **options: float) -> None:
        self.chip = SimulatedPn532()
        self.wire = b""  # everything the driver wrote
        super().__init__(Pn532Reader("loop://", backoff=QUICK, **options))

    def put(self, tag: bytes | None) -> None:
        self.chip.tag = tag

    def between_polls(self) -> None:
        port = self.reader.link.port
        if port is not None:
            sent = port.read(4096)
            self.wire += sent
            answer = self.chip.respond(sent)
            if answer:
                port.write(answer)

    def run_polls(self, count: int) -> list[TagEvent]:
        """Run until the chip has answered ``count`` more InListPassiveTarget commands."""
        target = self.chip.commands.count(IN_LIST_PASSIVE_TARGET) + count
        events: list[TagEvent] = []
        while self.chip.commands.count(IN_LIST_PASSIVE_TARGET) < target:
            events += self.run(TICK)
        return events + self.run(TICK)


class Rdm6300Bench(Bench):
    tag = EM4100

    def __init__(self) -> None:
        self.module = SimulatedRdm6300()
        super().__init__(Rdm6300Reader("loop://", backoff=QUICK))

    def put(self, tag: bytes | None) -> None:
        self.module.tag = tag

    def between_polls(self) -> None:
        port = self.reader.link.port
        if port is not None:
            port.write(self.module.output(self.now))


class Rc522Bench(Bench):
    def __init__(self) -> None:
        self.chip = SimulatedRc522()
        super().__init__(Rc522Reader(self.chip))

    def put(self, tag: bytes | None) -> None:
        self.chip.present(tag)

    def between_polls(self) -> None:
        """Nothing: the chip answers within each poll."""


BENCHES = {
    "fake": FakeBench,
    "pn532-uart": Pn532Bench,
    "rdm6300": Rdm6300Bench,
    "rc522-spi": Rc522Bench,
}


@pytest.fixture(params=list(BENCHES))
def bench(request: pytest.FixtureRequest) -> Iterator[Bench]:
    made = BENCHES[request.param]()
    yield made
    made.reader.close()


def shown(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    """The reader log lines worth a person's attention: info and above."""
    return [
        (record.levelno, record.getMessage())
        for record in caplog.records
        if record.name == LOG and record.levelno >= logging.INFO
    ]


# --- the interface every reader keeps --------------------------------------------------------


def test_one_event_per_visit_of_a_tag(bench: Bench) -> None:
    reader = bench.reader
    uid = bench.tag.hex().upper()
    assert isinstance(reader, Reader)
    assert bench.run(0.5) == []

    bench.put(bench.tag)
    start = bench.now
    events = bench.run(0.5)
    assert [(event.uid, event.reader) for event in events] == [(uid, reader.name)]
    assert start <= events[0].at < bench.now

    assert bench.run(2.0) == [], "a tag left on the reader is reported once"

    bench.put(None)
    assert bench.run(1.0) == []
    bench.put(bench.tag)
    assert [event.uid for event in bench.run(0.5)] == [uid]

    reader.close()
    reader.close()
    bench.put(None)
    bench.run(1.0)
    bench.put(bench.tag)
    assert bench.run(0.5) == [], "a closed reader reports nothing"


def test_no_reader_reports_nothing() -> None:
    reader = NoReader()
    assert isinstance(reader, Reader)
    assert reader.name == "none"
    assert reader.poll(0.0) == []
    reader.close()


def test_the_fake_keeps_a_history_and_the_instant_of_each_visit() -> None:
    fake = FakeReader(grace=0.3)
    fake.present("04a23b5a1c6e80", at=1.0)
    fake.remove(at=1.2)
    fake.present("04A23B5A1C6E80", at=1.4)  # back within the grace period: same visit
    fake.present("DEADBEEF", at=1.5)  # another tag replaces it
    assert fake.poll(2.0) == [
        TagEvent("04A23B5A1C6E80", "fake", 1.0),
        TagEvent("DEADBEEF", "fake", 1.5),
    ]
    fake.remove(at=2.1)
    fake.present("04A23B5A1C6E80", at=2.2)  # gone since 1.5, well past the grace period
    assert fake.poll(2.5) == [TagEvent("04A23B5A1C6E80", "fake", 2.2)]
    assert [event.at for event in fake.history] == [1.0, 1.5, 2.2]


@pytest.mark.parametrize("uid", ["", "ABC", "04A2XY", "04 A2"])
def test_the_fake_refuses_what_is_not_a_uid(uid: str) -> None:
    with pytest.raises(ValueError, match="a tag UID is an even number of hex digits"):
        FakeReader().present(uid, at=0.0)


def test_a_tag_event_is_a_frozen_value() -> None:
    event = TagEvent("DEADBEEF", "fake", 1.5)
    assert event == TagEvent(uid="DEADBEEF", reader="fake", at=1.5)
    assert len({event, TagEvent("DEADBEEF", "fake", 1.5)}) == 1
    assert event != TagEvent("DEADBEEF", "rdm6300", 1.5)
    assert repr(event) == "TagEvent(uid='DEADBEEF', reader='fake', at=1.5)"
    with pytest.raises(AttributeError):
        event.uid = "04A23B5A1C6E80"  # type: ignore[misc]


# --- PN532 ----------------------------------------------------------------------------------


def test_pn532_wakes_and_configures_the_chip_then_polls() -> None:
    bench = Pn532Bench()
    bench.run(0.3)
    assert bench.wire.startswith(WAKE_UP + SAM_CONFIGURATION_FRAME)
    assert bench.chip.commands[:3] == [SAM_CONFIGURATION, RF_CONFIGURATION, IN_LIST_PASSIVE_TARGET]
    assert set(bench.chip.commands[2:]) == {IN_LIST_PASSIVE_TARGET}


def test_pn532_polls_at_its_interval() -> None:
    bench = Pn532Bench(poll_interval=0.1)
    bench.run(0.1)  # handshake
    before = bench.chip.commands.count(IN_LIST_PASSIVE_TARGET)
    bench.run(1.1)
    # One poll each 0.1 s, plus the 10 ms tick it takes the answer to come back.
    assert bench.chip.commands.count(IN_LIST_PASSIVE_TARGET) - before == 10


def test_pn532_one_empty_poll_does_not_end_a_visit() -> None:
    bench = Pn532Bench()
    bench.put(NTAG)
    assert len(bench.run(0.3)) == 1
    bench.put(None)
    bench.run_polls(1)  # RF flicker: one poll finds nothing
    bench.put(NTAG)
    assert bench.run(1.0) == []


def test_pn532_reports_a_4_and_a_10_byte_uid_in_full() -> None:
    bench = Pn532Bench()
    bench.put(bytes.fromhex("DEADBEEF"))
    assert [event.uid for event in bench.run(0.3)] == ["DEADBEEF"]
    bench.put(bytes(range(1, 11)))
    assert [event.uid for event in bench.run(0.3)] == ["0102030405060708090A"]


def test_pn532_that_stops_answering_is_logged_once_and_woken_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger=LOG)
    bench = Pn532Bench(answer_timeout=0.5)
    bench.chip.mute = True
    bench.run(3.0)
    attempts = bench.wire.count(WAKE_UP)
    assert attempts > 3, "the wake-up is retried"
    assert shown(caplog) == [
        (
            logging.WARNING,
            "PN532 on loop:// is unavailable (no answer within 0.5 s); retrying in the background",
        )
    ]
    bench.chip.mute = False
    bench.put(NTAG)
    assert [event.uid for event in bench.run(1.0)] == [NTAG.hex().upper()]
    assert shown(caplog)[1:] == [(logging.INFO, "PN532 on loop:// is available again")]


def test_pn532_error_frame_restarts_the_handshake(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOG)
    bench = Pn532Bench()
    bench.run(0.3)
    bench.chip.fail_next = True
    bench.run_polls(1)
    polls_before = len(bench.chip.commands)
    bench.run(1.0)
    assert bench.chip.commands[polls_before : polls_before + 3] == [
        SAM_CONFIGURATION,
        RF_CONFIGURATION,
        IN_LIST_PASSIVE_TARGET,
    ]
    assert shown(caplog) == [
        (
            logging.WARNING,
            "PN532 on loop:// is unavailable (it refused a command with an error frame); "
            "retrying in the background",
        ),
        (logging.INFO, "PN532 on loop:// is available again"),
    ]


def test_pn532_nack_restarts_the_handshake(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOG)
    bench = Pn532Bench()
    bench.run(0.3)
    handshakes = bench.chip.commands.count(SAM_CONFIGURATION)
    bench.chip.mute = True
    bench.run(0.2)  # a poll goes out, and a NACK comes back instead of its answer
    bench.reader.link.port.write(NACK_FRAME)
    bench.chip.mute = False
    bench.run(1.0)
    assert bench.chip.commands.count(SAM_CONFIGURATION) == handshakes + 1
    assert shown(caplog)[0] == (
        logging.WARNING,
        "PN532 on loop:// is unavailable (it asked for a frame again (NACK)); "
        "retrying in the background",
    )


def test_pn532_port_that_vanishes_comes_back_with_a_new_handshake(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger=LOG)
    bench = Pn532Bench()
    bench.put(NTAG)
    assert len(bench.run(0.3)) == 1
    port = bench.reader.link.port
    with mock.patch.object(port, "read", side_effect=serial.SerialException("device gone")):
        bench.run(TICK)
    assert not bench.reader.link.is_open
    handshakes = bench.chip.commands.count(SAM_CONFIGURATION)
    bench.run(0.5)
    assert bench.reader.link.port is not port
    assert bench.chip.commands.count(SAM_CONFIGURATION) == handshakes + 1
    assert bench.run(1.0) == [], "the tag lying there all along is not announced again"
    bench.put(OTHER_NTAG)
    assert [event.uid for event in bench.run(0.5)] == [OTHER_NTAG.hex().upper()]
    assert shown(caplog) == [
        (
            logging.WARNING,
            "RFID reader port loop:// is unavailable (device gone); retrying in the background",
        ),
        (logging.INFO, "RFID reader port loop:// is available again"),
    ]


def test_pn532_write_failure_counts_as_the_port_vanishing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bench = Pn532Bench()
    bench.run(0.3)
    port = bench.reader.link.port
    with mock.patch.object(port, "write", side_effect=OSError(5, "Input/output error")):
        bench.run(0.2)
    assert bench.reader.link.port is not port
    assert shown(caplog)[0] == (
        logging.WARNING,
        "RFID reader port loop:// is unavailable ([Errno 5] Input/output error); "
        "retrying in the background",
    )


@pytest.mark.parametrize(
    "refusal",
    [serial.SerialException("device gone"), OSError(5, "Input/output error")],
    ids=["serial", "os"],
)
def test_a_port_that_cannot_even_be_closed_is_let_go_and_opened_again(refusal) -> None:
    """A USB adapter pulled out may fail its close as well as its read: the reader drops the
    port all the same and comes back when the device does."""
    bench = Pn532Bench()
    bench.put(NTAG)
    assert len(bench.run(0.3)) == 1
    port = bench.reader.link.port
    with (
        mock.patch.object(port, "read", side_effect=serial.SerialException("device gone")),
        mock.patch.object(port, "close", side_effect=refusal),
    ):
        bench.run(TICK)
    assert not bench.reader.link.is_open
    bench.run(0.5)
    assert bench.reader.link.port is not None and bench.reader.link.port is not port
    bench.put(OTHER_NTAG)
    assert [event.uid for event in bench.run(0.5)] == [OTHER_NTAG.hex().upper()]


# --- RDM6300 --------------------------------------------------------------------------------


def test_rdm6300_short_gap_is_the_same_visit_and_a_long_one_is_not() -> None:
    bench = Rdm6300Bench()
    bench.put(EM4100)
    assert [event.uid for event in bench.run(0.3)] == ["0F00A1B2C3"]
    bench.put(None)
    bench.run(0.4)  # under the 0.5 s grace period
    bench.put(EM4100)
    assert bench.run(0.5) == []
    bench.put(None)
    bench.run(0.6)
    bench.put(EM4100)
    assert [event.uid for event in bench.run(0.3)] == ["0F00A1B2C3"]


def test_rdm6300_port_that_vanishes_comes_back(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOG)
    bench = Rdm6300Bench()
    bench.put(EM4100)
    assert len(bench.run(0.3)) == 1
    with mock.patch.object(
        bench.reader.link.port, "read", side_effect=serial.SerialException("device gone")
    ):
        bench.run(TICK)
    bench.put(None)
    assert bench.run(1.0) == []
    bench.put(bytes.fromhex("0A 0B 0C 0D 0E"))
    assert [event.uid for event in bench.run(0.3)] == ["0A0B0C0D0E"]
    assert shown(caplog) == [
        (
            logging.WARNING,
            "RFID reader port loop:// is unavailable (device gone); retrying in the background",
        ),
        (logging.INFO, "RFID reader port loop:// is available again"),
    ]


def test_rdm6300_forgets_its_last_frame_when_the_port_reopens() -> None:
    """A tag counts once two frames *in a row* match: a frame from before the port was lost
    and the first one after it reopened are not in a row, even within the grace period."""
    reader = Rdm6300Reader("loop://", backoff=QUICK)
    try:
        assert reader.poll(0.0) == []  # opens the port
        reader.link.port.write(encode(EM4100))
        assert reader.poll(0.01) == []  # one frame is not a tag yet
        with mock.patch.object(
            reader.link.port, "read", side_effect=serial.SerialException("device gone")
        ):
            assert reader.poll(0.02) == []
        assert not reader.link.is_open
        assert reader.poll(0.08) == []  # the first retry, 0.05 s later, reopens it
        assert reader.link.is_open
        reader.link.port.write(encode(EM4100))
        assert reader.poll(0.09) == [], "the frame before the reopening was forgotten"
        reader.link.port.write(encode(EM4100))
        assert reader.poll(0.10) == [TagEvent("0F00A1B2C3", "rdm6300", 0.10)]
    finally:
        reader.close()
