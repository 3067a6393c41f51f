"""Properties that hold over whole random games of the advanced variant.

Games are played by random legal choices, with every source of chance (bag,
decks, die) in the app or at the table.
"""

import json
from collections import Counter

from advanced_helpers import new_advanced, random_playout, token_total
from engine_checks import refusals_change_nothing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.pingwiny.advanced_state import AdvancedState
from rules.pingwiny.board import HQ_SQUARE
from rules.record import new_record, replay

OFFICER_X_MARKERS = 8  # the rulebook's Game Components: "8 Officer X markers."

games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 4),
        "seed": st.integers(0, 2**64 - 1),
        "short": st.booleans(),
        "bag": st.sampled_from(["app", "table"]),
        "deck": st.sampled_from(["app", "table"]),
        "die": st.sampled_from(["app", "table"]),
    }
)
quick = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def figurants(s: AdvancedState) -> Counter:
    """Every figurant card: in the deck, face up, held or on a discard pile."""
    cards = [c for group in s.deck for c in group] + [c for c in s.faceup if c is not None]
    for p in s.players:
        cards += p.figurants + p.discarded
    return Counter(cards)


def missions(s: AdvancedState) -> Counter:
    cards = [m for group in s.mission_deck for m in group]
    cards += [m for m in s.mission_row if m is not None]
    return Counter(cards + [m for p in s.players for m in p.missions])


@quick
@given(options=games, chooser=st.integers(0, 1000))
def test_tokens_cards_missions_and_markers_are_conserved(demo, options, chooser):
    game, s = new_advanced(demo, **options)
    tokens, cards, in_play = token_total(s), figurants(s), missions(s)
    assert tokens == game.cards.tokens
    assert sum(cards.values()) == len(game.cards.deck) and set(cards.values()) == {1}
    assert sum(in_play.values()) == len(game.cards.missions)
    beside = OFFICER_X_MARKERS
    for before, action, after in random_playout(game, s, chooser):
        assert token_total(after) == tokens
        assert figurants(after) == cards
        assert missions(after) == in_play
        places = [after.bag, after.board, after.box] + [p.tokens for p in after.players]
        assert min(min(place) for place in places) >= 0 and after.grey >= 0
        _, events = game.apply(before, action)
        beside -= sum(1 for e in events if e["event"] == "officer_x")
        beside += sum(1 for e in events if e["event"] == "marker_removed")
        assert len(after.markers) + beside == OFFICER_X_MARKERS and beside >= 0
        assert len(set(after.markers)) == len(after.markers) and HQ_SQUARE not in after.markers
        edges = [(p.square, p.spot) for p in after.players if p.spot != "middle"]
        assert len(set(edges)) == len(edges), "one penguin per blockade field"


@quick
@given(options=games, chooser=st.integers(0, 1000))
def test_a_legal_action_exists_until_the_game_ends(demo, options, chooser):
    game, s = new_advanced(demo, **options)
    last = s
    for before, _, after in random_playout(game, s, chooser):
        assert before.phase != "over"
        last = after
    assert last.phase == "over"
    assert game.legal_actions(last) == []


PROBES = (
    "move hq",
    "move gate up",
    "otter hq",
    "take 2",
    "rummage",
    "rummage red",
    "lemur czlowieki",
    "gate figurants",
    "gastro",
    "exchange grey>grey+grey",
    "done",
    "hq becky grey=yellow",
    "roll 4",
    "officer hq",
    "lose white",
    "use karaczany gate",
    "penguin",
    "pass",
    "draw",
    "reveal nobody",
    "reveal-mission nothing",
)


@quick
@given(options=games, chooser=st.integers(0, 1000), words=st.lists(st.text(max_size=8)))
def test_a_refused_action_changes_nothing(demo, options, chooser, words):
    game, s = new_advanced(demo, **options)
    playout = random_playout(game, s, chooser, limit=150)
    refusals_change_nothing(game, playout, PROBES + (" ".join(words),))


@quick
@given(options=games, chooser=st.integers(0, 1000))
def test_json_round_trip_is_exact_and_a_record_replays_to_the_same_state(demo, options, chooser):
    game, s = new_advanced(demo, **options)
    record = new_record("pingwiny", "advanced", game.options, demo)
    final = s
    for _, action, after in random_playout(game, s, chooser):
        assert AdvancedState.from_json(json.loads(json.dumps(after.to_json()))) == after
        record["actions"].append(str(action))
        final = after
    replayed = replay(json.loads(json.dumps(record)))
    assert replayed.final == final
    assert replayed.final.phase == "over"


@quick
@given(options=games, chooser=st.integers(0, 1000))
def test_undo_then_redo_gives_the_same_draws_and_rolls(demo, options, chooser):
    game, s = new_advanced(demo, **options)
    for before, action, after in random_playout(game, s, chooser, limit=300):
        again, events = game.apply(before, action)
        assert again == after
        assert game.apply(before, action)[1] == events
