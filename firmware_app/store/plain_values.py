"""Single values that came in, held to what the box shows and uses: a name, a path, a date.

A name goes on a 128x64 panel, in the statistics, in a spreadsheet's column; a path goes to
the system; a date to the clock functions of the statistics and the exports. A control
character (a NUL ends a path in the system's calls and Python refuses it; a line break splits
a row; an escape sequence takes over a terminal), a megabyte of name or a date of
``Infinity`` (no ``time_t`` holds it) has no place in any. The configuration reads its paths
through this module at start, and the statistics their dates, so it imports nothing.
"""

import re

# The letters of a name: the panel enters 12 at most (``ui.screens.NAME_LENGTH``, kept at or
# under this by a test), and a name written in the configuration or brought in with a record
# may be a little longer: 16 still fit a row of the panel beside a score.
NAME_LIMIT = 16
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # Unicode's "Cc": C0, DEL and C1
# Dates are the box's clock in seconds since 1970 (``time.time``). A Raspberry Pi has no
# clock of its own and may count from 1970 until it learns the time, so the span starts
# there; it ends at 2100-01-01, which every platform's ``time_t`` and date functions reach.
DATE_SPAN = (0, 4_102_444_800)


def name_problem(value: object) -> str | None:
    """What is wrong with ``value`` as a player's name (None: nothing): 1 to
    ``NAME_LIMIT`` printable characters, not all spaces."""
    if not isinstance(value, str):
        return f"a name is text, not {_shown(value)}"
    if not value.strip():
        return f"a name has a letter at least, not {_shown(value)}"
    if len(value) > NAME_LIMIT:
        return f"a name has at most {NAME_LIMIT} letters, not {len(value):,}"
    if not value.isprintable():
        bad = next(char for char in value if not char.isprintable())
        return f"a name holds only printable letters, not U+{ord(bad):04X} ({_shown(value)})"
    return None


def control_problem(value: str) -> str | None:
    """What is wrong with ``value`` as a path or a word passed on (None: nothing): it holds
    no control character."""
    found = _CONTROL.search(value)
    if found is None:
        return None
    return f"holds the control character U+{ord(found[0]):04X}: refused"


def date_problem(value: object) -> str | None:
    """What is wrong with ``value`` as a date (None: nothing)."""
    if type(value) not in (int, float):
        return f"a date is a number of seconds since 1970, not {_shown(value)}"
    low, high = DATE_SPAN
    if not low <= value < high:  # NaN fails both
        return f"a date from 1970-01-01 to 2100-01-01, not {value!r}"
    return None


def _shown(value: object) -> str:
    """A value quoted for a message, cut short: a megabyte of name is not echoed."""
    text = ascii(value)
    return text if len(text) <= 40 else f"{text[:37]}..."
