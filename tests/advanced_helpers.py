"""Shared set-ups for the advanced-variant tests."""

import random

import pytest
from positions import play
from positions import with_player as seat

from rules.actions import Action
from rules.errors import IllegalAction
from rules.pingwiny.advanced import AdvancedGame
from rules.pingwiny.advanced_state import AdvancedState
from rules.pingwiny.options import Options

# Lemur, gate, chimp / gorilla, HQ, gastro / shop, storehouse, otter: row by row.
LAYOUT = ("lemur", "gate", "chimp", "gorilla", "hq", "gastro", "shop", "storehouse", "otter")

# The squares of LAYOUT, row by row.
LEMUR, GATE, CHIMP, GORILLA, HQ, GASTRO, SHOP, STOREHOUSE, OTTER = range(9)


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


def at(demo, **options):
    """A two-player game on LAYOUT, player 1 about to take the first of 4 actions."""
    options = {"players": 2, "first": 0, "layout": LAYOUT, "seed": 1, **options}
    game, s = new_advanced(demo, **options)
    while s.phase == "draw" or s.pending or s.pending_missions:
        s, _ = game.apply(s, game.legal_actions(s)[0])
    return game, s


def refused(game, s, action: str, error=IllegalAction) -> str:
    """The key of the refusal; the state must be left exactly as it was."""
    before = s.to_json()
    with pytest.raises(error) as raised:
        game.apply(s, action)
    assert s.to_json() == before
    return raised.value.key


def verbs(game, s, verb: str) -> list[Action]:
    return [a for a in game.legal_actions(s) if a.verb == verb]


def plain_card(game, s) -> str:
    """A face-up card of fewer than 7 tokens: acquiring it gives no grey token."""
    return next(c for c in s.faceup if sum(game.cards.figurants[c].cost[:7]) < 7)


def acquired(demo, **options):
    """Player 1 has just acquired a face-up card; the table's die is to be rolled."""
    game, s = at(demo, die="table", **options)
    card = plain_card(game, s)
    s = seat(s, 0, tokens=game.cards.figurants[card].cost[:7])
    s, _ = play(game, s, f"hq {card}")
    return game, s, card
