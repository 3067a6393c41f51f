"""The command line refuses wrong input in one line on stderr, never with a traceback.

Each case the command line once answered with a traceback or a misleading
line has a test here: exit status 1 and one line naming the problem (and the
command to use instead where there is one), exit status 2 for a usage error,
and a quiet end when the reader of stdout closes the pipe.
"""

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_app.cli.main import main
from firmware_app.store.catalogue_files import load_popiel
from firmware_app.store.journal import Journal
from firmware_app.words.score_sheet import REWARD_NAMES
from rules.pingwiny.position import PositionError, score_position
from rules.popiel.game import KINDS, PopielGame, PopielOptions
from rules.record import new_record

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
RECORD = EXAMPLES / "family-3p-seed7.json"
POSITION = EXAMPLES / "position-iza.json"

DIGITS = "in the digits 0 to 9, with a point or none"  # how a script writes seconds


def refused(capsys, argv: list[str], status: int = 1) -> str:
    """Run ``argv``; assert it exits with ``status`` after exactly one line on stderr."""
    assert main(argv) == status
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


# ------------------------------------------------------------------- export


def test_export_with_a_missing_configuration_file(tmp_path, capsys):
    config = tmp_path / "absent.toml"
    line = refused(capsys, ["export", "--config", str(config)])
    assert line == f"tableside: {config}: cannot read: No such file or directory"


def test_export_with_a_bad_key_names_the_line_and_the_likely_key(tmp_path, capsys):
    config = tmp_path / "tableside.toml"
    config.write_text('[app]\nlangauge = "en"\n')
    line = refused(capsys, ["export", "--config", str(config)])
    assert line == f'tableside: {config}:2: app.langauge: unknown key; did you mean "language"?'


def test_export_with_a_missing_state_folder_names_it_and_creates_nothing(tmp_path, capsys):
    state = tmp_path / "nowhere"
    config = tmp_path / "tableside.toml"
    config.write_text(f'[app]\nstate_dir = "{state}"\n')
    line = refused(capsys, ["export", "--config", str(config), "--out", str(tmp_path / "out")])
    assert line == (
        f"tableside: {state}: no journal in the state folder of {config}, nothing to export"
    )
    assert not state.exists() and not (tmp_path / "out").exists()


