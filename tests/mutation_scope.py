"""Mutation testing of the modules a change touched, and the score it reaches.

Run from the checkout (docs/testing.md, "Mutation testing")::

    nice -n 10 .venv/bin/python tests/mutation_scope.py [--base main] [--dry-run] [MODULE ...]

other options: ``--all``, ``--sample N``, ``--resume``, ``--direct``, ``--tests FILE ...``,
``--no-whole-games``, ``--report`` (``--help``).

Without MODULE, the modules are those of ``git diff --name-only --merge-base BASE`` (committed
and not yet committed changes since the branch left BASE) and new files, kept to the ones
``[tool.mutmut]`` of pyproject.toml lists in ``only_mutate``. ``mutmut run`` alone would mutate
every listed module and first run the whole suite in one process to learn which test calls what;
this narrows both: only the touched modules are mutated, and only the test files that import
them (see ``tests_of``) run, each mutant against those of their tests that call its function, as
many mutants at a time as there are cores.

The score is killed / (killed + survived); a timeout or a crash of the test process counts as
killed, a mutant no selected test reaches counts as survived. It exits 1 under 90 %, or when a
module has no test file importing it.

``--all --sample N`` measures the score over every configured module: their ~21,000 mutants
would hold two cores for a day, so ``N`` of them drawn at random (``--seed``) are run, and the
score is given with its 95 % interval (Wilson's), which says how far the whole may lie from it.
"""

import argparse
import ast
import fnmatch
import io
import math
import os
import random
import re
import subprocess
import sys
import tomllib
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 0.90
KILLED = {"killed", "timeout", "segfault", "caught by type check"}
SURVIVED = {"survived", "no tests"}


def configured() -> list[str]:
    """The ``only_mutate`` patterns of pyproject.toml: the modules mutation testing covers."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return project["tool"]["mutmut"]["only_mutate"]


def every_module() -> list[str]:
    """Every file the ``only_mutate`` patterns name that holds code (a package's
    ``__init__.py`` may hold only its docstring: nothing to mutate, no test imports it)."""
    found = (p.relative_to(ROOT).as_posix() for p in package_files())
    return sorted(path for path in found if in_scope(path) and holds_code(ROOT / path))


def package_files() -> list[Path]:
    """Every module of the three packages."""
    return [p for top in ("rules", "hw", "firmware_app") for p in (ROOT / top).rglob("*.py")]


def holds_code(source: Path) -> bool:
    body = ast.parse(source.read_text(encoding="utf-8")).body
    return len(body) > (1 if ast.get_docstring(ast.Module(body, [])) is not None else 0)


@cache
def mutant_names(module: str) -> list[str]:
    """The names mutmut gives the mutants of ``module`` (made in memory, nothing written)."""
    from mutmut.__main__ import write_all_mutants_to_file
    from mutmut.utils.format_utils import get_mutant_name

    source = (ROOT / module).read_text(encoding="utf-8")
    made = write_all_mutants_to_file(out=io.StringIO(), source=source, filename=Path(module))
    return [get_mutant_name(Path(module), name) for name in made.mutant_names]


def drawn(modules: list[str], size: int, seed: int) -> dict[str, list[str]]:
    """``size`` mutants drawn at random from every mutant of ``modules``, by module."""
    every = [(module, name) for module in modules for name in mutant_names(module)]
    print(f"{len(every)} mutants in {len(modules)} modules; {size} drawn (seed {seed})")
    picked: dict[str, list[str]] = {}
    for module, name in random.Random(seed).sample(every, min(size, len(every))):
        picked.setdefault(module, []).append(name)
    return {module: sorted(picked[module]) for module in sorted(picked)}


def git_lines(*args: str) -> list[str]:
    done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def changed_modules(base: str) -> list[str]:
    """The configured modules changed since the branch left ``base``, new ones included."""
    changed = git_lines("diff", "--name-only", "--merge-base", base)
    changed += git_lines("ls-files", "--others", "--exclude-standard")
    return sorted({path for path in changed if in_scope(path) and (ROOT / path).is_file()})


def in_scope(path: str) -> bool:
    return path.endswith(".py") and any(fnmatch.fnmatch(path, p) for p in configured())


def dotted(path: str) -> str:
    """``rules/pingwiny/options.py`` -> ``rules.pingwiny.options`` (a package: its folder)."""
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def imported(source: Path) -> set[str]:
    """Every module a file of tests/ imports by name (``from a import b`` may import a.b)."""
    names = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def tests_of(module: str, hop: bool = True) -> list[str]:
    """The test files that import ``module``, directly or through a helper module of tests/,
    and (``hop``) those that import a module of the packages importing it: a module is often
    tested through its caller, the stick's jobs through the stick's screen. conftest.py imports
    for every test and is left out. mutmut then runs each mutant against only those of their
    tests that call its function."""
    targets = {module}
    if hop:
        targets |= {
            dotted(p.relative_to(ROOT).as_posix()) for p in package_files() if module in imported(p)
        }
    files = {path: imported(path) for path in (ROOT / "tests").glob("*.py")}
    helpers = {p.stem for p, names in files.items() if names & targets}
    helpers = {h for h in helpers if not h.startswith("test_") and h != "conftest"}
    found = [
        f"tests/{path.name}"
        for path, names in files.items()
        if path.name.startswith("test_") and names & (targets | helpers)
    ]
    return sorted(found)


# Python imports ``sitecustomize`` from PYTHONPATH as it starts. While mutmut maps tests to
# functions (``stats``), a command that a test starts has no mutmut configuration where it runs
# and could keep no record anyway: it runs the original functions. With a mutant under test it
# runs that mutant, so a test of a command kills it too.
UNMAPPED = """import os

