"""Results off the box: records, a CSV, a score-keeping app's JSON, and records brought in.

Everything here reads the journal and its statistics cache (``firmware_app.store.statistics``); the
files are written atomically, so a stick pulled or a power cut mid-way leaves each file
either whole or as it was. The JSON follows the export shape of the common score-keeping
apps (BG Stats and those that read it): ``players``, ``games`` and ``plays`` whose
``playerScores`` refer to the players by id.
"""

import csv
import io
import json
import time
from pathlib import Path

from firmware_app.store.atomic import write_atomically
from firmware_app.words.score_sheet import seat_name

GAME_NAMES = {
    ("pingwiny", "family"): "Pingwiny z Madagaskaru (family)",
    ("pingwiny", "advanced"): "Pingwiny z Madagaskaru (advanced)",
    ("popiel", "standard"): "Król Popiel",
}
CSV_COLUMNS = (
    "date", "game", "variant", "game_id", "seat", "player", "penguin", "score", "breakdown",
    "winner", "demo_deck",
)  # fmt: skip


def stamp(seconds: float) -> str:
    """A time as the score-keeping apps write it: local date and time to the second."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds))


def csv_text(stats) -> str:
    """One row a player of a finished game, oldest game first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for (
        game_id,
        ended,
        game,
        variant,
        _,
        demo,
        seat,
        name,
        piece,
        score,
        won,
        breakdown,
    ) in stats.rows():
        writer.writerow(
            [
                stamp(ended), game, variant, game_id, seat + 1, seat_name(name, seat),
                piece or "", score, breakdown, "yes" if won else "no", "yes" if demo else "no",
            ]
        )  # fmt: skip
    return out.getvalue()


def score_app_json(stats) -> dict:
    """Players, games and plays in the score-keeping apps' export shape."""
    players: dict[str, int] = {}
    games: dict[tuple[str, str], int] = {}
    plays: dict[int, dict] = {}
    for game_id, ended, game, variant, started, _, seat, name, _, score, won, _ in stats.rows():
        label = seat_name(name, seat)
        player_id = players.setdefault(label, len(players) + 1)
        game_ref = games.setdefault((game, variant), len(games) + 1)
        play = plays.setdefault(
            game_id,
            {
                "uuid": f"tableside-game-{game_id}",
                "gameRefId": game_ref,
                "playDate": stamp(started),
                "durationMin": max(0, round((ended - started) / 60)),
                "playerScores": [],
            },
        )
        play["playerScores"].append(
            {"playerRefId": player_id, "score": str(score), "winner": bool(won), "seatOrder": seat}
        )
    return {
        "players": [{"id": i, "name": name} for name, i in players.items()],
        "games": [
            {"id": i, "name": GAME_NAMES.get(kind, "/".join(kind))} for kind, i in games.items()
        ],
        "plays": list(plays.values()),
    }


def result_files(journal, stats) -> dict[str, bytes]:
    """Every finished game's record, the CSV, the apps' JSON and the statistics: name to bytes."""
    stats.refresh()
    files = journal.export_files()
    texts = {
        "results.csv": csv_text(stats),
        "results-scorekeeping.json": json.dumps(score_app_json(stats), ensure_ascii=False),
        "statistics.json": json.dumps(overview(stats), ensure_ascii=False, indent=2),
    }
    for name, text in texts.items():
        files[name] = (text + ("" if text.endswith("\n") else "\n")).encode("utf-8")
    return files


def write_results(journal, stats, folder: Path) -> list[Path]:
    """:func:`result_files` written in ``folder``, each file atomically; returns their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in result_files(journal, stats).items():
        write_atomically(folder / name, data)
        written.append(folder / name)
    return written


def overview(stats, game: str | None = None, variant: str | None = None) -> dict:
    """All the statistics the panel shows, in one JSON object."""
    return {
        "games": stats.games(game, variant),
        "players": [stats.player(name, game, variant) for name in stats.players()],
        "last_games": stats.last_games(10, game, variant),
    }
