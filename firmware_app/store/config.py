"""The configuration file: one TOML file, checked whole before anything starts.

An owner edits the file once, on a box with no screen but a 128x64 OLED, so a
mistake must be found at start and every mistake at once: each problem names
the file, the line, the dotted key, what is wrong and, for a misspelling, what
was probably meant. Only then are the hardware parts built.

Without a file the simulator's settings are used: fake buttons, display,
reader and buzzer. With a file, anything it leaves out takes the value of the
reference build (``docs/tableside.example.toml``), which is also what each
``hw`` driver assumes. The ``[buttons]``, ``[display]``, ``[reader]`` and
``[buzzer]`` tables are handed as they are (defaults filled in) to
``hw.buttons.build_buttons``, ``hw.display.build_display``,
``hw.rfid.build_reader`` and ``hw.buzzer.build_buzzer``; their key names are
the drivers' own. Every key is described in ``docs/configuration.md``.
"""

import math
import os
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache, cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from firmware_app.store import bounded_read
from firmware_app.store.plain_values import control_problem, name_problem
from hw import buttons, buzzer, display
from hw.errors import ConfigError as HardwareConfigError
from hw.rfid import factory as reader

# The daemon loads this module before its first frame, so it keeps to what a
# good file needs: the records below are named tuples, not dataclasses (whose
# import pulls in ``inspect``), and what only a bad file needs (``difflib``
# for "did you mean", ``json`` to quote values, the scan for line numbers) is
# imported or built when the first problem is reported.

LANGUAGES = ("pl", "en")
NAVIGATION = ("up", "down", "ok", "back")
CATALOGUE = "catalogue.toml"  # the owner's cards, in the state folder unless set
# The largest owner's card file read: the printed box's own file, every card with its
# rulebook quotes, is 30 KB, and an owner's file teaching every card is of that order; 1 MiB
# is far beyond it, and bounds what a damaged file (a log written over it, say) can make the
# box hold in memory.
OWNER_FILE_LIMIT = 1 << 20
# What the simulator runs on when no file is given.
SIMULATOR: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {part: {"driver": "fake"} for part in ("buttons", "display", "reader", "buzzer")}
)


class Problem(NamedTuple):
    """One thing wrong with the configuration, where it is and what would fix it."""

    file: str
    line: int | None
    key: str
    message: str

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class ConfigError(HardwareConfigError):
    """The configuration has problems; ``problems`` lists every one of them.

    It is a kind of ``hw.errors.ConfigError``, so one ``except`` catches a bad
    file and a setting a driver refused.
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


# When the buzzer chirps as the turn passes: always, by day only (not 22:00-07:00), never.
HANDOFF_CHIRPS = ("always", "day", "never")


class AppSettings(NamedTuple):
    """The ``[app]`` table, with paths resolved.

    ``catalogue`` is the owner's file of taught cards; it may not exist yet.
    """

    language: str
    state_dir: Path
    sleep_after_minutes: int
    bag: str
    deck: str
    catalogue: Path
    names: tuple[str, ...] = ()
    handoff_chirp: str = "day"

    @property
    def journal(self) -> Path:
        """The journal file the daemon opens (``firmware_app.store.journal``)."""
        return self.state_dir / "journal.sqlite"

    def setting_defaults(self) -> dict:
        """The app's user settings before the table changes them on the box."""
        return {
            "sleep_minutes": self.sleep_after_minutes,
            "bag": self.bag,
            "deck": self.deck,
            "names": list(self.names),
            "handoff_chirp": self.handoff_chirp,
        }


class Config(NamedTuple):
    """A checked configuration: the hardware tables as ``build_*`` take them, and the app's."""

    buttons: Mapping[str, Any]
    display: Mapping[str, Any]
    reader: Mapping[str, Any]
    buzzer: Mapping[str, Any]
    app: AppSettings
    source: Path | None


# ------------------------------------------------------------------ checks
# A check yields (sub-key, message) pairs: "" for the key itself, ".red" for
# an entry of a table such as ``pins``.

Check = Callable[[Any], Iterator[tuple[str, str]]]


def _shown(value: Any) -> str:
    """A value as it would be written in TOML, so the owner recognises it."""
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def _hint(word: Any, options: Sequence[Any]) -> str:
    if not isinstance(word, str):
        return ""
    import difflib

    words = [option for option in options if isinstance(option, str)]
    close = difflib.get_close_matches(word, words, n=1)
    return f"; did you mean {_shown(close[0])}?" if close else ""


