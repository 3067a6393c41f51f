"""The hint's words: what to do this turn, said fully, and one sentence of why that promises
only what the table can surely carry out this turn.

Whole games are played by the autopilot; at every choice the hint's move and plan are
taken as the panel takes them, and each promise is checked against the real engine
(the real state, not the sampled world the hint reasons in).
"""

from collections import Counter

import pytest

import rules.players
from firmware_app.flows.pingwiny import hint, virtual
from firmware_app.flows.pingwiny.turn import TurnMenu
from firmware_app.flows.shared.seats import player_label
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.words.table_text import counted, exchange_label
from rules.actions import Action
from rules.colours import COLOURS
from rules.pingwiny import board as geometry
from rules.pingwiny.advanced_locations import SUPPLY
from rules.pingwiny.payments import payments
from rules.players import decides, move_seed
from rules.players.evaluation import covered
from rules.players.sampling import app_random, sample
from tests.test_thinking import on_the_panel


@pytest.fixture(autouse=True)
def brief_thinking(monkeypatch):
    monkeypatch.setitem(rules.players.NODES, "normal", 240)  # a turn: 120 a family move


def positions(tmp_path, variant: str, language: str = "en", limit: int = 60, seed: int = 3):
    """The app at each of the first ``limit`` choices of an autopilot game."""
    sim = Headless(tmp_path, language=language, seed=seed)
    try:
        app = sim.app
        on_the_panel(app, variant, seed=seed + 1)
        pilot, seen = Autopilot(sim, seed=seed), 0
        while seen < limit and pilot.step():
            session = app.session
            if isinstance(app.top, TurnMenu) and decides(session.game, session.state) is not None:
                seen += 1
                yield app
    finally:
        sim.close()


def hints(tmp_path, variant: str, language: str = "en", limit: int = 60):
    """``(app, choice)`` at each of the first ``limit`` choices of an autopilot game."""
    for app in positions(tmp_path, variant, language, limit):
        yield app, virtual.think(app, "normal")


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


@pytest.mark.full_thinking  # a brief search plans no buy for the hint to promise
@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_a_card_the_hint_says_you_buy_this_turn_is_bought_by_the_plan_in_the_real_game(
    tmp_path, variant
):
    promised = 0
    for app, choice in hints(tmp_path, variant):
        why = hint.reason(app, choice.action, choice.plan)
        if not why.startswith("This lets you buy"):
            continue
        steps, _ = hint.sure_plan(app, choice.plan)
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
            why = hint.reason(app, draw, (draw, buy))
            assert not why.startswith("This lets you buy"), why
            assert hint.sure_plan(app, (draw, buy))[0] == (draw,)
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
        line = hint.to_do(app, Action("gastro"), plan)
        assert line.endswith(f": {exchange_label(app.t, exchanges[0][1])}."), line
        told += 1
    assert told


@pytest.mark.parametrize("language", ["en", "pl"])
def test_each_hint_is_a_move_and_one_sentence_of_why(tmp_path, language):
    for app, choice in hints(tmp_path, "advanced", language, limit=30):
        what = hint.to_do(app, choice.action, choice.plan)
        why = hint.reason(app, choice.action, choice.plan)
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
        assert hint.sure_plan(app, plan)[0] == tuple(steps)
        checked += 1
    assert checked


# ----------------------------------------- why, for the advanced variant's other moves
# Each legal move of a kind, asked for its reason with the move alone as the plan, and
# each sentence checked against the real engine (the tokens, the tiles, who loses what).


def reasons(tmp_path, verb: str, limit: int = 400, seed: int = 3):
    """``(app, game, state, action, why)`` for each legal ``verb`` action at an advanced
    game's choices, the real game and state with it."""
    for app in positions(tmp_path, "advanced", limit=limit, seed=seed):
        game, state = app.session.game, app.session.state
        for action in [a for a in game.legal_actions(state) if a.verb == verb]:
            yield app, game, state, action, hint.reason(app, action, (action,))


