"""The buzzer: what the mock pin did for each pattern, the fake's history, the settings.

Patterns play on gpiozero's background thread, so the mock pin tells the test
when it has changed (a condition, never a sleep) and which thread changed it.
"""

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Device, DigitalInputDevice
from gpiozero.pins.mock import MockFactory, MockPin
from pins import mock_pins

from hw.buzzer import (
    ALARM,
    CLICK,
    CONFIRM,
    FakeBuzzer,
    GpioBuzzer,
    NoBuzzer,
    Pattern,
    build_buzzer,
)
from hw.errors import ConfigError, DeviceUnavailable


class WatchedPin(MockPin):
    """gpiozero's mock pin, also noting which threads changed it and waking waiters."""

    def __init__(self, factory: MockFactory, info: Any) -> None:
        self.changed = threading.Condition()
        self.writers: set[int] = set()
        super().__init__(factory, info)

    def _change_state(self, value: bool) -> bool:
        with self.changed:
            changed = super()._change_state(value)
            if changed:
                self.writers.add(threading.get_ident())
                self.changed.notify_all()
            return changed

    def levels_after(self, changes: int) -> list[bool]:
        """The levels so far, once at least ``changes`` changes have happened."""
        with self.changed:
            done = self.changed.wait_for(lambda: len(self.states) > changes, timeout=5)
        assert done, f"the pin changed only {len(self.states) - 1} times"
        return [state.state for state in self.states]


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A fresh MockFactory of watched pins as gpiozero's default, restored after."""
    with mock_pins(pin_class=WatchedPin) as factory:
        yield factory


@pytest.fixture
def buzzer(mock_factory: MockFactory) -> Iterator[GpioBuzzer]:
    made = GpioBuzzer()
    try:
        yield made
    finally:
        made.close()


@pytest.mark.parametrize(
    ("sound", "beeps"),
    [("click", CLICK.count), ("confirm", CONFIRM.count), ("alarm", ALARM.count)],
)
def test_each_sound_beeps_on_bcm18_from_a_background_thread(
    mock_factory: MockFactory, buzzer: GpioBuzzer, sound: str, beeps: int
) -> None:
    pin = mock_factory.pin(18)
    getattr(buzzer, sound)()
    assert pin.levels_after(2 * beeps) == [False] + [True, False] * beeps
    assert pin.writers and threading.get_ident() not in pin.writers  # the call did not block


def test_close_silences_a_pattern_in_progress(
    mock_factory: MockFactory, buzzer: GpioBuzzer
) -> None:
    pin = mock_factory.pin(18)
    buzzer.alarm()
    assert pin.levels_after(1)[-1] is True
    buzzer.close()
    assert pin.state is False


def test_a_sound_after_close_is_dropped(mock_factory: MockFactory, buzzer: GpioBuzzer) -> None:
    buzzer.close()
    buzzer.click()
    assert [state.state for state in mock_factory.pin(18).states] == [False]


def test_pin_and_pin_factory_from_settings() -> None:
    buzzer = build_buzzer({"pin": 12, "pin_factory": "mock"})
    try:
        assert isinstance(buzzer.pin_factory, MockFactory)
        assert buzzer.pin_factory is not Device.pin_factory
        pin = buzzer.pin_factory.pin(12)
        assert (pin.function, pin.state) == ("output", False)
    finally:
        buzzer.close()
    assert buzzer.pin_factory.pins == {}


def test_pin_in_use_is_unavailable(mock_factory: MockFactory) -> None:
    taken = DigitalInputDevice(18)
    try:
        with pytest.raises(DeviceUnavailable, match=r"^buzzer\.pin: cannot use BCM 18: "):
            build_buzzer({})
    finally:
        taken.close()


