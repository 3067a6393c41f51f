"""The family variant's worked examples from the rulebook, step by step.

The demo deck was made consistent with them: Becky's printed cost (1 white,
4 yellow) and, for Iza's score, seven cards worth 14 points of which 3 are
enemies and 5 show a red token. Those values are made up; the examples'
totals are the rulebook's.
"""

from family_helpers import new_game, tokens
from positions import with_fields, with_player

from rules.actions import Action
from rules.colours import YELLOW
from rules.pingwiny.position import score_position

IZA_CARDS = ["king-julian", "mort", "burt", "king-of-the-rats", "szczury", "becky", "buck-rogut"]


def test_iza_turn_with_the_gastro_exchange(demo):
    """Example Turn: draw yellow + blue, 2 black for a yellow from the bag, then Becky."""
    deck = ["becky"] + [f.id for f in demo.figurants_in_play(False) if f.id != "becky"]
    game, s = new_game(
        demo, players=2, bag="table", first=0, deck_order=tuple(deck), names=("Iza", "Ola")
    )
    s, _ = game.apply(s, "draw black black white yellow yellow")  # Iza's five at setup
    s, _ = game.apply(s, "draw red red blue green green")  # the other player's five
    assert s.board[YELLOW] == 0  # "there is no yellow token on the Souvenir shop yet"

    s, events = game.apply(s, "draw yellow blue")
    assert s.players[0].tokens == tokens(black=2, white=1, yellow=3, blue=1)

    bag_before = s.bag
    s, events = game.apply(s, "visit gastro black+black>yellow")
    assert events[0] == {
        "event": "exchanged",
        "player": 0,
        "gave": ["black"] * 2,
        "got": ["yellow"],
    }
    assert s.board[YELLOW] == 0, "the yellow came from the bag"
    assert s.bag == tuple(
        n + {"black": 2, "yellow": -1}.get(c, 0)
        for c, n in zip(
            ("red", "blue", "green", "yellow", "grey", "white", "black"), bag_before, strict=True
        )
    )
    assert s.players[0].tokens == tokens(white=1, yellow=4, blue=1)

    top = s.deck[0][0]
    assert Action("visit", "hq", "becky") in game.legal_actions(s)
    s, events = game.apply(s, "visit hq becky")
    assert events[0] == {
        "event": "acquired",
        "player": 0,
        "card": "becky",
        "paid": ["yellow"] * 4 + ["white"],
    }
    assert s.players[0].figurants == ("becky",)
    assert s.players[0].tokens == tokens(blue=1)
    assert s.board[YELLOW] == 4, "4 yellow tokens placed on the Souvenir shop"
    assert s.faceup[0] == top, "the top card of the deck takes Becky's place"
    assert (s.current, s.phase) == (1, "draw"), "the player to her left continues"


def test_iza_as_first_player_the_others_finish_the_round(demo):
    """Iza was the first player, so the other players finish their turns."""
    game, s = new_game(demo, players=3, first=0, seed=5)
    s, _ = game.apply(with_fields(s, deck=s.deck[:1]), "draw")
    s, _ = game.apply(s, "visit gate")
    s = with_player(s, 0, tokens=game.cards.figurants[s.faceup[0]].cost)
    s, events = game.apply(s, f"visit hq {s.faceup[0]}")
    assert s.last_round, "the deck's last card took the acquired card's place"
    assert (s.current, s.phase) == (1, "draw"), "the others still play"
    for _ in range(2):
        while s.phase != "over" and s.current != 0:
            s, _ = game.apply(s, game.legal_actions(s)[0])
    assert s.phase == "over" and s.turns == 3


def test_iza_final_score_is_15(demo):
    """Example Scoring: 14 from cards, 1 from The Best Enemy, 2 from Rico, minus 2."""
    position = {
        "players": [
            {
                "name": "Iza",
                "penguin": "rico",
                "mission": "najlepszy-wrog",
                "figurants": IZA_CARDS,
                "tokens": {"red": 1, "blue": 1},
            },
            {"name": "Ola", "penguin": "skipper", "mission": None, "figurants": [], "tokens": 0},
        ]
    }
    sheet, names = score_position(demo, position)
    iza = sheet.lines[0]
    assert (iza.figurants, iza.mission, iza.penguin_bonus, iza.penalty) == (14, 1, 2, -2)
    assert iza.total == 15
    assert names[sheet.winners[0]] == "Iza" and sheet.decided_by == "points"
