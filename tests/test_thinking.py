"""While a virtual player thinks: "Thinking…" on the panel first, what is pressed meanwhile
dropped, and every step the table must carry out held until an OK pressed after it.

The search is made to "take" a while by a stand-in for ``virtual.think`` that presses
buttons (or types keys) during it, at the times a person would, and moves the clock on;
the real search then chooses. Each runner is checked: the headless runner, the daemon's
loop on the fake drivers, and the terminal simulator's curses loop.
"""

import curses
from types import SimpleNamespace

import pytest

import rules.players
from firmware_app.flows.pingwiny import virtual
from firmware_app.flows.pingwiny.virtual import Thinking, VirtualStep
from firmware_app.loop import Loop
from firmware_app.runners import terminal
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.session import Session
from firmware_app.ui.screens import Notice
from hw.buttons import FakeButtons
from hw.display import FakeDisplay
from hw.rfid.fake import FakeReader
from rules.pingwiny.options import Options
from tests.test_terminal import Typist

SEARCH = 0.4  # how long the stand-in search takes, in seconds of the runner's clock


@pytest.fixture(autouse=True)
def brief_thinking(monkeypatch):
    """Small budgets: these tests hold what is shown, the benchmark how well it plays."""
    monkeypatch.setitem(rules.players.NODES, "normal", 40)
    monkeypatch.setitem(rules.players.NODES, "strong", 60)


def on_the_panel(app, variant="family", players=2, seed=5, virtual=None) -> None:
    """A new game of the demo deck on the panel; ``virtual``: the level of each seat."""
    options = Options(players=players, seed=seed, virtual=virtual)
    box = app.catalogue(demo=True)
    app.session = Session.start(app.journal, options, box, now=0.0, game=("pingwiny", variant))
    app.show_game()


def virtual_game(sim, seats=(None, "normal")) -> None:
    """A family game with ``seats`` (None: a person)."""
    on_the_panel(sim.app, virtual=tuple(seats))


def played(app) -> int:
    return len(app.session.states)


def slow_search(monkeypatch, during):
    """``virtual.think`` as a search that takes a while: ``during()`` runs in it (the presses
    made meanwhile); returns the list of what was on the panel each time it began."""
    seen = []
    real = virtual.think

    def think(app, level, turn=True):
        seen.append(app.top)
        during()
        return real(app, level, turn)

    monkeypatch.setattr(virtual, "think", think)
    return seen


def press_during(buttons, start: float, names: list[str]) -> None:
    """Short presses of ``names`` one after another, from ``start``, as a person makes them."""
    for i, name in enumerate(names):
        buttons.press(name, start + 0.1 * i + 0.01)
        buttons.release(name, start + 0.1 * i + 0.08)


# ------------------------------------------------------------- headless


@pytest.fixture
def sim(tmp_path, monkeypatch):
    sim = Headless(tmp_path, language="en", seed=5)
    monkeypatch.setattr(sim.app, "think_clock", lambda: sim.now)  # a box: it has a clock
    yield sim
    sim.close()


def to_thinking(sim) -> None:
    """The humans (the autopilot) play until a virtual seat thinks."""
    pilot = Autopilot(sim, seed=2)
    for _ in range(500):
        if isinstance(sim.app.top, VirtualStep):
            return
        pilot.step()
    raise AssertionError(sim.screen)


def test_presses_made_while_a_virtual_player_thinks_are_dropped(sim, monkeypatch):
    """OK, DOWN, OK and BACK pressed during the search: none plays the move, opens its menu
    or reaches the step; the step is on the panel until an OK pressed after it."""

    def during():
        press_during(sim.buttons, sim.now, ["ok", "down", "ok", "back"])
        sim.now += SEARCH

    seen = slow_search(monkeypatch, during)
    virtual_game(sim)
    to_thinking(sim)
    assert [type(screen) for screen in seen] == [Thinking]
    step, before = sim.app.top, played(sim.app)
    sim.run_for(2.0)
    assert sim.app.top is step and played(sim.app) == before
    sim.press("ok")
    assert played(sim.app) == before + 1


def test_the_thinking_screen_is_on_the_panel_before_the_search_runs(sim, monkeypatch):
    shown = []

    def during():
        on_panel = sim.display.last_image.tobytes() == sim.loop.frame.image.tobytes()
        shown.append((" ".join(sim.screen.split()), on_panel))

    slow_search(monkeypatch, during)
    virtual_game(sim)
    to_thinking(sim)
    assert shown == [("[Player 2: Normal] Thinking…", True)]
    assert "[Player 2: Normal] Thinking…" in [" ".join(f.split()) for f in sim.frames]


def test_a_hints_thinking_drops_presses_too(sim, monkeypatch):
    from firmware_app.flows.pingwiny.turn import TurnMenu
    from tests.test_seats import choose

    virtual_game(sim, seats=(None, "easy"))
    pilot = Autopilot(sim, seed=1)
    while sim.app.session.state.phase != "visit" or not isinstance(sim.app.top, TurnMenu):
        pilot.step()

    def during():
        press_during(sim.buttons, sim.now, ["ok", "ok"])
        sim.now += SEARCH

    seen = slow_search(monkeypatch, during)
    before = played(sim.app)
    choose(sim, "Hint")
    sim.run_for(1.0)
    assert [type(screen) for screen in seen] == [Thinking]
    assert sim.screen.splitlines()[0] == "[Hint]" and played(sim.app) == before


