"""The statistics cache's own rules: what keeps a finished game from being counted, said in
words (the log and a refused record quote it); a play's figures as the JSON gives them; a
cache checked whole only when it changed; and a cache that cannot be used, kept aside and
counted again once, or refused when the storage is at fault.
"""

import itertools
import logging
import sqlite3

import pytest
from stats_helpers import finish, header, known_games, more_games, sheet

from firmware_app.store import statistics
from firmware_app.store.faults import StorageError
from firmware_app.store.journal import Journal
from firmware_app.store.listings import GameResult
from firmware_app.store.statistics import Stats, plays_of, result_problem

# A sound Król Popiel result: Iza's blue mouse won.
POPIEL = GameResult(
    1, "popiel", "standard", 1000.0, 1600.0, {"scores": [31, 40], "winners": [1]}, 10,
    ["Ala", "Iza"], ["red", "blue"], False,
)  # fmt: skip
BOUND = 2**62  # docs/journal.md: a score within it either way, so that sums fit SQLite

WRONG = {
    "no game": ({"game": None}, "its header names no game and variant"),
    "a variant that is a number": ({"variant": 1}, "its header names no game and variant"),
    "a start that is text": ({"started": "yesterday"}, "its dates are not dates a box keeps"),
    "an end before 1970": ({"ended": -1.0}, "its dates are not dates a box keeps"),
    "a summary that is a list": ({"summary": [31, 40]}, "its summary is not a table"),
    "names that are one string": ({"names": "AI"}, "its names are not a list of names"),
    "a summary without scores": (
        {"summary": {"winners": [1]}},
        "its summary cannot be counted: KeyError('scores')",
    ),
    "a winner past the seats": ({"summary": {"scores": [3, 4], "winners": [2]}}, "seats"),
    "a winner named by text": ({"summary": {"scores": [3, 4], "winners": ["1"]}}, "seats"),
    "winners written as text": ({"summary": {"scores": [3, 4], "winners": "01"}}, "seats"),
    "mice that are numbers": ({"players": [1, 2]}, "its pieces are not names"),
    "a Krol Popiel result of no seat": ({"summary": {"scores": []}}, "no player"),
    "a score sheet of no line": ({"summary": {"players": [], "winners": []}}, "no player"),
    "a score at the bound": ({"summary": {"scores": [BOUND, 4]}}, "out of bounds"),
    "a score at minus the bound": ({"summary": {"scores": [3, -BOUND]}}, "out of bounds"),
}


def malformed(*args) -> None:
    """SQLite's word for a damaged database file, in place of any read or write."""
    raise sqlite3.DatabaseError("database disk image is malformed")


WORDS = {
    "seats": "its winners are not seats",
    "out of bounds": "its scores are out of bounds",
    "no player": "its summary names no player",
}


@pytest.mark.parametrize("case", list(WRONG))
def test_a_finished_game_that_cannot_be_counted_says_why_in_words(case):
    change, problem = WRONG[case]
    assert result_problem(POPIEL._replace(**change)) == WORDS.get(problem, problem)


def test_scores_just_inside_the_bound_and_a_result_naming_no_winner_are_counted():
    inside = {"scores": [BOUND - 1, 1 - BOUND]}  # no "winners": nobody won
    assert result_problem(POPIEL) is None
    assert result_problem(POPIEL._replace(summary=inside)) is None
    assert [play.won for play in plays_of(["Ala", "Iza"], ["red", "blue"], inside)] == [
        False,
        False,
    ]


def test_a_play_keeps_the_parts_of_its_score_not_who_played_or_which_penguin():
    lines = sheet(["rico", "skipper"], [20, 15], [0])
    first, second = plays_of(["Ala", None], 2, lines)
    assert (first.name, first.piece, first.score, first.won) == ("Ala", "rico", 20, True)
    assert (second.name, second.piece, second.won) == (None, "skipper", False)
    parts = {"figurants", "penguin_bonus", "mission", "penalty", "total", "cards", "bonus"}
    assert set(first.breakdown) == parts and first.breakdown["total"] == 20


