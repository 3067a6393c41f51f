"""The optional buzzer: four short patterns that never hold up the main loop.

Every sound is a :class:`Pattern` of equal beeps played in the background; a new
sound cuts off the one still playing, so feedback always belongs to the latest
input. A table without a buzzer gets :class:`NoBuzzer` and the daemon never asks.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from hw.buttons import bcm_pin, check_settings, choose, open_pin_factory
from hw.errors import DeviceUnavailable

# gpiozero is imported when the pin is opened, not here, so that the
# configuration and the daemon's first frame do not wait for it (see hw.buttons).
if TYPE_CHECKING:
    from gpiozero import Buzzer as GpiozeroBuzzer
    from gpiozero.pins import Factory

REFERENCE_PIN = 18  # BCM18, physical pin 12, active-high
DRIVERS = ("gpio", "fake", "none")
SETTINGS = ("driver", "pin", "pin_factory")


class Pattern(NamedTuple):
    """``count`` beeps of ``on_s`` seconds, each followed by ``off_s`` of silence.

    A named tuple, not a dataclass: ``dataclasses`` imports ``inspect``, and
    the configuration imports this module on the way to the daemon's first frame.
    """

    name: str
    on_s: float
    off_s: float
    count: int


CLICK = Pattern("click", on_s=0.015, off_s=0.0, count=1)  # a button was taken
CONFIRM = Pattern("confirm", on_s=0.06, off_s=0.06, count=2)  # an action was recorded
ALARM = Pattern("alarm", on_s=0.15, off_s=0.1, count=3)  # refused, or the table disagrees
CHIRP = Pattern("chirp", on_s=0.03, off_s=0.03, count=3)  # the turn passed to the next player


class Buzzer(ABC):
    """What the daemon may ask of a buzzer; every call returns at once."""

    def click(self) -> None:
        self.play(CLICK)

    def confirm(self) -> None:
        self.play(CONFIRM)

    def alarm(self) -> None:
        self.play(ALARM)

    def chirp(self) -> None:
        self.play(CHIRP)

    @abstractmethod
    def play(self, pattern: Pattern) -> None:
        """Start ``pattern`` in the background, cutting off any pattern still playing.

        Once closed, a buzzer drops every pattern: a last screen may still ask.
        """

    @abstractmethod
    def close(self) -> None:
        """Fall silent and release the pin; closing twice is harmless."""


class GpioBuzzer(Buzzer):
    """An active buzzer driven high through gpiozero, on any pin factory.

    ``pin_factory`` is a gpiozero factory, the name of one (which this buzzer then
    owns and closes), or ``None`` for gpiozero's own choice.
    """

    def __init__(
        self, pin: int = REFERENCE_PIN, *, pin_factory: Factory | str | None = None
    ) -> None:
        from gpiozero import Buzzer as GpiozeroBuzzer  # not at the top: see the imports

        self._owns_factory = isinstance(pin_factory, str)
        self.pin_factory = open_pin_factory("buzzer.pin_factory", pin_factory)
        try:
            self._device: GpiozeroBuzzer | None = GpiozeroBuzzer(
                pin, active_high=True, initial_value=False, pin_factory=self.pin_factory
            )
        except Exception as error:  # every pin library raises its own kind
            self._device = None
            self.close()
            raise DeviceUnavailable(f"buzzer.pin: cannot use BCM {pin}: {error}") from error

    def play(self, pattern: Pattern) -> None:
        if self._device is not None:
            self._device.beep(pattern.on_s, pattern.off_s, n=pattern.count, background=True)

    def close(self) -> None:
        if self._device is not None:
            self._device.off()
            self._device.close()
            self._device = None
        if self._owns_factory:
            self.pin_factory.close()
            self._owns_factory = False


class FakeBuzzer(Buzzer):
    """Records the name of every pattern asked for before closing, for tests and the simulator."""

    def __init__(self) -> None:
        self.history: list[str] = []
        self.closed = False

    def play(self, pattern: Pattern) -> None:
        if not self.closed:
            self.history.append(pattern.name)

    def close(self) -> None:
        self.closed = True


class NoBuzzer(Buzzer):
    """The table has no buzzer: every sound is silently dropped."""

    def play(self, pattern: Pattern) -> None:
        """Nothing to sound."""

    def close(self) -> None:
        """Nothing to release."""


def build_buzzer(settings: Mapping[str, Any]) -> Buzzer:
    """Build the buzzer from the ``[buzzer]`` settings table; see ``SETTINGS``."""
    check_settings("buzzer", settings, SETTINGS)
    driver = choose("buzzer.driver", "driver", settings.get("driver", "gpio"), DRIVERS)
    if driver == "none":
        return NoBuzzer()
    if driver == "fake":
        return FakeBuzzer()
    pin = bcm_pin("buzzer.pin", settings.get("pin", REFERENCE_PIN))
    return GpioBuzzer(pin, pin_factory=settings.get("pin_factory"))
