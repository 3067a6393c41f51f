"""Król Popiel: the rulebook's examples, one test per clause, and properties."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import play

from firmware_app.cli.main import main
from firmware_app.store.catalogue_files import load_popiel
from rules.errors import IllegalAction, MalformedAction, SetupError
from rules.popiel.game import KINDS, PopielGame, PopielOptions
from rules.popiel.state import PopielState
from rules.popiel.track import TrackPosition, on_track
from rules.record import new_record, replay


@pytest.fixture(scope="module")
def box():
    return load_popiel(demo=True)


def new_game(box, players=("red", "blue", "green"), **options):
    game = PopielGame(box, PopielOptions(players=tuple(players), **options))
    return game, game.new_state()


# ------------------------------------------------------------ the examples


def test_monika_first_tile_scores_3(box):
    """Monika covers the start space against the wall, forming 3 yellow dots: 3 points."""
    game, s = new_game(box)
    s, events = play(game, s, "place 3")
    assert s.scores[0] == 3 and {"event": "scored", "player": 0, "points": 3, "total": 3} in events
    assert {"event": "placed", "player": 0, "dots": 3, "king": False} in events


def test_kasia_28_plus_4_is_32_with_the_marker_flipped(box):
    game, s = new_game(box, players=("red", "blue"))
    s = s.replace(scores=(0, 28), current=1)
    s, _ = play(game, s, "place 4")
    assert s.scores[1] == 32
    position = on_track(s.scores[1])
    assert (position.space, position.flipped) == (2, True)


def test_lucja_double_points_token_4_times_2_is_8(box):
    """Łucja forms 4 dots touching the king and draws the king's wife: 4 x 2 = 8."""
    game, s = new_game(box, rewards="table")
    s = s.replace(current=2)
    s, events = play(game, s, "place 4 king")
    assert s.phase == "reward"
    s, events = play(game, s, "reward double")
    assert s.scores[2] == 8 and s.rewards[2] == ("double",)
    assert {"event": "king_escapes", "window": 1} in events


# ------------------------------------------------------------------ clauses


def test_turns_go_clockwise_from_the_starting_player(box):
    game, s = new_game(box)
    s, _ = play(game, s, "place 1", "place 1", "place 1")
    assert s.current == 0 and s.scores == (1, 1, 1)


@pytest.mark.parametrize(("kind", "points"), [("plus2", 5), ("plus3", 6), ("double", 6)])
def test_reward_tokens_add_to_the_move(box, kind, points):
    game, s = new_game(box, rewards="table")
    s, _ = play(game, s, "place 3 king", f"reward {kind}")
    assert s.scores[0] == points


def test_extra_move_is_a_further_placement_scored_on_its_own(box):
    game, s = new_game(box, rewards="table")
    s, events = play(game, s, "place 3 king", "reward extra")
    assert s.current == 0 and s.extra and s.scores[0] == 3
    s, events = play(game, s, "place 2 king", "reward double")
    assert s.scores[0] == 3 + 4, "the double doubles the extra move's own dots only"
    assert s.current == 1 and s.king == 2


def test_touching_the_king_makes_him_escape_and_the_top_ends_the_game(box):
    game, s = new_game(box, rewards="table", side="A")
    windows = box.windows["A"]
    for window in range(windows):
        assert s.king == window
        s, events = play(game, s, "place 1 king", "reward plus2")
    assert s.phase == "over"
    assert {"event": "king_devoured"} in events
    assert game.legal_actions(s) == []


def test_each_player_keeps_their_reward_tokens(box):
    game, s = new_game(box, rewards="table")
    s, _ = play(game, s, "place 1 king", "reward plus2", "place 0", "place 2 king", "reward plus3")
    assert s.rewards == (("plus2",), (), ("plus3",)) and s.tokens_left == 6


def test_the_app_draws_rewards_from_the_box_mix(box):
    game, s = new_game(box, seed=9)
    drawn = []
    for _ in range(6):
        s, events = play(game, s, "place 1 king")
        drawn += [e["kind"] for e in events if e["event"] == "reward"]
        if s.phase == "over":
            break
    counts = {kind: drawn.count(kind) for kind in set(drawn)}
    assert all(counts[k] <= box.rewards[k] for k in counts)