def named_card(app, why: str):
    """The face-up card whose name ``why`` carries, read from the real state."""
    game, state = app.session.game, app.session.state
    (card,) = [game.cards.figurants[c] for c in state.faceup if c and f"{c_name(app, c)} (" in why]
    return card


def c_name(app, card_id: str) -> str:
    return app.session.game.cards.figurants[card_id].name


def events_of(game, state, action: Action) -> list[dict]:
    """What the real engine reports when ``action`` is played from ``state``."""
    assert action in game.legal_actions(state), action
    return game.apply(state, action)[1]


def steps_apart(a: int, b: int) -> int:
    """Steps between two squares, walked over the board's neighbours (breadth first)."""
    seen, ring, n = {a}, {a}, 0
    while b not in ring:
        ring = {q for sq in ring for q in geometry.ADJACENT[sq]} - seen
        seen |= ring
        n += 1
    return n


def test_a_move_says_where_it_leads_and_why_there(tmp_path):
    said = Counter()
    for app, game, state, action, why in reasons(tmp_path, "move"):
        me = state.current
        (after,) = carried_out(game, state, [action])
        square, hand = after.players[me].square, state.players[me].tokens  # a move takes none
        place = app.t.name(after.layout[square])
        if " you hold all the tokens " in why:
            card = named_card(app, why)
            assert payments(card.cost, hand), why  # the engine finds a way to pay it
            if why.startswith("At "):
                assert square == geometry.HQ_SQUARE, why
            else:
                n = steps_apart(square, geometry.HQ_SQUARE)
                assert why.startswith(f"The {place} is {n} step"), why
            said["ready"] += 1
        elif why.startswith(f"The {place} gives "):
            c = SUPPLY[after.layout[square]]
            assert f" gives {COLOURS[c]}, " in why
            assert after.board[c] and named_card(app, why).cost[c] > hand[c], why
            said["supply"] += 1
        elif " an exchange brings " in why:
            assert why.startswith(f"At the {place} ")
            card = named_card(app, why)
            before = covered(card.cost, hand)
            if after.current == me:  # the next action is there: the engine's own exchanges
                (there,) = carried_out(game, after, [Action("gastro")])
                swaps = [a for a in game.legal_actions(there) if a.verb == "exchange"]
                hands = [carried_out(game, there, [a])[0].players[me].tokens for a in swaps]
                assert any(covered(card.cost, h) > before for h in hands), why
                said["gastro"] += 1
        elif why.startswith("From the "):
            assert after.layout[square] == "otter" and place in why
            said["otter"] += 1
    assert said["ready"] and said["supply"] and said["gastro"] and said["otter"], said


def test_a_gate_plan_says_it_lays_out_new_cards(tmp_path):
    checked = 0
    for app in positions(tmp_path, "advanced", limit=200):
        game, state = app.session.game, app.session.state
        for move in [a for a in game.legal_actions(state) if a[:2] == ("move", "gate")]:
            (there,) = carried_out(game, state, [move])
            if there.current != state.current or not game.legal_actions(there):
                continue
            cycle = next((a for a in game.legal_actions(there) if a.verb == "gate"), None)
            if cycle is None:
                continue
            why = hint.reason(app, move, (move, cycle))
            assert why == f"At the Zoo gate you lay out new {cycle[1]}.", why
            checked += 1
    assert checked


def test_a_block_says_whom_it_makes_pay_two_actions(tmp_path):
    checked = Counter()
    for app, game, state, action, why in reasons(tmp_path, "block", limit=200):
        me, edge = state.current, action[1]
        if edge == "middle":
            continue
        square = state.players[me].square
        (beyond,) = [
            q for q in geometry.ADJACENT[square] if geometry.EDGE_TOWARDS[square, q] == edge
        ]
        (after,) = carried_out(game, state, [action])
        there = [q for q, p in enumerate(state.players) if p.square == beyond]
        for q in range(len(state.players)):
            if q != me:  # whoever steps in from beyond is stopped by this penguin: a push
                assert game._blocker(after, q, beyond, square) == me
        place = app.t.name(state.layout[beyond])
        if there:
            assert why.startswith(", ".join(player_label(app, q) for q in there)), why
            assert f" on the {place} now need" in why, why
        else:
            assert why == f"A step in here from the {place} now costs two actions.", why
        checked[bool(there)] += 1
    assert checked[True] and checked[False], checked


