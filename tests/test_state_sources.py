"""State besides the games that cannot be read: kept aside, replaced by its default, named.

Each case damages one thing the box reads (a setting, the owner's card files, the statistics
cache, a finished game's header or summary), starts the app as ``tableside run`` does
(``recovery.open_journal``, ``App``, ``daemon.tell_start``) and checks: the panel names what
was reset, the damaged thing is kept aside with its bytes, the home menu follows the notice,
and a new game on the demo deck, the statistics and the export all work.
"""

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from firmware_app.app import App
from firmware_app.flows.shared.stats import StatsMenu
from firmware_app.runners.autopilot import new_game_script
from firmware_app.runners.daemon import tell_start
from firmware_app.store import statistics
from firmware_app.store.catalogue_files import save_owner_card
from firmware_app.store.journal import Journal
from firmware_app.store.recovery import close_journal, open_journal
from firmware_app.store.state_check import check_settings
from firmware_app.store.statistics import Stats, cache_of
from firmware_app.transfer.record_import import import_record
from firmware_app.transfer.results import write_results
from firmware_app.ui.screens import Notice
from firmware_app.words.score_sheet import demo_label
from rules.pingwiny.options import SOURCES

EXAMPLES = Path(__file__).parent.parent / "examples"
CLOCK = 1_700_000_000.0
STAMP = "20231114-221320"  # CLOCK in the names of what is kept aside


@pytest.fixture(scope="module")
def state(tmp_path_factory) -> Path:
    """A state folder holding two finished games (Pingwiny and Król Popiel), stopped cleanly."""
    folder = tmp_path_factory.mktemp("base") / "state"
    folder.mkdir()
    journal, _ = open_journal(folder / "journal.sqlite")
    for name in ("family-2p-short-seed11.json", "krol-popiel-3p-game.json"):
        import_record(journal, EXAMPLES / name, CLOCK)
    close_journal(journal)
    return folder


def _copy(state: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "state"
    shutil.copytree(state, folder)
    return folder


def _start(folder: Path, owner: bool = True):
    """What ``tableside run`` does before its main loop; the owner's file in the folder."""
    journal, outcome = open_journal(folder / "journal.sqlite")
    owner_file = folder / "catalogue.toml" if owner else None
    app = App(journal, language="en", owner_catalogue=owner_file, clock=lambda: CLOCK)
    tell_start(app, outcome, [])
    return journal, app


def _notices(app) -> list[tuple[str, str]]:
    return [(s.title, " ".join(s.lines)) for s in app.stack if isinstance(s, Notice)]


def _read_notices(app) -> list[tuple[str, str]]:
    """The notices on the panel, read and closed with OK; then the home menu is the screen."""
    shown = []
    while isinstance(app.top, Notice):
        shown.append((app.top.title, " ".join(app.top.lines)))
        app.top.button("ok")
    return shown


def _at_home(app) -> None:
    assert len(app.stack) == 1 and app.top.title == "Tableside", app.top.title


def _press(app, script: list[str]) -> None:
    for line in filter(None, script):
        _, name, *times = line.split()
        for _ in range(int(times[0]) if times else 1):
            app.top.button(name)


def _choose(app, label: str) -> None:
    app.top.cursor = [item.label for item in app.top.items].index(label)
    app.top.button("ok")


def _new_game_on_the_demo_deck(app) -> None:
    _choose(app, "New game")  # below the games left unfinished, if any
    _press(app, new_game_script(2)[1:])
    told = _read_notices(app)  # the table's setup, a notice a step
    assert told[0] == ("Cards", "Playing with the demo deck, not the cards from the box."), told
    assert all(title != "Our cards" for title, _ in told)
    assert app.session is not None and app.session.key == ("pingwiny", "family")
    assert demo_label(app.session.game)  # the demo deck, not the owner's cards
    app.home()


def _statistics(app) -> list[tuple[str, str]]:
    """Statistics from the home menu, counted to the end; the notices it gave."""
    _at_home(app)
    _choose(app, "Statistics")
    menu = app.top
    assert isinstance(menu, StatsMenu)
    while menu.slow:
        menu.work()
    told = _read_notices(app)
    assert app.top is menu
    app.home()
    return told


def _export(journal, tmp_path: Path) -> list[str]:
    out = tmp_path / "export"
    with Stats(journal, cache_of(journal.path)) as stats:
        written = write_results(journal, stats, out)
    return sorted(path.name for path in written)


def _plays_on(app, journal, tmp_path: Path, games: int = 2) -> None:
    """The home menu, then a new game on the demo deck, the statistics and the export."""
    _at_home(app)
    _new_game_on_the_demo_deck(app)
    _statistics(app)
    with Stats(journal, cache_of(journal.path)) as stats:
        assert stats.games()["plays"] == games
    records = [name for name in _export(journal, tmp_path) if name.startswith("game-")]
    assert len(records) == games


# ------------------------------------------------------------------ settings


def _store(folder: Path, key: str, text: str) -> None:
    db = sqlite3.connect(folder / "journal.sqlite")
    with db:
        db.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, text))
    db.close()


