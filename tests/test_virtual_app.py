"""Virtual seats on the panel, through the buttons on the fakes: setup, steps, undo, hints."""

import pytest

import rules.players
from firmware_app.flows.pingwiny.turn import TurnMenu
from firmware_app.flows.pingwiny.virtual import VirtualStep
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.ui.screens import Notice
from rules.record import replay
from tests.test_seats import choose, labels, title, to_the_family_seats


@pytest.fixture(autouse=True)
def brief_thinking(monkeypatch):
    """Small level budgets, for the tests marked ``full_thinking`` (the others think for
    ``BRIEF_THINKING`` states): the tests hold what is shown, the benchmark how well it plays."""
    monkeypatch.setitem(rules.players.NODES, "normal", 40)
    monkeypatch.setitem(rules.players.NODES, "strong", 60)


def start(sim, seats: list[str], first: int = 0) -> None:
    """A family game of the demo deck; ``seats`` are the labels chosen on each seat's menu."""
    to_the_family_seats(sim, players=len(seats))
    sim.press("ok", 2)  # no names, the app deals
    sim.press("down", first + 1)  # this player starts
    sim.press("ok")
    assert title(sim) in ("[Virtual players]", "[Gracze wirtualni]")
    sim.press("down")
    sim.press("ok")  # choose the virtual seats
    for label in seats:
        choose(sim, label)
    while isinstance(sim.app.top, Notice) and not isinstance(sim.app.top, VirtualStep):
        sim.press("ok")  # the setup pages


def until_virtual(sim, pilot) -> VirtualStep:
    """Let the humans (the autopilot) play until a virtual seat must choose."""
    for _ in range(500):
        if isinstance(sim.app.top, VirtualStep):
            return sim.app.top
        pilot.step()
    raise AssertionError(sim.screen)


@pytest.fixture
def sim(tmp_path):
    sim = Headless(tmp_path, language="en", seed=5)
    yield sim
    sim.close()


def test_the_seats_question_offers_each_level_and_the_record_keeps_them(sim):
    to_the_family_seats(sim, players=3)
    sim.press("ok", 3)
    assert labels(sim) == ["Everyone plays", "Choose virtual seats"]
    sim.press("down")
    sim.press("ok")
    assert title(sim) == "[Player 1]"
    assert labels(sim) == [
        "Plays at the table",
        "Virtual: easy",
        "Virtual: normal",
        "Virtual: strong",
    ]
    for label in ("Plays at the table", "Virtual: normal", "Virtual: strong"):
        choose(sim, label)
    session = sim.app.session
    assert session.game.options.virtual == (None, "normal", "strong")
    record = sim.journal.record(session.game_id)
    assert record["options"]["virtual"] == [None, "normal", "strong"]
    assert replay(record).game.options.virtual == (None, "normal", "strong")


@pytest.mark.parametrize(
    ("language", "level", "who"),
    [("en", "Virtual: normal", "Player 2"), ("pl", "Wirtualny: zwykły", "Gracz 2")],
)
def test_a_virtual_turn_is_told_one_step_at_a_time_and_each_waits_for_ok(
    tmp_path, language, level, who
):
    sim = Headless(tmp_path, language=language, seed=5)
    try:
        human = "Plays at the table" if language == "en" else "Gra przy stole"
        start(sim, [human, level], first=1)
        pilot = Autopilot(sim, seed=2)
        step = until_virtual(sim, pilot)
        session = sim.app.session
        assert session.state.current == 1
        assert title(sim).startswith(f"[{who}: ")
        described = " ".join(line.strip() for line in sim.screen.splitlines()[1:])
        assert described.startswith(f"{who}") and step.action
        before = len(session.states)
        sim.press("ok")
        assert len(session.states) == before + 1  # journalled before anything is shown
        assert str(session.journal.record(session.game_id)["actions"][-1]).startswith("visit")
        steps = []
        while isinstance(sim.app.top, Notice) and not isinstance(sim.app.top, VirtualStep):
            assert title(sim) == f"[{who}]"
            steps.append(sim.screen.splitlines()[1:])
            sim.press("ok")
        assert steps, "each thing the table must do has a screen"
        assert all(len(" ".join(lines)) > 3 for lines in steps)
    finally:
        sim.close()


