"""The configuration file: defaults, every problem at once with its line, pins, the example."""

import os
from pathlib import Path

import pytest

from firmware_app.store.config import SCHEMA, AppSettings, ConfigError, load_config
from hw import buttons, buzzer, display
from hw.buttons import build_buttons
from hw.buzzer import build_buzzer
from hw.display import build_display
from hw.errors import ConfigError as HardwareConfigError
from hw.rfid import build_reader
from hw.rfid import factory as reader

EXAMPLE = Path(__file__).parent.parent / "docs" / "tableside.example.toml"
ENVIRON = {"TABLESIDE_STATE_DIR": "/var/lib/tableside"}


@pytest.fixture
def write(tmp_path: Path):
    """Write a configuration file and return its path."""

    def make(text: str) -> Path:
        path = tmp_path / "tableside.toml"
        path.write_text(text, encoding="utf-8")
        return path

    return make


def problems(path: Path) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ=ENVIRON)
    return [str(problem) for problem in caught.value.problems]


# ---------------------------------------------------------------- defaults


def test_the_simulator_needs_no_file(tmp_path):
    config = load_config(None, environ={"XDG_STATE_HOME": str(tmp_path)})
    assert config.source is None
    assert [config.buttons["driver"], config.display["driver"]] == ["fake", "fake"]
    assert [config.reader["driver"], config.buzzer["driver"]] == ["fake", "fake"]
    assert config.app == AppSettings(
        language="pl",
        state_dir=tmp_path / "tableside",
        sleep_after_minutes=15,
        bag="app",
        deck="app",
        catalogue=tmp_path / "tableside" / "catalogue.toml",
    )
    assert config.app.journal == tmp_path / "tableside" / "journal.sqlite"


def test_the_simulator_tables_build_the_fakes():
    config = load_config(None, environ=ENVIRON)
    parts = [
        build_buttons(config.buttons),
        build_display(config.display),
        build_reader(config.reader),
        build_buzzer(config.buzzer),
    ]
    assert [type(part).__name__ for part in parts] == [
        "FakeButtons",
        "FakeDisplay",
        "FakeReader",
        "FakeBuzzer",
    ]
    for part in parts:
        part.close()


@pytest.mark.parametrize(
    "environ, expected",
    [
        ({"TABLESIDE_STATE_DIR": "/srv/t", "XDG_STATE_HOME": "/x"}, "/srv/t"),
        ({"XDG_STATE_HOME": "/x", "HOME": "/home/iza"}, "/x/tableside"),
        ({"XDG_STATE_HOME": "relative", "HOME": "/home/iza"}, "/home/iza/.local/state/tableside"),
        ({"HOME": "/home/iza"}, "/home/iza/.local/state/tableside"),
    ],
)
def test_the_default_state_folder_follows_the_environment(environ, expected):
    assert load_config(None, environ=environ).app.state_dir == Path(expected)


def test_the_example_file_loads_cleanly_and_is_the_reference_build():
    config = load_config(EXAMPLE, environ=ENVIRON)
    assert config.source == EXAMPLE
    assert config.buttons["driver"] == "gpio"
    assert config.buttons["pins"] == buttons.REFERENCE_PINS
    assert config.display == display.DEFAULTS
    assert config.reader == {k: v for k, v in reader.DEFAULTS.items() if v is not None}
    assert config.buzzer == {"driver": "gpio", "pin": buzzer.REFERENCE_PIN}
    assert config.app.state_dir == Path("/var/lib/tableside")


def test_an_empty_file_means_the_example_file(write):
    """The example only spells out the defaults a file falls back to."""
    empty = load_config(write(""), environ=ENVIRON)
    example = load_config(EXAMPLE, environ=ENVIRON)
    assert [empty.buttons, empty.display, empty.reader, empty.buzzer, empty.app] == [
        example.buttons,
        example.display,
        example.reader,
        example.buzzer,
        example.app,
    ]


def test_the_reference_build_is_accepted_by_the_real_drivers(mock_factory):
    config = load_config(EXAMPLE, environ=ENVIRON)
    panel = build_buttons(config.buttons)
    assert panel.names == tuple(buttons.REFERENCE_PINS)
    assert {mock_factory.pin(bcm).pull for bcm in buttons.REFERENCE_PINS.values()} == {"up"}
    beeper = build_buzzer(config.buzzer)
    assert mock_factory.pin(buzzer.REFERENCE_PIN).function == "output"
    screen = build_display(config.display | {"driver": "dummy"})
    for part in (panel, beeper, screen, build_reader(config.reader)):
        part.close()


