"""Owners' catalogue files: exact lines for every problem, the check command, saving."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from catalogue_helpers import (
    cost,
    in_tmp_fixture,  # noqa: F401  (a fixture)
)

from firmware_app.store import catalogue_files
from firmware_app.store.catalogue_files import check_command, load, load_raw, save_owner_card
from rules.catalogue import OWNER_LABEL, CatalogueError, Problem

# ---------------------------------------------------------------- files and the check command


BECKY = '[[figurant]]\nid = "becky"\n'
ALL_COLOURS = "red, blue, green, yellow, grey, white, black"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            BECKY + "family.cost = { pink = 2 }\n",
            "figurant 'becky': family.cost.pink: unknown colour 'pink' "
            f"(expected one of: {ALL_COLOURS}, any)",
        ),
        (
            BECKY + "family.cost = { gren = 2 }\n",
            "figurant 'becky': family.cost.gren: unknown colour 'gren' (did you mean 'green'?)",
        ),
        (
            BECKY + "family.pionts = 3\n",
            "figurant 'becky': family.pionts: unknown key 'pionts' (did you mean 'points'?)",
        ),
        (
            BECKY + 'advanced.points = "three"\n',
            "figurant 'becky': advanced.points: "
            "expected a whole number or \"unknown\", got 'three'",
        ),
        (
            BECKY + 'family.type = "mamal"\n',
            "figurant 'becky': family.type: unknown type 'mamal' (did you mean 'mammal'?)",
        ),
        (
            BECKY + "family.cost = { red = -1 }\n",
            "figurant 'becky': family.cost.red: must be at least 0, got -1",
        ),
        (
            BECKY + "advanced.officer_x = [0, 7]\n",
            "figurant 'becky': advanced.officer_x: expected [low, high] within 1..6, "
            'or "unknown", got [0, 7]',
        ),
        (
            BECKY + "family.points = 2\n" + BECKY,
            "figurant 'becky': id: duplicate id (figurant #1 has it too)",
        ),
        (
            '[[mission]]\nid = "najlepszy-wrog"\nfamily.scoring = [[2, 1], [2, 3]]\n',
            "mission 'najlepszy-wrog': family.scoring[1]: expected [at_least, points] with "
            "counts rising from 1 and points of 0 or more, got [2, 3]",
        ),
        (BECKY + "name = \n", "line 3, column 8: TOML syntax error: Invalid value"),
        (
            '[meta]\nkind = "demo"\nlabel = "mine"\n',
            "meta: kind: expected 'owner' here, got 'demo'",
        ),
    ],
    ids=[
        "unknown-colour",
        "near-colour",
        "typo-key",
        "bad-type",
        "unknown-type",
        "negative",
        "officer-x",
        "duplicate-id",
        "scoring",
        "syntax",
        "wrong-kind",
    ],
)
def test_a_broken_owner_file_gives_exact_lines(in_tmp: Path, text: str, expected: str) -> None:
    (in_tmp / "owner.toml").write_text(text, encoding="utf-8")
    out = io.StringIO()
    assert check_command(["owner.toml"], out) == 1
    assert out.getvalue().splitlines() == [f"owner.toml: {expected}"]


def test_check_reports_every_problem_of_every_file(in_tmp: Path) -> None:
    (in_tmp / "a.toml").write_text(BECKY + "family.pionts = 3\nfamily.type = 5\nfamily.cost = 5\n")
    (in_tmp / "b.toml").write_text("x = ")
    out = io.StringIO()
    assert check_command(["a.toml", "b.toml", "gone.toml"], out) == 1
    assert out.getvalue().splitlines() == [
        "a.toml: figurant 'becky': family.pionts: unknown key 'pionts' (did you mean 'points'?)",
        "a.toml: figurant 'becky': family.cost: expected a table of colour = count, "
        'or "unknown", got 5',
        "a.toml: figurant 'becky': family.type: expected a type name, got 5",
        "b.toml: line 1 (end of file): TOML syntax error: Invalid value",
        "gone.toml: cannot read: No such file or directory",
    ]


def test_check_says_ok_then_what_is_still_unknown(in_tmp: Path) -> None:
    out = io.StringIO()
    assert check_command([], out) == 0
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["ok", "still unknown (the panel asks for each when a game needs it):"]
    becky = [line for line in lines if line.startswith("  Becky (figurant): family points, type;")]
    assert becky and becky[0].endswith(
        "asked when it is laid face up (points and type: at once or at the score sheet)"
    )
    assert '  3 of 10 missions not named: played as "Mission 8" … "Mission 10"' in lines[-4]
    assert lines[-1].startswith("  Król Popiel: the reward tokens' mix (8 in all)")

    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4, "type": "enemy"}})
    out = io.StringIO()
    assert check_command(["owner.toml"], out) == 0
    taught = out.getvalue().splitlines()
    assert [line for line in taught if line.startswith("  Becky (figurant): advanced cost")]


def test_load_raw_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "owner.toml"
    path.write_text('[meta]\ngame = "pingwiny"\n[[figurant\n')
    with pytest.raises(CatalogueError) as caught:
        load_raw(path, "owner.toml")
    message = "TOML syntax error: Expected ']]' at the end of an array declaration"
    assert caught.value.problems == (Problem("owner.toml", "", "line 3, column 11", message),)


def test_the_shipped_file_is_read_once_and_each_load_builds_from_its_own_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    figurants = len(load([], demo=False).figurants)
    spoilt = catalogue_files._shipped(catalogue_files.PRINTED_FILE, "printed")
    spoilt.raw["figurant"].clear()  # what one caller does to its table
    monkeypatch.setattr(catalogue_files, "load_raw", lambda *_: pytest.fail("read again"))
    assert len(load([], demo=False).figurants) == figurants > 0


def test_a_shipped_file_of_the_wrong_kind_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = tmp_path / "pingwiny-demo.toml"
    fake.write_text('[meta]\ngame = "pingwiny"\nkind = "owner"\n')
    monkeypatch.setattr(catalogue_files, "DEMO_FILE", fake)
    with pytest.raises(CatalogueError) as caught:
        load([], demo=True)
    assert [str(problem) for problem in caught.value.problems] == [
        "pingwiny-demo.toml: meta: kind: expected 'demo' here, got 'owner'"
    ]


def test_save_owner_card_merges_into_the_file(in_tmp: Path) -> None:
    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4}})
    save_owner_card("owner.toml", {"id": "becky", "family": {"cost": {"yellow": 5}}})
    save_owner_card("owner.toml", {"id": "demo-8", "name": "Moja misja"}, section="mission")
    assert load_raw("owner.toml") == {
        "meta": {"game": "pingwiny", "kind": "owner", "label": OWNER_LABEL},
        "figurant": [{"id": "becky", "family": {"points": 4, "cost": {"yellow": 5}}}],
        "mission": [{"id": "demo-8", "name": "Moja misja"}],
    }
    catalogue = load(["owner.toml"], demo=False)
    assert catalogue.figurant("becky").family.cost == cost(yellow=5)
    assert [path.name for path in in_tmp.iterdir()] == ["owner.toml"]


def test_save_owner_card_refuses_a_bad_card_and_keeps_the_file(in_tmp: Path) -> None:
    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4}})
    before = (in_tmp / "owner.toml").read_bytes()
    with pytest.raises(CatalogueError) as caught:
        save_owner_card("owner.toml", {"id": "becky", "family": {"points": -4}})
    assert (
        str(caught.value)
        == "owner.toml: figurant 'becky': family.points: must be at least 0, got -4"
    )
    with pytest.raises(CatalogueError, match="unknown key 'figurnat'"):
        save_owner_card("owner.toml", {"id": "becky"}, section="figurnat")
    assert (in_tmp / "owner.toml").read_bytes() == before


def test_a_failed_save_leaves_the_old_file_and_no_litter(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4}})
    before = (in_tmp / "owner.toml").read_bytes()
    monkeypatch.setattr(catalogue_files.os, "replace", _power_cut)
    with pytest.raises(OSError, match="Input/output error"):
        save_owner_card("owner.toml", {"id": "becky", "family": {"points": 5}})
    assert (in_tmp / "owner.toml").read_bytes() == before
    assert [path.name for path in in_tmp.iterdir()] == ["owner.toml"]


def _power_cut(source: str, target: str) -> None:
    raise OSError(5, "Input/output error")


# ---------------------------------------------------------------- the owner's own layout kept

HAND_WRITTEN = """\
# Our family's deck, typed in by hand
[meta]
game = "pingwiny"  # the only game with cards

