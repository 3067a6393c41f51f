"""The printed rules the box's cards need: the rainbow "any token" cost, missions counting
several types or the different types, and a game played without the token mix."""

import io
import json

import pytest
from advanced_helpers import new_advanced
from advanced_helpers import random_playout as advanced_playout
from engine_checks import record_replays, refusals_change_nothing
from family_helpers import at_visits, new_game, random_playout, tokens
from positions import with_player

from rules.catalogue import Catalogue, CatalogueError, Effect, merge
from rules.catalogue.checking import problems
from rules.catalogue.teaching import refusal
from rules.colours import ANY, COLOURS, DIFFERENT, GREY
from rules.errors import IllegalAction, SetupError
from rules.pingwiny import effects
from rules.pingwiny.cards import MissionCard
from rules.pingwiny.payments import payments, price
from rules.players.sampling import sample
from rules.record import new_record


def cost(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(colour, 0) for colour in (*COLOURS, "any"))


def box(demo, overlay: dict) -> Catalogue:
    return Catalogue.from_dict(merge(demo.to_dict(), overlay, owner=True, source="test"))


def without_mix(demo) -> Catalogue:
    raw = demo.to_dict()
    raw["tokens"] = dict.fromkeys(COLOURS, "unknown")
    return Catalogue.from_dict(raw)


# ------------------------------------------------------------ the "any token" cost


def test_any_is_a_cost_colour_of_its_own_in_the_catalogue(demo):
    """Game Components, Tokens: "Any token – a token of any colour … Shown with a rainbow
    design." A cost may name it; a misspelt colour is still refused."""
    taught = box(demo, {"figurant": [{"id": "becky", "family": {"cost": {"red": 1, "any": 2}}}]})
    assert taught.figurant("becky").family.cost == cost(red=1, any=2)
    assert taught.to_dict()["figurant"][0]["family"]["cost"] == {"red": 1, "any": 2}
    wrong = {
        "meta": {"kind": "owner"},
        "figurant": [{"id": "becky", "family": {"cost": {"ani": 1}}}],
    }
    assert [str(p) for p in problems(wrong, "owner.toml")] == [
        "owner.toml: figurant 'becky': family.cost.ani: unknown colour 'ani' (did you mean 'any'?)"
    ]
    assert refusal("cost", {"any": 8}) == (
        "cost.tokens",
        {"low": 1, "high": 7, "n": 8},
    )


def test_any_is_paid_with_a_token_of_any_colour_grey_too():
    hand = tokens(red=1, white=1, grey=1)
    ways = payments(cost(red=1, any=1), hand)
    # the red as printed, and any of the other tokens for the rainbow; a grey paying the
    # rainbow is written any=grey, never as a joker, so each set of tokens is one way
    assert ways == [("any=grey",), ("any=white",), ("grey=red", "any=white")]
    assert price("x", cost(red=1, any=1), ("any=white",), hand) == list(tokens(red=1, white=1))
    assert price("x", cost(red=1, any=1), ("any=grey",), hand) == list(tokens(red=1, grey=1))
    with pytest.raises(IllegalAction) as refused:
        price("x", cost(red=1, any=1), (), hand)  # the rainbow must be paid
    assert refused.value.key == "illegal.any_tokens"
    with pytest.raises(IllegalAction):
        price("x", cost(red=1, any=1), ("any=blue",), hand)  # no blue held


def test_family_headquarters_pays_the_any_token_and_refuses_what_changes_nothing(demo):
    taught = box(demo, {"figurant": [{"id": "becky", "family": {"cost": {"yellow": 1, "any": 1}}}]})
    game, s = new_game(taught, seed=3, deck_order=_deck_with(taught, "becky"))
    s = at_visits(game, s)
    s = with_player(s, s.current, tokens=tokens(yellow=1, black=1))
    assert [str(a) for a in game.legal_actions(s) if a[:2] == ("visit", "hq")] == [
        "visit hq becky any=black"
    ]
    snapshot = json.dumps(s.to_json())
    for wrong in ("visit hq becky", "visit hq becky any=red", "visit hq becky any=black+black"):
        with pytest.raises(IllegalAction):
            game.apply(s, wrong)
    assert json.dumps(s.to_json()) == snapshot
    after, events = game.apply(s, "visit hq becky any=black")
    assert after.players[s.current].tokens == tokens()
    assert events[0]["paid"] == ["yellow", "black"]
    assert after.bag[COLOURS.index("black")] == s.bag[COLOURS.index("black")] + 1


