"""Results off the box: records, a CSV, a score-keeping app's JSON, and the statistics.

Everything here reads the journal and its statistics cache (``firmware_app.store.statistics``); the
files are written atomically, so a stick pulled or a power cut mid-way leaves each file
either whole or as it was. The JSON follows the export shape of the common score-keeping
apps (BG Stats and those that read it): ``players``, ``games`` and ``plays`` whose
``playerScores`` refer to the players by id.

The files are read by people in a spreadsheet and by other programs, so they say things as
the panel does (a player's name, "Player 2", a penguin's name, a mouse's colour) in English,
whatever the panel's language: a column's header or a game's name that changed with a setting
would break a formula or an app's import made on the last file. Scores of different games are
never pooled: a Pingwiny score and a Król Popiel one do not compare, nor do the family and the
advanced variants' (the advanced one adds card bonuses and more missions).
"""

import csv
import errno
import io
import json
import time
from pathlib import Path

from firmware_app.store.atomic import write_atomically
from firmware_app.words.score_sheet import seat_name

# Every kind of game, in the order the statistics show them, by the name the files give it.
GAME_NAMES = {
    ("pingwiny", "family"): "Pingwiny z Madagaskaru (family)",
    ("pingwiny", "advanced"): "Pingwiny z Madagaskaru (advanced)",
    ("popiel", "standard"): "Król Popiel",
}
BOX_NAMES = {"pingwiny": "Pingwiny z Madagaskaru", "popiel": "Król Popiel"}
# What a seat plays with, by game: each meaning a column of its own in the CSV.
PIECES = {"pingwiny": "penguin", "popiel": "mouse colour"}
# The score sheet's parts (``rules.pingwiny.scoring.Line``) in the order it adds them up, each
# a column: the first five add up to the score. Król Popiel's score is its track alone.
SHEET_COLUMNS = (
    ("figurants", "figurant points"),
    ("penguin_bonus", "penguin bonus"),
    ("mission", "mission points"),
    ("bonus", "card bonuses"),
    ("penalty", "penalty"),
    ("cards", "figurant cards"),
)
ADVANCED_ONLY = {"bonus"}  # the family variant has no card bonuses: blank, not 0
CSV_COLUMNS = (
    "date", "game", "variant", "game number", "seat", "player", *PIECES.values(), "score",
    "winner", *(title for _, title in SHEET_COLUMNS), "demo data",
)  # fmt: skip
# What a spreadsheet would take for a formula at the start of a cell of text.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
EXPORTS = "exports"  # the state folder's folder of exports made without --out


def stamp(seconds: float) -> str:
    """A time as the score-keeping apps write it: local date and time to the second."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds))


def piece_name(game: str, piece: str | None) -> str | None:
    """A penguin by the name the panel gives it, a mouse by its colour; None for none, or
    for a mouse the table only numbered ("mouse-2": the seat says as much)."""
    if piece is None:
        return None
    if game == "popiel":
        return None if piece.startswith("mouse-") else piece
    return piece.capitalize()


def _cell(value):
    """A cell a spreadsheet shows as it is: text that starts like a formula (a record from
    another box may carry any name or mouse colour) gets the apostrophe that says "text";
    numbers stay numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return f"'{value}"
    return value


def csv_text(stats) -> str:
    """One row a player of a finished game, oldest game first; plain columns, blank where a
    column does not apply to the game (``CSV_COLUMNS``, described in docs/statistics.md)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in stats.rows():
        game_id, ended, game, variant, _, demo, seat, name, piece, score, won, breakdown = row
        parts = json.loads(breakdown) if game == "pingwiny" else {}
        if variant != "advanced":
            parts = {key: value for key, value in parts.items() if key not in ADVANCED_ONLY}
        shown = piece_name(game, piece) or ""
        cells = (
            stamp(ended), BOX_NAMES.get(game, game), "" if game == "popiel" else variant,
            game_id, seat + 1, seat_name(name, seat),
            *(shown if kind == game else "" for kind in PIECES), score,
            "yes" if won else "no", *(parts.get(key, "") for key, _ in SHEET_COLUMNS),
            "yes" if demo else "no",
        )  # fmt: skip
        writer.writerow([_cell(cell) for cell in cells])
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


def new_export_folder(state_dir: Path, now: float) -> Path:
    """A folder of its own for one export, made in the state folder's ``exports``, named by
    the UTC time (``2024-05-01T183005Z``, ``-2`` after it for a second one that second).

    A folder per export holds one moment's files together: an export never overwrites a
    file an earlier one wrote (a CSV someone annotated), and one that fails half-way is
    removed whole without touching the others.
    """
    parent = Path(state_dir) / EXPORTS
    parent.mkdir(exist_ok=True)
    name = time.strftime("%Y-%m-%dT%H%M%SZ", time.gmtime(now))
    for number in range(1, 100):
        folder = parent / (name if number == 1 else f"{name}-{number}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(errno.EEXIST, "a hundred exports made this second already", str(parent))


def kinds_played(stats, game: str | None = None, variant: str | None = None) -> list[tuple]:
    """The kinds of game (``GAME_NAMES``) with finished games, as ``game`` and ``variant``
    narrow them (None: any)."""
    return [
        kind
        for kind in GAME_NAMES
        if game in (None, kind[0]) and variant in (None, kind[1]) and stats.games(*kind)["plays"]
    ]


def _section(game: str, variant: str) -> dict:
    """One kind of game as the JSON heads its figures: its name and what its seats play."""
    return {"game": game, "variant": variant, "title": GAME_NAMES[game, variant],
            "piece": PIECES[game]}  # fmt: skip


def player_figures(stats, name: str, game: str, variant: str) -> dict:
    """One player's figures over one kind of game, the favourite piece by its name."""
    figures = stats.player(name, game, variant)
    return figures | {"favourite": piece_name(game, figures["favourite"])}


def overview(stats, game: str | None = None, variant: str | None = None) -> dict:
    """Every figure the panel shows, in one JSON object: the games and wins over all the
    kinds of game asked for, and a section a kind with its scores and players."""
    everything = stats.games(game, variant)
    sections = []
    for kind in kinds_played(stats, game, variant):
        players = [player_figures(stats, name, *kind) for name in stats.players()]
        sections.append(
            _section(*kind)
            | {"games": stats.games(*kind), "players": [p for p in players if p["games"]]}
        )
    return {
        "games": {"plays": everything["plays"], "winners": everything["winners"]},
        "last_games": stats.last_games(10, game, variant),
        "sections": sections,
    }


def player_overview(stats, name: str, game: str | None = None, variant: str | None = None) -> dict:
    """One player's figures, a section a kind of game they played."""
    sections = []
    for kind in kinds_played(stats, game, variant):
        figures = player_figures(stats, name, *kind)
        if figures["games"]:
            figures.pop("name")
            sections.append(_section(*kind) | figures)
    return {"name": name, "sections": sections}
