"""The command line's journal commands: ``stats``, ``import`` and ``export``.

Each finds the journal the same way: ``--state-dir DIR`` names the folder, ``--config FILE``
the configuration that names it, and with neither the usual state folder is used. The folder
is always named in the output, so a wrong guess shows at once.
"""

import json
import sys
import time
from pathlib import Path

from firmware_app.cli.common import CommandError, state_dir
from firmware_app.store.faults import JournalError
from firmware_app.store.journal import Journal
from firmware_app.store.statistics import Stats, cache_of
from firmware_app.transfer.record_import import RecordImportError, import_record
from firmware_app.transfer.results import overview, write_results

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
            result = stats.player(args.player, args.game, args.variant)
        else:
            result = overview(stats, args.game, args.variant)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(stats_text(result, folder))
    return 0


def stats_text(result: dict, folder: Path) -> str:
    """The statistics as a few plain lines for a terminal."""
    if "name" in result:
        return "\n".join(_player_lines(result))
    games = result["games"]
    lines = [f"{folder}: {games['plays']} finished game(s)"]
    if games["plays"]:
        lines.append(
            f"score: best {games['best_score']} ({games['best_by'] or 'unnamed'}), "
            f"average {games['average_score']}; length: {games['average_minutes']} min"
        )
    lines += [f"  {name}: {wins} win(s)" for name, wins in games["winners"]]
    for player in result["players"]:
        lines += _player_lines(player)
    return "\n".join(lines)


def _player_lines(player: dict) -> list[str]:
    rate = "-" if player["win_rate"] is None else f"{player['win_rate']:.0%}"
    return [
        f"{player['name']}: {player['games']} game(s), {player['wins']} win(s) ({rate}), "
        f"average {player['average_score']}, best {player['best_score']}, "
        f"favourite {player['favourite'] or '-'}"
    ]


def cmd_import(args) -> int:
    journal, folder = open_journal(args, must_exist=False)
    failed = 0
    with journal:
        for path in args.records:
            try:
                game_id = import_record(journal, Path(path), now=time.time())
            except RecordImportError as error:
                print(f"tableside: {error}", file=sys.stderr)
                failed += 1
                continue
            print(f"{path}: added to {folder} as game {game_id}")
    return 1 if failed else 0


def cmd_export(args) -> int:
    journal, folder = open_journal(args)
    with journal, Stats(journal, cache_of(journal.path), _aside(journal)) as stats:
        written = write_results(journal, stats, Path(args.out))
    for path in written:
        print(path)
    records = [path for path in written if path.name.startswith("game-")]
    abandoned = sum(path.stem.endswith("-abandoned") for path in records)
    print(
        f"{len(records) - abandoned} finished, {abandoned} abandoned game(s) exported to "
        f"{args.out} from {journal.path}"
    )
    return 0
