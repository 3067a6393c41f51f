"""No stalls: late in a game, with nothing to buy, virtual players still bring the end.

Officer X's last marker (advanced) and the last cards of the deck come only with
purchases; a player who only avoids the penalty of new tokens never buys, and
two such players walk in circles for ever. The positions: every marker but the
eighth out (advanced) or four cards left in the deck (family), and both hands
down to one white token, so nothing can be bought without collecting first.
The hint is the normal level's move, so the normal games hold it too.
"""

import random

import pytest

from rules.pingwiny.options import Options
from rules.players import decides, play
from rules.record import VARIANTS
from tests.positions import with_fields, with_player

ROUNDS = 12  # the most rounds a game may take from the position to its end
SEEDS = range(4)
NODES = 120


def late_game(demo, variant: str, seed: int):
    """A position 20 turns into a random game, made late and with (nearly) empty hands."""
    game = VARIANTS["pingwiny", variant](demo, Options(players=2, seed=seed))
    s = game.new_state()
    chooser = random.Random(seed)
    while not (s.turns >= 20 and decides(game, s) is not None and turn_starts(s)):
        s, _ = game.apply(s, chooser.choice(game.legal_actions(s)))
    if variant == "advanced":
        s = with_fields(s, markers=tuple(q for q in range(9) if q != 4)[:7])
    else:
        s = with_fields(s, deck=s.deck[:4])
    for seat in range(game.n):
        s = with_player(s, seat, tokens=(0, 0, 0, 0, 0, 1, 0))
    return game, s


def turn_starts(s) -> bool:
    """The first decision of a turn: both family visits, or all four advanced actions, ahead."""
    return getattr(s, "visits_left", None) == 2 or getattr(s, "actions_left", None) == 4


@pytest.mark.parametrize("variant", ["family", "advanced"])
@pytest.mark.parametrize("level", ["normal", "strong"])
def test_late_in_the_game_with_empty_hands_the_game_still_ends(demo, variant, level):
    for seed in SEEDS:
        game, s = late_game(demo, variant, seed)
        _, end = play(game, s, (level, level), seed, nodes=NODES, limit=2000)
        assert end.phase == "over", seed
        assert end.turns - s.turns <= ROUNDS * game.n, (seed, end.turns - s.turns)