def test_unknown_reward_mix_means_the_table_draws(box):
    printed = load_popiel(demo=False)
    with pytest.raises(SetupError) as refused:
        PopielGame(printed, PopielOptions(players=("a", "b"), windows=6))
    assert refused.value.key == "setup.popiel_reward_mix"
    game = PopielGame(printed, PopielOptions(players=("a", "b"), windows=6, rewards="table"))
    assert game.windows == 6


def test_unknown_windows_must_be_given_at_setup():
    printed = load_popiel(demo=False)
    with pytest.raises(SetupError) as refused:
        PopielGame(printed, PopielOptions(players=("a", "b"), rewards="table"))
    assert refused.value.key == "setup.popiel_windows"


def test_a_tower_has_one_window_at_the_fewest():
    """The count given at setup is the number of windows the tower shows: one is a tower,
    none or fewer is not."""
    printed = load_popiel(demo=False)
    one = PopielGame(printed, PopielOptions(players=("a", "b"), windows=1, rewards="table"))
    assert one.windows == 1
    with pytest.raises(SetupError) as refused:
        PopielGame(printed, PopielOptions(players=("a", "b"), windows=-1, rewards="table"))
    assert refused.value.key == "setup.popiel_windows"


@pytest.mark.parametrize("players", [("solo",), ("a", "b", "c", "d", "e", "f"), ("a", "a")])
def test_two_to_five_players_each_with_their_own_mouse(box, players):
    with pytest.raises(SetupError) as refused:
        PopielGame(box, PopielOptions(players=players))
    assert refused.value.key == "setup.popiel_players"


@pytest.mark.parametrize(
    ("options", "key"),
    [({"side": "C"}, "setup.popiel_side"), ({"rewards": "bag"}, "setup.source")],
)
def test_a_board_side_or_a_reward_source_the_box_has_not_is_refused(box, options, key):
    """The board has two sides, A and B; the rewards come from the app or the table."""
    with pytest.raises(SetupError) as refused:
        PopielGame(box, PopielOptions(players=("a", "b"), **options))
    assert refused.value.key == key


def test_tied_players_share_the_victory(box):
    game, s = new_game(box)
    s, _ = play(game, s, "place 2", "place 2", "place 1")
    assert game.winners(s) == (0, 1)


def test_track_exactly_30_is_space_30_the_marker_not_flipped():
    """Only "more points than there are spaces on the track" flips the marker."""
    assert on_track(0) == TrackPosition(0, False, 0), "in front of space 1"
    assert on_track(29) == TrackPosition(29, False, 0)
    assert on_track(30) == TrackPosition(30, False, 0)


def test_track_past_30_the_marker_flipped_the_pawn_from_the_beginning_again():
    assert on_track(31) == TrackPosition(1, True, 1)
    assert on_track(32) == TrackPosition(2, True, 1), "Kasia: 28 + 4"
    assert on_track(60) == TrackPosition(30, True, 1), "60 is space 30 on the flipped side"


def test_track_position_past_60():
    assert on_track(61) == TrackPosition(1, True, 2)
    assert on_track(95) == TrackPosition(5, True, 3)


def test_track_the_table_is_told_to_flip_only_when_passing_30(box):
    game, s = new_game(box, players=("red", "blue"))
    s = s.replace(scores=(26, 0))
    s, events = play(game, s, "place 4")
    assert on_track(s.scores[0]) == TrackPosition(30, False, 0)
    s, events = play(game, s, "place 0", "place 1")
    assert on_track(s.scores[0]) == TrackPosition(1, True, 1)


def test_refused_inputs_say_why(box):
    game, s = new_game(box, rewards="table")
    for wrong in ("place many", "place ²", "place -1", "place 3 queen", "place"):
        with pytest.raises(MalformedAction):
            game.apply(s, wrong)
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "reward plus2")
    assert refused.value.key == "illegal.popiel_no_reward"
    s, _ = play(game, s, "place 1 king")
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "place 2")
    assert refused.value.key == "illegal.popiel_reward_first"
    with pytest.raises(MalformedAction) as refused:
        game.apply(s, "reward gold")  # the rulebook's four: +2, +3, extra move, double
    assert (refused.value.key, refused.value.params) == ("action.popiel_kind", {"kind": "gold"})