@pytest.mark.parametrize(
    "table, accepted",
    [
        ("buttons", buttons.SETTINGS),
        ("display", display.DEFAULTS),
        ("reader", reader.DEFAULTS),
        ("buzzer", buzzer.SETTINGS),
    ],
)
def test_each_table_has_exactly_the_keys_its_driver_reads(table, accepted):
    assert set(SCHEMA[table]) == set(accepted)


def test_a_loaded_configuration_cannot_be_changed():
    config = load_config(None, environ=ENVIRON)
    with pytest.raises(AttributeError):
        config.app = None
    with pytest.raises(TypeError):
        config.buttons["pins"]["up"] = 4


# ---------------------------------------------------------------- problems


def test_every_mistake_is_reported_at_once_with_its_line(write):
    path = write(
        "\n".join(
            [
                'language = "en"',  # 1
                "",  # 2
                "[buttons]",  # 3
                "debounce = 20",  # 4
                "long_press_ms = 0.8",  # 5
                "",  # 6
                "[display]",  # 7
                'driver = "ssd1036"',  # 8
                "contrast = 300",  # 9
                "i2c_address = 0x80",  # 10
                "rotate = true",  # 11
                "",  # 12
                "[reader]",  # 13
                'baudrate = "fast"',  # 14
                "",  # 15
                "[app]",  # 16
                'bag = "tabel"',  # 17
                "state_dir = 5",  # 18
                "",  # 19
                "[buttonz]",  # 20
                "x = 1",  # 21
            ]
        )
    )
    assert problems(path) == [
        f'{path}:1: language: unknown key; "language" belongs in [app]',
        f'{path}:4: buttons.debounce: unknown key; did you mean "debounce_ms"?',
        f"{path}:5: buttons.long_press_ms: expected a number of milliseconds from 200 to 10000,"
        " got 0.8",
        f'{path}:8: display.driver: unknown value "ssd1036"; accepted: "ssd1306", "sh1106",'
        ' "ssd1309", "dummy", "fake"; did you mean "ssd1306"?',
        f"{path}:9: display.contrast: expected an integer from 0 to 255, got 300",
        f"{path}:10: display.i2c_address: expected an integer from 0x08 to 0x77, got 0x80",
        f"{path}:11: display.rotate: unknown value true; accepted: 0, 2",
        f'{path}:14: reader.baudrate: expected an integer from 300 to 4000000, got "fast"',
        f'{path}:17: app.bag: unknown value "tabel"; accepted: "app", "table";'
        ' did you mean "table"?',
        f"{path}:18: app.state_dir: expected a folder in quotes, got 5",
        f'{path}:20: buttonz: unknown table; did you mean "buttons"?',
    ]


def test_the_error_is_a_hardware_config_error_carrying_every_problem(write):
    path = write("[display]\ncontrast = -1\nrotate = 1\n")
    with pytest.raises(HardwareConfigError) as caught:
        load_config(path)
    assert isinstance(caught.value, ValueError)
    assert [(p.line, p.key) for p in caught.value.problems] == [
        (2, "display.contrast"),
        (3, "display.rotate"),
    ]
    assert str(caught.value) == "\n".join(str(p) for p in caught.value.problems)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[buttons]\nlong_pres_ms = 900\n", 'unknown key; did you mean "long_press_ms"?'),
        ("[buttons]\ncontrast = 9\n", 'unknown key; "contrast" belongs in [display]'),
        ("[buzzer]\nvolume = 9\n", "unknown key; accepted: driver, pin, pin_factory"),
        ("[app]\nlanguage = 'eng'\n", 'accepted: "pl", "en"; did you mean "en"?'),
        ("[buttons]\npins = {up=5, down=6, ok=13, back=19, gren=22}\n", 'did you mean "green"?'),
        ("[buttons]\nrepeat = ['up', 'donw']\n", 'unknown button "donw"; did you mean "down"?'),
        ("[buttons]\npin_factory = 'lgpoi'\n", 'did you mean "lgpio"?'),
        ("[reader]\ndriver = 'pn532'\n", 'did you mean "pn532-uart"?'),
    ],
)
def test_a_misspelling_gets_a_did_you_mean(write, text, expected):
    path = write(text)
    (found,) = problems(path)
    assert found.startswith(f"{path}:2: ")
    assert found.endswith(expected)