def test_export_without_a_configuration_names_the_default_folder(tmp_path, capsys, monkeypatch):
    state = tmp_path / "state"
    monkeypatch.setenv("TABLESIDE_STATE_DIR", str(state))
    line = refused(capsys, ["export"])
    assert line == (
        f"tableside: {state}: no journal in the default state folder, nothing to export; "
        "give the box's configuration with --config FILE"
    )
    state.mkdir()
    from firmware_app.store.journal import Journal

    Journal(state / "journal.sqlite").close()
    assert main(["export", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == (
        f"0 finished, 0 abandoned game(s) exported to {tmp_path / 'out'} "
        f"from {state / 'journal.sqlite'}"
    )
    assert [Path(line).name for line in out[:-1]] == [
        "results.csv",
        "results-scorekeeping.json",
        "statistics.json",
    ]


# ----------------------------------------------------------- selfplay, demo


@pytest.mark.parametrize("players", [5, 0])
def test_selfplay_refuses_a_number_of_players_the_game_does_not_take(players, capsys):
    line = refused(capsys, ["selfplay", "--players", str(players)])
    assert line == f"tableside: This game is for 2 to 4 players, not {players}."


def test_selfplay_into_a_missing_folder_is_refused_before_playing(capsys):
    line = refused(capsys, ["selfplay", "--out", "/nonexistent/x.json"])
    assert line == "tableside: /nonexistent/x.json: cannot write: no folder /nonexistent"


def test_demo_into_a_missing_folder_is_refused_before_playing(capsys):
    line = refused(capsys, ["demo", "--gif", "/nonexistent/x.gif"])
    assert line == "tableside: /nonexistent/x.gif: cannot write: no folder /nonexistent"


def test_demo_refuses_seven_players_before_playing(tmp_path, capsys):
    gif = tmp_path / "x.gif"
    line = refused(capsys, ["demo", "--gif", str(gif), "--players", "7"])
    assert line == "tableside: This game is for 2 to 4 players, not 7."
    assert not gif.exists()


# ------------------------------------------------------------ score, replay


def test_score_refuses_two_players_on_the_same_penguin(tmp_path, capsys):
    position = json.loads(POSITION.read_text())
    position["players"][1]["penguin"] = position["players"][0]["penguin"]
    path = tmp_path / "same.json"
    path.write_text(json.dumps(position))
    line = refused(capsys, ["score", str(path)])
    assert line == (
        f"tableside: {path}: player 2: penguin 'rico' is player 1's already "
        "(each player has a penguin of their own)"
    )


def test_score_names_the_closest_card_to_a_misspelt_one(tmp_path, capsys):
    position = json.loads(POSITION.read_text())
    position["players"][0]["figurants"][0] = "king-julain"
    path = tmp_path / "misspelt.json"
    path.write_text(json.dumps(position))
    line = refused(capsys, ["score", str(path)])
    assert line == (
        f"tableside: {path}: player 1: figurant 'king-julain' is not in the catalogue "
        "(did you mean 'king-julian'?)"
    )


def test_score_on_a_game_record_points_to_replay(capsys):
    line = refused(capsys, ["score", str(RECORD)])
    assert line == (
        f"tableside: {RECORD} is a game record, not an end position: use tableside replay {RECORD}"
    )


def test_replay_on_a_position_points_to_score(capsys):
    line = refused(capsys, ["replay", str(POSITION)])
    assert line == (
        f"tableside: {POSITION} is an end position, not a game record: "
        f"use tableside score {POSITION}"
    )


def test_a_misspelt_card_id_in_an_owners_file_names_the_closest_known_card(tmp_path, capsys):
    owner = tmp_path / "owner.toml"
    owner.write_text('[[figurant]]\nid = "hnas"\nfamily.points = 2\n')
    expected = (
        f"{owner}: figurant 'hnas': id: no figurant has this id; did you mean 'hans'? "
        "(a new card also needs its name)"
    )
    line = refused(capsys, ["score", str(POSITION), "--catalogue", str(owner)])
    assert line == f"tableside: {expected}"
    assert main(["catalogue", "check", str(owner)]) == 1
    assert capsys.readouterr().out == expected + "\n"


def test_a_new_card_without_a_name_nor_a_close_known_id_is_asked_its_name(tmp_path, capsys):
    owner = tmp_path / "owner.toml"
    owner.write_text('[[figurant]]\nid = "zyzzyva"\nfamily.points = 2\n')
    assert main(["catalogue", "check", str(owner)]) == 1
    assert capsys.readouterr().out == (
        f"{owner}: figurant 'zyzzyva': id: no figurant has this id "
        "(a new card also needs its name)\n"
    )


def test_a_new_card_with_its_name_is_still_taken(tmp_path, capsys):
    owner = tmp_path / "owner.toml"
    owner.write_text('[[figurant]]\nid = "karta-43"\nname = "Nowa karta"\n')
    assert main(["catalogue", "check", str(owner)]) == 0
    assert capsys.readouterr().out.startswith("ok\n")


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("variant",), ["family"]),
        (("game",), {"a": 1}),
        (("options",), []),
        (("options", "seed"), "x"),
        (("options", "players"), 2.5),
        (("options", "first"), 1.5),
        (("catalogue", "penguin"), 5),
        (("actions",), {"a": 1}),
        (("actions", 3), 5),
    ],
)
def test_a_record_with_a_value_of_the_wrong_shape_is_refused_with_a_reason(
    tmp_path, capsys, path, value
):
    record = json.loads(RECORD.read_text())
    *parents, last = path
    table = record
    for key in parents:
        table = table[key]
    table[last] = value
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record))
    assert main(["replay", str(broken)]) == 1
    err = capsys.readouterr().err
    assert err and all(line.startswith("tableside: ") for line in err.splitlines()), err


