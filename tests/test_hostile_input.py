"""Hostile input through the real command line: records, positions, configurations, scripts.

What comes in from outside (a record on a stick, an end position typed by hand, a
configuration, a simulator script) may be anything: a named pipe, ``/dev/zero``, a
folder, a link to a secret, bytes that are not UTF-8, brackets nested a hundred thousand
deep, a 5,000-digit number, ``Infinity``, a megabyte of name, a control character, every
key of a record with a value of the wrong type. Two sets of cases:

- a fixed corpus of such inputs, each given to every command that reads its kind (a record
  or a position to ``import``, ``replay`` and ``score``; a configuration to ``stats
  --config``; a script to ``sim --headless``);
- hypothesis's random mutations of the shipped example records and positions, random
  configurations and random scripts, fed to the same commands (bounded, derandomized: the
  same examples on every run).

Every case runs ``firmware_app.cli.main.main`` with its argv and must end with exit status
0, 1 or 2, no traceback (neither raised nor logged by the command line's handler of bugs),
each line on stderr starting ``tableside: ``; an ``import`` refused must leave the journal's
file and rows exactly as they were. ``test_the_tally`` (last in the module) prints what was
tried and how it ended; ``pytest -s`` shows it.
"""

import copy
import hashlib
import io
import json
import logging
import os
import shutil
import socket
import sqlite3
import tempfile
import traceback
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_app.cli.main import main
from firmware_app.runners.headless import (
    MOST_COMMANDS,
    MOST_INPUTS,
    MOST_SCRIPT_TIME,
    MOST_TAGS,
    read_line,
    read_steps,
    run_script,
)
from firmware_app.store.bounded_read import Refused, parse_toml
from firmware_app.store.config import SCHEMA
from firmware_app.store.journal import Journal
from firmware_app.transfer.record_import import import_record

EXAMPLES = Path(__file__).parent.parent / "examples"
POPIEL_FILE, FAMILY_FILE = EXAMPLES / "krol-popiel-3p-game.json", EXAMPLES / "family-3p-seed7.json"
POPIEL = json.loads(POPIEL_FILE.read_text(encoding="utf-8"))
FAMILY = json.loads(FAMILY_FILE.read_text(encoding="utf-8"))
POSITION = json.loads((EXAMPLES / "position-iza.json").read_text(encoding="utf-8"))
MAX_EXAMPLES = 120  # per property: each runs a few commands of a few milliseconds
SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# ------------------------------------------------------------------ running a case


@dataclass(frozen=True)
class Outcome:
    """How one command ended on one hostile input."""

    kind: str  # record, position, configuration, script
    command: str
    status: object
    traceback: str  # empty: none
    stray: str  # a line on stderr not in the command line's form (empty: none)
    journal_changed: bool | None  # None: the command is not given a journal
    printed: str  # stdout and stderr

    @property
    def clean(self) -> bool:
        refused_cleanly = self.status in (0, 1, 2) and not self.traceback and not self.stray
        return refused_cleanly and not (self.status != 0 and self.journal_changed)


OUTCOMES: list[Outcome] = []  # every case of this module's run, for the tally
RAN: set[str] = set()  # the tests of this module that ran in this process


def run(argv: list[str]) -> tuple[object, str, str, str]:
    """The command's exit status, stdout, stderr and the traceback of any error it did not
    expect: raised out of ``main``, or logged by its handler of bugs."""
    caught: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = caught.append
    logger = logging.getLogger("tableside.cli")
    logger.addHandler(handler)
    out, err, raised = io.StringIO(), io.StringIO(), ""
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exited:  # argparse's usage errors
                status = exited.code
    except Exception:
        status, raised = None, traceback.format_exc()
    finally:
        logger.removeHandler(handler)
    logged = "\n".join(logging.Formatter().format(r) for r in caught if r.exc_info)
    return status, out.getvalue(), err.getvalue(), raised or logged


def fingerprint(folder: Path) -> tuple:
    """The journal's file and every row of its tables, as SQLite reads them."""
    path = folder / "journal.sqlite"
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        tables = ("games", "actions", "settings", "catalogues")
        rows = tuple(tuple(db.execute(f"SELECT * FROM {table} ORDER BY 1")) for table in tables)
    finally:
        db.close()
    return hashlib.sha256(path.read_bytes()).hexdigest(), rows


def attempt(kind: str, argv: list[str], journal: Path | None = None) -> Outcome:
    """Run one command on a hostile input, keep its outcome, and fail at once unless it
    ended cleanly (a refused ``import`` leaving ``journal``'s folder as it was)."""
    before = fingerprint(journal) if journal else None
    status, out, err, caught = run(argv)
    changed = None if journal is None else fingerprint(journal) != before
    if "Traceback" in err:
        caught = caught or err
    stray = next((line for line in err.splitlines() if not _ours(line)), "")
    outcome = Outcome(kind, argv[0], status, caught, stray, changed, out + err)
    OUTCOMES.append(outcome)
    assert outcome.clean, (argv, outcome, err[-2000:])
    return outcome


