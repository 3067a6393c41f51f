"""gpiozero's mock pins, installed as the default pin factory for one test."""

from collections.abc import Iterator
from contextlib import contextmanager

from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@contextmanager
def mock_pins(**options) -> Iterator[MockFactory]:
    """A fresh MockFactory as gpiozero's default; the previous default comes back after."""
    saved = Device.pin_factory
    factory = Device.pin_factory = MockFactory(**options)
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
