"""The card catalogue: printed facts, the demo deck, merging and round trips."""

import copy
import json
import tomllib

import pytest
from catalogue_helpers import (
    FILIP,
    JUNK,
    WORDS,
    cost,
    demo_fixture,  # noqa: F401  (a fixture)
    demo_overlay,
    printed_fixture,  # noqa: F401  (a fixture)
    printed_raw_fixture,  # noqa: F401  (a fixture)
)
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_app.store.catalogue_files import DEMO_FILE, load_raw, to_toml
from rules.catalogue import (
    OWNER_LABEL,
    UNKNOWN,
    Catalogue,
    CatalogueError,
    FigurantSide,
    Problem,
    build,
    conflicts,
    merge,
    problems,
    unknown_fields,
)
from rules.colours import COLOURS, INDEX, TYPES

DEMO_LABEL = "demo deck — not the printed cards"
SHORT_GAME_FIGURANTS = {
    "becky",
    "hans",
    "dr-bulgot",
    "king-of-the-rats",
    "stacy",
    "dunska-ochrona",
    "homary",
    "szczury",
}
FAMILY_MISSIONS = {
    "najlepszy-wrog",
    "krolestwo-za-kciuk",
    "ptak-zamkniety-ptak-szalony",
    "czlowieki",
    "ni-wydra-ni",
}
# The figurants of the rulebook's worked examples (family and advanced Example Scoring,
# and what Kuba holds in the advanced Discarding Tokens example).
IZA = ("king-julian", "mort", "burt", "king-of-the-rats", "szczury", "becky", "buck-rogut")
KUBA = ("shawna", "mason", "edek", "gladys")


def mission_points(scoring: tuple[tuple[int, int], ...], count: int) -> int:
    """The highest pair reached scores."""
    return max((points for at_least, points in scoring if count >= at_least), default=0)


@pytest.fixture(scope="module")
def demo_raw() -> dict:
    return load_raw(DEMO_FILE)


# ---------------------------------------------------------------- the printed facts


def test_shipped_files_have_no_problems(printed_raw: dict, demo_raw: dict) -> None:
    assert problems(printed_raw, "pingwiny.toml") == []
    assert problems(demo_raw, "pingwiny-demo.toml") == []


def test_the_printed_file_writes_out_every_colour_and_name(printed_raw: dict) -> None:
    """The printed file says each token colour (a count or "unknown") and names each card;
    a source for a colour the box has not is named as such."""
    raw = copy.deepcopy(printed_raw)
    del raw["tokens"]["red"]
    raw["tokens"].setdefault("sources", {})["purple"] = "a colour the box has not"
    del raw["figurant"][0]["name"]  # Becky, the first figurant of the file
    assert [str(problem) for problem in problems(raw, "pingwiny.toml")] == [
        'pingwiny.toml: tokens: red: missing (write "unknown" if the rulebook does not say)',
        "pingwiny.toml: tokens: sources.purple: unknown field 'purple' (expected one of: red, "
        "blue, green, yellow, grey, white, black)",
        "pingwiny.toml: figurant 'becky': name: missing",
    ]


def test_every_known_printed_value_quotes_a_rulebook_section(printed: Catalogue) -> None:
    raw = printed.to_dict()
    assert raw["meta"]["sources"].keys() == {"figurant_count", "mission_count", "token_total"}
    for section in ("penguin", "figurant", "mission"):
        for card in raw[section]:
            known = [
                key
                for key, value in card.items()
                if key not in ("id", "sources", "notes", "family", "advanced")
            ]
            known += [
                f"{side}.{name}"
                for side in ("family", "advanced")
                for name, value in card.get(side, {}).items()
                if value != UNKNOWN
            ]
            assert sorted(card.get("sources", {})) == sorted(known), card["id"]
            for quote in card.get("sources", {}).values():
                section_name, _, words = quote.partition(": ")
                assert section_name[0].isupper() and words, quote