# Hans first: we play him most
[[figurant]]
id = "hans"
family.points = 2  # from the corner of the card

# Becky, as printed
[[figurant]]
id = "becky"
family.points = 4
"""


def in_order(lines: list[str], text: str) -> bool:
    """Whether ``lines`` are lines of ``text``, in this order (others between them)."""
    rest = iter(text.splitlines())
    return all(line in rest for line in lines)


def test_a_save_keeps_the_owners_comments_and_order(in_tmp: Path) -> None:
    path = in_tmp / "owner.toml"
    path.write_text(HAND_WRITTEN, encoding="utf-8")
    save_owner_card("owner.toml", {"id": "becky", "family": {"type": "enemy"}})
    save_owner_card("owner.toml", {"id": "hans", "family": {"points": 3}})
    save_owner_card("owner.toml", {"id": "demo-8", "name": "Moja misja"}, section="mission")
    text = path.read_text(encoding="utf-8")
    kept = [line for line in HAND_WRITTEN.splitlines() if line.startswith("#")]
    assert in_order(kept + ['family.type = "enemy"', "[[mission]]"], text)
    assert "family.points = 3  # from the corner of the card" in text  # its comment kept
    # What was added went to its table, not under the comment above the next one:
    assert '# Hans first: we play him most\n[[figurant]]\nid = "hans"' in text
    assert '# Becky, as printed\n[[figurant]]\nid = "becky"\nfamily.points = 4\n' in text
    assert load_raw("owner.toml") == {
        "meta": {"game": "pingwiny", "kind": "owner", "label": OWNER_LABEL},
        "figurant": [
            {"id": "hans", "family": {"points": 3}},
            {"id": "becky", "family": {"points": 4, "type": "enemy"}},
        ],
        "mission": [{"id": "demo-8", "name": "Moja misja"}],
    }
    becky = load(["owner.toml"], demo=False).figurant("becky")
    assert (becky.family.points, becky.family.type) == (4, "enemy")
    assert [p.name for p in in_tmp.iterdir()] == ["owner.toml"]  # written atomically


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts tomlkit parses in the test."""
    import tomlkit

    texts, parse = [], tomlkit.parse
    monkeypatch.setattr(tomlkit, "parse", lambda text: texts.append(text) or parse(text))
    return texts


