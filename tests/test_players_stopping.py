"""Thinking that ends when it is done: a settled choice, the node budget, or the clock's cap."""

import random
import sys

import pytest

from rules.pingwiny.options import Options
from rules.players import budget, choose, decides
from rules.players.search import _Edge, settled
from rules.record import VARIANTS
from tests.test_players import positions

thinking = sys.modules["rules.players.search"]  # the module: the package names its function


def edges(*visits):
    root = {}
    for i, v in enumerate(visits):
        root[i] = _Edge(0.0)
        root[i].visits = v
    return root


def test_a_lead_larger_than_the_walks_left_is_settled_and_no_smaller_one():
    assert settled(edges(10, 3, 1), 6)  # the second can reach 9 at most
    assert not settled(edges(10, 3, 1), 7)  # it could reach 10, and win on its value
    assert settled(edges(5), 100)  # one action only


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_a_settled_choice_is_the_one_the_whole_budget_gives(demo, variant, monkeypatch):
    """Stopping early never changes the move: the same search, never settling, agrees."""
    game, states = positions(demo, variant, seed=13, count=5)
    early = [choose(game, s, "normal", seed=i) for i, s in enumerate(states)]
    monkeypatch.setattr(thinking, "settled", lambda root, walks_left: False)
    full = [choose(game, s, "normal", seed=i) for i, s in enumerate(states)]
    assert [c.action for c in early] == [c.action for c in full]
    assert all(c.stopped in ("settled", "budget") for c in early)
    assert all(f.stopped == "budget" and f.nodes >= budget(game, "normal") for f in full)
    assert any(c.stopped == "settled" and c.nodes < budget(game, "normal") for c in early)


def test_the_clock_only_caps_the_thinking(demo):
    """A far deadline changes nothing; a near one stops the search and says so."""
    game, (s, *_) = positions(demo, "family", seed=13, count=1)
    alone = choose(game, s, "strong", seed=2)
    ticks = iter(range(10**6))
    capped_far = choose(game, s, "strong", seed=2, deadline=10**6, clock=lambda: next(ticks))
    assert capped_far == alone
    ticks = iter(range(10**6))
    capped = choose(game, s, "strong", seed=2, deadline=2, clock=lambda: next(ticks))
    assert (capped.stopped, capped.iterations) == ("clock", 3)  # a walk, then ticks 0 and 1


def test_a_turn_with_one_legal_action_is_settled_without_thinking(demo):
    """Nothing to weigh (here the advanced game's Gastro with "done" its only action): the
    choice is that action, the whole plan, settled with no state spent on it."""
    game = VARIANTS["pingwiny", "advanced"](demo, Options(players=2, seed=0))
    s, chooser = game.new_state(), random.Random(0)
    while decides(game, s) is None or len(game.legal_actions(s)) > 1:
        s, _ = game.apply(s, chooser.choice(game.legal_actions(s)))
    (only,) = game.legal_actions(s)
    choice = choose(game, s, "normal", seed=1)
    assert choice.action == only and choice.plan == (only,)
    assert (choice.stopped, choice.nodes, choice.iterations) == ("settled", 0, 0)
