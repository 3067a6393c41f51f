"""How far an advanced card is from a seat, as the virtual players weigh it (``effort``).

A card's worth is its points, less for each action still needed to buy it: the buy itself,
each walk across the board's three-by-three grid of tiles, each take of up to two tokens
at a supply tile. The counts below are made as a player counts them on the board.
"""

import pytest

from firmware_app.store.catalogue_files import load
from rules.pingwiny.options import Options
from rules.players.evaluation import ACTION_DISCOUNT, effort
from rules.players.planner import reach
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


@pytest.fixture
def any_game(tmp_path):
    """Becky as an owner's box prints her: two red tokens and two of any colour."""
    owner = tmp_path / "owner.toml"
    owner.write_text('[[figurant]]\nid = "becky"\nadvanced.cost = { red = 2, any = 2 }\n')
    catalogue = load([owner], demo=True)
    return VARIANTS["pingwiny", "advanced"](catalogue, Options(players=2, seed=1))


def test_tokens_of_any_colour_are_taken_at_the_nearest_supply_tile_with_two(any_game):
    s = any_game.new_state().copy()
    start = next(
        tile for tile in s.layout if walk(s.layout, tile, "chimp") != walk(s.layout, tile, "shop")
    )
    near, far = sorted(("chimp", "shop"), key=lambda tile: walk(s.layout, start, tile))
    board = {"chimp": 1, "shop": 3}  # blue tokens lie at the chimp's tile, yellow at the shop
    s.board = tuple({board[near]: 2, board[far]: 5}.get(c, 0) for c in range(7))
    seat = s.players[0]._replace(tokens=(2, 0, 0, 0, 0, 0, 0), square=s.layout.index(start))
    # the buy, the walk to the nearer tile, one take of two, the walk to headquarters
    actions = 1 + walk(s.layout, start, near) + 1 + walk(s.layout, near, "hq")
    assert effort(any_game, s, seat, "becky") == pytest.approx(4 * ACTION_DISCOUNT**actions)
    s.board = (0, 1, 0, 1, 0, 0, 0)  # no tile has two: nowhere to take them
    assert effort(any_game, s, seat, "becky") == 0.0


def test_tokens_of_any_colour_come_with_a_missing_colours_take_when_its_tile_has_them(
    any_game,
):
    s = any_game.new_state().copy()
    s.board = (4, 0, 0, 9, 0, 0, 0)  # four red at the gorilla's tile: both reds and two more
    seat = s.players[0]._replace(tokens=(0, 0, 0, 0, 0, 0, 0), square=s.layout.index("hq"))
    there = walk(s.layout, "hq", "gorilla")
    actions = 1 + there + 1 + 1 + there  # two takes of two at the gorilla's tile
    assert effort(any_game, s, seat, "becky") == pytest.approx(4 * ACTION_DISCOUNT**actions)


def test_the_planner_weighs_an_advanced_card_by_the_actions_it_still_needs(game):
    """The planner's reach of a card, in the advanced game, counts the walk and the take as
    above, not the family game's visits."""
    s = game.new_state().copy()
    s.board = (4, 0, 0, 0, 0, 0, 0)  # four red tokens on the gorilla's supply tile
    seat = s.players[0]._replace(tokens=(0, 0, 0, 0, 0, 1, 2), square=s.layout.index("hq"))
    s.players = (seat, *s.players[1:])
    there = walk(s.layout, "hq", "gorilla")
    actions = 1 + there + 1 + there  # the buy, the walk, one take of two reds, the walk back
    assert reach(game, s, 0, "becky") == pytest.approx(4 * ACTION_DISCOUNT**actions)