def _stored(folder: Path, key: str):
    with Journal(folder / "journal.sqlite") as journal:
        return journal.get_setting(key, "(none)")


BAD_SETTINGS = {
    "language unknown": ("language", '"xx"', "Language", "en"),
    "contrast 1e308": ("contrast", "1e308", "Contrast", 255),
    "contrast below 0": ("contrast", "-1", "Contrast", 255),
    "sleep not a number": ("sleep_minutes", '"x"', "Sleep", 5),
    "bag not a choice": ("bag", '"both"', "Token bag", "app"),
    "deck a number": ("deck", "3", "Figurant deck", "app"),
    "tags a list": ("tags", '["0A0B", "becky"]', "Tags", {}),
    "names not strings": ("names", "[1, 2]", "Names", []),
    "names a string": ("names", '"Ala"', "Names", []),
    "points not a choice": ("teach_points", '"later"', "Ask a card's points", "now"),
    "chirp a boolean": ("handoff_chirp", "true", "Chirp at a hand-off", "day"),
}


@pytest.mark.parametrize("case", list(BAD_SETTINGS))
def test_a_setting_the_box_does_not_know_is_reset_kept_aside_and_named(state, tmp_path, case):
    key, text, shown, default = BAD_SETTINGS[case]
    folder = _copy(state, tmp_path)
    _store(folder, key, text)
    journal, app = _start(folder)
    try:
        assert app.setting(key) == default
        told = _read_notices(app)
        assert told == [
            (
                "Game record",
                f"A setting could not be read and is back to its default: {shown}.",
            )
        ]
        aside = folder / f"journal.settings-aside-{STAMP}.json"
        assert json.loads(aside.read_text(encoding="utf-8")) == {key: text}
        _plays_on(app, journal, tmp_path)
    finally:
        close_journal(journal)
    assert _stored(folder, key) == default  # written back: the next start is quiet
    journal, app = _start(folder)
    try:
        assert not _notices(app)
    finally:
        close_journal(journal)


def test_bad_tags_are_dropped_and_the_good_ones_kept(state, tmp_path):
    folder = _copy(state, tmp_path)
    text = '{"0A0B0C0D": "becky", "11223344": 5, "": "max", "55667788": ["x"]}'
    _store(folder, "tags", text)
    _store(folder, "contrast", "1e308")
    journal, app = _start(folder)
    try:
        assert app.tags() == {"0A0B0C0D": "becky"}
        assert app.setting("contrast") == 255
        (title, words), *rest = _read_notices(app)
        assert not rest and title == "Game record"
        assert words == "Settings could not be read and are back to their defaults: Contrast, Tags."
        aside = json.loads((folder / f"journal.settings-aside-{STAMP}.json").read_text())
        assert aside == {"contrast": "1e308", "tags": text}
        _plays_on(app, journal, tmp_path)
    finally:
        close_journal(journal)
    assert _stored(folder, "tags") == {"0A0B0C0D": "becky"}


def test_a_read_only_journal_keeps_its_bad_setting_and_the_box_starts(state, tmp_path):
    """Nothing can be written back (the journal opened read-only, as on a full or read-only
    card): the default is used in memory all the same, and said."""
    folder = _copy(state, tmp_path)
    _store(folder, "sleep_minutes", '"x"')
    with Journal(folder / "journal.sqlite", read_only=True) as journal:
        assert journal.read_only
        app = App(journal, language="en", clock=lambda: CLOCK)
        assert app.setting("sleep_minutes") == 5
        assert _read_notices(app) == [
            ("Game record", "A setting could not be read and is back to its default: Sleep.")
        ]
        _at_home(app)
    assert _stored(folder, "sleep_minutes") == "x"  # left as it was
    assert (folder / f"journal.settings-aside-{STAMP}.json").exists()


