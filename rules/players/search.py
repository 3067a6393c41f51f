"""Choosing a move: a one-move greedy player, and a sampled tree search over the whole turn.

**Greedy** (the easy level) plays every legal action once in one sampled
world and keeps the one whose position ``evaluation.outlook`` likes best.

**Search** (the normal and strong levels) is information-set Monte Carlo
tree search in the manner of OpenSpiel's ``ismcts.py``: one tree over the
actions of the player's own turn, shared by every sample; each iteration
draws a new world (``sampling.sample``), walks down the tree choosing by UCB
among the actions legal in that world (counting each action's availability,
since what is legal differs between worlds), and at the first node it has
not been to before plays every action once and backs up the best of their
values. The walk stops where the player's turn ends, and there the position
is valued by ``outlook`` (the score sheet now plus the hand's worth, less
the best other player's) instead of by playing the game out.

Why a cut-off and not playouts: a random playout of a whole game is about
five hundred engine steps; at the one or two thousand steps a second that a
Zero 2 W manages, a single playout would take the move's whole budget. The
turn's end is where the points of a plan are known (a figurant bought, the
two tokens drawn or not), and ``benchmarks/players.py`` measures what this
costs and wins. The budget is counted in engine states generated (nodes),
so a seed and a node budget always give the same move. The thinking also
ends as soon as the choice is settled: when the most visited action leads
the next by more visits than the walks the budget has left (at most the
states left: a walk costs one at least), nothing can overtake it. A clock,
passed in with a deadline, is only a cap on top.
"""

import math
import random
from typing import NamedTuple

from rules.players.evaluation import outlook
from rules.players.sampling import app_random, sample, seeds

EXPLORATION = 1.0  # UCB's constant, in points: values are score differences
# Turns of the others the walk goes on into after the player's own (family: all of them,
# one round; advanced: none, its four actions are deep enough for the budget).
OTHERS_TURNS = {"family": 1.0, "advanced": 0.0}


class Choice(NamedTuple):
    """A chosen action, with how much thinking went into it."""

    action: object
    nodes: int  # engine states the search generated
    iterations: int
    value: float  # the position's value after it, as the search saw it
    plan: tuple = ()  # the action and the rest of the turn the search expects to follow it
    stopped: str = ""  # why the thinking ended: "settled", "budget", "clock" (or "" if none)


class _Edge:
    __slots__ = ("prior", "visits", "total", "available", "child", "mine")

    def __init__(self, prior: float, mine: bool = True) -> None:
        self.prior, self.visits, self.total, self.available = prior, 0, 0.0, 0
        self.child: dict | None = None
        self.mine = mine  # the searching player's action, not another's

    def mean(self) -> float:
        return (self.prior + self.total) / (1 + self.visits)


def greedy(game, state, seed: int) -> Choice:
    """The action whose position values best one move ahead, in one sampled world."""
    sim = app_random(game)
    me = state.current
    world = sample(state, next(seeds(seed)), game)
    legal = sim.legal_actions(world)
    ties = random.Random(seed)
    best, best_value = None, -math.inf
    for action in legal:
        after, _ = sim.apply(world, action)
        v = outlook(sim, after, me) + ties.random() * 1e-6
        if v > best_value:
            best, best_value = action, v
    return Choice(best, len(legal), 1, best_value, (best,))


def search(
    game, state, seed: int, nodes: float, deadline: float | None = None, clock=None
) -> Choice:
    """The action the turn search values best.

    The thinking ends at the first of: the choice is settled (``settled``),
    ``nodes`` states are spent, or the passed-in ``clock`` reaches
    ``deadline`` (a cap only: a settled choice or a spent budget end it
    sooner, and then the same seed gives the same move on any machine).
    """
    sim = app_random(game)
    me = state.current
    root_actions = sim.legal_actions(state)
    if len(root_actions) == 1:
        return Choice(root_actions[0], 0, 0, 0.0, (root_actions[0],), "settled")
    root: dict = {}
    memo: dict = {}
    horizon = state.turns + 1 + round(OTHERS_TURNS[game.variant] * (game.n - 1))
    spent = iterations = 0
    stopped = "budget"
    for sample_seed in seeds(seed):
        if spent >= nodes:
            break
        if deadline is not None and iterations and clock() >= deadline:  # one walk at least
            stopped = "clock"
            break
        if iterations and settled(root, nodes - spent):  # a walk costs a state at least
            stopped = "settled"
            break
        cost = _iterate(sim, sample(state, sample_seed, game), me, root, memo, horizon)
        spent, iterations = spent + cost, iterations + 1
    action, edge = _most_visited(root)
    plan = [action]
    while edge.child and (step := _most_visited(edge.child))[1].visits and step[1].mine:
        action, edge = step
        plan.append(action)
    return Choice(plan[0], spent, iterations, root[plan[0]].mean(), tuple(plan), stopped)


def settled(root: dict, walks_left: float) -> bool:
    """Whether the most visited action stays so for ``walks_left`` more walks, whatever
    they find: each walk adds one visit to one root action, so no other can reach its
    count when it leads the next by more than that."""
    visits = sorted((edge.visits for edge in root.values()), reverse=True)
    return len(visits) < 2 or visits[0] - visits[1] > walks_left


def _most_visited(node: dict) -> tuple:
    """The action (and edge) the search went down most, the better valued among equals."""
    return max(node.items(), key=lambda item: (item[1].visits, item[1].mean()))


def _iterate(sim, s, me: int, node: dict, memo: dict, horizon: int) -> int:
    """One walk down the tree in world ``s``, until the game's turn count reaches
    ``horizon`` (or, when it looks at no other turn, the player's turn ends); returns the
    states it generated. Another player's choice is the one worst for ``me`` (values are
    ``me``'s outlook), explored alike."""
    spent = 0
    path = []
    alone = horizon == s.turns + 1
    while True:
        if s.phase == "over" or s.turns >= horizon or (alone and s.current != me):
            value = outlook(sim, s, me, memo)
            break
        legal = sim.legal_actions(s)
        mine = s.current == me
        sign = 1.0 if mine else -1.0
        if not node:
            value = -math.inf
            for action in legal:
                after, _ = sim.apply(s, action)
                prior = outlook(sim, after, me, memo)
                node[action] = _Edge(prior, mine)
                value = max(value, sign * prior)
            value *= sign
            spent += len(legal)
            break
        log_total = math.log(1 + sum(node[a].visits for a in legal if a in node))
        best, best_score = None, -math.inf
        for action in legal:
            edge = node.get(action)
            if edge is None:  # legal in this world only: valued when first seen
                after, _ = sim.apply(s, action)
                spent += 1
                edge = node[action] = _Edge(outlook(sim, after, me, memo), mine)
            edge.available += 1
            score = sign * edge.mean() + EXPLORATION * math.sqrt(log_total / (1 + edge.visits))
            if score > best_score:
                best, best_score = action, score
        edge = node[best]
        s, _ = sim.apply(s, best)
        spent += 1
        path.append(edge)
        if edge.child is None:
            edge.child = {}
        node = edge.child
    for edge in path:
        edge.visits += 1
        edge.total += value
    return spent
