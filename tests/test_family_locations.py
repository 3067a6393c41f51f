"""Family rules, clause by clause: each location, from the supplies to Headquarters."""

import pytest
from family_helpers import at_visits, new_game, tokens
from positions import with_fields, with_player

from rules.actions import Action
from rules.colours import COLOURS, GREY, WHITE
from rules.errors import IllegalAction

# -------------------------------------------------------------- locations


@pytest.mark.parametrize(
    ("location", "colour"),
    [("chimp", "blue"), ("gorilla", "red"), ("shop", "yellow"), ("storehouse", "green")],
)
def test_supply_location_gives_one_token_of_its_colour(demo, location, colour):
    game, s = new_game(demo, seed=5)
    s = at_visits(game, with_fields(s, board=tokens(**{colour: 2})))
    before = s.players[s.current].tokens
    after, _ = game.apply(s, f"visit {location}")
    assert after.board == tokens(**{colour: 1})
    assert after.players[s.current].tokens == tuple(
        n + (1 if c == tokens(**{colour: 1}).index(1) else 0) for c, n in enumerate(before)
    )


@pytest.mark.parametrize("location", ["chimp", "gorilla", "shop", "storehouse"])
def test_supply_location_with_no_token_cannot_be_visited(demo, location):
    game, s = new_game(demo, seed=5)
    s = at_visits(game, with_fields(s, board=tokens()))
    assert Action("visit", location) not in game.legal_actions(s)
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, f"visit {location}")
    assert refused.value.key == "illegal.no_token_at"


def test_otter_draws_one_random_token_from_the_bag(demo):
    game, s = new_game(demo, seed=6)
    s = at_visits(game, s)
    after, events = game.apply(s, "visit otter")
    assert sum(after.bag) == sum(s.bag) - 1
    assert sum(after.players[s.current].tokens) == sum(s.players[s.current].tokens) + 1
    assert events[0]["event"] == "drew" and len(events[0]["tokens"]) == 1


def test_otter_cannot_be_visited_with_an_empty_bag(demo):
    game, s = new_game(demo, seed=6)
    s = at_visits(game, s)
    s = with_fields(s, bag=tokens(), box=tuple(a + b for a, b in zip(s.box, s.bag, strict=True)))
    assert Action("visit", "otter") not in game.legal_actions(s)
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "visit otter")
    assert refused.value.key == "illegal.bag_empty"


def test_lemur_takes_a_mission_from_above_the_board(demo):
    game, s = new_game(demo, seed=7)
    s = at_visits(game, s)
    mission = s.missions[2]
    after, _ = game.apply(s, f"visit lemur {mission}")
    assert after.players[s.current].mission == mission
    assert mission not in after.missions and len(after.missions) == 4


def test_lemur_swaps_the_one_mission_held(demo):
    game, s = new_game(demo, seed=7)
    s = at_visits(game, s)
    first, second = s.missions[0], s.missions[1]
    s, _ = game.apply(s, f"visit lemur {first}")
    s, _ = game.apply(s, f"visit lemur {second}")
    held = s.players[(s.current - 1) % 2].mission
    assert held == second and first in s.missions and second not in s.missions
    assert len(s.missions) == 4


def test_lemur_cannot_take_a_mission_not_above_the_board(demo):
    game, s = new_game(demo, seed=7)
    s = at_visits(game, s)
    s, _ = game.apply(s, f"visit lemur {s.missions[0]}")
    held = s.players[s.current].mission
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, f"visit lemur {held}")
    assert refused.value.key == "illegal.mission_not_available"


def test_zoo_gate_puts_the_face_up_figurants_under_the_deck(demo):
    game, s = new_game(demo, seed=8)
    s = at_visits(game, s)
    row, top = s.faceup, [g[0] for g in s.deck[: len(s.faceup)]]
    after, events = game.apply(s, "visit gate")
    assert list(after.faceup) == top
    assert sorted(g[0] for g in after.deck[-len(row) :]) == sorted(row)
    assert after.deck_size == s.deck_size
    assert events[0] == {"event": "cycled", "cards": list(row)}


def test_zoo_gate_with_nothing_face_up_cannot_be_visited(demo):
    """A visit must do what its location says: with no figurant beneath the board the Zoo
    gate has nothing to do, like a supply tile with no token."""
    game, s = new_game(demo, seed=8)
    s = at_visits(game, with_fields(s, deck=(), faceup=(None,) * 4, last_round=True))
    assert Action("visit", "gate") not in game.legal_actions(s)
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "visit gate")
    assert refused.value.key == "illegal.nothing_to_cycle"


def test_zoo_gate_with_nothing_face_up_only_when_no_other_visit_is_possible(demo):
    """ "You must visit two locations in your turn – you may not pass": when nothing else
    can be visited (no token to take or draw, no mission, no exchange, no card), the empty
    Zoo gate visit is the one left, so a legal visit always exists."""
    game, s = new_game(demo, seed=8)
    s = at_visits(game, with_fields(s, deck=(), faceup=(None,) * 4, last_round=True))
    held = sum(s.bag[c] + s.board[c] for c in range(7))
    s = with_fields(s, bag=tokens(), board=tokens(), missions=())
    s = with_player(s, s.current, tokens=tokens(red=held))
    assert game.legal_actions(s) == [Action("visit", "gate")]
    s, events = game.apply(s, "visit gate")
    assert {"event": "cycled", "cards": []} in events and s.visits_left == 1