def test_a_mouse_plays_on_its_track_and_a_seat_without_a_mouse_has_no_piece():
    red, blue = plays_of(["Ala", "Iza"], ["red"], {"scores": [31, 40], "winners": [1]})
    assert (red.piece, red.breakdown) == ("red", {"track": 31})
    assert (blue.piece, blue.breakdown, blue.won) == (None, {"track": 40}, True)
    assert result_problem(POPIEL._replace(players=["red"])) is None


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as opened:
        known_games(opened)
        yield opened


def test_the_json_names_each_last_result_by_its_number_date_and_kind(journal, tmp_path):
    """docs/statistics.md: ``last_games`` and a player's ``last`` results, key by key."""
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        stats.refresh()
        ala = stats.player("Ala")
        newest = stats.last_games(1)
        family = stats.player("Ala", "pingwiny", "family")
    assert ala["last"][0] == {
        "id": 5, "ended": 17600, "game": "popiel", "variant": "standard", "score": 31,
        "won": False,
    }  # fmt: skip
    assert newest == [
        {"id": 5, "ended": 17600, "game": "popiel", "variant": "standard", "players": 2,
         "winners": [{"seat": 1, "name": "Iza"}]},
    ]  # fmt: skip
    assert (family["games"], family["wins"], family["win_rate"]) == (3, 2, 0.667)


def test_figures_of_one_variant_count_its_games_only_and_a_win_by_another_is_neither(
    journal, tmp_path
):
    """Ala and Olek: one win each and a shared one before; now Iza wins a game they both
    played, then Ala twice and Olek once."""
    finish(journal, ["Ala", "Olek", "Iza"], ["rico", "skipper", "kowalski"], [1, 2, 9], [2],
           30000)  # fmt: skip
    for n, winner in enumerate([0, 0, 1]):
        finish(journal, ["Ala", "Olek"], ["rico", "skipper"], [5, 5], [winner], 31000 + n * 100)
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        stats.refresh()
        assert stats.games("pingwiny", "advanced")["winners"] == [("Ala", 1)]
        assert stats.games("pingwiny", "family")["winners"] == [
            ("Ala", 4), ("Olek", 3), ("Iza", 1),
        ]  # fmt: skip
        assert stats.head_to_head("Ala", "Olek") == {
            "players": ["Ala", "Olek"], "games": 7, "wins": [3, 2], "shared": 1, "neither": 1,
        }  # fmt: skip


def test_a_seat_without_a_name_before_a_named_one_leaves_the_named_one_counted(journal, tmp_path):
    finish(journal, [None, "Olek"], ["rico", "skipper"], [3, 8], [1], 30000)
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        stats.refresh()
        olek = stats.player("Olek")
    assert (olek["games"], olek["wins"], olek["best_score"]) == (4, 3, 18)
    assert olek["last"][0]["score"] == 8


def test_the_average_number_of_actions_counts_the_live_ones(tmp_path):
    """Actions undone at the end of a game are not part of it (docs/statistics.md)."""
    with Journal(tmp_path / "journal.sqlite") as journal:
        for count, undone, started in ((3, 0, 1000), (7, 1, 5000), (2, 0, 9000)):
            game = journal.start_game(header(["Ala", "Olek"]), now=started)
            for n in range(count):
                journal.append(game, f"action {n}")
            for _ in range(undone):
                journal.undo(game)
            journal.finish(game, sheet(["rico", "skipper"], [5, 6], [1]), now=started + 60)
        with Stats(journal, tmp_path / "stats.sqlite") as stats:
            stats.refresh()
            assert stats.games()["average_actions"] == 3.7  # (3 + 6 + 2) / 3, to one place
            assert stats.games("popiel")["average_actions"] is None  # no game of it


def test_a_row_that_cannot_be_read_between_sound_ones_is_the_only_one_skipped(journal, tmp_path):
    """The journal's rows read one by one once a bulk read fails: the damaged game named by
    its number and kept aside with why, every game after it counted in the same slice."""
    other = sqlite3.connect(journal.path)
    with other:
        other.execute("UPDATE games SET header = json_set(header, '$.options.names', 'Ala') "
                      "WHERE id = 2")  # fmt: skip
    other.close()
    kept: list[tuple[int, str]] = []
    with Stats(journal, tmp_path / "stats.sqlite", lambda *game: kept.append(game)) as stats:
        assert stats.index_slice(limit=100) is False
        assert stats.games()["plays"] == 4
        assert stats.skipped == kept
    ((number, problem),) = kept
    assert number == 2 and problem.startswith("its row cannot be read: ")