@pytest.mark.parametrize("driver", ["gpio", "fake", "none"])
def test_every_driver_takes_every_call(mock_factory: MockFactory, driver: str) -> None:
    """Every sound on every driver, then ``close`` twice ("Fall silent and release the pin;
    closing twice is harmless"): the fake heard each sound, the pin is low and free again."""
    buzzer = build_buzzer({"driver": driver})
    for sound in (buzzer.click, buzzer.confirm, buzzer.alarm, buzzer.chirp):
        sound()
    buzzer.close()
    buzzer.close()
    if driver == "fake":
        assert buzzer.history == ["click", "confirm", "alarm", "chirp"] and buzzer.closed
    elif driver == "gpio":
        assert mock_factory.pin(18).state is False
        taken = DigitalInputDevice(18)  # raises while the buzzer still holds BCM 18
        assert taken.pin is mock_factory.pin(18)
        taken.close()
    else:
        assert isinstance(buzzer, NoBuzzer)


def test_fake_history() -> None:
    buzzer = FakeBuzzer()
    buzzer.click()
    buzzer.alarm()
    buzzer.confirm()
    buzzer.close()
    buzzer.click()
    assert buzzer.history == ["click", "alarm", "confirm"]
    assert buzzer.closed


def test_patterns_are_frozen_values() -> None:
    assert Pattern("click", on_s=0.015, off_s=0.0, count=1) == CLICK
    assert [pattern.count for pattern in (CLICK, CONFIRM, ALARM)] == [1, 2, 3]
    with pytest.raises(AttributeError):
        CLICK.count = 2  # type: ignore[misc]


def test_drivers_by_name(mock_factory: MockFactory) -> None:
    assert isinstance(build_buzzer({"driver": "none"}), NoBuzzer)
    assert isinstance(build_buzzer({"driver": "fake"}), FakeBuzzer)
    gpio = build_buzzer({})
    try:
        assert isinstance(gpio, GpioBuzzer)
    finally:
        gpio.close()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"driver": "pwm"}, "buzzer.driver: unknown driver 'pwm'; accepted: gpio, fake, none"),
        ({"pins": 18}, "buzzer: unknown setting 'pins'; accepted: driver, pin, pin_factory"),
        ({"pin": "18"}, "buzzer.pin: expected an integer BCM pin number, got '18'"),
        ({"pin": 40}, "buzzer.pin: BCM 40 is not a GPIO of the 40-pin header (0 to 27)"),
        (
            {"pin_factory": "gpio"},
            "buzzer.pin_factory: unknown pin factory 'gpio'; "
            "accepted: lgpio, mock, native, pigpio, rpigpio",
        ),
    ],
)
def test_settings_errors(mock_factory: MockFactory, settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        build_buzzer(settings)
    assert str(raised.value) == message


def test_a_hand_off_chirps_by_day_and_stays_silent_at_night(tmp_path):
    import time as clock

    from firmware_app.app import App
    from firmware_app.loop import Loop
    from firmware_app.store.journal import Journal
    from hw.buttons import FakeButtons
    from hw.buzzer import FakeBuzzer
    from hw.display import FakeDisplay
    from hw.rfid.fake import FakeReader

    def at(hour: int) -> float:
        return clock.mktime((2026, 12, 1, hour, 30, 0, 0, 0, -1))

    for hour, setting, chirps in (
        (12, "day", 1),
        (23, "day", 0),
        (23, "always", 1),
        (12, "never", 0),
    ):
        journal = Journal(tmp_path / f"{hour}-{setting}.sqlite")
        app = App(journal, language="en", clock=lambda h=hour: at(h))
        app.set_setting("handoff_chirp", setting)
        buttons, buzzer = FakeButtons(), FakeBuzzer()
        loop = Loop(app, buttons, FakeReader(), FakeDisplay(clock=lambda: 0.0), buzzer=buzzer)
        app.handed_off()
        buttons.press("down", 0.0)
        loop.tick(0.01)
        assert buzzer.history.count("chirp") == chirps, (hour, setting)
        journal.close()
