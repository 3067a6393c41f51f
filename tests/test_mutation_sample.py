"""The mutation score over every configured module, from a random sample of its mutants
(``tests/mutation_scope.py --all --sample N``, docs/testing.md)."""

import math
import subprocess
import sys

import mutation_scope
import pytest
from mutation_scope import GOAL, drawn, every_module, main, mutant_names, undecided, wilson

SMALL = ["hw/rfid/rdm6300.py", "hw/rfid/outage.py"]  # two small modules: quick to mutate


@pytest.mark.parametrize(("killed", "total"), [(270, 300), (299, 300), (50, 100), (1, 7)])
def test_each_bound_of_the_interval_solves_wilsons_equation(killed, total):
    """Wilson's bounds are the two shares p with (k/n - p)^2 = z^2 p (1 - p) / n."""
    low, high = wilson(killed, total)
    share, z = killed / total, 1.96
    for bound in (low, high):
        assert (share - bound) ** 2 == pytest.approx(z * z * bound * (1 - bound) / total)
    assert 0 <= low < share < high <= 1


def test_three_hundred_mutants_at_ninety_percent_give_about_three_and_a_half_points():
    low, high = wilson(270, 300)  # docs/testing.md: "about ±3.5 points"
    assert math.isclose((high - low) / 2, 0.035, abs_tol=0.002)
    assert low < GOAL < high


def test_a_draw_is_the_same_for_a_seed_and_takes_each_mutant_once():
    every = {name for module in SMALL for name in mutant_names(module)}
    first, again, other = (drawn(SMALL, 20, seed) for seed in (1, 1, 2))
    assert first == again and first != other
    names = [name for picked in first.values() for name in picked]
    assert len(names) == len(set(names)) == 20 and set(names) <= every
    for module, picked in first.items():
        assert all(name.startswith(module.removesuffix(".py").replace("/", ".")) for name in picked)
    everything = drawn(SMALL, 10_000, 1)  # more than there are: all of them
    assert sum(map(len, everything.values())) == len(every)


def test_every_module_with_a_mutant_is_covered_and_a_docstring_package_is_not():
    modules = every_module()
    assert "rules/pingwiny/family.py" in modules and "hw/buttons.py" in modules
    assert "rules/popiel/__init__.py" not in modules  # its docstring alone: no mutant
    assert "hw/rfid/fake.py" not in modules  # a stand-in the tests drive, not covered


def test_a_run_stopped_midway_leaves_the_mutants_it_had_not_decided(tmp_path, monkeypatch):
    from mutmut.mutation.data import SourceFileMutationData

    monkeypatch.chdir(tmp_path)  # mutmut's verdicts lie in mutants/, beside the copies
    (tmp_path / "mutants" / "hw" / "rfid").mkdir(parents=True)
    # mutmut's exit codes: killed, survived, not yet run, timeout, interrupted
    verdicts = {"a": 1, "b": 0, "c": None, "d": 36, "e": 2}
    data = SourceFileMutationData(path="hw/rfid/outage.py")
    data.exit_code_by_key = {f"hw.rfid.outage.x_f__mutmut_{k}": v for k, v in verdicts.items()}
    data.save()
    sample = {"hw/rfid/outage.py": [f"hw.rfid.outage.x_f__mutmut_{k}" for k in "abcdef"]}
    left = [name.rpartition("_")[2] for name in undecided(sample)]
    assert left == ["c", "e", "f"]  # f: never written down


@pytest.mark.parametrize("left", [[], ["hw.rfid.outage.x_f__mutmut_1"]])
def test_resuming_runs_only_what_is_left_and_keeps_the_verdicts(monkeypatch, left):
    runs = []
    monkeypatch.setattr(mutation_scope, "undecided", lambda sample: left)
    monkeypatch.setattr(mutation_scope, "run_mutmut", lambda *a, **kw: runs.append((a, kw)))
    monkeypatch.setattr(mutation_scope, "report", lambda modules, sample: 1.0)
    assert main(["hw/rfid/outage.py", "--sample", "3", "--resume"]) == 0
    assert [(call[0][2], call[1]) for call in runs] == (
        [(left, {"fresh": False, "marks": []})] if left else []
    )


def test_resuming_needs_a_sample(capsys):
    with pytest.raises(SystemExit):
        main(["hw/rfid/outage.py", "--resume"])
    assert "--resume goes with --sample" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flag, marks", [([], []), (["--no-whole-games"], ["-m", "not whole_game"])]
)
def test_without_whole_games_every_pytest_run_deselects_them(monkeypatch, flag, marks):
    runs = []
    monkeypatch.setattr(mutation_scope, "run_mutmut", lambda *a, **kw: runs.append(kw["marks"]))
    monkeypatch.setattr(mutation_scope, "report", lambda modules, sample: 1.0)
    assert main(["hw/rfid/outage.py", *flag]) == 0
    assert runs == [marks]


def test_the_whole_games_are_marked_and_the_quick_tests_beside_them_are_not(pytestconfig):
    """Marked: the long tests of docs/testing.md (whole games, the 200 power cuts); a file of
    them keeps its quick tests in a sample's run."""
    listed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-o",
            "addopts=",  # its -q and this one's would list files, not tests
            "-q",
            "-p",
            "no:xdist",
            "-m",
            "whole_game",
            "tests/test_teaching.py",
            "tests/test_power_cut.py",
        ],
        cwd=pytestconfig.rootpath,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "test_a_whole_advanced_game_on_the_printed_box_from_an_empty_owners_file[en]" in listed
    assert "test_every_life_was_killed_and_none_failed" in listed
    assert "test_a_token_mix_adding_up_to_less_than_104_is_refused" not in listed
