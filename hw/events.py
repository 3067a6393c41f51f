"""The two kinds of event the hardware layer hands to the daemon.

They are plain frozen values so that a test, a script or a recorded session
can build them by hand and compare them with ``==``. They are named tuples
rather than dataclasses because this module is loaded before the daemon's
first frame, and ``dataclasses`` imports ``inspect``, the largest single
import on that path.
"""

from enum import Enum
from typing import NamedTuple


class Press(Enum):
    """What happened to a button."""

    PRESS = "press"
    RELEASE = "release"
    LONG = "long"
    REPEAT = "repeat"


class ButtonEvent(NamedTuple):
    """A button called ``name`` did ``kind`` at monotonic time ``at`` (seconds)."""

    name: str
    kind: Press
    at: float


class TagEvent(NamedTuple):
    """A tag with the full ``uid`` (upper-case hex, no separators) was presented."""

    uid: str
    reader: str
    at: float
