"""Virtual players: legal moves only, no peeking at hidden cards or draws, whole games.

Budgets are tiny here: the tests hold behaviour (what is chosen and from
what), ``benchmarks/players.py`` measures strength and speed.
"""

import random

import pytest
from calls import noted_calls

from firmware_app.store import catalogue_files
from rules.errors import RulesError
from rules.pingwiny.options import Options
from rules.players import LEVELS, choose, decides, play, table_actions
from rules.players.evaluation import outlook
from rules.players.sampling import app_random, sample, seeds
from rules.players.search import greedy, search
from rules.record import VARIANTS
from tests.positions import with_fields

NODES = 40


def positions(demo, variant: str, seed: int, count: int, **options):
    """Decision points along a random game: (game, state) pairs."""
    game = VARIANTS["pingwiny", variant](demo, Options(players=2, seed=seed, **options))
    s = game.new_state()
    chooser = random.Random(seed)
    found = []
    while s.phase != "over" and len(found) < count:
        legal = game.legal_actions(s)
        if decides(game, s) is not None and chooser.random() < 0.2:
            found.append(s)
        s, _ = game.apply(s, chooser.choice(legal))
    return game, found


@pytest.mark.parametrize("variant", ["family", "advanced"])
@pytest.mark.parametrize("level", LEVELS)
def test_a_virtual_player_only_chooses_legal_actions(demo, variant, level):
    game, states = positions(demo, variant, seed=3, count=6)
    for i, s in enumerate(states):
        action = choose(game, s, level, seed=i, nodes=NODES).action
        assert action in game.legal_actions(s)


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_the_easy_level_takes_the_action_of_the_best_outlook_ties_aside(demo, variant):
    """One move ahead in one sampled world, worked out here: the greedy choice is the best
    outlook, moved by no more than the millionth that only settles ties."""
    game, states = positions(demo, variant, seed=5, count=6)
    for i, s in enumerate(states):
        choice = greedy(game, s, seed=i)
        sim = app_random(game)
        world = sample(s, next(seeds(i)), game)
        values = {
            a: outlook(sim, sim.apply(world, a)[0], s.current) for a in sim.legal_actions(world)
        }
        best = max(values.values())
        assert values[choice.action] >= best - 1e-6
        assert 0 <= choice.value - values[choice.action] < 1e-6


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_at_a_table_that_draws_for_real_the_choice_is_carried_out_by_a_legal_action(demo, variant):
    table = {"bag": "table", "deck": "app"} | ({"die": "table"} if variant == "advanced" else {})
    game, states = positions(demo, variant, seed=5, count=8, **table)
    for i, s in enumerate(states):
        action = choose(game, s, "normal", seed=i, nodes=NODES).action
        assert action in app_random(game).legal_actions(s)
        assert table_actions(game, s, action), action


def shuffled_hidden(s, seed: int):
    """The same table with another deck order and another future of the bag and the die."""
    chooser = random.Random(seed)
    fields = {"rng": chooser.getrandbits(64)}
    for name in ("deck", "mission_deck"):
        if hasattr(s, name):
            cards = [card for group in getattr(s, name) for card in group]
            chooser.shuffle(cards)
            fields[name] = tuple((card,) for card in cards)
    return with_fields(s, **fields)


@pytest.mark.parametrize("variant", ["family", "advanced"])
@pytest.mark.parametrize("level", LEVELS)
def test_the_choice_is_the_same_whatever_the_hidden_deck_and_draws(demo, variant, level):
    game, states = positions(demo, variant, seed=7, count=4)
    for i, s in enumerate(states):
        chosen = {
            str(choose(game, shuffled_hidden(s, k), level, seed=i, nodes=NODES).action)
            for k in range(4)
        }
        assert len(chosen) == 1, chosen


def test_the_hidden_part_matters_to_the_engine_so_the_test_above_can_fail(demo):
    """Two of the shuffled tables really differ: the next card laid differs."""
    game, (s, *_) = positions(demo, "family", seed=7, count=1)
    tops = {shuffled_hidden(s, k).deck[0] for k in range(4)}
    assert len(tops) > 1


def test_the_same_seed_and_budget_give_the_same_move_and_another_seed_may_not(demo):
    game, states = positions(demo, "advanced", seed=9, count=5)
    differ = 0
    for s in states:
        first = choose(game, s, "normal", seed=1, nodes=NODES)
        assert choose(game, s, "normal", seed=1, nodes=NODES) == first
        assert first.nodes >= NODES or first.stopped == "settled"
        differ += choose(game, s, "normal", seed=2, nodes=NODES) != first
    assert differ, "the seed changes no search: it is not handed to the sampler"


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_the_states_a_search_reports_are_the_states_the_engine_made_for_it(
    demo, variant, monkeypatch
):
    """``Choice.nodes`` is the search's effort, which its budget limits and the benchmarks
    quote: every action the engine applied for it, counted here at the engine."""
    game, states = positions(demo, variant, seed=3, count=4)
    made = noted_calls(monkeypatch, type(game), "apply")
    for i, s in enumerate(states):
        made.clear()
        choice = search(game, s, seed=i, nodes=300)
        assert choice.nodes == len(made) > 0


def test_the_random_yardstick_picks_a_legal_action_uniformly_without_any_search(demo, monkeypatch):
    """The benchmark's baseline thinks not at all: no state made, no walk, no value."""
    game, states = positions(demo, "advanced", seed=3, count=3)
    made = noted_calls(monkeypatch, type(game), "apply")
    for i, s in enumerate(states):
        legal = game.legal_actions(s)
        choice = choose(game, s, "random", seed=i)
        assert choice.action == random.Random(i).choice(legal)
        assert (choice.nodes, choice.iterations, choice.value, made) == (0, 0, 0.0, [])


