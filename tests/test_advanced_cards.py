"""Advanced rules, clause by clause: Headquarters, card actions, end of turn, Officer X."""

import dataclasses

import pytest
from advanced_helpers import (
    CHIMP,
    GATE,
    GORILLA,
    HQ,
    LAYOUT,
    SHOP,
    acquired,
    at,
    plain_card,
    refused,
    verbs,
)
from family_helpers import tokens
from positions import play
from positions import with_fields as fields
from positions import with_player as seat

from rules.actions import Action
from rules.catalogue.effects import PARAMETERS, Effect
from rules.colours import BLACK, BLUE, COLOURS, GREEN, GREY, INDEX, RED, WHITE, YELLOW
from rules.errors import IllegalAction


def lay(s, *cards: str):
    """``cards`` face up in the first spaces; the cards they push out go on top of the deck.

    App deck only (every deck group holds one card).
    """
    rest = [c for c in s.faceup if c is not None and c not in cards]
    room = len(s.faceup) - len(cards)
    deck = [(c,) for c in rest[room:]] + [g for g in s.deck if g[0] not in cards]
    return fields(s, faceup=tuple(cards) + tuple(rest[:room]), deck=tuple(deck))


# ----------------------------------------------------------- headquarters


def test_headquarters_acquires_a_face_up_figurant_and_lays_the_next_card(demo):
    game, s = at(demo, die="table")
    card = plain_card(game, s)
    slot, top = s.faceup.index(card), s.deck[0][0]
    s = seat(s, 0, tokens=game.cards.figurants[card].cost[:7])
    after, events = game.apply(s, f"hq {card}")
    assert after.players[0].figurants == (card,) and after.players[0].tokens == tokens()
    assert after.faceup[slot] == top and after.actions_left == 3
    assert [e["event"] for e in events] == ["acquired", "revealed"]


def test_headquarters_the_card_laid_in_its_place_can_be_acquired_with_the_next_action(demo):
    """ "in one action you can acquire a figurant card, and the new card that takes its place
    may be acquired with your next action" """
    game, s = at(demo)
    card = plain_card(game, s)
    top = s.deck[0][0]
    cost = game.cards.figurants[card].cost[:7]
    both = tuple(a + b for a, b in zip(cost, game.cards.figurants[top].cost[:7], strict=True))
    s = seat(s, 0, tokens=both)
    s, _ = play(game, s, f"hq {card}")
    assert top in s.faceup and any(a[:2] == ("hq", top) for a in game.legal_actions(s))
    s, _ = play(game, s, f"hq {top}")
    assert s.players[0].figurants == (card, top)


def test_headquarters_the_order_pay_reward_card_refill_roll_marker_unmasking(demo):
    """The order of one acquisition: the tokens paid, the grey reward for a 7-token card, the
    card taken, its space refilled, the die, the marker, the unmasking."""
    game, s = at(demo, players=3, die="table")
    s = lay(s, "king-julian")  # a 7-token card, Officer X on 1-4
    cost = game.cards.figurants["king-julian"].cost[:7]
    s = seat(s, 0, tokens=tuple(n + (c == RED) for c, n in enumerate(cost)))
    s = seat(seat(s, 1, square=SHOP, tokens=tokens(blue=1)), 2, square=GATE)
    s, events = play(game, s, "hq king-julian", "roll 1", "officer shop")
    kinds = [e["event"] for e in events]
    assert kinds == ["grey_reward", "acquired", "revealed", "rolled", "officer_x", "unmasked"]
    assert s.players[0].tokens == tokens(red=1, grey=1), "paid first: the grey is a reward"
    assert s.players[1].tokens == tokens()


def test_headquarters_not_the_top_card_of_the_deck(demo):
    game, s = at(demo)
    top = s.deck[0][0]
    s = seat(s, 0, tokens=game.cards.figurants[top].cost[:7])
    assert not any(a[1] == top for a in verbs(game, s, "hq"))
    assert refused(game, s, f"hq {top}") == "illegal.card_not_faceup"


