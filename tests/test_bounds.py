"""The one check for what comes in: the bounded reader, names, and the bounds of a record,
a position, the settings and a restored backup.

The reader's tests use what it refuses for real (a named pipe, ``/dev/zero``, a folder, a
link), the checks' tests what the box itself writes (the shipped examples, a journal the
app filled, the owner's files as teaching saves them), which must pass, and each kind of
value out of bounds, which must be told in one line.
"""

import json
import os
import sqlite3
import tomllib
import zlib
from pathlib import Path

import pytest

from firmware_app.app import DEFAULTS
from firmware_app.runners.autopilot import new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.session import summary
from firmware_app.store import bounded_read, bounds, catalogue_files, state_check
from firmware_app.store.bounded_read import Refused, parse_json, parse_toml
from firmware_app.store.catalogue_files import save_owner_card, save_popiel_owner
from firmware_app.store.journal import Journal
from firmware_app.store.plain_values import (
    DATE_SPAN,
    NAME_LIMIT,
    control_problem,
    date_problem,
    name_problem,
)
from firmware_app.transfer.record_import import import_record
from firmware_app.ui.screens import NAME_LENGTH
from rules.record import replay

EXAMPLES = Path(__file__).parent.parent / "examples"
RECORDS = sorted(path for path in EXAMPLES.glob("*.json") if "position" not in path.name)
POSITIONS = sorted(EXAMPLES.glob("position-*.json"))


def refused(call, *args, **options) -> tuple[str, ...]:
    with pytest.raises(Refused) as caught:
        call(*args, **options)
    return caught.value.problems


# ------------------------------------------------------------------- the reader


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    assert refused(bounded_read.read_bytes, tmp_path / "pipe", 10) == (
        "a named pipe, not a regular file",
    )


@pytest.mark.parametrize("follow", [False, True])
def test_a_device_is_refused_before_it_is_read(follow):
    assert refused(bounded_read.read_bytes, "/dev/zero", 10, follow=follow) == (
        "a device, not a regular file",
    )


def test_a_folder_is_refused(tmp_path):
    assert refused(bounded_read.read_bytes, tmp_path, 10) == ("a folder, not a regular file",)


def test_a_link_is_refused_or_followed_to_a_regular_file_as_asked(tmp_path):
    (tmp_path / "file").write_bytes(b"{}")
    (tmp_path / "link").symlink_to(tmp_path / "file")
    assert refused(bounded_read.read_bytes, tmp_path / "link", 10) == (
        "a symbolic link, not a regular file",
    )
    assert bounded_read.read_bytes(tmp_path / "link", 10, follow=True) == b"{}"
    (tmp_path / "to-zero").symlink_to("/dev/zero")
    assert refused(bounded_read.read_bytes, tmp_path / "to-zero", 10, follow=True) == (
        "a device, not a regular file",
    )


def test_the_size_is_bounded_to_the_byte(tmp_path):
    (tmp_path / "file").write_bytes(b"x" * 1000)
    assert len(bounded_read.read_bytes(tmp_path / "file", 1000)) == 1000
    assert refused(bounded_read.read_bytes, tmp_path / "file", 999) == ("larger than 999 bytes",)


def test_a_file_that_is_not_there_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        bounded_read.read_bytes(tmp_path / "absent", 10, follow=True)


def test_text_that_is_not_utf8_names_its_line():
    assert refused(bounded_read.text_of, b"one\ntwo\nth\xffree\n") == (
        "not UTF-8 text: line 3 holds the byte 0xFF",
    )


