"""One test per clause of the family rules, named after the clause.

Positions are built from a real set-up with a few fields replaced, so each
test shows exactly the part of the table its clause is about.
"""

import pytest
from family_helpers import at_visits, new_game, tokens
from positions import play, with_fields, with_player

from rules.actions import Action
from rules.colours import BLUE, COLOURS, GREY, INDEX, RED
from rules.errors import IllegalAction, MalformedAction, SetupError
from rules.pingwiny.exchange import _table, by_give, notation
from rules.pingwiny.options import Options

# ------------------------------------------------------------------ setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_lays_players_plus_two_figurants_and_deals_five_tokens(demo, players):
    game, s = new_game(demo, players=players, seed=3)
    assert len(s.faceup) == players + 2 and None not in s.faceup
    assert [sum(p.tokens) for p in s.players] == [5] * players
    assert s.deck_size == len(game.cards.deck) - players - 2


def test_setup_with_the_tables_bag_and_deck_players_plus_two_spaces_five_tokens_each(demo):
    game, s = new_game(demo, players=3, seed=3, bag="table", deck="table", first=0)
    assert s.faceup == (None,) * 5 and s.pending == (0, 1, 2, 3, 4)
    for card in sorted(game.cards.deck)[:5]:
        s, _ = game.apply(s, f"reveal {card}")
    for _ in range(3):
        assert s.draw_count == 5
        s, _ = game.apply(s, "draw red red blue white black")
    assert [sum(p.tokens) for p in s.players] == [5, 5, 5]
    assert (s.phase, s.draw_count, s.current) == ("draw", 2, 0)


def test_setup_the_figurant_deck_is_shuffled(demo):
    decks = set()
    for seed in range(6):
        game, s = new_game(demo, seed=seed)
        cards = list(s.faceup) + [g[0] for g in s.deck]
        assert sorted(cards) == sorted(game.cards.deck)
        decks.add(tuple(cards))
    assert len(decks) == 6, "every seed lays the deck out in another order"
    assert tuple(game.cards.deck) not in decks


def test_setup_deals_different_penguins_at_random(demo):
    dealt = {new_game(demo, players=4, seed=seed)[1].players[0].penguin for seed in range(20)}
    assert len(dealt) > 1
    _, s = new_game(demo, players=4, seed=1)
    assert len({p.penguin for p in s.players}) == 4


def test_setup_lays_the_five_named_family_missions(demo):
    game, s = new_game(demo, seed=1)
    names = {game.cards.missions[m].name for m in s.missions}
    assert names == {
        "Najlepszy wróg",
        "Królestwo za kciuk",
        "Ptak zamknięty ptak szalony",
        "Człowieki",
        "Ni wydra, ni...",
    }


def test_setup_puts_every_token_in_the_bag_before_the_deal(demo):
    game, s = new_game(demo, seed=1)
    hands = [p.tokens for p in s.players]
    assert tuple(s.bag[c] + sum(h[c] for h in hands) for c in range(7)) == game.cards.tokens
    assert s.board == tokens() and s.box == tokens()


def test_short_game_removes_the_listed_cards_and_mission(demo):
    game, s = new_game(demo, seed=1, short=True)
    removed = {"becky", "hans", "dr-bulgot", "king-of-the-rats", "stacy", "dunska-ochrona"}
    removed |= {"homary", "szczury"}
    in_play = set(game.cards.deck)
    assert not removed & in_play
    assert len(in_play) == 42 - 8
    assert "najlepszy-wrog" not in s.missions and len(s.missions) == 4


@pytest.mark.parametrize("players", [1, 5])
def test_setup_is_for_two_to_four_players(players):
    with pytest.raises(SetupError) as refused:
        Options(players=players)
    assert refused.value.key == "setup.players"


def test_setup_first_player_starts_and_draws_first(demo):
    _, s = new_game(demo, players=3, seed=2, first=1)
    assert (s.current, s.first, s.phase, s.draw_count) == (1, 1, "draw", 2)


