"""The push buttons: one small state machine per button, fed by gpiozero or by a fake.

A press that is missed, read twice or read late loses a family's trust, so we do
not lean on a pin library's debounce: lgpio's waits for a stable level and delays
every press, gpiozero's mock pins ignore it. Instead every driver only reports raw
edges ``(pressed, at)`` and the same :class:`ButtonMachine` turns them into
:class:`~hw.events.ButtonEvent` values on the daemon's clock. What a player gets:

- **Glitches.** A contact must still be closed ``min_press_ms`` after it first
  closed to count as a press (a spike on an idle line, picked up from a motor or
  a static discharge, is over long before); the PRESS then comes at that moment.
  Zero turns the filter off.
- **Chatter.** The first edge of a press is a PRESS at once; edges in the next
  ``debounce_ms`` are ignored (a lock-out, not a wait). The release works the
  same way, so a burst of contact bounce gives exactly one PRESS and one RELEASE.
  If the level at the end of a lock-out differs from the accepted one (a tap
  shorter than the lock-out), the change is accepted then, stamped at that end.
- **Hold.** LONG once after ``long_press_ms``; for buttons named in ``repeat``,
  REPEAT after ``repeat_delay_ms`` and then every ``repeat_interval_ms``, each
  stamped with its exact due time. A late poll gets every event that fell due,
  so the number of repeats depends on how long the button was held, not on how
  busy the main loop was.
- **Two buttons at once.** Each button has its own machine and its own events;
  a poll returns all of them sorted by time, so chords are the screen's business.
- **Screen change.** :meth:`Buttons.forget_held` makes every held button silent
  (no LONG, REPEAT or RELEASE) until it has been released and pressed again, so
  a hold meant for the old screen cannot act on the new one. A button already
  held when the panel opens is silent in the same way.
"""

from __future__ import annotations

import logging
import math
import time
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from heapq import heappop, heappush
from itertools import count
from operator import attrgetter
from queue import SimpleQueue
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from hw.errors import INSTALL_GPIO, ConfigError, DeviceUnavailable

# gpiozero is imported where pins are opened, not here: the configuration and
# the fakes only need this module's names, and on a Zero 2 W importing
# gpiozero would hold up the daemon's first frame by a large fraction of a second.
if TYPE_CHECKING:
    from gpiozero import DigitalInputDevice
    from gpiozero.pins import Factory
from hw.events import ButtonEvent, Press

LOG = logging.getLogger("tableside.hw.buttons")

# The reference wiring (BCM numbers), navigation buttons first.
REFERENCE_PINS: Mapping[str, int] = MappingProxyType(
    dict(up=5, down=6, ok=13, back=19)
    | dict(red=17, blue=27, green=22, yellow=23, grey=24, white=25, black=26)
)
NAMES = tuple(REFERENCE_PINS)
DEFAULT_REPEAT = ("up", "down")
DRIVERS = ("gpio", "fake")


# The fields as a named tuple, not a dataclass: ``dataclasses`` imports ``inspect``,
# and the configuration imports this module on the way to the daemon's first frame.
# ``Timing`` adds the check that a named tuple cannot make by itself.
class _Durations(NamedTuple):
    debounce_ms: float = 20
    long_press_ms: float = 800
    repeat_delay_ms: float = 500
    repeat_interval_ms: float = 150
    min_press_ms: float = 10


class Timing(_Durations):
    """How long each decision of :class:`ButtonMachine` waits, in milliseconds.

    Frozen and compared by value; a duration out of range raises ``ConfigError``.
    """

    __slots__ = ()

    def __new__(cls, *args: float, **kwargs: float) -> Timing:
        timing = super().__new__(cls, *args, **kwargs)
        # Only the lock-out and the glitch filter may be zero (off): a zero repeat
        # interval would repeat forever.
        for name, value in timing._asdict().items():
            zero_ok = name in ("debounce_ms", "min_press_ms")
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not (number and math.isfinite(value) and (value > 0 or (zero_ok and value == 0))):
                bound = ">= 0" if zero_ok else "> 0"
                raise ConfigError(
                    f"buttons.{name}: expected a number of milliseconds {bound}, got {value!r}"
                )
        return timing


DEFAULT_TIMING = Timing()
_CONFIRM = "confirm"  # the step that decides whether a closed contact is a press
SETTINGS = ("driver", "pins", "pin_factory", "repeat", *Timing._fields)