def _choice(options: Sequence[Any]) -> Check:
    def check(value: Any) -> Iterator[tuple[str, str]]:
        # Compare types too: true == 1 and 0.0 == 0, but neither is a valid choice.
        if not any(type(value) is type(good) and value == good for good in options):
            listed = ", ".join(_shown(good) for good in options)
            yield "", f"unknown value {_shown(value)}; accepted: {listed}{_hint(value, options)}"

    return check


def _integer(low: int, high: int, shown: str = "{}") -> Check:
    def check(value: Any) -> Iterator[tuple[str, str]]:
        if type(value) is not int or not low <= value <= high:
            got = shown.format(value) if type(value) is int else _shown(value)
            bounds = f"{shown.format(low)} to {shown.format(high)}"
            yield "", f"expected an integer from {bounds}, got {got}"

    return check


def _milliseconds(low: int, high: int) -> Check:
    # The bounds catch seconds written where milliseconds are meant (0.8 for 800).
    def check(value: Any) -> Iterator[tuple[str, str]]:
        number = type(value) in (int, float) and math.isfinite(value)
        if not number or not low <= value <= high:
            yield "", f"expected a number of milliseconds from {low} to {high}, got {_shown(value)}"

    return check


def _text(what: str) -> Check:
    def check(value: Any) -> Iterator[tuple[str, str]]:
        if not isinstance(value, str) or not value.strip():
            yield "", f"expected {what} in quotes, got {_shown(value)}"

    return check


_pin = _integer(0, 27)


@cache
def pin_factories() -> tuple[str, ...]:
    """gpiozero's pin factories by name, from its registry of entry points.

    Read on first use, not at import: the scan reads every installed package's
    metadata, which would delay the daemon's first frame on a Zero 2 W, and
    only a file that names a factory needs it.
    """
    from importlib.metadata import entry_points

    return tuple(sorted(ep.name for ep in entry_points(group="gpiozero_pin_factories")))


def _pin_factory(value: Any) -> Iterator[tuple[str, str]]:
    return _choice(pin_factories())(value)


# Who handles the token bag and the figurant deck: the app or the table. The engine's own
# list is ``rules.pingwiny.options.SOURCES``, which the start must not wait for; a test keeps
# the two equal.
SOURCES = ("app", "table")
_source = _choice(SOURCES)
# When the panel asks a card's points: with its cost, or at the score sheet (the settings
# menu's ``POINTS_WHEN`` words them).
TEACH_POINTS = ("now", "score")
# The checks of the settings the table changes on the box (``state_check``) beside the file's.
box_source = _source
teach_points = _choice(TEACH_POINTS)
# Król Popiel's mouse colours the panel can name (``flows.shared.seats.MOUSE_COLOURS`` words
# them; a test keeps the two equal), and how many pawns the box holds ("Contents: 5 mouse
# pawns"). The rulebook does not name the pawns' colours: the owner marks them once.
MOUSE_COLOURS = (
    "red", "blue", "green", "yellow", "orange", "purple", "pink", "white", "black", "grey", "brown"
)  # fmt: skip
MOUSE_PAWNS = 5


def pawn_colours(value: Any) -> Iterator[tuple[str, str]]:
    """The box's pawn colours: none marked yet (``[]``), or ``MOUSE_PAWNS`` different ones
    of ``MOUSE_COLOURS``."""
    if isinstance(value, list) and not value:
        return
    texts = isinstance(value, list) and all(isinstance(colour, str) for colour in value)
    if not texts or len(value) != MOUSE_PAWNS or len(set(value)) != MOUSE_PAWNS:
        yield "", f"expected {MOUSE_PAWNS} different mouse colours, got {_shown(value)}"
        return
    for colour in value:
        if colour not in MOUSE_COLOURS:
            listed = ", ".join(MOUSE_COLOURS)
            yield "", f"unknown mouse colour {_shown(colour)}; accepted: {listed}"


def _button_names(value: Any) -> Iterator[tuple[str, str]]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        yield "", f'expected a list of button names such as ["up", "down"], got {_shown(value)}'
        return
    for name in value:
        if name not in buttons.NAMES:
            yield "", f"unknown button {_shown(name)}{_hint(name, buttons.NAMES)}"