def popiel_record(seed: int) -> tuple[dict, tuple]:
    """A whole Król Popiel game of random legal moves, as a record, and its reward tokens."""
    box = load_popiel(demo=True)
    game = PopielGame(box, PopielOptions(players=("red", "blue"), seed=seed))
    record = new_record("popiel", "standard", game.options, box)
    state, chooser = game.new_state(), random.Random(seed)
    while state.phase != "over":
        moves = [a for a in game.legal_actions(state) if a.verb != "pass"]
        action = chooser.choice(moves or game.legal_actions(state))
        state, _ = game.apply(state, action)
        record["actions"].append(str(action))
    return record, state.rewards


def test_popiel_replay_names_the_reward_tokens_in_words(tmp_path, capsys):
    record, rewards = popiel_record(seed=3)
    assert all(rewards), "each mouse took a token in this game"
    path = tmp_path / "popiel.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    for player, tokens in enumerate(rewards):
        words = ", ".join(REWARD_NAMES[kind] for kind in tokens)
        assert f"Player {player + 1}: " in out and f"; {words})" in out
    assert not any(kind in out for kind in KINDS)


# ------------------------------------------------------------------ scripts


@pytest.mark.parametrize(
    ("script", "number", "problem"),
    [
        ("press ok\npress ok 0", 2, "a press count must be at least 1, not 0"),
        ("wait -5", 1, f"wait takes a number of seconds {DIGITS}, not '-5'"),
        ("wait nan", 1, f"wait takes a number of seconds {DIGITS}, not 'nan'"),
        ("hold back 0", 1, "hold takes a number of seconds above 0, not 0"),
    ],
)
def test_a_script_line_that_would_do_nothing_or_run_forever_is_refused(
    tmp_path, capsys, script, number, problem
):
    path = tmp_path / "script.txt"
    path.write_text(script + "\n")
    line = refused(capsys, ["sim", "--headless", "--script", str(path)])
    text = script.splitlines()[number - 1]
    assert line == f"tableside: {path}: line {number}: cannot run {text!r}: {problem}"


def test_headless_without_a_script_is_a_usage_error(capsys):
    line = refused(capsys, ["sim", "--headless"], status=2)
    assert line == "tableside: sim --headless needs --script FILE"


def test_an_unknown_option_is_argparses_usage_error(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["replay", str(RECORD), "--jsno"])
    assert exited.value.code == 2
    assert "unrecognized arguments: --jsno" in capsys.readouterr().err


def test_catalogue_without_its_command_is_argparses_usage_error(capsys):
    """docs/commands.md: ``tableside catalogue`` takes a command (``check``); none is a
    usage error naming it, not a bug's traceback."""
    with pytest.raises(SystemExit) as exited:
        main(["catalogue"])
    assert exited.value.code == 2
    assert "the following arguments are required: COMMAND" in capsys.readouterr().err


# ---------------------------------------------------------------- the daemon


def test_a_part_that_does_not_answer_is_one_line(capsys, monkeypatch):
    """No pin library: the error gpiozero gives, as the daemon's button builder reports it."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-pin-library")
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    from hw.buttons import build_buttons
    from hw.errors import DeviceUnavailable

    with pytest.raises(DeviceUnavailable) as raised:
        build_buttons({"driver": "gpio"})

    def run(config, **stops):
        raise raised.value

    monkeypatch.setattr("firmware_app.runners.daemon.run", run)
    line = refused(capsys, ["run", "--config", "tableside.toml"])
    assert line.startswith("tableside: buttons.pin_factory: cannot start pin factory")


@pytest.fixture
def started(monkeypatch) -> list:
    """The daemon's starts, each as ``(config, stops)``, the daemon itself not run."""
    runs = []

    def run(config, **stops):
        runs.append((config, stops))
        return 0

    monkeypatch.setattr("firmware_app.runners.daemon.run", run)
    return runs


