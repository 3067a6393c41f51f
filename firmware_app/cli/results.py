"""The command line's journal commands: ``stats``, ``import`` and ``export``.

Each finds the journal the same way: ``--state-dir DIR`` names the folder, ``--config FILE``
the configuration that names it, and with neither the usual state folder is used. The folder
is always named in the output, so a wrong guess shows at once.
"""

import json
import shutil
import sys
import time
from pathlib import Path

from firmware_app.cli.common import CommandError, state_dir
from firmware_app.store.faults import JournalError
from firmware_app.store.journal import Journal
from firmware_app.store.statistics import Stats, cache_of
from firmware_app.transfer.record_import import RecordImportError, add_record, check_record
from firmware_app.transfer.results import (
    BOX_NAMES,
    GAME_NAMES,
    new_export_folder,
    overview,
    player_overview,
    write_results,
)

VERBS = {"stats": "show", "export": "export"}


def open_journal(args, must_exist: bool = True) -> tuple[Journal, Path]:
    """The journal the arguments name; a missing one is refused (opening would create it)."""
    folder = state_dir(args)
    path = folder / "journal.sqlite"
    if must_exist and not path.exists():
        if args.state_dir:
            where = "that folder"
        else:
            where = (
                f"the state folder of {args.config}" if args.config else "the default state folder"
            )
        hint = (
            ""
            if args.config or args.state_dir
            else "; give the box's configuration with --config FILE"
        )
        raise CommandError(
            f"{folder}: no journal in {where}, nothing to {VERBS[args.command]}{hint}"
        )
    folder.mkdir(parents=True, exist_ok=True)
    try:
        return Journal(path), folder
    except JournalError as error:
        raise CommandError(str(error)) from None


def _aside(journal):
    """A finished game the statistics cannot count is kept aside, as the check after
    start-up keeps a damaged one (its row in ``journal.damaged-game-NNNNN-TIME.json``)."""
    from firmware_app.store.housekeeping import keep_game_aside

    def keep(game_id: int, problem: str) -> None:  # both are logged
        keep_game_aside(journal, game_id, time.time, from_archive=False)

    return keep


def cmd_stats(args) -> int:
    journal, folder = open_journal(args)
    with journal, Stats(journal, cache_of(journal.path), _aside(journal)) as stats:
        stats.refresh()
        if args.player:
            known = stats.players()
            if args.player not in known:
                names = ", ".join(known) or "none yet"
                raise CommandError(f"no player {args.player!r} in {folder} (known: {names})")
            result = player_overview(stats, args.player, args.game, args.variant)
        else:
            result = overview(stats, args.game, args.variant)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(stats_text(result, folder, _asked(args.game, args.variant)))
    return 0


def _asked(game: str | None, variant: str | None) -> str:
    """The games ``--game`` and ``--variant`` ask for, in words ("": all of them)."""
    if game and variant:
        return GAME_NAMES.get((game, variant), f"{BOX_NAMES[game]} ({variant})")
    if game:
        return BOX_NAMES[game]
    return f"the {variant} variant" if variant else ""


def stats_text(result: dict, folder: Path, only: str = "") -> str:
    """The statistics as plain lines for a terminal: a block a kind of game, each with its
    own scores (scores of different games do not compare), players by name, pieces by the
    name the panel gives them. ``only`` names the kinds asked for, when not all."""
    of = f" of {only}" if only else ""
    if "name" in result:
        if not result["sections"]:
            return f"{result['name']} in {folder}: no finished games{of}"
        lines = [f"{result['name']} in {folder}:"]
        for section in result["sections"]:
            lines.append(f"  {section['title']}: " + _player_figures(section))
        return "\n".join(lines)
    games = result["games"]
    if not games["plays"]:
        return f"{folder}: no finished games{of} yet"
    lines = [f"{folder}: {_count(games['plays'], 'finished game')}"]
    if len(result["sections"]) > 1:
        counts = ", ".join(f"{s['games']['plays']} {s['title']}" for s in result["sections"])
        lines[0] += f" ({counts})"
        wins = ", ".join(f"{name} {wins}" for name, wins in games["winners"])
        lines.append(f"Wins over all these games: {wins or 'none by a named player'}")
    for section in result["sections"]:
        figures = section["games"]
        minutes = figures["average_minutes"]  # 0: records brought in without their times
        lines += [
            "",
            f"{section['title']}: {_count(figures['plays'], 'game')}"
            + (f", {minutes} min on average" if minutes else ""),
            f"  best score {figures['best_score']} ({figures['best_by'] or 'a seat with no name'})"
            f", average score {figures['average_score']}",
        ]
        lines += [f"  {player['name']}: " + _player_figures(player, section["piece"])
                  for player in section["players"]]  # fmt: skip
    return "\n".join(lines)


def _player_figures(player: dict, piece: str | None = None) -> str:
    """One player's games, wins, scores and favourite piece over one kind of game."""
    rate = "-" if player["win_rate"] is None else f"{player['win_rate']:.0%}"
    piece = piece or player["piece"]
    return (
        f"{_count(player['games'], 'game')}, {_count(player['wins'], 'win')} ({rate}), "
        f"average score {player['average_score']}, best {player['best_score']}, "
        f"favourite {piece}: {player['favourite'] or '-'}"
    )


def _count(number: int, word: str) -> str:
    return f"{number} {word}" + ("" if number == 1 else "s")


def cmd_import(args) -> int:
    """Every record is checked first, without the journal; only then is the journal opened
    for those that passed: a refused record changes nothing, and when every one is refused
    no journal is made."""
    checked, failed = [], 0
    for path in args.records:
        try:
            checked.append(check_record(Path(path)))
        except RecordImportError as error:
            _refused(error)
            failed += 1
    if not checked:
        return 1
    journal, folder = open_journal(args, must_exist=False)
    with journal:
        for record in checked:
            try:
                game_id = add_record(journal, record, now=time.time())
            except RecordImportError as error:
                _refused(error)
                failed += 1
                continue
            print(f"{record.path}: added to {folder} as game {game_id}")
    return 1 if failed else 0


def _refused(error: RecordImportError) -> None:
    for problem in error.problems:
        print(f"tableside: {problem}", file=sys.stderr)


def cmd_export(args) -> int:
    """Write the results into ``--out``, or into a new folder under the state folder's
    ``exports`` (never the current folder, unasked); a refusal of the storage (a full card, a
    read-only folder) is one line, and a new folder is removed with what it got."""
    journal, state = open_journal(args)
    out = Path(args.out) if args.out else None
    try:
        with journal, Stats(journal, cache_of(journal.path), _aside(journal)) as stats:
            out = out or new_export_folder(state, time.time())
            written = write_results(journal, stats, out)
    except OSError as error:
        if out is not None and not args.out:
            shutil.rmtree(out, ignore_errors=True)
        where = error.filename or out or state
        why = error.strerror or error
        raise CommandError(f"{where}: cannot write the results: {why}") from None
    for path in written:
        print(path)
    records = [path for path in written if path.name.startswith("game-")]
    abandoned = sum(path.stem.endswith("-abandoned") for path in records)
    print(
        f"{len(records) - abandoned} finished, {abandoned} abandoned game(s) exported to "
        f"{out} from {journal.path}"
    )
    return 0