def test_the_penguin_bonus_does_not_count_the_rainbow(demo):
    """Scoring: cards "that contain at least one token of the colour shown by your penguin
    card": the rainbow symbol is no token of the penguin's colour."""
    taught = box(demo, {"figurant": [{"id": "becky", "family": {"cost": {"any": 4}}}]})
    game, _ = new_game(taught, seed=1)
    assert not any(game.cards.figurants["becky"].cost[c] for c in range(ANY))
    assert game.cards.figurants["becky"].colours == frozenset()


def test_advanced_headquarters_and_the_acquire_action_pay_the_any_token(demo):
    taught = box(demo, {"figurant": [{"id": "gustav", "advanced": {"cost": {"any": 2}}}]})
    game, s = new_advanced(
        taught, seed=5, die="table", first=0, deck_order=_deck_with(taught, "gustav")
    )
    s = _acting(game, s)
    s = with_player(s, s.current, tokens=tokens(blue=1, grey=1))
    ways = {str(a) for a in game._legal_acquisitions(s, s.current) if a[1] == "gustav"}
    assert ways == {"hq gustav any=blue+grey"}
    options = effects.options(game, s, s.current, "dr-bulgot", Effect("acquire"))
    assert ("gustav", "any=blue+grey") in options


# ------------------------------------------------------------ several types, different types


def test_a_mission_counts_each_card_once_whichever_named_type_it_is():
    """Mission Cards: "Completing a mission means gathering figurant cards of a specified
    type." A mission naming several types counts every card of any of them, each once."""

    class Card:
        def __init__(self, kind):
            self.type = kind

    held = [Card("enemy"), Card("human"), Card("human"), Card("bird"), Card(None)]
    several = MissionCard("m", "M", ("enemy", "human"), ((2, 1), (3, 3)))
    assert several.count(held) == 3 and several.score(held) == 3
    different = MissionCard("d", "D", DIFFERENT, ((2, 1), (3, 4)))
    assert different.count(held) == 3 and different.score(held) == 4  # enemy, human, bird
    one = MissionCard("o", "O", "human", ((1, 1), (2, 2)))
    assert one.score(held) == 2


def test_several_types_and_different_types_in_the_catalogue_and_its_check(demo):
    taught = box(
        demo,
        {
            "mission": [
                {"id": "idealny-dzien", "advanced": {"type": "different", "scoring": [[3, 2]]}},
                {"id": "czlowieki", "family": {"type": ["human", "enemy"]}},
            ]
        },
    )
    assert taught.mission("idealny-dzien").advanced.type == DIFFERENT
    assert taught.mission("czlowieki").family.type == ("human", "enemy")
    back = {m["id"]: m for m in taught.to_dict()["mission"]}
    assert back["czlowieki"]["family"]["type"] == ["human", "enemy"]
    lines = [
        str(p)
        for p in problems(
            {
                "meta": {"kind": "owner"},
                "mission": [
                    {"id": "a", "advanced": {"type": ["human"]}},
                    {"id": "b", "advanced": {"type": ["human", "human"]}},
                    {"id": "c", "advanced": {"type": "different", "scoring": [[8, 1]]}},
                ],
            },
            "owner.toml",
        )
    ]
    assert lines == [
        "owner.toml: mission 'a': advanced.type: a list names two types or more, got ['human']",
        "owner.toml: mission 'b': advanced.type: a type named twice in ['human', 'human']",
        "owner.toml: mission 'c': advanced.scoring[0]: counts different types: at most 7, got 8",
    ]
    with pytest.raises(CatalogueError):
        box(demo, {"figurant": [{"id": "becky", "family": {"type": ["human", "enemy"]}}]})
    assert refusal("scoring", [[8, 1]], counts=DIFFERENT)[0] == "scoring.types"
    assert refusal("scoring", [[8, 1]], counts="human") is None