def test_run_hands_the_daemon_its_configuration_and_where_to_stop(monkeypatch, started):
    """``run --first-frame`` and ``run --home`` stop the daemon early, for the benchmarks."""

    def built():
        raise AssertionError("the full parser was built for a plain run")

    # the unit's command line is read without argparse, which would hold up the first frame
    monkeypatch.setattr("firmware_app.cli.main.parser", built)
    assert main(["run", "--config", "a.toml", "--first-frame"]) == 0
    assert main(["run", "--home"]) == 0
    assert main(["run"]) == 0
    assert started == [
        ("a.toml", {"first_frame": True, "home": False}),
        (None, {"first_frame": False, "home": True}),
        (None, {"first_frame": False, "home": False}),
    ]


def test_run_written_another_way_reaches_the_daemon_through_the_full_parser(started):
    """``--config=FILE`` is not one of the unit's plain forms: argparse reads it, and the
    daemon gets the same configuration and stop as from the plain form."""
    assert main(["run", "--config=b.toml", "--home"]) == 0
    assert main(["run", "--first-frame", "--config=c.toml"]) == 0
    assert started == [
        ("b.toml", {"first_frame": False, "home": True}),
        ("c.toml", {"first_frame": True, "home": False}),
    ]


def test_an_error_nothing_expected_is_logged_as_a_bug_with_its_traceback(monkeypatch, caplog):
    """Not a refusal a user can act on: the log asks for a report and holds the traceback."""

    def run(config, **stops):
        raise ZeroDivisionError("injected")

    monkeypatch.setattr("firmware_app.runners.daemon.run", run)
    assert main(["run"]) == 1
    assert caplog.messages == ["unexpected error, a bug: please report it with this traceback"]
    assert "ZeroDivisionError: injected" in caplog.text


def test_run_where_no_pin_library_loads_says_so_in_a_line_without_a_traceback(tmp_path):
    """The real daemon runs on with what works; its log names the part and the fix."""
    config = tmp_path / "tableside.toml"
    config.write_text(
        f'[display]\ndriver = "dummy"\n[app]\nstate_dir = "{tmp_path / "state"}"\n'
        '[buzzer]\ndriver = "none"\n'
    )
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "no-such-pin-library"}
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware_app.cli.main", "run", "--config", str(config)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    lines = []
    guard = threading.Timer(60, process.kill)  # a daemon that never says ready ends the read
    guard.start()
    try:
        for line in process.stderr:  # up to the line that says the daemon is running
            lines.append(line)
            if "ready:" in line:
                break
        process.terminate()  # SIGTERM stops it through its finally blocks
        lines += process.stderr.readlines()
        assert process.wait(timeout=30) == 0
    finally:
        guard.cancel()
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stderr.close()
    text = "".join(lines)
    assert "Traceback" not in text and "ready:" in text, text
    (missing,) = [line for line in lines if "buttons.pin_factory" in line]
    assert missing.startswith("ERROR tableside.parts: buttons does not work (")


# -------------------------------------------------------------- closed pipes


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", str(RECORD), "--json"],
        ["score", str(POSITION), "--json"],
        ["sim", "--headless", "--json", "--script", "SCRIPT"],
    ],
    ids=["replay", "score", "sim"],
)
def test_a_closed_pipe_ends_the_command_quietly(argv, tmp_path):
    """Quietly and cleanly: the simulator's scratch state folder is removed all the same."""
    script = tmp_path / "script.txt"
    script.write_text("press ok\npress ok\n")
    argv = [str(script) if word == "SCRIPT" else word for word in argv]
    temporary = tmp_path / "temporary"
    temporary.mkdir()
    reading, writing = os.pipe()
    os.close(reading)  # the reader has gone before the first byte: every write fails
    try:
        done = subprocess.run(
            [sys.executable, "-m", "firmware_app.cli.main", *argv],
            stdout=writing,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=os.environ | {"TMPDIR": str(temporary)},
            timeout=60,
        )
    finally:
        os.close(writing)
    # what a shell reports for a program that a closed pipe stopped: 128 + SIGPIPE (141)
    assert (done.returncode, done.stderr) == (128 + signal.SIGPIPE, "")
    assert not list(temporary.iterdir())