def _player_names(value: Any) -> Iterator[tuple[str, str]]:
    if not isinstance(value, list):
        yield "", f'expected a list of player names such as ["Ala", "Olek"], got {_shown(value)}'
        return
    found = [problem for name in value if (problem := name_problem(name)) is not None]
    if found:  # one line for the key, as for every other value
        yield "", f"player names: {found[0]}"


def _pins(value: Any) -> Iterator[tuple[str, str]]:
    if not isinstance(value, dict):
        yield "", f"expected a table of button = BCM pin, e.g. {{up = 5}}, got {_shown(value)}"
        return
    for name, bcm in value.items():
        if name not in buttons.NAMES:
            accepted = ", ".join(buttons.NAMES)
            yield f".{name}", f"unknown button; accepted: {accepted}{_hint(name, buttons.NAMES)}"
        else:
            yield from ((f".{name}", message) for _, message in _pin(bcm))
    missing = [name for name in NAVIGATION if name not in value]
    if missing:
        yield "", f"the navigation buttons are required; missing: {', '.join(missing)}"


# ------------------------------------------------------------------ schema


class Key(NamedTuple):
    """One setting: its value in the reference build (``None``: the driver's) and its check."""

    default: Any
    check: Check


_TIMING = buttons.DEFAULT_TIMING
SCHEMA: Mapping[str, Mapping[str, Key]] = {
    "buttons": {
        "driver": Key("gpio", _choice(buttons.DRIVERS)),
        "pins": Key(dict(buttons.REFERENCE_PINS), _pins),
        "pin_factory": Key(None, _pin_factory),
        "min_press_ms": Key(_TIMING.min_press_ms, _milliseconds(0, 100)),
        "debounce_ms": Key(_TIMING.debounce_ms, _milliseconds(0, 200)),
        "long_press_ms": Key(_TIMING.long_press_ms, _milliseconds(200, 10_000)),
        "repeat_delay_ms": Key(_TIMING.repeat_delay_ms, _milliseconds(100, 5_000)),
        "repeat_interval_ms": Key(_TIMING.repeat_interval_ms, _milliseconds(20, 2_000)),
        "repeat": Key(list(buttons.DEFAULT_REPEAT), _button_names),
    },
    "display": {
        "driver": Key(display.DEFAULTS["driver"], _choice(display.DRIVERS)),
        "interface": Key(display.DEFAULTS["interface"], _choice(display.INTERFACES)),
        "i2c_port": Key(display.DEFAULTS["i2c_port"], _integer(0, 255)),
        "i2c_address": Key(display.DEFAULTS["i2c_address"], _integer(0x08, 0x77, "0x{:02X}")),
        "spi_port": Key(display.DEFAULTS["spi_port"], _integer(0, 255)),
        "spi_device": Key(display.DEFAULTS["spi_device"], _integer(0, 255)),
        "spi_speed_hz": Key(display.DEFAULTS["spi_speed_hz"], _choice(display.SPI_SPEEDS)),
        "gpio_dc": Key(display.DEFAULTS["gpio_dc"], _pin),
        "gpio_rst": Key(display.DEFAULTS["gpio_rst"], _pin),
        "rotate": Key(display.DEFAULTS["rotate"], _choice(display.ROTATIONS)),
        "contrast": Key(display.DEFAULTS["contrast"], _integer(0, 255)),
    },
    "reader": {
        "driver": Key(reader.DEFAULTS["driver"], _choice(reader.DRIVERS)),
        "port": Key(reader.DEFAULTS["port"], _text("a serial device such as /dev/serial0")),
        "baudrate": Key(reader.DEFAULTS["baudrate"], _integer(300, 4_000_000)),
        "spi_port": Key(reader.DEFAULTS["spi_port"], _integer(0, 6)),
        "spi_device": Key(reader.DEFAULTS["spi_device"], _integer(0, 2)),
        "gpio_rst": Key(reader.DEFAULTS["gpio_rst"], _pin),
    },
    "buzzer": {
        "driver": Key("gpio", _choice(buzzer.DRIVERS)),
        "pin": Key(buzzer.REFERENCE_PIN, _pin),
        "pin_factory": Key(None, _pin_factory),
    },
    "app": {
        "language": Key("pl", _choice(LANGUAGES)),
        "state_dir": Key(None, _text("a folder")),
        "sleep_after_minutes": Key(15, _integer(0, 1440)),
        "bag": Key("app", _source),
        "deck": Key("app", _source),
        "catalogue": Key(None, _text("a file name")),
        "handoff_chirp": Key("day", _choice(HANDOFF_CHIRPS)),
        "names": Key([], _player_names),
    },
}