class ButtonMachine:
    """Debounce, long press and auto-repeat of one button, on whatever clock feeds it.

    Pure logic: no pins, no threads, no clock of its own. Feed it every raw edge in
    time order with :meth:`edge` and the current time with :meth:`tick`; both return
    the events that fell due, in time order.
    """

    def __init__(self, name: str, timing: Timing, repeats: bool) -> None:
        self.name = name
        self._timing = timing
        self._repeats = repeats
        self._pressed = False  # the level we accepted
        self._raw = False  # the level of the latest edge, accepted or not
        self._quiet_until = -math.inf  # end of the current lock-out
        self._since = 0.0  # when the accepted press began
        self._long_sent = False
        self._repeats_sent = 0
        self._muted = False  # forgotten: silent until released
        self._closing: float | None = None  # when a contact closed that may be a glitch

    def edge(self, pressed: bool, at: float) -> list[ButtonEvent]:
        """Take a raw edge: accept it at once unless it falls in a lock-out."""
        events = self.tick(at)
        self._raw = pressed
        if at >= self._quiet_until and pressed != self._pressed:
            events += self._accept(pressed, at)
        return events

    def tick(self, now: float) -> list[ButtonEvent]:
        """Emit LONG, REPEAT and end-of-lock-out changes due at or before ``now``."""
        events: list[ButtonEvent] = []
        while (due := self._next_due()) is not None and due[0] <= now:
            at, kind = due
            if kind is _CONFIRM:
                self._closing = None
                if self._raw:  # still closed: a press, not a glitch
                    events += self._accept(True, at, confirmed=True)
                continue
            if kind is None:
                events += self._accept(self._raw, at)
                continue
            if kind is Press.LONG:
                self._long_sent = True
            else:
                self._repeats_sent += 1
            events.append(ButtonEvent(self.name, kind, at))
        return events

    def forget(self) -> None:
        """Silence this button until it has been released, if it is held now."""
        if self._pressed:
            self._muted = True

    def _next_due(self) -> tuple[float, Press | str | None] | None:
        """The earliest time-based step: LONG, REPEAT, ``_CONFIRM`` of a press after the
        glitch filter, or ``None`` for a late change.

        On a tie LONG comes first, then REPEAT, then the change of level. A button at
        rest, which most are at every tick, has none: it is answered before any list is made.
        """
        if not (self._pressed or self._raw or self._closing is not None):
            return None
        timing = self._timing
        steps: list[tuple[float, Press | str | None]] = []
        if self._pressed and not self._muted:
            if not self._long_sent:
                steps.append((self._since + timing.long_press_ms / 1000, Press.LONG))
            if self._repeats:
                after_ms = timing.repeat_delay_ms + self._repeats_sent * timing.repeat_interval_ms
                steps.append((self._since + after_ms / 1000, Press.REPEAT))
        if self._closing is not None:
            steps.append((self._closing + timing.min_press_ms / 1000, _CONFIRM))
        elif self._raw != self._pressed:
            steps.append((self._quiet_until, None))
        return min(steps, key=lambda step: step[0], default=None)

    def _accept(self, pressed: bool, at: float, confirmed: bool = False) -> list[ButtonEvent]:
        if pressed and not confirmed and self._timing.min_press_ms:
            if self._closing is None:
                self._closing = at  # decided min_press_ms later (_CONFIRM)
            return []
        self._pressed = pressed
        self._quiet_until = at + self._timing.debounce_ms / 1000
        if pressed:
            self._since, self._long_sent, self._repeats_sent = at, False, 0
            return [ButtonEvent(self.name, Press.PRESS, at)]
        if self._muted:
            self._muted = False
            return []
        return [ButtonEvent(self.name, Press.RELEASE, at)]


class Buttons(ABC):
    """A panel of named buttons that the daemon polls once per tick.

    Drivers only report raw edges through :meth:`_report` (from any thread); the
    shared machines here decide everything else, so every driver behaves alike.
    """

    def __init__(self, names: Iterable[str], timing: Timing, repeat: Iterable[str]) -> None:
        self.names: tuple[str, ...] = tuple(names)
        repeating = set(repeat)
        self._machines = {
            name: ButtonMachine(name, timing, name in repeating) for name in self.names
        }
        self._arrived: SimpleQueue[tuple[float, str, bool]] = SimpleQueue()
        self._pending: list[tuple[float, int, str, bool]] = []
        self._arrival_order = count()
        self._last_poll = -math.inf

    def poll(self, now: float) -> list[ButtonEvent]:
        """Events from edges up to ``now`` and time-based events due at ``now``, in time order.

        An edge stamped before the previous poll (a callback that raced with it) counts
        as happening at that poll, so events never go back in time.
        """
        while not self._arrived.empty():
            at, name, pressed = self._arrived.get_nowait()
            at = max(at, self._last_poll)
            heappush(self._pending, (at, next(self._arrival_order), name, pressed))
        events: list[ButtonEvent] = []
        while self._pending and self._pending[0][0] <= now:
            at, _, name, pressed = heappop(self._pending)
            events += self._machines[name].edge(pressed, at)
        for machine in self._machines.values():
            events += machine.tick(now)
        self._last_poll = now
        return sorted(events, key=attrgetter("at"))

    def next_due(self) -> float:
        """The earliest moment a poll can bring an event with no new edge (``inf``: none;
        ``-inf``: an edge not yet polled): an edge stamped ahead, a press to confirm, a
        long press, a repeat or a change of level waiting for its lock-out to end. A
        simulator may move its clock over the polls before it: they would bring nothing."""
        if not self._arrived.empty():
            return -math.inf
        steps = [due[0] for machine in self._machines.values() if (due := machine._next_due())]
        return min(steps + [edge[0] for edge in self._pending[:1]], default=math.inf)

    def forget_held(self) -> None:
        """Call on a screen change: held buttons stay silent until pressed again."""
        for machine in self._machines.values():
            machine.forget()

    @abstractmethod
    def close(self) -> None:
        """Release the pins; closing twice is harmless."""

    def _report(self, name: str, pressed: bool, at: float) -> None:
        """Queue a raw edge; thread-safe, so pin callbacks may call it directly."""
        self._arrived.put((at, name, pressed))