def test_a_closed_pipe_leaves_stdout_writing_to_nothing(monkeypatch):
    """In the command's own process (where the mapping of tests to code sees it): after the
    closed pipe, standard output's descriptor leads to /dev/null, so the interpreter's last
    flush at exit has nowhere to fail."""
    reading, writing = os.pipe()
    os.close(reading)
    with open(writing, "w", encoding="utf-8") as out:
        monkeypatch.setattr(sys, "stdout", out)
        assert main(["replay", str(RECORD), "--json"]) == 128 + signal.SIGPIPE
        assert os.path.samefile(f"/proc/self/fd/{writing}", os.devnull)
        assert os.write(writing, b"more\n") == 5
        monkeypatch.undo()


def test_a_closed_pipe_whose_output_cannot_be_dropped_still_exits_quietly(monkeypatch):
    """When standard output cannot be pointed at /dev/null (its descriptor refused), it
    stays as it was, and the command still exits as a closed pipe, with no traceback."""

    def refused(*args):
        raise OSError(9, "Bad file descriptor")

    reading, writing = os.pipe()
    os.close(reading)
    out = open(writing, "w", encoding="utf-8")  # noqa: SIM115  (closed below, pipe broken)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(os, "dup2", refused)
    assert main(["replay", str(RECORD), "--json"]) == 128 + signal.SIGPIPE
    monkeypatch.undo()
    assert not os.path.samefile(f"/proc/self/fd/{writing}", os.devnull)
    with contextlib.suppress(BrokenPipeError):  # what the interpreter's last flush meets
        out.close()


def test_head_reads_the_first_line_of_replay_json():
    done = subprocess.run(
        f"'{sys.executable}' -m firmware_app.cli.main replay '{RECORD}' --json | head -1",
        shell=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "{\n", "")


# ------------------------------------------------------------------- a bug


def test_an_unexpected_error_keeps_its_traceback(capsys, monkeypatch, caplog):
    def broken(game, state):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr("firmware_app.words.score_sheet.game_text", broken)
    assert main(["replay", str(RECORD)]) == 1
    (record,) = caplog.records
    assert record.name == "tableside.cli" and record.levelname == "ERROR"
    assert isinstance(record.exc_info[1], ZeroDivisionError)  # logged with its traceback


# --------------------------------------------------------- any end position

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=4,
)
IDS = st.sampled_from(["rico", "skipper", "hans", "becky", "najlepszy-wrog", "nobody"])
FIELD = st.one_of(
    JSON, IDS, st.lists(IDS, max_size=4), st.dictionaries(st.sampled_from(["red", "pink"]), JSON)
)
KEYS = ["name", "penguin", "figurants", "discarded", "mission", "missions", "tokens"]
POSITIONS = st.fixed_dictionaries(
    {"players": st.lists(st.dictionaries(st.sampled_from(KEYS), FIELD) | JSON, max_size=5)},
    optional={"variant": st.sampled_from(["family", "advanced", 5])},
)


@settings(max_examples=300, deadline=None)
@given(position=POSITIONS)
def test_any_end_position_is_scored_or_refused_with_a_reason(demo, position):
    try:
        score_position(demo, position)
    except PositionError as error:
        assert str(error)


# ------------------------------------------------------------ content out of bounds

POPIEL_RECORD = EXAMPLES / "krol-popiel-3p-game.json"


def popiel_with(tmp_path: Path, change) -> Path:
    record = json.loads(POPIEL_RECORD.read_text(encoding="utf-8"))
    change(record)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, allow_nan=True), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda r: r.update(played={"started": -1, "ended": 1}),
            "played.started: a date from 1970-01-01 to 2100-01-01, not -1",
        ),
        (
            lambda r: r["options"]["names"].__setitem__(0, "A" * 1_000_000),
            "options.names[0]: a name has at most 16 letters, not 1,000,000",
        ),
        (
            lambda r: r["actions"].insert(3, "correct points p1 1" + "0" * 100),
            f"player 1's score is {10**100 + 34}; a score is from -9,999 to 9,999",
        ),
        (
            lambda r: r.update(played=[1, 2]),
            'played: expected {"started": S, "ended": E}, not [1, 2]',
        ),  # fmt: skip
    ],
    ids=["a date before 1970", "a name of a megabyte", "10^100 points", "played as a list"],
)
def test_import_refuses_content_out_of_bounds_and_makes_no_journal(
    tmp_path, capsys, change, problem
):
    path = popiel_with(tmp_path, change)
    state = tmp_path / "state"
    line = refused(capsys, ["import", "--state-dir", str(state), str(path)])
    assert line == f"tableside: {path}: {problem}"
    assert not state.exists()
    assert refused(capsys, ["replay", str(path)]) == line


