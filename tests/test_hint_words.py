"""The hint's words: what to do this turn, said fully, and one sentence of why that promises
only what the table can surely carry out this turn.

Whole games are played by the autopilot; at every choice the hint's move and plan are
taken as the panel takes them, and each promise is checked against the real engine
(the real state, not the sampled world the hint reasons in).
"""

import pytest

import rules.players
from firmware_app.flows.pingwiny import virtual
from firmware_app.flows.pingwiny.turn import TurnMenu
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.words.table_text import counted, exchange_label
from rules.actions import Action
from rules.colours import COLOURS
from rules.players import decides, move_seed
from rules.players.sampling import app_random, sample
from tests.test_thinking import on_the_panel


@pytest.fixture(autouse=True)
def brief_thinking(monkeypatch):
    monkeypatch.setitem(rules.players.NODES, "normal", 240)  # a turn: 120 a family move


def hints(tmp_path, variant: str, language: str = "en", limit: int = 60):
    """``(app, choice)`` at each of the first ``limit`` choices of an autopilot game."""
    sim = Headless(tmp_path, language=language, seed=3)
    try:
        app = sim.app
        on_the_panel(app, variant, seed=4)
        pilot, seen = Autopilot(sim, seed=3), 0
        while seen < limit and pilot.step():
            session = app.session
            if isinstance(app.top, TurnMenu) and decides(session.game, session.state) is not None:
                seen += 1
                yield app, virtual.think(app, "normal")
    finally:
        sim.close()


def is_buy(action: Action) -> bool:
    return action.verb == "hq" or action[:2] == ("visit", "hq")


def bought(action: Action) -> str:
    return action[2] if action.verb == "visit" else action[1]


def carried_out(game, state, steps) -> list:
    """Each of ``steps`` played in the real game from ``state``; the states after them."""
    after = []
    for action in steps:
        assert action in game.legal_actions(state), action
        state, _ = game.apply(state, action)
        after.append(state)
    return after


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_a_card_the_hint_says_you_buy_this_turn_is_bought_by_the_plan_in_the_real_game(
    tmp_path, variant
):
    promised = 0
    for app, choice in hints(tmp_path, variant):
        why = virtual.reason(app, choice.action, choice.plan)
        if not why.startswith("This lets you buy"):
            continue
        steps, _ = virtual.sure_plan(app, choice.plan)
        buy = next(i for i, a in enumerate(steps) if is_buy(a))
        game, state = app.session.game, app.session.state
        after = carried_out(game, state, steps[: buy + 1])  # the real bag, deck and die
        card = bought(steps[buy])
        assert card in after[-1].players[state.current].figurants
        assert game.cards.figurants[card].name in why
        promised += 1
    assert promised


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_a_purchase_after_a_draw_from_the_bag_is_never_promised(tmp_path, variant):
    """A plan that draws and then buys a card the draw made affordable, in the world the
    hint reasons in (sampled as the search samples it): the buy depends on the draw."""
    draw = Action("visit", "otter") if variant == "family" else Action("rummage")
    checked = 0
    for app, _ in hints(tmp_path, variant, limit=80):
        session = app.session
        game, state = session.game, session.state
        legal = game.legal_actions(state)
        if draw not in legal:
            continue
        world = sample(state, move_seed(game.options.seed, len(session.states)), game)
        sim = app_random(game)
        drawn, _ = sim.apply(world, draw)
        for buy in [a for a in sim.legal_actions(drawn) if is_buy(a) and a not in legal]:
            why = virtual.reason(app, draw, (draw, buy))
            assert not why.startswith("This lets you buy"), why
            assert virtual.sure_plan(app, (draw, buy))[0] == (draw,)
            checked += 1
    assert checked


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_a_purchase_names_the_tokens_it_pays(tmp_path, variant):
    """The tokens named are those the real engine takes from the hand."""
    named = 0
    for app, _ in hints(tmp_path, variant, limit=100):
        session = app.session
        game, state = session.game, session.state
        for action in [a for a in game.legal_actions(state) if is_buy(a)][:3]:
            before = state.players[state.current].tokens
            (after,) = carried_out(game, state, [action])
            spent = [
                c
                for c in range(7)
                for _ in range(before[c] - after.players[state.current].tokens[c])
            ]
            line = virtual.describe(app, action)
            assert line.endswith(f", paying {counted(app.t, [COLOURS[c] for c in spent])}."), line
            named += 1
    assert named


def test_the_advanced_gastro_hint_names_the_colours_of_its_exchanges(tmp_path):
    told = 0
    for app, _ in hints(tmp_path, "advanced", limit=80):
        session = app.session
        game, state = session.game, session.state
        if Action("gastro") not in game.legal_actions(state):
            continue
        (there,) = carried_out(game, state, [Action("gastro")])
        exchanges = [a for a in game.legal_actions(there) if a.verb == "exchange"]
        if not exchanges:
            continue
        plan = (Action("gastro"), exchanges[0], Action("done"))
        line = virtual.to_do(app, Action("gastro"), plan)
        assert line.endswith(f": {exchange_label(app.t, exchanges[0][1])}."), line
        told += 1
    assert told


@pytest.mark.parametrize("language", ["en", "pl"])
def test_each_hint_is_a_move_and_one_sentence_of_why(tmp_path, language):
    for app, choice in hints(tmp_path, "advanced", language, limit=30):
        what = virtual.to_do(app, choice.action, choice.plan)
        why = virtual.reason(app, choice.action, choice.plan)
        assert what.endswith(".") and why.endswith(".")
        assert ". " not in why.rstrip("."), why  # one sentence


def test_the_others_steps_in_a_plan_are_never_the_players(tmp_path):
    """The family search plans the others' next turns too: the hint stops at the turn's end."""
    checked = 0
    for app, _ in hints(tmp_path, "family", limit=20):
        game, state = app.session.game, app.session.state
        me, steps = state.current, []
        while state.current == me and len(steps) < 4:
            supply = [a for a in game.legal_actions(state) if a[1] in ("chimp", "shop")]
            if not supply:
                break
            steps.append(supply[0])
            state, _ = game.apply(state, supply[0])
        if state.current == me:
            continue
        plan = (*steps, game.legal_actions(state)[0])  # the next player's first action
        assert virtual.sure_plan(app, plan)[0] == tuple(steps)
        checked += 1
    assert checked