def test_headquarters_needs_the_tokens_shown_on_the_card(demo):
    game, s = at(demo)
    card = s.faceup[0]
    short = list(game.cards.figurants[card].cost[:7])
    short[next(c for c, n in enumerate(short) if n)] -= 1
    s = seat(s, 0, tokens=tuple(short))
    assert refused(game, s, f"hq {card}") == "illegal.cannot_afford"


def test_headquarters_a_grey_token_is_a_joker(demo):
    game, s = at(demo, die="table")
    card = plain_card(game, s)
    cost = list(game.cards.figurants[card].cost[:7])
    colour = next(c for c, n in enumerate(cost) if n and c != GREY)
    cost[colour] -= 1
    cost[GREY] += 1
    s = seat(s, 0, tokens=tuple(cost))
    word = f"grey={COLOURS[colour]}"
    assert Action("hq", card, word) in game.legal_actions(s)
    after, _ = game.apply(s, f"hq {card} {word}")
    assert after.players[0].tokens == tokens() and after.box[GREY] == s.box[GREY] + 1


def test_headquarters_paid_tokens_go_back_where_their_colour_goes(demo):
    game, s = at(demo, die="table")
    card = plain_card(game, s)
    cost = game.cards.figurants[card].cost[:7]
    s = seat(s, 0, tokens=cost)
    after, _ = game.apply(s, f"hq {card}")
    for c in (RED, BLUE, GREEN, YELLOW):
        assert after.board[c] == s.board[c] + cost[c]
    for c in (WHITE, BLACK):
        assert after.bag[c] == s.bag[c] + cost[c]


def test_headquarters_the_penguin_stays_there_for_the_rest_of_the_turn(demo):
    game, s, card = acquired(demo)
    s = seat(s, 0, figurants=(card, "buck-rogut"))  # Buck Rogut's action moves the penguin
    s, _ = play(game, s, "roll 6")
    assert s.stay and not verbs(game, s, "move")
    assert refused(game, s, "move gate") == "illegal.stay_at_hq"
    assert not any(a[1] == "buck-rogut" for a in verbs(game, s, "use"))
    assert refused(game, s, "use buck-rogut gate middle") == "illegal.effect_impossible"
    assert verbs(game, s, "penguin"), "other actions remain"
    s, _ = play(game, fields(s, actions_left=1), "penguin")
    assert s.current == 1 and not s.stay and verbs(game, s, "move")


def test_headquarters_may_acquire_again_in_the_same_turn(demo):
    game, s = at(demo, die="table")
    first, second = [c for c in s.faceup if sum(game.cards.figurants[c].cost[:7]) < 7][:2]
    costs = [game.cards.figurants[c].cost[:7] for c in (first, second)]
    both = tuple(a + b for a, b in zip(*costs, strict=True))
    s = seat(s, 0, tokens=both)
    s, _ = play(game, s, f"hq {first}", "roll 6", f"hq {second}", "roll 6")
    assert s.players[0].figurants == (first, second) and s.actions_left == 2


def test_headquarters_a_seven_token_card_gives_a_grey_from_beside_the_board(demo):
    game, s = at(demo, die="table")
    s = lay(s, "king-julian")
    s = seat(s, 0, tokens=game.cards.figurants["king-julian"].cost[:7])
    after, events = game.apply(s, "hq king-julian")
    assert {"event": "grey_reward", "player": 0} in events
    assert after.players[0].tokens == tokens(grey=1) and after.grey == s.grey - 1
    none_left = fields(s, grey=0, box=tokens(grey=s.grey))
    after, events = game.apply(none_left, "hq king-julian")
    assert after.players[0].tokens == tokens() and after.grey == 0
    assert not any(e["event"] == "grey_reward" for e in events)


# ------------------------------------------------------------ card actions


def test_figurant_action_once_per_game_then_on_the_discard_pile(demo):
    game, s = at(demo)
    s = seat(s, 0, figurants=("gladys",))  # draws one token from the bag
    assert verbs(game, s, "use") == [Action("use", "gladys")]
    s, events = play(game, s, "use gladys")
    assert (s.players[0].figurants, s.players[0].discarded) == ((), ("gladys",))
    assert sum(s.players[0].tokens) == 6 and s.actions_left == 3
    assert {"event": "used", "player": 0, "card": "gladys"} in events
    assert not verbs(game, s, "use")
    assert refused(game, s, "use gladys") == "illegal.card_not_held"