def _ours(line: str) -> bool:
    """A line of the command line's own (one per problem), or argparse's usage text."""
    return line.startswith(("tableside: ", "usage: ", "  ", "       "))


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """A state folder whose journal holds one finished game (the family example)."""
    folder = tmp_path_factory.mktemp("template")
    with Journal(folder / "journal.sqlite") as journal:
        import_record(journal, FAMILY_FILE, now=1_700_000_000)
    return folder


def state_copy(template: Path, into: Path) -> Path:
    folder = into / "state"
    shutil.copytree(template, folder)
    return folder


def every_reader(kind: str, path: Path, template: Path, scratch: Path) -> list[Outcome]:
    """A record or a position to each command that reads one: import, replay, score."""
    state = state_copy(template, scratch)
    return [
        attempt(kind, ["import", "--state-dir", str(state), str(path)], journal=state),
        attempt(kind, ["replay", str(path)]),
        attempt(kind, ["score", str(path)]),
    ]


def refused_unread(*outcomes: Outcome) -> None:
    """What is not a regular file is refused (exit 1 or 2), and a record's or a configuration's
    text is never printed: not the secret behind a link, even to root, whom no mode stops."""
    for outcome in outcomes:
        assert outcome.status in (1, 2), outcome
        assert SECRET not in outcome.printed, outcome


# ---------------------------------------------------------------- the fixed corpus