@pytest.mark.parametrize(("table", "key"), [(t, k) for t, keys in SCHEMA.items() for k in keys])
def test_every_key_refuses_a_value_of_the_wrong_type_on_its_line(write, table, key):
    path = write(f"[{table}]\n{key} = [1.5, 2.5]\n")
    (found,) = problems(path)
    assert found.startswith(f"{path}:2: {table}.{key}: ")


@pytest.mark.parametrize(
    "value, message",
    [
        ('"5"', 'expected an integer from 0 to 27, got "5"'),
        ("true", "expected an integer from 0 to 27, got true"),
        ("5.0", "expected an integer from 0 to 27, got 5.0"),
        ("28", "expected an integer from 0 to 27, got 28"),
    ],
)
def test_a_pin_must_be_a_bcm_number(write, value, message):
    path = write(f"[buzzer]\npin = {value}\n")
    assert problems(path) == [f"{path}:2: buzzer.pin: {message}"]


def test_a_table_written_as_a_value_is_refused(write):
    path = write('buttons = "all"\n')
    assert problems(path) == [f'{path}:1: buttons: expected a table [buttons], got "all"']


def test_a_syntax_error_gives_its_line_and_column(write):
    path = write("[buttons]\ndebounce_ms = 20\nlong_press_ms = = 800\n")
    assert problems(path) == [f"{path}:3: TOML syntax: Invalid value (column 17)"]


def test_a_missing_file_and_a_binary_file_are_reported(tmp_path):
    absent = tmp_path / "absent.toml"
    assert problems(absent) == [f"{absent}: cannot read: No such file or directory"]
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    (found,) = problems(binary)
    assert found.startswith(f"{binary}: not UTF-8 text: ")


# ------------------------------------------------------------------- pins


def test_a_four_button_build_is_valid(write):
    config = load_config(write("[buttons]\npins = {up = 5, down = 6, ok = 13, back = 19}\n"))
    assert dict(config.buttons["pins"]) == {"up": 5, "down": 6, "ok": 13, "back": 19}


def test_the_navigation_buttons_are_required(write):
    path = write("[buttons]\npins = {up = 5, ok = 13, red = 17}\n")
    assert problems(path) == [
        f"{path}:2: buttons.pins: the navigation buttons are required; missing: down, back"
    ]


def test_repeat_names_a_button_that_has_a_pin(write):
    path = write("[buttons]\npins = {up=5, down=6, ok=13, back=19}\nrepeat = ['up', 'red']\n")
    assert problems(path) == [f'{path}:3: buttons.repeat: "red" has no pin in buttons.pins']


def test_duplicate_pins_are_reported_on_the_later_button(write):
    path = write("[buttons.pins]\nup = 5\ndown = 6\nok = 13\nback = 19\nred = 6\n")
    assert problems(path) == [
        f"{path}:6: buttons.pins.red: BCM 6 is already used by buttons.pins.down"
    ]


def test_the_buzzer_and_a_button_on_one_pin(write):
    path = write("[buzzer]\npin = 26\n")
    assert problems(path) == [f"{path}:2: buzzer.pin: BCM 26 is already used by buttons.pins.black"]


def test_a_button_on_the_i2c_bus_of_the_display(write):
    path = write("[buttons]\npins = {up = 5, down = 6, ok = 13, back = 3}\n")
    assert problems(path) == [
        f"{path}:2: buttons.pins.back: BCM 3 is already used by the SCL line of I2C bus 1 (display)"
    ]


def test_a_button_on_the_uart_of_the_reader(write):
    text = '[reader]\ndriver = "rdm6300"\n[buttons]\npins = {up=5, down=6, ok=13, back=14}\n'
    path = write(text)
    assert problems(path) == [
        f"{path}:4: buttons.pins.back: BCM 14 is already used by the TXD line of the UART (reader)"
    ]


def test_a_usb_serial_reader_takes_no_header_pin(write):
    text = '[reader]\ndriver = "rdm6300"\nport = "/dev/ttyUSB0"\n'
    text += "[buttons]\npins = {up=5, down=6, ok=13, back=14}\n"
    assert load_config(write(text)).reader["port"] == "/dev/ttyUSB0"


def test_spi_display_pins_are_checked(write):
    path = write(
        '[display]\ninterface = "spi"\ngpio_dc = 25\n'
        "[buttons]\npins = {up=5, down=6, ok=13, back=10, white=25}\n"
    )
    assert problems(path) == [
        f"{path}:5: buttons.pins.back: BCM 10 is already used by"
        " the MOSI line of SPI bus 0 (display)",
        f"{path}:5: buttons.pins.white: BCM 25 is already used by display.gpio_dc",
    ]