def test_figurant_without_an_action_symbol_cannot_be_used(demo):
    game, s = at(demo)
    s = seat(s, 0, figurants=("antonio", "zoe", "maurice"))
    assert not verbs(game, s, "use")
    for card in ("antonio", "zoe", "maurice"):
        assert refused(game, s, f"use {card}") == "illegal.no_card_action"


def test_penguin_action_once_per_game(demo):
    game, before = at(demo, penguins=("kowalski", "rico"))
    s, events = play(game, before, "penguin")
    assert s.players[0].penguin_used and s.actions_left == 3
    blue = s.players[0].tokens[BLUE] - before.players[0].tokens[BLUE]
    assert blue == 2, "Kowalski draws 2 blue tokens from the bag"
    assert not verbs(game, s, "penguin")
    assert refused(game, s, "penguin") == "illegal.penguin_used"


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_penguin_action_the_bag_cannot_give_is_refused_naming_the_penguin(demo, language):
    """Kowalski draws 2 blue tokens; with no blue token left in the bag the refusal names him,
    as it names a figurant whose action cannot be used now."""
    game, s = at(demo, penguins=("kowalski", "rico"))
    s = fields(s, bag=tuple(0 if c == BLUE else n for c, n in enumerate(s.bag)))
    assert not verbs(game, s, "penguin")
    assert refused(game, s, "penguin") == "illegal.effect_impossible"
    with pytest.raises(IllegalAction) as raised:
        game.apply(s, "penguin")
    assert raised.value.params == {"card": "kowalski"}
    assert "kowalski" in raised.value.text(language)


def test_card_action_cannot_touch_a_player_protected_by_maurice(demo):
    game, s = at(demo, players=3)
    s = seat(s, 0, figurants=("king-julian",))  # takes a token of its choice from a penguin
    s = seat(seat(s, 1, figurants=("maurice",), tokens=tokens(red=1)), 2, tokens=tokens(blue=1))
    assert verbs(game, s, "use") == [Action("use", "king-julian", "p3", "blue")]
    assert refused(game, s, "use king-julian p2 red") == "illegal.effect_choice"


def test_no_card_protects_from_a_penguins_action(demo):
    """Maurice: "you are not affected by the actions of the cards King Julian and Mort"
    (rulebook, Figurant cards): an owner's penguin that steals may still steal from him."""
    game, s = at(demo, penguins=("rico", "kowalski"))
    steal = Effect("steal", (("count", 1),))
    game.cards = dataclasses.replace(
        game.cards, penguin_effects={**game.cards.penguin_effects, "rico": steal}
    )
    s = seat(s, 1, figurants=("maurice",), tokens=tokens(red=1))
    assert verbs(game, s, "penguin") == [Action("penguin", "p2")]


def with_effect(game, card: str, do: str, **params):
    """``game`` with ``card``'s effect replaced (on this game's own copy of the card table)."""
    effect = Effect(do, tuple((name, params[name]) for name, _ in PARAMETERS[do]))
    figurant = dataclasses.replace(game.cards.figurants[card], effect=effect)
    figurants = {**game.cards.figurants, card: figurant}
    game.cards = dataclasses.replace(game.cards, figurants=figurants)
    return game


def test_card_effect_give_two_tokens_names_both_and_hands_them_over(demo):
    """A give of two: the choice names the two tokens joined by "+" (any two of the hand, a
    colour twice when held twice), and both go to the player named."""
    game, s = at(demo)
    game = with_effect(game, "mort", "give", count=2)
    s = seat(seat(s, 0, figurants=("mort",), tokens=tokens(red=2, blue=1)), 1, tokens=tokens())
    offered = {a for a in verbs(game, s, "use")}
    assert offered == {Action("use", "mort", pick, "p2") for pick in ("red+red", "red+blue")}
    s, _ = play(game, s, "use mort red+blue p2")
    assert (s.players[0].tokens, s.players[1].tokens) == (tokens(red=1), tokens(red=1, blue=1))


