"""A finished game's record brought in from a file (``tableside import``).

A record comes from anywhere (a stick, a friend's box, an editor), so it is held to what
this box would have written before anything is kept: read within bounds
(``store.bounded_read``: a regular file, its size, its text, its nesting and numbers), held
to the bounds the panel and the statistics keep (``store.bounds``: names, dates, actions),
replayed to a game that is over, its scores within bounds, and not in the journal already.
Only then is it added, as a finished game with its summary, as if played on this box. The
checks need no journal (:func:`check_record`), so a command can refuse every record without
opening it.
"""

from dataclasses import dataclass
from pathlib import Path

from firmware_app.session import summary
from firmware_app.store import bounded_read, bounds
from rules.record import RecordError, replay


class RecordImportError(ValueError):
    """A record that cannot be added to the journal: one line per problem, naming the file
    (a problem told in several lines, as a catalogue's are, is one line each)."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        lines = [line for problem in problems for line in problem.splitlines()]
        self.problems = tuple(f"{path}: {line}" for line in lines)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class CheckedRecord:
    """A record that passed every check that needs no journal, and its final summary."""

    path: Path
    record: dict
    summary: dict


def check_record(path: Path) -> CheckedRecord:
    """Read and check the record at ``path``; ``RecordImportError`` says everything wrong."""
    try:
        text = bounded_read.read_text(path, bounds.RECORD_LIMIT, follow=True)
        record = bounded_read.parse_json(text)
    except OSError as error:
        raise RecordImportError(path, [f"cannot read: {error.strerror or error}"]) from None
    except bounded_read.Refused as error:
        raise RecordImportError(path, [f"not a game record: {p}" for p in error.problems]) from None
    problems = bounds.record_problems(record)
    if isinstance(record, dict) and record.get("outcome") == "abandoned":
        problems.append("the game was abandoned; only finished ones are imported")
    if problems:
        raise RecordImportError(path, problems)
    try:
        result = replay(record)
    except RecordError as error:
        raise RecordImportError(path, [f"not a game record that replays: {error}"]) from None
    if result.final.phase != "over":
        raise RecordImportError(path, ["the game is not finished; only finished ones are"])
    outcome = summary(result.game, result.final)
    problems = bounds.score_problems(outcome)
    if problems:
        raise RecordImportError(path, problems)
    return CheckedRecord(Path(path), record, outcome)


def add_record(journal, checked: CheckedRecord, now: float) -> int:
    """Add a checked record to the journal, unless it is there already; its game's id.

    ``now`` stands for the dates of a record without ``played``.
    """
    existing = journal.find_finished(checked.record)
    if existing is not None:
        raise RecordImportError(checked.path, [f"already in the journal as game {existing}"])
    played = checked.record.get("played") or {}
    started, ended = played.get("started", now), played.get("ended", now)
    return journal.import_finished(checked.record, checked.summary, started, ended)


def import_record(journal, path: Path, now: float) -> int:
    """Check the record at ``path`` and add it to the journal (:func:`add_record`)."""
    return add_record(journal, check_record(path), now)