def test_printed_facts_from_the_rulebook(printed: Catalogue) -> None:
    assert (printed.figurant_count, printed.mission_count, printed.token_total) == (42, 10, 104)
    assert (len(printed.penguins), len(printed.figurants), len(printed.missions)) == (4, 29, 7)
    assert printed.tokens == (None,) * 7
    assert not printed.is_demo and printed.label == "printed cards"
    colours = {penguin.id: penguin.colour for penguin in printed.penguins}
    assert colours == {"kowalski": "blue", "skipper": "green", "rico": "red", "szeregowy": "yellow"}
    becky = printed.figurant("becky")
    assert becky.family == FigurantSide(cost(white=1, yellow=4), None, None)
    antonio = printed.figurant("antonio").advanced
    assert (antonio.cost, antonio.officer_x) == (cost(yellow=2, blue=1, black=2), (1, 2))
    assert printed.mission("najlepszy-wrog").family.type == "enemy"
    assert printed.mission("blyskawiczne-znikniecie").advanced.scoring == ()
    assert printed.mission("idealny-dzien").family is None
    assert printed.penguin("kowalski").action_text.startswith("{A} Draw 2 blue tokens")


def test_short_game_removes_eight_figurants_and_one_mission(
    printed: Catalogue, demo: Catalogue
) -> None:
    removed = {card.id for card in printed.figurants if card.short_game_removed}
    assert removed == SHORT_GAME_FIGURANTS
    assert [card.id for card in printed.missions if card.short_game_removed] == ["najlepszy-wrog"]
    assert len(demo.figurants_in_play(short=True)) == 34
    assert len(demo.missions_in_play("advanced", short=True)) == 9
    assert {card.id for card in demo.missions_in_play("family", short=False)} == FAMILY_MISSIONS
    assert len(demo.missions_in_play("family", short=True)) == 4


def test_unknown_fields_of_the_printed_file(printed_raw: dict) -> None:
    lines = unknown_fields(printed_raw)
    assert lines[0] == "tokens: red, blue, green, yellow, grey, white, black"
    assert "figurant 'becky': family.points" in lines
    assert "figurant 'becky': family.cost" not in lines
    assert "figurant 'antonio': advanced.officer_x" not in lines
    assert "mission 'idealny-dzien': family.type" not in lines
    assert lines[-2:] == ["13 of 42 figurants not named", "3 of 10 missions not named"]


def test_missing_for_the_printed_catalogue(printed: Catalogue) -> None:
    family_short = printed.missing_for("family", short=True)
    assert "figurant 'hans': family.cost" not in family_short
    assert "figurant 'mort': family.cost" in family_short
    assert "13 of 42 figurants not named" in family_short
    assert "3 of 10 missions not named" not in family_short
    assert not any("advanced" in line for line in family_short)
    advanced = printed.missing_for("advanced", short=False)
    assert "penguin 'rico': advanced.action_text" in advanced
    assert "3 of 10 missions not named" in advanced
    with pytest.raises(ValueError, match="unknown variant 'expert'"):
        printed.missing_for("expert", short=False)


def test_lookup_by_id(printed: Catalogue) -> None:
    assert printed.figurant("dunska-ochrona").english == "Danish Guard"
    assert printed.mission("czlowieki").name == "Człowieki"
    with pytest.raises(KeyError, match="no figurant 'nope'"):
        printed.figurant("nope")


# ---------------------------------------------------------------- the demo deck


def test_demo_catalogue_is_complete_and_labelled(demo: Catalogue) -> None:
    assert demo.is_demo and demo.label == DEMO_LABEL
    assert (len(demo.figurants), len(demo.missions), sum(demo.tokens)) == (42, 10, 104)
    assert demo.tokens[INDEX["grey"]] > 0
    for variant in ("family", "advanced"):
        for short in (False, True):
            assert demo.missing_for(variant, short) == []
    assert demo.figurant("demo-30").name == "Demo figurant 30"
    assert [card.id for card in demo.figurants[-13:]] == [f"demo-{n}" for n in range(30, 43)]
    assert [card.name for card in demo.missions[-3:]] == [f"Demo mission {n}" for n in (8, 9, 10)]


def test_demo_overlay_only_fills_unknowns(printed_raw: dict, demo_raw: dict) -> None:
    assert conflicts(printed_raw, demo_raw, "pingwiny-demo.toml", owner=False) == []
    for section in ("penguin", "figurant", "mission"):
        printed_cards = {card["id"]: card for card in printed_raw[section]}
        for card in demo_raw[section]:
            base = printed_cards.get(card["id"])
            if base is None:
                continue
            for key, value in card.items():
                if key in ("family", "advanced"):
                    for name in value:
                        assert base.get(key, {}).get(name, UNKNOWN) == UNKNOWN, (card["id"], name)
                elif key != "id":
                    assert key not in base, (card["id"], key)