def test_card_effect_others_discard_every_other_player_loses_a_random_token(demo):
    """Mort's kind: "every other player discards a random token", each where its colour goes."""
    game, s = at(demo, players=3)
    game = with_effect(game, "mort", "others_discard", count=1)
    s = seat(seat(s, 0, figurants=("mort",)), 1, tokens=tokens(red=1))
    s = seat(s, 2, tokens=tokens(white=1, black=1))
    assert verbs(game, s, "use") == [Action("use", "mort")]
    board, bag = s.board, s.bag
    s, events = play(game, s, "use mort")
    assert [e for e in events if e["event"] == "lost"][0] == {
        "event": "lost",
        "player": 1,
        "lost": "red",
    }
    assert [sum(p.tokens) for p in s.players[1:]] == [0, 1] and s.actions_left == 3
    assert s.board[RED] == board[RED] + 1, "the red token goes to the Gorilla enclosure"
    assert sum(s.bag) == sum(bag) + 1
    assert s.players[0].discarded == ("mort",)


def test_card_effect_others_discard_the_token_is_random(demo):
    game, s = at(demo)
    game = with_effect(game, "mort", "others_discard", count=1)
    s = seat(seat(s, 0, figurants=("mort",)), 1, tokens=tokens(red=1, blue=1, green=1))
    lost = {play(game, fields(s, rng=seed), "use mort")[0].players[1].tokens for seed in range(12)}
    assert len(lost) == 3


def test_card_effect_others_discard_spares_maurice_and_empty_hands(demo):
    game, s = at(demo, players=3)
    game = with_effect(game, "mort", "others_discard", count=1)
    s = seat(seat(s, 0, figurants=("mort",)), 1, figurants=("maurice",), tokens=tokens(red=2))
    s = seat(s, 2, tokens=tokens())
    assert not verbs(game, s, "use"), "nobody it may touch holds a token"
    assert refused(game, s, "use mort") == "illegal.effect_impossible"


def test_card_effect_others_discard_with_the_tables_bag_names_each_token_in_turn_order(demo):
    game, s = at(demo, players=3, bag="table")
    game = with_effect(game, "mort", "others_discard", count=1)
    s = seat(seat(s, 0, figurants=("mort",)), 1, tokens=tokens(red=1, blue=1))
    s = seat(s, 2, tokens=tokens(white=1))
    s, _ = play(game, s, "use mort")
    assert (s.phase, s.losers) == ("lose", (1, 2))
    assert game.legal_actions(s) == [Action("lose", "red"), Action("lose", "blue")]
    s, events = play(game, s, "lose blue", "lose white")
    assert [e["event"] for e in events].count("lost") == 2
    assert (s.phase, s.actions_left, s.current) == ("act", 3, 0)
    assert [p.tokens for p in s.players[1:]] == [tokens(red=1), tokens()]


def test_card_effect_steal_choice_takes_the_token_chosen_from_another_player(demo):
    """King Julian's kind: "take a token of your choice from another player"."""
    game, s = at(demo, players=3)
    game = with_effect(game, "king-julian", "steal_choice", count=1)
    s = seat(seat(s, 0, figurants=("king-julian",), tokens=tokens()), 1, tokens=tokens(red=1))
    s = seat(s, 2, tokens=tokens(blue=1, yellow=2))
    choices = [a[2:] for a in verbs(game, s, "use")]
    assert choices == [("p2", "red"), ("p3", "blue"), ("p3", "yellow")]
    s, events = play(game, s, "use king-julian p3 yellow")
    assert s.players[0].tokens == tokens(yellow=1)
    assert s.players[2].tokens == tokens(blue=1, yellow=1)
    assert {"event": "took_from", "player": 0, "from": 2, "tokens": ["yellow"]} in events


def test_card_effect_steal_choice_not_from_a_player_protected_by_maurice(demo):
    game, s = at(demo, players=3)
    game = with_effect(game, "king-julian", "steal_choice", count=1)
    s = seat(s, 0, figurants=("king-julian",))
    s = seat(seat(s, 1, figurants=("maurice",), tokens=tokens(red=1)), 2, tokens=tokens(red=1))
    assert verbs(game, s, "use") == [Action("use", "king-julian", "p3", "red")]
    assert refused(game, s, "use king-julian p2 red") == "illegal.effect_choice"