if os.environ.get("MUTANT_UNDER_TEST") == "stats":
    os.environ["MUTANT_UNDER_TEST"] = ""
"""


def run_mutmut(
    modules: list[str],
    tests: list[str],
    names: list[str] | None = None,
    fresh: bool = True,
    marks: list[str] | None = None,
) -> None:
    """``mutmut run`` on the modules' mutants, with mutmut's configuration narrowed to them.

    mutmut reads ``[tool.mutmut]`` once into one object; its two lists are replaced here, as a
    narrower pyproject.toml would say. Subprocesses that a test starts (``python -m
    firmware_app...``, the ``tableside`` script) find the mutated copy first on PYTHONPATH:
    the editable install would otherwise give them the original (see ``UNMAPPED``).
    Not ``fresh``, the modules' mutated copies and the verdicts beside them are kept.
    ``marks`` (``-m EXPRESSION``) goes to every pytest run: the mapping, the clean run, each
    mutant's.
    """
    from mutmut.__main__ import cli
    from mutmut.configuration import config

    # mutmut keeps a copy newer than its source as already mutated; a module copied plain by an
    # earlier run of other modules would then be tested without its mutants: copied again.
    for module in modules if fresh else ():
        for left in (module, f"{module}.meta", f"{module}.spans"):
            (ROOT / "mutants" / left).unlink(missing_ok=True)
    settings = config()
    settings.only_mutate = modules
    settings.pytest_add_cli_args_test_selection = tests
    settings.pytest_add_cli_args = [*settings.pytest_add_cli_args, *(marks or [])]
    mutated = ROOT / "mutants"
    mutated.mkdir(exist_ok=True)
    (mutated / "sitecustomize.py").write_text(UNMAPPED, encoding="utf-8")
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(mutated), os.environ.get("PYTHONPATH")])
    )
    names = names or [f"{dotted(m)}.x*" for m in modules]
    cli(["run", "--max-children", str(os.cpu_count() or 1), *names], standalone_mode=False)


def results(module: str) -> dict[str, str]:
    """Each mutant of ``module`` and what became of it, from mutmut's file beside the copy."""
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.stats import status_by_exit_code

    data = SourceFileMutationData(path=module)
    data.load()
    return {name: status_by_exit_code[code] for name, code in data.exit_code_by_key.items()}


def undecided(sample: dict[str, list[str]]) -> list[str]:
    """The drawn mutants the last run left without a verdict: it stopped before their end."""
    left = []
    for module, names in sample.items():
        verdicts = results(module)  # one read of the module's file for all its names
        left += [name for name in names if verdicts.get(name) not in KILLED | SURVIVED]
    return left


def mutation(module: str, name: str) -> str:
    """Where a mutant is in the source (``file:line``) and what it changed, ``old -> new``."""
    import libcst
    from mutmut.mutation.diff_apply import (
        read_functions_from_index,
        read_mutant_function,
        read_mutants_module,
        read_original_function,
    )
    from mutmut.utils.format_utils import orig_function_and_class_names_from_key

    pair = read_functions_from_index(name, module)
    if pair is None:
        copy = read_mutants_module(module)
        try:
            pair = read_original_function(copy, name), read_mutant_function(copy, name)
        except FileNotFoundError:  # a later run of other modules copied this one plain
            return f"{module}: its mutants are no longer in mutants/; run it again to see them"
    old, new = (libcst.Module([f]).code.strip().splitlines() for f in pair)
    _, i1, i2, j1, j2 = next(
        op for op in SequenceMatcher(None, old, new).get_opcodes() if op[0] != "equal"
    )
    at_def = next(i for i, line in enumerate(old) if re.match(r"\s*(async\s+)?def ", line))
    line = def_line(module, *orig_function_and_class_names_from_key(name)) + i1 - at_def
    was, now = (" / ".join(s.strip() for s in lines) for lines in (old[i1:i2], new[j1:j2]))
    return f"{module}:{line}: {was!r} -> {now!r}"