def test_display_and_rc522_share_the_spi_bus_but_not_a_chip_select(write):
    text = '[display]\ninterface = "spi"\n[reader]\ndriver = "rc522-spi"\n'
    assert load_config(write(text)).reader["spi_device"] == 1
    path = write(text + "spi_device = 0\n")
    assert problems(path) == [
        f"{path}:5: reader.spi_device: BCM 8 is already used by"
        " chip select CE0 of SPI bus 0 (display)"
    ]


def test_fake_parts_take_no_bus_pins(write):
    text = '[display]\ndriver = "fake"\n[buttons]\npins = {up=5, down=6, ok=13, back=2}\n'
    assert load_config(write(text)).buttons["pins"]["back"] == 2


# ------------------------------------------------------------------ paths


def test_relative_paths_are_relative_to_the_file(write, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", "/home/iza")
    path = write('[app]\nstate_dir = "state"\ncatalogue = "~/deck.toml"\n')
    app = load_config(path).app
    assert app.state_dir == tmp_path / "state"
    assert app.catalogue == Path("/home/iza/deck.toml")


# -------------------------------------------------------------- key lines


def test_lines_are_found_in_sub_tables_dotted_keys_and_after_long_strings(write):
    path = write(
        "\n".join(
            [
                "[app]",  # 1
                'language = """',  # 2
                "sleep_after_minutes = 5",  # 3: inside the string, not a key
                '"""',  # 4
                "sleep_after_minutes = -1",  # 5
                "[buttons]",  # 6
                "pins.up = 5",  # 7
                "pins.down = 6",  # 8
                "pins.ok = 13",  # 9
                "pins.back = 99",  # 10
                '[ "display" ]',  # 11
                "'contrast' = -1",  # 12
            ]
        )
    )
    assert problems(path) == [
        f'{path}:2: app.language: unknown value "sleep_after_minutes = 5\\n"; accepted: "pl", "en"',
        f"{path}:5: app.sleep_after_minutes: expected an integer from 0 to 1440, got -1",
        f"{path}:10: buttons.pins.back: expected an integer from 0 to 27, got 99",
        f"{path}:12: display.contrast: expected an integer from 0 to 255, got -1",
    ]


# ------------------------------------------------------- read within bounds


@pytest.mark.parametrize(
    ("text", "key", "character"),
    [
        ('[app]\nstate_dir = "/tmp/a\\u0000b"\n', "app.state_dir", "U+0000"),
        ('[app]\ncatalogue = "cards\\n.toml"\n', "app.catalogue", "U+000A"),
        ('[reader]\ndriver = "rdm6300"\nport = "/dev/\\u001b"\n', "reader.port", "U+001B"),
    ],
)
def test_a_control_character_in_a_path_is_refused_on_its_line(write, text, key, character):
    path = write(text)
    line = text.count("\n")
    assert problems(path) == [
        f"{path}:{line}: {key}: holds the control character {character}: refused"
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("a = " + "[" * 20_000 + "]" * 20_000 + "\n", "nested 20,000 levels deep"),
        ("a" + ".a" * 20_000 + " = 1\n", "nested 20,000 levels deep"),
        ("[display]\ncontrast = " + "9" * 5000 + "\n", "not TOML that can be read: Exceeds"),
        ("[display]\ncontrast = inf\n", "inf is not a number the box takes"),
        ("# " + "x" * 70_000 + "\n", "larger than 65,536 bytes"),
    ],
)
def test_a_file_out_of_bounds_is_refused_before_it_is_checked(write, text, problem):
    path = write(text)
    (found,) = problems(path)
    assert found.startswith(f"{path}: {problem}"), found


def test_a_named_pipe_or_a_device_is_refused_without_waiting(tmp_path):
    pipe = tmp_path / "tableside.toml"
    os.mkfifo(pipe)
    assert problems(pipe) == [f"{pipe}: a named pipe, not a regular file"]
    assert problems(Path("/dev/zero")) == ["/dev/zero: a device, not a regular file"]
    assert problems(tmp_path) == [f"{tmp_path}: a folder, not a regular file"]


def test_a_link_the_owner_made_to_the_file_is_followed(write, tmp_path):
    target = write('[app]\nlanguage = "en"\n')
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    assert load_config(link, environ=ENVIRON).app.language == "en"