def test_each_step_the_table_carries_out_waits_for_ok(sim):
    """After OK on the move, each thing to do stays however long the table takes."""
    virtual_game(sim)
    to_thinking(sim)
    sim.press("ok")
    steps = 0
    while isinstance(sim.app.top, Notice) and not isinstance(sim.app.top, VirtualStep | Thinking):
        shown = sim.screen
        sim.run_for(30.0)
        assert sim.screen == shown
        sim.press("ok")
        steps += 1
    assert steps


# ------------------------------------------------------------ the daemon's loop


def test_the_daemons_loop_drops_the_presses_made_while_it_thought(tmp_path, monkeypatch):
    """The daemon's composition: the loop on the button driver's machines, fed edges
    stamped by the pins' callbacks while the search held the loop up."""
    host = Headless(tmp_path, language="en", seed=5)
    try:
        app = host.app
        now = [100.0]
        buttons = FakeButtons()
        loop = Loop(app, buttons, FakeReader(), FakeDisplay(clock=lambda: now[0]))
        monkeypatch.setattr(app, "think_clock", lambda: now[0])

        def run_for(seconds: float) -> None:
            for _ in range(round(seconds / 0.01)):
                now[0] = round(now[0] + 0.01, 6)
                loop.tick(now[0])

        def during():
            press_during(buttons, now[0], ["ok", "back", "ok"])
            now[0] += SEARCH

        seen = slow_search(monkeypatch, during)
        virtual_game(host, seats=("normal", None))
        run_for(0.05)
        while not seen:  # the draw that starts the game is the table's: OK draws
            press_during(buttons, now[0], ["ok"])
            run_for(0.3)
        assert [type(screen) for screen in seen] == [Thinking]
        step, before = app.top, played(app)
        assert isinstance(step, VirtualStep)
        run_for(2.0)
        assert app.top is step and played(app) == before
    finally:
        host.close()


# -------------------------------------------------------------- the terminal


class FakeScreen:
    """The curses window ``_play`` draws on and reads keys from, on a virtual clock:
    OK until a virtual player has thought, then ``q``."""

    def __init__(self, clock: list[float], thought) -> None:
        self.clock, self.thought = clock, thought
        self.keys: list = []  # typed and not read yet
        self.cells: dict = {}
        self.flushed = 0

    def getmaxyx(self):
        return (45, 164)

    def timeout(self, ms):
        pass

    def get_wch(self):
        if self.keys:
            return self.keys.pop(0)
        return "q" if self.thought() else "\n"

    def erase(self):
        self.cells = {}

    def addstr(self, row, col, text):
        self.cells[row, col] = text

    def refresh(self):
        pass

    def text(self) -> str:
        return " ".join(self.cells[key] for key in sorted(self.cells))

    def flushinp(self):
        self.keys.clear()
        self.flushed += 1


def test_the_terminal_draws_thinking_first_and_drops_the_keys_typed_meanwhile(
    tmp_path, monkeypatch
):
    typist = Typist(tmp_path)
    try:
        app = typist.app
        virtual_game(typist, seats=("normal", None))
        typist.tick()
        clock = [typist.now]
        seen = []
        screen = FakeScreen(clock, lambda: bool(seen))

        def during():
            seen.append((screen.text(), played(app)))
            screen.keys += ["\n", "\n", curses.KEY_DOWN, "\n"]  # typed while it thinks
            clock[0] += SEARCH

        slow_search(monkeypatch, during)
        fake_curses = SimpleNamespace(
            curs_set=lambda n: None,
            set_escdelay=lambda ms: None,
            napms=lambda ms: clock.__setitem__(0, clock[0] + ms / 1000),
            flushinp=screen.flushinp,
            error=curses.error,
            KEY_RESIZE=curses.KEY_RESIZE,
        )
        monkeypatch.setattr(terminal, "curses", fake_curses)
        monkeypatch.setattr(terminal, "time", SimpleNamespace(monotonic=lambda: clock[0]))
        terminal._play(screen, typist.sim)
        ((drawn, before),) = seen
        assert "Thinking…" in drawn  # on the terminal before the search began
        assert screen.flushed == 1
        assert isinstance(app.top, VirtualStep) and played(app) == before
    finally:
        typist.sim.close()


def test_the_virtual_turns_benchmark_times_the_thinking_of_a_game_opening():
    from tests.test_benchmarks_run import positive, run

    result = run("virtual_turns.py", "--variant", "advanced", "--games", "1", "--presses", "40")
    assert result["turns"] >= 1 and result["moves"] >= result["turns"]
    for key in ("turn_wall_ms_p50", "turn_wall_ms_p95", "turn_cpu_ms_p95", "move_wall_ms_p95"):
        assert positive(result[key]), key
    assert result["turn_wall_ms_p50"] <= result["turn_wall_ms_p95"]