def test_a_deadline_on_the_passed_in_clock_stops_the_thinking(demo):
    game, (s, *_) = positions(demo, "advanced", seed=9, count=1)
    ticks = iter(range(1000))
    choice = choose(game, s, "strong", seed=1, deadline=3, clock=lambda: next(ticks))
    assert choice.iterations == 4  # one walk before the clock is read, then ticks 0, 1, 2
    assert choice.action in game.legal_actions(s)


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_a_game_of_virtual_players_only_ends_with_few_penalty_points(demo, variant):
    """Few tokens left, or tokens a mission protects (Błyskawiczne zniknięcie: "protects
    you from penalty points"): the sheet's penalty is what counts."""
    game = VARIANTS["pingwiny", variant](demo, Options(players=3, seed=4, short=True))
    actions, end = play(game, game.new_state(), ("normal", "easy", "strong"), 4, nodes=NODES)
    assert end.phase == "over"
    sheet = game.score(end)
    assert all(line.total > 0 for line in sheet.lines)
    assert sheet.lines[0].penalty >= -5


@pytest.mark.parametrize("deck", ["app", "table"])
def test_a_virtual_player_does_not_decide_while_a_draw_is_still_due(demo, deck):
    """The rulebook's turn: "First, draw 2 tokens from the bag." What comes out of the bag
    is chance, and a card laid out is the table's: no seat decides until that is done;
    then the player to move chooses its visits."""
    game = VARIANTS["pingwiny", "family"](demo, Options(players=2, seed=3, deck=deck))
    s = game.new_state()
    chooser = random.Random(3)
    draws = visits = 0
    while s.phase != "over":
        if s.phase == "draw" or s.pending:
            assert decides(game, s) is None, (s.phase, s.pending)
            draws += s.phase == "draw"
        else:
            assert decides(game, s) == s.current
            visits += 1
        s, _ = game.apply(s, chooser.choice(game.legal_actions(s)))
    assert draws > 10 and visits > 10


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_a_searchs_plan_holds_only_the_searching_players_own_actions(demo, variant):
    """The plan a hint explains is the player's own moves to come, up to another's turn."""
    game = VARIANTS["pingwiny", variant](demo, Options(players=2, seed=5))
    s, longest = game.new_state(), 0
    for step in range(16):
        me = s.current
        choice = choose(game, s, "strong", seed=step)
        after = s
        for action in choice.plan:  # made in worlds sampled for what the table hides
            assert after.current == me, (step, choice.plan)
            try:
                after, _ = game.apply(after, action)
            except RulesError:  # a card or token this world does not hold: checked so far
                break
        longest = max(longest, len(choice.plan))
        s, _ = game.apply(s, choice.action)
    assert longest >= 2  # plans of more than the move itself were made and checked


@pytest.fixture
def without_the_mix():
    """A printed-box family game whose token mix the table did not count, past the drawing
    of the hands; and that position with the bag ``believed_bag`` believes in."""
    from rules.players.sampling import believed_bag

    printed = catalogue_files.load([], demo=False)
    game = VARIANTS["pingwiny", "family"](printed, Options(players=2, seed=3, bag="table"))
    assert not game.cards.mix_known
    s = game.new_state()
    while s.phase == "draw":  # the table draws each player's five tokens
        s, _ = game.apply(s, game.legal_actions(s)[-1])
    believed = s.copy()
    believed_bag(game, believed)
    assert sum(believed.bag) < sum(s.bag)
    return game, s, believed


def test_the_planners_worlds_hold_the_believed_bag_when_the_table_did_not_count_the_mix(
    monkeypatch, without_the_mix
):
    """Played without the token mix, the bag holds bounds only (104 of each colour not
    counted); the worlds the planner tries its actions in hold the plain belief of
    ``believed_bag`` instead, so a draw there is one of the tokens the box has."""
    from rules.players.planner import plan

    game, s, believed = without_the_mix
    tried = noted_calls(monkeypatch, type(app_random(game)), "apply")
    plan(game, s, seed=1)
    assert tried and {call.first.bag for call in tried} == {believed.bag}


def test_the_searchs_worlds_hold_the_believed_bag_when_the_table_did_not_count_the_mix(
    monkeypatch, without_the_mix
):
    """As the planner's: each world the search samples holds ``believed_bag``'s belief."""
    import importlib

    searching = importlib.import_module("rules.players.search")  # the module, not its function
    game, s, believed = without_the_mix
    worlds = []

    def sampled(*args, **kwargs):
        worlds.append(sample(*args, **kwargs))
        return worlds[-1]

    monkeypatch.setattr(searching, "sample", sampled)
    search(game, s, seed=1, nodes=60)
    assert worlds and {world.bag for world in worlds} == {believed.bag}


def test_points_the_table_has_not_taught_count_nothing_in_the_searchs_worlds():
    """The printed box leaves most figurants' points to the table (often to the score sheet):
    the search plays its worlds with them at 0, and the game itself keeps them unknown."""
    printed = catalogue_files.load([], demo=False)
    options = Options(players=2, seed=3, bag="table", deck="table")
    game = VARIANTS["pingwiny", "family"](printed, options)
    unknown = [card for card, f in game.cards.figurants.items() if f.points is None]
    assert "becky" in unknown  # the rulebook prints no points for Becky
    sim = app_random(game)
    assert [sim.cards.figurants[card].points for card in unknown] == [0] * len(unknown)
    assert [game.cards.figurants[card].points for card in unknown] == [None] * len(unknown)