class GpioButtons(Buttons):
    """Buttons between a GPIO and ground, read through gpiozero on any pin factory.

    The pins use the internal pull-up, so a press reads low. Callbacks only stamp
    the edge with ``clock`` and queue it: they may come from a pin library's thread.
    ``pin_factory`` is a gpiozero factory, the name of one (which this panel then
    owns and closes), or ``None`` for gpiozero's own choice.
    """

    def __init__(
        self,
        pins: Mapping[str, int],
        *,
        timing: Timing = DEFAULT_TIMING,
        repeat: Iterable[str] = DEFAULT_REPEAT,
        pin_factory: Factory | str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import DigitalInputDevice  # not at the top: see the imports

        super().__init__(pins, timing, repeat)
        self._clock = clock
        self._devices: list[DigitalInputDevice] = []
        self._owns_factory = isinstance(pin_factory, str)
        self.pin_factory = open_pin_factory("buttons.pin_factory", pin_factory)
        for name, bcm in pins.items():
            try:
                device = DigitalInputDevice(
                    bcm, pull_up=True, bounce_time=None, pin_factory=self.pin_factory
                )
            except Exception as error:  # every pin library raises its own kind
                self.close()
                raise DeviceUnavailable(
                    f"buttons.pins.{name}: cannot use BCM {bcm}: {error}"
                ) from error
            self._devices.append(device)
            device.when_activated = self._callback(name, pressed=True)
            device.when_deactivated = self._callback(name, pressed=False)

    def close(self) -> None:
        while self._devices:
            self._devices.pop().close()
        if self._owns_factory:
            self.pin_factory.close()
            self._owns_factory = False

    def _callback(self, name: str, pressed: bool) -> Callable[[], None]:
        def report() -> None:
            self._report(name, pressed, self._clock())

        return report


class FakeButtons(Buttons):
    """Buttons pressed by a test or the simulator, on the same machines as the real ones.

    Edges may be scheduled ahead (``hold``): each one is applied by the first
    poll whose ``now`` reaches it. ``history`` keeps every event polled so far.
    """

    def __init__(
        self,
        names: Iterable[str] = NAMES,
        *,
        timing: Timing = DEFAULT_TIMING,
        repeat: Iterable[str] = DEFAULT_REPEAT,
    ) -> None:
        super().__init__(names, timing, repeat)
        self.history: list[ButtonEvent] = []
        self.closed = False

    def press(self, name: str, at: float) -> None:
        """The contact of ``name`` closes at ``at``, as a pin going low would report."""
        self._report(self._known(name), True, at)

    def release(self, name: str, at: float) -> None:
        """The contact of ``name`` opens at ``at``."""
        self._report(self._known(name), False, at)

    def hold(self, name: str, seconds: float, start: float) -> None:
        """Press at ``start`` and release ``seconds`` later."""
        self.press(name, start)
        self.release(name, start + seconds)

    def poll(self, now: float) -> list[ButtonEvent]:
        events = super().poll(now)
        self.history += events
        return events

    def close(self) -> None:
        self.closed = True

    def _known(self, name: str) -> str:
        if name not in self.names:
            raise ValueError(f"no button {name!r}; this panel has {', '.join(self.names)}")
        return name


def build_buttons(
    settings: Mapping[str, Any], *, clock: Callable[[], float] = time.monotonic
) -> Buttons:
    """Build the panel from the ``[buttons]`` settings table; see ``SETTINGS``."""
    check_settings("buttons", settings, SETTINGS)
    driver = choose("buttons.driver", "driver", settings.get("driver", "gpio"), DRIVERS)
    pins = _pins(settings.get("pins", REFERENCE_PINS))
    repeat = _repeat(settings.get("repeat"), pins)
    timing = Timing(**{name: settings[name] for name in Timing._fields if name in settings})
    if driver == "fake":
        return FakeButtons(pins, timing=timing, repeat=repeat)
    return GpioButtons(
        pins, timing=timing, repeat=repeat, pin_factory=settings.get("pin_factory"), clock=clock
    )


def _pins(value: object) -> dict[str, int]:
    """Check the name -> BCM table; the result lists buttons in the reference order."""
    if not isinstance(value, Mapping) or not value:
        raise ConfigError(
            f"buttons.pins: expected a table of button name = BCM pin, "
            f"e.g. {{up = 5, down = 6, ok = 13, back = 19}}, got {value!r}"
        )
    owner_of: dict[int, str] = {}
    for name, bcm in value.items():
        choose("buttons.pins", "button", name, tuple(REFERENCE_PINS))
        bcm_pin(f"buttons.pins.{name}", bcm)
        if bcm in owner_of:
            raise ConfigError(
                f"buttons.pins.{name}: BCM {bcm} is already used by buttons.pins.{owner_of[bcm]}"
            )
        owner_of[bcm] = name
    return {name: value[name] for name in REFERENCE_PINS if name in value}


def _repeat(value: object, pins: Mapping[str, int]) -> tuple[str, ...]:
    if value is None:
        return tuple(name for name in DEFAULT_REPEAT if name in pins)
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise ConfigError(f"buttons.repeat: expected a list of button names, got {value!r}")
    for name in value:
        choose("buttons.repeat", "button", name, tuple(pins))
    return tuple(value)


# Settings helpers shared by every gpiozero-based part of ``hw``.


def check_settings(table: str, settings: Mapping[str, Any], accepted: Sequence[str]) -> None:
    """Refuse a setting nobody reads: a misspelt key would otherwise be ignored silently."""
    for key in settings:
        choose(table, "setting", key, accepted)


def choose(key: str, what: str, value: object, accepted: Sequence[str]) -> str:
    """Return ``value`` if it is one of ``accepted``, else say which are."""
    if isinstance(value, str) and value in accepted:
        return value
    raise ConfigError(f"{key}: unknown {what} {value!r}; accepted: {', '.join(accepted)}")


def bcm_pin(key: str, value: object) -> int:
    """Check a BCM GPIO number of the 40-pin header."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{key}: expected an integer BCM pin number, got {value!r}")
    if not 0 <= value <= 27:
        raise ConfigError(f"{key}: BCM {value} is not a GPIO of the 40-pin header (0 to 27)")
    return value


def open_pin_factory(key: str, given: Factory | str | None) -> Factory:
    """The gpiozero pin factory to use: ``given`` itself, the one it names, or the default.

    Names come from gpiozero's own registry (as for ``GPIOZERO_PIN_FACTORY``) and the
    default is gpiozero's own choice, lgpio first; nothing here knows any factory.
    """
    # Not at the top: see the imports. Reading the registry also scans every
    # installed package's metadata, so only a named factory pays for it.
    from importlib.metadata import entry_points

    from gpiozero import Device
    from gpiozero.pins import Factory

    if isinstance(given, Factory):
        return given
    if given is not None:
        registry = {ep.name: ep for ep in entry_points(group="gpiozero_pin_factories")}
        choose(key, "pin factory", given, sorted(registry))
    # gpiozero warns once for each pin library it falls back from, each warning
    # with its source line: they are folded into the error's one line, or
    # logged a line each when a later library works.
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always")
        try:
            if given is None:
                Device.ensure_pin_factory()
                factory = Device.pin_factory
            else:
                factory = registry[given].load()()
        except Exception as error:  # each pin library fails in its own way
            which = "gpiozero's default" if given is None else repr(given)
            tried = "; ".join(str(warning.message) for warning in fallbacks)
            tried = f" ({tried})" if tried else ""
            hint = _missing_lgpio_hint(given)
            message = f"{key}: cannot start pin factory {which}: {error}{tried}{hint}"
            raise DeviceUnavailable(message) from error
    for warning in fallbacks:
        LOG.info("%s: %s", key, warning.message)
    return factory


def _missing_lgpio_hint(given: str | None) -> str:
    """How to get lgpio, when the failure may come from its absence."""
    from importlib.util import find_spec

    if given not in (None, "lgpio") or find_spec("lgpio") is not None:
        return ""
    return f" (lgpio, the Pi's pin library, is not installed: {INSTALL_GPIO})"
