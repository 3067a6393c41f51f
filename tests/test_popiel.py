"""Król Popiel: the rulebook's examples, one test per clause, and properties."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import play

from firmware_app.catalogue_files import load_popiel
from rules.errors import IllegalAction, MalformedAction, SetupError
from rules.popiel.game import PopielGame, PopielOptions
from rules.popiel.state import PopielState
from rules.popiel.track import on_track
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


@pytest.mark.parametrize("players", [("solo",), ("a", "b", "c", "d", "e", "f"), ("a", "a")])
def test_two_to_five_players_each_with_their_own_mouse(box, players):
    with pytest.raises(SetupError):
        PopielGame(box, PopielOptions(players=players))


def test_tied_players_share_the_victory(box):
    game, s = new_game(box)
    s, _ = play(game, s, "place 2", "place 2", "place 1")
    assert game.winners(s) == (0, 1)


def test_track_position_past_60(box):
    assert (on_track(0).space, on_track(0).flipped) == (0, False)
    assert (on_track(30).space, on_track(30).flipped, on_track(30).laps) == (0, True, 1)
    assert (on_track(61).space, on_track(61).laps) == (1, 2)


def test_refused_inputs_say_why(box):
    game, s = new_game(box, rewards="table")
    with pytest.raises(MalformedAction):
        game.apply(s, "place many")
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "reward plus2")
    assert refused.value.key == "illegal.popiel_no_reward"
    s, _ = play(game, s, "place 1 king")
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "place 2")
    assert refused.value.key == "illegal.popiel_reward_first"


def test_correction_of_a_score(box):
    game, s = new_game(box)
    s, _ = play(game, s, "place 3", "correct points p1 -1")
    assert s.scores[0] == 2
    with pytest.raises(IllegalAction):
        game.apply(s, "correct points p2 -1")


def test_nobody_able_to_place_ends_the_game(box):
    game, s = new_game(box, players=("a", "b"))
    s, events = play(game, s, "pass", "pass")
    assert s.phase == "over" and {"event": "nobody_can_place"} in events


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