def test_a_pass_while_the_drawn_reward_token_is_still_to_be_named_is_refused(box):
    """The tile is placed and the king touched: the token drawn comes first, as for a
    placement (the move is not over, so nobody passes yet)."""
    game, s = new_game(box, rewards="table")
    s, _ = play(game, s, "place 1 king")
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "pass")
    assert refused.value.key == "illegal.popiel_reward_first"


def test_correction_of_a_score(box):
    game, s = new_game(box)
    s, _ = play(game, s, "place 3", "correct points p1 -1")
    assert s.scores[0] == 2
    with pytest.raises(IllegalAction):
        game.apply(s, "correct points p2 -1")
    wrong_ones = ("score p1 1", "points x1 1", "points p4 1", "points p0 1", "points p1 one",
                  "points p² 1")  # fmt: skip
    for wrong in (f"correct {words}" for words in wrong_ones):
        with pytest.raises(MalformedAction) as refused:
            game.apply(s, wrong)
        assert refused.value.key == "action.bad_correction", wrong


def test_nobody_able_to_place_ends_the_game(box):
    game, s = new_game(box, players=("a", "b"))
    s, events = play(game, s, "pass", "pass")
    assert s.phase == "over" and {"event": "nobody_can_place"} in events


# --------------------------------------------------------------- setup


def test_setup_one_tile_each_three_on_the_draw_spaces_the_rest_in_the_stack(box):
    for players in range(2, 6):
        game, s = new_game(box, players=[f"m{i}" for i in range(players)])
        assert s.hands == (1,) * players
        assert s.draw_spaces == 3
        assert s.stack == box.tiles - players - 3 and s.tiles_left == 36


def test_setup_king_on_the_lowest_window_all_reward_tokens_mixed_the_first_player_places(box):
    game, s = new_game(box)
    assert s.king == 0 and s.phase == "place" and s.current == 0
    assert s.tokens_left == 8 and s.pool == tuple(box.rewards[k] for k in KINDS)
    assert s.scores == (0, 0, 0) and s.rewards == ((), (), ())


def test_setup_pawns_start_in_front_of_space_1(box):
    game, s = new_game(box)
    assert {on_track(score) for score in s.scores} == {TrackPosition(0, False, 0)}


# --------------------------------------------------------------- tiles


def test_drawing_tiles_after_placing_one_from_the_draw_spaces_then_refill_from_the_stack(box):
    game, s = new_game(box)
    s, events = play(game, s, "place 2")
    assert s.hands == (1, 1, 1), "the tile placed, a tile drawn for the next turn"
    assert (s.draw_spaces, s.stack) == (3, 36 - 3 - 3 - 1)
    assert {"event": "draw_tile", "player": 0, "refill": 1} in events


def test_drawing_tiles_refill_only_where_possible_when_the_stack_runs_out(box):
    game, s = new_game(box)
    s = s.replace(stack=0)
    s, events = play(game, s, "place 2")
    assert (s.hands, s.draw_spaces, s.stack) == ((1, 1, 1), 2, 0)
    assert {"event": "draw_tile", "player": 0, "refill": 0} in events
    s, _ = play(game, s, "place 0", "place 0")
    assert (s.hands, s.draw_spaces, s.stack) == ((1, 1, 1), 0, 0)


def test_drawing_tiles_with_the_draw_spaces_empty_the_player_holds_none(box):
    game, s = new_game(box)
    s = s.replace(stack=0, draw_spaces=0)
    s, events = play(game, s, "place 2")
    assert s.hands == (0, 1, 1) and {"event": "no_tile_to_draw", "player": 0} in events
    assert s.current == 1


def test_end_when_the_tiles_run_out_every_tile_held_is_placed_first(box):
    game, s = new_game(box)
    s = s.replace(stack=0, draw_spaces=1)
    s, events = play(game, s, "place 1")  # mouse 1 draws the last tile
    assert s.hands == (1, 1, 1) and s.draw_spaces == 0
    s, _ = play(game, s, "place 1", "place 1")
    assert s.phase == "place" and s.current == 0, "mouse 1 still holds the last tile"
    s, events = play(game, s, "place 1")
    assert s.phase == "over" and {"event": "tiles_gone"} in events
    assert s.scores == (2, 1, 1) and s.tiles_left == 0


def test_end_a_player_without_a_tile_is_skipped(box):
    game, s = new_game(box)
    s = s.replace(stack=0, draw_spaces=0, hands=(1, 0, 1))
    s, events = play(game, s, "place 1")
    assert s.current == 2 and {"event": "turn", "player": 2} in events


