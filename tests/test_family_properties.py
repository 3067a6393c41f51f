"""Properties that hold over whole random games of the family variant."""

import json
from collections import Counter

from engine_checks import record_replays, refusals_change_nothing
from family_helpers import new_game, random_playout, token_total
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.pingwiny.state import State
from rules.record import new_record

games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 4),
        "seed": st.integers(0, 2**64 - 1),
        "short": st.booleans(),
        "bag": st.sampled_from(["app", "table"]),
        "deck": st.sampled_from(["app", "table"]),
    }
)
quick = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cards_in_play(state: State) -> Counter:
    held = [f for p in state.players for f in p.figurants]
    laid = [c for c in state.faceup if c is not None]
    return Counter(held + laid + [c for group in state.deck for c in group])


@quick
@given(options=games, chooser=st.integers(0, 1000))
def test_tokens_cards_and_missions_are_conserved(demo, options, chooser):
    game, s = new_game(demo, **options)
    tokens, cards = token_total(s), cards_in_play(s)
    missions = Counter(s.missions)
    for _, _, after in random_playout(game, s, chooser):
        assert token_total(after) == tokens
        assert sum(cards_in_play(after).values()) == sum(cards.values())
        assert set(cards_in_play(after)) == set(cards)
        held = [p.mission for p in after.players if p.mission]
        assert Counter(list(after.missions) + held) == missions
        assert all(n >= 0 for place in (after.bag, after.board, after.box) for n in place)


@quick
@given(options=games, chooser=st.integers(0, 1000))
def test_a_legal_action_exists_until_the_game_ends(demo, options, chooser):
    game, s = new_game(demo, **options)
    last = s
    for _, _, after in random_playout(game, s, chooser):
        last = after
    assert last.phase == "over"
    assert game.legal_actions(last) == []


@quick
@given(options=games, chooser=st.integers(0, 1000), words=st.lists(st.text(max_size=8)))
def test_a_refused_action_changes_nothing(demo, options, chooser, words):
    game, s = new_game(demo, **options)
    probes = [
        "visit hq nobody",
        "visit chimp",
        "visit gastro grey>grey+grey",
        "draw",
        "reveal nobody",
        "visit lemur nothing",
        " ".join(words),
    ]
    refusals_change_nothing(game, random_playout(game, s, chooser, limit=120), probes)


@quick
@given(options=games, chooser=st.integers(0, 1000))
def test_replaying_a_record_reproduces_the_state_exactly(demo, options, chooser):
    game, s = new_game(demo, **options)
    record = new_record("pingwiny", "family", game.options, demo)
    final = record_replays(record, random_playout(game, s, chooser))
    assert State.from_json(json.loads(json.dumps(final.to_json()))) == final


@quick
@given(options=games, chooser=st.integers(0, 1000))
def test_undo_then_redo_gives_the_same_random_draw(demo, options, chooser):
    game, s = new_game(demo, **options)
    for before, action, after in random_playout(game, s, chooser, limit=200):
        again, events = game.apply(before, action)
        assert again == after
        assert game.apply(before, action)[1] == events