@pytest.mark.parametrize(
    "penguins", [("rico", "rico"), ("rico", "mort"), ("rico", "skipper", "kowalski")]
)
def test_setup_dealt_penguins_must_be_different_penguin_cards_one_per_player(demo, penguins):
    """ "Give each player one randomly chosen penguin card": the box has four, one a colour
    (Kowalski, Skipper, Rico, Szeregowy), so a deal the table pins must fit that."""
    with pytest.raises(SetupError) as refused:
        new_game(demo, players=2, penguins=penguins)
    assert refused.value.key == "setup.penguins"


# ------------------------------------------------------------------- turn


def test_turn_starts_by_drawing_two_tokens(demo):
    game, s = new_game(demo, seed=4)
    assert game.legal_actions(s) == [Action("draw")]
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "visit otter")
    assert refused.value.key == "illegal.draw_first"
    after, events = game.apply(s, "draw")
    assert sum(after.players[s.current].tokens) == 7
    assert events[0]["event"] == "drew" and len(events[0]["tokens"]) == 2


def test_turn_is_exactly_two_visits_then_the_next_player(demo):
    game, s = new_game(demo, seed=4, first=0)
    s = at_visits(game, s)
    s, _ = game.apply(s, "visit gate")
    assert (s.current, s.visits_left) == (0, 1)
    s, events = game.apply(s, "visit gate")
    assert (s.current, s.phase) == (1, "draw")
    assert events[-1] == {"event": "turn", "player": 1}


def test_turn_may_visit_the_same_location_twice(demo):
    game, s = new_game(demo, seed=4)
    s = at_visits(game, with_fields(s, board=tokens(blue=2)))
    s, _ = game.apply(s, "visit chimp")
    assert Action("visit", "chimp") in game.legal_actions(s)
    s, _ = game.apply(s, "visit chimp")
    assert s.board[BLUE] == 0


def test_turn_cannot_draw_twice(demo):
    game, s = new_game(demo, seed=4)
    s = at_visits(game, s)
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "draw")
    assert refused.value.key == "illegal.already_drew"


# ----------------------------------------------------------------- gastro


def gastro_position(demo, hand, board=None, bag=None):
    game, s = new_game(demo, seed=11)
    s = at_visits(game, s)
    s = with_player(s, s.current, tokens=hand)
    if board is not None:
        s = with_fields(s, board=board)
    if bag is not None:
        s = with_fields(s, bag=bag)
    return game, s


@pytest.mark.parametrize(
    "line",
    [
        "white+white>red",
        "black+black>blue",
        "white+white>black",
        "yellow>red",
        "red>white",
        "blue>black",
        "green>yellow",
        "grey>white+white",
        "grey>green+green",
    ],
)
def test_gastro_every_line_of_the_exchange_table(demo, line):
    hand = tokens(white=2, black=2, yellow=1, red=1, blue=1, green=1, grey=1)
    full = tokens(red=3, blue=3, green=3, yellow=3)
    game, s = gastro_position(demo, hand, board=full, bag=tokens(white=3, black=3))
    assert Action("visit", "gastro", line) in game.legal_actions(s)
    after, events = game.apply(s, f"visit gastro {line}")
    gave, got = line.split(">")
    assert events[0]["gave"] == gave.split("+") and events[0]["got"] == got.split("+")
    assert sum(after.players[s.current].tokens) == sum(hand) - len(events[0]["gave"]) + len(
        events[0]["got"]
    )


def test_the_exchange_table_built_afresh_holds_the_rulebooks_three_rules_and_no_more():
    """The table as ``_table`` builds it (the engines keep the one built when they were
    loaded): two whites or two blacks for any one token but grey, 2 x 6 lines; one yellow,
    red, blue or green for any other but grey, 4 x 5; one grey for two of a colour but grey,
    6 (rulebook: Exchanging Tokens). 38 lines, none twice."""
    others = ("red", "blue", "green", "yellow", "white", "black")
    expected = {f"{pair}+{pair}>{c}" for pair in ("white", "black") for c in others}
    expected |= {f"{one}>{c}" for one in ("yellow", "red", "blue", "green") for c in others}
    expected -= {f"{c}>{c}" for c in others}
    expected |= {f"grey>{c}+{c}" for c in others}
    built = _table()
    assert len(built) == len(expected) == 38
    assert {notation(give, get) for give, get in built} == expected


