"""Statistics of finished games, answered by indexed SQL from a small cache beside the journal.

The journal keeps each finished game as its header and summary in JSON; parsing ten thousand
of those every time a statistics screen opens would take seconds on a Zero 2 W. So the games
are indexed once into ``stats.sqlite`` (one row a game, one row a player of a game), and each
time statistics are asked for, only the games finished since the last time are added. The
cache is derived data: it is rebuilt from the journal whenever it is missing, damaged, or
does not match the journal (a restored journal, say); deleting it loses nothing.

Only finished games count; abandoned ones are never played out. A seat without a name
("Player 2") is counted in the game's figures but is nobody's in the players' figures: it is
a different person each time.
"""

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

CACHE_VERSION = 1
_SCHEMA = (
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL,
        started REAL NOT NULL, ended REAL NOT NULL, players INTEGER NOT NULL,
        actions INTEGER NOT NULL, demo INTEGER NOT NULL)""",
    "CREATE INDEX games_by_kind ON games (game, variant, ended)",
    """CREATE TABLE plays (
        game_id INTEGER NOT NULL REFERENCES games (id), seat INTEGER NOT NULL,
        name TEXT, piece TEXT, score INTEGER NOT NULL, won INTEGER NOT NULL,
        breakdown TEXT NOT NULL, PRIMARY KEY (game_id, seat)) WITHOUT ROWID""",
    "CREATE INDEX plays_by_name ON plays (name, game_id)",
    f"PRAGMA user_version = {CACHE_VERSION}",
)
# A filter by game and variant: NULL matches any.
_KIND = "(?1 IS NULL OR g.game = ?1) AND (?2 IS NULL OR g.variant = ?2)"


@dataclass(frozen=True)
class Play:
    """One player's result in one finished game."""

    seat: int
    name: str | None
    piece: str | None  # the penguin or the mouse colour
    score: int
    won: bool
    breakdown: dict


@dataclass(frozen=True)
class FinishedPlay:
    """A finished game as the statistics see it."""

    id: int
    game: str
    variant: str
    started: float
    ended: float
    actions: int
    demo: bool
    plays: tuple[Play, ...]


def plays_of(names, players, summary: dict) -> tuple[Play, ...]:
    """Each seat's result from the setup's names and players and the game's summary."""
    names = names or []
    winners = set(summary.get("winners", []))
    if "players" in summary:  # Pingwiny: the score sheet's lines
        lines = summary["players"]
        pieces = [line.get("penguin") for line in lines]
        scores = [line["total"] for line in lines]
        breakdowns = [
            {k: v for k, v in line.items() if k not in ("player", "penguin")} for line in lines
        ]
    else:  # Król Popiel: the track; its seats are the mice, by colour
        scores = list(summary.get("scores", []))
        pieces = list(players) if isinstance(players, list) else [None] * len(scores)
        breakdowns = [{"track": score} for score in scores]
    return tuple(
        Play(
            seat,
            names[seat] if seat < len(names) and names[seat] else None,
            pieces[seat] if seat < len(pieces) else None,
            int(scores[seat]),
            seat in winners,
            breakdowns[seat],
        )
        for seat in range(len(scores))
    )