def test_undo_across_a_virtual_turn_comes_back_to_the_same_move_and_redo_replays_it(sim):
    start(sim, ["Plays at the table", "Virtual: normal"], first=1)
    pilot = Autopilot(sim, seed=3)
    first = until_virtual(sim, pilot)
    shown, action = sim.screen, first.action
    sim.press("ok")
    session = sim.app.session
    after = session.state
    while not isinstance(sim.app.top, VirtualStep | TurnMenu):
        sim.press("ok")
    sim.command("hold back")  # undo
    while not isinstance(sim.app.top, VirtualStep):
        sim.press("ok")  # the "Undone" notice
    assert sim.screen == shown and sim.app.top.action == action  # it thinks the same again
    sim.press("back")  # the virtual turn's other choices
    choose(sim, "Redo")
    assert session.state == after


def test_a_redone_virtual_move_is_the_journalled_one_even_if_it_would_think_otherwise(sim):
    start(sim, ["Plays at the table", "Virtual: strong"], first=1)
    pilot = Autopilot(sim, seed=3)
    until_virtual(sim, pilot)
    sim.press("ok")
    session = sim.app.session
    played = sim.journal.record(session.game_id)["actions"][-1]
    sim.app.undo()
    sim.app.redo()
    assert sim.journal.record(session.game_id)["actions"][-1] == played


def test_the_hint_is_the_normal_move_with_a_reason(sim):
    start(sim, ["Plays at the table", "Virtual: easy"], first=0)
    session = sim.app.session
    while session.state.phase != "visit" or not isinstance(sim.app.top, TurnMenu):
        Autopilot(sim, seed=1).step()
    choose(sim, "Hint")
    assert title(sim) == "[Hint]"
    lines = sim.app.top.lines
    text = " ".join(lines)
    assert text.startswith("Player 1")
    assert len(lines) >= 2


def test_a_hint_while_chance_is_to_come_says_there_is_nothing_to_choose(sim):
    start(sim, ["Plays at the table", "Virtual: easy"], first=0)
    assert sim.app.session.state.phase == "draw"
    choose(sim, "Hint")
    assert sim.app.top.lines == ["Nothing to choose now."]


def test_a_whole_game_with_one_person_and_three_virtual_seats(sim):
    start(sim, ["Plays at the table", "Virtual: easy", "Virtual: normal", "Virtual: strong"])
    Autopilot(sim, seed=4).play()
    session = sim.app.session
    assert session.over
    record = sim.journal.record(session.game_id)
    assert replay(record).final == session.state
    assert record["options"]["virtual"] == [None, "easy", "normal", "strong"]


def test_a_whole_game_with_only_virtual_seats_through_the_buttons(sim):
    start(sim, ["Virtual: normal", "Virtual: normal"])
    presses = 0
    while not sim.app.session.over:
        assert isinstance(sim.app.top, Notice | TurnMenu), sim.screen
        if isinstance(sim.app.top, TurnMenu):  # the draws: the app is the bag
            assert sim.app.top.items[0].label.startswith("Draw")
        sim.press("ok")
        presses += 1
        assert presses < 5000
    end = sim.app.session.state
    assert all(sum(p.tokens) <= 6 for p in end.players)