# ------------------------------------------------------------------- pins
# Which header pins a bus takes, by bus number, for the cross-part check.
I2C_PINS = {0: {"SDA": 0, "SCL": 1}, 1: {"SDA": 2, "SCL": 3}}
SPI_BUS_PINS = {0: {"MISO": 9, "MOSI": 10, "SCLK": 11}, 1: {"MISO": 19, "MOSI": 20, "SCLK": 21}}
SPI_CHIP_SELECTS = {0: (8, 7), 1: (18, 17, 16)}
UART_PINS = {"TXD": 14, "RXD": 15}
UART_DEVICES = ("/dev/serial0", "/dev/ttyS0", "/dev/ttyAMA0")
LUMA_DRIVERS = ("ssd1306", "sh1106", "ssd1309")


class _Claim(NamedTuple):
    """A header pin taken by a setting; claims with the same ``shared`` tag may coexist."""

    pin: int
    key: str
    what: str
    shared: str = ""


def _spi_claims(part: str, settings: Mapping[str, Any]) -> Iterator[_Claim]:
    port, device = settings["spi_port"], settings["spi_device"]
    for role, pin in SPI_BUS_PINS.get(port, {}).items():
        what = f"the {role} line of SPI bus {port} ({part})"
        yield _Claim(pin, f"{part}.spi_port", what, f"spi{port}")
    selects = SPI_CHIP_SELECTS.get(port, ())
    if device < len(selects):
        what = f"chip select CE{device} of SPI bus {port} ({part})"
        yield _Claim(selects[device], f"{part}.spi_device", what)


def _claims(tables: Mapping[str, Mapping[str, Any]]) -> Iterator[_Claim]:
    """Every pin the configured hardware takes: buses first, buttons last."""
    screen, tags = tables["display"], tables["reader"]
    if screen["driver"] in LUMA_DRIVERS and screen["interface"] == "i2c":
        port = screen["i2c_port"]
        for role, pin in I2C_PINS.get(port, {}).items():
            what = f"the {role} line of I2C bus {port} (display)"
            yield _Claim(pin, "display.i2c_port", what, f"i2c{port}")
    elif screen["driver"] in LUMA_DRIVERS:
        yield from _spi_claims("display", screen)
        yield _Claim(screen["gpio_dc"], "display.gpio_dc", "display.gpio_dc")
        yield _Claim(screen["gpio_rst"], "display.gpio_rst", "display.gpio_rst")
    if tags["driver"] in ("pn532-uart", "rdm6300") and tags["port"] in UART_DEVICES:
        for role, pin in UART_PINS.items():
            yield _Claim(pin, "reader.port", f"the {role} line of the UART (reader)")
    elif tags["driver"] == "rc522-spi":
        yield from _spi_claims("reader", tags)
        yield _Claim(tags["gpio_rst"], "reader.gpio_rst", "reader.gpio_rst")
    if tables["buzzer"]["driver"] == "gpio":
        yield _Claim(tables["buzzer"]["pin"], "buzzer.pin", "buzzer.pin")
    for name, pin in tables["buttons"]["pins"].items():
        yield _Claim(pin, f"buttons.pins.{name}", f"buttons.pins.{name}")


# ------------------------------------------------------------ the checking