def test_card_effect_acquire_pays_takes_the_card_and_rolls_for_officer_x(demo):
    """An acquisition by a card's effect is an acquisition: "After acquiring a figurant card,
    you must immediately roll the die"."""
    game, s = at(demo, die="table")
    game = with_effect(game, "gladys", "acquire")
    card = plain_card(game, s)
    s = seat(s, 0, square=CHIMP, figurants=("gladys",), tokens=game.cards.figurants[card].cost[:7])
    assert Action("use", "gladys", card) in verbs(game, s, "use")
    top = s.deck[0][0]
    s, events = play(game, s, f"use gladys {card}")
    assert s.players[0].figurants == (card,) and s.players[0].discarded == ("gladys",)
    assert top in s.faceup and s.phase == "roll" and s.actions_left == 3
    assert not s.stay, "only the Headquarters action keeps the penguin there"
    assert [e["event"] for e in events] == ["acquired", "revealed", "used"]


def test_card_effect_acquire_can_unmask_its_own_player(demo):
    """ "The player who caused Officer X to appear is also subject to unmasking if their
    penguin stands on the location where they placed the marker." """
    game, s = at(demo, die="table")
    game = with_effect(game, "gladys", "acquire")
    card = plain_card(game, s)
    cost = game.cards.figurants[card].cost[:7]
    s = seat(
        s,
        0,
        square=CHIMP,
        figurants=("gladys",),
        tokens=tuple(n + (c == RED) for c, n in enumerate(cost)),
    )
    s, _ = play(game, s, f"use gladys {card}", "roll 1")
    assert s.phase == "officer" and Action("officer", "chimp") in game.legal_actions(s)
    s, events = play(game, s, "officer chimp")
    assert {"event": "officer_x", "location": "chimp", "unmasked": [0]} in events
    assert {"event": "unmasked", "player": 0, "lost": "red"} in events
    assert s.players[0].tokens == tokens() and (s.phase, s.actions_left) == ("act", 3)


def test_card_effect_acquire_as_a_final_action_rolls_then_the_final_actions_go_on(demo):
    game, s = at(demo, die="table")
    game = with_effect(game, "gladys", "acquire")
    card = plain_card(game, s)
    s = seat(s, 0, figurants=("gladys",), tokens=game.cards.figurants[card].cost[:7])
    s = seat(s, 1, figurants=("shawna",))  # takes a yellow token from the Souvenir shop
    s = fields(s, phase="final", final_left=(0, 1), board=tokens(yellow=2))
    s, _ = play(game, s, f"use gladys {card}")
    assert s.phase == "roll"
    s, _ = play(game, s, "roll 6")
    assert (s.phase, s.current, s.final_left) == ("final", 1, (1,))


# ------------------------------------------------------------- end of turn


def test_end_of_turn_draw_two_tokens_on_an_uncovered_bag_symbol(demo):
    game, s = at(demo)
    s = fields(seat(s, 0, square=GORILLA), board=tokens(red=1), actions_left=1)
    after, events = game.apply(s, "take 1")
    drawn = [e for e in events if e["event"] == "drew"]
    assert [(e["player"], len(e["tokens"])) for e in drawn] == [(0, 2)]
    assert sum(after.players[0].tokens) == sum(s.players[0].tokens) + 3
    assert after.current == 1


@pytest.mark.parametrize(("square", "markers"), [(HQ, ()), (GORILLA, (GORILLA,))])
def test_end_of_turn_no_draw_on_headquarters_or_a_covered_bag_symbol(demo, square, markers):
    game, s = at(demo)
    s = fields(seat(s, 0, square=square), markers=markers, actions_left=1)
    after, events = game.apply(s, "penguin")
    assert not any(e["event"] == "drew" for e in events)
    assert sum(after.players[0].tokens) == sum(s.players[0].tokens) + 2 and after.current == 1


