"""The RC522 driver on the simulated chip: ISO 14443-A exchanges, full UIDs, recovery, opening."""

import logging
import subprocess
import sys
import types
from collections.abc import Iterator
from unittest import mock

import pytest
from gpiozero.pins.mock import MockFactory
from pins import mock_pins

from hw.errors import DeviceUnavailable
from hw.events import TagEvent
from hw.rfid.outage import Backoff
from hw.rfid.rc522_reader import MissingLibrary, Rc522Reader, crc_a
from hw.rfid.simulated import SimulatedRc522

LOG = "tableside.hw.rfid"
NTAG = bytes.fromhex("04 A2 3B 5A 1C 6E 80")


@pytest.mark.parametrize(
    ("data", "crc"),
    [
        ("00 00", "A0 1E"),  # ISO/IEC 14443-3 annex B, first example
        ("12 34", "26 CF"),  # ISO/IEC 14443-3 annex B, second example
        ("50 00", "57 CD"),  # HLTA, as every reader sends it
    ],
)
def test_crc_a(data: str, crc: str) -> None:
    assert crc_a(bytes.fromhex(data)) == bytes.fromhex(crc)


@pytest.mark.parametrize(
    "uid",
    ["DEADBEEF", "04A23B5A1C6E80", "0102030405060708090A"],
    ids=["single size", "double size (NTAG)", "triple size"],
)
def test_the_full_uid_of_every_size(uid: str) -> None:
    chip = SimulatedRc522()
    chip.present(bytes.fromhex(uid))
    assert Rc522Reader(chip).poll(0.0) == [TagEvent(uid, "rc522-spi", 0.0)]


def test_what_the_tag_hears_while_a_7_byte_uid_is_read() -> None:
    chip = SimulatedRc522()
    chip.present(NTAG)
    Rc522Reader(chip).poll(0.0)
    cl1 = bytes.fromhex("93 70 88 04 A2 3B") + bytes([0x88 ^ 0x04 ^ 0xA2 ^ 0x3B])
    cl2 = bytes.fromhex("95 70 5A 1C 6E 80") + bytes([0x5A ^ 0x1C ^ 0x6E ^ 0x80])
    assert chip.heard == [
        b"\x52",  # WUPA (7 bits)
        b"\x93\x20",  # anticollision, cascade level 1: CT + 3 UID bytes + BCC come back
        cl1 + crc_a(cl1),  # SELECT level 1: SAK says "UID not complete"
        b"\x95\x20",  # anticollision, cascade level 2: the last 4 UID bytes + BCC
        cl2 + crc_a(cl2),  # SELECT level 2: SAK says "complete"
        bytes.fromhex("50 00 57 CD"),  # HLTA, so that the next WUPA finds the tag again
    ]


def test_a_tag_left_on_is_read_at_every_poll_and_reported_once() -> None:
    chip = SimulatedRc522()
    chip.present(NTAG)
    reader = Rc522Reader(chip, poll_interval=0.1)
    events = [event for step in range(20) for event in reader.poll(step * 0.2)]
    assert chip.selections == 20, "halting keeps the RC522 from missing every other poll"
    assert events == [TagEvent(NTAG.hex().upper(), "rc522-spi", 0.0)]


@pytest.mark.parametrize("tag", [NTAG, None], ids=["a tag", "no tag"])
def test_each_exchange_leaves_start_send_cleared(tag: bytes | None) -> None:
    """StartSend (bit 7 of BitFramingReg, register 0x0D, in the MFRC522 datasheet) starts the
    sending of a Transceive: the driver clears it as each exchange ends, so that nothing goes
    out until the next exchange asks."""
    chip = SimulatedRc522()
    chip.present(tag)
    Rc522Reader(chip).poll(0.0)
    bit_framing = chip.xfer2([0x80 | 0x0D << 1, 0])[1]
    assert not bit_framing & 0x80


def test_the_chip_is_set_up_as_the_datasheet_asks_for_type_a() -> None:
    """Read back over SPI after the first poll (MFRC522 datasheet, section 9): the timer
    starts by itself after each sending (TModeReg 0x2A, TAuto) and ends a Transceive with no
    answer after (2 * TPrescaler + 1) * (TReload + 1) / 13.56 MHz, about 5 ms; 100 % ASK
    (TxASKReg 0x15, bit 6); the CRC preset 6363h of type A (ModeReg 0x11, bits 1-0 = 01);
    both antenna drivers on (TxControlReg 0x14, bits 1-0)."""
    chip = SimulatedRc522()
    Rc522Reader(chip).poll(0.0)

    def read(register: int) -> int:
        return chip.xfer2([0x80 | register << 1, 0])[1]

    prescaler = (read(0x2A) & 0x0F) << 8 | read(0x2B)
    reload = read(0x2C) << 8 | read(0x2D)
    assert read(0x2A) & 0x80
    assert 0.0049 < (2 * prescaler + 1) * (reload + 1) / 13.56e6 < 0.0051
    assert (read(0x15) & 0x40, read(0x11) & 0x03, read(0x14) & 0x03) == (0x40, 0x01, 0x03)


