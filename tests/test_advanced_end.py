"""Advanced rules, clause by clause: the end, scoring, the table's randomness, refusals."""

import pytest
from advanced_helpers import (
    GATE,
    GORILLA,
    HQ,
    LEMUR,
    OTTER,
    acquired,
    at,
    new_advanced,
    plain_card,
    refused,
    reveal_all,
    verbs,
)
from family_helpers import tokens
from positions import play
from positions import with_fields as fields
from positions import with_player as seat

from rules.actions import Action
from rules.errors import IllegalAction, MalformedAction
from rules.pingwiny.advanced_scoring import score_seat

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
    move = next(a for a in verbs(game, s, "use") if a[1] == "buck-rogut")
    s, events = play(game, s, str(move))
    assert {"event": "moved", "player": 1, "location": move[2], "spot": "middle"} in events
    assert (s.layout[s.players[1].square], s.players[1].spot) == (move[2], "middle")


def test_end_final_action_made_possible_by_an_earlier_one(demo):
    game, s = at(demo, players=3, first=0)
    s = seat(s, 0, figurants=("dr-bulgot",))  # gives 1 token to another penguin
    s = seat(s, 1, figurants=("demo-40",), tokens=tokens())  # gives 1 token: needs one first
    s = fields(s, current=2, last_round=True, actions_left=1)
    s, _ = play(game, s, "penguin")
    assert (s.phase, s.current) == ("final", 0)
    given = next(a for a in verbs(game, s, "use") if a[3] == "p2")
    s, events = play(game, s, str(given))
    assert {"event": "gave", "player": 0, "to": 1, "tokens": given[2].split("+")} in events
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
        ("reveal-mission czlowieki", "illegal.no_reveal_expected"),
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


def test_acquiring_away_from_headquarters_is_refused_naming_headquarters(demo):
    """The face-up cards are bought at Headquarters only: elsewhere the refusal names it."""
    game, s = at(demo)
    s = seat(s, 0, square=OTTER)
    with pytest.raises(IllegalAction) as raised:
        game.apply(s, f"hq {s.faceup[0]}")
    assert (raised.value.key, raised.value.params) == ("illegal.not_here", {"action": "hq"})


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