def test_gastro_table_grouped_by_the_tokens_given_as_the_rulebook_lists_it():
    """The lines listed by what is given (computed once, when the engines are loaded, so
    asked afresh here), each with how many of the colour received must be there to take: a
    white or black token is given back to the bag before one is drawn, so a white for two
    whites needs none there (rulebook: Exchanging Tokens)."""
    others = ("red", "blue", "green", "yellow", "white", "black")
    groups = {(COLOURS[given], count): lines for given, count, lines in by_give()}
    assert list(groups) == [
        ("white", 2), ("black", 2), ("yellow", 1), ("red", 1), ("blue", 1), ("green", 1),
        ("grey", 1),
    ]  # fmt: skip
    for pair in ("white", "black"):
        assert groups[pair, 2] == [
            (INDEX[c], 1 - 2 * (c == pair), f"{pair}+{pair}>{c}") for c in others
        ]
    for single in ("yellow", "red", "blue", "green"):
        assert groups[single, 1] == [(INDEX[c], 1, f"{single}>{c}") for c in others if c != single]
    assert groups["grey", 1] == [(INDEX[c], 2, f"grey>{c}+{c}") for c in others]


def test_gastro_never_gives_grey(demo):
    game, s = gastro_position(demo, tokens(white=2, yellow=1))
    assert not any(a[1] == "gastro" and a[2].endswith("grey") for a in game.legal_actions(s))
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "visit gastro yellow>grey")
    assert refused.value.key == "illegal.exchange_for_grey"


def test_gastro_only_lines_of_the_table(demo):
    game, s = gastro_position(demo, tokens(white=1, red=2))
    for line in ("white>red", "red+red>blue", "red>blue+blue"):
        with pytest.raises(IllegalAction) as refused:
            game.apply(s, f"visit gastro {line}")
        assert refused.value.key == "illegal.exchange_not_in_table"


@pytest.mark.parametrize("pair", ["white+black", "white+grey", "black+grey"])
def test_gastro_two_different_tokens_are_not_a_line_of_the_table(demo, pair):
    """ "Two white or two black tokens": a white with a black, or either with a grey, is not a
    line of the exchange table, whatever is asked for."""
    game, s = gastro_position(demo, tokens(white=1, black=1, grey=1))
    assert not any(
        a[:2] == ("visit", "gastro") and a[2].startswith(pair) for a in game.legal_actions(s)
    )
    for get in ("red", "yellow", "white"):
        with pytest.raises(IllegalAction) as refused:
            game.apply(s, f"visit gastro {pair}>{get}")
        assert refused.value.key == "illegal.exchange_not_in_table"


def test_gastro_takes_from_the_location_before_the_bag(demo):
    game, s = gastro_position(demo, tokens(blue=1), board=tokens(red=1), bag=tokens(red=1))
    after, _ = game.apply(s, "visit gastro blue>red")
    assert after.board == tokens(blue=1) and after.bag == tokens(red=1)


def test_gastro_takes_from_the_bag_when_the_location_is_empty(demo):
    game, s = gastro_position(demo, tokens(blue=1), board=tokens(), bag=tokens(red=1))
    after, _ = game.apply(s, "visit gastro blue>red")
    assert after.bag == tokens() and after.players[s.current].tokens == tokens(red=1)


def test_gastro_white_and_black_always_to_and_from_the_bag(demo):
    game, s = gastro_position(demo, tokens(white=2), board=tokens(), bag=tokens(black=1))
    after, _ = game.apply(s, "visit gastro white+white>black")
    assert after.bag == tokens(white=2)
    assert after.players[s.current].tokens == tokens(black=1)


