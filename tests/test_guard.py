"""The guard: a bug in a screen, a job beside the play or a drawing never stops the box.

Each test runs the real app on the fakes (``Headless``), makes one method raise, and
checks what the table sees: the loop goes on ticking, the panel says what failed and that
the game is safe, the journal's actions and settings are as they were, and the next press
works. The screens are walked as a real game reaches them: the autopilot plays each game,
and the first time a kind of screen is on top, a press on it fails.
"""

import pytest
from screen_helpers import choose
from stick_helpers import FakeUnit, watch
from test_advanced_app import start_advanced
from test_popiel_app import START as POPIEL

from firmware_app.flows.pingwiny.turn import TurnMenu
from firmware_app.flows.pingwiny.virtual import Thinking
from firmware_app.flows.shared import stick
from firmware_app.guard import PARTS
from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.store.housekeeping import Keeper
from firmware_app.ui.screens import Menu, Notice
from rules.players import decides

pytestmark = pytest.mark.guarded
TITLE = "Unexpected error"
# docs/journal.md: "after 3 failures in a row the job is stopped until the next start"
STOPPED_AFTER = 3
SAFE = "The game is safe: every move made is saved."


class Bug(RuntimeError):
    """The error a test puts where the code had none."""


def fail(monkeypatch, owner, name: str, times: int = 1, error=Bug) -> list:
    """``owner.name`` raises ``error`` at its next ``times`` calls, then works again; the
    list returned grows by one at every call."""
    original, calls = getattr(owner, name), []

    def failing(*args, **kwargs):
        calls.append(args)
        if len(calls) <= times:
            raise error(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, failing)
    return calls


def kept(sim) -> list:
    """The journal's actions and settings, as rows."""
    db = sim.journal._db
    return [db.execute(f"SELECT * FROM {table}").fetchall() for table in ("actions", "settings")]


def told(sim) -> str:
    """The panel on one line."""
    return " ".join(sim.screen.split())


def guarded(sim, rows, part: str) -> None:
    """The panel shows the guard's notice about ``part``; the journal is as it was; the
    loop goes on ticking."""
    assert told(sim).startswith(f"[{TITLE}]") and f"{PARTS[part]} {SAFE}" in told(sim)
    assert kept(sim) == rows
    sim.run_for(1.0)
    assert told(sim).startswith(f"[{TITLE}]")


@pytest.fixture
def sim(tmp_path):
    sim = Headless(tmp_path / "state", language="en", seed=3)
    yield sim
    sim.close()


def start_family(sim) -> None:
    """A family game at its first turn, the setup's notices read."""
    for line in new_game_script(2):
        sim.command(line)
    while isinstance(sim.app.top, Notice):
        sim.press("ok")


def start_popiel(sim) -> None:
    for line in POPIEL:
        sim.command(line)


# --------------------------------------------------------------- the screens


@pytest.mark.parametrize(
    "way, part",
    [
        ([], "screen"),
        (["press down", "press ok"], "screen"),
        (["press down 2", "press ok"], "statistics"),
    ],
    ids=["home", "settings", "statistics"],
)
def test_a_failing_press_on_a_menu_outside_the_game_comes_back_to_it(sim, monkeypatch, way, part):
    for line in way:
        sim.command(line)
    top, rows, shown = sim.app.top, kept(sim), told(sim)
    fail(monkeypatch, type(top), "button")
    sim.press("ok")
    guarded(sim, rows, part)
    sim.press("ok")  # the notice read: the menu as it was
    assert sim.app.top is top and told(sim) == shown
    sim.press("down")
    assert sim.app.top is top and told(sim) != shown


def press_fails(sim, monkeypatch) -> None:
    """A press on the screen on top fails; once the notice is read, that screen is back."""
    top, rows = sim.app.top, kept(sim)
    fail(monkeypatch, type(top), "button")
    sim.press("ok")
    guarded(sim, rows, top.part)
    sim.press("ok")
    assert sim.app.top is top


def walk(sim, monkeypatch, actions: int | None = None) -> set[str]:
    """The autopilot plays on (to the end, or ``actions`` actions); the first time each kind
    of screen is on top, a press on it fails, and the table goes on from that screen."""
    pilot, tried = Autopilot(sim, seed=7), set()
    while actions is None or len(sim.app.session.states) <= actions:
        if type(sim.app.top).__name__ not in tried:
            tried.add(type(sim.app.top).__name__)
            press_fails(sim, monkeypatch)
        if not pilot.step():
            break
    return tried


def test_every_screen_of_a_family_game_to_its_end_survives_a_failing_press(sim, monkeypatch):
    start_family(sim)
    tried = walk(sim, monkeypatch)
    assert sim.app.session.over  # every press after each failure worked
    assert tried == {"TurnMenu", "Headquarters", "Menu", "Notice"}
    assert told(sim).startswith("[Game over]")
    press_fails(sim, monkeypatch)  # the end screen itself
    sim.press("ok")
    assert told(sim).startswith("[Score sheet]")


def test_every_screen_of_an_advanced_turn_survives_a_failing_press(sim, monkeypatch):
    start_advanced(sim)
    tried = walk(sim, monkeypatch, actions=60)
    assert len(sim.app.session.states) > 60
    assert {"AdvancedTurn", "Headquarters", "Notice"} <= tried, tried


def test_every_screen_of_a_popiel_turn_survives_a_failing_press(sim, monkeypatch):
    start_popiel(sim)
    tried = walk(sim, monkeypatch, actions=20)
    assert len(sim.app.session.states) > 20
    assert {"Menu", "Notice"} <= tried, tried  # its turn screen is a menu


