"""Each problem the catalogue check names, word for word, with the card and field it names.

An owner reads these lines (``tableside catalogue check``, docs/catalogue.md) to mend a file
by hand: a line that names the wrong field, drops the value it got or says the wrong thing
sends them looking in the wrong place. Each case is the smallest table with one fault.
"""

import tomllib
from pathlib import Path
from typing import Any

import pytest

from rules.catalogue import CatalogueError, build, problems

DATA = Path(__file__).parents[1] / "rules" / "data"

ALL_COLOURS = "red, blue, green, yellow, grey, white, black"
BAG = "red, blue, green, yellow, white, black"
BOARD = "red, blue, green, yellow"


def figurant(**fields: Any) -> dict:
    return {"figurant": [{"id": "becky", **fields}]}


def mission(**fields: Any) -> dict:
    return {"mission": [{"id": "wrog", **fields}]}


def effect(section: str, value: Any) -> dict:
    if section == "penguin":
        return {"penguin": [{"id": "rico", "advanced": {"effect": value}}]}
    return {section: [{"id": "becky", "advanced": {"effect": value}}]}


OVERLAY_CASES = {
    "not a table": ([1], ["expected a table of tables"]),
    "unknown section": (
        {"figurants": []},
        ["figurants: unknown key 'figurants' (did you mean 'figurant'?)"],
    ),
    "meta not a table": ({"meta": 5}, ["meta: expected a table, got 5"]),
    "tokens not a table": ({"tokens": "many"}, ["tokens: expected a table, got 'many'"]),
    "meta key": (
        {"meta": {"nots": []}},
        ["meta: nots: unknown key 'nots' (did you mean 'notes'?)"],
    ),
    "another game": ({"meta": {"game": "chess"}}, ["meta: game: expected 'pingwiny', got 'chess'"]),
    "kind": ({"meta": {"kind": "own"}}, ["meta: kind: unknown kind 'own' (did you mean 'owner'?)"]),
    "kind not text": ({"meta": {"kind": 2}}, ["meta: kind: expected a kind name, got 2"]),
    "blank label": ({"meta": {"label": " "}}, ["meta: label: expected a name, got ' '"]),
    "count of none": (
        {"meta": {"figurant_count": 0}},
        ["meta: figurant_count: expected a count, got 0"],
    ),
    "count as a switch": (
        {"meta": {"token_total": True}},
        ["meta: token_total: expected a count, got True"],
    ),
    "demo without a label": (
        {"meta": {"kind": "demo"}},
        ["meta: label: missing: a demo overlay must say what it is"],
    ),
    "sources not a table": (
        {"meta": {"sources": ["p. 3"]}},
        ["meta: sources: expected a table of field = quote, got ['p. 3']"],
    ),
    "source of no count": (
        {"meta": {"sources": {"game": "p. 1"}}},
        [
            "meta: sources.game: unknown field 'game' "
            "(expected one of: figurant_count, mission_count, token_total)"
        ],
    ),
    "blank source": (
        {"meta": {"sources": {"token_total": " "}}},
        ["meta: sources.token_total: expected the quoted passage, got ' '"],
    ),
    "notes not a list": (
        {"meta": {"notes": "see p. 3"}},
        ["meta: notes: expected a list of strings, got 'see p. 3'"],
    ),
    "a note not text": (
        figurant(notes=["seen at the zoo", 3]),
        ["figurant 'becky': notes: expected a list of strings, got ['seen at the zoo', 3]"],
    ),
    "token colour": (
        {"tokens": {"pink": 3}},
        [f"tokens: pink: unknown key 'pink' (expected one of: {ALL_COLOURS}, sources)"],
    ),
    "token count": ({"tokens": {"red": -1}}, ["tokens: red: must be at least 0, got -1"]),
    "token count as text": (
        {"tokens": {"red": "ten"}},
        ["tokens: red: expected a whole number or \"unknown\", got 'ten'"],
    ),
    "token source": (
        {"tokens": {"sources": {"rde": "p. 2"}}},
        ["tokens: sources.rde: unknown field 'rde' (did you mean 'red'?)"],
    ),
    "section not a list": (
        {"figurant": {"id": "becky"}},
        ["figurant: expected [[figurant]] tables, got {'id': 'becky'}"],
    ),
    "card not a table": ({"mission": [{"id": "wrog"}, 7]}, ["mission #2: expected a table, got 7"]),
    "no id": (
        {"figurant": [{"name": "Becky"}]},
        ["figurant #1: id: missing: expected lower-case letters, digits and dashes"],
    ),
    "id in capitals": (
        {"penguin": [{"id": "Rico"}]},
        ["penguin #1: id: got 'Rico': expected lower-case letters, digits and dashes"],
    ),
    "duplicate id, second and third": (
        {"figurant": [{"id": "a"}, {"id": "b"}, {"id": "a"}, {"id": "a"}]},
        [
            "figurant 'a': id: duplicate id (figurant #1 has it too)",
            "figurant 'a': id: duplicate id (figurant #1 has it too)",
        ],
    ),
    "card key": (
        {"penguin": [{"id": "rico", "family": {}}]},
        [
            "penguin 'rico': family: unknown key 'family' (expected one of: id, name, english, "
            "polish_translation, colour, advanced, sources, notes)"
        ],
    ),
    "name unknown": (
        figurant(name="unknown"),
        ["figurant 'becky': name: expected a name, got 'unknown'"],
    ),
    "english not text": (
        figurant(english=3),
        ["figurant 'becky': english: expected a name, got 3"],
    ),
    "short game": (
        figurant(short_game="remove"),
        [
            "figurant 'becky': short_game: unknown short-game choice 'remove' "
            "(did you mean 'removed'?)"
        ],
    ),
    "family set": (
        mission(family_set="yes"),
        ["mission 'wrog': family_set: expected true or false, got 'yes'"],
    ),
    "penguin colour": (
        {"penguin": [{"id": "rico", "colour": "pinkish"}]},
        [f"penguin 'rico': colour: unknown colour 'pinkish' (expected one of: {ALL_COLOURS})"],
    ),
    "side not a table": (figurant(family=3), ["figurant 'becky': family: expected a table, got 3"]),
    "cost count": (
        figurant(family={"cost": {"red": "two"}}),
        ["figurant 'becky': family.cost.red: expected a whole number or \"unknown\", got 'two'"],
    ),
    "cost colour not text": (
        figurant(family={"cost": {1: 2}}),
        ["figurant 'becky': family.cost.1: expected a colour name, got 1"],
    ),
    "points": (
        figurant(advanced={"points": -2}),
        ["figurant 'becky': advanced.points: must be at least 0, got -2"],
    ),
    "figurant type": (
        figurant(family={"type": "different"}),
        [
            "figurant 'becky': family.type: unknown type 'different' "
            "(expected one of: bird, human, mammal, enemy, reptile, amphibian, insect)"
        ],
    ),
    "officer x the wrong way round": (
        figurant(advanced={"officer_x": [4, 2]}),
        [
            "figurant 'becky': advanced.officer_x: "
            'expected [low, high] within 1..6, or "unknown", got [4, 2]'
        ],
    ),
    "officer x of one end": (
        figurant(advanced={"officer_x": [3]}),
        [
            "figurant 'becky': advanced.officer_x: "
            'expected [low, high] within 1..6, or "unknown", got [3]'
        ],
    ),
    "card text": (
        figurant(advanced={"text": 5}),
        ["figurant 'becky': advanced.text: expected text or \"unknown\", got 5"],
    ),
    "action text": (
        {"penguin": [{"id": "rico", "advanced": {"action_text": ["a"]}}]},
        ["penguin 'rico': advanced.action_text: expected text or \"unknown\", got ['a']"],
    ),
    "mission type not text": (
        mission(family={"type": 4}),
        ["mission 'wrog': family.type: expected a type, a list of types or \"different\", got 4"],
    ),
    "mission type misspelt": (
        mission(family={"type": "brid"}),
        ["mission 'wrog': family.type: unknown type 'brid' (did you mean 'bird'?)"],
    ),
    "mission types of one": (
        mission(family={"type": ["bird"]}),
        ["mission 'wrog': family.type: a list names two types or more, got ['bird']"],
    ),
    "mission type twice": (
        mission(advanced={"type": ["bird", "human", "bird"]}),
        ["mission 'wrog': advanced.type: a type named twice in ['bird', 'human', 'bird']"],
    ),
    "mission type in a list misspelt": (
        mission(family={"type": ["bird", "humna"]}),
        ["mission 'wrog': family.type[1]: unknown type 'humna' (did you mean 'human'?)"],
    ),
    "scoring not a list": (
        mission(family={"scoring": "3 points"}),
        [
            "mission 'wrog': family.scoring: expected a list of [at_least, points] pairs, "
            "or \"unknown\", got '3 points'"
        ],
    ),
    "scoring from 0": (
        mission(family={"scoring": [[0, 1], [1, -1], [2, 3, 4], [3, 5]]}),
        [
            f"mission 'wrog': family.scoring[{n}]: expected [at_least, points] with counts "
            f"rising from 1 and points of 0 or more, got {pair}"
            for n, pair in ((0, [0, 1]), (1, [1, -1]), (2, [2, 3, 4]))
        ],
    ),
    "a step of 0 points": (
        mission(family={"scoring": [[1, 0], [2, 3]]}),
        [],
    ),
    "more different types than there are": (
        mission(advanced={"type": "different", "scoring": [[3, 1], [8, 5]]}),
        [
            "mission 'wrog': advanced.scoring[1]: counts different types: at most 7, got 8",
        ],
    ),
    "seven different types": (
        mission(advanced={"type": "different", "scoring": [[7, 5]]}),
        [],
    ),
    "effect not a table": (
        effect("figurant", "maybe"),
        [
            "figurant 'becky': advanced.effect: "
            'expected { do = "..." }, "none" or "unknown", got \'maybe\''
        ],
    ),
    "effect without do": (
        effect("figurant", {"count": 1}),
        ["figurant 'becky': advanced.effect.do: missing"],
    ),
    "do none": (
        effect("penguin", {"do": "none"}),
        [
            "penguin 'rico': advanced.effect.do: "
            'not a primitive: write effect = "none" for a card without one'
        ],
    ),
    "a figurant's effect on a mission": (
        effect("mission", {"do": "take"}),
        [
            "mission 'becky': advanced.effect.do: "
            "'take' is not a mission effect (expected one of: no_penalty, extra_mission)"
        ],
    ),
    "a permanent effect on a penguin": (
        effect("penguin", {"do": "immune", "cards": ["becky"]}),
        [
            "penguin 'rico': advanced.effect.do: 'immune' is not a penguin effect (expected one "
            "of: draw, draw_colour, take, give, steal, remove_marker, move, grey, steal_choice, "
            "others_discard, acquire)"
        ],
    ),
    "effect misspelt": (
        effect("figurant", {"do": "tkae"}),
        [
            "figurant 'becky': advanced.effect.do: unknown figurant effect 'tkae' "
            "(did you mean 'take'?)"
        ],
    ),
    "effect not named by text": (
        effect("figurant", {"do": 3}),
        ["figurant 'becky': advanced.effect.do: expected a figurant effect name, got 3"],
    ),
    "a parameter of none": (
        effect("figurant", {"do": "move", "count": 1}),
        ["figurant 'becky': advanced.effect.count: unknown key 'count' (move takes no parameters)"],
    ),
    "a parameter misspelt": (
        effect("figurant", {"do": "take", "colour": "red", "cont": 1}),
        [
            "figurant 'becky': advanced.effect.cont: unknown key 'cont' (did you mean 'count'?)",
            "figurant 'becky': advanced.effect.count: missing",
        ],
    ),
    "a count of none": (
        effect("figurant", {"do": "draw", "count": 0}),
        ["figurant 'becky': advanced.effect.count: expected a whole number of at least 1, got 0"],
    ),
    "grey from the bag": (
        effect("figurant", {"do": "draw_colour", "colour": "grey", "count": 1}),
        [
            "figurant 'becky': advanced.effect.colour: there are no grey tokens in the bag "
            f"(expected one of: {BAG})"
        ],
    ),
    "white from the board": (
        effect("figurant", {"do": "take", "colour": "white", "count": 1}),
        [
            "figurant 'becky': advanced.effect.colour: there are no white tokens on the board "
            f"(expected one of: {BOARD})"
        ],
    ),
    "a colour that is none": (
        effect("figurant", {"do": "take", "colour": "pink", "count": 1}),
        [
            "figurant 'becky': advanced.effect.colour: unknown colour 'pink' "
            f"(expected one of: {BOARD})"
        ],
    ),
    "bonus per type": (
        effect("figurant", {"do": "bonus_per_type", "type": "birds", "points": 1}),
        ["figurant 'becky': advanced.effect.type: unknown type 'birds' (did you mean 'bird'?)"],
    ),
    "immune to no cards": (
        effect("figurant", {"do": "immune", "cards": []}),
        ["figurant 'becky': advanced.effect.cards: expected a list of figurant ids, got []"],
    ),
    "immune to a card not named by an id": (
        effect("figurant", {"do": "immune", "cards": ["hans", "Mort"]}),
        ["figurant 'becky': advanced.effect.cards[1]: expected a figurant id, got 'Mort'"],
    ),
    "bonus with a card not named by an id": (
        effect("figurant", {"do": "bonus_with", "card": 5, "points": 2}),
        ["figurant 'becky': advanced.effect.card: expected a figurant id, got 5"],
    ),
    "too many cards": (
        {"meta": {"mission_count": 1}, "mission": [{"id": "a"}, {"id": "b"}]},
        ["mission: 2 cards, but the box has 1"],
    ),
    "as many cards as the box": (
        {"meta": {"mission_count": 2}, "mission": [{"id": "a"}, {"id": "b"}]},
        [],
    ),
    "tokens that do not add up": (
        {
            "meta": {"token_total": 104},
            "tokens": dict.fromkeys(("red", "blue", "green", "yellow", "white", "black"), 15)
            | {"grey": 10},
        },
        ["tokens: the colours add up to 100, not 104"],
    ),
}


