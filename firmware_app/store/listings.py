"""The games as the journal lists them: the resume list, the ended games, the statistics' rows."""

from dataclasses import dataclass
from typing import Any, NamedTuple


@dataclass(frozen=True)
class FinishedGame:
    """One line of the list of ended games: enough to show it and pick it.

    ``outcome`` is ``finished`` (``summary`` holds the result) or ``abandoned``
    (ended from the game menu before its end; ``summary`` is empty).
    """

    id: int
    game: str
    variant: str
    started: float
    finished: float
    summary: dict[str, Any]
    actions: int
    outcome: str = "finished"


@dataclass(frozen=True)
class UnfinishedGame:
    """One line of the resume list: the game, when it was last played, how far it got.

    ``place`` is what the session stored with the game's last change (``Session.place``),
    or None for a game that has none yet.
    """

    id: int
    game: str
    variant: str
    started: float
    played: float
    actions: int
    place: dict[str, Any] | None = None


class GameResult(NamedTuple):
    """A finished game as the statistics read it: who sat where, and the result."""

    id: int
    game: str
    variant: str
    started: float
    ended: float
    summary: dict[str, Any]
    actions: int
    names: list[str | None] | None  # by seat, as the setup named them
    players: Any  # the options' players: a count, or Król Popiel's mice by colour
    demo: bool  # played on made-up data