def test_a_virtual_players_failing_steps_come_back_to_them(sim, monkeypatch):
    for line in new_game_script(2, virtual="easy"):
        sim.command(line)
    tried = walk(sim, monkeypatch, actions=10)
    assert "VirtualStep" in tried, tried


def test_a_failing_virtual_player_leaves_its_thinking_screen(sim, monkeypatch):
    """The hint thinks on a slow screen (the box has a thinking clock): its work fails."""
    start_family(sim)
    pilot, session = Autopilot(sim, seed=7), sim.app.session
    while not isinstance(sim.app.top, TurnMenu) or decides(session.game, session.state) is None:
        pilot.step()  # to a turn with a choice
    turn, rows = sim.app.top, kept(sim)
    sim.app.think_clock = lambda: sim.now
    calls = fail(monkeypatch, Thinking, "work")
    choose(sim, "Hint")
    assert len(calls) == 1  # the work ran once, then its screen left
    guarded(sim, rows, "virtual")
    assert not any(isinstance(screen, Thinking) for screen in sim.app.stack)
    more = sim.app.stack[-2]
    assert isinstance(more, Menu) and more is not turn
    sim.press("ok")
    assert sim.app.top is more
    sim.press("back")
    assert sim.app.top is turn


# ------------------------------------------------------------------ drawing


def test_a_failing_draw_comes_back_to_the_screen_under_the_notice(sim, monkeypatch):
    start_family(sim)
    turn, rows = sim.app.top, kept(sim)
    fail(monkeypatch, type(turn), "draw")
    sim.press("down")
    guarded(sim, rows, "drawing")
    sim.press("ok")
    assert sim.app.top is turn and "> " in told(sim)


def test_when_nothing_can_be_drawn_the_panel_shows_a_plain_frame(sim, monkeypatch):
    rows = kept(sim)
    fail(monkeypatch, Menu, "draw", times=1000)
    fail(monkeypatch, Notice, "draw", times=1000)
    sim.press("down")
    assert told(sim) == f"[{TITLE}] {PARTS['drawing']} {SAFE}"
    assert kept(sim) == rows
    sim.run_for(1.0)
    monkeypatch.undo()
    sim.press("ok")  # the notice under the plain frame read: the home menu again
    assert told(sim).startswith("[Tableside]")


@pytest.mark.parametrize("stop", [SystemExit, KeyboardInterrupt])
def test_a_stop_is_no_error_and_goes_through(sim, monkeypatch, stop):
    """SIGTERM raises ``SystemExit`` wherever the daemon is, a screen's handler too."""
    fail(monkeypatch, type(sim.app.top), "button", error=stop)
    with pytest.raises(stop):
        sim.press("ok")


# ----------------------------------------------------------- the no-loop rule


def test_the_same_error_twice_in_a_row_ends_at_home(sim, monkeypatch):
    start_family(sim)
    turn, rows = sim.app.top, kept(sim)
    fail(monkeypatch, type(turn), "button", times=2)
    sim.press("ok")
    guarded(sim, rows, "screen")
    sim.press("ok")  # the notice read: the turn as it was
    assert sim.app.top is turn
    sim.press("ok")  # the same error again: home, said once
    guarded(sim, rows, "screen")
    sim.press("ok")
    assert told(sim).startswith("[Tableside]") and len(sim.app.stack) == 1
    frames = len(sim.frames)
    sim.run_for(2.0)
    assert len(sim.frames) == frames  # nothing more happens by itself
    sim.press("ok")  # resume: the game, whose press works again
    assert isinstance(sim.app.top, TurnMenu) and sim.app.top is not turn
    sim.press("ok")
    assert len(kept(sim)[0]) == len(rows[0]) + 1


# ------------------------------------------------------------------ the jobs


def back_to_the_turn(sim, turn, rows) -> None:
    """The notice read: the turn as it was, whose next move is saved."""
    sim.press("ok")
    assert sim.app.top is turn
    sim.press("ok")
    assert len(kept(sim)[0]) == len(rows[0]) + 1


def start_with_keeper(sim) -> Keeper:
    """A family game at its first turn, with the daemon's housekeeping (backups) beside it."""
    start_family(sim)
    keeper = sim.loop.backups = Keeper(sim.journal, beside=False)
    return keeper


def test_a_failing_backup_is_said_and_the_backups_go_on(sim, monkeypatch):
    keeper = start_with_keeper(sim)
    turn, rows = sim.app.top, kept(sim)
    calls = fail(monkeypatch, keeper.backups, "tick")
    sim.run_for(0.02)
    guarded(sim, rows, "backups")
    assert len(calls) > STOPPED_AFTER  # tried again at every tick: one failure stops nothing
    back_to_the_turn(sim, turn, rows)


def test_a_job_failing_every_tick_is_stopped_and_said_once(sim, monkeypatch):
    keeper = start_with_keeper(sim)
    turn, rows = sim.app.top, kept(sim)
    calls = fail(monkeypatch, keeper, "tick", times=1000)
    sim.run_for(1.0)
    assert len(calls) == STOPPED_AFTER
    guarded(sim, rows, "backups")
    assert [type(screen) for screen in sim.app.stack[1:]] == [Notice]  # one notice
    back_to_the_turn(sim, turn, rows)
    assert len(calls) == STOPPED_AFTER  # still stopped


def test_a_failing_stick_leaves_its_half_shown_screens(sim, monkeypatch, tmp_path):
    start_family(sim)
    turn, rows = sim.app.top, kept(sim)
    watch(sim, tmp_path / "run")
    unit = FakeUnit(tmp_path / "run")
    fail(monkeypatch, stick, "Job")  # after its "Writing…" screen was put up
    unit.plug()
    sim.run_for(1.5)
    guarded(sim, rows, "stick")
    assert sim.app.stack[:-1] == [turn]
    back_to_the_turn(sim, turn, rows)