def test_at_a_table_that_draws_for_real_the_humans_enter_what_the_virtual_player_drew(tmp_path):
    from firmware_app.flows.pingwiny.virtual import carry_out
    from firmware_app.ui.screens import ColourEntry
    from rules.actions import Action

    sim = Headless(tmp_path, language="en", seed=5)
    try:
        sim.command("press ok")
        sim.command("press ok")
        sim.press("ok", 2)  # 2 players, normal game
        sim.press("down")
        sim.press("ok")  # we draw from the bag
        sim.press("ok")  # the app shuffles
        sim.press("down")
        sim.press("ok")  # demo deck
        sim.press("ok", 2)
        sim.press("down")
        sim.press("ok")  # player 1 starts
        sim.press("down")
        sim.press("ok")
        choose(sim, "Virtual: normal")
        choose(sim, "Plays at the table")
        session = sim.app.session
        while session.state.phase == "draw":
            Autopilot(sim, seed=1).step()
        while not isinstance(sim.app.top, VirtualStep):
            sim.press("ok")
        carry_out(sim.app, Action("visit", "otter"))
        assert isinstance(sim.app.top, ColourEntry)
        colour = sim.app.top.allowed[0]
        sim.press(colour)
        assert sim.journal.record(session.game_id)["actions"][-1] == f"visit otter {colour}"
    finally:
        sim.close()


def test_the_popiel_setup_says_why_it_has_no_virtual_player(sim):
    sim.press("ok")  # New game
    choose(sim, "King Popiel")
    assert "No virtual players" in " ".join(sim.screen.split())


@pytest.mark.whole_game
@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_every_choice_of_a_whole_game_is_said_in_words_with_a_reason(tmp_path, variant, language):
    """The step and hint lines for every legal action where a player chooses, including
    the moves that name no spot (``move hq``, which once broke the hint) and blockades."""
    from firmware_app.flows.pingwiny.hint import reason
    from firmware_app.flows.pingwiny.virtual import describe
    from rules.players import decides
    from tests.test_plain_words import notation
    from tests.test_thinking import on_the_panel

    sim = Headless(tmp_path, language=language, seed=3)
    try:
        app = sim.app
        on_the_panel(app, variant, players=3, seed=3)
        pilot, said, verbs = Autopilot(sim, seed=3), 0, set()
        while pilot.step():
            session = app.session
            if not isinstance(app.top, TurnMenu) or decides(session.game, session.state) is None:
                continue
            who = app.t("Player {n}", n=session.state.current + 1)
            for action in session.game.legal_actions(session.state):
                line, why = describe(app, action), reason(app, action)
                assert line.startswith(who) and line != f"{who}: {action}", line
                assert len(action) == 1 or not notation(str(action)).search(line), line
                assert why.endswith("."), why
                said += 1
                verbs.add(action[1] if action.verb == "visit" else action.verb)
        assert said > 100
        if variant == "advanced":
            assert {"move", "block", "take", "hq"} <= verbs
    finally:
        sim.close()


@pytest.mark.full_thinking  # the levels' budgets against the clock
def test_on_the_box_the_node_budget_ends_the_thinking_and_the_clock_only_caps_it(sim, monkeypatch):
    """The box thinks the move the tests and the benchmark think (the same budget, the
    same seed), unless its clock reaches the cap first: then it stops there."""
    from firmware_app.flows.pingwiny import virtual

    monkeypatch.setitem(rules.players.NODES, "strong", 400)
    start(sim, ["Virtual: strong", "Plays at the table"])
    until_virtual(sim, Autopilot(sim, seed=2))
    assert sim.app.think_clock is None  # headless: the node budget alone
    counted = virtual.think(sim.app, "strong")
    monkeypatch.setattr(sim.app, "think_clock", lambda: 0.0)  # a clock that never runs out
    assert virtual.think(sim.app, "strong") == counted
    ticks = iter(range(10_000))
    monkeypatch.setattr(sim.app, "think_clock", lambda: next(ticks))  # a second a look
    capped = virtual.think(sim.app, "strong")
    assert capped.iterations < counted.iterations
    assert capped.iterations <= virtual.THINKING_CAP["strong"]