@pytest.mark.parametrize(("raw", "expected"), OVERLAY_CASES.values(), ids=OVERLAY_CASES)
def test_each_problem_of_an_owners_file_is_named_word_for_word(raw: Any, expected: list) -> None:
    assert [str(problem) for problem in problems(raw, "owner.toml")] == [
        f"owner.toml: {line}" for line in expected
    ]


def printed(**parts: Any) -> dict:
    """A printed file's table: every field is written out and every known value sourced."""
    return {"meta": {"kind": "printed"}} | parts


PRINTED_CASES = {
    "a token colour left out": (
        printed(tokens={colour: "unknown" for colour in ALL_COLOURS.split(", ")[1:]}),
        'tokens: red: missing (write "unknown" if the rulebook does not say)',
    ),
    "a side left out": (
        printed(figurant=[{"id": "becky", "name": "Becky", "family": {}}]),
        "figurant 'becky': advanced: missing (write \"unknown\" for each value not known)",
    ),
    "a side's value left out": (
        printed(figurant=[{"id": "becky", "name": "Becky", "family": {"cost": "unknown"}}]),
        "figurant 'becky': family.points: missing (write \"unknown\" if the rulebook does not say)",
    ),
    "a colour left out": (
        printed(penguin=[{"id": "rico", "name": "Rico"}]),
        "penguin 'rico': colour: missing",
    ),
    "a known value without its source": (
        printed(figurant=[{"id": "becky", "name": "Becky", "family": {"points": 3}}]),
        "figurant 'becky': family.points: known value without a source "
        "(quote the rulebook passage)",
    ),
    "a source for an unknown value": (
        printed(
            figurant=[
                {
                    "id": "becky",
                    "name": "Becky",
                    "family": {"points": "unknown"},
                    "sources": {"name": "p. 4", "family.points": "p. 5"},
                }
            ]
        ),
        "figurant 'becky': sources.family.points: a source for a value that is unknown",
    ),
    "a meta field left out": (printed(), "meta: game: missing"),
}


