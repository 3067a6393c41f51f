"""The tableside command line: the daemon, the simulator and the tools for the box's games.

Every failure takes one path, ``main``'s error handler: an expected problem
(a file that cannot be read or written, a record that does not replay, a
value the rules refuse, a bad configuration, a part of the box that does not
answer) ends with one line on stderr per problem and exit status 1; a usage
error is argparse's, exit status 2; a reader that closed the pipe (``| head``)
ends the command quietly. Anything else is a bug: it is logged with its
traceback, exit status 1.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_app.cli.common import CommandError, UsageError, add_arguments

# Each command imports what it needs inside its function: ``tableside run``
# must draw its first frame before the rules engine and the card catalogue
# are loaded, which on a Zero 2 W takes a noticeable part of a second. For
# the same reason even argparse and json wait until a command needs them.
if TYPE_CHECKING:
    import argparse


LOG = logging.getLogger("tableside.cli")
CLOSED_PIPE = 141  # 128 + SIGPIPE: what a program stopped by a closed pipe returns
INTERRUPTED = 130  # 128 + SIGINT
HEADLESS_SEED = 1  # a script's draws are the same every run unless --seed says otherwise


def expected_problems(error: Exception) -> list[str] | None:
    """What an expected error is reported as, one item per problem; ``None`` for a bug."""
    from firmware_app.store.bounded_read import Refused
    from firmware_app.store.faults import JournalError
    from hw.errors import HardwareError
    from rules.catalogue import CatalogueError
    from rules.errors import RulesError

    if isinstance(error, CommandError | CatalogueError | HardwareError | JournalError | Refused):
        problems = getattr(error, "problems", ())  # a file's every problem, as checked
        return [str(problem) for problem in problems] or [str(error)]
    if isinstance(error, RulesError):
        return [error.text("en")]
    if isinstance(error, OSError) and error.filename is not None:
        return [f"{error.filename}: {error.strerror or error}"]
    return None


def _read_json(path: str) -> object:
    """The JSON of a record or a position named on the command line, read within the bounds
    of a record (``store.bounded_read``): a regular file, its size, text, nesting and numbers.
    Every problem is refused naming the file."""
    from firmware_app.store import bounded_read, bounds

    try:
        return bounded_read.parse_json(
            bounded_read.read_text(path, bounds.RECORD_LIMIT, follow=True)
        )
    except OSError as error:
        raise CommandError(f"{path}: cannot read: {error.strerror or error}") from None
    except bounded_read.Refused as error:
        raise bounded_read.Refused([f"{path}: {p}" for p in error.problems]) from None


def _refuse(path: str, problems: list[str]) -> None:
    """Stop the command with one line for each of ``problems``, naming the file."""
    from firmware_app.store.bounded_read import Refused

    if problems:
        raise Refused([f"{path}: {problem}" for problem in problems])


def _print_json(value: object) -> None:
    import json

    print(json.dumps(value, ensure_ascii=False, indent=2))


def _write_text(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise CommandError(f"{path}: cannot write: {error.strerror}") from None


def _is_record(document: dict) -> bool:
    from rules.record import FORMAT

    return isinstance(document, dict) and document.get("format") == FORMAT


def cmd_replay(args: argparse.Namespace) -> int:
    from firmware_app.session import summary
    from firmware_app.store.bounds import record_problems, score_problems
    from firmware_app.words.score_sheet import demo_label, game_text, player_names
    from rules.record import RecordError, replay

    record = _read_json(args.record)
    if not _is_record(record) and isinstance(record, dict) and "players" in record:
        raise CommandError(
            f"{args.record} is an end position, not a game record: "
            f"use tableside score {args.record}"
        )
    _refuse(args.record, record_problems(record) if _is_record(record) else [])
    try:
        result = replay(record)
    except RecordError as error:
        raise CommandError(f"{args.record}: {error}") from None
    game, final = result.game, result.final
    _refuse(args.record, score_problems(summary(game, final)))
    sheet = game.score(final)
    names = player_names(game.options.names, game.n)
    if args.json:
        out = {
            "finished": final.phase == "over",
            "actions": len(result.states) - 1,
            "state": final.to_json(),
            "score": sheet.to_json(),
            "names": names,
            "catalogue": demo_label(game) or "printed",
        }
        _print_json(out)
        return 0
    status = "finished" if final.phase == "over" else "not finished (score so far)"
    print(f"{args.record}: {len(result.states) - 1} actions, game {status}")
    print(game_text(game, final))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from firmware_app.store import catalogue_files
    from firmware_app.store.bounds import position_problems
    from firmware_app.words.score_sheet import sheet_text
    from rules.pingwiny.position import PositionError, score_position

    position = _read_json(args.position)
    if _is_record(position):
        raise CommandError(
            f"{args.position} is a game record, not an end position: "
            f"use tableside replay {args.position}"
        )
    if not isinstance(position, dict):
        raise CommandError(f"{args.position}: an end position is a JSON object")
    catalogue = catalogue_files.load(args.catalogue, demo=bool(position.get("demo")))
    _refuse(args.position, position_problems(position, catalogue.token_total))
    try:
        sheet, names = score_position(catalogue, position)
    except PositionError as error:
        raise CommandError(f"{args.position}: {error}") from None
    label = catalogue.label if catalogue.is_demo else None
    if args.json:  # the cards it was scored with, as every screen names them
        _print_json(
            {"score": sheet.to_json(), "names": names, "catalogue": label or catalogue.label}
        )
    else:
        print(sheet_text(sheet, names, label, variant=position.get("variant", "family")))
    return 0


def cmd_catalogue_check(args: argparse.Namespace) -> int:
    from firmware_app.store import catalogue_files

    return catalogue_files.check_command(args.files, sys.stdout)


def cmd_selfplay(args: argparse.Namespace) -> int:
    """A whole game of normal-level virtual players on the demo deck; write its record."""
    import json

    from firmware_app.store import catalogue_files
    from rules.pingwiny.options import Options
    from rules.players import play
    from rules.record import VARIANTS, new_record

    if args.out:
        _refuse_without_folder(args.out)
    catalogue = catalogue_files.load([], demo=True)
    seats = ("normal",) * args.players
    options = Options(players=args.players, seed=args.seed, short=args.short, virtual=seats)
    game = VARIANTS["pingwiny", args.variant](catalogue, options)
    record = new_record("pingwiny", args.variant, options, catalogue)
    actions, _ = play(game, game.new_state(), seats, args.seed)
    record["actions"] = [str(action) for action in actions]
    text = json.dumps(record, ensure_ascii=False, indent=1) + "\n"
    if args.out:
        _write_text(args.out, text)
    else:
        sys.stdout.write(text)
    return 0


def _refuse_without_folder(path: str) -> None:
    """A file to write in a folder that does not exist is refused before a whole game is
    played for it (seconds on a laptop, a minute on a Zero 2 W)."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise CommandError(f"{path}: cannot write: no folder {folder}")


