"""``.ci/run`` runs exactly the README's test command: a fresh virtual environment, then the
suite on every core (docs/testing.md)."""

from pathlib import Path

import pytest

pytestmark = pytest.mark.unmutated  # reads the code as text (docs/testing.md)

REPO = Path(__file__).resolve().parents[1]


def test_ci_runs_exactly_the_readmes_test_command():
    readme = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    (command,) = [line for line in readme if line.endswith("-m pytest -n auto")]
    assert command.startswith("python3 -m venv --clear .venv && ")
    assert command in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