def test_json_nested_past_the_bound_is_refused_before_it_is_parsed():
    # docs/game-record.md, "nesting": "32 levels of lists and objects"
    assert parse_json("[" * 32 + "]" * 32) is not None
    deeper = "[" * 33 + "]" * 33
    assert refused(parse_json, deeper) == ("nested 33 levels deep; at most 32 are read",)
    assert refused(parse_json, "[" * 1_000_000) == (
        "nested 1,000,000 levels deep; at most 32 are read",
    )
    assert parse_json('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == {"a": "[" * 42}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (str(2**63), f"the number {2**63} is beyond what a 64-bit integer holds"),
        (str(-(2**63) - 1), f"the number {-(2**63) - 1} is beyond what a 64-bit integer holds"),
        ("9" * 5000, "a number of 5,000 digits; at most 19"),
        ("NaN", "nan is not a number the box takes (only finite ones)"),
        ("[-Infinity]", "-inf is not a number the box takes (only finite ones)"),
        ('{"a": 1e400}', "inf is not a number the box takes (only finite ones)"),
        ('["\\ud800"]', "'\\ud800' is not text: it holds half of a UTF-16 pair"),
        ("{", "not JSON: line 1 column 2: Expecting property name enclosed in double quotes"),
    ],
)
def test_json_numbers_and_text_out_of_bounds_are_refused(text, problem):
    assert refused(parse_json, text) == (problem,)


def test_json_within_bounds_is_read_as_it_is():
    assert parse_json(f'[{2**63 - 1}, {-(2**63)}, 1.5, "\\ud83d\\ude00"]') == [
        2**63 - 1,
        -(2**63),
        1.5,
        "\U0001f600",
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("a" + ".a" * 40 + " = 1\n", "nested 40 levels deep; at most 32 are read"),
        ("[" + "a." * 40 + "a]\n", "nested 40 levels deep; at most 32 are read"),
        ("a = " + "[" * 40 + "]" * 40 + "\n", "nested 40 levels deep; at most 32 are read"),
        ("a = inf\n", "inf is not a number the box takes (only finite ones)"),
        ("a = nan\n", "nan is not a number the box takes (only finite ones)"),
        (
            "a = 9223372036854775808\n",
            "the number 9223372036854775808 is beyond what a 64-bit integer holds",
        ),  # fmt: skip
    ],
)
def test_toml_nesting_and_numbers_out_of_bounds_are_refused(text, problem):
    assert refused(parse_toml, text) == (problem,)


def test_toml_dots_and_brackets_in_strings_and_comments_do_not_count():
    text = 'a = "' + "[." * 50 + '"  # ' + "[{." * 50 + "\nb = 1.5\n"
    assert parse_toml(text) == {"a": "[." * 50, "b": 1.5}


def test_a_toml_syntax_error_is_left_to_the_caller_who_says_where():
    with pytest.raises(tomllib.TOMLDecodeError):
        parse_toml("a = = 1\n")


# ---------------------------------------------------------------------- names


@pytest.mark.parametrize("name", ["Ala", "Łucja", "Jan-Paweł", "A" * NAME_LIMIT, "Ola 2"])
def test_a_name_a_panel_can_show_is_taken(name):
    assert name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("A" * 17, "a name has at most 16 letters, not 17"),
        ("", "a name has a letter at least, not ''"),
        ("   ", "a name has a letter at least, not '   '"),
        ("Ka\x00sia", "a name holds only printable letters, not U+0000 ('Ka\\x00sia')"),
        ("\u202eevil", "a name holds only printable letters, not U+202E ('\\u202eevil')"),
        (7, "a name is text, not 7"),
    ],
)
def test_a_name_out_of_bounds_is_told_in_one_line(name, problem):
    assert name_problem(name) == problem


def test_the_panel_enters_no_longer_name_than_is_taken_from_files():
    assert NAME_LENGTH <= NAME_LIMIT


def test_a_control_character_in_a_path_is_named():
    assert control_problem("/var/lib/tableside") is None
    assert control_problem("/tmp/a\x00b") == "holds the control character U+0000: refused"


