"""The buttons: one set of interface tests run on both drivers, then each driver alone.

GpioButtons runs on gpiozero's MockFactory: a test drives a mock pin low (pressed)
or high at a time it sets on a hand-advanced clock. FakeButtons gets the same
presses through its helpers. Both must give exactly the same events.
"""

import importlib.util
import logging
import math
import re
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import gpiozero.pins.native
import pytest
from gpiozero import Device, DigitalInputDevice
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from hw.buttons import (
    DEFAULT_TIMING,
    REFERENCE_PINS,
    FakeButtons,
    GpioButtons,
    Timing,
    bcm_pin,
    build_buttons,
    open_pin_factory,
)
from hw.errors import ConfigError, DeviceUnavailable
from hw.events import ButtonEvent, Press

FOUR = {"up": 5, "down": 6, "ok": 13, "back": 19}
EXACT = Timing(min_press_ms=0)  # every edge as it comes: the glitch filter is tested alone


class Clock:
    """A monotonic clock that only moves when a test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class GpioTable:
    """Presses the buttons of a GpioButtons by driving its mock pins."""

    def __init__(self, factory: MockFactory, settings: Mapping[str, Any]) -> None:
        self.clock = Clock()
        self.buttons = build_buttons(settings, clock=self.clock)
        self._pins = settings.get("pins", REFERENCE_PINS)
        self._factory = factory

    def press(self, name: str, at: float) -> None:
        self.clock.now = at
        self._factory.pin(self._pins[name]).drive_low()

    def release(self, name: str, at: float) -> None:
        self.clock.now = at
        self._factory.pin(self._pins[name]).drive_high()


class FakeTable:
    """Presses the buttons of a FakeButtons through its own helpers."""

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.buttons = build_buttons({**settings, "driver": "fake"})
        self.press = self.buttons.press
        self.release = self.buttons.release


@pytest.fixture(params=["gpio", "fake"])
def table(request: pytest.FixtureRequest, mock_factory: MockFactory) -> Iterator[Any]:
    """Builds a panel (11 reference buttons unless ``pins`` say otherwise) on one driver."""
    built = []

    def make(**settings: Any) -> GpioTable | FakeTable:
        # The interface tests follow each edge exactly; the glitch filter has its own.
        settings = {"min_press_ms": 0, **settings}
        made = GpioTable(mock_factory, settings) if request.param == "gpio" else FakeTable(settings)
        built.append(made)
        return made

    try:
        yield make
    finally:
        for made in built:
            made.buttons.close()


def seen(events: list[ButtonEvent]) -> list[tuple[str, str, float]]:
    """Events as short tuples, times rounded to the microsecond."""
    return [(event.name, event.kind.name, round(event.at, 6)) for event in events]


# One interface, two drivers.


def test_press_then_release(table: Any) -> None:
    panel = table()
    panel.press("ok", 1.0)
    assert seen(panel.buttons.poll(1.0)) == [("ok", "PRESS", 1.0)]
    assert panel.buttons.poll(1.2) == []
    panel.release("ok", 1.3)
    assert seen(panel.buttons.poll(1.31)) == [("ok", "RELEASE", 1.3)]


def test_poll_with_nothing_pending(table: Any) -> None:
    buttons = table().buttons
    assert buttons.poll(0.0) == []
    assert buttons.poll(100.0) == []


def test_an_edge_stamped_before_the_last_poll_counts_at_that_poll(table: Any) -> None:
    """A pin callback can race with a poll; events must still never go back in time."""
    panel = table()
    panel.buttons.poll(2.0)
    panel.press("ok", 1.5)
    assert seen(panel.buttons.poll(2.01)) == [("ok", "PRESS", 2.0)]


def test_long_press_fires_once(table: Any) -> None:
    panel = table()
    panel.press("ok", 0.0)
    assert seen(panel.buttons.poll(0.79)) == [("ok", "PRESS", 0.0)]
    assert seen(panel.buttons.poll(0.8)) == [("ok", "LONG", 0.8)]
    assert panel.buttons.poll(5.0) == []
    panel.release("ok", 5.0)
    assert seen(panel.buttons.poll(5.0)) == [("ok", "RELEASE", 5.0)]


def test_next_due_is_the_first_moment_a_poll_can_bring_an_event(table: Any) -> None:
    """Where a simulator may move its clock to: no event before it, the next one at it."""
    timing = Timing(min_press_ms=10)
    panel = table(min_press_ms=timing.min_press_ms)
    buttons = panel.buttons
    assert buttons.next_due() == math.inf  # nothing held: nothing comes
    panel.press("down", 1.0)
    assert buttons.next_due() == -math.inf  # an edge no poll has taken yet
    assert buttons.poll(1.0) == []
    confirmed = 1.0 + timing.min_press_ms / 1000
    assert buttons.next_due() == pytest.approx(confirmed)  # the press to confirm
    assert seen(buttons.poll(confirmed)) == [("down", "PRESS", round(confirmed, 6))]
    first_repeat = confirmed + timing.repeat_delay_ms / 1000  # before the long press
    assert buttons.next_due() == pytest.approx(first_repeat)
    assert buttons.poll(1.5) == []  # nothing before it
    panel.release("down", 1.5)
    assert seen(buttons.poll(1.5)) == [("down", "RELEASE", 1.5)]
    assert buttons.next_due() == math.inf


def test_next_due_is_an_edge_stamped_ahead() -> None:
    buttons = FakeButtons()
    buttons.hold("ok", 0.5, start=3.0)
    assert buttons.poll(0.0) == []
    assert buttons.next_due() == 3.0


def test_repeat_cadence_is_exact_and_independent_of_the_polls(table: Any) -> None:
    def held_for_one_second(start: float) -> list[tuple[str, str, float]]:
        steps = [("PRESS", 0.0), ("REPEAT", 0.5), ("REPEAT", 0.65)]
        steps += [("LONG", 0.8), ("REPEAT", 0.8)]  # due together: LONG first
        steps += [("REPEAT", 0.95)]
        return [("up", kind, round(start + after, 6)) for kind, after in steps]

    panel = table()
    panel.press("up", 2.0)
    every_tick = [event for ms in range(2000, 3001, 10) for event in panel.buttons.poll(ms / 1000)]
    assert seen(every_tick) == held_for_one_second(2.0)
    panel.release("up", 3.0)
    panel.buttons.poll(3.0)
    panel.press("up", 10.0)
    assert seen(panel.buttons.poll(11.0)) == held_for_one_second(10.0)


def test_only_the_repeat_buttons_repeat(table: Any) -> None:
    panel = table(repeat=["ok"])
    panel.press("up", 0.0)
    panel.press("ok", 0.0)
    assert seen(panel.buttons.poll(0.6)) == [
        ("up", "PRESS", 0.0),
        ("ok", "PRESS", 0.0),
        ("ok", "REPEAT", 0.5),
    ]


def test_contact_chatter_gives_one_press_and_one_release(table: Any) -> None:
    panel = table()
    for at, pressed in [(1.0, True), (1.002, False), (1.004, True), (1.007, False), (1.009, True)]:
        (panel.press if pressed else panel.release)("ok", at)
    assert seen(panel.buttons.poll(1.01)) == [("ok", "PRESS", 1.0)]
    assert panel.buttons.poll(1.05) == []
    for at, pressed in [(1.5, False), (1.503, True), (1.506, False)]:
        (panel.press if pressed else panel.release)("ok", at)
    assert seen(panel.buttons.poll(1.6)) == [("ok", "RELEASE", 1.5)]


def test_tap_shorter_than_the_lock_out_is_released_at_its_end(table: Any) -> None:
    panel = table()
    panel.press("ok", 1.0)
    panel.release("ok", 1.01)
    assert seen(panel.buttons.poll(1.05)) == [("ok", "PRESS", 1.0), ("ok", "RELEASE", 1.02)]


def test_a_second_tap_inside_the_lock_out_counts_when_the_lock_out_ends(table: Any) -> None:
    panel = table()
    panel.press("ok", 1.0)
    panel.release("ok", 1.1)
    panel.press("ok", 1.11)  # inside the 20 ms that follow the release, then held
    # one late poll brings the held press's long press too
    assert seen(panel.buttons.poll(2.0)) == [
        ("ok", "PRESS", 1.0),
        ("ok", "RELEASE", 1.1),
        ("ok", "PRESS", 1.12),
        ("ok", "LONG", 1.92),
    ]


def test_two_buttons_at_once_each_get_their_events_in_time_order(table: Any) -> None:
    panel = table()
    panel.press("up", 0.0)
    panel.press("ok", 0.1)
    assert seen(panel.buttons.poll(1.0)) == [
        ("up", "PRESS", 0.0),
        ("ok", "PRESS", 0.1),
        ("up", "REPEAT", 0.5),
        ("up", "REPEAT", 0.65),
        ("up", "LONG", 0.8),
        ("up", "REPEAT", 0.8),
        ("ok", "LONG", 0.9),
        ("up", "REPEAT", 0.95),
    ]
    panel.release("ok", 1.02)
    panel.release("up", 1.03)
    assert seen(panel.buttons.poll(1.04)) == [("ok", "RELEASE", 1.02), ("up", "RELEASE", 1.03)]


def test_a_button_held_across_a_screen_change_is_silent_until_pressed_again(table: Any) -> None:
    panel = table()
    panel.press("down", 0.0)
    assert seen(panel.buttons.poll(0.6)) == [("down", "PRESS", 0.0), ("down", "REPEAT", 0.5)]
    panel.buttons.forget_held()
    assert panel.buttons.poll(2.0) == []  # no LONG, no more REPEAT
    for at, pressed in [(2.1, False), (2.105, True), (2.11, False)]:  # a bouncy release
        (panel.press if pressed else panel.release)("down", at)
    assert panel.buttons.poll(2.2) == []
    panel.press("down", 3.0)
    assert seen(panel.buttons.poll(3.5)) == [("down", "PRESS", 3.0), ("down", "REPEAT", 3.5)]


def test_forgetting_leaves_buttons_that_are_not_held_alone(table: Any) -> None:
    panel = table()
    panel.buttons.forget_held()
    panel.press("ok", 1.0)
    panel.release("ok", 1.1)
    assert seen(panel.buttons.poll(1.2)) == [("ok", "PRESS", 1.0), ("ok", "RELEASE", 1.1)]


def test_a_release_without_a_press_gives_nothing(table: Any) -> None:
    panel = table()
    panel.press("ok", 1.0)
    panel.release("ok", 1.1)
    panel.buttons.poll(1.2)
    panel.release("ok", 1.3)
    assert panel.buttons.poll(1.4) == []


def test_four_button_build(table: Any) -> None:
    panel = table(pins=FOUR)
    assert panel.buttons.names == ("up", "down", "ok", "back")
    for offset, name in enumerate(panel.buttons.names):
        panel.press(name, offset)
        panel.release(name, offset + 0.1)
    assert seen(panel.buttons.poll(4.0)) == [
        (name, kind, round(offset + delay, 6))
        for offset, name in enumerate(FOUR)
        for kind, delay in [("PRESS", 0.0), ("RELEASE", 0.1)]
    ]


def test_the_default_build_is_the_reference_wiring(table: Any) -> None:
    panel = table()
    assert panel.buttons.names == tuple(REFERENCE_PINS)
    panel.press("black", 1.0)
    assert seen(panel.buttons.poll(1.0)) == [("black", "PRESS", 1.0)]


def test_close_twice_is_harmless(table: Any) -> None:
    """``close``: "Release the pins; closing twice is harmless": after two closes the same
    pins make a new panel, which reads their presses."""
    buttons = table().buttons
    buttons.close()
    buttons.close()
    again = table()
    again.press("ok", 1.0)
    assert seen(again.buttons.poll(1.0)) == [("ok", "PRESS", 1.0)]


# The shared machine under random chatter, holds and gaps.

DEBOUNCE_MS = 20


@st.composite
def bouncy_presses(draw: st.DrawFn) -> list[tuple[int, int, list[int], list[int]]]:
    """Presses as (gap, hold, press bounces, release bounces), in whole milliseconds.

    Bounces are offsets of extra edges (an even number) inside the lock-out; holds
    avoid the exact instants a LONG or REPEAT falls due.
    """
    bounces = st.lists(st.integers(1, DEBOUNCE_MS - 1), max_size=6, unique=True).map(
        lambda offsets: sorted(offsets)[: len(offsets) // 2 * 2]
    )
    hold = st.integers(DEBOUNCE_MS + 1, 2000).filter(
        lambda ms: ms != 800 and not (ms >= 500 and (ms - 500) % 150 == 0)
    )
    press = st.tuples(st.integers(DEBOUNCE_MS + 1, 1000), hold, bounces, bounces)
    return draw(st.lists(press, min_size=1, max_size=5))


@settings(max_examples=100, deadline=None)
@given(bouncy_presses())
def test_machine_under_chatter(presses: list[tuple[int, int, list[int], list[int]]]) -> None:
    ticking, late = FakeButtons(timing=EXACT), FakeButtons(timing=EXACT)
    expected = []
    start = 0
    for gap, hold, press_bounces, release_bounces in presses:
        start += gap
        for buttons in (ticking, late):
            buttons.press("up", start / 1000)
            for i, offset in enumerate(press_bounces):
                (buttons.release if i % 2 == 0 else buttons.press)("up", (start + offset) / 1000)
            buttons.release("up", (start + hold) / 1000)
            for i, offset in enumerate(release_bounces):
                at = (start + hold + offset) / 1000
                (buttons.press if i % 2 == 0 else buttons.release)("up", at)
        repeats = 0 if hold < 500 else (hold - 500) // 150 + 1
        expected.append(("PRESS", start))
        expected += [("REPEAT", start + 500 + 150 * k) for k in range(repeats)]
        expected += [("LONG", start + 800)] if hold > 800 else []
        expected.append(("RELEASE", start + hold))
        start += hold
    end = start + 1000
    for ms in range(0, end, 10):
        ticking.poll(ms / 1000)
    ticking.poll(end / 1000)
    late.poll(end / 1000)
    assert ticking.history == late.history
    assert sorted((e.kind.name, round(e.at * 1000)) for e in late.history) == sorted(expected)


# GpioButtons alone.


def test_gpio_pins_are_pulled_up_with_no_library_debounce(mock_factory: MockFactory) -> None:
    buttons = GpioButtons(FOUR, clock=Clock())
    try:
        for bcm in FOUR.values():
            pin = mock_factory.pin(bcm)
            assert (pin.pull, pin.bounce, pin.state) == ("up", None, True)
        assert buttons.pin_factory is mock_factory
    finally:
        buttons.close()


def test_gpio_button_held_when_the_panel_opens_is_silent_until_pressed_again(
    mock_factory: MockFactory,
) -> None:
    clock = Clock()
    mock_factory.pin(13).drive_low()
    buttons = GpioButtons(FOUR, clock=clock, timing=EXACT)
    try:
        clock.now = 1.0
        mock_factory.pin(13).drive_high()
        assert buttons.poll(2.0) == []
        clock.now = 3.0
        mock_factory.pin(13).drive_low()
        assert seen(buttons.poll(3.0)) == [("ok", "PRESS", 3.0)]
    finally:
        buttons.close()


def test_gpio_edges_from_another_thread_reach_the_poll(mock_factory: MockFactory) -> None:
    """Real pin libraries call back from their own thread; the queue hands edges over."""
    clock = Clock()
    buttons = GpioButtons(FOUR, clock=clock, timing=EXACT)
    try:
        clock.now = 1.0
        pressing = threading.Thread(target=mock_factory.pin(6).drive_low)
        pressing.start()
        pressing.join(timeout=5)
        assert seen(buttons.poll(1.0)) == [("down", "PRESS", 1.0)]
    finally:
        buttons.close()


def test_gpio_closed_panel_releases_its_pins(mock_factory: MockFactory) -> None:
    buttons = GpioButtons(FOUR, clock=Clock())
    buttons.close()
    mock_factory.pin(5).drive_low()
    assert buttons.poll(1.0) == []
    DigitalInputDevice(5).close()  # would raise GPIOPinInUse if still held


def test_gpio_pin_factory_named_in_settings_is_owned_by_the_panel() -> None:
    clock = Clock()
    buttons = build_buttons({"pin_factory": "mock", "pins": FOUR, "min_press_ms": 0}, clock=clock)
    try:
        assert isinstance(buttons.pin_factory, MockFactory)
        assert buttons.pin_factory is not Device.pin_factory
        clock.now = 0.5
        buttons.pin_factory.pin(19).drive_low()
        assert seen(buttons.poll(0.5)) == [("back", "PRESS", 0.5)]
    finally:
        buttons.close()
    assert buttons.pin_factory.pins == {}


def test_gpio_pin_in_use_is_unavailable_and_releases_the_others(mock_factory: MockFactory) -> None:
    taken = DigitalInputDevice(6)
    try:
        with pytest.raises(DeviceUnavailable, match=r"^buttons\.pins\.down: cannot use BCM 6: "):
            GpioButtons({"up": 5, "down": 6})
    finally:
        taken.close()
    DigitalInputDevice(5).close()  # would raise GPIOPinInUse if "up" were still held


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="a real GPIO chip is present")
def test_gpio_pin_factory_that_cannot_start_is_unavailable() -> None:
    with pytest.raises(
        DeviceUnavailable, match=r"^buttons\.pin_factory: cannot start pin factory 'lgpio': "
    ):
        build_buttons({"pin_factory": "lgpio"})


# docs/install.md: the Pi's pin library comes with the install script.
NO_LGPIO = " (lgpio, the Pi's pin library, is not installed: sudo systemd/install.sh)"


def test_a_missing_lgpio_is_named_with_the_command_that_installs_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(DeviceUnavailable) as refused:
        build_buttons({"pin_factory": "lgpio"})
    why = refused.value.__cause__  # the library's own words, then the hint, nothing between
    assert str(refused.value) == (
        f"buttons.pin_factory: cannot start pin factory 'lgpio': {why}{NO_LGPIO}"
    )


@pytest.mark.parametrize("factory", ["lgpio", "rpigpio"])
def test_no_lgpio_hint_where_lgpio_is_installed_or_another_library_was_named(
    monkeypatch: pytest.MonkeyPatch, factory: str
) -> None:
    """An installed lgpio that fails (no GPIO chip), or another library named, is not helped
    by installing lgpio."""
    installed = factory == "lgpio"
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: installed and name == "lgpio" or None
    )
    with pytest.raises(DeviceUnavailable) as refused:
        build_buttons({"pin_factory": factory})
    assert "not installed" not in str(refused.value)
    assert str(refused.value).endswith(str(refused.value.__cause__))


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="a real GPIO chip is present")
def test_gpiozero_s_default_away_from_a_pi_names_each_library_it_fell_back_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """gpiozero warns once per pin library it gives up on: the error folds the warnings into
    its one line, in brackets, separated by semicolons, so that the log says what was tried."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    with pytest.raises(DeviceUnavailable) as refused:
        open_pin_factory("buttons.pin_factory", None)
    message = str(refused.value)
    assert message.startswith("buttons.pin_factory: cannot start pin factory gpiozero's default: ")
    libraries = ("lgpio", "rpigpio", "pigpio", "native")
    tried = "; ".join(f"Falling back from {name}: [^;]*" for name in libraries)
    assert re.search(rf" \({tried}\){re.escape(NO_LGPIO)}$", message), message


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="a real GPIO chip is present")
def test_each_library_fallen_back_from_is_logged_a_line_when_a_later_one_works(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The panel starts on gpiozero's last choice, and the log still says what failed first:
    here gpiozero's own chain runs, its last library stood in for by the mock one."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(gpiozero.pins.native, "NativeFactory", MockFactory)
    with caplog.at_level(logging.INFO, logger="tableside.hw.buttons"):
        factory = open_pin_factory("buttons.pin_factory", None)
    factory.close()
    assert isinstance(factory, MockFactory)
    lines = [record.getMessage() for record in caplog.records]
    tried = ["from lgpio: ", "from rpigpio: ", "from pigpio: ", "to the experimental pin factory "]
    assert len(lines) == len(tried), lines
    for line, start in zip(lines, tried, strict=True):
        assert line.startswith(f"buttons.pin_factory: Falling back {start}"), line
    assert {record.levelno for record in caplog.records} == {logging.INFO}


# FakeButtons alone.


def test_fake_hold_and_history() -> None:
    buttons = FakeButtons(["ok", "back"], timing=EXACT)
    buttons.hold("back", 1.0, start=2.0)
    assert seen(buttons.poll(2.5)) == [("back", "PRESS", 2.0)]
    buttons.poll(3.5)
    assert seen(buttons.history) == [
        ("back", "PRESS", 2.0),
        ("back", "LONG", 2.8),
        ("back", "RELEASE", 3.0),
    ]
    buttons.close()
    assert buttons.closed


def test_the_header_s_first_and_last_gpio_are_pins_and_the_numbers_beyond_are_not() -> None:
    """The 40-pin header carries BCM GPIO 0 to 27 (wiring.md's drawing of the header)."""
    assert (bcm_pin("buttons.pins.ok", 0), bcm_pin("buttons.pins.ok", 27)) == (0, 27)
    for outside in (-1, 28):
        with pytest.raises(ConfigError, match=rf"^buttons.pins.ok: BCM {outside} is not a GPIO"):
            bcm_pin("buttons.pins.ok", outside)


def test_fake_refuses_an_unknown_button() -> None:
    with pytest.raises(ValueError, match=r"^no button 'red'; this panel has ok, back$"):
        FakeButtons(["ok", "back"]).press("red", 0.0)


# Settings errors, with their exact messages.

NAMES = "up, down, ok, back, red, blue, green, yellow, grey, white, black"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"debounce": 5},
            "buttons: unknown setting 'debounce'; accepted: driver, pins, pin_factory, "
            "repeat, debounce_ms, long_press_ms, repeat_delay_ms, repeat_interval_ms, min_press_ms",
        ),
        ({"driver": "gpoi"}, "buttons.driver: unknown driver 'gpoi'; accepted: gpio, fake"),
        (
            {"pins": {"up": 5, "purple": 7}},
            f"buttons.pins: unknown button 'purple'; accepted: {NAMES}",
        ),
        (
            {"pins": {"up": 5, "ok": 5}},
            "buttons.pins.ok: BCM 5 is already used by buttons.pins.up",
        ),
        ({"pins": {"ok": "13"}}, "buttons.pins.ok: expected an integer BCM pin number, got '13'"),
        ({"pins": {"ok": 13.0}}, "buttons.pins.ok: expected an integer BCM pin number, got 13.0"),
        ({"pins": {"ok": True}}, "buttons.pins.ok: expected an integer BCM pin number, got True"),
        (
            {"pins": {"ok": 40}},
            "buttons.pins.ok: BCM 40 is not a GPIO of the 40-pin header (0 to 27)",
        ),
        (
            {"pins": {}},
            "buttons.pins: expected a table of button name = BCM pin, "
            "e.g. {up = 5, down = 6, ok = 13, back = 19}, got {}",
        ),
        (
            {"pins": FOUR, "repeat": ["up", "red"]},
            "buttons.repeat: unknown button 'red'; accepted: up, down, ok, back",
        ),
        ({"repeat": "up"}, "buttons.repeat: expected a list of button names, got 'up'"),
        (
            {"debounce_ms": -1},
            "buttons.debounce_ms: expected a number of milliseconds >= 0, got -1",
        ),
        (
            {"repeat_interval_ms": 0},
            "buttons.repeat_interval_ms: expected a number of milliseconds > 0, got 0",
        ),
        (
            {"long_press_ms": "800"},
            "buttons.long_press_ms: expected a number of milliseconds > 0, got '800'",
        ),
        (
            {"pin_factory": "lgpoi"},
            "buttons.pin_factory: unknown pin factory 'lgpoi'; "
            "accepted: lgpio, mock, native, pigpio, rpigpio",
        ),
    ],
)
def test_settings_errors(mock_factory: MockFactory, settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        build_buttons(settings)
    assert str(raised.value) == message


def test_settings_accepted_in_full(mock_factory: MockFactory) -> None:
    buttons = build_buttons(
        {
            "driver": "fake",
            "pins": {"back": 19, "ok": 13},
            "pin_factory": "mock",
            "debounce_ms": 0,
            "min_press_ms": 0,
            "long_press_ms": 300,
            "repeat_delay_ms": 100,
            "repeat_interval_ms": 50.5,
            "repeat": ["back"],
        }
    )
    assert buttons.names == ("ok", "back")  # the reference order, whatever the table's
    buttons.hold("back", 0.2, start=0.0)
    assert seen(buttons.poll(1.0)) == [
        ("back", "PRESS", 0.0),
        ("back", "REPEAT", 0.1),
        ("back", "REPEAT", 0.1505),
        ("back", "RELEASE", 0.2),
    ]


# The values the panel hands out.


def test_timing_is_a_frozen_value_checked_when_built() -> None:
    timing = Timing(debounce_ms=0, long_press_ms=300)
    assert timing == Timing(0, 300) and hash(timing) == hash(Timing(0, 300))
    assert timing != DEFAULT_TIMING
    assert repr(DEFAULT_TIMING) == (
        "Timing(debounce_ms=20, long_press_ms=800, repeat_delay_ms=500, repeat_interval_ms=150, "
        "min_press_ms=10)"
    )
    with pytest.raises(AttributeError):
        timing.debounce_ms = 5  # type: ignore[misc]
    with pytest.raises(ConfigError, match="^buttons.repeat_delay_ms: .* > 0, got inf$"):
        Timing(repeat_delay_ms=float("inf"))


def test_a_button_event_is_a_frozen_value() -> None:
    event = ButtonEvent("ok", Press.LONG, 1.5)
    assert event == ButtonEvent(name="ok", kind=Press.LONG, at=1.5)
    assert len({event, ButtonEvent("ok", Press.LONG, 1.5)}) == 1
    assert event != ButtonEvent("ok", Press.LONG, 1.6)
    assert repr(event) == "ButtonEvent(name='ok', kind=<Press.LONG: 'long'>, at=1.5)"
    with pytest.raises(AttributeError):
        event.at = 2.0  # type: ignore[misc]


# The glitch filter: a contact must stay closed min_press_ms to count.


def test_a_spike_on_an_idle_line_is_no_press(table: Any) -> None:
    panel = table(min_press_ms=10)
    panel.press("ok", 1.0)
    panel.release("ok", 1.001)  # a 1 ms spike
    assert panel.buttons.poll(1.0005) == []
    assert panel.buttons.poll(2.0) == []


def test_spikes_far_apart_are_each_no_press(table: Any) -> None:
    """A spike's pending decision ends with it: a later spike is not taken for its end."""
    panel = table(min_press_ms=10)
    for at in (1.0, 3.0):
        panel.press("ok", at)
        panel.release("ok", at + 0.001)
        assert panel.buttons.poll(at + 0.5) == []


def test_a_held_press_polled_late_gives_its_press_and_long_press_at_once(table: Any) -> None:
    """A poll late by a second (a virtual player thought in the tick before) brings all
    that fell due, in order: the press the filter confirmed and the long press after it."""
    panel = table(min_press_ms=10)
    panel.press("ok", 1.0)
    assert seen(panel.buttons.poll(2.0)) == [("ok", "PRESS", 1.01), ("ok", "LONG", 1.81)]


def test_a_press_counts_once_it_outlasts_the_filter(table: Any) -> None:
    panel = table(min_press_ms=10)
    panel.press("ok", 1.0)
    assert panel.buttons.poll(1.005) == []
    assert seen(panel.buttons.poll(1.02)) == [("ok", "PRESS", 1.01)]
    panel.release("ok", 1.1)
    assert seen(panel.buttons.poll(1.2)) == [("ok", "RELEASE", 1.1)]


def test_contact_bounce_inside_the_filter_is_one_press() -> None:
    buttons = FakeButtons(["ok"], timing=Timing(min_press_ms=10))
    for ms, pressed in ((0, True), (1, False), (2, True), (3, False), (4, True)):
        (buttons.press if pressed else buttons.release)("ok", 1 + ms / 1000)
    buttons.release("ok", 1.2)
    assert seen(buttons.poll(2.0)) == [("ok", "PRESS", 1.01), ("ok", "RELEASE", 1.2)]


def test_the_filter_is_on_by_default_and_zero_turns_it_off() -> None:
    assert DEFAULT_TIMING.min_press_ms > 0
    for timing, wanted in ((DEFAULT_TIMING, []), (EXACT, [("ok", "PRESS", 1.0)])):
        buttons = FakeButtons(["ok"], timing=timing)
        buttons.press("ok", 1.0)
        buttons.release("ok", 1.001)
        assert [e for e in seen(buttons.poll(2.0)) if e[1] == "PRESS"] == wanted
