"""A search keeps the parts of a position's value once worked out; the values stay the same.

``value`` keeps each seat's score line, its hand's fit to the face-up cards and its
missions' outlook in the search's memo, each under what it reads. A key that forgot
something it reads (the board, the face-up row, the bag, where the penguin stands) would
hand one position's part to another: one memo shared by every position of several whole
games, as a search shares it between the worlds it imagines, must give every value that
a fresh computation gives.
"""

import random

import pytest

from rules.pingwiny.options import Options
from rules.players.evaluation import covered, rounds_left, value
from rules.record import VARIANTS


def states(demo, variant: str, seed: int):
    """Every state of one random game before its end, in order, and the state at its end."""
    game = VARIANTS["pingwiny", variant](demo, Options(players=3, seed=seed))
    s, chooser, found = game.new_state(), random.Random(seed), []
    while s.phase != "over":
        found.append(s)
        s, _ = game.apply(s, chooser.choice(game.legal_actions(s)))
    return game, found, s


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_a_memo_shared_by_every_position_of_whole_games_changes_no_value(demo, variant):
    for seed in (1, 2):
        game, found, _ = states(demo, variant, seed)
        memo: dict = {}
        for s in found:
            for p in range(game.n):
                assert value(game, s, p, memo=memo) == value(game, s, p)


def test_the_tokens_a_hand_pays_are_counted_as_a_person_counts_them():
    # red, blue, green, yellow, grey, white, black, and the "any" symbols
    cost = (2, 1, 0, 0, 1, 0, 0, 2)
    assert covered(cost, (2, 1, 0, 0, 1, 0, 0)) == 4  # the colours and the grey; no spare
    assert covered(cost, (1, 1, 0, 0, 2, 0, 0)) == 4  # a spare grey stands in for a red
    assert covered(cost, (2, 1, 0, 3, 1, 0, 0)) == 6  # two yellows pay the "any" symbols
    assert covered(cost, (0, 0, 0, 0, 0, 0, 0)) == 0
    # asked again, the kept answer is the same
    assert covered(cost, (1, 1, 0, 0, 2, 0, 0)) == 4


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_in_the_last_round_each_player_has_one_turn_at_most_left(demo, variant):
    """Once the last round has begun, each player has at most the one turn the round still
    owes: the search weighs what is still to come by no more than that."""
    last = []
    for seed in range(1, 6):
        game, found, _ = states(demo, variant, seed)
        last += [rounds_left(game, s) for s in found if s.last_round]
    assert last and all(0 < n <= 1 for n in last)


@pytest.mark.parametrize("variant", ["family", "advanced"])
def test_at_the_end_of_a_game_no_turn_is_left(demo, variant):
    game, found, over = states(demo, variant, 1)
    assert rounds_left(game, over) == 0.0 and rounds_left(game, found[-1]) > 0