def _text(value) -> bytes:
    """JSON as a careless writer makes it: NaN and Infinity as they come, any character."""
    return json.dumps(value, allow_nan=True, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _with(base: dict, path: tuple, value) -> dict:
    """``base`` with the value at ``path`` replaced (a key added where there was none)."""
    record = copy.deepcopy(base)
    *parents, last = path
    table = record
    for key in parents:
        table = table[key]
    table[last] = value
    return record


def _without(base: dict, key: str) -> dict:
    record = copy.deepcopy(base)
    del record[key]
    return record


def _popiel_with_actions(actions: list) -> dict:
    return _with(POPIEL, ("actions",), actions)


def _popiel_played(started, ended=1_700_000_600) -> dict:
    return _with(POPIEL, ("played",), {"started": started, "ended": ended})


WRONG_VALUES = {
    "null": None,
    "true": True,
    "zero": 0,
    "-1": -1,
    "2^63": 2**63,
    "1.5": 1.5,
    "text": "x",
    "a NUL": "\x00",
    "empty list": [],
    "a list": ["a", 1],
    "empty table": {},
    "a table": {"a": 1},
}
RECORDS: dict[str, bytes] = {
    "deeply nested lists": b"[" * 100_000 + b"]" * 100_000,
    "deeply nested tables": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "nesting of 40 in a name": _text(
        _with(POPIEL, ("options", "names", 0), json.loads("[" * 40 + "]" * 40))
    ),
    "not UTF-8": _text(POPIEL).replace(b"Monika", b"Mo\xff\xfeka"),
    "UTF-16": json.dumps(POPIEL).encode("utf-16"),
    "a byte-order mark": b"\xef\xbb\xbf" + _text(POPIEL),
    "a 5,000-digit seed": _text(POPIEL).replace(b'"seed": 4', b'"seed": ' + b"9" * 5000),
    "a 20-digit seed": _text(_with(POPIEL, ("options", "seed"), 2**64 + 1)),
    "10^100 points by a correction": _text(
        _popiel_with_actions(
            POPIEL["actions"][:3] + ["correct points p1 1" + "0" * 100] + POPIEL["actions"][3:]
        )
    ),
    "10^18 points by a correction": _text(
        _popiel_with_actions(
            POPIEL["actions"][:3] + [f"correct points p2 {10**18}"] + POPIEL["actions"][3:]
        )  # fmt: skip
    ),
    "10^100 points on a card": _text(FAMILY).replace(
        b'"points": 3', b'"points": 1' + b"0" * 100, 1
    ),
    "10^18 points on every card": _text(FAMILY).replace(
        b'"points": ', b'"points": 10000000000000000'
    ),
    "an infinite start": _text(_popiel_played(float("inf"))),
    "an end at minus infinity": _text(_popiel_played(1_700_000_000, float("-inf"))),
    "a start that is NaN": _text(_popiel_played(float("nan"))),
    "a start of 1e400": _text(POPIEL | {"played": "@"}).replace(b'"@"', b'{"started": 1e400}'),
    "a start before 1970": _text(_popiel_played(-1)),
    "a start in the year 33658": _text(_popiel_played(10**12)),
    "a start as text": _text(_popiel_played("2024-01-01")),
    "played as a list": _text(POPIEL | {"played": [1, 2]}),
    "played as text": _text(POPIEL | {"played": "yesterday"}),
    "played with another key": _text(POPIEL | {"played": {"started": 1, "where": "x"}}),
    "a name of a megabyte": _text(_with(POPIEL, ("options", "names", 0), "A" * 1_000_000)),
    "a file of five megabytes": _text(_with(POPIEL, ("options", "names", 0), "A" * 5_000_000)),
    "a name of 17 letters": _text(_with(POPIEL, ("options", "names", 0), "A" * 17)),
    "an empty name": _text(_with(POPIEL, ("options", "names", 0), "")),
    "a blank name": _text(_with(POPIEL, ("options", "names", 0), "   ")),
    "a NUL in a name": _text(_with(POPIEL, ("options", "names", 1), "Ka\x00sia")),
    "an escape sequence in a name": _text(_with(POPIEL, ("options", "names", 1), "\x1b[2J")),
    "a line break in a name": _text(_with(POPIEL, ("options", "names", 1), "Ka\nsia")),
    "a right-to-left override in a name": _text(_with(POPIEL, ("options", "names", 1), "\u202e")),
    "half a UTF-16 pair in a name": _text(_with(POPIEL, ("options", "names", 1), "\ud800")),
    "an escaped half pair in a name": _text(POPIEL).replace(b"Kasia", b"\\ud800"),
    "half a pair in the catalogue": _text(FAMILY).replace(b"demo deck", b"demo \\udfff", 1),
    "a mouse of a megabyte": _text(_with(POPIEL, ("options", "players", 0), "m" * 1_000_000)),
    "a control character in a mouse": _text(_with(POPIEL, ("options", "players", 0), "\x07")),
    "six mice": _text(_with(POPIEL, ("options", "players"), [f"m{n}" for n in range(6)])),
    "an unknown key": _text(POPIEL | {"x": 1}),
    "an outcome of finished": _text(POPIEL | {"outcome": "finished"}),
    "abandoned, yet finished": _text(POPIEL | {"outcome": "abandoned"}),
    "20,000 actions": _text(_popiel_with_actions(["pass"] * 20_000)),
    "an action of a megabyte": _text(_popiel_with_actions(["place " + "1" * 1_000_000])),
    "an action with a line break": _text(_popiel_with_actions(["place 1\nplace 2"])),
    "an action as a number": _text(_popiel_with_actions([1])),
    "an action as a table": _text(_popiel_with_actions([{"place": 1}])),
    "a huge correction in text": _text(_popiel_with_actions(["correct points p1 " + "9" * 5000])),
    "truncated": _text(FAMILY)[: len(_text(FAMILY)) // 2],
    "empty": b"",
    "only spaces": b" " * 1000,
    "null": b"null",
    "a list": b"[]",
    "a number": b"42",
    "text": b'"record"',
    "NaN alone": b"NaN",
    "unfinished": _text(_popiel_with_actions(POPIEL["actions"][:5])),
    "a position with a name of a megabyte": _text(
        _with(POSITION, ("players", 0, "name"), "I" * 1_000_000)
    ),
    "a position with a control character": _text(
        _with(POSITION, ("players", 0, "name"), "\x1b]0;x")
    ),
    "a position with 10^18 tokens": _text(_with(POSITION, ("players", 0, "tokens"), 10**18)),
    "a position with 10^18 red tokens": _text(
        _with(POSITION, ("players", 0, "tokens"), {"red": 10**18})
    ),
    "a position with 100 players": _text(POSITION | {"players": POSITION["players"] * 50}),
    "a position with players as a table": _text(POSITION | {"players": {"a": 1}}),
    **{
        f"{key} is {name}": _text(_with(POPIEL if key != "catalogue" else FAMILY, (key,), value))
        for key in ("format", "version", "game", "variant", "options", "catalogue", "actions")
        for name, value in WRONG_VALUES.items()
    },
    **{f"without {key}": _text(_without(POPIEL, key)) for key in POPIEL},
    **{
        f"Król Popiel's {key} is {name}": _text(_with(POPIEL, ("options", key), value))
        for key in POPIEL["options"]
        for name, value in WRONG_VALUES.items()
    },
    **{
        f"Pingwiny's {key} is {name}": _text(_with(FAMILY, ("options", key), value))
        for key in (*FAMILY["options"], "die", "layout", "virtual")
        for name, value in WRONG_VALUES.items()
    },
}


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "game.json").write_bytes(POPIEL_FILE.read_bytes())


SECRET = "$6$saltsalt$"


def _secret(path: Path) -> None:
    """A link to a file like /etc/shadow: the person at the command line may name it, and
    its text is refused as what it is not (see ``refused_unread``)."""
    secret = path.with_name("shadow")
    secret.write_text(f"root:{SECRET}abcdefghijklmnop:19000:0:99999:7:::\n")
    secret.chmod(0)
    path.symlink_to(secret)


def _link_to_fifo(path: Path) -> None:
    os.mkfifo(path.with_name("pipe"))
    path.symlink_to(path.with_name("pipe"))


def _socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()


SPECIAL_FILES = {
    "a named pipe": _fifo,
    "a folder": _folder,
    "a link to a secret": _secret,
    "a link to a named pipe": _link_to_fifo,
    "a dangling link": lambda path: path.symlink_to(path.with_name("nowhere")),
    "a link to /dev/zero": lambda path: path.symlink_to("/dev/zero"),
    "a socket": _socket,
    "nothing": lambda path: None,
}
DEVICES = ("/dev/zero", "/dev/null", "/dev/urandom")


@pytest.mark.parametrize("case", list(RECORDS))
def test_a_hostile_record_or_position_is_refused_in_a_line_or_taken(case, template, tmp_path):
    path = tmp_path / "record.json"
    path.write_bytes(RECORDS[case])
    every_reader("position" if "position" in case else "record", path, template, tmp_path)


@pytest.mark.parametrize("case", list(SPECIAL_FILES))
def test_what_is_not_a_regular_file_is_refused_without_waiting(case, template, tmp_path):
    path = tmp_path / "record.json"
    SPECIAL_FILES[case](path)
    refused_unread(*every_reader("record", path, template, tmp_path))


@pytest.mark.parametrize("device", DEVICES)
def test_a_device_is_refused_without_reading_it(device, template, tmp_path):
    refused_unread(*every_reader("record", Path(device), template, tmp_path))


def test_a_record_already_in_the_journal_is_refused_and_changes_nothing(template, tmp_path):
    state = state_copy(template, tmp_path)
    outcome = attempt("record", ["import", "--state-dir", str(state), str(FAMILY_FILE)], state)
    assert outcome.status == 1


def test_the_examples_are_taken(template, tmp_path):
    """The corpus's bases themselves pass, so every refusal above is the hostile part's."""
    state = state_copy(template, tmp_path)
    assert attempt("record", ["import", "--state-dir", str(state), str(POPIEL_FILE)]).status == 0
    assert attempt("record", ["replay", str(FAMILY_FILE)]).status == 0
    assert attempt("position", ["score", str(EXAMPLES / "position-iza.json")]).status == 0


# ------------------------------------------------------------------ configurations

WRONG_TOML = {
    "true": "true",
    "-1": "-1",
    "huge": "9" * 30,
    "inf": "inf",
    "nan": "nan",
    "1e300": "1e300",
    "text": '"x"',
    "a NUL": '"a\\u0000b"',
    "a list": '["a", 1]',
    "a table": "{a = 1}",
}
CONFIGURATIONS: dict[str, bytes] = {
    "nested arrays": b"a = " + b"[" * 50_000 + b"]" * 50_000 + b"\n",
    "nested inline tables": b"a = " + b"{b = " * 5_000 + b"1" + b"}" * 5_000 + b"\n",
    "nested dotted keys": b"a" + b".a" * 20_000 + b" = 1\n",
    "nested table headers": b"[" + b"a." * 5_000 + b"a]\n",
    "a NUL in the state folder": b'[app]\nstate_dir = "/tmp/a\\u0000b"\n',
    "a line break in the catalogue": b'[app]\ncatalogue = "a\\nb.toml"\n',
    "an escape in the reader's port": b'[reader]\ndriver = "rdm6300"\nport = "\\u001b[2J"\n',
    "not UTF-8": b'[app]\nlanguage = "\xff\xfe"\n',
    "a 5,000-digit number": b"[display]\ncontrast = " + b"9" * 5000 + b"\n",
    "a name with a control character": b'[app]\nnames = ["Ala", "\\u0007"]\n',
    "a name of a kilobyte": b'[app]\nnames = ["' + b"A" * 1024 + b'"]\n',
    "larger than any configuration": b"# " + b"x" * (1 << 20) + b"\n",
    "truncated": b'[app]\nlanguage = "e',
    "a key twice": b'[app]\nbag = "app"\nbag = "app"\n',
    "a table twice": b"[app]\n[app]\n",
    "only a comment": b"# nothing\n",
    **{
        f"{table}.{key} is {name}": f"[{table}]\n{key} = {value}\n".encode()
        for table, keys in SCHEMA.items()
        for key in keys
        for name, value in WRONG_TOML.items()
    },
}


# The nesting is bounded before TOML is parsed (tomllib recurses into brackets and is
# quadratic on a key of many parts); the dots of a value (a float, a time, dotted text in a
# string) are not a key's and do not count.
DOTS_IN_VALUES = {
    "33 floats": "a = [" + ", ".join(f"{n}.5" for n in range(33)) + "]\n",
    "floats over lines": "a = [\n" + "".join(f"  {n}.25,\n" for n in range(40)) + "]\n",
    "floats in an inline table": "a = {" + ", ".join(f"k{n} = {n}.5" for n in range(40)) + "}\n",
    "times": "a = [" + ", ".join(["1979-05-27T07:32:00.999-07:00"] * 40) + "]\n",
    "dotted text": "a = ['" + "a." * 40 + "', \"" + ".b" * 40 + '"]  # c' + "." * 40 + "\n",
    "a dotted key and floats": "[x.y]\nz.w = [1.5, 2.5, 3.5, 4.5, 5.5]\n",
}
DEEP_KEYS = {
    "a dotted key": "a" + ".a" * 40 + " = 1\n",
    "a dotted key spaced": "a" + " . a" * 40 + " = 1\n",
    "quoted parts": '"a"' + '."a"' * 40 + " = 1\n",
    "a key in an inline table": "x = {" + "a." * 40 + "a = 1}\n",
    "a table header": "[" + "a." * 40 + "a]\n",
    "an array of tables": "[[" + "a." * 40 + "a]]\n",
}


@pytest.mark.parametrize("case", list(DOTS_IN_VALUES))
def test_dots_in_toml_values_are_not_nesting(case):
    assert parse_toml(DOTS_IN_VALUES[case])


@pytest.mark.parametrize("case", list(DEEP_KEYS))
def test_a_deep_toml_key_is_refused_before_parsing_wherever_it_stands(case):
    with pytest.raises(Refused) as refused:
        parse_toml(DEEP_KEYS[case])
    assert refused.value.problems == ("nested 40 levels deep; at most 32 are read",)


def test_a_configuration_with_33_floats_is_read(default_state, tmp_path):
    """A list of floats goes through ``tableside stats --config`` to a refusal of the unknown
    key, not of its nesting."""
    path = tmp_path / "tableside.toml"
    path.write_text("[app]\nweights = [" + ", ".join(["1.5"] * 33) + "]\n")
    status, _, err, _ = run(["stats", "--config", str(path)])
    assert status == 1 and "nested" not in err and "weights" in err


@pytest.fixture(scope="module")
def default_state(template, tmp_path_factory):
    """The default state folder a configuration without ``state_dir`` names: a copy of the
    template's journal, so that a configuration taken shows its statistics (never the
    folder of the machine the tests run on)."""
    folder = state_copy(template, tmp_path_factory.mktemp("default"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TABLESIDE_STATE_DIR", str(folder))
        yield folder


def stats_with(path: Path, state: Path) -> Outcome:
    return attempt("configuration", ["stats", "--config", str(path)], journal=state)


@pytest.mark.parametrize("case", list(CONFIGURATIONS))
def test_a_hostile_configuration_is_refused_in_a_line(case, default_state, tmp_path):
    path = tmp_path / "tableside.toml"
    path.write_bytes(CONFIGURATIONS[case])
    stats_with(path, default_state)


@pytest.mark.parametrize("case", list(SPECIAL_FILES))
def test_a_configuration_that_is_not_a_regular_file_is_refused(case, default_state, tmp_path):
    path = tmp_path / "tableside.toml"
    SPECIAL_FILES[case](path)
    refused_unread(stats_with(path, default_state))


@pytest.mark.parametrize("device", DEVICES)
def test_a_device_as_the_configuration_is_refused(device, default_state):
    refused_unread(stats_with(Path(device), default_state))


# ------------------------------------------------------------------------ scripts

SCRIPTS: dict[str, bytes] = {
    "not UTF-8": b"press ok\npress \xff\xfe\n",
    "an unclosed quote": b'press ok\nexpect "New game\n',
    "a trillion presses": b"press ok 1000000000000\n",
    "a hundred and one presses": b"press ok 101\n",
    "presses as a float": b"press ok 1e3\n",
    "presses of 5,000 digits": b"press ok " + b"9" * 5000 + b"\n",
    "a hold of 1e12 seconds": b"hold back 1e12\n",
    "a hold of infinity": b"hold back inf\n",
    "a hold of NaN": b"hold back nan\n",
    "a wait of 1e9 seconds": b"wait 1e9\n",
    "a wait of two hours": b"wait 7200\n",
    "a wait of 1e400": b"wait 1e400\n",
    "an evening of waits": b"wait 3600\n" * 7,
    "a tag of a megabyte": b"tag " + b"AB" * 500_000 + b"\n",
    "a tag that is not hex": b"tag NOTHEX\n",
    "a tag of an odd length": b"tag ABC\n",
    "a NUL in a line": b"press o\x00k\n",
    "an unknown button": b"press purple\n",
    "an unknown command": b"dance\n",
    "an expect that fails": b'expect "nowhere"\n',
    "a line of a megabyte": b"#" + b"x" * 1_000_000 + b"\n",
    "larger than any script": b"# " + b"x" * (2 << 20) + b"\n",
    "only comments": b"# a\n   # b\n\n",
    "a control character in a button": b"press ok\x01\n",
    "a button after good lines": b"press ok\npress down\npress foo\n",
    "presses in Arabic-Indic digits": "press ok \u0663\n".encode(),
    "a wait with an underscore": b"wait 1_000\n",
    "a wait with a sign": b"wait +5\n",
    "a hold in exponent form": b"hold ok 1e-300\n",
    "an expect of an escape": b'expect "\x1b[2J"\n',
    "an empty expect": b'expect ""\n',
    "2,001 commands": b'expect "Tableside"\n' * 2001,
    "2,001 presses": b"press down 100\n" * 21,
    "105 tags": b"tag 04A1\n" * 105,
    "an hour's wait": b"wait 3600\n",
}


@pytest.mark.parametrize("case", list(SCRIPTS))
def test_a_hostile_script_is_refused_with_its_line(case, tmp_path):
    path = tmp_path / "script.txt"
    path.write_bytes(SCRIPTS[case])
    attempt("script", ["sim", "--headless", "--script", str(path), "--state-dir", str(tmp_path)])


# Scripts whose every line is read and refused before the app starts (a button, a number, a
# tag, an expect, a bound), and the lines that say so, in any order.
PANEL = "this panel has up, down, ok, back, red, blue, green, yellow, grey, white, black"
REFUSED_SCRIPTS: dict[str, tuple[bytes, list[str]]] = {
    "an unknown button": (
        b"press ok\npress foo\n",
        [f"line 2: cannot run 'press foo': no button 'foo'; {PANEL}"],
    ),
    "a control character after a button's name": (
        b"press ok\x01\n",
        [f"line 1: cannot run 'press ok\\x01': no button 'ok\\x01'; {PANEL}"],
    ),
    "numbers not in ASCII digits": (
        "press ok \u0663\nwait 1_000\nhold back 1e-3\nwait 5\n".encode(),
        [
            "line 1: cannot run 'press ok \u0663': a press count is written in the digits 0 to 9, "
            "not '\u0663'",
            "line 2: cannot run 'wait 1_000': wait takes a number of seconds in the digits 0 to 9, "
            "with a point or none, not '1_000'",
            "line 3: cannot run 'hold back 1e-3': hold takes a number of seconds in the digits "
            "0 to 9, with a point or none, not '1e-3'",
        ],
    ),
    "a tag, an expect and a command": (
        b'tag 0\nexpect "\x1b[2J"\ndance\npress\n',
        [
            "line 1: cannot run 'tag 0': a tag's UID is whole bytes in hex, 20 digits at most, "
            "not '0'",
            "line 2: cannot run 'expect \"\\x1b[2J\"': expect takes printable text, not '\\x1b[2J'",
            "line 3: cannot read 'dance': a line starts with press, hold, tag, wait or expect",
            "line 4: cannot read 'press': expected press NAME [N]",
        ],
    ),
    "past every bound": (
        b"tag 04A1\n" * 105 + b"press down 100\n" * 19 + b'expect "x"\n' * 1876 + b"wait 3600\n",
        [
            "line 105: a script lays at most 104 tags",
            "line 124: a script presses, holds and lays tags at most 2,000 times in all",
            "line 2001: a script has at most 2,000 commands",
            "line 2001: the script runs past 1 h of the clock",
        ],
    ),
    "more problems than are told": (
        b"press foo\n" * 30,
        [f"line {n}: cannot run 'press foo': no button 'foo'; {PANEL}" for n in range(1, 21)]
        + ["and 10 more problems"],
    ),
}


def folder_contents(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``, by its path there, with its bytes."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def played_state(tmp_path_factory) -> Path:
    """A state folder a script has run in: its journal, its settings, the box's identity."""
    folder = tmp_path_factory.mktemp("played") / "state"
    script = folder.parent / "script.txt"
    script.write_text("press ok\npress ok\n")
    status, _, err, _ = run(
        ["sim", "--headless", "--script", str(script), "--state-dir", str(folder)]
    )
    assert status == 0, err
    return folder


@pytest.mark.parametrize("case", list(REFUSED_SCRIPTS))
def test_a_refused_script_says_each_problem_and_makes_and_changes_nothing(
    case, played_state, tmp_path
):
    data, problems = REFUSED_SCRIPTS[case]
    path = tmp_path / "script.txt"
    path.write_bytes(data)
    fresh = tmp_path / "fresh"
    outcome = attempt(
        "script", ["sim", "--headless", "--script", str(path), "--state-dir", str(fresh)]
    )
    assert outcome.status == 1
    assert not fresh.exists()  # no state folder made
    state = shutil.copytree(played_state, tmp_path / "state")
    before = folder_contents(state)
    status, out, err, _ = run(
        ["sim", "--headless", "--script", str(path), "--state-dir", str(state)]
    )
    assert (status, out) == (1, "")
    assert folder_contents(state) == before  # no journal opened, no setting or file written
    lines = err.splitlines()
    assert lines[0].startswith(f"tableside: {path}: ")
    told = [line.removeprefix(f"tableside: {path}: ").removeprefix("tableside: ") for line in lines]
    assert sorted(told) == sorted(problems)


def test_a_script_within_every_bound_is_read():
    steps = read_steps(
        ["tag 04A1"] * MOST_TAGS
        + ["press down 100"] * 18
        + ["press down 96"]
        + ['expect "x"'] * (MOST_COMMANDS - MOST_TAGS - 20)
        + ["# a comment, and a blank line, are no command", ""]
        + ["wait 3145.9"]  # nearly the hour: 104 tags of 0.72 s, 1,896 presses of 0.2 s
    )
    assert len(steps) == MOST_COMMANDS
    assert sum(step.inputs for _, step in steps) == MOST_INPUTS
    assert MOST_SCRIPT_TIME - 0.1 < sum(step.seconds for _, step in steps) < MOST_SCRIPT_TIME


def test_an_hours_wait_is_a_few_ticks_of_the_loop(tmp_path):
    sim = run_script(["press down"], tmp_path)
    ticks = []
    tick = sim.loop.tick
    try:
        sim.loop.tick = lambda now: ticks.append(now) or tick(now)
        sim.run_step(read_line("wait 3600"))
        assert len(ticks) < 10 and sim.display.asleep  # the panel went dark after 5 minutes
    finally:
        sim.close()


@pytest.mark.parametrize("case", list(SPECIAL_FILES))
def test_a_script_that_is_not_a_regular_file_is_refused(case, tmp_path):
    path = tmp_path / "script.txt"
    SPECIAL_FILES[case](path)
    """A script's refused line is quoted to whoever runs it, to mend it: a link to a file they
    may read shows its first line, as ``cat`` would; the file's mode stops anyone but root."""
    argv = ["sim", "--headless", "--script", str(path), "--state-dir", str(tmp_path)]
    assert attempt("script", argv).status in (1, 2)


# ---------------------------------------------------------------- random mutations

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([0, -1, 1, 2, 5, 2**31, 2**63 - 1, 2**63, -(2**63) - 1, 10**18, 10**100])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
    | st.sampled_from(["", " ", "\x00", "\x1b[2J", "\ud800", "A" * 17, "unknown", "pass"])
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value, path=()) -> list[tuple]:
    """Every place in a JSON value: the value itself, and every key and index in it."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*path, index))
    return found


# The records and the position mutated: Król Popiel's whole game is short to replay; the
# family game's catalogue is where a card's values live.
BASES = {"popiel": POPIEL, "family": FAMILY, "position": POSITION}
PATHS = {name: [path for path in _paths(base) if path] for name, base in BASES.items()}


@st.composite
def mutated(draw) -> tuple[str, bytes]:
    """A base with a few places replaced, deleted or given a new key; then, sometimes, its
    bytes cut short or a byte changed."""
    name = draw(st.sampled_from(sorted(BASES)))
    value = copy.deepcopy(BASES[name])
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(PATHS[name]))
        *parents, last = path
        table = value
        try:
            for key in parents:
                table = table[key]
            how = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
            if how == "delete":
                del table[last]
            elif how == "add" and isinstance(table, dict):
                table[draw(st.text(max_size=8))] = draw(VALUES)
            else:
                table[last] = draw(VALUES)
        except (KeyError, IndexError, TypeError):  # an earlier change moved this place
            continue
    if name == "popiel" and draw(st.booleans()):  # a correction of any size, anywhere
        actions = value.get("actions")
        if isinstance(actions, list):
            delta = draw(st.integers() | st.sampled_from([10**100, -(10**18), 0]))
            actions.insert(draw(st.integers(0, len(actions))), f"correct points p1 {delta}")
    data = _text(value)
    cut = draw(st.sampled_from(["none", "none", "none", "truncate", "byte"]))
    if cut == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif cut == "byte" and data:
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
    return name, data


@SETTINGS
@given(case=mutated())
def test_random_records_and_positions_are_refused_in_a_line_or_taken(template, case):
    base, data = case
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "record.json"
        path.write_bytes(data)
        every_reader("position" if base == "position" else "record", path, template, Path(scratch))


TOML_LEAVES = (
    st.booleans()
    | st.integers()
    | st.sampled_from([2**63, 10**30, -1, 0, 255, 256])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
    | st.sampled_from(["", "\x00", "a\nb", "\x1b", "gpio", "fake", "none", "en", "pl", "xx"])
)
TOML_VALUES = st.recursive(
    TOML_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
KNOWN_KEYS = st.sampled_from([(table, key) for table, keys in SCHEMA.items() for key in keys])


@st.composite
def configurations(draw) -> bytes:
    """A TOML document of known and unknown tables and keys with any values; sometimes
    with its bytes cut or changed."""
    document: dict = {}
    for _ in range(draw(st.integers(0, 6))):
        table, key = draw(KNOWN_KEYS | st.tuples(st.text(max_size=6), st.text(max_size=6)))
        if isinstance(document.get(table, {}), dict):
            document.setdefault(table, {})[key] = draw(TOML_VALUES)
    if draw(st.booleans()):
        document[draw(st.text(max_size=6))] = draw(TOML_VALUES)
    data = tomlkit.dumps(document).encode("utf-8", "surrogatepass")
    if draw(st.booleans()) and data:
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + draw(st.binary(max_size=3)) + data[at + 1 :]
    return data


@SETTINGS
@given(data=configurations())
def test_random_configurations_are_refused_in_a_line_or_taken(data, default_state):
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "tableside.toml"
        path.write_bytes(data)
        stats_with(path, default_state)


WORDS = st.sampled_from(
    [
        "ok",
        "up",
        "down",
        "back",
        "red",
        "grey",
        "purple",
        "0",
        "1",
        "3",
        "101",
        "-1",
        "1e9",
        "nan",
        "inf",
        "0.5",
        "60",
        "61",
        "3600",
        "3601",
        "04A1B2C3",
        "ABC",
        "ZZ",
        '"',
        "'",
        '"New game"',
        "#",
        "\x00",
        "\ud800",
    ]  # fmt: skip
) | st.text(max_size=6)
LINES = st.one_of(
    st.tuples(st.sampled_from(["press", "hold", "tag", "wait", "expect", "dance"]),
              st.lists(WORDS, max_size=3)).map(lambda line: " ".join([line[0], *line[1]])),
    st.text(max_size=20),
)  # fmt: skip


@settings(SETTINGS, max_examples=60)  # each run starts the app: a few tens of milliseconds
@given(lines=st.lists(LINES, max_size=6), cut=st.booleans())
def test_random_scripts_are_refused_with_their_line_or_run(lines, cut):
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    data = data[: len(data) // 2] if cut else data
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "script.txt"
        path.write_bytes(data)
        argv = ["sim", "--headless", "--script", str(path), "--state-dir", scratch]
        attempt("script", argv)


# ------------------------------------------------------------------------ the tally


TALLY = ("tried", "accepted", "refused", "tracebacks", "journal_checked", "journal_changes")


@pytest.fixture(autouse=True)
def _ran_here(request):
    """Notes each test of this module that ran in this process, for the tally."""
    yield
    RAN.add(request.node.nodeid)


def test_the_tally(request):
    """Every case of this module's run (the tests above, run before this one in this
    process): tried, taken (exit 0), refused cleanly (exit 1 or 2, one line a problem); no
    traceback, no journal changed by a refused import, and every import or statistics run
    that was refused had its journal compared. Each figure printed is one asserted: each
    kind was tried at least once per command on every input of its fixed corpus (the
    random cases come on top). Where the cases ran elsewhere (workers of ``-n``) or only
    some were selected: skipped."""
    items = request.session.items
    earlier = [item for item in items[: items.index(request.node)] if item.module is request.module]
    tests = {name for name in globals() if name.startswith("test_")} - {"test_the_tally"}
    if {item.originalname for item in earlier} != tests or not RAN.issuperset(
        item.nodeid for item in earlier
    ):
        pytest.skip("the tally counts every test of this module, run before it in this process")
    positions = sum("position" in case for case in RECORDS)
    least = {  # every_reader: import, replay and score; the others: one command each
        "record": 3 * (len(RECORDS) - positions + len(SPECIAL_FILES) + len(DEVICES)),
        "position": 3 * positions,
        "configuration": len(CONFIGURATIONS) + len(SPECIAL_FILES) + len(DEVICES),
        "script": len(SCRIPTS) + len(REFUSED_SCRIPTS) + len(SPECIAL_FILES),
    }
    by_kind: dict[str, Counter] = {}
    for outcome in OUTCOMES:
        by_kind.setdefault(outcome.kind, Counter()).update(
            tried=1,
            accepted=int(outcome.status == 0),
            refused=int(outcome.status in (1, 2) and outcome.clean),
            tracebacks=int(bool(outcome.traceback)),
            journal_checked=int(outcome.journal_changed is not None),
            journal_changes=int(bool(outcome.journal_changed) and outcome.status != 0),
            refused_with_a_journal=int(outcome.command in ("import", "stats") and outcome.status),
        )
    total = Counter()
    for tally in by_kind.values():
        total.update(tally)
    print(f"\nhostile input through the command line: {total['tried']} runs")
    for kind, tally in [*sorted(by_kind.items()), ("all", total)]:
        print(f"{kind}: " + ", ".join(f"{key} {tally[key]}" for key in TALLY))
    assert sorted(by_kind) == sorted(least), by_kind
    for kind, tally in by_kind.items():
        assert tally["tried"] >= least[kind], (kind, tally["tried"], least[kind])
        assert tally["accepted"] + tally["refused"] == tally["tried"], (kind, tally)
        assert tally["tracebacks"] == 0 and tally["journal_changes"] == 0, (kind, tally)
        assert tally["journal_checked"] >= tally["refused_with_a_journal"], (kind, tally)
    unchecked = [o for o in OUTCOMES if o.command in ("import", "stats") and o.status != 0]
    assert all(o.journal_changed is not None for o in unchecked), "a refusal not compared"
