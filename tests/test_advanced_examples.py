"""The advanced variant's worked examples from the rulebook, step by step.

Positions are the rulebook's; the values it does not print (most costs and
points) come from the demo deck, which was made consistent with these
examples. The examples' steps and totals are the rulebook's.
"""

from advanced_helpers import LAYOUT, new_advanced, reveal_all
from family_helpers import tokens
from positions import play
from positions import with_fields as fields
from positions import with_player as seat

from rules.actions import Action
from rules.colours import BLUE, GREY, YELLOW
from rules.pingwiny.advanced_scoring import score_seat
from rules.pingwiny.board import HQ_SQUARE

GATE, LEMUR, GASTRO, SHOP = 1, 0, 5, 6


def test_gosia_zoo_gate_and_lemur_turn(demo):
    """Page 16: gate, exchange the missions, Lemur, take Człowieki, draw 2 at the end."""
    game, s = new_advanced(demo, players=2, first=0, deck="table", layout=LAYOUT, seed=1)
    s = reveal_all(game, s, keep=("czlowieki",))
    assert "czlowieki" not in s.mission_row and "czlowieki" in s.mission_deck[0]
    s, _ = play(game, s, "move gate")
    assert s.actions_left == 3
    row = s.mission_row
    s, events = play(game, s, "gate missions")
    assert {"event": "cycled", "what": "missions", "cards": list(row)} in events
    assert s.mission_deck[-1] == tuple(sorted(row)), "the old row is under the deck"
    s, _ = play(game, s, "reveal-mission czlowieki")
    s = reveal_all(game, s)
    assert "czlowieki" in s.mission_row
    s, _ = play(game, s, "move lemur", "lemur czlowieki")
    s = reveal_all(game, s)
    gosia = s.players[0]
    assert gosia.missions == ("czlowieki",)
    assert s.phase == "act" and s.current == 1, "the turn passed on"
    assert sum(gosia.tokens) == 5 + 2, "she drew 2 tokens on the uncovered bag symbol"


def test_adam_gastro_chain(demo):
    """Page 17: push Rico aside (2 actions), two Gastro actions of chained exchanges."""
    game, s = new_advanced(demo, players=2, first=0, layout=LAYOUT, seed=2)
    s = seat(s, 0, tokens=tokens(white=5, black=3))
    s = seat(s, 1, square=GASTRO, spot="w")  # Rico blocks the edge facing Headquarters
    s = fields(s, markers=(GASTRO,), board=tokens(blue=1))
    s, events = play(game, s, "move gastro")
    assert {"event": "pushed", "player": 1, "by": 0} in events
    assert s.players[1].spot == "middle" and s.actions_left == 2
    s, _ = play(
        game,
        s,
        "gastro",
        "exchange white+white>black",
        "exchange white+white>black",
        "exchange black+black>white",
    )
    assert s.players[0].tokens == tokens(white=2, black=3)
    assert Action("exchange", "black+black>white") not in game.legal_actions(s), (
        "the blacks just received cannot be exchanged again in the same action"
    )
    s, _ = play(game, s, "done")
    assert s.actions_left == 1
    s, _ = play(game, s, "gastro", "exchange white+white>black", "exchange black+black>blue")
    s, events = play(game, s, "done")
    assert s.players[0].tokens == tokens(black=2, blue=1)
    assert s.board[BLUE] == 0, "the blue came from the Chimp enclosure"
    assert not any(e["event"] == "drew" for e in events), "covered bag symbol: no draw"
    assert s.current == 1


def kuba_position(demo):
    game, s = new_advanced(
        demo,
        players=3,
        first=0,
        layout=LAYOUT,
        penguins=("kowalski", "rico", "szeregowy"),
        bag="table",
        die="table",
        seed=3,
    )
    for _ in range(3):  # the setup draws; the hands are then set as in the example
        s, _ = game.apply(s, game.legal_actions(s)[0])
    s = seat(
        s,
        0,
        tokens=tokens(black=3, blue=1, red=1, grey=1),
        missions=("krolestwo-za-kciuk",),
        figurants=("shawna", "mason", "edek", "gladys"),
    )
    s = seat(s, 1, square=SHOP, tokens=tokens(red=2))
    s = seat(s, 2, square=SHOP, spot="n", tokens=tokens(green=1))
    wanted = ("antonio", "gustav")
    faceup = wanted + tuple(c for c in s.faceup if c not in wanted)[:3]
    deck = tuple((c,) for group in s.deck for c in group if c not in faceup)
    return game, fields(s, faceup=faceup, deck=deck, markers=(GASTRO,), board=tokens(yellow=1))