def test_gastro_colour_neither_on_its_location_nor_in_the_bag_is_refused(demo):
    game, s = gastro_position(demo, tokens(blue=1), board=tokens(), bag=tokens(white=3))
    assert Action("visit", "gastro", "blue>red") not in game.legal_actions(s)
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "visit gastro blue>red")
    assert refused.value.key == "illegal.cannot_receive"


def test_gastro_grey_for_two_takes_each_from_the_location_then_the_bag(demo):
    game, s = gastro_position(demo, tokens(grey=1), board=tokens(red=1), bag=tokens(red=1))
    after, _ = game.apply(s, "visit gastro grey>red+red")
    assert after.board == tokens() and after.bag == tokens()
    assert after.players[s.current].tokens == tokens(red=2)
    assert after.box[GREY] == s.box[GREY] + 1


def test_gastro_one_token_for_the_same_colour_is_no_exchange(demo):
    game, s = gastro_position(demo, tokens(red=1), board=tokens(red=2))
    with pytest.raises(IllegalAction):
        game.apply(s, "visit gastro red>red")


def test_gastro_needs_the_tokens_given(demo):
    game, s = gastro_position(demo, tokens(white=1))
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "visit gastro white+white>red")
    assert refused.value.key == "illegal.not_held"


# -------------------------------------------------------------------- end


def test_end_when_the_deck_runs_out_the_round_is_completed(demo):
    game, s = new_game(demo, players=3, seed=12, first=1)
    s = at_visits(game, with_fields(s, deck=s.deck[:1], current=1))
    card = s.faceup[0]
    s = with_player(s, 1, tokens=game.cards.figurants[card].cost[:7])
    s, events = game.apply(s, f"visit hq {card}")
    assert s.last_round and {"event": "last_round", "why": "deck"} in events
    s, _ = game.apply(s, "visit gate")
    assert (s.current, s.phase) == (2, "draw")
    for player in (2, 0):
        assert s.current == player
        s = at_visits(game, s)
        s, events = game.apply(s, "visit gate")
        s, events = game.apply(s, "visit gate")
    assert s.phase == "over" and events[-1] == {"event": "game_over"}
    assert game.legal_actions(s) == []
    assert s.turns == 3


def test_end_when_the_last_player_empties_the_deck_the_game_ends_with_the_turn(demo):
    game, s = new_game(demo, players=2, seed=12, first=0)
    s = at_visits(game, with_fields(s, deck=s.deck[:1], current=1, first=0))
    s, _ = game.apply(s, "visit gate")
    card = s.faceup[0]
    s = with_player(s, 1, tokens=game.cards.figurants[card].cost[:7])
    s, events = game.apply(s, f"visit hq {card}")
    assert s.phase == "over"
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "draw")
    assert refused.value.key == "illegal.game_over"


def test_end_space_left_empty_when_the_deck_is_gone(demo):
    game, s = new_game(demo, players=3, seed=12)
    s = at_visits(game, with_fields(s, deck=()))
    card = s.faceup[2]
    s = with_player(s, s.current, tokens=game.cards.figurants[card].cost[:7])
    after, _ = game.apply(s, f"visit hq {card}")
    assert after.faceup[2] is None


def test_end_in_a_played_game_the_round_of_the_decks_last_card_is_played_out(demo):
    """ "The current round is played to the end, so that every player has taken the same
    number of turns": in a whole game, the last card laid marks the round, and the game
    ends when the player before the first player finishes a turn of that round."""
    from family_helpers import random_playout

    for seed, players in ((4, 2), (5, 3), (6, 4)):
        game, s = new_game(demo, players=players, seed=seed)
        marked = None
        for before, _, after in random_playout(game, s, seed, eager=True):
            if after.last_round and not before.last_round:
                assert after.deck_size == 0
                marked = before.turns
        assert after.phase == "over" and marked is not None
        assert after.turns % players == 0, "every player took the same number of turns"
        assert after.turns - marked <= players
        assert after.current == (after.first - 1) % players


