"""Shared paths and readers for the install tests."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


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