@pytest.mark.parametrize(("raw", "line"), PRINTED_CASES.values(), ids=PRINTED_CASES)
def test_a_printed_file_names_each_value_it_leaves_out_or_does_not_source(
    raw: dict, line: str
) -> None:
    assert f"pingwiny.toml: {line}" in [str(p) for p in problems(raw, "pingwiny.toml")]


def test_a_card_may_say_it_is_kept_in_the_short_game() -> None:
    """docs/catalogue.md: `short_game = "removed"`, left out: "kept"; written out, it is no
    problem either."""
    assert problems(figurant(short_game="kept"), "owner.toml") == []
    assert problems(mission(short_game="kept"), "owner.toml") == []


def test_a_family_side_is_not_asked_of_a_mission_outside_the_family_set() -> None:
    """Only the family set's missions have a family side (rulebook: Missions, family game)."""
    raw = printed(mission=[{"id": "wrog", "name": "Wróg", "family_set": False}])
    found = [str(p) for p in problems(raw, "pingwiny.toml")]
    assert not [line for line in found if "wrog': family:" in line]
    raw["mission"][0]["family_set"] = True
    found = [str(p) for p in problems(raw, "pingwiny.toml")]
    assert (
        "pingwiny.toml: mission 'wrog': family: missing (write \"unknown\" for each value "
        "not known)" in found
    )


