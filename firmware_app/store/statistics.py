"""Statistics of finished games, answered by indexed SQL from a small cache beside the journal.

The journal keeps each finished game as its header and summary in JSON; parsing ten thousand
of those every time a statistics screen opens would take seconds on a Zero 2 W. So the games
are indexed once into ``stats.sqlite`` (one row a game, one row a player of a game), and each
time statistics are asked for, only the games finished since the last time are added. The
cache is derived data: it is rebuilt from the journal whenever it is missing, damaged, or
does not match the journal (a restored journal, say); deleting it loses nothing.

Adding years of games at once would hold the main loop for minutes on a Zero 2 W, past the
watchdog, so they are added in slices (``index_slice``): a bounded number of games, or of
milliseconds, committed as one transaction. A kill between slices keeps every committed one,
and the next slice goes on from the newest game in the cache. ``refresh`` runs the slices to
the end, for the command line and the exports.

Only finished games count; abandoned ones are never played out. A seat without a name
("Player 2") is counted in the game's figures but is nobody's in the players' figures: it is
a different person each time.
"""

import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from firmware_app.store.faults import JournalError, StorageError, refine, storage_fault
from firmware_app.store.plain_values import date_problem
from firmware_app.store.regular import irregular
from firmware_app.store.state_check import set_aside

LOG = logging.getLogger("tableside.stats")

CACHE_VERSION = 3
CACHE = "stats.sqlite"  # the cache's name, beside the journal


def cache_of(journal_path: Path) -> Path:
    """Where the statistics cache of the journal at ``journal_path`` is kept."""
    return Path(journal_path).with_name(CACHE)


# Games one slice of ``refresh`` adds: one transaction, so a kill loses at most that much work.
SLICE = 500
# Games read from the journal at a time by a slice with a time budget, which looks at the
# clock after each such read: small, so a slice overruns its budget by little on a Zero 2 W.
CHUNK = 4
# How long a slice waits for the cache held by another process (``tableside stats`` run beside
# the panel): not SQLite's usual 5 s, which would hold up the main loop; then it is refused.
BUSY_SECONDS = 1.0
# SQLite's result codes of a cache held by another process: busy, not damaged.
_BUSY = (5, 6)
_SCHEMA = (
    # One row a finished game, and one row a player of a game: the detail behind the
    # last results, head to head and the CSV.
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL,
        started REAL NOT NULL, ended REAL NOT NULL, players INTEGER NOT NULL,
        actions INTEGER NOT NULL, demo INTEGER NOT NULL)""",
    "CREATE INDEX games_by_end ON games (ended)",
    """CREATE TABLE plays (
        game_id INTEGER NOT NULL REFERENCES games (id), seat INTEGER NOT NULL,
        game TEXT NOT NULL, variant TEXT NOT NULL, ended REAL NOT NULL,
        name TEXT, piece TEXT, score INTEGER NOT NULL, won INTEGER NOT NULL,
        breakdown TEXT NOT NULL, PRIMARY KEY (game_id, seat)) WITHOUT ROWID""",
    "CREATE INDEX plays_by_name ON plays (name, ended)",
    # Running totals, kept as games are added, so no screen sums over every game:
    # by game and variant, by player, and by player and piece.
    """CREATE TABLE kinds (
        game TEXT NOT NULL, variant TEXT NOT NULL, plays INTEGER NOT NULL,
        seconds REAL NOT NULL, actions INTEGER NOT NULL, scores INTEGER NOT NULL,
        score_sum INTEGER NOT NULL, best INTEGER, best_by TEXT,
        PRIMARY KEY (game, variant)) WITHOUT ROWID""",
    """CREATE TABLE people (
        name TEXT NOT NULL, game TEXT NOT NULL, variant TEXT NOT NULL,
        games INTEGER NOT NULL, wins INTEGER NOT NULL, score_sum INTEGER NOT NULL,
        best INTEGER NOT NULL, PRIMARY KEY (name, game, variant)) WITHOUT ROWID""",
    """CREATE TABLE pieces (
        name TEXT NOT NULL, game TEXT NOT NULL, variant TEXT NOT NULL, piece TEXT NOT NULL,
        times INTEGER NOT NULL, PRIMARY KEY (name, game, variant, piece)) WITHOUT ROWID""",
    # The finished games whose header or summary cannot be counted (``result_problem``):
    # seen, so that each is skipped (and kept aside) once.
    "CREATE TABLE skipped (id INTEGER PRIMARY KEY)",
    f"PRAGMA user_version = {CACHE_VERSION}",
)
_ADD_SKIPPED = "INSERT OR IGNORE INTO skipped VALUES (?)"
_REACHED = """SELECT max(coalesce((SELECT max(id) FROM games), 0),
    coalesce((SELECT max(id) FROM skipped), 0))"""
# The journal's next finished game, when its row cannot be read as a result.
_FILES = ("", "-wal", "-shm", "-journal")  # the cache and SQLite's files beside it
# A cache is checked whole (``PRAGMA quick_check``) when it is opened, unless this process
# closed it last and it has not changed since (its signature, below, is what it was then):
# 10,000 games take 12 ms on a desktop, some 0.3 s on a Zero 2 W, too much for every screen
# of statistics. Damage found later by a slice also rebuilds the cache.
_CHECKED: dict[str, tuple[int, int, int] | None] = {}


def _signature(path: Path) -> tuple[int, int, int] | None:
    """The file's identity, size and time of change (None: not there)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_ino, status.st_size, status.st_mtime_ns