def test_kuba_card_actions_and_antonio(demo):
    """Page 19: Gladys draws a white, Shawna takes a yellow, Antonio is acquired."""
    game, s = kuba_position(demo)
    assert not any(a.verb == "rummage" for a in game.legal_actions(s)), "HQ has no bag symbol"
    s, _ = play(game, s, "use gladys white", "use shawna")
    kuba = s.players[0]
    assert kuba.discarded == ("gladys", "shawna")
    assert kuba.tokens == tokens(black=3, blue=1, red=1, grey=1, white=1, yellow=1)
    s, events = play(game, s, "hq antonio grey=yellow")
    assert events[0]["paid"] == ["blue", "yellow", "grey", "black", "black"]
    assert s.players[0].tokens == tokens(red=1, white=1, black=1)
    assert s.board[YELLOW] == 1 and s.board[BLUE] == 1 and s.box[GREY] == 1
    assert s.phase == "roll"


def test_officer_x_unmasks_rico_and_szeregowy(demo):
    """Page 20: Antonio's range is 1–2, a 2 is rolled, the marker goes on the Souvenir shop."""
    game, s = kuba_position(demo)
    s, _ = play(game, s, "use gladys white", "use shawna", "hq antonio grey=yellow")
    s, events = play(game, s, "roll 2")
    assert {"event": "rolled", "roll": 2, "range": [1, 2], "found": True} in events
    places = {a[1] for a in game.legal_actions(s)}
    assert "hq" not in places and "gastro" not in places, "no HQ, no second marker"
    s, events = play(game, s, "officer shop")
    assert {"event": "officer_x", "location": "shop", "unmasked": [1, 2]} in events
    s, _ = play(game, s, "lose red", "lose green")
    assert sum(s.players[1].tokens) == 1 and sum(s.players[2].tokens) == 0
    assert s.phase == "act" and s.actions_left == 1
    assert Action("hq", "gustav") in game.legal_actions(s), "he could acquire Gustav"
    s, events = play(game, s, "penguin")
    kuba = s.players[0]
    assert kuba.penguin_used and kuba.tokens[BLUE] == 2, "Kowalski draws 2 blue tokens"
    assert s.current == 1, "no bag symbol on Headquarters: no draw at the end"


def test_gosia_last_round_and_final_actions(demo):
    """Page 21: the last marker ends the game; the others play; Dr Bulgot gives a token."""
    game, s = new_advanced(demo, players=3, first=0, layout=LAYOUT, die="table", seed=4)
    free = [sq for sq in range(9) if sq not in (HQ_SQUARE, LEMUR)]
    card = s.faceup[0]
    cost = game.cards.figurants[card].cost[:7]
    s = fields(s, markers=tuple(free), actions_left=1)  # her fourth action
    s = seat(s, 0, tokens=tuple(n + (c == 6) for c, n in enumerate(cost)), figurants=("dr-bulgot",))
    s, _ = play(game, s, f"hq {card}")
    low = game.cards.figurants[card].officer_x[0]
    s, events = play(game, s, f"roll {low}", "officer lemur")
    assert {"event": "last_round", "why": "officer_x"} in events
    assert s.current == 1, "her turn is over"
    for player in (1, 2):
        assert s.current == player and s.phase in ("act", "end_draw")
        while s.current == player and s.phase != "final":
            s, _ = game.apply(s, game.legal_actions(s)[0])
    assert s.phase == "final" and s.current == 0
    give = [a for a in game.legal_actions(s) if a[:2] == ("use", "dr-bulgot")][0]
    s, events = play(game, s, str(give))
    assert events[0]["event"] == "gave"
    assert "dr-bulgot" in s.players[0].discarded
    while s.phase == "final":
        s, _ = play(game, s, "pass")
    assert s.phase == "over"


def test_filip_scores_20(demo):
    """Page 22: cards 12, missions 3 + 2, Szeregowy 3, Zoe 1, penalty −1."""
    game, s = new_advanced(demo, players=2, seed=5)
    filip = s.players[0]._replace(
        penguin="szeregowy",
        missions=("krolestwo-za-kciuk", "czlowieki"),
        figurants=("gladys", "fred", "edek", "joey", "alice", "zoe", "max-kolanko", "lolo"),
        discarded=(),
        tokens=tokens(red=1),
    )
    line = score_seat(game.cards, 0, filip)
    assert (line.figurants, line.mission, line.penguin_bonus, line.bonus, line.penalty) == (
        12,
        5,
        3,
        1,
        -1,
    )
    assert line.total == 20
