"""Virtual players for Pingwiny z Madagaskaru: levels, and who decides when.

``choose(game, state, level, seed)`` returns the action a virtual player at
``level`` takes now, in the app's vocabulary (with the app as the bag and the
deck: ``visit otter``, ``rummage``); a table that draws for real names the
colours drawn after it, as for any player (``table_actions``). The player
sees only what the table sees (``sampling``), values positions with
``evaluation`` and thinks with ``search``. Nothing here reads a clock: the
caller passes one, with a deadline (the box), or thinks by node budget alone
(tests, the benchmark, the demo).

Król Popiel has no virtual player: its engine does not model the tower's
shape, which the rulebook does not print, so nothing could plan a move there.
"""

import random

from rules.pingwiny.options import LEVELS
from rules.players.planner import plan
from rules.players.search import Choice, greedy, search

__all__ = [
    "LEVELS",
    "NODES",
    "Choice",
    "budget",
    "choose",
    "decides",
    "move_seed",
    "play",
    "table_actions",
]

BASELINE = "random"  # uniform among the legal actions: the benchmark's yardstick, never a seat
PLANNER = "planner"  # a target-led heuristic (``planner``): the benchmark's other yardstick
# Engine states a level may spend on a whole turn (docs/virtual-players.md, "Budgets"):
# a Zero 2 W's estimated speed times the seconds a turn may take there, less a margin.
NODES = {"normal": 1000, "strong": 2800}
# The share of the turn's budget one move gets: a quarter of it in the advanced variant
# (four actions); more than a third in the family one, whose two visits would take half
# each, but whose walks go on into the others' turn and cost more time a state.
MOVE_SHARE = {"family": 0.36, "advanced": 0.25}
DECISIONS = {"family": ("visit",), "advanced": ("act", "gastro", "officer", "final")}


def decides(game, state) -> int | None:
    """The seat that must choose now, or None while chance or the table is to act."""
    if state.phase not in DECISIONS.get(game.variant, ()):
        return None
    if state.pending or getattr(state, "pending_missions", ()):
        return None
    return state.current


def choose(
    game, state, level: str, seed: int, nodes: int | None = None, deadline=None, clock=None
) -> Choice:
    """The action of a ``level`` player now.

    The thinking ends when the choice is settled or the move's node budget
    (``budget``, or ``nodes``) is spent, whichever comes first: the same move for the same
    seed on any machine. A ``deadline`` on the passed-in ``clock`` is a cap on
    top, for a machine slower than the budgets were set for; ``Choice.stopped``
    says which of the three ended it.
    """
    if level == BASELINE:
        actions = game.legal_actions(state)
        return Choice(random.Random(seed).choice(actions), 0, 0, 0.0)
    if level == PLANNER:
        return Choice(plan(game, state, seed), 0, 0, 0.0)
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    if level == "easy":
        return greedy(game, state, seed)
    if nodes is None:
        nodes = budget(game, level)
    return search(game, state, seed, nodes, deadline, clock)


def budget(game, level: str) -> int:
    """The states one move of ``level`` may spend: its share of the turn's ``NODES``."""
    return round(NODES[level] * MOVE_SHARE[game.variant])


def table_actions(game, state, action) -> list:
    """The real legal actions that carry out ``action``: itself, or it with what the table drew."""
    legal = game.legal_actions(state)
    if action in legal:
        return [action]
    n = len(action)
    return [a for a in legal if a[:n] == action]


def move_seed(seed: int, played: int) -> int:
    """The sample seed of the move after ``played`` actions of a game set up with ``seed``."""
    return seed * 1_000_003 + played


def play(game, state, levels, seed: int, on_move=None, nodes: int | None = None, limit=None):
    """Play on with a level per seat until the game is over (or ``limit`` actions are
    played); returns the actions and the last state.

    Only for games where the app is random (the whole of chance is then one
    legal action). ``on_move(seat, level, think)`` may wrap each choice, e.g.
    to time it: it is called with a function that returns the ``Choice``;
    ``nodes`` overrides the levels' budgets (tests think briefly).
    """
    actions = []
    while state.phase != "over" and (limit is None or len(actions) < limit):
        seat = decides(game, state)
        if seat is None:
            action = game.legal_actions(state)[0]
        else:
            level = levels[seat]

            def think(level=level, state=state) -> Choice:
                return choose(game, state, level, move_seed(seed, len(actions)), nodes)

            action = (on_move(seat, level, think) if on_move else think()).action
        state, _ = game.apply(state, action)
        actions.append(action)
    return actions, state