class _Checker:
    """Collects the problems of one document, each placed on its line."""

    def __init__(self, file: str, raw: Mapping[str, Any], text: str) -> None:
        self.file = file
        self.raw = raw
        self.text = text
        self.problems: list[Problem] = []

    @cached_property
    def lines(self) -> dict[tuple[str, ...], int]:
        """Where each key is written; scanned only once a problem needs a line."""
        return _key_lines(self.text)

    def add(self, key: str, message: str) -> None:
        self.problems.append(Problem(self.file, self.line_of(key), key, message))

    def line_of(self, key: str) -> int | None:
        """The line a key is written on; a key inside an inline table takes the table's."""
        if not self._written(key):
            return None
        parts = key.split(".")
        while parts:
            line = self.lines.get(tuple(parts))
            if line is not None:
                return line
            parts.pop()
        return None

    def _written(self, key: str) -> bool:
        node: Any = self.raw
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                return False
            node = node[part]
        return True

    def tables(self) -> dict[str, dict[str, Any]]:
        """Each table's valid values over its defaults (``None`` defaults left out)."""
        for name, value in self.raw.items():
            if name not in SCHEMA:
                what = "table" if isinstance(value, dict) else "key"
                self.add(name, f"unknown {what}{_misplaced(name, SCHEMA, '')}")
            elif not isinstance(value, dict):
                self.add(name, f"expected a table [{name}], got {_shown(value)}")
        return {name: self.table(name, keys) for name, keys in SCHEMA.items()}

    def table(self, name: str, keys: Mapping[str, Key]) -> dict[str, Any]:
        given = self.raw.get(name)
        given = given if isinstance(given, dict) else {}
        result = {key: spec.default for key, spec in keys.items() if spec.default is not None}
        for key, value in given.items():
            spec = keys.get(key)
            if spec is None:
                self.add(f"{name}.{key}", f"unknown key{_misplaced(key, keys, name)}")
                continue
            found = list(spec.check(value))
            for suffix, message in found:
                self.add(f"{name}.{key}{suffix}", message)
            if isinstance(spec.default, dict) and isinstance(value, dict):
                # A table such as pins keeps its good entries for the cross-check.
                bad = {suffix[1:] for suffix, _ in found if suffix}
                result[key] = {k: v for k, v in value.items() if k not in bad}
            elif not found:
                result[key] = value
        return result

    def cross_check(self, tables: Mapping[str, Mapping[str, Any]]) -> None:
        """What no single key shows: a pin used twice, repeat of an absent button."""
        taken: dict[int, _Claim] = {}
        for claim in _claims(tables):
            first = taken.setdefault(claim.pin, claim)
            if first is claim or (claim.shared and claim.shared == first.shared):
                continue
            # Blame the setting the file wrote, so the line points at the owner's choice.
            blamed, other = claim, first
            if self.line_of(claim.key) is None and self.line_of(first.key) is not None:
                blamed, other = first, claim
            self.add(blamed.key, f"BCM {claim.pin} is already used by {other.what}")
        pins = tables["buttons"]["pins"]
        for name in tables["buttons"]["repeat"] if self._written("buttons.repeat") else ():
            if name in buttons.NAMES and name not in pins:
                self.add("buttons.repeat", f"{_shown(name)} has no pin in buttons.pins")


def _misplaced(word: str, here: Mapping[str, Any], table: str) -> str:
    """Say what a misspelt or misplaced name probably is."""
    import difflib

    close = difflib.get_close_matches(word, list(here), n=1)
    if close:
        return f"; did you mean {_shown(close[0])}?"
    homes = [name for name, keys in SCHEMA.items() if name != table and word in keys]
    if homes:
        return f"; {_shown(word)} belongs in [{homes[0]}]"
    return f"; accepted: {', '.join(here)}"


# ------------------------------------------------------------ key lines
# tomllib does not say where a key is, so the text is scanned for table
# headers and key assignments. It is only run on text tomllib accepted. The
# patterns stay strings, compiled by ``re`` on first use: a good file never
# needs them.

_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_DOTTED = rf"{_KEY}(?:\s*\.\s*{_KEY})*"
_HEADER = rf"\s*\[\[?\s*({_DOTTED})\s*\]"
_ASSIGNMENT = rf"\s*({_DOTTED})\s*=\s*(.*)"


def _key_path(dotted: str) -> tuple[str, ...]:
    import json

    parts = []
    for part in re.findall(_KEY, dotted):
        if part.startswith('"'):
            part = json.loads(part)
        elif part.startswith("'"):
            part = part[1:-1]
        parts.append(part)
    return tuple(parts)


def _key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The first line (from 1) of every table header and key assignment."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    closing = ""  # the end of a multi-line string we are inside, if any
    for number, line in enumerate(text.splitlines(), start=1):
        if closing:
            if closing in line:
                closing = ""
            continue
        if header := re.match(_HEADER, line):
            table = _key_path(header[1])
            lines.setdefault(table, number)
        elif assignment := re.match(_ASSIGNMENT, line):
            lines.setdefault(table + _key_path(assignment[1]), number)
            value = assignment[2]
            for quotes in ('"""', "'''"):
                if value.startswith(quotes) and quotes not in value[3:]:
                    closing = quotes
    return lines


# ------------------------------------------------------------------ loading


def _syntax_line(error: tomllib.TOMLDecodeError, text: str) -> tuple[int, str]:
    """tomllib puts the place in its message: '... (at line 3, column 5)'."""
    message = str(error)
    found = re.search(r" \(at line (\d+), column (\d+)\)$", message)
    if found:
        return int(found[1]), f"{message[: found.start()]} (column {found[2]})"
    return max(1, len(text.splitlines())), message.replace("(at end of document)", "(at the end)")


