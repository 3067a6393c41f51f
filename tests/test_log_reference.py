"""docs/log.md and the code's log calls: the same lines, under the same loggers and levels."""

import re

import pytest
from log_lines import PAGE, documented, written

pytestmark = pytest.mark.unmutated  # reads the code's text (docs/testing.md)


def test_every_log_call_of_the_code_is_on_the_page():
    calls = written()
    assert len(calls) >= 90  # the count when the page was written: a parse that finds none fails
    assert (
        sorted(where for logger, line, _, where in calls if (logger, line) not in documented())
        == []
    )


def test_every_line_on_the_page_is_one_the_code_writes_at_that_level():
    rows = set(re.findall(r"^\| (\w+) \| `([^`]+)` \|", PAGE.read_text(encoding="utf-8"), re.M))
    levels = {(level, line) for _, line, level, _ in written()}
    assert rows == levels
    assert documented() == {(logger, line) for logger, line, _, _ in written()}