def test_scoring_penalty_one_point_per_token_held_at_the_end_of_a_played_game(demo):
    from family_helpers import random_playout

    game, start = new_game(demo, players=3, seed=7)
    s = [after for _, _, after in random_playout(game, start, 7, eager=True)][-1]
    assert s.phase == "over"
    sheet = game.score(s)
    held = [sum(p.tokens) for p in s.players]
    assert any(held), "a game that leaves tokens in hand"
    assert [line.penalty for line in sheet.lines] == [-n for n in held]
    for line in sheet.lines:
        parts = line.figurants + line.penguin_bonus + line.mission + line.penalty
        assert line.total == parts


# ---------------------------------------------------------- table randomness


def test_table_bag_draw_names_the_colours_drawn(demo):
    game, s = new_game(demo, seed=13, bag="table")
    assert s.draw_count == 5 and sum(s.players[0].tokens) == 0
    s, _ = game.apply(s, "draw red red blue white black")
    assert s.players[s.first].tokens == tokens(red=2, blue=1, white=1, black=1)


def test_table_bag_draw_is_checked_against_the_bag(demo):
    game, s = new_game(demo, seed=13, bag="table")
    s = with_fields(s, bag=tokens(red=4, blue=10))
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "draw red red red red red")
    assert refused.value.key == "illegal.not_in_bag"
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "draw red red")
    assert refused.value.key == "illegal.draw_count"
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "draw")
    assert refused.value.key == "illegal.draw_count"


def test_app_bag_refuses_colours_given_by_the_table(demo):
    game, s = new_game(demo, seed=13)
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "draw red blue")
    assert refused.value.key == "illegal.app_draws"


def test_table_deck_cards_are_named_when_revealed(demo):
    game, s = new_game(demo, seed=14, deck="table")
    assert s.faceup == (None,) * 4 and len(s.pending) == 4
    names = [a[1] for a in game.legal_actions(s)]
    assert names == sorted(game.cards.deck)
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "draw")
    assert refused.value.key == "illegal.reveal_first"
    for card in names[:4]:
        s, _ = game.apply(s, f"reveal {card}")
    assert list(s.faceup) == names[:4] and not s.pending
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, f"reveal {names[5]}")
    assert refused.value.key == "illegal.no_reveal_expected"


def test_table_deck_zoo_gate_cards_come_back_only_after_the_rest(demo):
    game, s = new_game(demo, seed=14, deck="table")
    for card in sorted(game.cards.deck)[:4]:
        s, _ = game.apply(s, f"reveal {card}")
    s = at_visits(game, with_fields(s, deck=(("a1", "a2"),)))
    row = s.faceup
    s, _ = game.apply(s, "visit gate")
    assert s.deck == (("a1", "a2"), tuple(sorted(row)))
    assert [a[1] for a in game.legal_actions(s)] == ["a1", "a2"]
    s, _ = game.apply(s, "reveal a2")
    s, _ = game.apply(s, "reveal a1")
    assert sorted(a[1] for a in game.legal_actions(s)) == sorted(row)


# ------------------------------------------------------------ corrections


def test_correct_moves_a_token_and_is_refused_when_nothing_is_there(demo):
    game, s = new_game(demo, seed=15)
    s = with_fields(s, board=tokens())
    after, events = game.apply(s, "correct token red bag board")
    assert after.board == tokens(red=1) and after.bag[RED] == s.bag[RED] - 1
    assert events == [{"event": "corrected", "action": "correct token red bag board"}]
    with pytest.raises(IllegalAction):
        game.apply(s, "correct token red board bag")


def test_correct_names_the_real_face_up_card(demo):
    game, s = new_game(demo, seed=15)
    real = s.deck[3][0]
    model = s.faceup[0]
    after, _ = game.apply(s, f"correct faceup 1 {real}")
    assert after.faceup[0] == real and after.deck[3] == (model,)