_ADD_GAME = "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
_ADD_PLAY = "INSERT INTO plays VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_ADD_KIND = """INSERT INTO kinds VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6, ?7, ?8)
    ON CONFLICT DO UPDATE SET plays = plays + 1, seconds = seconds + ?3,
        actions = actions + ?4, scores = scores + ?5, score_sum = score_sum + ?6,
        best_by = CASE WHEN ?7 > best THEN ?8 ELSE best_by END, best = max(best, ?7)"""
_ADD_PERSON = """INSERT INTO people VALUES (?1, ?2, ?3, 1, ?4, ?5, ?5)
    ON CONFLICT DO UPDATE SET games = games + 1, wins = wins + ?4,
        score_sum = score_sum + ?5, best = max(best, ?5)"""
_ADD_PIECE = """INSERT INTO pieces VALUES (?, ?, ?, ?, 1)
    ON CONFLICT DO UPDATE SET times = times + 1"""


def _connect(path: Path) -> sqlite3.Connection:
    """The cache's connection. NORMAL: a commit is not flushed to the card at once, so a
    slice costs no wait on the card; a power cut may lose the last slices, never the file."""
    db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    db.execute("PRAGMA synchronous = NORMAL")
    return db


def _where_kind(table: str = "") -> str:
    """The filter by game (?1) and variant (?2), NULL matching any; ``table`` an alias."""
    at = f"{table}." if table else ""
    return f"(?1 IS NULL OR {at}game = ?1) AND (?2 IS NULL OR {at}variant = ?2)"


_KIND = _where_kind()


@dataclass(frozen=True)
class Play:
    """One player's result in one finished game."""

    seat: int
    name: str | None
    piece: str | None  # the penguin or the mouse colour
    score: int
    won: bool
    breakdown: dict


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
        scores = list(summary["scores"])  # a summary with neither is not counted
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


class _Unreadable(NamedTuple):
    """A finished game whose row the journal cannot read as a result."""

    id: int
    problem: str


def result_problem(game) -> str | None:
    """What keeps a finished game (``listings.GameResult``) from being counted: a header or
    summary of the wrong shape (valid JSON, but a list, or missing keys); None when sound."""
    if not (isinstance(game.game, str) and isinstance(game.variant, str)):
        return "its header names no game and variant"
    if any(date_problem(value) for value in (game.started, game.ended)):
        return "its dates are not dates a box keeps"
    if not isinstance(game.summary, dict):
        return "its summary is not a table"
    names = game.names
    if names is not None and not (
        isinstance(names, list) and all(n is None or isinstance(n, str) for n in names)
    ):
        return "its names are not a list of names"
    try:
        plays = plays_of(names, game.players, game.summary)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError) as error:
        return f"its summary cannot be counted: {error!r}"
    if not plays:
        return "its summary names no player"
    winners = game.summary.get("winners", [])
    if not isinstance(winners, list) or not all(
        type(seat) is int and 0 <= seat < len(plays) for seat in winners
    ):
        return "its winners are not seats"
    if not all(isinstance(play.piece, str | None) for play in plays):
        return "its pieces are not names"
    if not all(-(2**62) < play.score < 2**62 for play in plays):
        return "its scores are out of bounds"
    return None