def test_a_slice_with_a_time_budget_keeps_to_its_limit_and_spends_the_whole_budget(
    journal, tmp_path
):
    more_games(journal, 12)  # 17 finished games
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        assert stats.index_slice(limit=5, seconds=10, clock=lambda: 1000.0) is True
        assert stats.games()["plays"] == 5  # a clock that stands still: the limit ends it
        ticks = itertools.count(0, 2)  # two seconds at each look
        assert stats.index_slice(limit=100, seconds=2, clock=lambda: next(ticks)) is True
        assert stats.games()["plays"] == 5 + statistics.CHUNK  # one read spent the budget


def test_every_slice_is_counted_in_what_a_refresh_added(journal, tmp_path, monkeypatch):
    monkeypatch.setattr(statistics, "SLICE", 2)
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        assert stats.refresh() == 5
        assert stats.games()["plays"] == 5


def test_a_cache_that_cannot_be_read_has_reached_nothing(journal, tmp_path, monkeypatch):
    with Stats(journal, tmp_path / "stats.sqlite") as stats:
        stats.refresh()
        monkeypatch.setattr(stats, "_reached", malformed)
        assert stats.progress() == (0, 7)  # the journal's newest game: still being played


def counted(journal, path) -> None:
    """The cache counted to the end and closed, as this process leaves it."""
    with Stats(journal, path) as stats:
        stats.refresh()


@pytest.fixture
def statements(monkeypatch) -> list[str]:
    """Every statement the cache's connections run, in order."""
    seen: list[str] = []
    connect = statistics._connect

    def traced(path):
        db = connect(path)
        db.set_trace_callback(seen.append)
        return db

    monkeypatch.setattr(statistics, "_connect", traced)
    return seen


def test_a_cache_is_checked_whole_when_opened_unless_this_process_left_it_unchanged(
    journal, tmp_path, statements
):
    """The check costs some 0.3 s on a Zero 2 W (the module's docstring): a cache this
    process closed and nobody changed since is trusted; once another writer changed it, it
    is checked again."""
    path = tmp_path / "stats.sqlite"
    counted(journal, path)
    statements.clear()
    with Stats(journal, path):
        assert "PRAGMA quick_check" not in statements
    other = sqlite3.connect(path)  # another process's write, say `tableside stats`
    other.execute("INSERT INTO skipped VALUES (99)")
    other.commit()
    other.close()
    with Stats(journal, path):
        assert "PRAGMA quick_check" in statements


class Refusing:
    """A connection whose every statement fails with ``error``."""

    def __init__(self, db: sqlite3.Connection, error: sqlite3.Error) -> None:
        self.db, self.error = db, error

    def execute(self, *args):
        raise self.error

    def close(self) -> None:
        self.db.close()


def _opening_fails(monkeypatch, code: int, text: str) -> None:
    """The cache's first connection fails with SQLite's result ``code``; the next work."""
    error = sqlite3.OperationalError(text)
    error.sqlite_errorcode = code
    connect, calls = statistics._connect, []

    def first_fails(path):
        calls.append(path)
        db = connect(path)
        return Refusing(db, error) if len(calls) == 1 else db

    monkeypatch.setattr(statistics, "_connect", first_fails)


def test_a_full_card_refuses_the_cache_at_its_opening_and_keeps_it(journal, tmp_path, monkeypatch):
    path = tmp_path / "stats.sqlite"
    counted(journal, path)
    _opening_fails(monkeypatch, 13, "database or disk is full")
    with pytest.raises(StorageError) as refused:
        Stats(journal, path)
    assert refused.value.reason == "full"
    assert str(refused.value) == (
        f"{path}: cannot open the statistics cache: database or disk is full"
    )
    assert not list(tmp_path.glob("stats.sqlite.damaged-*"))
    with Stats(journal, path) as stats:
        assert stats.games()["plays"] == 5  # nothing was lost