def _state_dir(environ: Mapping[str, str]) -> Path:
    """The default state folder: the unit's, else the XDG one, else ~/.local/state."""
    if environ.get("TABLESIDE_STATE_DIR"):
        return Path(environ["TABLESIDE_STATE_DIR"])
    xdg = environ.get("XDG_STATE_HOME", "")
    if os.path.isabs(xdg):  # the XDG rules say a relative value is ignored
        return Path(xdg) / "tableside"
    return Path(environ.get("HOME") or Path.home()) / ".local" / "state" / "tableside"


def _path(value: str, folder: Path) -> Path:
    """A path from the file: ``~`` expanded, relative to the file's folder."""
    return folder / Path(value).expanduser()


def _app(table: Mapping[str, Any], folder: Path, environ: Mapping[str, str]) -> AppSettings:
    state_dir = (
        _state_dir(environ) if "state_dir" not in table else _path(table["state_dir"], folder)
    )
    catalogue = table.get("catalogue")
    return AppSettings(
        language=table["language"],
        state_dir=state_dir,
        sleep_after_minutes=table["sleep_after_minutes"],
        bag=table["bag"],
        deck=table["deck"],
        catalogue=state_dir / CATALOGUE if catalogue is None else _path(catalogue, folder),
        names=tuple(name.strip() for name in table["names"]),
        handoff_chirp=table["handoff_chirp"],
    )


def popiel_owner_file(owner_catalogue: str | os.PathLike[str] | None) -> Path | None:
    """Where an owner's Król Popiel values live: beside their Pingwiny file."""
    if owner_catalogue is None:
        return None
    path = Path(owner_catalogue)
    return path.with_name(f"{path.stem}-krol-popiel.toml")


def _frozen(table: Mapping[str, Any]) -> Mapping[str, Any]:
    def freeze(value: Any) -> Any:
        if isinstance(value, dict):
            return MappingProxyType(dict(value))
        return tuple(value) if isinstance(value, list) else value

    return MappingProxyType({key: freeze(value) for key, value in table.items()})


# The largest configuration read: the reference file, every key written out with its comment,
# is about 3 KB.
CONFIG_LIMIT = 64 << 10
# The settings whose text is a path or a device's name, handed to the system as it is.
PATHS = ("app.state_dir", "app.catalogue", "reader.port")


def load_config(
    path: str | os.PathLike[str] | None = None, *, environ: Mapping[str, str] = os.environ
) -> Config:
    """Read and check the configuration; ``None`` gives the simulator's.

    Raises ``ConfigError`` listing every problem, in the order of the file.
    ``environ`` supplies the default state folder (see ``_state_dir``). The file is read
    within bounds before it is parsed (``bounded_read``): a regular file (a link the owner
    made is followed) of at most ``CONFIG_LIMIT`` bytes, UTF-8, nested a few levels; a path
    in it holds no control character.
    """
    if path is None:
        raw, text, file, folder = SIMULATOR, "", "(simulator defaults)", Path.cwd()
    else:
        file, folder = os.fspath(path), Path(path).parent.absolute()
        try:
            text = bounded_read.read_text(path, CONFIG_LIMIT, follow=True)
            raw = bounded_read.parse_toml(text)
        except OSError as error:
            raise ConfigError([Problem(file, None, "", f"cannot read: {error.strerror}")]) from None
        except tomllib.TOMLDecodeError as error:
            line, message = _syntax_line(error, text)
            raise ConfigError([Problem(file, line, "", f"TOML syntax: {message}")]) from None
        except bounded_read.Refused as error:
            raise ConfigError([Problem(file, None, "", line) for line in error.problems]) from None
    checker = _Checker(file, raw, text)
    tables = checker.tables()
    for key in PATHS:
        table, name = key.split(".")
        value = tables[table].get(name)
        if isinstance(value, str) and (problem := control_problem(value)):
            checker.add(key, problem)
    checker.cross_check(tables)
    if checker.problems:
        raise ConfigError(sorted(checker.problems, key=lambda problem: problem.line or 0))
    return Config(
        buttons=_frozen(tables["buttons"]),
        display=_frozen(tables["display"]),
        reader=_frozen(tables["reader"]),
        buzzer=_frozen(tables["buzzer"]),
        app=_app(tables["app"], folder, environ),
        source=None if path is None else Path(path),
    )