def cmd_run(args: argparse.Namespace) -> int:
    return _run_daemon(args.config, args.first_frame, args.home)


def _run_daemon(config: str | None, first_frame: bool, home: bool) -> int:
    """The daemon, with the garbage collector paused until its home menu is shown.

    Start-up imports a few hundred modules and makes objects by the thousand but no
    garbage, and each collection on the way walks all of them again: a Zero 2 W, slow
    to import Python, would show the home menu later for nothing. ``run`` turns the
    collector back on once the home menu is shown; here it is on again in any case.
    """
    import gc

    gc.disable()
    try:
        from firmware_app.runners.daemon import run

        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        return run(config, first_frame=first_frame, home=home)
    finally:
        gc.enable()


def cmd_sim(args: argparse.Namespace) -> int:
    if not args.headless:
        from firmware_app.runners.terminal import run_terminal

        return run_terminal(args.state_dir, args.language, args.seed, _sim_buttons(args))
    from firmware_app.runners.headless import ScriptError, read_script, run_script
    from firmware_app.words.score_sheet import game_text

    if not args.script:
        raise UsageError("sim --headless needs --script FILE")
    fitted = _sim_buttons(args)
    try:
        lines = read_script(args.script)
    except OSError as error:
        raise CommandError(f"{args.script}: cannot read: {error.strerror or error}") from None
    except ScriptError as error:
        raise CommandError(f"{args.script}: {error}") from None
    state_dir = Path(args.state_dir) if args.state_dir else None
    seed = HEADLESS_SEED if args.seed is None else args.seed
    try:
        sim = run_script(lines, state_dir, language=args.language, seed=seed, fitted=fitted)
    except ScriptError as error:
        raise CommandError(f"{args.script}: {error}") from None
    try:  # a closed pipe too stops the box cleanly: its scratch state folder is removed
        summary = sim.summary()
        if args.json:
            _print_json(summary)
        else:
            for frame in sim.frames:
                print(frame)
                print("-" * 24)
            if summary["score"]:
                print(game_text(sim.app.session.game, sim.app.session.state))
    finally:
        sim.close()
    return 0