def test_a_setting_that_is_not_json_or_nested_too_deep_is_reset_where_no_check_ran(state, tmp_path):
    """A journal put in place without the start's check (a restore replaces its contents
    and reloads): a text that is not JSON, or JSON nested past the recursion limit."""
    folder = _copy(state, tmp_path)
    _store(folder, "contrast", "{broken")
    _store(folder, "names", "[" * 100_000 + "]" * 100_000)
    with Journal(folder / "journal.sqlite") as journal:
        found = check_settings(journal, {"contrast": 255, "names": [], "bag": "app"}, lambda: CLOCK)
        assert found.settings == {"contrast": 255, "names": [], "bag": "app"}
        assert found.reset == ["contrast", "names"]
        assert json.loads(found.aside.read_text())["contrast"] == "{broken"
        assert journal.get_setting("contrast") == 255 and journal.get_setting("names") == []


def test_the_settings_bounds_are_the_engines_and_the_menus():
    """The start checks bag, deck and card points against lists of its own (the engine's and
    the menu's are imported only later); they must be the same."""
    from firmware_app.flows.shared.settings import CONTRAST_LEVELS, POINTS_WHEN, SLEEP_MINUTES
    from firmware_app.store import config, state_check

    assert config.SOURCES == SOURCES
    assert tuple(POINTS_WHEN) == config.TEACH_POINTS
    assert all(not list(state_check.CHECKS["contrast"](v)) for v in CONTRAST_LEVELS)
    assert all(not list(state_check.CHECKS["sleep_minutes"](v)) for v in SLEEP_MINUTES)


# ------------------------------------------------------------ the owner's files


def _owner(folder: Path) -> Path:
    path = folder / "catalogue.toml"
    save_owner_card(path, {"id": "becky", "family": {"points": 4, "type": "enemy"}})
    return path


def _nested(depth: int) -> bytes:
    return b"a = " + b"[" * depth + b"]" * depth + b"\n"


OWNER_FILES = {
    "truncated": lambda path: path.write_bytes(path.read_bytes()[:60]),
    "not UTF-8": lambda path: path.write_bytes(path.read_bytes().replace(b"enemy", b"\xff\xfe")),
    "out of bounds": lambda path: path.write_text(
        path.read_text().replace("points = 4", "points = -5")
    ),
    "nested 10,000 deep": lambda path: path.write_bytes(_nested(10_000)),
    "larger than the limit": lambda path: path.write_bytes(b"# " + b"x" * (1 << 20) + b"\n"),
}


@pytest.mark.parametrize("case", list(OWNER_FILES))
def test_an_owners_file_that_cannot_be_loaded_is_kept_aside_and_the_demo_deck_plays(
    state, tmp_path, case
):
    folder = _copy(state, tmp_path)
    path = _owner(folder)
    OWNER_FILES[case](path)
    original = path.read_bytes()
    journal, app = _start(folder)
    aside = folder / f"catalogue.toml.damaged-{STAMP}"
    try:
        if case == "out of bounds":  # a value is checked where the cards are first read
            _at_home(app)
            _press(app, new_game_script(2)[:7])  # to the choice of cards
        assert _read_notices(app) == [("Our cards", _OWNER_WORDS)]
        assert aside.read_bytes() == original and not path.exists()
        if case == "out of bounds":
            _press(app, new_game_script(2)[7:])
            assert app.session is not None and demo_label(app.session.game)
            app.home()
        _plays_on(app, journal, tmp_path)
    finally:
        close_journal(journal)


_OWNER_WORDS = "Our cards' file could not be read: it is kept aside and the box's cards are used."


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "inside").write_text("kept")


def _link(path: Path) -> None:
    target = path.with_name("elsewhere.toml")
    target.write_text('[meta]\ngame = "pingwiny"\n')
    path.symlink_to(target)


