"""A finished game's record brought in from a file (``tableside import``).

A record must replay to a game that is over, and not be in the journal already; it is then
added as a finished game with its summary, as if played on this box.
"""

import json
from pathlib import Path

from firmware_app.session import summary
from rules.record import RecordError, replay


class RecordImportError(ValueError):
    """A record that cannot be added to the journal: says which file and why."""


def import_record(journal, path: Path, now: float) -> int:
    """Add one finished game record to the journal; refuse one already there, or unfinished."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        result = replay(record)
    except OSError as error:
        raise RecordImportError(f"{path}: cannot read: {error.strerror}") from None
    except (ValueError, RecordError) as error:
        raise RecordImportError(f"{path}: not a game record that replays: {error}") from None
    if result.final.phase != "over":
        raise RecordImportError(f"{path}: the game is not finished; only finished ones are")
    existing = journal.find_finished(record)
    if existing is not None:
        raise RecordImportError(f"{path}: already in the journal as game {existing}")
    played = record.get("played") or {}
    started, ended = played.get("started", now), played.get("ended", now)
    return journal.import_finished(record, summary(result.game, result.final), started, ended)
