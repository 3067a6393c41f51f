"""The ``tableside`` command line.

Expected problems (a record that does not replay, a broken file) end with
one line on stderr and exit status 1; anything else is a bug and keeps its
traceback.
"""

import argparse
import json
import random
import sys
from pathlib import Path

from firmware_app import catalogue_files
from firmware_app.score_sheet import player_names, sheet_text
from rules.pingwiny.family import FamilyGame
from rules.pingwiny.options import Options
from rules.pingwiny.position import PositionError, score_position
from rules.record import RecordError, new_record, replay


class CommandError(Exception):
    """An expected failure: reported as one line, exit status 1."""


def _read_json(path: str) -> dict:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise CommandError(f"{path}: cannot read: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise CommandError(f"{path}: not JSON: line {error.lineno}: {error.msg}") from None


def cmd_replay(args: argparse.Namespace) -> int:
    record = _read_json(args.record)
    try:
        result = replay(record)
    except RecordError as error:
        raise CommandError(f"{args.record}: {error}") from None
    game, final = result.game, result.final
    sheet = game.score(final)
    names = player_names(game.options.names, game.n)
    if args.json:
        out = {
            "finished": final.phase == "over",
            "actions": len(result.states) - 1,
            "state": final.to_json(),
            "score": sheet.to_json(),
            "names": names,
            "catalogue": game.cards.demo_label or "printed",
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    status = "finished" if final.phase == "over" else "not finished (score so far)"
    print(f"{args.record}: {len(result.states) - 1} actions, game {status}")
    print(sheet_text(sheet, names, game.cards.demo_label))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    position = _read_json(args.position)
    catalogue = catalogue_files.load(args.catalogue, demo=bool(position.get("demo")))
    try:
        sheet, names = score_position(catalogue, position)
    except PositionError as error:
        raise CommandError(f"{args.position}: {error}") from None
    if args.json:
        print(json.dumps({"score": sheet.to_json(), "names": names}, ensure_ascii=False, indent=2))
    else:
        print(sheet_text(sheet, names, catalogue.label if catalogue.is_demo else None))
    return 0


def cmd_catalogue_check(args: argparse.Namespace) -> int:
    return catalogue_files.check_command(args.files, sys.stdout)


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Play a whole game of random legal moves on the demo deck; write its record."""
    catalogue = catalogue_files.load([], demo=True)
    options = Options(players=args.players, seed=args.seed, short=args.short)
    game = FamilyGame(catalogue, options)
    record = new_record("pingwiny", "family", options, catalogue)
    chooser = random.Random(args.seed)
    state = game.new_state()
    while state.phase != "over":
        action = chooser.choice(game.legal_actions(state))
        state, _ = game.apply(state, action)
        record["actions"].append(str(action))
    text = json.dumps(record, ensure_ascii=False, indent=1) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="tableside", description=__doc__.splitlines()[0])
    sub = top.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a game record; print the final score sheet")
    p.add_argument("record")
    p.add_argument("--json", action="store_true", help="final state and score sheet as JSON")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("score", help="score an end position given directly")
    p.add_argument("position")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--catalogue", action="append", default=[], help="an owner's catalogue file to merge"
    )
    p.set_defaults(run=cmd_score)

    p = sub.add_parser("catalogue", help="card catalogue tools")
    csub = p.add_subparsers(dest="catalogue_command", required=True)
    c = csub.add_parser("check", help="validate the catalogue; list what is still unknown")
    c.add_argument("files", nargs="*", help="owner's files to check with the shipped data")
    c.set_defaults(run=cmd_catalogue_check)

    p = sub.add_parser("selfplay", help="a random legal game on the demo deck, as a record")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--short", action="store_true")
    p.add_argument("--out", help="write the record here instead of stdout")
    p.set_defaults(run=cmd_selfplay)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except CommandError as error:
        print(f"tableside: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