@pytest.mark.parametrize("make", [_fifo, _folder, _link], ids=["FIFO", "folder", "link"])
def test_a_folder_pipe_or_link_in_the_owners_place_is_moved_aside_unread(state, tmp_path, make):
    folder = _copy(state, tmp_path)
    path = folder / "catalogue.toml"
    make(path)
    kind = os.lstat(path).st_mode
    journal, app = _start(folder)
    try:
        assert _read_notices(app) == [("Our cards", _OWNER_WORDS)]
        aside = folder / f"catalogue.toml.damaged-{STAMP}"
        assert os.lstat(aside).st_mode == kind and not os.path.lexists(path)
        if make is _folder:
            assert (aside / "inside").read_text() == "kept"
        if make is _link:
            assert (folder / "elsewhere.toml").exists()  # the link moved, its target untouched
        _plays_on(app, journal, tmp_path)
    finally:
        close_journal(journal)


POPIEL_FILES = {
    "rewards a list": "rewards = [1]\n[windows]\nA = 6\n",
    "windows zero": "[windows]\nA = 0\n",
    "an unknown kind": "[rewards]\nbanana = 2\n",
}


@pytest.mark.parametrize("case", list(POPIEL_FILES))
def test_a_krol_popiel_owners_file_the_engine_refuses_is_kept_aside(state, tmp_path, case):
    folder = _copy(state, tmp_path)
    path = folder / "catalogue-krol-popiel.toml"
    path.write_text(POPIEL_FILES[case])
    original = path.read_bytes()
    journal, app = _start(folder)
    try:
        _at_home(app)
        # New game, Król Popiel, 2 players, the box's data, board side A
        _press(app, ["press ok", "press down", "press ok", "press ok", "press ok", "press ok"])
        assert _read_notices(app) == [("Our cards", _OWNER_WORDS)]
        assert app.top.title == "Windows"  # asked, as with no owner's file
        aside = folder / f"catalogue-krol-popiel.toml.damaged-{STAMP}"
        assert aside.read_bytes() == original and not path.exists()
        app.home()
        _new_game_on_the_demo_deck(app)
    finally:
        close_journal(journal)


# --------------------------------------------------------- the statistics cache


def _cache_damages():
    def folder(path: Path) -> None:
        path.mkdir()

    def fifo(path: Path) -> None:
        os.mkfifo(path)

    def link(path: Path) -> None:
        path.symlink_to(path.with_name("nowhere.sqlite"))

    def random(path: Path) -> None:
        path.write_bytes(os.urandom(8192))

    def damaged_page(path: Path) -> None:
        with Journal(path.with_name("journal.sqlite")) as journal:
            Stats(journal, path).close()
        data = bytearray(path.read_bytes())
        data[4096 + 10 : 4096 + 200] = os.urandom(190)  # the second page's cells
        path.write_bytes(bytes(data))

    return {
        "folder": folder,
        "FIFO": fifo,
        "link": link,
        "random bytes": random,
        "a damaged page": damaged_page,
    }


CACHE_DAMAGES = _cache_damages()


@pytest.mark.parametrize("case", list(CACHE_DAMAGES))
def test_a_statistics_cache_that_cannot_be_used_is_moved_aside_and_counted_again(
    state, tmp_path, case
):
    folder = _copy(state, tmp_path)
    cache = cache_of(folder / "journal.sqlite")
    with Journal(folder / "journal.sqlite") as journal, Stats(journal, cache) as stats:
        stats.refresh()
    for suffix in ("-wal", "-shm"):
        Path(f"{cache}{suffix}").unlink(missing_ok=True)
    if case != "a damaged page":
        cache.unlink()
    CACHE_DAMAGES[case](cache)
    kind = os.lstat(cache).st_mode
    journal, app = _start(folder)
    try:
        assert not _read_notices(app)
        assert not _statistics(app)
        (aside,) = folder.glob("stats.sqlite.damaged-*")  # named by the wall clock
        assert os.lstat(aside).st_mode == kind
        assert cache.is_file() and not cache.is_symlink()
        _plays_on(app, journal, tmp_path)
    finally:
        close_journal(journal)