# ----------------------------------------------------------- records, positions


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.name)
def test_every_shipped_record_is_within_bounds(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    assert bounds.record_problems(record) == []
    result = replay(record)
    assert bounds.score_problems(summary(result.game, result.final)) == []


@pytest.mark.parametrize("path", POSITIONS, ids=lambda path: path.name)
def test_every_shipped_position_is_within_bounds(path):
    assert bounds.position_problems(json.loads(path.read_text(encoding="utf-8")), 104) == []


def test_a_record_out_of_bounds_is_told_one_line_a_problem():
    record = json.loads((EXAMPLES / "krol-popiel-3p-game.json").read_text(encoding="utf-8"))
    record["options"] |= {"names": ["Monika", "\x1b[2J", "A" * 20], "seed": True, "windows": 50}
    record |= {"played": {"started": float("inf"), "ended": -1, "where": "here"}, "extra": 1}
    record["actions"][4] = "place 1\nplace 2"
    assert bounds.record_problems(record) == [
        "'extra': not a key of a game record (known: format, version, game, variant, options, "
        "catalogue, actions, outcome, played)",
        "options.seed: expected int, not True",
        "options.names[1]: a name holds only printable letters, not U+001B ('\\x1b[2J')",
        "options.names[2]: a name has at most 16 letters, not 20",
        "options.windows: from 1 to 20, not 50",
        "played.where: not started or ended",
        "played.started: a date from 1970-01-01 to 2100-01-01, not inf",
        "played.ended: a date from 1970-01-01 to 2100-01-01, not -1",
        "action 5: an action is one line of at most 200 printable characters, not "
        "'place 1\\nplace 2'",
    ]


def test_the_options_are_of_the_types_their_engine_declares():
    record = json.loads((EXAMPLES / "family-3p-seed7.json").read_text(encoding="utf-8"))
    record["options"] |= {"short": None, "layout": "x", "virtual": [None, "easy", 3]}
    assert bounds.record_problems(record) == [
        "options.short: expected bool, not None",
        "options.layout: expected list[str, ...] | None, not 'x'",
        "options.virtual: expected list[str | None, ...] | None, not [None, 'easy', 3]",
    ]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (0, None),
        (1_700_000_000.5, None),
        (DATE_SPAN[1] - 1, None),
        (DATE_SPAN[1], "a date from 1970-01-01 to 2100-01-01, not 4102444800"),
        (-1, "a date from 1970-01-01 to 2100-01-01, not -1"),
        (float("nan"), "a date from 1970-01-01 to 2100-01-01, not nan"),
        (True, "a date is a number of seconds since 1970, not True"),
        ("2024-01-01", "a date is a number of seconds since 1970, not '2024-01-01'"),
    ],
)
def test_a_date_is_from_1970_to_2100(value, problem):
    assert date_problem(value) == problem


def test_a_score_beyond_four_digits_is_refused():
    assert bounds.score_problems({"scores": [12, 10**100], "winners": [1]}) == [
        f"player 2's score is {10**100}; a score is from -9,999 to 9,999"
    ]
    line = {"player": 0, "penguin": "rico", "figurants": -(10**5), "total": 3}
    assert bounds.score_problems({"players": [line], "winners": [0]}) == [
        "player 1's figurants is -100000; a score is from -9,999 to 9,999"
    ]


def test_a_position_s_names_and_tokens_are_bounded():
    position = json.loads(POSITIONS[0].read_text(encoding="utf-8"))
    position["players"][0] |= {"name": "\x07", "tokens": {"red": 100, "blue": 5}}
    assert bounds.position_problems(position, 104) == [
        "player 1: a name holds only printable letters, not U+0007 ('\\x07')",
        "player 1: 105 tokens; the box has 104",
    ]


# -------------------------------------------------------------------- settings


def test_the_settings_the_app_keeps_are_all_known_and_their_defaults_pass():
    assert set(DEFAULTS) | {"language"} <= set(bounds.SETTINGS)
    texts = {key: json.dumps(value) for key, value in DEFAULTS.items()} | {"language": '"pl"'}
    assert bounds.settings_problems(texts) == []


