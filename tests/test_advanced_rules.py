"""One test per clause of the advanced rules, named after the clause.

Positions start from a real set-up (two players, the fixed board ``LAYOUT``,
player 1 to act) with a few fields replaced, so each test shows only the
part of the table its clause is about. Values the rulebook does not print
(costs, points, effects) come from the demo deck.
"""

import pytest
from advanced_helpers import (
    CHIMP,
    GASTRO,
    GATE,
    GORILLA,
    HQ,
    LAYOUT,
    LEMUR,
    OTTER,
    at,
    new_advanced,
    refused,
    verbs,
)
from family_helpers import tokens
from positions import play
from positions import with_fields as fields
from positions import with_player as seat

from rules.actions import Action
from rules.colours import BLACK, BLUE, GREEN, GREY, RED, WHITE, YELLOW
from rules.errors import MalformedAction, SetupError
from rules.pingwiny.board import EDGES, HQ_SQUARE, neighbour

# The rulebook's Zoo Tiles: the 9 locations, Headquarters and these eight (Chimp enclosure,
# Gorilla enclosure, Souvenir shop, Zoo storehouse, Otter enclosure, Lemur enclosure,
# Zoo gate, Gastro zone), by the names records use (docs/game-record.md, "Locations").
ZOO_TILES = ("chimp", "gorilla", "shop", "storehouse", "otter", "lemur", "gate", "gastro")
SHORT_GAME_CARDS = {"becky", "hans", "dr-bulgot", "king-of-the-rats", "stacy", "dunska-ochrona"}
SHORT_GAME_CARDS |= {"homary", "szczury"}


def with_missions(game, s, p: int, held: tuple[str, ...]):
    """Player ``p`` holds ``held``; the other missions are laid out and stacked again."""
    others = [m for m in sorted(game.cards.missions) if m not in held]
    row = len(s.mission_row)
    s = fields(s, mission_row=tuple(others[:row]), mission_deck=tuple((m,) for m in others[row:]))
    return seat(s, p, missions=held)


# ------------------------------------------------------------------ setup


def test_setup_headquarters_in_the_middle_the_other_tiles_at_random(demo):
    layouts = {new_advanced(demo, seed=seed)[1].layout for seed in range(8)}
    assert len(layouts) > 1
    for layout in layouts:
        assert layout[HQ_SQUARE] == "hq"
        assert sorted(layout[:HQ_SQUARE] + layout[HQ_SQUARE + 1 :]) == sorted(ZOO_TILES)


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


def test_the_nine_tiles_meet_as_a_three_by_three_square():
    """The board is nine tiles in a 3x3 square, Headquarters in the middle; numbered row by
    row, each edge faces the tile beside it, and none faces past the board's rim."""
    beside = {
        0: {"e": 1, "s": 3},
        1: {"e": 2, "s": 4, "w": 0},
        2: {"s": 5, "w": 1},
        3: {"n": 0, "e": 4, "s": 6},
        4: {"n": 1, "e": 5, "s": 7, "w": 3},
        5: {"n": 2, "s": 8, "w": 4},
        6: {"n": 3, "e": 7},
        7: {"n": 4, "e": 8, "w": 6},
        8: {"n": 5, "w": 7},
    }
    found = {
        square: {
            edge: neighbour(square, edge) for edge in EDGES if neighbour(square, edge) is not None
        }
        for square in range(9)
    }
    assert found == beside


def test_the_square_across_each_edge_of_the_three_by_three_board():
    """Squares numbered row by row (0 1 2 / 3 4 5 / 6 7 8), Headquarters the middle one; the
    tables the moves are looked up in are made from this once, when the engine is loaded, so
    it is asked afresh here: north, east, south, west, None at the board's rim."""
    across = {
        0: (None, 1, 3, None), 1: (None, 2, 4, 0), 2: (None, None, 5, 1),
        3: (0, 4, 6, None), 4: (1, 5, 7, 3), 5: (2, None, 8, 4),
        6: (3, 7, None, None), 7: (4, 8, None, 6), 8: (5, None, None, 7),
    }  # fmt: skip
    assert {s: tuple(neighbour(s, e) for e in "nesw") for s in range(9)} == across
