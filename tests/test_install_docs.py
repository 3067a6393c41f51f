"""Every TOML snippet of the docs loads: the docs name only what the daemon accepts."""

import re
import sys
import tomllib
from pathlib import Path

import pytest
from install_helpers import REPO, toml_snippets

from firmware_app.store.config import load_config

NEEDS = REPO / "systemd" / "config_needs.py"
DOCS = [REPO / "wiring.md", REPO / "docs" / "install.md", REPO / "docs" / "configuration.md"]

sys.path.insert(0, str(NEEDS.parent))
from config_needs import needs  # noqa: E402  (a script, not a package)

# --- the docs' snippets ------------------------------------------------------------------


def inline_settings(path: Path) -> list[str]:
    """Settings written in the prose as `[table] key = value`."""
    return re.findall(r"`(\[\w+\] \w+ = [^`]+)`", path.read_text(encoding="utf-8"))


SNIPPETS = [
    pytest.param(body, id=f"{path.name}:{n}")
    for path in DOCS
    for n, (_, body) in enumerate(toml_snippets(path))
] + [
    pytest.param(line.replace("] ", "]\n", 1), id=f"{path.name}:{line}")
    for path in DOCS
    for line in inline_settings(path)
]


def test_the_docs_have_snippets_where_expected() -> None:
    counted = {path.name: len(toml_snippets(path)) for path in DOCS}
    assert counted["wiring.md"] >= 4
    assert counted["configuration.md"] >= 8
    assert len(inline_settings(REPO / "wiring.md")) >= 3


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_every_docs_snippet_loads(snippet: str, tmp_path: Path) -> None:
    path = tmp_path / "tableside.toml"
    path.write_text(snippet, encoding="utf-8")
    config = load_config(path, environ={"TABLESIDE_STATE_DIR": str(tmp_path)})
    # The install script reads the same file for what it needs; both must agree.
    spi_panel = config.display["interface"] == "spi" and config.display["driver"] != "fake"
    uses_spi = spi_panel or config.reader["driver"] == "rc522-spi"
    assert needs(tomllib.loads(snippet)) == (["spi"] if uses_spi else [])