def _sim_buttons(args: argparse.Namespace) -> tuple[str, ...]:
    """The simulated build's buttons: ``--buttons 4`` (UP, DOWN, OK, BACK), a
    configuration's button set (the buttons its pins table wires), or all eleven."""
    from hw.buttons import NAMES

    if args.buttons is not None:
        return NAMES[: args.buttons]
    if args.config is None:
        return NAMES
    from firmware_app.store.config import load_config

    pins = load_config(args.config).buttons["pins"]  # a ConfigError is reported as it is
    return tuple(name for name in NAMES if name in pins)


def cmd_demo(args: argparse.Namespace) -> int:
    from firmware_app.runners.demo import write_demo_gif

    _refuse_without_folder(args.gif)
    try:
        frames = write_demo_gif(
            Path(args.gif), players=args.players, seed=args.seed, printed=args.printed
        )
    except OSError as error:
        raise CommandError(f"{args.gif}: cannot write: {error.strerror}") from None
    print(f"{args.gif}: {frames} frames")
    return 0


def cmd_journal(args: argparse.Namespace) -> int:
    """``stats``, ``import`` and ``export``: the commands that read the journal."""
    from firmware_app.cli import results

    return getattr(results, f"cmd_{args.command}")(args)


def cmd_backup(args: argparse.Namespace) -> int:
    """``backup`` and ``restore`` of the whole state."""
    from firmware_app.cli import backup

    return getattr(backup, f"cmd_{args.command}")(args)


def parser() -> argparse.ArgumentParser:
    """Every command with its options and help, in plain words (``tableside --help``)."""
    import argparse

    top = argparse.ArgumentParser(
        prog="tableside",
        description="Tableside, a board-game assistant on a Raspberry Pi: the daemon behind "
        "its panel, a simulator of the panel, and tools for its games, results and backups.",
        epilog="Each command explains its own options: tableside COMMAND --help. "
        "stats, export, import, backup and restore find the box's games by --state-dir DIR "
        "or --config FILE; with neither, in the usual state folder.",
    )
    sub = top.add_subparsers(dest="command", required=True, title="commands", metavar="COMMAND")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")

    p = command("replay", "replay a game record; print the final score sheet")
    p.add_argument("record", help="a game record (JSON), as export writes them")
    p.add_argument("--json", action="store_true", help="final state and score sheet as JSON")
    p.set_defaults(run=cmd_replay)

    p = command("score", "score a Pingwiny end position written by hand (docs/game-record.md)")
    p.add_argument("position", help="the end position (JSON)")
    p.add_argument("--json", action="store_true", help="the score sheet as JSON")
    p.add_argument(
        "--catalogue", action="append", default=[], help="an owner's catalogue file to merge"
    )
    p.set_defaults(run=cmd_score)

    p = command("catalogue", "card catalogue tools")
    csub = p.add_subparsers(
        dest="catalogue_command", required=True, title="commands", metavar="COMMAND"
    )
    c = csub.add_parser(
        "check",
        help="validate the catalogue; list what is still unknown",
        description="Validate the shipped card data and the owner's files; list the values "
        "still unknown, which the panel asks for when a game needs them.",
    )
    c.add_argument("files", nargs="*", help="owner's files to check with the shipped data")
    c.set_defaults(run=cmd_catalogue_check)

    p = command("run", "run the daemon: the panel, the buttons and the reader")
    p.add_argument("--config", help="the configuration file (default: simulator settings)")
    stop = p.add_mutually_exclusive_group()
    stop.add_argument(
        "--first-frame",
        action="store_true",
        help="exit once the first frame is shown, printing when (for benchmarks/startup.py)",
    )
    stop.add_argument(
        "--home",
        action="store_true",
        help="start fully, exit cleanly once the home menu is shown, printing when the first "
        "frame and the home menu were shown (for benchmarks/startup.py and history.py)",
    )
    p.set_defaults(run=cmd_run)

    p = command("sim", "the simulator: the panel in the terminal, keys for buttons")
    p.add_argument("--headless", action="store_true", help="run a script on the fakes")
    p.add_argument("--script", help="the script of button and tag events (docs/sim-script.md)")
    p.add_argument("--json", action="store_true", help="final state and score sheet as JSON")
    build = p.add_mutually_exclusive_group()
    build.add_argument(
        "--buttons",
        type=int,
        choices=[4, 11],
        help="the build's buttons: 4 (UP, DOWN, OK, BACK; colours from lists) or 11 (default)",
    )
    build.add_argument("--config", help="a configuration file: the buttons its pins wire")
    p.add_argument(
        "--state-dir",
        help="where the journal lives (default: the usual state folder; with --headless, "
        "a new temporary one, removed at the end)",
    )
    p.add_argument(
        "--language",
        choices=["pl", "en"],
        help="the language of this run (default: the stored setting, English at first)",
    )
    p.add_argument(
        "--seed",
        type=int,
        help="seed of the app's shuffles and draws (default: a fresh one, shown; "
        f"with --headless, {HEADLESS_SEED})",
    )
    p.set_defaults(run=cmd_sim)

    p = command("demo", "play a whole demo game; write the panel as a GIF")
    p.add_argument("--gif", required=True, help="the GIF file to write")
    p.add_argument("--players", type=int, default=3, help="how many play (default: 3)")
    p.add_argument("--seed", type=int, default=1, help="seed of the game's draws (default: 1)")
    p.add_argument(
        "--printed",
        action="store_true",
        help="the printed box from an empty owner's file: the autopilot makes up every value "
        "the panel asks for",
    )
    p.set_defaults(run=cmd_demo)

    p = command("export", "finished games as records, a CSV and a score-keeping app's JSON")
    add_arguments(p)
    p.add_argument(
        "--out",
        help="the folder to write them to (default: a new folder in the state folder's "
        "exports/, named by the time; its name is printed)",
    )
    p.set_defaults(run=cmd_journal)

    p = command("stats", "statistics of the finished games, a block per game")
    add_arguments(p)
    p.add_argument("--game", choices=["pingwiny", "popiel"], help="only this game")
    p.add_argument(
        "--variant", choices=["family", "advanced", "standard"], help="only this variant"
    )
    p.add_argument("--player", help="one player's figures")
    p.add_argument("--json", action="store_true", help="the same figures as JSON")
    p.set_defaults(run=cmd_journal)

    p = command("import", "add finished game records to the journal")
    add_arguments(p)
    p.add_argument("records", nargs="+", help="game record files")
    p.set_defaults(run=cmd_journal)

    p = command("backup", "back up the box's games, settings and owner's files")
    add_arguments(p)
    p.add_argument("--to", required=True, help="the folder to make the backup's folder in")
    p.set_defaults(run=cmd_backup)

    p = command("restore", "replace the box's state by a backup (the old one kept aside)")
    add_arguments(p)
    p.add_argument("--from", dest="source", required=True, help="a backup or a folder of them")
    p.add_argument("--yes", action="store_true", help="replace without asking")
    p.set_defaults(run=cmd_backup)

    p = command("selfplay", "a game of normal-level virtual players on the demo deck, as a record")
    p.add_argument("--players", type=int, default=3, help="how many play (default: 3)")
    p.add_argument("--seed", type=int, default=1, help="seed of the game's draws (default: 1)")
    p.add_argument("--short", action="store_true", help="the short game")
    p.add_argument(
        "--variant",
        choices=["family", "advanced"],
        default="family",
        help="the rules played (default: family)",
    )
    p.add_argument("--out", help="write the record here instead of stdout")
    p.set_defaults(run=cmd_selfplay)
    return top