def test_a_refused_import_leaves_the_journal_as_it_was(tmp_path, capsys):
    state = tmp_path / "state"
    assert main(["import", "--state-dir", str(state), str(RECORD)]) == 0
    before = (state / "journal.sqlite").read_bytes()
    capsys.readouterr()
    bad = popiel_with(tmp_path, lambda r: r["options"]["names"].__setitem__(1, "Ka\x00sia"))
    assert main(["import", "--state-dir", str(state), str(POPIEL_RECORD), str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"tableside: {bad}: options.names[1]: a name holds only printable letters, "
        "not U+0000 ('Ka\\x00sia')"
    ]
    assert f"{POPIEL_RECORD}: added to {state} as game 2" in captured.out
    with Journal(state / "journal.sqlite", read_only=True) as journal:
        assert [game.id for game in journal.finished_games()] == [1, 2]
    assert before != (state / "journal.sqlite").read_bytes()  # the good one was added


@pytest.mark.parametrize("command", ["import", "replay", "score"])
def test_a_named_pipe_or_dev_zero_is_refused_at_once(tmp_path, capsys, command):
    pipe = tmp_path / "record.json"
    os.mkfifo(pipe)
    state = ["--state-dir", str(tmp_path / "state")] if command == "import" else []
    prefix = "not a game record: " if command == "import" else ""
    for path, kind in ((pipe, "a named pipe"), (Path("/dev/zero"), "a device")):
        line = refused(capsys, [command, *state, str(path)])
        assert line == f"tableside: {path}: {prefix}{kind}, not a regular file"


def test_deep_nesting_and_bytes_that_are_not_utf8_are_one_line(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_bytes(b"[" * 100_000)
    assert refused(capsys, ["replay", str(deep)]) == (
        f"tableside: {deep}: nested 100,000 levels deep; at most 32 are read"
    )
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{\n"format":\n"\xff"}')
    assert refused(capsys, ["score", str(binary)]) == (
        f"tableside: {binary}: not UTF-8 text: line 3 holds the byte 0xFF"
    )
    endless = tmp_path / "endless.json"
    endless.write_bytes(b'{"played": {"started": Infinity}}')
    assert refused(capsys, ["replay", str(endless)]) == (
        f"tableside: {endless}: inf is not a number the box takes (only finite ones)"
    )
    big = tmp_path / "big.json"
    big.write_bytes(b'{"seed": ' + b"9" * 5000 + b"}")
    assert refused(capsys, ["replay", str(big)]) == (
        f"tableside: {big}: a number of 5,000 digits; at most 19"
    )


def test_score_refuses_a_name_with_a_control_character(tmp_path, capsys):
    position = json.loads(POSITION.read_text(encoding="utf-8"))
    position["players"][0]["name"] = "\x1b[2J"
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position), encoding="utf-8")
    assert refused(capsys, ["score", str(path)]) == (
        f"tableside: {path}: player 1: a name holds only printable letters, not U+001B ('\\x1b[2J')"
    )