def refused_whole(raw: dict) -> list[str]:
    """The lines ``build`` refuses a whole catalogue with."""
    with pytest.raises(CatalogueError) as caught:
        build(raw, source="owner.toml")
    return [str(p) for p in caught.value.problems]


def whole(**parts: Any) -> dict:
    meta = {
        "game": "pingwiny",
        "kind": "owner",
        "label": "mine",
        "figurant_count": 42,
        "mission_count": 10,
        "token_total": 104,
    }
    return {"meta": meta} | parts


def test_a_whole_catalogue_names_an_unknown_figurant_an_effect_points_at() -> None:
    raw = whole(
        figurant=[
            {"id": "becky", "name": "Becky"},
            {
                "id": "hans",
                "name": "Hans",
                "advanced": {"effect": {"do": "immune", "cards": ["bekcy", "zzz"]}},
            },
        ]
    )
    assert refused_whole(raw) == [
        "owner.toml: figurant 'hans': advanced.effect.cards[0]: unknown figurant 'bekcy' "
        "(did you mean 'becky'?)",
        "owner.toml: figurant 'hans': advanced.effect.cards[1]: unknown figurant 'zzz'",
    ]


def test_a_whole_catalogue_asks_for_names_and_counts_an_overlay_may_leave_out() -> None:
    raw = {"meta": {"game": "pingwiny", "kind": "owner"}, "figurant": [{"id": "becky"}]}
    assert problems(raw, "owner.toml") == []
    assert refused_whole(raw) == [
        "owner.toml: meta: label: missing",
        "owner.toml: meta: figurant_count: missing",
        "owner.toml: meta: mission_count: missing",
        "owner.toml: meta: token_total: missing",
        "owner.toml: figurant 'becky': name: missing",
    ]


def test_a_whole_catalogue_with_cards_that_are_no_tables_or_lack_ids_names_them() -> None:
    raw = whole(figurant=[7, {"name": "Nobody"}, {"id": 3, "name": "Three"}])
    assert refused_whole(raw) == [
        "owner.toml: figurant #1: expected a table, got 7",
        "owner.toml: figurant #2: id: missing: expected lower-case letters, digits and dashes",
        "owner.toml: figurant #3: id: got 3: expected lower-case letters, digits and dashes",
    ]


def test_a_whole_printed_catalogue_is_built_only_with_every_value_written_out() -> None:
    """``build`` checks a printed file as strictly as ``problems`` does: the shipped box
    builds, and the same with one printed value left out is refused, naming it."""
    raw = tomllib.loads((DATA / "pingwiny.toml").read_text(encoding="utf-8"))
    assert build(raw, source="pingwiny.toml").kind == "printed"
    del raw["tokens"]["red"]
    with pytest.raises(CatalogueError) as caught:
        build(raw, source="pingwiny.toml")
    assert [str(p) for p in caught.value.problems] == [
        'pingwiny.toml: tokens: red: missing (write "unknown" if the rulebook does not say)'
    ]