def test_settings_the_box_would_not_write_are_told_one_line_each():
    texts = {
        "language": '"xx"',
        "contrast": "1e308",
        "names": '["Ala", "\\u0000"]',
        "tags": '{"04A1B2C3": "becky", "NOTHEX": "x y"}',
        "box": '"not an identity"',
        "favourite": '"x"',
        "bag": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    }
    assert bounds.settings_problems(texts) == [
        'setting \'language\': unknown value "xx"; accepted: "pl", "en"',
        "setting 'contrast': expected an integer from 0 to 255, got 1e+308",
        *(f"setting 'names': {line}" for _, line in state_check.CHECKS["names"](["Ala", "\0"])),
        "setting 'tags': 'NOTHEX': a tag's UID is whole bytes in hex, 20 digits at most, "
        "not 'NOTHEX'",
        "setting 'tags': 'NOTHEX': 'x y' is not a card's id",
        "setting 'box': not an identity this box makes: 'not an identity'",
        "setting 'favourite': not a setting this box knows (language, contrast, sleep_minutes, "
        "bag, deck, tags, names, teach_points, handoff_chirp, pawn_colours, box)",
        "setting 'bag': nested 40 levels deep; at most 32 are read",
    ]


def test_every_setting_with_a_check_is_checked_as_the_start_checks_it():
    assert set(state_check.CHECKS) <= set(bounds.SETTINGS)


@pytest.mark.parametrize("uid", ["04A1B2", "04A1B2C3", "0102030405", "04a1b2c3d4e5f6", "04" * 10])
def test_a_tag_as_the_readers_give_it_is_taken(uid):
    assert bounds.tag_problem(uid) is None


@pytest.mark.parametrize("uid", ["", "ABC", "04A1B2C3D4E5F6A7B8C9D0", "ZZZZZZZZ", 4])
def test_a_tag_no_reader_gives_is_refused(uid):
    assert bounds.tag_problem(uid) is not None


# ------------------------------------------------------------------ the restore


@pytest.fixture
def box(tmp_path) -> Path:
    """A state folder the box filled: its settings, a game in play with its place, two
    finished games, and the owner's two files as teaching saves them."""
    sim = Headless(tmp_path / "state")
    for line in new_game_script(2):
        sim.command(line)
    sim.press("ok", 3)
    sim.app.set_setting("names", ["Ala", "Olek"])
    sim.app.set_setting("tags", {"04A1B2C3D4E5F6": "becky"})
    sim.app.set_setting("language", "pl")
    for name in ("family-3p-seed7.json", "krol-popiel-3p-game.json"):
        import_record(sim.journal, EXAMPLES / name, now=1_700_000_000)
    sim.close()
    save_owner_card(tmp_path / "catalogue.toml", {"id": "becky", "family": {"points": 4}})
    save_popiel_owner(tmp_path / "catalogue-krol-popiel.toml", "windows", {"A": 7})
    return tmp_path


def owner_files(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in bounds.OWNER_FILES}


def problems_of(folder: Path, files: dict[str, bytes] | None = None) -> list[str]:
    with Journal(folder / "state" / "journal.sqlite", read_only=True) as journal:
        return bounds.backup_problems(journal, owner_files(folder) if files is None else files)


def test_what_the_box_wrote_passes_the_restore_s_check(box):
    assert problems_of(box) == []


def test_the_owner_s_files_are_named_as_the_configuration_names_them():
    assert bounds.OWNER_FILES == ("catalogue.toml", "catalogue-krol-popiel.toml")


def damage(folder: Path, *statements) -> None:
    """The box's journal changed by SQL: a statement, or one with its parameters."""
    db = sqlite3.connect(folder / "state" / "journal.sqlite")
    with db:
        for statement in statements:
            db.execute(*((statement,) if isinstance(statement, str) else statement))
    db.close()