class FullOnInsert:
    """The cache's connection with SQLite's "database or disk is full" on every INSERT: a
    full card at the moment of indexing, injected (no file system fills on cue)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, statement: str, *args):
        if statement.lstrip().upper().startswith("INSERT"):
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode = 13  # SQLITE_FULL
            raise error
        return self.db.execute(statement, *args)

    def __getattr__(self, name: str):
        return getattr(self.db, name)


def test_a_full_disk_while_indexing_is_a_notice_and_the_box_plays_on(state, tmp_path, monkeypatch):
    folder = _copy(state, tmp_path)
    journal, app = _start(folder)
    try:
        connect = statistics._connect
        monkeypatch.setattr(statistics, "_connect", lambda path: FullOnInsert(connect(path)))
        assert _statistics(app) == [("Statistics", "Storage full: some games are not counted yet.")]
        _at_home(app)
        _new_game_on_the_demo_deck(app)
        monkeypatch.setattr(statistics, "_connect", connect)  # space again
        _plays_on(app, journal, tmp_path)
    finally:
        close_journal(journal)


# --------------------------------------------------- finished games of the wrong shape


def _game_row(folder: Path, column: str, text: str, game: str = "pingwiny") -> int:
    db = sqlite3.connect(folder / "journal.sqlite")
    with db:
        (game_id,) = db.execute(
            "SELECT id FROM games WHERE json_extract(header, '$.game') = ?", (game,)
        ).fetchone()
        db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (text, game_id))
    db.close()
    return game_id


SHAPES = {
    "header a list": ("header", "[1, 2, 3]"),
    "summary a list": ("summary", "[1, 2, 3]"),
    "summary without totals": ("summary", '{"players": [{"player": 0}], "winners": [0]}'),
    "summary of strings": ("summary", '{"scores": ["a", "b"], "winners": ["x"]}'),
    "names not JSON": ("header", None),
    "summary without scores": ("summary", '{"winners": [0]}'),
    "summary empty": ("summary", "{}"),
    "winner not a seat": ("summary", '{"scores": [3, 4], "winners": [2]}'),
}


def test_two_finished_games_damaged_are_told_as_two(state, tmp_path):
    folder = _copy(state, tmp_path)
    for game in ("pingwiny", "popiel"):
        _game_row(folder, "summary", "[1, 2, 3]", game=game)
    journal, app = _start(folder)
    try:
        told = "2 finished games were damaged: they are kept aside, the others are safe."
        assert _statistics(app) == [("Statistics", told)]
    finally:
        close_journal(journal)


@pytest.mark.parametrize("case", list(SHAPES))
def test_a_finished_game_of_the_wrong_shape_is_skipped_and_kept_aside_once(state, tmp_path, case):
    folder = _copy(state, tmp_path)
    column, text = SHAPES[case]
    if text is None:  # the setup's names a bare string, which the statistics read as JSON
        db = sqlite3.connect(folder / "journal.sqlite")
        (header,) = db.execute("SELECT header FROM games ORDER BY id LIMIT 1").fetchone()
        db.close()
        head = json.loads(header)
        head["options"]["names"] = "Ala"
        text = json.dumps(head)
    original = text
    game_id = _game_row(folder, column, text)
    journal, app = _start(folder)  # the start does not read finished games: no word of it
    try:
        assert not _read_notices(app)
        told = _statistics(app)
        assert told == [
            ("Statistics", "1 finished game was damaged: it is kept aside, the others are safe.")
        ]
        (aside,) = folder.glob(f"journal.damaged-game-{game_id:05d}-*.json")
        assert json.loads(aside.read_text())[column] == original
        assert not _statistics(app)  # once
        with Stats(journal, cache_of(journal.path)) as stats:
            assert stats.games()["plays"] == 1
        assert _export(journal, tmp_path) == [
            "game-00002.json",
            "results-scorekeeping.json",
            "results.csv",
            "statistics.json",
        ]
        _new_game_on_the_demo_deck(app)
    finally:
        close_journal(journal)


def test_the_export_command_keeps_a_header_of_the_wrong_shape_aside(state, tmp_path, capsys):
    """``tableside export`` before any statistics: the game is kept aside, the others written."""
    from firmware_app.cli.main import main

    folder = _copy(state, tmp_path)
    game_id = _game_row(folder, "header", "[1, 2, 3]")
    out = tmp_path / "out"
    assert main(["export", "--state-dir", str(folder), "--out", str(out)]) == 0
    assert sorted(path.name for path in out.glob("game-*")) == ["game-00002.json"]
    (aside,) = folder.glob(f"journal.damaged-game-{game_id:05d}-*.json")
    assert json.loads(aside.read_text())["header"] == "[1, 2, 3]"
    assert "1 finished, 0 abandoned game(s) exported" in capsys.readouterr().out
