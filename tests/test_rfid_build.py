"""``build_reader``: each driver by name, its defaults, and every configuration error's message."""

import sys
import types
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hw.errors import ConfigError
from hw.rfid import FakeReader, NoReader, build_reader
from hw.rfid.pn532_reader import Pn532Reader
from hw.rfid.rc522_reader import MissingLibrary, Rc522Reader
from hw.rfid.rdm6300_reader import Rdm6300Reader
from hw.rfid.simulated import SimulatedRc522


def test_no_setting_means_no_reader() -> None:
    assert isinstance(build_reader({}), NoReader)
    assert isinstance(build_reader({"driver": "none"}), NoReader)


def test_fake() -> None:
    assert isinstance(build_reader({"driver": "fake"}), FakeReader)


def test_pn532_defaults_to_the_reference_uart_at_115200_baud() -> None:
    reader = build_reader({"driver": "pn532-uart"})
    assert isinstance(reader, Pn532Reader)
    assert (reader.link.url, reader.link.baudrate) == ("/dev/serial0", 115200)
    assert not reader.link.is_open, "nothing is opened before the first poll"


def test_rdm6300_defaults_to_the_reference_uart_at_9600_baud() -> None:
    reader = build_reader({"driver": "rdm6300"})
    assert isinstance(reader, Rdm6300Reader)
    assert (reader.link.url, reader.link.baudrate) == ("/dev/serial0", 9600)


def test_port_and_baudrate_can_be_changed() -> None:
    reader = build_reader({"driver": "pn532-uart", "port": "/dev/ttyUSB0", "baudrate": 57600})
    assert isinstance(reader, Pn532Reader)
    assert (reader.link.url, reader.link.baudrate) == ("/dev/ttyUSB0", 57600)


def test_a_missing_port_is_retried_not_refused() -> None:
    reader = build_reader({"driver": "rdm6300", "port": "/dev/no-such-tty"})
    assert reader.poll(0.0) == []
    reader.close()


def test_rc522_opens_spi_0_1_with_reset_on_bcm21(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[tuple[int, int]] = []

    class Chip(SimulatedRc522):
        def open(self, bus: int, device: int) -> None:
            opened.append((bus, device))

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=Chip))
    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    try:
        reader = build_reader({"driver": "rc522-spi"})
        assert isinstance(reader, Rc522Reader)
        assert opened == [(0, 1)]
        assert factory.pin(21).state
        reader.close()
        other = build_reader(
            {"driver": "rc522-spi", "spi_port": 1, "spi_device": 2, "gpio_rst": 25}
        )
        assert opened[-1] == (1, 2)
        assert factory.pin(25).state
        other.close()
    finally:
        factory.close()


def test_rc522_holds_reset_on_the_pin_factory_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    class Chip(SimulatedRc522):
        def open(self, bus: int, device: int) -> None:
            pass

    monkeypatch.setitem(sys.modules, "spidev", types.SimpleNamespace(SpiDev=Chip))
    default, given = MockFactory(), MockFactory()
    monkeypatch.setattr(Device, "pin_factory", default)
    try:
        reader = Rc522Reader.open(gpio_rst=21, pin_factory=given)
        assert given.pin(21).state  # held high on the factory given
        assert not default.pins  # the default factory made no pin
        reader.close()
    finally:
        given.close()
        default.close()


def test_rc522_without_spidev(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(MissingLibrary, match=r"spidev package: sudo systemd/install\.sh --with"):
        build_reader({"driver": "rc522-spi"})


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"driver": "pn533"},
            "rfid.driver: unknown driver 'pn533'; "
            "accepted: none, pn532-uart, rdm6300, rc522-spi, fake",
        ),
        (
            {"driver": "fake", "prot": "/dev/serial0"},
            "rfid.prot: unknown setting; "
            "accepted: driver, port, baudrate, spi_port, spi_device, gpio_rst",
        ),
        (
            {"driver": "rdm6300", "port": ""},
            "rfid.port: expected a device path such as '/dev/serial0', got ''",
        ),
        (
            {"driver": "rdm6300", "port": 0},
            "rfid.port: expected a device path such as '/dev/serial0', got 0",
        ),
        (
            {"driver": "pn532-uart", "baudrate": "fast"},
            "rfid.baudrate: expected an integer from 300 to 4000000, got 'fast'",
        ),
        (
            {"driver": "pn532-uart", "baudrate": True},
            "rfid.baudrate: expected an integer from 300 to 4000000, got True",
        ),
        (
            {"driver": "rc522-spi", "spi_port": -1},
            "rfid.spi_port: expected an integer from 0 to 6, got -1",
        ),
        (
            {"driver": "rc522-spi", "spi_device": 3},
            "rfid.spi_device: expected an integer from 0 to 2, got 3",
        ),
        (
            {"driver": "rc522-spi", "gpio_rst": 28},
            "rfid.gpio_rst: expected an integer from 0 to 27, got 28",
        ),
    ],
)
def test_configuration_errors(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        build_reader(settings)
    assert str(raised.value) == message
    assert isinstance(raised.value, ValueError)
