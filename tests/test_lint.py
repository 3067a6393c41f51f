"""The suite keeps the code clean: ruff's checks and formatting, and the import contracts of
``pyproject.toml`` (which room may import which), with the project's settings."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.unmutated  # reads the code as text (docs/testing.md)

ROOT = Path(__file__).parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_finds_nothing():
    done = ruff("check", ".")
    assert done.returncode == 0, done.stdout


def test_code_is_formatted():
    done = ruff("format", "--check", ".")
    assert done.returncode == 0, done.stdout


# ``lint-imports`` itself, run from this interpreter; it reads ``pyproject.toml`` in the
# folder it runs in and finds the packages there first.
LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"


def lint_imports(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", LINT_IMPORTS, "--no-cache"],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(folder)},
    )


def test_the_import_contracts_hold():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 kept, 0 broken" in done.stdout, done.stdout


def test_an_upward_import_breaks_the_rooms_contract(tmp_path):
    for package in ("rules", "hw", "firmware_app"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    store = tmp_path / "firmware_app" / "store" / "atomic.py"
    store.write_text(store.read_text() + "\nfrom firmware_app.cli.common import CommandError\n")
    done = lint_imports(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "firmware_app's rooms import only the rooms below them BROKEN" in done.stdout
    assert "firmware_app.store.atomic -> firmware_app.cli.common" in done.stdout