def test_a_backup_s_settings_and_games_out_of_bounds_are_told_one_line_each(box):
    damage(
        box,
        "UPDATE settings SET value = '\"tlh\"' WHERE key = 'language'",
        "INSERT INTO settings VALUES ('volume', '11')",
        "UPDATE games SET started = 9e999 WHERE id = 2",
        """UPDATE games SET summary = json_set(summary, '$.scores[0]', 1e100)
            WHERE id = 3""",
        """UPDATE games SET header = json_set(header, '$.options.names[0]', 'A\u0007')
            WHERE id = 3""",
        'UPDATE games SET place = \'{"players": 99, "over": false, "step": 1}\' WHERE id = 1',
        "UPDATE games SET header = json_set(header, '$.game', 'chess') WHERE id = 2",
    )
    assert problems_of(box) == [
        'setting \'language\': unknown value "tlh"; accepted: "pl", "en"',
        "setting 'volume': not a setting this box knows (language, contrast, sleep_minutes, "
        "bag, deck, tags, names, teach_points, handoff_chirp, pawn_colours, box)",
        "game 1: its place: not players, over and step: {'players': 99, 'over': False, 'step': 1}",
        "game 2: not a game this box plays: 'chess'/'family'",
        "game 3: its header: options.names[0]: a name holds only printable letters, not U+0007 "
        "('A\\x07')",
        "game 3: its result: its scores are out of bounds",
        "game 3: its result: player 1's score is 1e+100; a score is from -9,999 to 9,999",
    ]


def test_a_backup_s_dates_out_of_bounds_are_told(box):
    damage(box, "UPDATE games SET started = 9e999, ended = -5 WHERE id = 2")
    assert problems_of(box) == [
        "game 2: its start: a date from 1970-01-01 to 2100-01-01, not inf",
        "game 2: its end: a date from 1970-01-01 to 2100-01-01, not -5.0",
    ]


@pytest.mark.parametrize(
    ("name", "data", "problem"),
    [
        ("catalogue.toml", b"[meta\n", "catalogue.toml: line 1, column 6: TOML syntax error: "
         "Expected ']' at the end of a table declaration"),  # fmt: skip
        ("catalogue.toml", b"# " + b"x" * (1 << 20), "catalogue.toml: larger than 1,048,576 bytes"),
        ("catalogue.toml", b'[meta]\ngame = "\xff"\n', "catalogue.toml: not UTF-8 text: line 2 "
         "holds the byte 0xFF"),  # fmt: skip
        ("catalogue.toml", b'[[figurant]]\nid = "becky"\nfamily.points = -5\n',
         "catalogue.toml: figurant 'becky': family.points: must be at least 0, got -5"),
        ("catalogue.toml", b"a" + b".a" * 100 + b" = 1\n",
         "catalogue.toml: nested 100 levels deep; at most 32 are read"),
        ("catalogue-krol-popiel.toml", b"[windows]\nA = 99\n", "catalogue-krol-popiel.toml: "
         "windows: A: expected a whole number from 1 to 20, got 99"),
        ("catalogue-krol-popiel.toml", b"[rewards]\nplus2 = 8\nplus3 = 8\nextra = 0\n"
         b"double = 0\n", "catalogue-krol-popiel.toml: cannot be loaded: The box data "
         "contradicts the printed value of rewards."),
        ("passwd", b"root:x:0:0\n", "passwd: not an owner's file (catalogue.toml, "
         "catalogue-krol-popiel.toml)"),
    ],
)  # fmt: skip
def test_a_backup_s_owner_file_is_checked_as_its_cards_are_loaded(box, name, data, problem):
    assert problems_of(box, owner_files(box) | {name: data}) == [problem]


def test_the_shipped_card_files_are_within_the_bounds_of_an_owner_s():
    """The printed cards and the demo deck are held to the same bounds: they load."""
    assert catalogue_files.load([], demo=True).figurant_count == 42