def test_zoo_gate_near_the_end_of_the_deck_brings_some_cards_back(demo):
    game, s = new_game(demo, seed=8)
    s = at_visits(game, s)
    s = with_fields(s, deck=s.deck[:1])
    row = set(s.faceup)
    after, _ = game.apply(s, "visit gate")
    assert after.deck_size == 1 and not after.last_round
    assert set(after.faceup) | {after.deck[0][0]} == row | {s.deck[0][0]}


def test_headquarters_acquires_a_face_up_figurant_and_refills_its_space(demo):
    game, s = new_game(demo, seed=9)
    s = at_visits(game, s)
    card = s.faceup[1]
    cost = game.cards.figurants[card].cost[:7]
    s = with_player(s, s.current, tokens=cost)
    top = s.deck[0][0]
    after, events = game.apply(s, f"visit hq {card}")
    assert after.players[s.current].figurants == (card,)
    assert after.players[s.current].tokens == tokens()
    assert after.faceup[1] == top
    assert [e["event"] for e in events[:2]] == ["acquired", "revealed"]


def test_headquarters_the_card_that_takes_the_space_can_be_acquired_on_the_next_visit(demo):
    """ "after you take a card from beneath the board, the top card of the deck takes its
    place, and you can acquire it on your next move" """
    game, s = new_game(demo, seed=9)
    s = at_visits(game, s)
    card, top = s.faceup[1], s.deck[0][0]
    cost = game.cards.figurants[card].cost[:7]
    both = tuple(a + b for a, b in zip(cost, game.cards.figurants[top].cost[:7], strict=True))
    s = with_player(s, s.current, tokens=both)
    s, _ = game.apply(s, f"visit hq {card}")
    assert s.faceup[1] == top and any(a[:3] == ("visit", "hq", top) for a in game.legal_actions(s))
    s, _ = game.apply(s, f"visit hq {top}")
    assert s.players[s.current - 1 if s.current else 1].figurants[-2:] == (card, top)


def test_headquarters_cannot_acquire_the_top_card_of_the_deck(demo):
    game, s = new_game(demo, seed=9)
    s = at_visits(game, s)
    top = s.deck[0][0]
    s = with_player(s, s.current, tokens=game.cards.figurants[top].cost[:7])
    assert not any(a[:3] == ("visit", "hq", top) for a in game.legal_actions(s))
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, f"visit hq {top}")
    assert refused.value.key == "illegal.card_not_faceup"


def test_headquarters_needs_the_tokens_shown_on_the_card(demo):
    game, s = new_game(demo, seed=9)
    s = at_visits(game, s)
    card = s.faceup[0]
    short = list(game.cards.figurants[card].cost[:7])
    colour = next(c for c, n in enumerate(short) if n)
    short[colour] -= 1
    s = with_player(s, s.current, tokens=tuple(short))
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, f"visit hq {card}")
    assert refused.value.key == "illegal.cannot_afford"


def test_headquarters_grey_is_a_joker_for_any_colour(demo):
    game, s = new_game(demo, seed=9)
    s = at_visits(game, s)
    card = s.faceup[0]
    cost = list(game.cards.figurants[card].cost[:7])
    colour = next(c for c, n in enumerate(cost) if n and c != GREY)
    cost[colour] -= 1
    cost[GREY] += 1
    s = with_player(s, s.current, tokens=tuple(cost))
    action = f"visit hq {card} grey={COLOURS[colour]}"
    assert Action.parse(action) in game.legal_actions(s)
    after, _ = game.apply(s, action)
    assert after.players[s.current].tokens == tokens()
    assert after.box[GREY] == s.box[GREY] + 1


def test_headquarters_grey_may_stand_in_even_when_the_colour_is_held(demo):
    game, s = new_game(demo, seed=9)
    s = at_visits(game, s)
    card = s.faceup[0]
    cost = game.cards.figurants[card].cost[:7]
    s = with_player(
        s, s.current, tokens=tuple(n + (1 if c == GREY else 0) for c, n in enumerate(cost))
    )
    choices = [a for a in game.legal_actions(s) if a[:3] == ("visit", "hq", card)]
    assert len(choices) == 1 + len([c for c in range(7) if cost[c] and c != GREY])


def test_discarded_tokens_go_back_by_colour_and_grey_to_the_box(demo):
    game, s = new_game(demo, seed=10)
    s = at_visits(game, s)
    card = s.faceup[0]
    cost = game.cards.figurants[card].cost[:7]
    s = with_player(s, s.current, tokens=cost)
    after, _ = game.apply(s, f"visit hq {card}")
    for c, name in enumerate(("red", "blue", "green", "yellow")):
        assert after.board[c] == s.board[c] + cost[c], name
    assert after.bag[WHITE] == s.bag[WHITE] + cost[WHITE]
    assert after.box[GREY] == s.box[GREY] + cost[GREY]