def test_extra_move_takes_one_of_the_tiles_on_the_draw_spaces_and_places_it(box):
    game, s = new_game(box, rewards="table")
    s, events = play(game, s, "place 3 king", "reward extra")
    assert s.extra and s.hands == (1, 1, 1)
    assert s.move_dots == 0  # no move's reward awaited until the extra tile is placed
    assert (s.draw_spaces, s.stack) == (3, 36 - 6 - 1), "the draw space refilled at once"
    assert {"event": "extra_move", "player": 0, "refill": 1} in events
    s, events = play(game, s, "place 1")
    assert s.current == 1 and s.hands == (1, 1, 1)
    assert (s.draw_spaces, s.stack) == (3, 36 - 6 - 2)
    assert {"event": "draw_tile", "player": 0, "refill": 1} in events


def test_extra_moves_in_a_row_the_draw_spaces_are_refilled_each_time(box):
    game, s = new_game(box, rewards="table", windows=7)
    for _ in range(4):
        s, _ = play(game, s, "place 1 king", "reward extra")
    assert s.extra and s.draw_spaces == 3 and s.stack == 36 - 6 - 4


def test_extra_move_only_when_a_draw_space_holds_a_tile(box):
    game, s = new_game(box, rewards="table")
    s = s.replace(stack=0, draw_spaces=0)
    s, events = play(game, s, "place 3 king", "reward extra")
    assert not s.extra and s.current == 1 and s.scores[0] == 3
    assert {"event": "no_tile_for_extra", "player": 0} in events
    assert s.rewards[0] == ("extra",), "the token is kept all the same"


def test_extra_move_a_tile_that_cannot_be_placed_goes_back_on_the_draw_spaces(box):
    game, s = new_game(box, rewards="table")
    s, _ = play(game, s, "place 3 king", "reward extra")
    s, events = play(game, s, "pass")
    assert s.current == 1 and s.passes == 0 and s.hands == (1, 1, 1)
    assert (s.draw_spaces, s.stack) == (3, 36 - 6 - 1), "the tile back, then one drawn"


# ------------------------------------------------------------ the king


def test_king_escapes_when_touched_even_with_no_token_left(box):
    """ "As soon as a player takes a reward token, King Popiel's pawn escapes": the touch
    is what sends him up. With no token left he still flees, so on a tower with more
    windows than tokens "the king is devoured" stays reachable."""
    game, s = new_game(box, rewards="table", windows=10)
    for window in range(10):
        assert s.king == window
        s, events = play(game, s, "place 1 king")
        if s.phase == "reward":
            s, events = play(game, s, "reward plus2")
        else:
            assert {"event": "no_reward_left"} in events
    assert s.phase == "over" and {"event": "king_devoured"} in events
    assert sum(len(r) for r in s.rewards) == 8 and s.tokens_left == 0


def test_king_with_no_token_left_the_move_scores_its_dots(box):
    game, s = new_game(box, rewards="table", windows=10)
    s = s.replace(tokens_left=0, king=3)
    s, events = play(game, s, "place 4 king")
    assert s.scores[0] == 4 and s.king == 4 and s.rewards[0] == ()
    assert {"event": "king_escapes", "window": 4} in events


def test_reward_tokens_are_drawn_at_random_from_the_mix(box):
    """Face down and mixed: over many games the first token drawn follows the mix (3 of
    8 are +2, 1 of 8 the double), and it is not the same kind in every game."""
    first = []
    for seed in range(800):
        game, s = new_game(box, seed=seed)
        _, events = game.apply(s, "place 1 king")
        first += [e["kind"] for e in events if e["event"] == "reward"]
    counts = {kind: first.count(kind) for kind in KINDS}
    for kind in KINDS:
        expected = 800 * box.rewards[kind] / 8
        assert abs(counts[kind] - expected) < 4 * expected**0.5, counts


# ------------------------------------------------------------ the example


EXAMPLE = Path(__file__).parent.parent / "examples" / "krol-popiel-3p-game.json"


