"""Reading a file that came in from outside, within bounds, before anything looks at its values.

A record on a stick, a configuration, a simulator script, an owner's card file edited by
hand: any of them may be a named pipe (a read would wait for ever), a device (``/dev/zero``
never ends), a folder, megabytes of one name, text that is not UTF-8, brackets nested
a hundred thousand deep (the parsers recurse), a 5,000-digit number (Python refuses to
convert it, and SQLite would keep a larger one only as an inexact real) or a ``NaN``. Each
is refused here, in one line, before a parser or a check sees it:

- only a regular file is read, never blocking: what stands at the name is looked at before
  it is opened (``regular``), opened with ``O_NONBLOCK`` and looked at again on its open
  descriptor, and at most ``limit + 1`` bytes are read;
- the bytes are UTF-8, strictly;
- JSON and TOML are scanned for their nesting before they are parsed;
- what was parsed holds only numbers a 64-bit integer column keeps exactly, finite, and text
  (a JSON ``"\\ud800"`` escape makes a string Python cannot write anywhere).

This module is a leaf of ``store``: the configuration reads through it at start, before the
first frame, so ``json`` is imported only when JSON is read.
"""

import math
import os
import re
import tomllib
from itertools import accumulate
from pathlib import Path
from typing import Any

from firmware_app.store import regular

# Deeper than any file the box reads or writes: a game record is 7 levels deep, the card
# files 6, the configuration 3; far below where Python's parsers run out of stack.
MOST_NESTING = 32
# SQLite's integers: the journal keeps records as JSON text that SQLite reads, and a larger
# number would be read there as an inexact real (a seed that no longer matches itself).
SMALLEST, LARGEST = -(2**63), 2**63 - 1
_DIGITS = len(str(LARGEST))  # a longer number is refused before Python converts it


class Refused(ValueError):
    """Content the box does not take; ``problems`` holds one line for each thing wrong."""

    def __init__(self, problems: str | list[str] | tuple[str, ...]) -> None:
        self.problems = (problems,) if isinstance(problems, str) else tuple(problems)
        super().__init__("\n".join(self.problems))


def read_bytes(path: str | os.PathLike[str], limit: int, *, follow: bool = False) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    ``follow``: a link is followed to the file it names (a file named on the command line by
    the person at it); otherwise a link is refused as the state folder's own files are. A
    folder, pipe, device or socket is refused before it is opened, and again on the opened
    descriptor. Raises ``Refused`` with a line that does not repeat the name (the caller's
    message has it), or ``OSError`` when the file cannot be read at all.
    """
    target = Path(os.path.realpath(path) if follow else path)
    try:
        regular.check(target)  # never opened: a pipe would wait, a device never end
        return regular.read_bytes(target, limit)
    except regular.NotRegular as error:
        raise Refused(f"{error.kind}, not a regular file") from None
    except ValueError:  # larger than the limit
        raise Refused(f"larger than {limit:,} bytes") from None


def text_of(data: bytes) -> str:
    """``data`` as UTF-8 text; ``Refused`` naming the line of the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        byte = data[error.start]
        raise Refused(f"not UTF-8 text: line {line} holds the byte 0x{byte:02X}") from None


def read_text(path: str | os.PathLike[str], limit: int, *, follow: bool = False) -> str:
    """:func:`read_bytes`, then :func:`text_of`."""
    return text_of(read_bytes(path, limit, follow=follow))


# What is taken out before brackets are counted: JSON strings; TOML's four kinds of string
# and its comments. A TOML string the pattern misreads can only make the count wrong in a
# file nested past the bound by hand, and the walk after parsing counts exactly.
_JSON_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_TOML_STRINGS = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*'
)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
# A TOML key's parts joined by dots (``a.b.c``, ``a . "b"``: a quoted part is taken out as a
# string and stands here as ``_``), as one run: matched left to right, never tried again from
# inside, so a megabyte of dots is scanned once. A value never holds a run of two dots or
# more (a float or a time has one, dotted text is a string), so the deepest run is the
# deepest key, wherever it stands: before ``=``, in an inline table or in a ``[table]``.
_KEY_RUN = re.compile(r"[\w-]+(?:[ \t]*\.[ \t]*[\w-]+)+")


def _bare(match: re.Match) -> str:
    """A TOML comment taken out; a string left as one key part."""
    return "" if match.group().startswith("#") else "_"


def _nesting_before_parsing(text: str, strings: re.Pattern, dotted: bool = False) -> None:
    """Brackets (and, in TOML, the dots of each key) counted outside the strings."""
    bare = strings.sub(_bare if dotted else "", text)
    brackets = _NOT_BRACKETS.sub("", bare)
    depth = max(accumulate(1 if bracket in "[{" else -1 for bracket in brackets), default=0)
    if dotted:  # a.b.c = 1 and [a.b.c] nest as deep as their dots
        runs = (run.group().count(".") for run in _KEY_RUN.finditer(bare))
        depth = max(depth, max(runs, default=0))
    if depth > MOST_NESTING:
        raise Refused(f"nested {depth:,} levels deep; at most {MOST_NESTING} are read")


def _whole_number(digits: str) -> int:
    """JSON's integers, refused before conversion when longer than any 64-bit one."""
    if len(digits.lstrip("-")) > _DIGITS:
        raise Refused(f"a number of {len(digits.lstrip('-')):,} digits; at most {_DIGITS}")
    return int(digits)


def parse_json(text: str) -> Any:
    """The JSON value of ``text``, nesting and numbers bounded (see the module)."""
    import json

    _nesting_before_parsing(text, _JSON_STRINGS)
    try:
        value = json.loads(text, parse_int=_whole_number)
    except json.JSONDecodeError as error:
        raise Refused(f"not JSON: line {error.lineno} column {error.colno}: {error.msg}") from None
    except RecursionError:  # the scan above stops this first; a parser's own limit stays
        raise Refused(f"nested deeper than {MOST_NESTING} levels") from None
    _check_values(value)
    return value


def parse_toml(text: str) -> dict[str, Any]:
    """The TOML table of ``text``, nesting and numbers bounded (see the module).

    A syntax error is ``tomllib.TOMLDecodeError``, left to the caller, who says where it is
    in its own words; everything else wrong is ``Refused``.
    """
    _nesting_before_parsing(text, _TOML_STRINGS, dotted=True)
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except RecursionError:
        raise Refused(f"nested deeper than {MOST_NESTING} levels") from None
    except ValueError as error:  # a number Python will not convert (thousands of digits)
        raise Refused(f"not TOML that can be read: {error}") from None
    _check_values(table)
    return table


def _check_values(value: Any) -> None:
    """Walk the parsed value without recursion: nesting (TOML's dotted keys nest without
    brackets), numbers and text; ``Refused`` at the first thing out of bounds."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            if depth >= MOST_NESTING:
                raise Refused(f"nested deeper than {MOST_NESTING} levels")
            children = item.values() if isinstance(item, dict) else item
            pending += [(child, depth + 1) for child in children]
            if isinstance(item, dict):
                pending += [(key, depth + 1) for key in item]
        elif isinstance(item, str):
            if not is_text(item):
                raise Refused(f"{item!r} is not text: it holds half of a UTF-16 pair")
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int) and not SMALLEST <= item <= LARGEST:
            raise Refused(f"the number {item} is beyond what a 64-bit integer holds")
        elif isinstance(item, float) and not math.isfinite(item):
            raise Refused(f"{item} is not a number the box takes (only finite ones)")


def is_text(value: str) -> bool:
    """Whether ``value`` can be written as UTF-8 (no lone surrogate, which JSON can escape)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