def test_the_apps_cap_on_states_ends_each_move_by_the_budget_or_on_the_clock(sim, monkeypatch):
    """``App.think_nodes`` caps a move's engine states, with or without a thinking clock:
    a cap of one state ends the search after its first walk; None gives the level's budget."""
    from firmware_app.flows.pingwiny import virtual

    monkeypatch.setitem(rules.players.NODES, "strong", 400)  # a few walks a move
    start(sim, ["Virtual: strong", "Plays at the table"])
    until_virtual(sim, Autopilot(sim, seed=2))
    monkeypatch.setattr(sim.app, "think_nodes", None)
    assert virtual.think(sim.app, "strong").iterations > 1
    monkeypatch.setattr(sim.app, "think_nodes", 1)
    assert virtual.think(sim.app, "strong").iterations == 1
    monkeypatch.setattr(sim.app, "think_clock", lambda: 0.0)  # a clock that never runs out
    assert virtual.think(sim.app, "strong").iterations == 1


def test_on_the_box_the_panel_says_thinking_while_the_search_runs(sim, monkeypatch):
    """With a thinking clock the panel shows "Thinking…" first, and the step (or the hint)
    replaces it when the search is done, without a press."""
    from itertools import count

    from firmware_app.flows.pingwiny import virtual

    shown = []
    real_think = virtual.think

    def think(app, level, turn=True):
        shown.append(" ".join(sim.screen.split()))  # the frame on the panel meanwhile
        return real_think(app, level, turn)

    ticks = count()
    monkeypatch.setattr(sim.app, "think_clock", lambda: next(ticks) * 0.1)
    monkeypatch.setattr(virtual, "think", think)
    start(sim, ["Plays at the table", "Virtual: normal"])
    until_virtual(sim, Autopilot(sim, seed=2))
    assert shown[-1] == "[Player 2: Normal] Thinking…"
    while not isinstance(sim.app.top, TurnMenu) or sim.app.session.state.phase != "visit":
        Autopilot(sim, seed=1).step()
    choose(sim, "Hint")
    assert shown[-1] == "[Hint] Thinking…"
    assert title(sim) == "[Hint]" and len(sim.app.top.lines) >= 2


@pytest.mark.full_thinking  # the levels' budgets against the clock
@pytest.mark.whole_game
def test_on_the_box_a_whole_turn_thinks_no_longer_than_its_cap(sim, monkeypatch):
    """The family turn's second visit may think only what the first left of the cap; the
    next turn has the whole cap again, and so has a hint."""
    from firmware_app.flows.pingwiny import virtual

    monkeypatch.setitem(rules.players.NODES, "normal", 100_000)  # only the clock stops it
    start(sim, ["Plays at the table", "Virtual: normal"])
    until_virtual(sim, Autopilot(sim, seed=2))
    seconds = iter(range(100_000))
    monkeypatch.setattr(sim.app, "think_clock", lambda: next(seconds))  # a second a look
    monkeypatch.setitem(virtual.THINKING_CAP, "normal", 5)
    first = virtual.think(sim.app, "normal")
    assert first.stopped == "clock" and first.iterations == 5  # a look after each walk
    assert virtual.think(sim.app, "normal", turn=False).iterations == 5  # a hint
    sim.app.act(str(first.action))
    session = sim.app.session
    assert session.state.current == 1  # the family turn's second visit
    second = virtual.think(sim.app, "normal")
    assert second.stopped == "clock" and second.iterations == 1  # one walk at least


def test_a_virtual_player_does_not_decide_while_a_draw_is_still_due(sim):
    """The rulebook's turn: "First, draw 2 tokens from the bag." The draw is chance, not
    the virtual player's choice: its turn shows the draw on the turn menu as for anyone,
    and only once the tokens are drawn does the virtual player say what it does."""
    start(sim, ["Virtual: normal", "Plays at the table"], first=0)
    state = sim.app.session.state
    assert (state.current, state.phase) == (0, "draw")
    assert isinstance(sim.app.top, TurnMenu) and "> Draw 2 tokens" in sim.screen
    sim.press("ok")  # the app's bag draws
    while isinstance(sim.app.top, Notice) and not isinstance(sim.app.top, VirtualStep):
        sim.press("ok")  # what was drawn
    assert sim.app.session.state.phase == "visit"
    assert isinstance(sim.app.top, VirtualStep) and sim.screen.startswith("[Player 1: Normal]")