def test_end_of_turn_draw_with_the_table_bag_names_the_two_tokens(demo):
    game, s = at(demo, bag="table")
    s = fields(seat(s, 0, square=GORILLA), board=tokens(red=1), actions_left=1)
    s, _ = play(game, s, "take 1")
    assert (s.phase, s.current) == ("end_draw", 0)
    assert refused(game, s, "draw red") == "illegal.draw_count"
    assert refused(game, s, "move gate") == "illegal.phase_end_draw"
    before = s.players[0].tokens
    s, _ = play(game, s, "draw blue blue")
    assert s.players[0].tokens[BLUE] == before[BLUE] + 2
    assert (s.phase, s.current) == ("act", 1)


# --------------------------------------------------------------- officer x


def test_officer_x_the_die_is_rolled_after_every_acquisition(demo):
    game, s, card = acquired(demo)
    assert s.phase == "roll"
    assert game.legal_actions(s) == [Action("roll", str(n)) for n in range(1, 7)]
    game, s = at(demo)
    card = plain_card(game, s)
    s = seat(s, 0, tokens=game.cards.figurants[card].cost[:7])
    _, events = game.apply(s, f"hq {card}")
    rolled = next(e for e in events if e["event"] == "rolled")
    assert rolled["range"] == list(game.cards.figurants[card].officer_x)
    assert 1 <= rolled["roll"] <= 6


def test_officer_x_a_roll_outside_the_range_places_no_marker(demo):
    game, s, card = acquired(demo)
    low, high = game.cards.figurants[card].officer_x
    s, events = play(game, s, f"roll {high + 1}")
    assert {"event": "rolled", "roll": high + 1, "range": [low, high], "found": False} in events
    assert (s.phase, s.markers) == ("act", ())


def test_officer_x_a_roll_in_the_range_the_player_places_a_marker(demo):
    game, s, card = acquired(demo)
    s, _ = play(game, s, "roll 1")
    assert s.phase == "officer"
    assert {a[1] for a in game.legal_actions(s)} == set(LAYOUT) - {"hq"}
    s, events = play(game, s, "officer gate")
    assert s.markers == (GATE,) and (s.phase, s.actions_left) == ("act", 3)
    assert {"event": "officer_x", "location": "gate", "unmasked": []} in events


def test_officer_x_not_on_headquarters_nor_where_a_marker_stands(demo):
    game, s, _ = acquired(demo)
    s, _ = play(game, fields(s, markers=(GATE,)), "roll 1")
    assert {a[1] for a in game.legal_actions(s)} == set(LAYOUT) - {"hq", "gate"}
    assert refused(game, s, "officer hq") == "illegal.marker_not_there"
    assert refused(game, s, "officer gate") == "illegal.marker_not_there"


def test_officer_x_unmasks_every_penguin_there_including_the_placer(demo):
    game, s, _ = acquired(demo, players=3)
    s, _ = play(game, s, "roll 1")
    # The placer normally stands on Headquarters, where no marker goes: built on purpose.
    s = seat(seat(seat(s, 0, square=SHOP), 1, square=SHOP), 2, square=SHOP, spot="n")
    s = seat(s, 0, tokens=tokens(red=1))
    s = seat(seat(s, 1, tokens=tokens(white=2)), 2, tokens=tokens(blue=1, green=1))
    s, events = play(game, s, "officer shop")
    assert {"event": "officer_x", "location": "shop", "unmasked": [0, 1, 2]} in events
    assert [sum(p.tokens) for p in s.players] == [0, 1, 1]
    assert [e["player"] for e in events if e["event"] == "unmasked"] == [0, 1, 2]


@pytest.mark.parametrize(("colour", "place"), [("red", "board"), ("white", "bag"), ("grey", "box")])
def test_officer_x_the_unmasked_player_loses_a_token_discarded_by_colour(demo, colour, place):
    game, s, _ = acquired(demo, bag="table")
    s, _ = play(game, s, "roll 1")
    s = seat(s, 1, square=SHOP, tokens=tokens(red=1, white=1, grey=1))
    s, _ = play(game, s, "officer shop")
    assert s.phase == "lose"
    assert [a[1] for a in game.legal_actions(s)] == ["red", "grey", "white"]
    assert refused(game, s, "lose blue") == "illegal.not_held"
    after, events = game.apply(s, f"lose {colour}")
    assert {"event": "unmasked", "player": 1, "lost": colour} in events
    c = INDEX[colour]
    assert getattr(after, place)[c] == getattr(s, place)[c] + 1
    assert sum(after.players[1].tokens) == 2 and after.phase == "act"