def test_an_exchange_names_the_colour_a_card_still_needs(tmp_path):
    checked = 0
    for app, game, state, action, why in reasons(tmp_path, "exchange", seed=14):
        if not why.startswith("This exchange gets a colour "):
            continue
        me = state.current
        before = state.players[me].tokens
        (after,) = carried_out(game, state, [action])
        gained = [c for c in range(7) if after.players[me].tokens[c] > before[c]]
        card = named_card(app, why)
        assert why.endswith(f": {', '.join(COLOURS[c] for c in gained)}."), why
        assert any(card.cost[c] > before[c] for c in gained), why
        checked += 1
    assert checked


def test_closing_the_exchanges_says_so_only_when_none_brings_a_card_nearer(tmp_path):
    checked = 0
    for _, game, state, _, why in reasons(tmp_path, "done"):
        if why != "No other exchange brings a face-up card nearer.":
            continue
        me, figurants = state.current, game.cards.figurants
        held = state.players[me].tokens
        for swap in [a for a in game.legal_actions(state) if a.verb == "exchange"]:
            (after,) = carried_out(game, state, [swap])
            for card in [figurants[c] for c in state.faceup if c]:
                if None not in (card.cost, card.points):
                    assert covered(card.cost, after.players[me].tokens) <= covered(card.cost, held)
        checked += 1
    assert checked


def test_the_penguin_card_says_what_it_gives(tmp_path):
    checked = 0
    for _, game, state, action, why in reasons(tmp_path, "penguin"):
        if not why.startswith("Your penguin card "):
            continue
        me = state.current
        events = events_of(game, state, action)  # the turn's end may draw more: not the card's
        (took,) = [e for e in events if e["event"] == "took" and e["player"] == me]
        gained = [COLOURS.index(c) for c in took["tokens"]]
        assert gained and len(set(gained)) == 1
        named = why.split(" at most ")[1]
        assert COLOURS[gained[0]] in named and len(gained) <= int(named.split()[0]), why
        checked += 1
    assert checked


def test_an_officer_x_marker_says_who_loses_a_token(tmp_path):
    checked = Counter()
    for app, game, state, action, why in reasons(tmp_path, "officer"):
        events = events_of(game, state, action)  # the turn's end may draw more: read the losses
        losers = [e["player"] for e in events if e["event"] == "unmasked"]
        place = app.t.name(action[1])
        if losers:
            assert why.startswith(", ".join(player_label(app, q) for q in losers)), why
            assert f" on the {place} " in why and "lose" in why, why
        else:
            assert why == f"The marker on the {place} costs nobody a token.", why
        checked[bool(losers)] += 1
    assert checked[True] and checked[False], checked


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_every_hint_of_a_game_says_why_not_only_that_it_is_the_best_plan(tmp_path, variant):
    """Each of the first 80 hints of a game gives a reason of its own: a move with nothing
    surer to say names what its tile offers, a step back to the middle that it takes no token,
    an exchange of two tokens for one the penalty points it saves, a figurant's action what
    it gives or where it leads."""
    generic, seen = [], 0
    for app, choice in hints(tmp_path, variant, limit=80):
        seen += 1
        why = hint.reason(app, choice.action, choice.plan)
        if why == app.t("The best plan for this turn."):
            generic.append(str(choice.action))
        if choice.action == Action("block", geometry.MIDDLE):
            here = app.session.state.layout[
                app.session.state.players[app.session.state.current].square
            ]
            assert app.t.name(here) in why and "no token" in why, why
    assert seen == 80
    assert not generic, generic
