"""How far an advanced card is from a seat, as the virtual players weigh it (``effort``).

A card's worth is its points, less for each action still needed to buy it: the buy itself,
each walk across the board's three-by-three grid of tiles, each take of up to two tokens
at a supply tile. The counts below are made as a player counts them on the board.
"""

import pytest

from rules.pingwiny.options import Options
from rules.players.evaluation import ACTION_DISCOUNT, effort
from rules.record import VARIANTS

BECKY = (2, 0, 0, 0, 0, 1, 2)  # red, blue, green, yellow, grey, white, black (the demo's)


@pytest.fixture
def game(demo):
    return VARIANTS["pingwiny", "advanced"](demo, Options(players=2, seed=1))


def walk(layout: tuple, a: str, b: str) -> int:
    """Tiles walked from ``a`` to ``b``: across and down the grid, no diagonal."""
    (ra, ca), (rb, cb) = divmod(layout.index(a), 3), divmod(layout.index(b), 3)
    return abs(ra - rb) + abs(ca - cb)


def test_a_card_paid_from_the_hand_at_headquarters_is_one_action_away(game):
    s = game.new_state()
    assert game.cards.figurants["becky"].cost[:7] == BECKY
    seat = s.players[0]._replace(tokens=BECKY, square=s.layout.index("hq"))
    assert effort(game, s, seat, "becky") == pytest.approx(4 * ACTION_DISCOUNT)


@pytest.mark.parametrize("reds", [0, 1])
def test_missing_tokens_are_a_walk_to_their_supply_tile_a_take_and_a_walk_back(game, reds):
    s = game.new_state().copy()
    s.board = (4, 0, 0, 0, 0, 0, 0)  # four red tokens on the gorilla's supply tile
    seat = s.players[0]._replace(tokens=(reds, 0, 0, 0, 0, 1, 2), square=s.layout.index("hq"))
    there = walk(s.layout, "hq", "gorilla")
    actions = 1 + there + 1 + there  # the buy, the walk, one take (of one or two), the walk back
    assert effort(game, s, seat, "becky") == pytest.approx(4 * ACTION_DISCOUNT**actions)


def test_a_grey_printed_on_the_card_and_not_held_puts_it_out_of_reach(game):
    s = game.new_state()
    grey = next(f for f in game.cards.figurants.values() if f.cost[4])
    seat = s.players[0]._replace(tokens=(9, 9, 9, 9, 0, 9, 9))
    assert effort(game, s, seat, grey.id) == 0.0