def test_example_game_record_replays_and_is_scored(capsys):
    record = json.loads(EXAMPLE.read_text())
    final = replay(record).final
    assert final.phase == "over"
    assert main(["replay", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "game finished" in out and "[demo box — not the printed mix or tower]" in out
    for total in final.scores:
        assert f" {total}" in out
    assert main(["replay", str(EXAMPLE), "--json"]) == 0
    score = json.loads(capsys.readouterr().out)["score"]  # as docs/game-record.md lays it out
    best = max(final.scores)
    assert score["winners"] == [p for p, total in enumerate(final.scores) if total == best]
    assert [line["total"] for line in score["players"]] == list(final.scores)
    assert [line["rewards"] for line in score["players"]] == [list(r) for r in final.rewards]
    assert score["decided_by"] == ("points" if len(score["winners"]) == 1 else "shared")


# --------------------------------------------------------------- properties


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), table=st.booleans())
def test_totals_never_decrease_and_the_end_comes_with_the_windows(box, seed, players, table):
    game, s = new_game(
        box,
        players=[f"m{i}" for i in range(players)],
        seed=seed,
        rewards="table" if table else "app",
    )
    chooser = random.Random(seed)
    record = new_record("popiel", "standard", game.options, box)
    escapes = 0
    while s.phase != "over":
        actions = [a for a in game.legal_actions(s) if a.verb != "pass"] or game.legal_actions(s)
        action = chooser.choice(actions)
        before, state = s.scores, s
        s, events = game.apply(s, action)
        assert game.apply(state, action) == (s, events), "undo then redo: the same draw"
        record["actions"].append(str(action))
        assert all(after >= b for after, b in zip(s.scores, before, strict=True))
        escapes += sum(e["event"] in ("king_escapes", "king_devoured") for e in events)
        assert PopielState.from_json(json.loads(json.dumps(s.to_json()))) == s
    assert escapes == game.windows or s.tiles_left == 0
    assert replay(json.loads(json.dumps(record))).final == s


def test_each_placement_is_one_move_and_ends_a_run_of_passes(box):
    """The resume list shows the move being played: a placement is one, a pass none."""
    game, s = new_game(box)
    s, _ = play(game, s, "pass")
    assert (s.moves, s.passes) == (0, 1)
    s, _ = play(game, s, "place 2")
    assert (s.moves, s.passes) == (1, 0)
    s, _ = play(game, s, "place 1")
    assert s.moves == 2


def test_an_extra_move_is_used_up_by_the_tile_it_places(box):
    """The extra token gives one more placement; once placed, the next is no extra one."""
    game, s = new_game(box, rewards="table")
    s, _ = play(game, s, "place 2 king", "reward extra")
    assert s.extra is True
    s, _ = play(game, s, "place 3 king")  # the extra tile, by the king again
    assert (s.phase, s.extra) == ("reward", False)


def test_a_reward_the_app_draws_leaves_its_mix_one_token_smaller(box):
    game, s = new_game(box)
    after, events = play(game, s, "place 2 king")
    (kind,) = [e["kind"] for e in events if e["event"] == "reward"]
    drawn = KINDS.index(kind)
    assert after.pool == tuple(n - (i == drawn) for i, n in enumerate(s.pool))
    assert after.rng != s.rng  # the next draw is another one


def test_a_placement_closes_at_most_twelve_dots(box):
    """The engine's bound, not the rulebook's (which counts the dots a tile completes): more
    than twelve is a typing slip at the table, refused saying how many were given."""
    game, s = new_game(box)
    game.apply(s, "place 12")
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "place 13")
    assert (refused.value.key, refused.value.params) == ("illegal.popiel_dots", {"dots": 13})


def test_a_score_corrected_to_zero_is_kept_below_it_refused(box):
    game, s = new_game(box)
    s, _ = play(game, s, "place 3")
    after, events = game.apply(s, "correct points p1 -3")
    assert after.scores[0] == 0
    assert events[0] == {"event": "corrected", "action": "correct points p1 -3"}
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "correct points p1 -4")
    assert refused.value.key == "illegal.popiel_negative"
    last, _ = game.apply(s, "correct points p3 2")  # the last seat of three
    assert last.scores == (3, 0, 2)


@pytest.mark.parametrize(
    "action",
    ["place ²", "place 3 queen", "correct score p1 1", "correct points p1 one"],
    ids=["superscript 2", "queen", "score", "one"],
)
def test_a_malformed_placement_or_correction_is_named_in_its_refusal(box, action):
    game, s = new_game(box)
    with pytest.raises(MalformedAction) as refused:
        game.apply(s, action)
    assert f"'{action}'" in refused.value.text("en")