def test_demo_deck_plays_sensibly(demo: Catalogue) -> None:
    types = {figurant.family.type for figurant in demo.figurants}
    assert types == {"bird", "human", "mammal", "enemy", "reptile", "amphibian", "insect"}
    for figurant in demo.figurants:
        for side in (figurant.family, figurant.advanced):
            assert 2 <= sum(side.cost) <= 7 and 0 <= side.points <= 7, figurant.id
    for mission in demo.missions_in_play("family", short=False):
        counted = sum(f.family.type == mission.family.type for f in demo.figurants)
        assert mission_points(mission.family.scoring, counted) > 0, mission.id


def test_demo_deck_agrees_with_the_worked_examples(demo: Catalogue) -> None:
    iza = [demo.figurant(card_id).family for card_id in IZA]
    assert sum(side.points for side in iza) == 14
    assert sum(side.type == "enemy" for side in iza) == 3
    assert sum(side.cost[INDEX["red"]] > 0 for side in iza) == 5
    assert mission_points(demo.mission("najlepszy-wrog").family.scoring, 3) == 1

    filip = [demo.figurant(card_id).advanced for card_id in FILIP]
    assert sum(side.points for side in filip) == 12
    assert sum(side.cost[INDEX["yellow"]] > 0 for side in filip) // 2 == 3
    kingdom = demo.mission("krolestwo-za-kciuk").advanced
    humans = demo.mission("czlowieki").advanced
    scores = [
        mission_points(m.scoring, sum(side.type == m.type for side in filip))
        for m in (kingdom, humans)
    ]
    assert scores == [3, 2]

    kuba = [demo.figurant(card_id).advanced for card_id in KUBA]
    before = sum(side.type == kingdom.type for side in kuba)
    after = before + (demo.figurant("antonio").advanced.type == kingdom.type)
    assert mission_points(kingdom.scoring, after) - mission_points(kingdom.scoring, before) == 1
    gustav = demo.figurant("gustav").advanced.cost
    assert all(n <= limit for n, limit in zip(gustav, cost(red=1, white=1, black=1), strict=True))


# ---------------------------------------------------------------- merging


def test_a_demo_overlay_may_not_change_a_printed_value(printed_raw: dict) -> None:
    changes = demo_overlay(id="becky", family={"cost": {"yellow": 5}}, short_game="kept")
    with pytest.raises(CatalogueError) as caught:
        merge(printed_raw, changes, owner=False, source="demo.toml")
    assert str(caught.value).splitlines() == [
        "demo.toml: figurant 'becky': family.cost: contradicts the known value "
        "{'white': 1, 'yellow': 4}: a demo only fills unknowns",
        "demo.toml: figurant 'becky': short_game: contradicts the known value "
        "'removed': a demo only fills unknowns",
    ]
    added = demo_overlay(id="antonio", short_game="removed", english="Tony")
    found = conflicts(printed_raw, added, "demo.toml", owner=False)
    assert [problem.field for problem in found] == ["short_game", "english"]


def test_an_owner_file_may_correct_a_printed_value(printed_raw: dict) -> None:
    before = copy.deepcopy(printed_raw)
    owner = {"figurant": [{"id": "becky", "family": {"cost": {"yellow": 5}, "points": 4}}]}
    merged = merge(printed_raw, owner, owner=True)
    assert printed_raw == before
    catalogue = build(merged)
    becky = catalogue.figurant("becky")
    assert (becky.family.cost, becky.family.points) == (cost(yellow=5), 4)
    assert "family.cost" not in dict(becky.sources)
    assert "short_game" in dict(becky.sources)
    assert (catalogue.kind, catalogue.label) == ("owner", OWNER_LABEL)


def test_merge_appends_new_cards_and_keeps_the_demo_label(
    printed_raw: dict, demo_raw: dict
) -> None:
    with_demo = merge(printed_raw, demo_raw, owner=False, source="pingwiny-demo.toml")
    owner = {
        "figurant": [{"id": "becky", "notes": ["Mine is worn."]}],
        "mission": [{"id": "demo-8", "name": "Moja misja"}],
    }
    catalogue = build(merge(with_demo, owner, owner=True))
    assert catalogue.label == DEMO_LABEL and catalogue.is_demo
    assert catalogue.figurant("becky").notes[-1] == "Mine is worn."
    assert catalogue.mission("demo-8").name == "Moja misja"
    extra = {"figurant": [{"id": "extra", "name": "Extra"}], "tokens": {"red": 17}}
    with pytest.raises(CatalogueError) as caught:
        build(merge(with_demo, extra, owner=True), source="merged")
    assert str(caught.value).splitlines() == [
        "merged: figurant: 43 cards, but the box has 42",
        "merged: tokens: the colours add up to 105, not 104",
    ]