@pytest.mark.parametrize(
    ("script", "problem"),
    [
        (b"press ok 1000000000000\n", "line 1: cannot run 'press ok 1000000000000': a press "
         "count is a whole number from 1 to 100, not 1000000000000"),
        (b"press ok 101\n", "line 1: cannot run 'press ok 101': a press count is at most 100, "
         "not 101"),
        (b"hold back 1e12\n", "line 1: cannot run 'hold back 1e12': hold takes a number of "
         "seconds in the digits 0 to 9, with a point or none, not '1e12'"),
        (b"hold back 61\n", "line 1: cannot run 'hold back 61': hold takes at most 60 seconds, "
         "not 61"),
        (b"wait 1e9\n", "line 1: cannot run 'wait 1e9': wait takes a number of seconds in the "
         "digits 0 to 9, with a point or none, not '1e9'"),
        (b"wait 3601\n", "line 1: cannot run 'wait 3601': wait takes at most 3600 seconds, "
         "not 3601"),
        (b"wait 3000\nwait 3000\n", "line 2: the script runs past 1 h of the clock"),
        (b'press ok\nexpect "New game\n', "line 2: cannot read 'expect \"New game': No closing "
         "quotation"),
        (b"press ok\npress \xff\n", "not UTF-8 text: line 2 holds the byte 0xFF"),
        (b"tag " + b"AB" * 600 + b"\n", "line 1: a line has at most 1,000 characters, not 1,204"),
        (b"tag 04A1B2C3D4E5F6A7B8C9D0\n", "line 1: cannot run 'tag 04A1B2C3D4E5F6A7B8C9D0': "
         "a tag's UID is whole bytes in hex, 20 digits at most, not '04A1B2C3D4E5F6A7B8C9D0'"),
    ],
    ids=["a trillion presses", "101 presses", "hold 1e12", "hold 61", "wait 1e9", "wait 3601",
         "past an hour",
         "an unclosed quote", "not UTF-8", "a long line", "a long tag"],
)  # fmt: skip
def test_a_script_beyond_what_a_person_does_is_refused_before_it_runs(
    tmp_path, capsys, script, problem
):
    path = tmp_path / "script.txt"
    path.write_bytes(script)
    state = tmp_path / "state"
    line = refused(capsys, ["sim", "--headless", "--script", str(path), "--state-dir", str(state)])
    assert line == f"tableside: {path}: {problem}"
    assert not state.exists()  # read whole before the app starts


@pytest.mark.parametrize("expect", ["Nowhere", "New game"])
def test_a_headless_run_without_a_state_folder_leaves_none_behind(
    tmp_path, capsys, monkeypatch, expect
):
    """``--state-dir`` not given: the run's journal lives in a temporary folder of its own
    (docs/commands.md), removed when the run ends, whether its last ``expect`` held or not."""
    import tempfile

    scripts, temporary = tmp_path / "scripts", tmp_path / "temporary"
    scripts.mkdir()
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    path = scripts / "script.txt"
    path.write_text(f'expect "{expect}"\n')
    held = expect == "New game"
    assert main(["sim", "--headless", "--script", str(path)]) == (0 if held else 1)
    assert ("New game" in capsys.readouterr().out) == held
    assert list(temporary.iterdir()) == []


def test_a_file_error_is_reported_as_one_line_not_a_traceback(tmp_path, capsys):
    """A state folder that is a file: the system's own words, naming the file, on one line
    (main.py: "ends with one line on stderr per problem and exit status 1")."""
    import errno

    taken = tmp_path / "state"
    taken.write_text("a file where the state folder goes")
    assert main(["import", "--state-dir", str(taken), str(RECORD)]) == 1
    err = capsys.readouterr().err
    assert err == f"tableside: {taken}: {os.strerror(errno.EEXIST)}\n"
    assert taken.read_text() == "a file where the state folder goes"


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda r: r.update(version=2), "unsupported record version 2"),
        (lambda r: r.update(game="chess"), "unknown game or variant: chess/standard"),
    ],
    ids=["a later version", "another game"],
)
def test_a_record_of_another_version_or_game_is_refused_naming_it(
    tmp_path, capsys, change, problem
):
    """docs/game-record.md: `version` is always 1, `game` one the box plays."""
    path = popiel_with(tmp_path, change)
    assert refused(capsys, ["replay", str(path)]) == f"tableside: {path}: {problem}"
    state = tmp_path / "state"
    line = refused(capsys, ["import", "--state-dir", str(state), str(path)])
    assert line == f"tableside: {path}: not a game record that replays: {problem}"
    assert not state.exists()
