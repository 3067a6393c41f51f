"""One test per clause of the advanced rules, named after the clause.

Positions start from a real set-up (two players, the fixed board ``LAYOUT``,
player 1 to act) with a few fields replaced, so each test shows only the
part of the table its clause is about. Values the rulebook does not print
(costs, points, effects) come from the demo deck.
"""

import dataclasses

import pytest
from advanced_helpers import LAYOUT, new_advanced, reveal_all
from family_helpers import tokens
from positions import play
from positions import with_fields as fields
from positions import with_player as seat

from rules.actions import Action
from rules.catalogue.effects import PARAMETERS, Effect
from rules.colours import BLACK, BLUE, COLOURS, GREEN, GREY, INDEX, RED, WHITE, YELLOW
from rules.errors import IllegalAction, MalformedAction, SetupError
from rules.pingwiny.advanced import TILES
from rules.pingwiny.advanced_scoring import score_seat
from rules.pingwiny.board import HQ_SQUARE

# The squares of LAYOUT, row by row.
LEMUR, GATE, CHIMP, GORILLA, HQ, GASTRO, SHOP, STOREHOUSE, OTTER = range(9)
SHORT_GAME_CARDS = {"becky", "hans", "dr-bulgot", "king-of-the-rats", "stacy", "dunska-ochrona"}
SHORT_GAME_CARDS |= {"homary", "szczury"}


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


def lay(s, *cards: str):
    """``cards`` face up in the first spaces; the cards they push out go on top of the deck.

    App deck only (every deck group holds one card).
    """
    rest = [c for c in s.faceup if c is not None and c not in cards]
    room = len(s.faceup) - len(cards)
    deck = [(c,) for c in rest[room:]] + [g for g in s.deck if g[0] not in cards]
    return fields(s, faceup=tuple(cards) + tuple(rest[:room]), deck=tuple(deck))


def with_missions(game, s, p: int, held: tuple[str, ...]):
    """Player ``p`` holds ``held``; the other missions are laid out and stacked again."""
    others = [m for m in sorted(game.cards.missions) if m not in held]
    row = len(s.mission_row)
    s = fields(s, mission_row=tuple(others[:row]), mission_deck=tuple((m,) for m in others[row:]))
    return seat(s, p, missions=held)


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


# ------------------------------------------------------------------ setup


def test_setup_headquarters_in_the_middle_the_other_tiles_at_random(demo):
    layouts = {new_advanced(demo, seed=seed)[1].layout for seed in range(8)}
    assert len(layouts) > 1
    for layout in layouts:
        assert layout[HQ_SQUARE] == "hq"
        assert sorted(layout[:HQ_SQUARE] + layout[HQ_SQUARE + 1 :]) == sorted(TILES)