def test_officer_x_an_unmasked_player_without_tokens_loses_nothing(demo):
    game, s, _ = acquired(demo, bag="table")
    s, _ = play(game, s, "roll 1")
    s = seat(s, 1, square=SHOP, tokens=tokens())
    s, events = play(game, s, "officer shop")
    assert {"event": "officer_x", "location": "shop", "unmasked": [1]} in events
    assert s.phase == "act" and not any(e["event"] == "unmasked" for e in events)


def test_officer_x_a_marker_removed_by_a_card_goes_back_beside_the_board(demo):
    game, s, _ = acquired(demo)
    s = fields(seat(s, 0, figurants=("karaczany",)), markers=(GATE, SHOP))
    s, _ = play(game, s, "roll 6")
    assert [a[2] for a in verbs(game, s, "use")] == ["gate", "shop"]
    s, events = play(game, s, "use karaczany gate")
    assert s.markers == (SHOP,)
    assert {"event": "marker_removed", "player": 0, "location": "gate"} in events
    card = plain_card(game, s)
    s = seat(s, 0, tokens=game.cards.figurants[card].cost[:7])
    s, _ = play(game, s, f"hq {card}", "roll 1", "officer gate")
    assert s.markers == (GATE, SHOP)


# Maurice: "a permanent effect – you are not affected by the actions of the cards King Julian
# and Mort." (the rulebook's Figurant Cards (Advanced))


def test_morts_discard_never_hits_maurices_owner(demo):
    """Both others hold tokens; only the one without Maurice discards, whatever the draw."""
    game, s = at(demo, players=3)
    game = with_effect(game, "mort", "others_discard", count=1)
    s = seat(seat(s, 0, figurants=("mort",)), 1, figurants=("maurice",), tokens=tokens(red=2))
    s = seat(s, 2, tokens=tokens(blue=1, white=1))
    for seed in range(12):
        after, events = play(game, fields(s, rng=seed), "use mort")
        assert after.players[1].tokens == tokens(red=2), seed
        assert sum(after.players[2].tokens) == 1, seed
        assert [e["player"] for e in events if e["event"] == "lost"] == [2]


def test_a_random_steal_from_the_apps_bag_never_targets_maurices_owner(demo):
    """A card that takes a random token (the app draws it) may name only the others."""
    game, s = at(demo, players=3)
    game = with_effect(game, "king-julian", "steal", count=1)
    s = seat(s, 0, figurants=("king-julian",), tokens=tokens())
    s = seat(seat(s, 1, figurants=("maurice",), tokens=tokens(red=1)), 2, tokens=tokens(blue=1))
    assert verbs(game, s, "use") == [Action("use", "king-julian", "p3")]
    assert refused(game, s, "use king-julian p2") == "illegal.effect_choice"
    after, events = play(game, s, "use king-julian p3")
    assert after.players[0].tokens == tokens(blue=1)
    assert after.players[1].tokens == tokens(red=1)
    assert {"event": "took_from", "player": 0, "from": 2, "tokens": ["blue"]} in events


def test_a_choice_left_out_is_named_as_a_dash_in_the_refusal(demo):
    """A card whose effect needs a choice, used with none: the refusal says "-" where the
    choice would stand, not an empty pair of quotes."""
    game, s = at(demo, players=3)
    game = with_effect(game, "king-julian", "steal", count=1)
    s = seat(s, 0, figurants=("king-julian",), tokens=tokens())
    s = seat(seat(s, 1, tokens=tokens(red=1)), 2, tokens=tokens(blue=1))
    with pytest.raises(IllegalAction) as raised:
        game.apply(s, "use king-julian")
    assert raised.value.text("en") == "'-' is not a possible choice for 'king-julian'."
