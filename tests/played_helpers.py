"""The state folder of the journal fault tests, played once as the daemon plays it, and
the box started on a copy of it as ``tableside run`` starts it.

``played`` (a fixture) plays a finished game (checkpointed into the main file and backed
up), then a second game of which the first ``BACKED_UP`` actions are in a backup and the
rest only in the write-ahead log, then a tag enrolled and the contrast changed; the files
are copied as a power cut would leave them (journal open, log full).
"""

import shutil
import time
from pathlib import Path

import pytest
from fault_kinds import OWNER
from test_history import checked

from firmware_app.app import App
from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.daemon import tell_start
from firmware_app.runners.headless import Headless
from firmware_app.store.journal import Journal
from firmware_app.store.recovery import open_journal
from firmware_app.store.rolling_backups import Backups
from firmware_app.store.statistics import Stats, cache_of
from firmware_app.ui.screens import Notice
from rules.record import replay

SEED = 5
BACKED_UP = 30  # actions of the second game in the backup
PLAYED = 60  # actions of the second game acknowledged in all
TAG = "0A0B0C0D0E"


def _play_to(sim: Headless, pilot: Autopilot, actions: int) -> None:
    while len(sim.app.session.states) - 1 < actions:
        assert pilot.step()


def _foreign_backup(folder: Path) -> tuple[Path, list[str]]:
    """A snapshot taken on another box (its own game in play), named newer than ours."""
    sim = Headless(folder / "state", seed=SEED + 7)
    for line in new_game_script(2):
        sim.command(line)
    _play_to(sim, Autopilot(sim, SEED + 7), 12)
    actions = sim.journal.record(sim.app.session.game_id)["actions"]
    path = Backups(sim.journal, clock=lambda: 1_800_000_000).take()
    sim.close()
    return path, actions


def finish_game(sim: Headless) -> None:
    """The game over: its end menu's last item (new game) chosen until no game is in play."""
    sim.press("ok")  # the end menu's first item: close the score sheet if shown
    while sim.app.session is not None:  # finish: new game
        top = sim.app.top
        if hasattr(top, "items"):
            top.cursor = len(top.items) - 1
        sim.press("ok")


@pytest.fixture(scope="module", name="played")
def played_fixture(tmp_path_factory):
    """The folder as the power cut left it, and what was acknowledged in it."""
    folder = tmp_path_factory.mktemp("played") / "state"
    sim = Headless(folder, seed=SEED)
    backups = Backups(sim.journal, clock=lambda: 1_700_000_000 + sim.now)
    sim.loop.backups = backups
    for line in new_game_script(2):
        sim.command(line)
    Autopilot(sim, SEED).play()
    first = sim.journal.record(sim.app.session.game_id)["actions"]
    finish_game(sim)
    sim.run_for(3)  # the backups look: the finished game is backed up and checkpointed
    for line in new_game_script(2):
        sim.command(line)
    pilot = Autopilot(sim, SEED + 1)
    _play_to(sim, pilot, BACKED_UP)
    assert backups.take() is not None
    backup = {
        "second": sim.journal.record(sim.app.session.game_id)["actions"],
        "tags": dict(sim.app.tags()),
    }
    _play_to(sim, pilot, PLAYED)
    sim.app.show_game()
    sim.tag(TAG)
    sim.press("ok")  # the first card not yet linked
    sim.press("ok")  # the notice "Tag ... is now ..."
    sim.app.set_setting("contrast", 17)
    foreign, foreign_actions = _foreign_backup(folder.parent / "other-box")
    acked = {
        "first": first,
        "second": sim.journal.record(sim.app.session.game_id)["actions"],
        "tags": dict(sim.app.tags()),
        "contrast": 17,
        "backup": backup,
        "foreign": foreign_actions,
    }
    assert TAG in acked["tags"] and len(acked["second"]) >= PLAYED
    saved = folder.parent / "as-cut"
    shutil.copytree(folder, saved, ignore=shutil.ignore_patterns("*-shm"))
    (saved / "journal.sqlite.running").touch()  # the daemon had it open
    shutil.copyfile(foreign, saved.parent / "foreign.sqlite")
    sim.close()
    return saved, acked


def _copy(played, tmp_path) -> Path:
    folder = tmp_path / "state"
    shutil.copytree(played[0], folder)
    shutil.copyfile(played[0].parent / "foreign.sqlite", tmp_path / "foreign.sqlite")
    return folder


def _start(folder: Path):
    """What ``tableside run`` does with the journal before its main loop, and the check
    after start-up (whose findings the loop shows)."""
    journal, outcome = open_journal(folder / "journal.sqlite")
    outcome.log()
    findings = checked(journal.path) if outcome.kind == "sound" else None
    if findings is not None and findings.recheck:
        # damage in the pages of sealed games, found after the first screen: mended at the
        # next start, which checks the whole file
        journal.close()
        journal, outcome = open_journal(folder / "journal.sqlite")
        outcome.log()
        findings = None
    app = App(journal, language="en", owner_catalogue=folder / OWNER)
    tell_start(app, outcome, [])
    if findings is not None and (lines := findings.message(app.t)):
        app.notice(app.t("Game record"), lines)
    return journal, outcome, app


def _games(journal: Journal) -> dict[str, list[str]]:
    db = journal._db
    rows = db.execute("SELECT id, outcome FROM games ORDER BY id").fetchall()
    return {outcome or "unfinished": journal.record(game)["actions"] for game, outcome in rows}


def _play_on(app: App) -> None:
    """Close any message and resume: the game in play takes the next action."""
    for _ in range(20):
        if not isinstance(app.top, Notice):
            break
        app.top.button("ok")
    assert app.render().text().startswith("[Tableside]")
    if app.session is None:
        return
    app.show_game()
    played_before = len(app.session.states)
    game = app.session.game
    action = next(iter(game.legal_actions(app.session.state)))
    assert app.act(str(action))
    assert len(app.session.states) == played_before + 1
    assert replay(app.journal.record(app.session.game_id)).final == app.session.state


def statistics_count_again(journal: Journal) -> None:
    """The statistics counted from the journal: its one finished game."""
    with Stats(journal, cache_of(journal.path)) as stats:
        stats.refresh()
        assert stats.games()["plays"] == 1


def cut_in_play(folder: Path, seed: int, actions: int) -> list[str]:
    """A game of ``actions`` actions played in ``folder``, which is left as a power cut leaves
    it (the log full); the game's actions."""
    sim = Headless(folder, seed=seed)
    for line in new_game_script(2):
        sim.command(line)
    _play_to(sim, Autopilot(sim, seed), actions)
    played = sim.journal.record(sim.app.session.game_id)["actions"]
    cut = folder.with_name(folder.name + "-cut")
    shutil.copytree(folder, cut, ignore=shutil.ignore_patterns("*-shm"))
    sim.close()
    shutil.rmtree(folder)
    cut.rename(folder)
    return played


def spin_until(ready, seconds: float) -> None:
    """Ask ``ready`` again and again, without sleeping, until it holds or ``seconds`` pass:
    a kill aimed at a window of a few milliseconds (a file that shows only while written)."""
    deadline = time.monotonic() + seconds
    while not ready() and time.monotonic() < deadline:
        pass