def test_setup_a_layout_without_headquarters_in_the_middle_is_refused(demo):
    with pytest.raises(SetupError) as raised:
        new_advanced(demo, layout=("hq",) + LAYOUT[:HQ_SQUARE] + LAYOUT[HQ_SQUARE + 1 :])
    assert raised.value.key == "setup.layout"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_penguins_stand_on_headquarters_with_five_tokens_each(demo, players):
    _, s = new_advanced(demo, players=players, seed=2)
    assert [(p.square, p.spot) for p in s.players] == [(HQ_SQUARE, "middle")] * players
    assert [sum(p.tokens) for p in s.players] == [5] * players
    assert (s.phase, s.current, s.actions_left) == ("act", s.first, 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_lays_players_plus_two_figurants_and_players_plus_one_missions(demo, players):
    game, s = new_advanced(demo, players=players, seed=3)
    assert len(s.faceup) == players + 2 and None not in s.faceup
    assert len(s.mission_row) == players + 1 and None not in s.mission_row
    assert s.deck_size == len(game.cards.deck) - players - 2 == 42 - players - 2
    assert s.mission_deck_size == 10 - players - 1


def test_setup_uses_all_ten_missions_shuffled(demo):
    rows = set()
    for seed in range(6):
        _, s = new_advanced(demo, seed=seed)
        everything = list(s.mission_row) + [m for group in s.mission_deck for m in group]
        assert len(everything) == len(set(everything)) == 10
        rows.add(s.mission_row)
    assert len(rows) > 1


def test_setup_grey_tokens_lie_beside_the_board_not_in_the_bag(demo):
    game, s = new_advanced(demo, seed=4)
    assert s.grey == game.cards.tokens[GREY] > 0
    assert s.bag[GREY] == 0 and all(p.tokens[GREY] == 0 for p in s.players)
    held = [sum(p.tokens[c] for p in s.players) for c in range(7)]
    for c in range(7):
        if c != GREY:
            assert s.bag[c] + held[c] == game.cards.tokens[c]


def test_setup_table_bag_each_player_draws_five_from_the_first_player_on(demo):
    game, s = new_advanced(demo, players=3, first=1, bag="table", seed=5)
    assert (s.phase, s.current) == ("draw", 1)
    assert refused(game, s, "draw grey red red red red") == "illegal.not_in_bag"
    assert refused(game, s, "draw red red") == "illegal.draw_count"
    s, _ = play(game, s, "draw red red blue white black")
    assert s.players[1].tokens == tokens(red=2, blue=1, white=1, black=1)
    assert (s.phase, s.current) == ("draw", 2)
    s, _ = play(game, s, "draw green green green green green", "draw yellow yellow red red red")
    assert (s.phase, s.current, s.actions_left) == ("act", 1, 4)


def test_short_game_removes_the_listed_cards_and_the_best_enemy_mission(demo):
    game, s = new_advanced(demo, short=True, seed=6)
    assert not SHORT_GAME_CARDS & set(game.cards.deck)
    assert len(game.cards.deck) == 42 - 8
    missions = set(s.mission_row) | {m for group in s.mission_deck for m in group}
    assert "najlepszy-wrog" not in missions and len(missions) == 9


def test_setup_a_fixed_deck_order_is_for_the_app_deck_only(demo):
    game, _ = new_advanced(demo, seed=7)
    with pytest.raises(SetupError) as raised:
        new_advanced(demo, deck="table", deck_order=game.cards.deck)
    assert raised.value.key == "setup.deck_order_table"


# ------------------------------------------------------------------- turn


def test_turn_is_four_actions_the_same_one_repeated_if_wished(demo):
    game, s = at(demo)
    s = fields(s, board=tokens(red=8))
    s, _ = play(game, s, "move gorilla", "take 1", "take 2")
    assert (s.current, s.actions_left) == (0, 1)
    s, events = play(game, s, "take 1")
    assert (s.current, s.phase, s.actions_left) == (1, "act", 4)
    assert events[-1] == {"event": "turn", "player": 1}


# ------------------------------------------------------------------- move


def test_move_to_an_orthogonal_neighbour_for_one_action(demo):
    game, s = at(demo)
    assert {a[1] for a in verbs(game, s, "move")} == {"gate", "gorilla", "gastro", "storehouse"}
    corner = seat(s, 0, square=LEMUR)
    assert {a[1] for a in verbs(game, corner, "move")} == {"gate", "gorilla"}
    assert refused(game, corner, "move hq") == "illegal.not_adjacent"
    assert refused(game, corner, "move chimp") == "illegal.not_adjacent"
    s, events = play(game, s, "move gate")
    assert (s.players[0].square, s.players[0].spot, s.actions_left) == (GATE, "middle", 3)
    assert events == [{"event": "moved", "player": 0, "location": "gate", "spot": "middle"}]


def test_move_push_aside_a_blocking_penguin_for_one_more_action(demo):
    game, s = at(demo)
    s = seat(s, 1, square=GASTRO, spot="w")  # the edge of the Gastro zone facing Headquarters
    s, events = play(game, s, "move gastro")
    assert {"event": "pushed", "player": 1, "by": 0} in events
    assert (s.players[1].square, s.players[1].spot) == (GASTRO, "middle")
    assert (s.players[0].square, s.players[0].spot) == (GASTRO, "middle")
    assert s.actions_left == 2


def test_move_push_aside_is_refused_with_one_action_left(demo):
    game, s = at(demo)
    s = fields(seat(s, 1, square=GASTRO, spot="w"), actions_left=1)
    assert not any(a[1] == "gastro" for a in verbs(game, s, "move"))
    assert refused(game, s, "move gastro") == "illegal.push_needs_two"


def test_move_stops_in_the_middle_of_the_tile(demo):
    game, s = at(demo)
    s, events = play(game, s, "move gate")
    assert (s.players[0].square, s.players[0].spot) == (GATE, "middle")
    assert refused(game, s, "move gorilla w", MalformedAction) == "action.bad_arguments"


def test_block_is_an_action_of_its_own_after_stopping(demo):
    """ "Block – after stopping on a location tile, a penguin may stand in the middle of the
    tile, or on a square blockade field at an edge of its choice": one of the five types of
    action, so taking a blockade field costs an action of its own."""
    game, s = at(demo)
    s, _ = play(game, s, "move gate")
    assert s.actions_left == 3
    s, events = play(game, s, "block s")
    assert (s.players[0].square, s.players[0].spot, s.actions_left) == (GATE, "s", 2)
    assert events == [{"event": "blocked", "player": 0, "location": "gate", "spot": "s"}]


def test_block_without_moving_that_turn(demo):
    game, s = at(demo)
    assert {a[1] for a in verbs(game, s, "block")} == {"n", "e", "s", "w"}, "from the middle"
    s, _ = play(game, s, "block e")
    assert (s.players[0].square, s.players[0].spot, s.actions_left) == (HQ, "e", 3)
    s, _ = play(game, s, "block middle")
    assert (s.players[0].spot, s.actions_left) == ("middle", 2), "back to the middle: an action"


def test_block_stand_in_the_middle_or_on_a_free_edge_facing_another_tile(demo):
    game, s = at(demo)
    s = seat(seat(s, 0, square=GATE), 1, square=GATE, spot="e")
    assert [a[1] for a in verbs(game, s, "block")] == ["s", "w"], "n is the rim; e is taken"
    assert refused(game, s, "block e") == "illegal.spot_taken"
    assert refused(game, s, "block n") == "illegal.spot_taken"
    assert refused(game, s, "block middle") == "illegal.already_on_spot"
    assert refused(game, s, "block up", MalformedAction) == "action.bad_arguments"
    s, _ = play(game, s, "block w")
    assert (s.players[0].spot, s.players[1].spot) == ("w", "e")


def test_block_allowed_while_staying_on_headquarters(demo):
    game, s = at(demo)
    s = fields(s, stay=True)
    assert not verbs(game, s, "move") and len(verbs(game, s, "block")) == 4
    s, _ = play(game, s, "block n")
    assert (s.players[0].square, s.players[0].spot) == (HQ, "n")


def test_block_many_penguins_may_stand_in_the_middle(demo):
    game, s = at(demo, players=3)
    s = seat(seat(s, 1, square=GATE), 2, square=GATE)
    s, _ = play(game, s, "move gate")
    assert [p.spot for p in s.players] == ["middle"] * 3 and s.actions_left == 3


def test_blockade_hinders_only_entering_not_leaving(demo):
    game, s = at(demo)
    s = seat(s, 1, spot="n")  # on Headquarters, on the edge facing the Zoo gate
    s, events = play(game, s, "move gate")
    assert s.actions_left == 3 and not any(e["event"] == "pushed" for e in events)
    assert s.players[1].spot == "n"
    s, events = play(game, s, "move hq")
    assert s.actions_left == 1 and {"event": "pushed", "player": 1, "by": 0} in events


def test_blockade_hinders_only_the_edge_it_stands_on(demo):
    game, s = at(demo)
    s = seat(seat(s, 0, square=CHIMP), 1, square=GASTRO, spot="w")
    s, events = play(game, s, "move gastro")  # through the northern edge
    assert s.actions_left == 3 and s.players[1].spot == "w"


# ---------------------------------------------------------------- rummage


@pytest.mark.parametrize("spot", ["middle", "e"])
def test_rummage_draws_one_token_on_an_uncovered_bag_symbol(demo, spot):
    game, s = at(demo)
    s = seat(s, 0, square=GATE, spot=spot)
    assert Action("rummage") in game.legal_actions(s)
    after, events = game.apply(s, "rummage")
    assert sum(after.players[0].tokens) == sum(s.players[0].tokens) + 1
    assert sum(after.bag) == sum(s.bag) - 1 and after.actions_left == 3
    assert events[0]["event"] == "drew" and len(events[0]["tokens"]) == 1


def test_rummage_not_on_headquarters_which_has_no_bag_symbol(demo):
    game, s = at(demo)
    assert not verbs(game, s, "rummage")
    assert refused(game, s, "rummage") == "illegal.no_bag_symbol"


def test_rummage_not_on_a_bag_symbol_covered_by_officer_x(demo):
    game, s = at(demo)
    s = fields(seat(s, 0, square=GATE), markers=(GATE,))
    assert not verbs(game, s, "rummage")
    assert refused(game, s, "rummage") == "illegal.no_bag_symbol"


def test_officer_x_covers_only_the_bag_symbol_the_location_still_acts(demo):
    game, s = at(demo)
    s = fields(seat(s, 0, square=GORILLA), markers=(GORILLA,), board=tokens(red=1))
    assert verbs(game, s, "take") == [Action("take", "1")]


# -------------------------------------------------------------- locations


def test_otter_moves_to_any_other_location_ignoring_blockades(demo):
    game, s = at(demo, players=3)
    s = seat(s, 0, square=OTTER)
    s = seat(seat(s, 1, square=LEMUR, spot="e"), 2, square=LEMUR, spot="s")
    assert {a[1] for a in verbs(game, s, "otter")} == set(LAYOUT) - {"otter"}
    s, events = play(game, s, "otter lemur")
    assert (s.players[0].square, s.players[0].spot, s.actions_left) == (LEMUR, "middle", 3)
    assert [(p.square, p.spot) for p in s.players[1:]] == [(LEMUR, "e"), (LEMUR, "s")]
    assert not any(e["event"] == "pushed" for e in events)


def test_otter_moves_to_another_location_not_the_same(demo):
    game, s = at(demo)
    s = seat(s, 0, square=OTTER)
    assert refused(game, s, "otter otter") == "illegal.already_there"


@pytest.mark.parametrize(
    ("location", "colour"),
    [("chimp", BLUE), ("gorilla", RED), ("shop", YELLOW), ("storehouse", GREEN)],
)
def test_supply_tile_gives_one_or_two_tokens_of_its_colour(demo, location, colour):
    game, s = at(demo)
    supply = tuple(3 if c == colour else 0 for c in range(7))
    s = fields(seat(s, 0, square=LAYOUT.index(location)), board=supply)
    assert verbs(game, s, "take") == [Action("take", "1"), Action("take", "2")]
    after, _ = game.apply(s, "take 2")
    assert after.board[colour] == 1
    assert after.players[0].tokens[colour] == s.players[0].tokens[colour] + 2


def test_supply_tile_gives_only_what_lies_on_it(demo):
    game, s = at(demo)
    s = fields(seat(s, 0, square=GORILLA), board=tokens(red=1))
    assert verbs(game, s, "take") == [Action("take", "1")]
    assert refused(game, s, "take 2") == "illegal.no_token_at"
    empty = fields(s, board=tokens())
    assert not verbs(game, empty, "take")
    assert refused(game, empty, "take 1") == "illegal.no_token_at"


def test_lemur_takes_a_face_up_mission_and_lays_the_top_of_the_deck_in_its_place(demo):
    game, s = at(demo)
    s = seat(s, 0, square=LEMUR)
    mission, top = s.mission_row[1], s.mission_deck[0][0]
    assert len(verbs(game, s, "lemur")) == 3
    after, _ = game.apply(s, f"lemur {mission}")
    assert after.players[0].missions == (mission,)
    assert after.mission_row[1] == top and after.mission_deck_size == s.mission_deck_size - 1


def test_lemur_with_the_mission_deck_empty_the_space_stays_empty(demo):
    """ "place the top card of the mission deck in its place": with no card left in the
    mission deck, the space taken from stays empty; the other face-up missions can still be
    taken."""
    game, s = at(demo)
    s = fields(seat(s, 0, square=LEMUR), mission_deck=())
    mission = s.mission_row[1]
    s, events = play(game, s, f"lemur {mission}")
    assert s.mission_row[1] is None and s.players[0].missions == (mission,)
    assert not any(e["event"] == "mission_revealed" for e in events)
    assert [a[1] for a in verbs(game, s, "lemur")] == [m for m in s.mission_row if m]


def test_lemur_with_no_face_up_mission_left_offers_nothing(demo):
    game, s = at(demo)
    s = fields(seat(s, 0, square=LEMUR), mission_deck=(), mission_row=(None,) * 3)
    assert not verbs(game, s, "lemur")
    assert refused(game, s, "lemur czlowieki") == "illegal.mission_not_available"


def test_lemur_cannot_take_the_top_card_of_the_mission_deck(demo):
    game, s = at(demo)
    s = seat(s, 0, square=LEMUR)
    assert refused(game, s, f"lemur {s.mission_deck[0][0]}") == "illegal.mission_not_available"


def test_lemur_at_most_two_missions(demo):
    game, s = at(demo)
    s = with_missions(game, seat(s, 0, square=LEMUR), 0, ("czlowieki", "demo-8"))
    assert not verbs(game, s, "lemur")
    assert refused(game, s, f"lemur {s.mission_row[0]}") == "illegal.missions_full"


def test_lemur_a_third_mission_once_perfect_day_is_completed(demo):
    game, s = at(demo)
    assert game.cards.mission_effects["idealny-dzien"] == "extra_mission"
    s = with_missions(game, seat(s, 0, square=LEMUR), 0, ("idealny-dzien", "czlowieki"))
    s = seat(s, 0, figurants=("edek",))
    assert not verbs(game, s, "lemur"), "one reptile: Perfect Day is not completed"
    s = seat(s, 0, figurants=("edek", "demo-34"))
    s, _ = play(game, s, f"lemur {s.mission_row[0]}")
    assert len(s.players[0].missions) == 3
    assert refused(game, s, f"lemur {s.mission_row[0]}") == "illegal.missions_full"


def test_zoo_gate_puts_the_face_up_figurants_under_the_deck_and_lays_new_ones(demo):
    game, s = at(demo)
    s = seat(s, 0, square=GATE)
    row, top = s.faceup, [g[0] for g in s.deck[: len(s.faceup)]]
    after, events = game.apply(s, "gate figurants")
    assert list(after.faceup) == top
    assert sorted(g[0] for g in after.deck[-len(row) :]) == sorted(row)
    assert after.deck_size == s.deck_size and after.mission_row == s.mission_row
    assert events[0] == {"event": "cycled", "what": "figurants", "cards": list(row)}
    assert after.actions_left == 3


def test_zoo_gate_puts_the_face_up_missions_under_the_mission_deck(demo):
    game, s = at(demo)
    s = seat(s, 0, square=GATE)
    row = s.mission_row
    top = [g[0] for g in s.mission_deck[: len(row)]]
    after, _ = game.apply(s, "gate missions")
    assert list(after.mission_row) == top
    assert sorted(g[0] for g in after.mission_deck[-len(row) :]) == sorted(row)
    assert after.faceup == s.faceup and after.actions_left == 3


def test_zoo_gate_near_the_end_of_the_mission_deck_brings_some_missions_back(demo):
    """As with the figurants: the face-up missions go under the deck, then "the same number
    of cards from the top"; with fewer left in the deck, some of them come straight back."""
    game, s = at(demo)
    s = seat(s, 0, square=GATE)
    row = s.mission_row
    left = s.mission_deck[:1]
    s = fields(s, mission_deck=left)
    after, _ = game.apply(s, "gate missions")
    assert after.mission_deck_size == 1 and None not in after.mission_row
    assert set(after.mission_row) | {after.mission_deck[0][0]} == set(row) | {left[0][0]}
    assert left[0][0] in after.mission_row, "the deck's own card is laid first"


def test_zoo_gate_with_an_empty_mission_deck_lays_the_same_missions_again(demo):
    game, s = at(demo)
    s = fields(seat(s, 0, square=GATE), mission_deck=())
    after, _ = game.apply(s, "gate missions")
    assert sorted(after.mission_row) == sorted(s.mission_row) and after.mission_deck == ()


# ----------------------------------------------------------------- gastro


def gastro(demo, hand, board=None):
    game, s = at(demo)
    s = seat(s, 0, square=GASTRO, tokens=hand)
    return game, fields(s, board=board or tokens())


def test_gastro_several_exchanges_make_one_action(demo):
    game, s = gastro(demo, tokens(white=2, yellow=1), board=tokens(red=2))
    s, _ = play(game, s, "gastro")
    assert s.phase == "gastro" and Action("done") not in game.legal_actions(s)
    s, _ = play(game, s, "exchange white+white>red", "exchange yellow>red")
    assert s.players[0].tokens == tokens(red=2)
    assert s.board == tokens(yellow=1) and s.actions_left == 4
    s, _ = play(game, s, "done")
    assert (s.phase, s.actions_left) == ("act", 3)


def test_gastro_receives_a_colour_only_from_its_location_never_from_the_bag(demo):
    game, s = gastro(demo, tokens(blue=1))
    assert s.bag[RED] > 0
    s, _ = play(game, s, "gastro")
    assert Action("exchange", "blue>red") not in game.legal_actions(s)
    assert refused(game, s, "exchange blue>red") == "illegal.cannot_receive"


def test_gastro_white_and_black_go_to_and_come_from_the_bag(demo):
    game, s = gastro(demo, tokens(white=2))
    s, _ = play(game, s, "gastro")
    after, _ = game.apply(s, "exchange white+white>black")
    assert after.bag[WHITE] == s.bag[WHITE] + 2 and after.bag[BLACK] == s.bag[BLACK] - 1
    assert after.players[0].tokens == tokens(black=1) and after.board == tokens()


def test_gastro_grey_for_two_of_a_colour_from_its_location(demo):
    game, s = gastro(demo, tokens(grey=1), board=tokens(green=2))
    s, _ = play(game, s, "gastro")
    after, _ = game.apply(s, "exchange grey>green+green")
    assert after.players[0].tokens == tokens(green=2) and after.board == tokens()
    assert after.box[GREY] == s.box[GREY] + 1


def test_gastro_never_gives_a_grey_token(demo):
    game, s = gastro(demo, tokens(yellow=1, white=2))
    s, _ = play(game, s, "gastro")
    assert not any(a[1].endswith("grey") for a in verbs(game, s, "exchange"))
    assert refused(game, s, "exchange yellow>grey") == "illegal.exchange_for_grey"


def test_gastro_only_lines_of_the_exchange_table(demo):
    game, s = gastro(demo, tokens(white=1, red=2), board=tokens(blue=2))
    s, _ = play(game, s, "gastro")
    for line in ("white>red", "red+red>blue", "red>blue+blue", "red>red"):
        assert refused(game, s, f"exchange {line}") == "illegal.exchange_not_in_table"


def test_gastro_never_exchanges_again_what_the_same_action_gave(demo):
    game, s = gastro(demo, tokens(yellow=1), board=tokens(red=1, blue=1))
    s, _ = play(game, s, "gastro", "exchange yellow>red")
    assert refused(game, s, "exchange red>blue") == "illegal.not_held_before"
    assert game.legal_actions(s) == [Action("done")]
    s, _ = play(game, s, "done", "gastro", "exchange red>blue")
    assert s.players[0].tokens == tokens(blue=1)


def test_gastro_needs_an_exchange_to_make(demo):
    game, s = gastro(demo, tokens())
    assert not verbs(game, s, "gastro")
    assert refused(game, s, "gastro") == "illegal.no_exchange"
    game, s = gastro(demo, tokens(blue=1))
    s, _ = play(game, s, "gastro")
    assert refused(game, s, "done") == "illegal.no_exchange"


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


def test_card_action_cannot_touch_a_player_protected_by_maurice(demo):
    game, s = at(demo, players=3)
    s = seat(s, 0, figurants=("king-julian",))  # takes a token of its choice from a penguin
    s = seat(seat(s, 1, figurants=("maurice",), tokens=tokens(red=1)), 2, tokens=tokens(blue=1))
    assert verbs(game, s, "use") == [Action("use", "king-julian", "p3", "blue")]
    assert refused(game, s, "use king-julian p2 red") == "illegal.effect_choice"


def with_effect(game, card: str, do: str, **params):
    """``game`` with ``card``'s effect replaced (on this game's own copy of the card table)."""
    effect = Effect(do, tuple((name, params[name]) for name, _ in PARAMETERS[do]))
    figurant = dataclasses.replace(game.cards.figurants[card], effect=effect)
    figurants = {**game.cards.figurants, card: figurant}
    game.cards = dataclasses.replace(game.cards, figurants=figurants)
    return game


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


# -------------------------------------------------------------------- end


def finish_turn(game, s):
    """Play the first legal action until the turn passes on (or the game ends)."""
    player = s.current
    while s.current == player and s.phase not in ("final", "over"):
        s, _ = game.apply(s, game.legal_actions(s)[0])
    return s


def test_end_the_eighth_marker_starts_the_last_round(demo):
    game, s, _ = acquired(demo)
    s = fields(s, markers=tuple(sq for sq in range(9) if sq not in (HQ, LEMUR)))
    s, events = play(game, s, "roll 1", "officer lemur")
    assert len(s.markers) == 8 and s.last_round
    assert {"event": "last_round", "why": "officer_x"} in events


def test_end_the_last_card_laid_from_the_deck_starts_the_last_round(demo):
    game, s = at(demo, die="table")
    card = plain_card(game, s)
    s = fields(seat(s, 0, tokens=game.cards.figurants[card].cost[:7]), deck=s.deck[:1])
    s, events = play(game, s, f"hq {card}")
    assert s.deck == () and s.last_round
    assert {"event": "last_round", "why": "deck"} in events


def test_end_in_a_played_game_the_round_of_the_end_is_played_out(demo):
    """ "Players complete their turns so that each has the same number of turns": in whole
    games, from the moment the deck's last card is laid (or the eighth marker placed) the
    round is completed, then the final actions, then the end."""
    from test_golden_advanced import eager_game

    for seed, players in ((4, 2), (5, 3), (6, 4)):
        game, s = new_advanced(demo, players=players, seed=seed)
        actions, _ = eager_game(game, s, seed)
        marked = None
        for action in actions:
            before = s
            s, events = game.apply(s, action)
            if s.last_round and not before.last_round:
                marked = before.turns
                assert s.deck_size == 0 or len(s.markers) == 8
        assert s.phase == "over" and marked is not None
        assert s.turns % players == 0 and s.turns - marked <= players


def test_setup_the_figurant_deck_is_shuffled(demo):
    orders = set()
    for seed in range(6):
        game, s = new_advanced(demo, seed=seed)
        cards = [c for c in s.faceup if c] + [g[0] for g in s.deck]
        assert sorted(cards) == sorted(game.cards.deck)
        orders.add(tuple(cards))
    assert len(orders) == 6


def test_end_the_round_is_completed_then_the_game_ends(demo):
    game, s = at(demo, players=3)
    s = fields(s, current=1, last_round=True)
    s = finish_turn(game, s)
    assert (s.current, s.phase) == (2, "act"), "the round goes on"
    s = finish_turn(game, s)
    assert s.phase == "over", "player 3 sat before the first player: the round is complete"


def test_end_when_the_last_player_ends_it_the_game_ends_with_their_turn(demo):
    game, s, _ = acquired(demo)
    s = fields(s, first=1, actions_left=0)  # player 1 sits last: the round ends with them
    s = fields(s, markers=tuple(sq for sq in range(9) if sq not in (HQ, LEMUR)))
    s, events = play(game, s, "roll 1", "officer lemur")
    assert s.phase == "over" and events[-1] == {"event": "game_over"}
    assert refused(game, s, "move gate") == "illegal.game_over"


def test_end_removing_a_marker_does_not_stop_the_end(demo):
    game, s = at(demo)
    s = fields(s, markers=tuple(sq for sq in range(9) if sq != HQ), last_round=True)
    s = seat(s, 0, figurants=("karaczany",))
    s, _ = play(game, s, "use karaczany gate")
    assert len(s.markers) == 7 and s.last_round
    s = finish_turn(game, finish_turn(game, s))
    assert s.phase == "over"


def test_end_final_figurant_actions_from_the_first_player_one_each(demo):
    game, s = at(demo, players=3, first=1)
    for p in range(3):
        s = seat(s, p, figurants=("gladys", "shawna"))
    s = fields(s, current=0, last_round=True, actions_left=1, board=tokens(yellow=3))
    s, events = play(game, s, "penguin")
    assert {"event": "final_actions", "players": [1, 2, 0]} in events
    assert (s.phase, s.current) == ("final", 1)
    assert [str(a) for a in game.legal_actions(s)] == ["use gladys", "use shawna", "pass"]
    assert refused(game, s, "penguin") == "illegal.phase_final"
    assert refused(game, s, "move gate") == "illegal.phase_final"
    s, _ = play(game, s, "use gladys")
    assert s.players[1].discarded == ("gladys",) and s.current == 2
    s, _ = play(game, s, "pass")
    assert s.current == 0
    s, events = play(game, s, "use shawna")
    assert s.phase == "over" and events[-1] == {"event": "game_over"}
    assert game.legal_actions(s) == []


def test_end_final_actions_skip_a_player_with_no_card_to_use(demo):
    game, s = at(demo, players=3, first=0)
    s = seat(s, 1, figurants=("gladys",))
    s = fields(s, current=2, last_round=True, actions_left=1)
    s, _ = play(game, s, "penguin")
    assert (s.phase, s.current) == ("final", 1)
    s, _ = play(game, s, "pass")
    assert s.phase == "over"


def test_end_final_action_may_move_after_acquiring_on_the_last_turn(demo):
    game, s, _ = acquired(demo)
    s = fields(s, first=1, actions_left=0, last_round=True)
    s = seat(s, 1, figurants=("buck-rogut",))  # Buck Rogut's action moves the penguin
    s, _ = play(game, s, "roll 6")
    assert (s.phase, s.current) == ("final", 1), "the stay on Headquarters ended with the turn"
    assert verbs(game, s, "use")


def test_end_final_action_made_possible_by_an_earlier_one(demo):
    game, s = at(demo, players=3, first=0)
    s = seat(s, 0, figurants=("dr-bulgot",))  # gives 1 token to another penguin
    s = seat(s, 1, figurants=("demo-40",), tokens=tokens())  # gives 1 token: needs one first
    s = fields(s, current=2, last_round=True, actions_left=1)
    s, _ = play(game, s, "penguin")
    assert (s.phase, s.current) == ("final", 0)
    given = next(a for a in verbs(game, s, "use") if a[3] == "p2")
    s, _ = play(game, s, str(given))
    assert (s.phase, s.current) == ("final", 1)
    assert verbs(game, s, "use")


# ---------------------------------------------------------------- scoring


def line_of(demo, **held):
    game, s = new_advanced(demo, seed=9)
    player = s.players[0]._replace(
        **{"figurants": (), "discarded": (), "missions": (), "tokens": tokens(), **held}
    )
    return score_seat(game.cards, 0, player)


def test_scoring_discarded_figurants_still_count(demo):
    line = line_of(demo, figurants=("fred",), discarded=("gladys",))
    assert (line.figurants, line.cards) == (2, 2)


def test_scoring_penguin_bonus_counts_discarded_figurants_too(demo):
    # Rico is red; Fred and Burt show red, Burt was used for his action.
    held = {"penguin": "rico", "figurants": ("fred",), "discarded": ("burt",)}
    assert line_of(demo, **held).penguin_bonus == 1
    used = line_of(demo, **held, penguin_used=True)
    assert used.penguin_bonus == 1, "the penguin card counts even when discarded"


def test_scoring_each_mission_by_how_far_it_was_completed(demo):
    mammals = ("fred", "joey", "mason", "max-kolanko")
    kingdom = ("krolestwo-za-kciuk",)  # mammals: 2 -> 1, 4 -> 3, 6 -> 5
    assert line_of(demo, missions=kingdom, figurants=mammals[:1]).mission == 0
    assert line_of(demo, missions=kingdom, figurants=mammals[:3]).mission == 1
    assert line_of(demo, missions=kingdom, figurants=mammals).mission == 3
    both = kingdom + ("czlowieki",)  # humans: 2 -> 1
    assert line_of(demo, missions=both, figurants=mammals + ("alice", "zoe")).mission == 4


def test_scoring_card_bonuses_for_the_cards_held_with_them(demo):
    assert line_of(demo, figurants=("zoe", "gladys")).bonus == 1
    assert line_of(demo, figurants=("zoe",), discarded=("gladys",)).bonus == 1
    assert line_of(demo, figurants=("zoe", "fred")).bonus == 0
    assert line_of(demo, figurants=("czerwony-wiewior", "bracia-wezuwiusz")).bonus == 1
    assert line_of(demo, figurants=("bolo", "gustav", "buck-rogut")).bonus == 2, "other birds"


def test_scoring_a_penalty_point_per_token_held(demo):
    line = line_of(demo, tokens=tokens(red=1, grey=1, white=1), figurants=("fred",))
    assert (line.penalty, line.total) == (-3, -2)


def test_scoring_a_penalty_point_per_token_held_at_the_end_of_a_played_game(demo):
    from test_golden_advanced import eager_game

    game, s = new_advanced(demo, players=3, seed=9)
    _, s = eager_game(game, s, 9)
    assert s.phase == "over"
    held = [sum(p.tokens) for p in s.players]
    assert any(held), "a game that leaves tokens in hand"
    for line, seat_, n in zip(game.score(s).lines, s.players, held, strict=True):
        shielded = any(game.cards.mission_effects.get(m) == "no_penalty" for m in seat_.missions)
        assert line.penalty == (0 if shielded else -n)
        parts = line.figurants + line.penguin_bonus + line.mission + line.bonus + line.penalty
        assert line.total == parts


def test_scoring_lightning_disappearance_cancels_the_penalty(demo):
    line = line_of(demo, missions=("blyskawiczne-znikniecie",), tokens=tokens(black=5))
    assert (line.mission, line.penalty, line.total) == (0, 0, 0)


def test_scoring_winner_ties_broken_by_more_figurants_then_shared(demo):
    game, s = new_advanced(demo, players=3, seed=9)
    s = seat(s, 0, figurants=("fred", "gladys"), tokens=tokens())  # 2 points, 2 cards
    s = seat(s, 1, figurants=("gustav",), tokens=tokens())  # 2 points, 1 card
    s = seat(s, 2, figurants=(), discarded=("shawna", "edek"), tokens=tokens())
    sheet = game.score(s)
    assert [line.total for line in sheet.lines] == [2, 2, 2]
    assert (sheet.winners, sheet.decided_by) == ((0, 2), "shared")
    sheet = game.score(seat(s, 2, discarded=("shawna",)))
    assert (sheet.winners, sheet.decided_by) == ((0,), "figurants")


# ------------------------------------------------------- table randomness


def test_table_bag_rummage_names_the_colour_drawn(demo):
    game, s = at(demo, bag="table")
    s = fields(seat(s, 0, square=GATE), bag=tokens(red=1, white=2))
    assert verbs(game, s, "rummage") == [Action("rummage", "red"), Action("rummage", "white")]
    assert refused(game, s, "rummage blue") == "illegal.not_in_bag"
    after, _ = game.apply(s, "rummage white")
    assert after.bag == tokens(red=1, white=1)


def test_app_bag_refuses_colours_named_by_the_table(demo):
    game, s = at(demo)
    assert refused(game, seat(s, 0, square=GATE), "rummage red") == "illegal.app_draws"
    s = fields(seat(s, 0, square=GORILLA), board=tokens(red=1), actions_left=1)
    assert game.apply(s, "take 1")[0].phase == "act", "the app drew the 2 tokens itself"


def test_table_die_the_roll_is_given(demo):
    game, s, card = acquired(demo)
    assert refused(game, s, "roll 7", MalformedAction) == "action.bad_roll"
    assert refused(game, s, "roll six", MalformedAction) == "action.bad_roll"
    s, events = play(game, s, "roll 2")
    assert events[0]["roll"] == 2


def test_table_steal_names_the_tokens_taken(demo):
    game, s = at(demo, bag="table")
    s = seat(seat(s, 0, figurants=("hans",)), 1, tokens=tokens(red=1, blue=2))  # 2 at random
    picks = ("red+blue", "blue+blue")
    assert verbs(game, s, "use") == [Action("use", "hans", "p2", c) for c in picks]
    s, _ = play(game, s, "use hans p2 blue+blue")
    assert s.players[1].tokens == tokens(red=1)


def test_table_deck_figurants_and_missions_are_named_when_laid_out(demo):
    game, s = new_advanced(demo, first=0, deck="table", seed=10)
    assert s.faceup == (None,) * 4 and s.pending == (0, 1, 2, 3)
    assert s.mission_row == (None,) * 3 and s.pending_missions == (0, 1, 2)
    assert [a[1] for a in game.legal_actions(s)] == sorted(game.cards.deck)
    assert refused(game, s, "move gate") == "illegal.reveal_first"
    s = reveal_all(game, s, keep=())
    assert None not in s.faceup and None not in s.mission_row
    assert refused(game, s, "reveal becky") == "illegal.no_reveal_expected"


def test_correct_faceup_on_a_waiting_space_ends_the_turn_after_four_actions(demo):
    """Filling the space an acquisition emptied by ``correct faceup`` instead of ``reveal``
    ends a turn whose four actions are done: no fifth action."""
    game, s = at(demo, deck="table")
    card = plain_card(game, s)
    s = fields(seat(s, 0, tokens=game.cards.figurants[card].cost[:7]), actions_left=1)
    s, _ = play(game, s, f"hq {card}")
    assert s.pending and (s.current, s.actions_left) == (0, 0)
    slot = s.pending[0]
    s, events = play(game, s, f"correct faceup {slot + 1} {sorted(s.deck[0])[-1]}")
    assert (s.current, s.phase, s.actions_left) == (1, "act", 4)
    assert {"event": "turn", "player": 1} in events


def test_correct_faceup_naming_the_decks_last_card_starts_the_last_round(demo):
    game, s = at(demo, deck="table")
    card = plain_card(game, s)
    last = s.deck[0][0]
    s = fields(seat(s, 0, tokens=game.cards.figurants[card].cost[:7]), deck=((last,),))
    s, _ = play(game, s, f"hq {card}")
    s, events = play(game, s, f"correct faceup {s.pending[0] + 1} {last}")
    assert s.deck == () and s.last_round and {"event": "last_round", "why": "deck"} in events


def test_table_deck_a_named_card_must_be_in_the_deck(demo):
    game, s = new_advanced(demo, first=0, deck="table", seed=10)
    assert refused(game, s, "reveal nobody") == "illegal.card_not_next"


# --------------------------------------------------------- refused input


@pytest.mark.parametrize(
    ("action", "key"),
    [
        ("draw", "illegal.phase_act"),
        ("roll 3", "illegal.phase_act"),
        ("officer gate", "illegal.phase_act"),
        ("lose red", "illegal.phase_act"),
        ("exchange yellow>red", "illegal.phase_act"),
        ("done", "illegal.phase_act"),
        ("take 1", "illegal.not_here"),
        ("otter gate", "illegal.not_here"),
        ("lemur czlowieki", "illegal.not_here"),
        ("gate figurants", "illegal.not_here"),
        ("gastro", "illegal.not_here"),
        ("use gladys", "illegal.card_not_held"),
        ("pass", "illegal.pass_while_able"),
        ("reveal becky", "illegal.no_reveal_expected"),
        ("move chimp", "illegal.not_adjacent"),
        ("hq nobody", "illegal.card_not_faceup"),
        ("correct mission czlowieki p1", "illegal.correct_mission_advanced"),
    ],
)
def test_refused_action_gives_its_reason_and_changes_nothing(demo, action, key):
    game, s = at(demo)
    assert refused(game, s, action) == key


@pytest.mark.parametrize(
    ("square", "action", "key"),
    [
        (HQ, "", "action.empty"),
        (HQ, "fly", "action.unknown_verb"),
        (HQ, "move moon", "action.unknown_location"),
        (HQ, "move", "action.bad_arguments"),
        (HQ, "move gate up", "action.bad_arguments"),
        (HQ, "block up", "action.bad_arguments"),
        (OTTER, "otter gate up", "action.bad_arguments"),
        (GORILLA, "take 3", "action.bad_arguments"),
        (GATE, "gate tokens", "action.bad_arguments"),
        (HQ, "hq FACEUP grey=pink", "action.unknown_colour"),
        (HQ, "hq FACEUP blue", "action.bad_jokers"),
    ],
)
def test_malformed_actions_are_told_apart_from_illegal_ones(demo, square, action, key):
    game, s = at(demo)
    s = fields(seat(s, 0, square=square), board=tokens(red=3))
    action = action.replace("FACEUP", s.faceup[0])
    assert refused(game, s, action, MalformedAction) == key


def test_refusals_say_why_in_english_and_polish(demo):
    game, s = at(demo)
    with pytest.raises(IllegalAction) as raised:
        game.apply(s, "pass")
    assert raised.value.text("en") != raised.value.text("pl")
    assert raised.value.text("en") == "You must use all 4 actions while one is possible."


def test_turn_four_actions_no_pass_a_block_is_always_possible(demo):
    """ "In your turn you must perform 4 actions": after an acquisition, with nothing to pay
    and no card action, the penguin staying on Headquarters still has the Block action."""
    game, s, _ = acquired(demo)
    s = seat(s, 0, penguin_used=True, figurants=())
    s, _ = play(game, s, "roll 6")
    assert {a.verb for a in game.legal_actions(s)} == {"block"}
    assert refused(game, s, "pass") == "illegal.pass_while_able"
    s, _ = play(game, s, "block n", "block middle", "block s")
    assert (s.current, s.actions_left) == (1, 4)