def test_without_a_tag_only_the_wake_up_goes_out() -> None:
    chip = SimulatedRc522()
    reader = Rc522Reader(chip)
    assert reader.poll(0.0) == []
    assert chip.heard == [b"\x52"]


def test_polls_wait_for_the_interval() -> None:
    chip = SimulatedRc522()
    reader = Rc522Reader(chip, poll_interval=0.1)
    for now in (0.0, 0.03, 0.06, 0.09, 0.1):
        reader.poll(now)
    assert len(chip.heard) == 2


def shown(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.levelno >= logging.INFO]


def test_a_chip_that_does_not_answer_is_logged_once_and_retried(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger=LOG)
    chip = SimulatedRc522(version=0x00)
    chip.present(NTAG)
    reader = Rc522Reader(chip, where="/dev/spidev0.1", backoff=Backoff(0.5, 1.0))
    assert [reader.poll(step * 0.1) for step in range(30)] == [[]] * 30
    chip.version = 0x92
    assert [event.uid for step in range(30, 50) for event in reader.poll(step * 0.1)] == [
        NTAG.hex().upper()
    ]
    assert shown(caplog) == [
        (
            logging.WARNING,
            "RC522 on /dev/spidev0.1 is unavailable (no chip answers (version register "
            "reads 0x00)); retrying in the background",
        ),
        (logging.INFO, "RC522 on /dev/spidev0.1 is available again"),
    ]


def test_an_spi_error_is_survived(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOG)
    chip = SimulatedRc522()
    chip.present(NTAG)
    reader = Rc522Reader(chip, backoff=Backoff(0.5, 1.0))
    with mock.patch.object(chip, "xfer2", side_effect=OSError(121, "Remote I/O error")):
        assert reader.poll(0.0) == []
    assert [event.uid for event in reader.poll(0.5)] == [NTAG.hex().upper()]
    assert [level for level, _ in shown(caplog)] == [logging.WARNING, logging.INFO]


class SpidevChip(SimulatedRc522):
    """The simulated chip behind ``spidev.SpiDev()``, which is opened before use."""

    def __init__(self, fails: bool = False) -> None:
        super().__init__()
        self.fails = fails
        self.opened: tuple[int, int] | None = None

    def open(self, bus: int, device: int) -> None:
        if self.fails:
            raise FileNotFoundError(2, "No such file or directory")
        self.opened = (bus, device)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    with mock_pins() as made:
        yield made


def test_open_holds_reset_high_and_close_releases_it(
    monkeypatch: pytest.MonkeyPatch, factory: MockFactory
) -> None:
    chip = SpidevChip()
    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=lambda: chip))
    reader = Rc522Reader.open(0, 1, 21, pin_factory=factory)
    assert chip.opened == (0, 1)
    assert chip.max_speed_hz == 1_000_000  # type: ignore[attr-defined]
    assert factory.pin(21).state
    chip.present(NTAG)
    assert [event.uid for event in reader.poll(0.0)] == [NTAG.hex().upper()]
    reader.close()
    reader.close()
    assert chip.closed
    assert factory.pin(21).function == "input"


def test_open_without_spi_releases_the_reset_pin(
    monkeypatch: pytest.MonkeyPatch, factory: MockFactory
) -> None:
    chip = SpidevChip(fails=True)
    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=lambda: chip))
    with pytest.raises(DeviceUnavailable) as raised:
        Rc522Reader.open(0, 1, 21, pin_factory=factory)
    assert str(raised.value) == (
        "cannot open /dev/spidev0.1 (is SPI enabled?): [Errno 2] No such file or directory"
    )
    assert factory.pin(21).function == "input"


def test_open_without_spidev_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(MissingLibrary) as raised:
        Rc522Reader.open()
    assert str(raised.value) == (
        "the rc522-spi reader needs the spidev package: sudo systemd/install.sh --with spi"
    )
    assert isinstance(raised.value, ImportError)


def test_the_package_imports_without_spidev_or_gpiozero() -> None:
    code = (
        "import sys; sys.modules['spidev'] = None; import hw.rfid; "
        "assert 'gpiozero' not in sys.modules, 'gpiozero imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_reader_opened_on_a_device_names_it_in_the_log(
    monkeypatch: pytest.MonkeyPatch, factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """Which of the Pi's SPI devices has no chip answering: the one the configuration set."""
    caplog.set_level(logging.DEBUG, logger=LOG)
    chip = SpidevChip()
    chip.version = 0x00
    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=lambda: chip))
    reader = Rc522Reader.open(0, 1, 21, pin_factory=factory)
    try:
        assert reader.poll(0.0) == []
        assert shown(caplog)[0][1].startswith("RC522 on /dev/spidev0.1 is unavailable")
    finally:
        reader.close()
