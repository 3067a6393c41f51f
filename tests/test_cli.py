"""The command line: replay, score and catalogue check, as a user runs them."""

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_reference import PAGE, commands, reference
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_app.cli.main import _plain_run, main, parser

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*-seed*.json"))
POSITION = Path(__file__).parent.parent / "examples" / "position-iza.json"


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda p: p.name)
def test_replay_prints_the_score_sheet_of_every_example(record, capsys):
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert "game finished" in out
    assert "[demo deck — not the printed cards]" in out
    assert out.count("  total ") == json.loads(record.read_text())["options"]["players"]
    assert "Winner" in out


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda p: p.name)
def test_replay_json_gives_totals_breakdown_and_winners(record, capsys):
    assert main(["replay", str(record), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["finished"] is True
    # docs/game-record.md: "catalogue (printed or the demo label)"; the examples are demo games
    assert result["catalogue"] == "demo deck — not the printed cards"
    for line in result["score"]["players"]:
        parts = line["figurants"] + line["penguin_bonus"] + line["mission"] + line["penalty"]
        parts += line["bonus"]
        assert line["total"] == parts
    best = max(line["total"] for line in result["score"]["players"])
    assert all(result["score"]["players"][w]["total"] == best for w in result["score"]["winners"])


def test_json_is_laid_out_for_a_person_a_key_a_line_two_spaces_a_level(capsys):
    """``--json`` is read at a terminal as well as by programs: each key of the object on a
    line of its own, two spaces further in at each level."""
    assert main(["replay", str(EXAMPLES[0]), "--json"]) == 0
    out = capsys.readouterr().out
    result = json.loads(out)
    lines = out.splitlines()
    assert lines[0] == "{" and lines[-1] == "}"
    assert [line.split('"')[1] for line in lines if line.startswith('  "')] == list(result)
    assert '    "players": [' in lines  # the score sheet's players, a level further in


def test_a_record_that_does_not_replay_is_rejected_with_its_action_number(tmp_path, capsys):
    family = [path for path in EXAMPLES if path.name.startswith("family")]
    record = json.loads(family[0].read_text())
    record["actions"][5] = "visit hq nobody"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"tableside: {path}: action 6 'visit hq nobody' is refused: "
        "Card 'nobody' is not lying beneath the board.\n"
    )


def test_a_file_that_is_not_json_is_one_line(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text("{not json")
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"tableside: {path}: not JSON: line 1")


def test_score_a_hand_written_end_position(capsys):
    assert main(["score", str(POSITION), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    iza = result["score"]["players"][0]
    assert iza["total"] == 15 and result["names"][0] == "Iza"
    assert result["catalogue"] == "demo deck — not the printed cards"  # the position says demo
    assert main(["score", str(POSITION)]) == 0
    assert "Winner: Iza wins on points" in capsys.readouterr().out


def test_score_an_advanced_end_position(capsys):
    position = POSITION.with_name("position-filip.json")
    assert main(["score", str(position), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    filip = result["score"]["players"][0]
    assert (filip["figurants"], filip["mission"], filip["penguin_bonus"]) == (12, 5, 3)
    assert (filip["bonus"], filip["penalty"], filip["total"]) == (1, -1, 20)
    assert main(["score", str(position)]) == 0
    assert "card bonuses       1" in capsys.readouterr().out


def test_catalogue_check_passes_on_the_shipped_data_and_lists_unknowns(capsys):
    assert main(["catalogue", "check"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok\n")
    assert "Hans (figurant): family cost, points, type;" in out


def test_catalogue_check_names_the_problem_and_exits_1(tmp_path, capsys):
    owner = tmp_path / "owner.toml"
    owner.write_text('[[figurant]]\nid = "hans"\nfamily = { cost = { pink = 1 } }\n')
    assert main(["catalogue", "check", str(owner)]) == 1
    out = capsys.readouterr().out
    assert f"{owner}: figurant 'hans': family.cost.pink" in out


# ``run`` as the unit starts it is read without argparse (see ``cli._plain_run``).


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["run"], (None, False, False)),
        (["run", "--first-frame"], (None, True, False)),
        (["run", "--config", "a.toml"], ("a.toml", False, False)),
        (["run", "--first-frame", "--config", "a b.toml"], ("a b.toml", True, False)),
        (["run", "--home", "--config", "a.toml"], ("a.toml", False, True)),
    ],
)
def test_the_daemon_command_lines_are_read_without_argparse(argv, expected):
    assert _plain_run(argv) == expected


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["replay", "run"],
        ["run", "--config"],
        ["run", "--config", "--first-frame"],
        ["run", "--first-frame", "--home"],
        ["run", "--home", "--home"],
        ["run", "--config", "a.toml", "--config", "b.toml"],
        ["run", "--conf", "a.toml"],
        ["run", "--config=a.toml"],
        ["run", "-h"],
        ["run", "a.toml"],
    ],
)
def test_any_other_command_line_goes_to_argparse(argv):
    assert _plain_run(argv) is None


def test_the_command_line_of_the_systemd_unit_is_read_without_argparse():
    unit = (Path(__file__).parent.parent / "systemd" / "tableside.service").read_text()
    (start,) = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    program, *argv = start.removeprefix("ExecStart=").split()
    assert program.endswith("/tableside")
    assert _plain_run(argv) is not None


RUN_WORDS = [
    "--config",
    "--first-frame",
    "--home",
    "a.toml",
    "--conf",
    "--config=b.toml",
    "-",
    "--",
    "-h",
]


@settings(max_examples=100, deadline=None)
@given(words=st.lists(st.sampled_from(RUN_WORDS), max_size=5))
def test_a_plain_run_means_what_argparse_reads_in_it(words):
    plain = _plain_run(["run", *words])
    if plain is not None:
        args = parser().parse_args(["run", *words])
        assert plain == (args.config, args.first_frame, args.home)


def test_a_run_without_its_config_file_gets_the_argparse_error(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["run", "--config"])
    assert exited.value.code == 2
    assert "argument --config: expected one argument" in capsys.readouterr().err


def test_the_console_script_runs_as_a_module():
    done = subprocess.run(
        [sys.executable, "-m", "firmware_app.cli.main", "replay", str(EXAMPLES[-1])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "Winner" in done.stdout


def test_without_arguments_given_main_reads_the_command_line(monkeypatch, capsys):
    """The console script calls ``main()``: the words after the program's name."""
    monkeypatch.setattr(sys, "argv", ["tableside", "replay", str(EXAMPLES[-1])])
    assert main() == 0
    assert "Winner" in capsys.readouterr().out


def test_export_writes_finished_games_as_records_that_replay(tmp_path, capsys):
    from firmware_app.runners.autopilot import Autopilot, new_game_script
    from firmware_app.runners.headless import Headless

    state = tmp_path / "state"
    sim = Headless(state, language="en", seed=2)
    for line in new_game_script(2):
        sim.command(line)
    Autopilot(sim, seed=2).play()
    final = sim.app.session.state
    sim.press("up")
    sim.press("ok")  # the last item: Done (the game was kept at its end)
    sim.close()
    config = tmp_path / "tableside.toml"
    config.write_text(f'[app]\nstate_dir = "{state}"\n')
    out = tmp_path / "out"
    out.mkdir()
    assert main(["export", "--config", str(config), "--out", str(out)]) == 0
    assert "1 finished, 0 abandoned game(s) exported" in capsys.readouterr().out
    (record,) = out.glob("game-*.json")
    assert main(["replay", str(record), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["finished"] and result["state"] == final.to_json()


COMMANDS = ("replay", "score", "catalogue", "run", "sim", "demo", "export", "stats", "import",
            "backup", "restore", "selfplay")  # fmt: skip


def helped(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 0
    return capsys.readouterr().out


def test_help_says_what_the_command_is_and_what_each_command_does_in_plain_text(capsys):
    out = helped(capsys, ["--help"])
    assert "``" not in out
    assert out.startswith("usage: tableside [-h] COMMAND ...\n\nTableside, a board-game assistant")
    for name in COMMANDS:
        assert re.search(rf"\n    {name}\s+[a-z]", out), name  # its one-line help
    assert "tableside COMMAND --help" in out


def test_each_command_describes_itself_and_every_option(capsys):
    found = commands(parser())
    assert set(COMMANDS) | {"catalogue check"} == set(found)
    for words, command in found.items():
        out = helped(capsys, [*words.split(), "--help"])
        assert "``" not in out
        description = out.split("\n\n")[1]
        assert description[0].isupper() and description.endswith("."), words
        for action in command._actions:
            listed = isinstance(action, argparse._SubParsersAction)  # each with its own help
            assert action.help or listed, f"{words}: {action.dest} has no help"
            for choice in action._choices_actions if listed else ():
                assert choice.help and choice.help[0].islower(), f"{words} {choice.dest}"
            # a phrase in lower case, as argparse's own "show this help message and exit"
            assert listed or action.help[0].islower(), f"{words}: {action.dest}: {action.help}"


def test_the_command_reference_is_the_parsers():
    """docs/commands.md lists every command, option, choice and default the parser has, in its
    words: a changed help or option changes the page with it."""
    assert PAGE.read_text(encoding="utf-8") == reference(parser()), (
        "docs/commands.md is out of date: .venv/bin/python tests/cli_reference.py"
    )


def test_a_default_a_help_names_is_the_default_given():
    """ "(default: 3)" in a help is what the command takes without the option."""
    named = []
    for words, command in commands(parser()).items():
        for action in command._actions:
            said = re.search(r"default: ([\w.]+)", action.help or "")
            if said and action.default is not None:
                named.append((words, action.dest))
                assert said[1] == str(action.default), (words, action.dest)
    assert len(named) == 5  # demo and selfplay: --players, --seed; selfplay --variant


def help_texts() -> list[str]:
    """Every command's description and every option's help."""
    texts = []
    for command in commands(parser()).values():
        texts += [command.description] + [a.help for a in command._actions if a.help]
    return texts


def test_every_help_writes_the_names_of_file_formats_in_capitals():
    """JSON, CSV and GIF are names, written in every help as the docs write them (a file's own
    name, ``journal.sqlite``, is not one)."""
    texts = help_texts()
    named = [
        (name, text) for text in texts for name in re.findall(r"(?i)\b(?:json|csv|gif)\b", text)
    ]
    assert len(named) >= 10  # every --json, the demo's GIF, export's CSV
    assert [(name, text) for name, text in named if not name.isupper()] == []


def test_no_help_shouts():
    """Help is written in sentence case; the only words in capitals are names: of file formats,
    and of the buttons as wiring.md labels them."""
    capitals = {word for text in help_texts() for word in re.findall(r"\b[A-Z]{2,}\b", text)}
    assert capitals <= {"JSON", "CSV", "GIF", "UP", "DOWN", "OK", "BACK"}, capitals


@pytest.fixture(scope="module")
def selfplayed(tmp_path_factory) -> Path:
    """The record ``selfplay --out`` writes for a short game of two (seed 3), played once."""
    record = tmp_path_factory.mktemp("selfplay") / "selfplay.json"
    assert main(["selfplay", "--short", "--players", "2", "--seed", "3", "--out", str(record)]) == 0
    return record


def test_selfplay_writes_a_whole_game_that_replays(selfplayed, capsys):
    """The installed wheel's test runs the same command on the package a Pi installs; this one
    runs the checkout's code, to stdout and to a file alike."""
    assert main(["selfplay", "--short", "--players", "2", "--seed", "3"]) == 0
    printed = capsys.readouterr().out
    assert selfplayed.read_text(encoding="utf-8") == printed
    game = json.loads(printed)
    assert (game["format"], game["game"], game["options"]["players"]) == (
        "tableside-game-record",
        "pingwiny",
        2,
    )
    assert main(["replay", str(selfplayed), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"]


def test_a_record_keeps_the_rulebooks_letters_as_they_are_not_as_escapes(selfplayed):
    """docs/game-record.md: a record's text is UTF-8; the printed cards' sources quote the
    rulebook with its dashes, read as they are in any editor."""
    text = selfplayed.read_text(encoding="utf-8")
    assert "Kowalski – blue" in text and "\\u" not in text


def test_the_four_button_build_is_helped_by_the_names_wiring_md_gives_its_buttons(capsys):
    """wiring.md: "4 navigation (UP, DOWN, OK, BACK)"; the simulator's help names them so."""
    wiring = (Path(__file__).parents[1] / "wiring.md").read_text(encoding="utf-8")
    named = re.search(r"4 navigation \(([A-Z, ]+)\)", wiring).group(1)
    assert f"4 ({named};" in " ".join(helped(capsys, ["sim", "--help"]).split())


def test_demo_plays_the_game_its_options_name(tmp_path, monkeypatch, capsys):
    """The seats, the seed and the printed box reach the game the demo plays (a whole demo
    game is played in test_demo.py; here only what the command hands it)."""
    from firmware_app.runners import demo

    asked = []
    monkeypatch.setattr(demo, "write_demo_gif", lambda path, **given: asked.append(given) or 5)
    gif = str(tmp_path / "x.gif")
    assert main(["demo", "--gif", gif, "--players", "4", "--seed", "7", "--printed"]) == 0
    assert asked == [{"players": 4, "seed": 7, "printed": True}]
    assert capsys.readouterr().out == f"{gif}: 5 frames\n"
