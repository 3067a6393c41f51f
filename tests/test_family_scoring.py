"""Scoring clauses and the tie-breaks of the family variant."""

import pytest
from family_helpers import new_game, tokens
from positions import with_player

from firmware_app.store.catalogue_files import load
from rules.errors import IllegalAction
from rules.pingwiny.position import PositionError, score_position


def player(penguin, figurants=(), mission=None, left=0, name=None):
    return {
        "name": name,
        "penguin": penguin,
        "figurants": list(figurants),
        "mission": mission,
        "tokens": left,
    }


def test_scoring_figurant_points_are_summed(demo):
    sheet, _ = score_position(demo, {"players": [player("rico", ["burt", "mort"])]})
    assert sheet.lines[0].figurants == 3 + 1


def test_scoring_penguin_bonus_is_one_per_two_cards_showing_its_colour(demo):
    three_red = ["burt", "mort", "king-julian"]
    sheet, _ = score_position(demo, {"players": [player("rico", three_red)]})
    assert sheet.lines[0].penguin_bonus == 1
    four_red = three_red + ["szczury"]
    sheet, _ = score_position(demo, {"players": [player("rico", four_red)]})
    assert sheet.lines[0].penguin_bonus == 2


def test_scoring_mission_counts_cards_of_its_type_highest_step_reached(demo):
    enemies = ["becky", "king-of-the-rats"]
    sheet, _ = score_position(demo, {"players": [player("rico", enemies, "najlepszy-wrog")]})
    assert sheet.lines[0].mission == 0
    sheet, _ = score_position(
        demo, {"players": [player("rico", enemies + ["szczury"], "najlepszy-wrog")]}
    )
    assert sheet.lines[0].mission == 1


def test_scoring_penalty_is_one_point_per_token_held_of_any_colour(demo):
    held = {"white": 1, "black": 1, "grey": 1, "red": 2}
    sheet, _ = score_position(demo, {"players": [player("rico", left=held)]})
    assert (sheet.lines[0].penalty, sheet.lines[0].total) == (-5, -5)


def test_scoring_from_a_game_state_matches_the_position(demo):
    game, s = new_game(demo, seed=3)
    s = with_player(s, 0, figurants=("burt", "mort"), tokens=tokens(red=1), mission=None)
    line = game.score(s).lines[0]
    sheet, _ = score_position(
        demo, {"players": [player(s.players[0].penguin, ["burt", "mort"], left=1)]}
    )
    assert line == sheet.lines[0]


def test_tie_break_more_figurants_wins(demo):
    # 4 points from one card against 2 + 2 from two cards (king-julian 2, buck-rogut 2)
    sheet, _ = score_position(
        demo,
        {
            "players": [
                player("kowalski", ["becky"]),
                player("skipper", ["king-julian", "buck-rogut"]),
            ]
        },
    )
    totals = [line.total for line in sheet.lines]
    assert totals[0] == totals[1]
    assert sheet.winners == (1,) and sheet.decided_by == "figurants"


def test_tie_break_same_points_and_cards_is_a_shared_win(demo):
    sheet, _ = score_position(
        demo,
        {"players": [player("kowalski", ["mort"]), player("skipper", ["szczury"]), player("rico")]},
    )
    assert sheet.winners == (0, 1) and sheet.decided_by == "shared"


def test_position_with_unknown_cards_is_refused_with_every_problem(demo):
    with pytest.raises(PositionError) as refused:
        score_position(demo, {"players": [player("pingu", ["nobody"], "no-mission", left="many")]})
    assert str(refused.value) == (
        "player 1: figurant 'nobody' is not in the catalogue; "
        "player 1: mission 'no-mission' is not in the catalogue; "
        "player 1: penguin 'pingu' is not in the catalogue; "
        "player 1: 'tokens' must be a number or counts by colour"
    )