@pytest.mark.parametrize(
    "place",
    ["0", "5", "x", pytest.param("²", id="superscript 2"), pytest.param("١", id="arabic-indic 1")],
)
def test_a_correction_of_a_place_not_on_the_table_is_refused_naming_it(demo, place):
    """Four face-up spaces, 1 to 4, written in digits: anything else in a record, a
    superscript or another script's digit too, is refused, never a crash."""
    game, s = new_game(demo, seed=15)
    with pytest.raises(MalformedAction) as refused:
        game.apply(s, f"correct faceup {place} {s.deck[3][0]}")
    assert (refused.value.key, refused.value.params) == ("action.unknown_place", {"place": place})


@pytest.mark.parametrize("place", [2, 4])
def test_correct_faceup_in_a_table_shuffled_deck_keeps_the_apps_card_among_the_unseen(demo, place):
    """The table shuffles its own deck: naming the real card of a space (the middle one or
    the last) puts the card the app had there back among the cards not yet seen, the
    other spaces untouched."""
    game, s = new_game(demo, seed=15, deck="table", first=0)
    for card in sorted(game.cards.deck)[:4]:
        s, _ = game.apply(s, f"reveal {card}")
    unseen = [card for group in s.deck for card in group]
    real, old = unseen[0], s.faceup[place - 1]
    after, events = game.apply(s, f"correct faceup {place} {real}")
    assert after.faceup == s.faceup[: place - 1] + (real,) + s.faceup[place:]
    assert sorted(c for group in after.deck for c in group) == sorted([*unseen[1:], old])
    assert events[0] == {"event": "corrected", "action": f"correct faceup {place} {real}"}


def test_correct_faceup_naming_a_card_not_in_the_deck_is_refused_naming_it(demo):
    game, s = new_game(demo, seed=15)
    for card in ("nobody", s.faceup[1]):  # no such card; a card already face up
        with pytest.raises(IllegalAction) as refused:
            game.apply(s, f"correct faceup 1 {card}")
        assert (refused.value.key, refused.value.params) == (
            "illegal.correct_not_in_deck",
            {"card": card},
        )


def test_correct_owner_mission_and_penguin(demo):
    game, s = new_game(demo, seed=15)
    card = s.faceup[0]
    s = with_player(s, 0, figurants=(card,))
    s, _ = game.apply(s, f"correct owner {card} p2")
    assert s.players[1].figurants == (card,) and s.players[0].figurants == ()
    mission = s.missions[0]
    s, _ = game.apply(s, f"correct mission {mission} p1")
    assert s.players[0].mission == mission and mission not in s.missions
    s, _ = game.apply(s, f"correct mission {mission} board")
    assert s.players[0].mission is None and mission in s.missions
    for place in ("p3", "box"):  # two players: no third seat, and no mission goes back in
        with pytest.raises(MalformedAction) as refused:
            game.apply(s, f"correct mission {mission} {place}")
        assert (refused.value.key, refused.value.params) == (
            "action.unknown_place",
            {"place": place},
        )
    p1, p2 = s.players[0].penguin, s.players[1].penguin
    s, _ = game.apply(s, f"correct penguin p1 {p2}")
    assert (s.players[0].penguin, s.players[1].penguin) == (p2, p1)
    unheld = s.faceup[1]
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, f"correct owner {unheld} p1")
    assert str(refused.value) == f"Nobody holds card '{unheld}'."


def test_correct_faceup_filling_a_waiting_space_ends_the_turn_like_a_reveal(demo):
    """A space waiting for its card can be filled by a correction instead of ``reveal``:
    the turn that was waiting for it ends all the same, and no third visit is allowed."""
    game, s = new_game(demo, seed=15, deck="table", first=0)
    for card in sorted(game.cards.deck)[:4]:
        s, _ = game.apply(s, f"reveal {card}")
    s = at_visits(game, s)
    s, _ = game.apply(s, "visit otter")
    card = s.faceup[0]
    s = with_player(s, 0, tokens=game.cards.figurants[card].cost[:7])
    s, _ = game.apply(s, f"visit hq {card}")
    assert s.pending == (0,) and s.visits_left == 0 and s.current == 0
    real = sorted(s.deck[0])[-1]
    s, events = game.apply(s, f"correct faceup 1 {real}")
    assert s.pending == ()  # the space waits no more
    assert (s.current, s.phase) == (1, "draw")
    assert {"event": "turn", "player": 1} in events
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "visit gate")
    assert refused.value.key == "illegal.draw_first"