def test_an_owners_file_only_the_box_writes_is_parsed_once_for_many_saves(
    in_tmp: Path, parsed: list[str]
) -> None:
    (in_tmp / "owner.toml").write_text(HAND_WRITTEN, encoding="utf-8")
    for points in (5, 6, 7):
        save_owner_card("owner.toml", {"id": "becky", "family": {"points": points}})
    assert parsed == [HAND_WRITTEN]  # the hand-written file; the box's own writes known
    text = (in_tmp / "owner.toml").read_text(encoding="utf-8")
    assert "# Hans first: we play him most" in text
    assert load_raw("owner.toml")["figurant"][1] == {"id": "becky", "family": {"points": 7}}


def test_only_the_owners_file_saved_last_is_kept_parsed(in_tmp: Path, parsed: list[str]) -> None:
    for name in ("one.toml", "two.toml"):
        (in_tmp / name).write_text(HAND_WRITTEN, encoding="utf-8")
    for name in ("one.toml", "two.toml", "one.toml", "one.toml"):
        save_owner_card(name, {"id": "becky", "family": {"points": 5}})
    assert len(parsed) == 3  # one, two, one again (two held the place); then none


def test_a_hand_edit_between_two_saves_is_kept(in_tmp: Path) -> None:
    path = in_tmp / "owner.toml"
    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4}})
    edited = path.read_text(encoding="utf-8").replace("points = 4", "points = 6  # checked")
    path.write_text(edited, encoding="utf-8")
    save_owner_card("owner.toml", {"id": "hans", "family": {"points": 2}})
    assert "family.points = 6  # checked" in path.read_text(encoding="utf-8")
    assert [card["family"] for card in load_raw("owner.toml")["figurant"]] == [
        {"points": 6},
        {"points": 2},
    ]


def test_a_save_cut_short_leaves_nothing_of_it_for_the_next_save(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4}})
    with monkeypatch.context() as cut:
        cut.setattr(catalogue_files.os, "replace", _power_cut)
        with pytest.raises(OSError, match="Input/output error"):
            save_owner_card("owner.toml", {"id": "demo-8", "name": "Moja"}, section="mission")
    save_owner_card("owner.toml", {"id": "hans", "family": {"points": 2}})
    assert load_raw("owner.toml") == {
        "meta": {"game": "pingwiny", "kind": "owner", "label": OWNER_LABEL},
        "figurant": [
            {"id": "becky", "family": {"points": 4}},
            {"id": "hans", "family": {"points": 2}},
        ],
    }


def test_a_new_owners_file_is_laid_out_as_the_shipped_ones(in_tmp: Path) -> None:
    card = {"id": "becky", "family": {"points": 4, "cost": {"yellow": 2}}}
    save_owner_card("owner.toml", card)
    assert (in_tmp / "owner.toml").read_text(encoding="utf-8") == (
        '[meta]\ngame = "pingwiny"\nkind = "owner"\n'
        f'label = "{OWNER_LABEL}"\n\n'
        '[[figurant]]\nid = "becky"\nfamily.points = 4\nfamily.cost = {yellow = 2}\n'
    )