def def_line(module: str, function: str, klass: str | None) -> int:
    """The line of ``def function`` (in ``klass``, when a method) in the original source."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    scope = tree.body
    if klass:
        scope = next(n.body for n in tree.body if isinstance(n, ast.ClassDef) and n.name == klass)
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    return next(n.lineno for n in scope if isinstance(n, kinds) and n.name == function)


def report(modules: list[str], sample: dict[str, list[str]] | None = None) -> float:
    """Prints each module's score and its survivors, then the whole; returns the whole.
    With a ``sample``, only its mutants count, and the whole comes with its interval.

    A timeout counts as killed, and is listed too: mutmut's deadline is on the clock, so on a
    loaded machine a slow mutant may run out of time without hanging the tests."""
    killed = survived = late = 0
    for module in modules:
        outcome = results(module)
        if sample is not None:
            outcome = {name: outcome.get(name, "not run") for name in sample[module]}
        dead = sum(status in KILLED for status in outcome.values())
        alive = sorted(name for name, status in outcome.items() if status in SURVIVED)
        other = sorted(f"{n} ({s})" for n, s in outcome.items() if not {s} & (KILLED | SURVIVED))
        timeouts = sorted(name for name, status in outcome.items() if status == "timeout")
        killed, survived = killed + dead, survived + len(alive)
        late += len(timeouts)
        print(f"\n{module}: {score_line(dead, len(alive), len(timeouts))}")
        for name in alive + timeouts:
            print(f"  {outcome[name]}: {name}\n    {mutation(module, name)}")
        for name in other:
            print(f"  not decided: {name}")
    print(f"\nMutation score: {score_line(killed, survived, late)} (goal {GOAL:.0%})")
    if sample is not None and killed + survived:
        low, high = wilson(killed, killed + survived)
        print(f"95 % interval of the score over all their mutants: {low:.1%} to {high:.1%}")
    return killed / (killed + survived) if killed + survived else 0.0


def wilson(killed: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's interval for the share of killed mutants among all, from a sample."""
    share = killed / total
    centre = (share + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total))
    return centre - half / (1 + z * z / total), centre + half / (1 + z * z / total)


def score_line(killed: int, survived: int, timeouts: int) -> str:
    total = killed + survived
    share = f"{killed / total:.1%}" if total else "no mutant"
    return f"{share}, {killed} killed of {total} ({survived} survived, {timeouts} timed out)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="files to mutate (default: the changed ones)")
    parser.add_argument("--base", default="main", help="the branch a change is compared with")
    parser.add_argument("--dry-run", action="store_true", help="list modules and tests only")
    parser.add_argument("--report", action="store_true", help="the last run's score, no run")
    parser.add_argument(
        "--direct", action="store_true", help="only the tests importing the modules themselves"
    )
    parser.add_argument("--tests", nargs="+", help="these test files instead of those found")
    parser.add_argument(
        "--no-whole-games", action="store_true", help="not the tests marked whole_game"
    )
    parser.add_argument("--all", action="store_true", help="every module of only_mutate")
    parser.add_argument("--sample", type=int, help="run this many mutants drawn at random")
    parser.add_argument("--seed", type=int, default=1, help="the draw's seed (with --sample)")
    parser.add_argument(
        "--resume", action="store_true", help="with --sample: only the mutants left undecided"
    )
    args = parser.parse_args(argv)
    if args.resume and not args.sample:
        parser.error("--resume goes with --sample: it carries on the same draw")
    os.chdir(ROOT)
    modules = sorted(set(args.modules)) or (every_module() if args.all else [])
    modules = modules or changed_modules(args.base)
    outside = [m for m in modules if not in_scope(m)]
    if outside:
        parser.error(f"not in [tool.mutmut] only_mutate: {', '.join(outside)}")
    if not modules:
        print(f"No module of [tool.mutmut] changed since {args.base}.")
        return 0
    tests_by_module = {m: args.tests or tests_of(dotted(m), hop=not args.direct) for m in modules}
    untested = [m for m in modules if not tests_by_module[m]]
    modules = [m for m in modules if m not in untested]
    tests = sorted({t for m in modules for t in tests_by_module[m]})
    for module in untested:
        print(f"{module}: no test file imports it")
    print("Modules:", *modules, sep="\n  ")
    print("Tests:", *tests, sep="\n  ")
    if args.dry_run or not modules:
        return 1 if untested else 0
    sample = drawn(modules, args.sample, args.seed) if args.sample else None
    if sample is not None:
        modules = list(sample)
        tests = sorted({t for m in modules for t in tests_by_module[m]})
    if not args.report:
        names = [name for picked in sample.values() for name in picked] if sample else None
        if args.resume:
            names = undecided(sample)
            print(f"{len(names)} of the {args.sample} drawn still to decide")
        if names != []:
            marks = ["-m", "not whole_game"] if args.no_whole_games else []
            run_mutmut(modules, tests, names, fresh=not args.resume, marks=marks)
    return 0 if report(modules, sample) >= GOAL and not untested else 1


if __name__ == "__main__":
    sys.exit(main())