def test_card_lists_of_the_wrong_shape_are_refused_naming_the_player_and_the_key(demo):
    """docs/game-record.md: "figurants" and "discarded" are lists of card ids, the family
    game's "mission" one id, the advanced game's "missions" a list."""
    family = [player("rico", name="Ala"), player("kowalski", name="Olek")]
    family[0]["figurants"] = "burt"
    family[1]["mission"] = 7
    with pytest.raises(PositionError) as refused:
        score_position(demo, {"players": family})
    assert str(refused.value) == (
        "player 1: 'figurants' must be a list of card ids; player 2: 'mission' must be a card id"
    )
    advanced = [player("rico"), player("kowalski") | {"missions": "czlowieki"}]
    advanced[0]["discarded"] = [1]
    with pytest.raises(PositionError) as refused:
        score_position(demo, {"variant": "advanced", "players": advanced})
    assert str(refused.value) == (
        "player 1: 'discarded' must be a list of card ids; "
        "player 2: 'missions' must be a list of card ids"
    )


@pytest.mark.parametrize("players", [None, "rico", [], [{}] * 5])
def test_a_position_without_one_to_four_players_is_refused_saying_so(demo, players):
    with pytest.raises(PositionError) as refused:
        score_position(demo, {"players": players})
    assert str(refused.value) == "'players' must be a list of 1 to 4 players"  # docs/game-record.md


def test_each_other_fault_of_a_position_is_named_with_its_player(demo):
    """docs/game-record.md: a variant is family or advanced, a player an object, a name text."""
    with pytest.raises(PositionError) as refused:
        score_position(demo, {"variant": "standard", "players": [player("rico")]})
    assert str(refused.value) == "'variant' must be 'family' or 'advanced', not 'standard'"
    with pytest.raises(PositionError) as refused:
        score_position(demo, {"players": ["rico", player("rico", name=7)]})
    assert str(refused.value) == (
        "player 1: expected an object with the player's cards; player 2: 'name' must be text"
    )


def test_a_card_the_catalogue_does_not_know_fully_yet_cannot_be_scored():
    printed = load([], demo=False)
    unknown = next(f.id for f in printed.figurants if f.family.points is None)
    with pytest.raises(PositionError) as refused:
        score_position(printed, {"players": [player("rico", [unknown])]})
    assert str(refused.value) == f"player 1: figurant '{unknown}' is not fully known yet"


def test_tokens_left_counted_by_colour_are_one_penalty_point_each(demo):
    by_colour = player("rico", left={"red": 2, "black": 1})
    sheet, names = score_position(demo, {"players": [by_colour, player("kowalski", left=3)]})
    assert [line.penalty for line in sheet.lines] == [-3, -3]
    assert names == ["Player 1", "Player 2"]


def test_a_score_that_needs_a_value_not_known_yet_is_refused_naming_the_cards():
    """The box's own cards, taught as they come: a figurant held whose points nobody has
    told the box yet stops the score sheet, naming it, until it is taught."""
    printed = load([], demo=False)
    unknown = sorted(f.id for f in printed.figurants if f.family.points is None)[:2]
    game, s = new_game(printed, bag="table", deck="table")
    s = with_player(s, 0, figurants=tuple(unknown))
    with pytest.raises(IllegalAction) as refused:
        game.score(s)
    assert refused.value.key == "illegal.values_unknown"
    assert (
        refused.value.text("en") == f"The score needs values not known yet: {', '.join(unknown)}."
    )


def test_a_score_that_needs_the_steps_of_a_held_mission_not_known_yet_is_refused_naming_it():
    """The rulebook prints no mission's steps (only that Iza's 3 enemy cards score 1 on
    Najlepszy wróg): held, such a mission stops the score sheet as a figurant does."""
    printed = load([], demo=False)
    assert printed.mission("najlepszy-wrog").family.scoring is None
    game, s = new_game(printed, bag="table", deck="table")
    s = with_player(s, 0, mission="najlepszy-wrog")
    with pytest.raises(IllegalAction) as refused:
        game.score(s)
    assert (refused.value.key, refused.value.params) == (
        "illegal.values_unknown",
        {"cards": "najlepszy-wrog"},
    )