BECKY = '[[figurant]]\nid = "becky"\n'
SKIPPER = '[[penguin]]\nid = "skipper"\n'
HUGE = 2**63 - 1


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (BECKY + f"family.points = {HUGE}\n",
         f"figurant 'becky': family.points: Points are 0 to 9, not {HUGE}."),
        (BECKY + "advanced.points = 10\n", "figurant 'becky': advanced.points: Points are 0 to "
         "9, not 10."),  # fmt: skip
        (BECKY + "advanced.cost = {red = 8}\n",
         "figurant 'becky': advanced.cost: A cost is 1 to 7 tokens, not 8."),
        (BECKY + 'advanced.effect = {do = "draw", count = 100}\n',
         "figurant 'becky': advanced.effect.count: at most 99, got 100"),
        ('[[mission]]\nid = "najlepszy-wrog"\nfamily.scoring = [[1, 99]]\n',
         "mission 'najlepszy-wrog': family.scoring: A step gives 1 to 9 points, not 99."),
        (f"[tokens]\nred = {HUGE}\n", f"tokens: red: at most 104, got {HUGE}"),
        (f"[meta]\ntoken_total = {HUGE}\n",
         f"meta: token_total: at most the box's 104, got {HUGE}"),
        ("[meta]\nfigurant_count = 100000000\n",
         "meta: figurant_count: at most the box's 42, got 100000000"),
        (BECKY + f'name = "{"A" * 65}"\n', "figurant 'becky': name: at most 64 characters, not 65"),
        (SKIPPER + 'name = "=HYPERLINK(1)"\n',
         "penguin 'skipper': name: starts with a letter, a digit or a hyphen, not '='"),
        (BECKY + 'name = "Becky\\u001b[2J"\n',
         "figurant 'becky': name: holds U+001B, which is not printable"),
        ('[meta]\nlabel = "\\u0000"\n', "meta: label: holds U+0000, which is not printable"),
        (f'[meta]\nnotes = ["{"x" * 2001}"]\n',
         "meta: notes[0]: at most 2,000 characters, not 2,001"),
    ],
)  # fmt: skip
def test_an_owner_s_file_holds_what_the_panel_could_teach(text, problem):
    assert bounds.owner_file_problems("catalogue.toml", text.encode()) == [problem]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('[windows]\nA = 6\n[junk]\nx = 1\n',
         "junk: unknown table (expected one of: meta, windows, rewards)"),
        ('[meta]\ngame = "popiel"\nkind = "elephant"\n', "meta: kind: expected 'owner', got "
         "'elephant'"),  # fmt: skip
        (f'[meta]\nlabel = "{"Z" * 65}"\n', "meta: label: at most 64 characters, not 65"),
        ('[meta]\nlabel = "\\u001b]0;x\\u0007"\n', "meta: label: holds U+001B, which is not "
         "printable"),  # fmt: skip
        ('[sources]\n"windows.A" = "x"\n', "sources: unknown table (expected one of: meta, "
         "windows, rewards)"),  # fmt: skip
        ("[meta]\nnotes = 5\n", "meta: notes: expected a list of texts, got 5"),
    ],
)  # fmt: skip
def test_an_owner_s_krol_popiel_file_holds_what_teaching_writes(text, problem):
    assert bounds.owner_file_problems("catalogue-krol-popiel.toml", text.encode()) == [problem]


def test_a_backup_s_catalogues_and_actions_out_of_bounds_are_told_one_line_each(box):
    packed = zlib.compress(json.dumps(["draw", "\u0007"]).encode())
    damage(
        box,
        "INSERT INTO actions VALUES (1, 1, 'draw' || char(10) || 'draw', 0)",
        ("UPDATE games SET packed = ?, packed_count = 5 WHERE id = 2", (packed,)),
        ("UPDATE games SET packed = ? WHERE id = 3", (b"not zlib",)),
        "DELETE FROM catalogues WHERE hash = (SELECT catalogue_hash FROM games WHERE id = 3)",
    )
    assert problems_of(box) == [
        "game 2: its packed actions: action 2: an action is one line of at most 200 printable "
        "characters, not '\\x07'",
        "game 2: its packed actions: 2 kept, 5 counted",
        "game 3: its catalogue is not in the journal",
        "game 3: its packed actions: cannot be unpacked: Error -3 while decompressing data: "
        "incorrect header check",
        "game 1: action 1: an action is one line of at most 200 printable characters, "
        "not 'draw\\ndraw'",
    ]
