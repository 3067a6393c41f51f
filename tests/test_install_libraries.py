"""A missing library or GPIO chip: the message names the install step that brings it."""

import importlib.abc
import sys
import types

import pytest

from hw.buttons import build_buttons
from hw.display import build_display
from hw.errors import DeviceUnavailable
from hw.rfid.rc522_reader import MissingLibrary, Rc522Reader

# --- what a missing library says -------------------------------------------------------


def not_installed(monkeypatch: pytest.MonkeyPatch, *packages: str) -> None:
    """Import ``packages`` as on a system without them: Python's own "No module named"."""

    class Absent(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.partition(".")[0] in packages:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    for name in [m for m in sys.modules if m.partition(".")[0] in packages]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [Absent(), *sys.meta_path])


def test_rc522_without_spidev_names_the_install_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "spidev", None)
    with pytest.raises(MissingLibrary, match=r"sudo systemd/install\.sh --with spi$"):
        Rc522Reader.open()


def test_an_spi_panel_without_its_libraries_names_the_install_step(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    not_installed(monkeypatch, "RPi", "spidev")
    display = build_display({"driver": "ssd1309", "interface": "spi"})
    assert [record.getMessage() for record in caplog.records] == [
        "display on SPI port 0 device 0 unavailable: "
        "No module named 'RPi'; "
        "an SPI panel needs spidev and RPi.GPIO: sudo systemd/install.sh --with spi"
    ]
    display.close()


def test_an_spi_panel_whose_gpio_chip_cannot_open_is_unavailable(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """What rpi-lgpio raises without a usable /dev/gpiochip (seen in the emulated check)."""
    lgpio = types.ModuleType("lgpio")
    lgpio.error = type("error", (Exception,), {})
    monkeypatch.setitem(sys.modules, "lgpio", lgpio)

    def no_chip(**options: object) -> None:
        raise lgpio.error("'can not open gpiochip'")

    monkeypatch.setattr("luma.core.interface.serial.spi", no_chip)
    display = build_display({"driver": "ssd1309", "interface": "spi"})
    assert [record.getMessage() for record in caplog.records] == [
        "display on SPI port 0 device 0 unavailable: "
        "[Errno 19] the DC and RST lines: 'can not open gpiochip'"
    ]
    display.close()


def test_buttons_without_lgpio_name_the_install_step(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "lgpio", None)
    with pytest.raises(DeviceUnavailable, match=r"\(lgpio, .*: sudo systemd/install\.sh\)$"):
        build_buttons({"pin_factory": "lgpio"})
