"""Shared paths and readers for the install tests."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The packages of the wheel, and what it is built from: pyproject.toml, its readme and their
# folders (systemd/install.sh copies the same, as its SHIPPED).
PACKAGES = ("rules", "hw", "firmware_app")
SHIPPED = ("pyproject.toml", "README.md", *PACKAGES)


def shipped_files(top: Path = REPO) -> list[str]:
    """The files of ``top`` that the wheel is built from, as install.sh finds them: every file
    of SHIPPED but bytecode (``__pycache__``, ``*.pyc``), relative, ``/``-separated, sorted."""
    found = []
    for name in SHIPPED:
        path = top / name
        paths = [path] if path.is_file() else path.rglob("*")
        found += [
            item.relative_to(top).as_posix()
            for item in paths
            if item.is_file() and "__pycache__" not in item.parts and item.suffix != ".pyc"
        ]
    return sorted(found)


def toml_snippets(path: Path) -> list[tuple[str, str]]:
    """Every fenced TOML block of ``path`` (indented ones too), with the bold title above it."""
    text = path.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"^( *)```toml\n(.*?)^\1```", text, re.MULTILINE | re.DOTALL):
        indent = len(match.group(1))
        body = "".join(line[indent:] for line in match.group(2).splitlines(keepends=True))
        titles = re.findall(r"^\*\*(.+?)\*\*", text[: match.start()], re.MULTILINE)
        found.append((titles[-1] if titles else "", body))
    return found