def test_both_variants_score_a_several_type_mission_the_advanced_one_by_partial_steps(demo):
    from rules.pingwiny.advanced_scoring import score_seat
    from rules.pingwiny.scoring import score_line

    steps = [[1, 1], [3, 4]]
    mission = {"type": ["enemy", "human"], "scoring": steps}
    taught = box(demo, {"mission": [{"id": "czlowieki", "family": mission, "advanced": mission}]})
    game, _ = new_game(taught, seed=1)
    kinds = {f: c.type for f, c in game.cards.figurants.items()}
    enemies = [f for f, k in kinds.items() if k == "enemy"][:1]
    humans = [f for f, k in kinds.items() if k == "human"][:1]
    others = [f for f, k in kinds.items() if k not in ("enemy", "human")][:1]
    line = score_line(game.cards, 0, "rico", enemies + humans + others, "czlowieki", 0)
    assert line.mission == 1  # two cards count: the first step only
    advanced, _ = new_advanced(taught, seed=1)
    seat = _Seat("rico", enemies + humans + others, (), ("czlowieki",))
    assert score_seat(advanced.cards, 0, seat).mission == 1


# ------------------------------------------------------------ without the token mix


def test_without_the_mix_the_app_cannot_be_the_bag(demo):
    with pytest.raises(SetupError) as refused:
        new_game(without_mix(demo), bag="app")
    assert refused.value.key == "setup.token_mix_unknown"
    with pytest.raises(SetupError):
        new_advanced(without_mix(demo), bag="app")


def test_a_colour_not_counted_is_held_at_most_at_the_box_total_less_the_colours_counted(demo):
    """Game Components: "104 tokens." A table that counted its red (20) and blue (16) tokens
    only: each other colour is at most 104 - 36 = 68 in the bag the engine keeps bounds of."""
    raw = demo.to_dict()
    raw["tokens"] = dict.fromkeys(COLOURS, "unknown") | {"red": 20, "blue": 16}
    game, _ = new_game(Catalogue.from_dict(raw), bag="table")
    assert game.cards.tokens == tuple({"red": 20, "blue": 16}.get(c, 68) for c in COLOURS)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_family_game_plays_without_the_mix_and_replays(demo, seed):
    box_ = without_mix(demo)
    game, s = new_game(box_, seed=seed, bag="table")
    assert not game.cards.mix_known
    record = new_record("pingwiny", "family", game.options, box_)
    final = record_replays(record, random_playout(game, s, seed, eager=True))
    assert final.phase == "over"
    refusals_change_nothing(game, random_playout(game, s, seed, limit=40), ["draw pink", "x"])


def test_a_whole_advanced_game_plays_without_the_mix_and_replays(demo):
    box_ = without_mix(demo)
    game, s = new_advanced(box_, seed=4, bag="table", die="table")
    record = new_record("pingwiny", "advanced", game.options, box_)
    final = record_replays(record, advanced_playout(game, s, 4))
    assert final.phase == "over"


def test_without_the_mix_any_colour_may_be_drawn_and_nothing_is_checked_against_a_count(demo):
    game, s = new_game(without_mix(demo), seed=1, bag="table")
    draws = [str(a) for a in game.legal_actions(s) if a.verb == "draw"]
    assert (
        "draw grey grey grey grey grey" in draws and "draw black black black black black" in draws
    )
    # each colour is bounded by the box's 104 tokens, the most it could hold
    assert s.bag == (104,) * 7


def test_virtual_players_believe_an_even_split_never_the_bounds(demo):
    game, s = new_game(without_mix(demo), seed=1, bag="table")
    believed = sample(s, 7, game)
    assert believed.bag == (15, 15, 15, 15, 15, 15, 14)  # 104 shared among seven colours
    assert s.bag == (104,) * 7  # the state itself keeps the bounds
    after, _ = game.apply(s, "draw red red red blue grey")
    assert sample(after, 7, game).bag == (12, 14, 15, 15, 14, 15, 14)
    advanced, a = new_advanced(without_mix(demo), seed=1, bag="table")
    imagined = sample(a, 7, advanced)
    assert imagined.bag[GREY] == 0 and imagined.grey == 15  # greys lie beside the board


# ------------------------------------------------------------ helpers


class _Seat:
    def __init__(self, penguin, figurants, discarded, missions):
        self.penguin, self.figurants, self.discarded = penguin, tuple(figurants), discarded
        self.missions, self.tokens = missions, (0,) * 7


def _deck_with(catalogue, card: str) -> tuple[str, ...]:
    """The figurant deck with ``card`` on top, so it is laid face up at setup."""
    ids = [f.id for f in catalogue.figurants_in_play(False)]
    return (card, *[i for i in ids if i != card])