def test_correct_faceup_naming_the_decks_last_card_starts_the_last_round(demo):
    game, s = new_game(demo, seed=15, deck="table", players=2, first=0)
    for card in sorted(game.cards.deck)[:4]:
        s, _ = game.apply(s, f"reveal {card}")
    s = at_visits(game, s)
    last = s.deck[0][0]
    card = s.faceup[0]
    s = with_fields(with_player(s, 0, tokens=game.cards.figurants[card].cost[:7]), deck=((last,),))
    s, _ = game.apply(s, f"visit hq {card}")
    s, events = game.apply(s, f"correct faceup 1 {last}")
    assert s.deck == () and s.last_round and {"event": "last_round", "why": "deck"} in events
    s, _ = game.apply(s, "visit otter")
    assert s.phase == "draw" and s.current == 1
    s = at_visits(game, s)
    s, events = play(game, s, "visit otter", "visit otter")
    assert s.phase == "over" and events[-1] == {"event": "game_over"}


# ---------------------------------------------------------- refused input


def test_an_action_shows_as_the_words_it_was_written_in():
    """In a log line (``refused %r``) and a failed test's report alike."""
    action = Action.parse("visit  otter   red")
    assert (str(action), repr(action)) == ("visit otter red", "Action('visit otter red')")


@pytest.mark.parametrize(
    ("text", "key", "named"),
    [
        ("", "action.empty", "empty"),
        ("fly", "action.unknown_verb", "'fly'"),
        ("visit moon", "action.unknown_location", "'moon'"),
        ("visit", "action.unknown_location", "''"),
        ("visit chimp now", "action.bad_arguments", "'visit chimp now'"),
        ("visit hq", "action.bad_arguments", "'visit hq'"),
        ("visit gastro pink>red", "action.bad_exchange", "'pink>red'"),
        ("visit hq becky grey=pink", "action.unknown_colour", "'pink'"),
        ("correct teleport", "action.bad_correction", "'correct teleport'"),
    ],
)
def test_malformed_actions_are_told_apart_from_illegal_ones(demo, text, key, named):
    """Each refusal names what it refused, as the player or the record wrote it."""
    game, s = new_game(demo, seed=16)
    s = at_visits(game, s)
    with pytest.raises(MalformedAction) as refused:
        game.apply(s, text)
    assert refused.value.key == key
    assert named in refused.value.text("en")
    assert refused.value.text("pl") != refused.value.text("en")


def test_refusals_say_why_in_english_and_polish(demo):
    game, s = new_game(demo, seed=16)
    s = at_visits(game, with_fields(s, board=tokens()))
    with pytest.raises(IllegalAction) as refused:
        game.apply(s, "visit chimp")
    assert refused.value.text("en") == (
        "No blue token lies on the Chimp enclosure: you cannot visit it."
    )
    assert refused.value.text("pl") == (
        "Miejsce Wybieg szympansów nie ma żetonu w kolorze: niebieski. Nie można go odwiedzić."
    )


def test_a_refused_action_leaves_the_state_unchanged(demo):
    game, s = new_game(demo, seed=16)
    s = at_visits(game, with_fields(s, board=tokens()))
    before = s.to_json()
    with pytest.raises(IllegalAction):
        game.apply(s, "visit chimp")
    assert s.to_json() == before


@pytest.mark.parametrize(("given", "shown"), [(5, "5"), (["visit", "hq"], "['visit', 'hq']")])
def test_a_notation_that_is_not_text_is_refused_showing_what_it_was(given, shown):
    """The engines' own bound (a record's reader refuses such a line first, in its words)."""
    with pytest.raises(MalformedAction) as refused:
        Action.parse(given)
    assert refused.value.text("en") == f"Not an action: {shown}."
