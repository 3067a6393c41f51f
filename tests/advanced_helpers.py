"""Shared set-ups for the advanced-variant tests."""

import random

from rules.pingwiny.advanced import AdvancedGame
from rules.pingwiny.advanced_state import AdvancedState
from rules.pingwiny.options import Options

# Lemur, gate, chimp / gorilla, HQ, gastro / shop, storehouse, otter: row by row.
LAYOUT = ("lemur", "gate", "chimp", "gorilla", "hq", "gastro", "shop", "storehouse", "otter")


def new_advanced(catalogue, **options) -> tuple[AdvancedGame, AdvancedState]:
    options.setdefault("players", 2)
    game = AdvancedGame(catalogue, Options(**options))
    return game, game.new_state()


def reveal_all(game, state, keep=()):
    """Name the first possible card for every space waiting to be laid out.

    Cards in ``keep`` stay in the deck while another can be named.
    """
    while state.pending or state.pending_missions:
        actions = game.legal_actions(state)
        kept = [a for a in actions if a[1] not in keep]
        state, _ = game.apply(state, (kept or actions)[0])
    return state


def random_playout(game, state, seed: int, limit: int = 20000):
    chooser = random.Random(seed)
    for _ in range(limit):
        actions = game.legal_actions(state)
        if not actions:
            return
        action = chooser.choice(actions)
        after, _ = game.apply(state, action)
        yield state, action, after
        state = after


def token_total(state: AdvancedState) -> tuple[int, ...]:
    places = [state.bag, state.board, state.box] + [p.tokens for p in state.players]
    totals = [sum(place[c] for place in places) for c in range(7)]
    totals[4] += state.grey
    return tuple(totals)
