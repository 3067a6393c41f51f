"""The two kinds of event the hardware layer hands to the daemon.

They are plain frozen values so that a test, a script or a recorded session
can build them by hand and compare them with ``==``.
"""

from dataclasses import dataclass
from enum import Enum


class Press(Enum):
    """What happened to a button."""

    PRESS = "press"
    RELEASE = "release"
    LONG = "long"
    REPEAT = "repeat"


@dataclass(frozen=True)
class ButtonEvent:
    """A button called ``name`` did ``kind`` at monotonic time ``at`` (seconds)."""

    name: str
    kind: Press
    at: float


@dataclass(frozen=True)
class TagEvent:
    """A tag with the full ``uid`` (upper-case hex, no separators) was presented."""

    uid: str
    reader: str
    at: float