def _plain_run(argv: list[str]) -> tuple[str | None, bool, bool] | None:
    """``(config, first_frame, home)`` when ``argv`` is a plain ``run``, else ``None``.

    The daemon starts from a fixed command line in its unit, and building the
    full parser (argparse, its help formatter and translations) would hold up
    its first frame. Only the unambiguous forms are read here: ``run``, then
    ``--config FILE`` and one of ``--first-frame`` and ``--home``, each at most
    once. Anything else, help and mistakes included, goes to the full parser.
    """
    if argv[:1] != ["run"]:
        return None
    config, first_frame, home = None, False, False
    words = iter(argv[1:])
    for word in words:
        if word == "--first-frame" and not (first_frame or home):
            first_frame = True
        elif word == "--home" and not (first_frame or home):
            home = True
        elif word == "--config" and config is None:
            config = next(words, "-")
            if config.startswith("-"):  # missing, or an option: argparse says which
                return None
        else:
            return None
    return config, first_frame, home


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status (argparse exits 2 itself on a usage error)."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        plain = _plain_run(argv)
        if plain is not None:
            status = _run_daemon(*plain)
        else:
            args = parser().parse_args(argv)
            status = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit past the handler
        return status
    except BrokenPipeError:
        _drop_stdout()
        return CLOSED_PIPE
    except KeyboardInterrupt:
        return INTERRUPTED
    except Exception as error:
        problems = expected_problems(error)
        if problems is None:
            LOG.exception("unexpected error, a bug: please report it with this traceback")
            return 1
        for problem in problems:
            for line in problem.splitlines():  # a record's catalogue problems, one a line
                print(f"tableside: {line}", file=sys.stderr)
        return 2 if isinstance(error, UsageError) else 1


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush finds no closed pipe."""
    from contextlib import suppress

    with suppress(OSError, ValueError):  # no real stdout (as under pytest): nothing to drop
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