def _acting(game, s):
    """Play the setup's draws and reveals until the first player may act."""
    while s.phase == "draw" or s.pending or s.pending_missions:
        s, _ = game.apply(s, game.legal_actions(s)[0])
    return s


def test_catalogue_check_takes_a_rainbow_cost_and_several_type_missions(tmp_path):
    from firmware_app.store import catalogue_files

    owner = tmp_path / "owner.toml"
    owner.write_text(
        'meta = { kind = "owner" }\n'
        '[[figurant]]\nid = "becky"\nfamily = { cost = { yellow = 3, any = 1 } }\n'
        '[[mission]]\nid = "idealny-dzien"\n'
        'advanced = { type = "different", scoring = [[3, 2], [5, 4]] }\n'
        '[[mission]]\nid = "czlowieki"\nfamily = { type = ["human", "enemy"] }\n',
        encoding="utf-8",
    )
    out = io.StringIO()
    assert catalogue_files.check_command([str(owner)], out) == 0
    assert out.getvalue().splitlines()[0] == "ok"
    owner.write_text(
        'meta = { kind = "owner" }\n[[mission]]\nid = "czlowieki"\n'
        'family = { type = ["human", "enemy", "enemi"] }\n',
        encoding="utf-8",
    )
    out = io.StringIO()
    assert catalogue_files.check_command([str(owner)], out) == 1
    assert "family.type[2]: unknown type 'enemi' (did you mean 'enemy'?)" in out.getvalue()


# ------------------------------------------------------------ the rainbow in the engines' sums


@pytest.mark.parametrize(
    ("printed", "rewarded"),
    [({"red": 3, "blue": 3, "any": 1}, True), ({"red": 3, "blue": 3}, False)],
    ids=["six colours and a rainbow", "six colours"],
)
def test_the_rainbow_token_counts_towards_the_seven_tokens_of_the_grey_reward(
    demo, printed, rewarded
):
    """Advanced, Headquarters: "After acquiring a figurant card whose cost was 7 tokens, the
    player receives an extra reward – a grey token"; the rainbow is a token of the cost
    (docs/rules-interpretations.md, "The rainbow "any token" cost"): 6 + 1 make 7."""
    taught = box(demo, {"figurant": [{"id": "gustav", "advanced": {"cost": printed}}]})
    game, s = new_advanced(
        taught, seed=5, die="table", first=0, deck_order=_deck_with(taught, "gustav")
    )
    s = _acting(game, s)
    p = s.current
    s = with_player(s, p, tokens=tokens(red=3, blue=3, white=printed.get("any", 0)))
    after, events = game.apply(s, "hq gustav any=white" if "any" in printed else "hq gustav")
    assert after.players[p].figurants == ("gustav",)
    assert ({"event": "grey_reward", "player": p} in events) is rewarded
    assert after.players[p].tokens == (tokens(grey=1) if rewarded else tokens())


def test_the_penguin_bonus_does_not_count_the_rainbow_on_the_score_sheet(demo):
    """Scoring: "1 extra victory point for every 2 figurant cards you acquired that contain
    at least one token of the colour shown by your penguin card"; the rainbow is no token of
    the penguin's colour (docs/rules-interpretations.md). Rico (red) holding two cards that
    show only blue and the rainbow gets no bonus; two with a red in them get 2 // 2 = 1."""
    from rules.pingwiny.advanced_scoring import score_seat
    from rules.pingwiny.scoring import score_line

    rainbow = {"blue": 1, "any": 3}
    red = {"red": 1, "any": 3}
    for side in ("family", "advanced"):
        for printed, bonus in ((rainbow, 0), (red, 1)):
            overlay = [{"id": i, side: {"cost": printed}} for i in ("becky", "gustav")]
            taught = box(demo, {"figurant": overlay})
            if side == "family":
                game, s = new_game(taught, seed=1)
                line = score_line(game.cards, 0, "rico", ("becky", "gustav"), None, 0)
            else:
                game, s = new_advanced(taught, seed=5)
                seat = s.players[0]._replace(
                    penguin="rico", figurants=("becky", "gustav"), discarded=(), missions=(),
                    tokens=tokens(),
                )  # fmt: skip
                line = score_seat(game.cards, 0, seat)
            assert line.penguin_bonus == bonus, (side, printed)
