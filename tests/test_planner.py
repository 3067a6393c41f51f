"""The planner, the yardstick the virtual players are measured against (benchmarks/players.py).

How near a family card is counts the visits a person would make (the rulebook, "Locations"):
one a token from a supply tile while it has it, one a Gastro exchange of a spare token, the
Otter as often as the bag needs on average, one an "any" symbol, and the purchase itself.
"""

import math
from types import SimpleNamespace

import pytest
from positions import with_player

from rules.pingwiny.options import Options
from rules.players.planner import plan, visits, worth
from rules.record import VARIANTS


def cost(red=0, blue=0, green=0, yellow=0, grey=0, white=0, black=0, any=0):
    return (red, blue, green, yellow, grey, white, black, any)


def hand(red=0, blue=0, green=0, yellow=0, grey=0, white=0, black=0):
    return (red, blue, green, yellow, grey, white, black)


# Two red on the Gorilla enclosure; the bag holds 10 tokens, 2 of them white.
TABLE = SimpleNamespace(board=hand(red=2), bag=hand(red=2, blue=2, green=2, white=2, black=2))


@pytest.mark.parametrize(
    ("held", "wanted", "expected"),
    [
        (hand(red=2, white=1), cost(red=2, white=1), 1),  # held: the purchase alone
        (hand(white=1), cost(red=2, white=1), 3),  # two red taken one a visit, then buy
        (hand(yellow=1, white=1), cost(red=3, white=1), 4),  # two taken, one for the yellow
        (hand(white=2), cost(red=2, white=2, any=1), 4),  # an "any" symbol: one more visit
        (hand(red=2), cost(red=2, white=1), 1 + 10 / 2),  # white: the Otter, 10 / 2 draws
    ],
)
def test_a_family_card_is_as_many_visits_away_as_a_person_counts(held, wanted, expected):
    assert visits(TABLE, held, wanted) == pytest.approx(expected)


def test_a_colour_neither_held_nor_on_a_tile_nor_in_the_bag_is_out_of_reach():
    assert visits(TABLE, hand(red=2), cost(red=2, yellow=1)) == math.inf  # no spare to swap


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_the_planner_plays_a_legal_action_at_every_step_of_a_game(demo, variant):
    game = VARIANTS["pingwiny", variant](demo, Options(players=2, seed=3))
    s = game.new_state()
    for step in range(12):
        action = plan(game, s, seed=step)
        assert action in game.legal_actions(s)
        s, _ = game.apply(s, action)


def test_a_hand_nearer_a_face_up_card_is_worth_more_than_as_many_tokens_it_does_not_need(demo):
    """Seed 3's family table shows Duńska ochrona, 3 red and 2 black: two red and two black in
    hand leave one red to find, two blue and two green all five; same count, same penalty."""
    game = VARIANTS["pingwiny", "family"](demo, Options(players=2, seed=3))
    s = game.new_state()
    assert "dunska-ochrona" in s.faceup
    near = with_player(s, 0, tokens=hand(red=2, black=2))
    far = with_player(s, 0, tokens=hand(blue=2, green=2))
    assert worth(game, near, 0, "dunska-ochrona") > worth(game, far, 0, "dunska-ochrona")