POPIEL_HAND_WRITTEN = """\
# Our Król Popiel box
[meta]
game = "popiel"
kind = "owner"

# side A counted twice; side B still to count
[windows]
A = 6  # the yellow dots
"""


def test_the_popiel_owners_file_keeps_its_comments(in_tmp: Path) -> None:
    path = in_tmp / "popiel.toml"
    path.write_text(POPIEL_HAND_WRITTEN, encoding="utf-8")
    catalogue_files.save_popiel_owner(path, "windows", {"B": 7})
    mix = {"plus2": 3, "plus3": 2, "extra": 2, "double": 1}
    catalogue_files.save_popiel_owner(path, "rewards", mix)
    text = path.read_text(encoding="utf-8")
    assert text.startswith(POPIEL_HAND_WRITTEN.removesuffix("\n"))
    assert "A = 6  # the yellow dots\nB = 7\n" in text
    box = catalogue_files.load_popiel(False, path)
    assert (box.windows, box.rewards) == ({"A": 6, "B": 7}, mix)


def test_the_toml_library_is_loaded_to_save_not_to_start(in_tmp: Path) -> None:
    probe = (
        "import sys\n"
        "from firmware_app.store import catalogue_files\n"
        "catalogue_files.load_for_play([])\n"
        "print('tomlkit' in sys.modules)\n"
        "catalogue_files.save_owner_card('owner.toml', {'id': 'becky', 'family': {'points': 4}})\n"
        "print('tomlkit' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == ["False", "True"]


# ------------------------------------------------------- read within bounds


def test_an_owners_file_nested_past_the_bound_is_one_line(in_tmp: Path) -> None:
    (in_tmp / "deep.toml").write_text("a = " + "[" * 50_000 + "]" * 50_000 + "\n")
    (in_tmp / "dotted.toml").write_text("a" + ".a" * 40 + " = 1\n")
    out = io.StringIO()
    assert check_command(["deep.toml", "dotted.toml"], out) == 1
    assert out.getvalue().splitlines() == [
        "deep.toml: nested 50,000 levels deep; at most 32 are read",
        "dotted.toml: nested 40 levels deep; at most 32 are read",
    ]


def test_an_owners_file_that_is_a_pipe_is_refused_without_waiting(in_tmp: Path) -> None:
    os.mkfifo(in_tmp / "pipe.toml")
    with pytest.raises(CatalogueError) as caught:
        load_raw("pipe.toml")
    assert [str(problem) for problem in caught.value.problems] == [
        "pipe.toml: a named pipe, not a regular file"
    ]


def test_an_owners_file_given_as_bytes_is_checked_as_it_is_loaded(in_tmp: Path) -> None:
    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4, "type": "enemy"}})
    data = Path("owner.toml").read_bytes()
    assert catalogue_files.owner_problems(data, "catalogue.toml") == []
    wrong = data.replace(b"points = 4", b"points = -4")
    assert [str(p) for p in catalogue_files.owner_problems(wrong, "catalogue.toml")] == [
        "catalogue.toml: figurant 'becky': family.points: must be at least 0, got -4"
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[windows]\nA = 21\n", "windows: A: expected a whole number from 1 to 20, got 21"),
        ("[windows]\nA = 0\n", "windows: A: expected a whole number from 1 to 20, got 0"),
        ("[rewards]\nplus2 = 9\n", "rewards: plus2: expected a whole number from 0 to 8, got 9"),
        (
            "[rewards]\nextra = true\n",
            "rewards: extra: expected a whole number from 0 to 8, got True",
        ),
    ],
)
def test_the_popiel_owners_values_are_bounded_as_the_panel_asks(in_tmp, text, problem) -> None:
    Path("popiel.toml").write_text(text, encoding="utf-8")
    with pytest.raises(CatalogueError) as caught:
        catalogue_files.load_popiel(False, "popiel.toml")
    assert [str(p) for p in caught.value.problems] == [f"popiel.toml: {problem}"]
    found = catalogue_files.popiel_owner_problems(text.encode(), "popiel.toml")
    assert [str(p) for p in found] == [f"popiel.toml: {problem}"]


def test_the_most_windows_a_popiel_owners_file_holds_are_taken(in_tmp: Path) -> None:
    catalogue_files.save_popiel_owner("popiel.toml", "windows", {"A": 20, "B": 1})
    assert catalogue_files.load_popiel(False, "popiel.toml").windows == {"A": 20, "B": 1}
    assert catalogue_files.popiel_owner_problems(Path("popiel.toml").read_bytes(), "x") == []