class Stats:
    """The statistics cache of one journal; ``index_slice`` or ``refresh`` brings it up to date.

    A storage that refuses the cache's writes raises ``StorageError``; a damaged cache is
    rebuilt, once in an object's life (damage found again is the storage failing).
    """

    def __init__(
        self, journal, path: Path, aside: Callable[[int, str], None] | None = None
    ) -> None:
        """``aside(game_id, problem)`` keeps aside a finished game whose header or summary
        cannot be counted (``result_problem``); without it such a game is only skipped."""
        self.journal, self.path = journal, Path(path)
        self.aside = aside
        self.skipped: list[tuple[int, str]] = []  # games not counted, and why
        self._repaired = False
        self._journal_end: int | None = None
        self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        if any(irregular(Path(f"{self.path}{suffix}")) for suffix in _FILES):
            return self._rebuilt(damaged=True)  # never opened: a pipe would hang SQLite
        db = None
        try:
            db = _connect(self.path)
            if db.execute("PRAGMA user_version").fetchone()[0] != CACHE_VERSION:
                db.close()  # an older cache (or a new file): made again, nothing kept
                return self._rebuilt()
            unchanged = _CHECKED.get(str(self.path)) == _signature(self.path)
            if not unchanged and db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("the statistics cache fails its check")
            return db
        except sqlite3.DatabaseError as error:
            if db is not None:
                db.close()
            storage = storage_fault(error)
            if storage and storage != "io":  # a full or read-only card is no damage
                raise self._refused("cannot open", error) from error
            LOG.warning("%s cannot be used (%s): kept aside, counted again", self.path, error)
            return self._rebuilt(damaged=True)

    def _rebuilt(self, damaged: bool = False) -> sqlite3.Connection:
        """A new, empty cache in place of whatever was there (it is only derived data).

        A ``damaged`` cache, and anything not a regular file standing in its place, is
        renamed aside (``stats.sqlite.damaged-TIME``) rather than deleted: it shows what
        happened, and a folder or link is moved, never followed."""
        db = None
        try:
            for suffix in _FILES:
                path = Path(f"{self.path}{suffix}")
                if (damaged and suffix == "") or irregular(path):
                    if os.path.lexists(path) and set_aside(path) is None:
                        raise OSError(f"{path} cannot be moved aside")
                else:
                    path.unlink(missing_ok=True)
            db = _connect(self.path)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("BEGIN")
            for statement in _SCHEMA:
                db.execute(statement)
            db.execute("COMMIT")
            return db
        except (OSError, sqlite3.Error) as error:
            if db is not None:
                db.close()
            raise self._refused("cannot create", error) from error

    def _refused(self, doing: str, error: BaseException) -> StorageError:
        reason = refine(storage_fault(error) or "io", self.path)
        return StorageError(f"{self.path}: {doing} the statistics cache: {error}", reason)

    def close(self) -> None:
        self._db.close()
        _CHECKED[str(self.path)] = _signature(self.path)  # as this process left it

    def __enter__(self) -> "Stats":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------ indexing

    def refresh(self) -> int:
        """Add every game finished since the last time, slice by slice; return how many."""
        added, more = 0, True
        while more:
            count, more = self._slice(SLICE, None, time.perf_counter)
            added += count
        return added

    def index_slice(
        self,
        limit: int = SLICE,
        seconds: float | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> bool:
        """Add at most ``limit`` finished games as one transaction; True while more may remain.

        With ``seconds``, the slice also ends once that much time has passed on ``clock``
        (looked at after every ``CHUNK`` games): the panel's share of a loop tick.
        """
        if limit < 1:
            raise ValueError(f"a slice indexes at least one game, not {limit}")
        return self._slice(limit, seconds, clock)[1]

    def progress(self) -> tuple[int, int | None]:
        """How far indexing got: the journal's number of the newest game in the cache, and
        of the newest game in the journal (finished or not; None when it cannot be read).

        Games are numbered in the journal as they start, so the two numbers say how far
        the work got at the cost of two index look-ups, where counting the finished games
        would read every header. The newest game is looked up once in an object's life; a
        cache that cannot be read has reached nothing (the next slice rebuilds it).
        """
        try:
            reached = self._reached()
        except sqlite3.Error:
            reached = 0
        if self._journal_end is None:
            self._journal_end = self._newest_game()
        return reached, None if self._journal_end is None else max(reached, self._journal_end)

    def _newest_game(self) -> int | None:
        """The number of the journal's newest game; None if it cannot be read."""
        try:
            return self.journal.newest_id()
        except sqlite3.Error:
            return None

    def _slice(self, limit: int, seconds: float | None, clock) -> tuple[int, bool]:
        """One committed slice: (games added, whether more may remain)."""
        started, added, more = clock(), 0, True
        found: list[tuple[int, str]] = []
        try:
            self._check_journal()
            self._db.execute("BEGIN IMMEDIATE")  # the write lock now, not half-way
            after = self._reached()  # read under the lock: another process may have indexed
            while more and added < limit:
                asked = limit - added if seconds is None else min(CHUNK, limit - added)
                games = self._results(after, asked)
                for game in games:
                    problem = (
                        game.problem if isinstance(game, _Unreadable) else result_problem(game)
                    )
                    if problem is None:
                        self._add(game, plays_of(game.names, game.players, game.summary))
                    else:  # counted as done, so it is skipped once, not at every opening
                        self._db.execute(_ADD_SKIPPED, (game.id,))
                        found.append((game.id, problem))
                added, more = added + len(games), len(games) == asked
                after = games[-1].id if games else after
                if seconds is not None and clock() - started >= seconds:
                    break
            self._db.execute("COMMIT")
            self._set_aside(found)
            return added, more
        except sqlite3.Error as error:
            self._roll_back()
            self._damaged(error)
            return 0, True
        except BaseException:
            self._roll_back()
            raise

    def _results(self, after: int, limit: int) -> list:
        """The next finished games; one whose row the journal cannot even parse (a header's
        names that are not JSON, no summary) comes back as a result with no game, so that
        ``result_problem`` names it and the others are counted."""
        with self._reading_journal():
            try:
                return self.journal.results(after=after, limit=limit)
            except (ValueError, TypeError, AttributeError):
                pass
            games: list = []
            for _ in range(limit):
                try:
                    game = self.journal.results(after=after, limit=1)
                except (ValueError, TypeError, AttributeError) as error:
                    found = self.journal.next_finished_id(after)
                    problem = f"its row cannot be read: {error}"
                    game = [] if found is None else [_Unreadable(found, problem)]
                if not game:
                    break
                games += game
                after = game[0].id
            return games

    def _set_aside(self, found: list[tuple[int, str]]) -> None:
        """The games the slice skipped, logged and (with ``aside``) kept aside."""
        for game_id, problem in found:
            LOG.warning("finished game %d is not counted: %s", game_id, problem)
            self.skipped.append((game_id, problem))
            if self.aside is not None:
                self.aside(game_id, problem)

    def _reached(self) -> int:
        """The newest game the cache has seen: counted, or skipped as unreadable."""
        return self._db.execute(_REACHED).fetchone()[0]

    def _check_journal(self) -> None:
        """The newest cached game must still be in the journal with the same start time;
        otherwise the journal was replaced (a restore) and the cache starts again. An empty
        cache has nothing to compare."""
        newest = self._db.execute("SELECT id, started FROM games ORDER BY id DESC LIMIT 1")
        row = newest.fetchone()
        if row is None:
            return
        with self._reading_journal():
            replaced = self.journal.started_at(row[0]) != row[1]
        if replaced:
            self._db.close()
            self._db = self._rebuilt()

    @contextmanager
    def _reading_journal(self) -> Iterator[None]:
        """A journal read: its SQLite errors are the journal's, never taken for the cache's."""
        try:
            yield
        except sqlite3.Error as error:
            raise JournalError(f"{self.journal.path}: cannot read the games: {error}") from error

    def _roll_back(self) -> None:
        if self._db.in_transaction:
            with suppress(sqlite3.Error):  # SQLite rolled back by itself, as after an I/O error
                self._db.execute("ROLLBACK")

    def _damaged(self, error: sqlite3.Error) -> None:
        """After a failed slice: rebuild a damaged cache; raise what the storage refused."""
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF
        if isinstance(error, sqlite3.IntegrityError | sqlite3.ProgrammingError):
            raise error  # a mistake in this module, not damage
        if storage_fault(error) or code in _BUSY or self._repaired:
            raise self._refused("cannot write", error) from error
        self._repaired = True
        LOG.warning("%s is damaged (%s): kept aside, counted again", self.path, error)
        self._db.close()
        self._db = self._rebuilt(damaged=True)

    def _add(self, game, plays: tuple[Play, ...]) -> None:
        """One finished game into the detail tables and the running totals."""
        kind = (game.game, game.variant)
        db = self._db
        db.execute(_ADD_GAME, (game.id, *kind, game.started, game.ended, len(plays),
                               game.actions, game.demo))  # fmt: skip
        best = max(plays, key=lambda p: p.score)  # a game has a player (``result_problem``)
        db.execute(
            _ADD_KIND,
            (*kind, game.ended - game.started, game.actions, len(plays),
             sum(p.score for p in plays), best.score, best.name),
        )  # fmt: skip
        for p in plays:
            db.execute(_ADD_PLAY, (game.id, p.seat, *kind, game.ended, p.name, p.piece,
                                   p.score, p.won, json.dumps(p.breakdown)))  # fmt: skip
            if p.name is None:
                continue
            db.execute(_ADD_PERSON, (p.name, *kind, p.won, p.score))
            if p.piece is not None:
                db.execute(_ADD_PIECE, (p.name, *kind, p.piece))

    # ------------------------------------------------------------ queries

    def games(self, game: str | None = None, variant: str | None = None) -> dict:
        """Per game: plays, winners by wins, best and average score, average length."""
        plays, seconds, actions, scores, score_sum = self._db.execute(
            f"""SELECT coalesce(sum(plays), 0), sum(seconds), sum(actions), sum(scores),
            sum(score_sum) FROM kinds WHERE {_KIND}""",
            (game, variant),
        ).fetchone()
        best = self._db.execute(
            f"SELECT best, best_by FROM kinds WHERE {_KIND} ORDER BY best DESC LIMIT 1",
            (game, variant),
        ).fetchone()
        return {
            "plays": plays,
            "average_minutes": round(seconds / plays / 60, 1) if plays else None,
            "average_actions": round(actions / plays, 1) if plays else None,
            "best_score": best[0] if best else None,
            "best_by": best[1] if best else None,
            "average_score": round(score_sum / scores, 1) if scores else None,
            "winners": self.wins(game, variant),
        }

    def wins(self, game: str | None = None, variant: str | None = None) -> list[tuple[str, int]]:
        """Named players with their wins, most first (a shared win counts for each winner)."""
        rows = self._db.execute(
            f"""SELECT name, sum(wins) AS won FROM people WHERE {_KIND}
            GROUP BY name ORDER BY won DESC, name""",
            (game, variant),
        )
        return [(name, wins) for name, wins in rows]

    def players(self) -> list[str]:
        """Every named player, the most games first."""
        rows = self._db.execute(
            "SELECT name FROM people GROUP BY name ORDER BY sum(games) DESC, name"
        )
        return [name for (name,) in rows]

    def player(self, name: str, game: str | None = None, variant: str | None = None) -> dict:
        """One player: games, wins, win rate, average and best score, favourite piece, last 10."""
        played, wins, score_sum, best = self._db.execute(
            f"""SELECT coalesce(sum(games), 0), coalesce(sum(wins), 0), sum(score_sum), max(best)
            FROM people WHERE name = ?3 AND {_KIND}""",
            (game, variant, name),
        ).fetchone()
        favourite = self._db.execute(
            f"""SELECT piece FROM pieces WHERE name = ?3 AND {_KIND}
            GROUP BY piece ORDER BY sum(times) DESC, piece LIMIT 1""",
            (game, variant, name),
        ).fetchone()
        last = self._db.execute(
            f"""SELECT game_id, ended, game, variant, score, won FROM plays
            WHERE name = ?3 AND {_KIND} ORDER BY ended DESC, game_id DESC LIMIT 10""",
            (game, variant, name),
        )
        return {
            "name": name,
            "games": played,
            "wins": wins,
            "win_rate": round(wins / played, 3) if played else None,
            "average_score": round(score_sum / played, 1) if played else None,
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
            FROM plays AS a JOIN plays AS b ON b.game_id = a.game_id AND b.name = ?4
            WHERE a.name = ?3 AND {_where_kind("a")}""",
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
        self, count: int, game: str | None = None, variant: str | None = None
    ) -> list[dict]:
        """The newest finished games with their date and winners."""
        rows = self._db.execute(
            f"""SELECT g.id, g.ended, g.game, g.variant, g.players,
                (SELECT json_group_array(json_array(w.seat, w.name)) FROM plays AS w
                 WHERE w.game_id = g.id AND w.won)
            FROM games AS g WHERE {_where_kind("g")} ORDER BY g.ended DESC, g.id DESC LIMIT ?3""",
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