def test_merge_refuses_another_game(printed_raw: dict) -> None:
    other = {"meta": {"game": "popiel"}}
    with pytest.raises(CatalogueError, match="owner.toml: meta: game: 'popiel' does not match"):
        merge(printed_raw, other, owner=True, source="owner.toml")


# ---------------------------------------------------------------- round trips


def test_to_dict_and_from_dict_round_trip(printed: Catalogue, demo: Catalogue) -> None:
    for catalogue in (printed, demo):
        raw = catalogue.to_dict()
        assert json.loads(json.dumps(raw)) == raw
        again = Catalogue.from_dict(raw)
        assert again == catalogue
        assert again.to_dict() == raw
        assert hash(again) == hash(catalogue)


def test_shipped_files_survive_a_write_and_read(printed_raw: dict, demo_raw: dict) -> None:
    for raw in (printed_raw, demo_raw):
        assert tomllib.loads(to_toml(raw)) == raw


TEXT = st.text(max_size=12)


@settings(max_examples=60, deadline=None)
@given(
    notes=st.lists(TEXT, max_size=3),
    sources=st.dictionaries(TEXT, TEXT, max_size=3),
    name=TEXT,
    counts=st.dictionaries(st.sampled_from(COLOURS), st.integers(-5, 99), max_size=4),
    flag=st.booleans(),
    scoring=st.lists(st.lists(st.integers(0, 9), min_size=2, max_size=2), max_size=3),
)
def test_to_toml_round_trips_any_text(
    notes: list, sources: dict, name: str, counts: dict, flag: bool, scoring: list
) -> None:
    raw = {
        "meta": {"game": name, "notes": notes, "sources": sources},
        "figurant": [{"id": name, "family": {"cost": counts, "type": name}, "sources": sources}],
        "mission": [{"id": "m", "family_set": flag, "advanced": {"scoring": scoring}}],
    }
    assert tomllib.loads(to_toml(raw)) == raw


# Well-formed values mixed with junk, so that both outcomes are reached often.
GOOD = st.one_of(
    st.just(UNKNOWN),
    st.integers(0, 7),
    st.sampled_from(TYPES),
    st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 4), max_size=3),
    st.lists(st.integers(1, 6), min_size=2, max_size=2).map(sorted),
    st.text(min_size=1, max_size=5),
)
SIDE = st.dictionaries(
    st.sampled_from(["cost", "points", "type", "officer_x", "text", "scoring"]),
    st.one_of(GOOD, GOOD, GOOD, JUNK),
    max_size=3,
)
CARD = st.fixed_dictionaries(
    {"id": st.sampled_from(["becky", "antonio", "demo-8", "new-card", "Bad Id"])},
    optional={
        "name": st.one_of(GOOD, JUNK),
        "family": SIDE,
        "advanced": SIDE,
        "short_game": st.sampled_from(["kept", "removed", "gone"]),
        "notes": st.one_of(st.lists(st.text(max_size=5), max_size=2), JUNK),
    },
)
CARDS = st.fixed_dictionaries(
    {"figurant": st.lists(CARD, max_size=2), "mission": st.lists(CARD, max_size=1)}
)
OVERLAY = st.one_of(st.dictionaries(st.sampled_from(WORDS), JUNK, max_size=3), CARDS, CARDS)


@settings(max_examples=150, deadline=None)
@given(overlay=OVERLAY)
def test_any_owner_file_is_either_reported_or_usable(printed_raw: dict, overlay: dict) -> None:
    found = problems(overlay, "owner.toml")
    assert all(isinstance(p, Problem) and "\n" not in str(p) for p in found)
    if found:
        return
    try:
        catalogue = build(merge(printed_raw, overlay, owner=True, source="owner.toml"))
    except CatalogueError as error:
        assert error.problems
    else:
        assert Catalogue.from_dict(catalogue.to_dict()) == catalogue