def test_an_input_output_error_at_the_opening_is_damage_kept_aside_and_logged(
    journal, tmp_path, monkeypatch, caplog
):
    path = tmp_path / "stats.sqlite"
    counted(journal, path)
    _opening_fails(monkeypatch, 10, "disk I/O error")
    with caplog.at_level(logging.WARNING, "tableside.stats"), Stats(journal, path) as stats:
        assert stats.refresh() == 5
    assert len(list(tmp_path.glob("stats.sqlite.damaged-*"))) == 1
    assert caplog.messages == [f"{path} cannot be used (disk I/O error): kept aside, counted again"]


def test_a_cache_failing_its_check_is_named_so_in_the_log(journal, tmp_path, caplog):
    path = tmp_path / "stats.sqlite"
    with Stats(journal, path) as stats:
        stats.refresh()
        page = stats._db.execute("PRAGMA page_size").fetchone()[0]
    statistics._CHECKED.clear()  # as after a restart
    with path.open("r+b") as file:  # a page of the data, past the header and the schema
        file.seek(2 * page)
        file.write(b"\xa5" * page)
    with caplog.at_level(logging.WARNING, "tableside.stats"), Stats(journal, path) as stats:
        assert stats.refresh() == 5
    assert caplog.messages == [
        f"{path} cannot be used (the statistics cache fails its check): kept aside, counted again"
    ]


def test_a_cache_that_cannot_be_moved_aside_is_refused_naming_it(journal, tmp_path, monkeypatch):
    path = tmp_path / "stats.sqlite"
    path.write_bytes(b"not a database at all" * 100)
    monkeypatch.setattr(statistics, "set_aside", lambda path: None)
    with pytest.raises(StorageError) as refused:
        Stats(journal, path)
    assert str(refused.value) == (
        f"{path}: cannot create the statistics cache: {path} cannot be moved aside"
    )
    assert refused.value.reason == "io"
    assert path.read_bytes() == b"not a database at all" * 100


def test_damage_found_by_a_slice_is_repaired_once_and_then_refused(
    journal, tmp_path, monkeypatch, caplog
):
    """Damage found again in one object's life is the storage failing, not the cache."""
    path = tmp_path / "stats.sqlite"
    with Stats(journal, path) as stats:
        monkeypatch.setattr(stats, "_add", malformed)
        with caplog.at_level(logging.WARNING, "tableside.stats"):
            assert stats.index_slice(limit=2) is True
        assert caplog.messages == [
            f"{path} is damaged (database disk image is malformed): kept aside, counted again"
        ]
        assert len(list(tmp_path.glob("stats.sqlite.damaged-*"))) == 1
        with pytest.raises(StorageError) as refused:
            stats.index_slice(limit=2)
        assert "cannot write the statistics cache" in str(refused.value)
        assert refused.value.reason == "io"  # no storage fault named: the card is failing
        monkeypatch.undo()
        assert stats.refresh() == 5  # the rebuilt cache still works


def test_damage_met_by_a_refresh_is_repaired_and_every_game_counted(journal, tmp_path, monkeypatch):
    path = tmp_path / "stats.sqlite"
    with Stats(journal, path) as stats:
        add, calls = stats._add, []

        def damaged_once(game, plays):
            calls.append(game.id)
            (malformed if len(calls) == 1 else add)(game, plays)

        monkeypatch.setattr(stats, "_add", damaged_once)
        assert stats.refresh() == 5
        assert stats.games()["plays"] == 5


def test_a_slice_refused_by_a_full_card_leaves_no_transaction_open(journal, tmp_path):
    """Once space is back, the same cache goes on: nothing half-done, nothing taken for damage."""
    path = tmp_path / "stats.sqlite"
    more_games(journal, 12)  # 17 finished games: more than the cache's pages hold
    with Stats(journal, path) as stats:
        stats.index_slice(limit=1)
        pages = stats._db.execute("PRAGMA page_count").fetchone()[0]
        stats._db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "disk full"
        with pytest.raises(StorageError):
            stats.index_slice(limit=100)
        assert not stats._db.in_transaction
        stats._db.execute("PRAGMA max_page_count = 1000000")
        assert stats.refresh() == 16
    assert not list(tmp_path.glob("stats.sqlite.damaged-*"))
