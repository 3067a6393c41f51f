"""The log lines docs/log.md describes, and the ones the code writes.

docs/log.md is the owner's and the engineer's key to the box's log: each line under its
logger's name, word for word. ``conftest.every_log_line_is_documented`` holds every line a
test makes the code write to it; ``test_log_reference`` holds every log call in the code.
"""

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "docs" / "log.md"
LEVELS = ("debug", "info", "warning", "error", "exception")


@functools.cache
def documented() -> frozenset[tuple[str, str]]:
    """``(logger, line)`` for each row of the page's tables."""
    found, logger = set(), None
    for text in PAGE.read_text(encoding="utf-8").splitlines():
        if heading := re.fullmatch(r"## `([\w.]+)`", text):
            logger = heading[1]
        elif row := re.match(rf"\| ({'|'.join(LEVELS)}) \| `([^`]+)` \|", text):
            found.add((logger, row[2]))
    return frozenset(found)


def written() -> set[tuple[str, str | None, str, str]]:
    """``(logger, line, level, where)`` for each log call of the three packages' code, the
    logger named by the module's ``LOG = logging.getLogger(...)`` (``log`` in hw/)."""
    calls = set()
    for source in sorted(
        p for d in ("firmware_app", "hw", "rules") for p in (ROOT / d).rglob("*.py")
    ):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        loggers = {
            node.targets[0].id: node.value.args[0].value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "attr", None) == "getLogger"
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in LEVELS
                and getattr(node.func.value, "id", None) in loggers
            ):
                first = node.args[0]
                line = first.value if isinstance(first, ast.Constant) else None
                where = f"{source.relative_to(ROOT)}:{node.lineno}"
                calls.add((loggers[node.func.value.id], line, node.func.attr, where))
    return calls
