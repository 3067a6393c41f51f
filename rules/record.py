"""Game records: one JSON format for export, examples, replay and tests.

A record holds everything needed to play a game again exactly: the game and
variant, the setup options (seed, or who dealt what), the catalogue the
cards came from, and the actions in order. The format is documented in
``docs/game-record.md``. This module only turns records into games and
states; reading and writing files is the application's job.
"""

from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from rules.actions import Action
from rules.errors import RulesError

if TYPE_CHECKING:
    from rules.pingwiny.state import State

FORMAT = "tableside-game-record"
VERSION = 1


@cache
def _engines() -> tuple[dict, dict]:
    """``VARIANTS`` and ``READERS``, made at their first use.

    The application imports this module at start (the journal checks ``FORMAT``),
    long before any game is replayed, and the engines are most of what a slow
    board such as a Zero 2 W spends on importing the rules; so they are imported
    here, when a record is first turned into a game or a module asks for them.
    """
    from rules.catalogue import Catalogue
    from rules.pingwiny.advanced import AdvancedGame
    from rules.pingwiny.family import FamilyGame
    from rules.pingwiny.options import Options
    from rules.popiel.game import Components, PopielGame, PopielOptions

    variants = {
        ("pingwiny", "family"): FamilyGame,
        ("pingwiny", "advanced"): AdvancedGame,
        ("popiel", "standard"): PopielGame,
    }
    # How each game reads its setup options and its box description back from a record.
    readers = {
        "pingwiny": (Options.from_json, Catalogue.from_dict),
        "popiel": (PopielOptions.from_json, Components.from_dict),
    }
    return variants, readers


def __getattr__(name: str):
    """``VARIANTS`` (each game's engine, by ``(game, variant)``) and ``READERS``, imported
    on first use: ``from rules.record import VARIANTS`` works as for any module global."""
    if name == "VARIANTS":
        return _engines()[0]
    if name == "READERS":
        return _engines()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class RecordError(ValueError):
    """A record is not well formed or does not replay; says where and why."""

    def __init__(self, message: str, index: int | None = None, cause: RulesError | None = None):
        self.index = index
        self.cause = cause
        super().__init__(message)


@dataclass(frozen=True)
class Replay:
    game: object  # FamilyGame, AdvancedGame or PopielGame
    states: tuple["State", ...]  # the state before the first action, then after each
    events: tuple[tuple[dict, ...], ...]

    @property
    def final(self) -> "State":
        return self.states[-1]


def new_record(game_name: str, variant: str, options, catalogue) -> dict:
    """An empty record for a game about to start."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game_name,
        "variant": variant,
        "options": options.to_json(),
        "catalogue": catalogue.to_dict(),
        "actions": [],
    }


def game_of(record: dict):
    """The game object a record describes (options and catalogue checked)."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a game record: 'format' must be '{FORMAT}'")
    if record.get("version") != VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r}")
    name, variant = record.get("game"), record.get("variant")
    texts = isinstance(name, str) and isinstance(variant, str)
    variants, readers = _engines()
    kind = variants.get((name, variant)) if texts else None
    if kind is None:
        raise RecordError(f"unknown game or variant: {name}/{variant}")
    read_options, read_box = readers[name]
    with _setup():
        return kind(read_box(record["catalogue"]), read_options(record["options"]))


@contextmanager
def _setup():
    """Reading a record's options and box, and dealing from them: a value of the wrong
    shape fails somewhere inside, and is reported as the record's fault, not a crash."""
    try:
        yield
    except KeyError as missing:
        raise RecordError(f"the record has no {missing}") from None
    except (RulesError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise RecordError(f"the record's setup is refused: {error}") from error


def replay(record: dict) -> Replay:
    """Play every action of the record; a refused action rejects it whole."""
    game = game_of(record)
    with _setup():
        state = game.new_state()
    states, events = [state], []
    actions = record.get("actions")
    if not isinstance(actions, list):
        raise RecordError("the record's 'actions' must be a list")
    for index, notation in enumerate(actions, start=1):
        try:
            state, happened = game.apply(state, Action.parse(notation))
        except RulesError as error:
            message = f"action {index} '{notation}' is refused: {error}"
            raise RecordError(message, index, error) from error
        states.append(state)
        events.append(tuple(happened))
    return Replay(game, tuple(states), tuple(events))