class Stats:
    """The statistics cache of one journal; ``refresh`` brings it up to date."""

    def __init__(self, journal, path: Path) -> None:
        self.journal, self.path = journal, Path(path)
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, isolation_level=None)
            if db.execute("PRAGMA user_version").fetchone()[0] != CACHE_VERSION:
                raise sqlite3.DatabaseError("not a statistics cache of this version")
            return db
        except sqlite3.DatabaseError:
            if "db" in locals():
                db.close()
            return self._rebuilt()

    def _rebuilt(self) -> sqlite3.Connection:
        """A new, empty cache in place of whatever was there (it is only derived data)."""
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("BEGIN")
        for statement in _SCHEMA:
            db.execute(statement)
        db.execute("COMMIT")
        return db

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Stats":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------ refresh

    def refresh(self) -> int:
        """Add the games finished since the last refresh; return how many were added.

        The newest cached game must still be in the journal with the same start time;
        otherwise the journal was replaced and the cache starts again.
        """
        last = self._db.execute("SELECT id, started FROM games ORDER BY id DESC LIMIT 1").fetchone()
        if last is not None and self.journal.started_at(last[0]) != last[1]:
            self._db.close()
            self._db = self._rebuilt()
            last = None
        new = self.journal.results(after=last[0] if last else 0)
        if not new:
            return 0
        self._db.execute("BEGIN")
        for game in new:
            plays = plays_of(game.names, game.players, game.summary)
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.id,
                    game.game,
                    game.variant,
                    game.started,
                    game.ended,
                    len(plays),
                    game.actions,
                    game.demo,
                ),
            )
            self._db.executemany(
                "INSERT INTO plays VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (game.id, p.seat, p.name, p.piece, p.score, p.won, json.dumps(p.breakdown))
                    for p in plays
                ],
            )
        self._db.execute("COMMIT")
        return len(new)

    # ------------------------------------------------------------ queries

    def games(self, game: str | None = None, variant: str | None = None) -> dict:
        """Per game: plays, winners by wins, best and average score, average length."""
        row = self._db.execute(
            f"""SELECT count(*), avg(g.ended - g.started), avg(g.actions)
            FROM games AS g WHERE {_KIND}""",
            (game, variant),
        ).fetchone()
        # One of the rows with the best score comes with it (SQLite's rule for max()).
        best, by, average = self._db.execute(
            f"""SELECT max(p.score), p.name, avg(p.score) FROM plays AS p JOIN games AS g
            ON g.id = p.game_id WHERE {_KIND}""",
            (game, variant),
        ).fetchone()
        return {
            "plays": row[0],
            "average_minutes": round(row[1] / 60, 1) if row[1] is not None else None,
            "average_actions": round(row[2], 1) if row[2] is not None else None,
            "best_score": best,
            "best_by": by,
            "average_score": round(average, 1) if average is not None else None,
            "winners": self.wins(game, variant),
        }

    def wins(self, game: str | None = None, variant: str | None = None) -> list[tuple[str, int]]:
        """Named players with their wins, most first (a shared win counts for each winner)."""
        rows = self._db.execute(
            f"""SELECT p.name, sum(p.won) AS wins FROM plays AS p JOIN games AS g
            ON g.id = p.game_id WHERE p.name IS NOT NULL AND {_KIND}
            GROUP BY p.name ORDER BY wins DESC, p.name""",
            (game, variant),
        )
        return [(name, wins) for name, wins in rows]

    def players(self) -> list[str]:
        """Every named player, the most games first."""
        rows = self._db.execute(
            """SELECT name FROM plays WHERE name IS NOT NULL
            GROUP BY name ORDER BY count(*) DESC, name"""
        )
        return [name for (name,) in rows]

    def player(self, name: str, game: str | None = None, variant: str | None = None) -> dict:
        """One player: games, wins, win rate, average and best score, favourite piece, last 10."""
        played, wins, average, best = self._db.execute(
            f"""SELECT count(*), coalesce(sum(p.won), 0), avg(p.score), max(p.score)
            FROM plays AS p JOIN games AS g ON g.id = p.game_id WHERE p.name = ?3 AND {_KIND}""",
            (game, variant, name),
        ).fetchone()
        favourite = self._db.execute(
            f"""SELECT p.piece FROM plays AS p JOIN games AS g ON g.id = p.game_id
            WHERE p.name = ?3 AND p.piece IS NOT NULL AND {_KIND}
            GROUP BY p.piece ORDER BY count(*) DESC, p.piece LIMIT 1""",
            (game, variant, name),
        ).fetchone()
        last = self._db.execute(
            f"""SELECT g.id, g.ended, g.game, g.variant, p.score, p.won
            FROM plays AS p JOIN games AS g ON g.id = p.game_id
            WHERE p.name = ?3 AND {_KIND} ORDER BY g.ended DESC, g.id DESC LIMIT 10""",
            (game, variant, name),
        )
        return {
            "name": name,
            "games": played,
            "wins": wins,
            "win_rate": round(wins / played, 3) if played else None,
            "average_score": round(average, 1) if average is not None else None,
            "best_score": best,
            "favourite": favourite[0] if favourite else None,
            "last": [
                {"id": i, "ended": e, "game": g, "variant": v, "score": s, "won": bool(w)}
                for i, e, g, v, s, w in last
            ],
        }

    def head_to_head(
        self, first: str, second: str, game: str | None = None, variant: str | None = None
    ) -> dict:
        """Two players over the games they both played: who won, and how often together."""
        row = self._db.execute(
            f"""SELECT count(*), coalesce(sum(a.won AND NOT b.won), 0),
                coalesce(sum(b.won AND NOT a.won), 0), coalesce(sum(a.won AND b.won), 0)
            FROM plays AS a JOIN plays AS b ON b.game_id = a.game_id
            JOIN games AS g ON g.id = a.game_id
            WHERE a.name = ?3 AND b.name = ?4 AND {_KIND}""",
            (game, variant, first, second),
        ).fetchone()
        return {
            "players": [first, second],
            "games": row[0],
            "wins": [row[1], row[2]],
            "shared": row[3],
            "neither": row[0] - row[1] - row[2] - row[3],
        }

    def last_games(
        self, count: int = 10, game: str | None = None, variant: str | None = None
    ) -> list[dict]:
        """The newest finished games with their date and winners."""
        rows = self._db.execute(
            f"""SELECT g.id, g.ended, g.game, g.variant, g.players,
                (SELECT json_group_array(json_array(w.seat, w.name)) FROM plays AS w
                 WHERE w.game_id = g.id AND w.won)
            FROM games AS g WHERE {_KIND} ORDER BY g.ended DESC, g.id DESC LIMIT ?3""",
            (game, variant, count),
        )
        return [
            {
                "id": i,
                "ended": e,
                "game": g,
                "variant": v,
                "players": n,
                "winners": [{"seat": s, "name": w} for s, w in json.loads(winners)],
            }
            for i, e, g, v, n, winners in rows
        ]

    def rows(self) -> list[tuple]:
        """One row a player of a game, oldest game first: what the CSV export writes."""
        return self._db.execute(
            """SELECT g.id, g.ended, g.game, g.variant, g.started, g.demo, p.seat, p.name,
                p.piece, p.score, p.won, p.breakdown
            FROM plays AS p JOIN games AS g ON g.id = p.game_id ORDER BY g.id, p.seat"""
        ).fetchall()
