"""The suite keeps the code clean: ruff's checks and formatting, with the project's settings."""

import subprocess
import sys
from pathlib import Path

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
