"""No peeking, held where it would pay: the real deck order decides the best move.

A family player's hand pays either demo-42 (5 points) or demo-35 (2 points; the
demo deck's made-up values), not both; demo-35 lies face up, demo-42 in the deck.
The Zoo gate lays four new cards from the top of the deck. A player who knew the
real order would go to the gate when demo-42 lies on top (and buy it with the
second visit), and buy demo-35 when it lies at the bottom; a player who sees only
what the table sees chooses the same either way. So this test fails as soon as
the sampler lets the real order through (checked by making it keep the order).
"""

import pytest

from rules.actions import Action
from rules.pingwiny.options import Options
from rules.players import choose
from rules.record import VARIANTS
from tests.positions import with_fields, with_player

TARGET = "demo-42"  # cost red, blue, 2 white, 2 black: 5 points
HAND = (2, 1, 0, 0, 0, 2, 2)  # demo-42 or demo-35, not both
FACE_UP = ("demo-35", "becky", "max-kolanko", "demo-33")  # demo-35: 2 red, blue (2 points)
GATE = Action("visit", "gate")
SEEDS = range(6)
# The levels that look past one action: the greedy easy level never sees the second visit,
# so the order could not change its choice here (test_players.py shuffles for it).
SEARCHING = ("normal", "strong")


def table(demo, target_on_top: bool):
    """The first visit of a 2-player family turn, demo-42 first or last in the deck."""
    game = VARIANTS["pingwiny", "family"](demo, Options(players=2, seed=11))
    s = game.new_state()
    while s.phase != "visit":
        s, _ = game.apply(s, game.legal_actions(s)[0])
    rest = sorted(set(game.cards.deck) - set(FACE_UP) - {TARGET})
    order = [TARGET, *rest] if target_on_top else [*rest, TARGET]
    s = with_fields(s, faceup=FACE_UP, deck=tuple((card,) for card in order))
    return game, with_player(s, s.current, tokens=HAND, figurants=())


def test_the_position_is_one_where_the_real_order_would_pay(demo):
    """Knowing the order, the gate then demo-42 gives 5 points this turn; demo-35 gives 2,
    and the hand that pays demo-42 cannot pay demo-35 too."""
    game, s = table(demo, target_on_top=True)
    me = s.current
    assert (game.cards.figurants[TARGET].points, game.cards.figurants["demo-35"].points) == (5, 2)
    assert {a[2] for a in game.legal_actions(s) if a[1] == "hq"} == {"demo-35"}
    s, _ = game.apply(s, GATE)
    assert TARGET in s.faceup
    buy = next(a for a in game.legal_actions(s) if a[:3] == ("visit", "hq", TARGET))
    after, _ = game.apply(s, buy)
    assert after.players[me].figurants == (TARGET,)
    _, first_visit = table(demo, target_on_top=True)
    left = with_player(first_visit, me, tokens=after.players[me].tokens)
    assert not [a for a in game.legal_actions(left) if a[1] == "hq"]


@pytest.mark.parametrize("level", SEARCHING)
def test_the_choice_does_not_follow_the_real_deck_order(demo, level):
    game, top = table(demo, target_on_top=True)
    _, bottom = table(demo, target_on_top=False)
    for seed in SEEDS:
        on_top = choose(game, top, level, seed, nodes=300).action
        at_bottom = choose(game, bottom, level, seed, nodes=300).action
        assert on_top == at_bottom, (seed, on_top, at_bottom)
