"""The card catalogue: printed facts, the demo deck, owners' files and the check command."""

import ast
import copy
import io
import json
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_app import catalogue_files
from firmware_app.catalogue_files import (
    DEMO_FILE,
    PRINTED_FILE,
    check_command,
    load,
    load_raw,
    save_owner_card,
    to_toml,
)
from rules.catalogue import (
    ACTIONS,
    NO_EFFECT,
    OWNER_LABEL,
    PARAMETERS,
    PERMANENT,
    UNKNOWN,
    Catalogue,
    CatalogueError,
    Effect,
    FigurantSide,
    Problem,
    build,
    conflicts,
    merge,
    problems,
    unknown_fields,
)
from rules.colours import COLOURS, COST_COLOURS, INDEX, TYPES

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
FILIP = ("gladys", "fred", "edek", "joey", "alice", "zoe", "max-kolanko", "lolo")
KUBA = ("shawna", "mason", "edek", "gladys")


def cost(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(colour, 0) for colour in COST_COLOURS)


def mission_points(scoring: tuple[tuple[int, int], ...], count: int) -> int:
    """The highest pair reached scores."""
    return max((points for at_least, points in scoring if count >= at_least), default=0)


@pytest.fixture(scope="module")
def printed_raw() -> dict:
    return load_raw(PRINTED_FILE)


@pytest.fixture(scope="module")
def demo_raw() -> dict:
    return load_raw(DEMO_FILE)


@pytest.fixture(scope="module")
def printed() -> Catalogue:
    return load([], demo=False)


@pytest.fixture(scope="module")
def demo() -> Catalogue:
    return load([], demo=True)


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Owner files given by bare name, as a user types them, so messages name them so."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------- the printed facts


def test_shipped_files_have_no_problems(printed_raw: dict, demo_raw: dict) -> None:
    assert problems(printed_raw, "pingwiny.toml") == []
    assert problems(demo_raw, "pingwiny-demo.toml") == []


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


def demo_overlay(**card: object) -> dict:
    return {"meta": {"game": "pingwiny", "kind": "demo", "label": "x"}, "figurant": [card]}


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


WORDS = [
    "meta", "tokens", "penguin", "figurant", "mission", "id", "name", "english", "colour",
    "short_game", "family_set", "family", "advanced", "cost", "points", "type", "officer_x",
    "text", "scoring", "action_text", "sources", "notes", "game", "kind", "label",
    "figurant_count", "token_total", "red", "grey", "unknown", "becky", "demo-8", "pingwiny",
    "owner", "demo", "removed", "mammal",
]  # fmt: skip
LEAVES = st.one_of(st.integers(-2, 8), st.booleans(), st.sampled_from(WORDS), st.text(max_size=3))
JUNK = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(WORDS), inner),
    max_leaves=15,
)
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


# ---------------------------------------------------------------- files and the check command


BECKY = '[[figurant]]\nid = "becky"\n'
ALL_COLOURS = "red, blue, green, yellow, grey, white, black"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            BECKY + "family.cost = { pink = 2 }\n",
            "figurant 'becky': family.cost.pink: unknown colour 'pink' "
            f"(expected one of: {ALL_COLOURS}, any)",
        ),
        (
            BECKY + "family.cost = { gren = 2 }\n",
            "figurant 'becky': family.cost.gren: unknown colour 'gren' (did you mean 'green'?)",
        ),
        (
            BECKY + "family.pionts = 3\n",
            "figurant 'becky': family.pionts: unknown key 'pionts' (did you mean 'points'?)",
        ),
        (
            BECKY + 'advanced.points = "three"\n',
            "figurant 'becky': advanced.points: "
            "expected a whole number or \"unknown\", got 'three'",
        ),
        (
            BECKY + 'family.type = "mamal"\n',
            "figurant 'becky': family.type: unknown type 'mamal' (did you mean 'mammal'?)",
        ),
        (
            BECKY + "family.cost = { red = -1 }\n",
            "figurant 'becky': family.cost.red: must be at least 0, got -1",
        ),
        (
            BECKY + "advanced.officer_x = [0, 7]\n",
            "figurant 'becky': advanced.officer_x: expected [low, high] within 1..6, "
            'or "unknown", got [0, 7]',
        ),
        (
            BECKY + "family.points = 2\n" + BECKY,
            "figurant 'becky': id: duplicate id (figurant #1 has it too)",
        ),
        (
            '[[mission]]\nid = "najlepszy-wrog"\nfamily.scoring = [[2, 1], [2, 3]]\n',
            "mission 'najlepszy-wrog': family.scoring[1]: expected [at_least, points] with "
            "counts rising from 1 and points of 0 or more, got [2, 3]",
        ),
        (BECKY + "name = \n", "line 3, column 8: TOML syntax error: Invalid value"),
        (
            '[meta]\nkind = "demo"\nlabel = "mine"\n',
            "meta: kind: expected 'owner' here, got 'demo'",
        ),
    ],
    ids=[
        "unknown-colour",
        "near-colour",
        "typo-key",
        "bad-type",
        "unknown-type",
        "negative",
        "officer-x",
        "duplicate-id",
        "scoring",
        "syntax",
        "wrong-kind",
    ],
)
def test_a_broken_owner_file_gives_exact_lines(in_tmp: Path, text: str, expected: str) -> None:
    (in_tmp / "owner.toml").write_text(text, encoding="utf-8")
    out = io.StringIO()
    assert check_command(["owner.toml"], out) == 1
    assert out.getvalue().splitlines() == [f"owner.toml: {expected}"]


def test_check_reports_every_problem_of_every_file(in_tmp: Path) -> None:
    (in_tmp / "a.toml").write_text(BECKY + "family.pionts = 3\nfamily.type = 5\n")
    (in_tmp / "b.toml").write_text("x = ")
    out = io.StringIO()
    assert check_command(["a.toml", "b.toml", "gone.toml"], out) == 1
    assert out.getvalue().splitlines() == [
        "a.toml: figurant 'becky': family.pionts: unknown key 'pionts' (did you mean 'points'?)",
        "a.toml: figurant 'becky': family.type: expected a type name, got 5",
        "b.toml: line 1 (end of file): TOML syntax error: Invalid value",
        "gone.toml: cannot read: No such file or directory",
    ]


def test_check_says_ok_then_what_is_still_unknown(in_tmp: Path) -> None:
    out = io.StringIO()
    assert check_command([], out) == 0
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["ok", "still unknown (the panel asks for each when a game needs it):"]
    becky = [line for line in lines if line.startswith("  Becky (figurant): family points, type;")]
    assert becky and becky[0].endswith(
        "asked when it is laid face up (points and type: at once or at the score sheet)"
    )
    assert '  3 of 10 missions not named: played as "Mission 8" … "Mission 10"' in lines[-4]
    assert lines[-1].startswith("  Król Popiel: the reward tokens' mix (8 in all)")

    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4, "type": "enemy"}})
    out = io.StringIO()
    assert check_command(["owner.toml"], out) == 0
    taught = out.getvalue().splitlines()
    assert [line for line in taught if line.startswith("  Becky (figurant): advanced cost")]


def test_load_raw_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "owner.toml"
    path.write_text('[meta]\ngame = "pingwiny"\n[[figurant\n')
    with pytest.raises(CatalogueError) as caught:
        load_raw(path, "owner.toml")
    message = "TOML syntax error: Expected ']]' at the end of an array declaration"
    assert caught.value.problems == (Problem("owner.toml", "", "line 3, column 11", message),)


def test_a_shipped_file_of_the_wrong_kind_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = tmp_path / "pingwiny-demo.toml"
    fake.write_text('[meta]\ngame = "pingwiny"\nkind = "owner"\n')
    monkeypatch.setattr(catalogue_files, "DEMO_FILE", fake)
    with pytest.raises(CatalogueError) as caught:
        load([], demo=True)
    assert [str(problem) for problem in caught.value.problems] == [
        "pingwiny-demo.toml: meta: kind: expected 'demo' here, got 'owner'"
    ]


def test_save_owner_card_merges_into_the_file(in_tmp: Path) -> None:
    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4}})
    save_owner_card("owner.toml", {"id": "becky", "family": {"cost": {"yellow": 5}}})
    save_owner_card("owner.toml", {"id": "demo-8", "name": "Moja misja"}, section="mission")
    assert load_raw("owner.toml") == {
        "meta": {"game": "pingwiny", "kind": "owner", "label": OWNER_LABEL},
        "figurant": [{"id": "becky", "family": {"points": 4, "cost": {"yellow": 5}}}],
        "mission": [{"id": "demo-8", "name": "Moja misja"}],
    }
    catalogue = load(["owner.toml"], demo=False)
    assert catalogue.figurant("becky").family.cost == cost(yellow=5)
    assert [path.name for path in in_tmp.iterdir()] == ["owner.toml"]


def test_save_owner_card_refuses_a_bad_card_and_keeps_the_file(in_tmp: Path) -> None:
    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4}})
    before = (in_tmp / "owner.toml").read_bytes()
    with pytest.raises(CatalogueError) as caught:
        save_owner_card("owner.toml", {"id": "becky", "family": {"points": -4}})
    assert (
        str(caught.value)
        == "owner.toml: figurant 'becky': family.points: must be at least 0, got -4"
    )
    with pytest.raises(CatalogueError, match="unknown key 'figurnat'"):
        save_owner_card("owner.toml", {"id": "becky"}, section="figurnat")
    assert (in_tmp / "owner.toml").read_bytes() == before


def test_a_failed_save_leaves_the_old_file_and_no_litter(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_owner_card("owner.toml", {"id": "becky", "family": {"points": 4}})
    before = (in_tmp / "owner.toml").read_bytes()

    def power_cut(source: str, target: str) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(catalogue_files.os, "replace", power_cut)
    with pytest.raises(OSError, match="Input/output error"):
        save_owner_card("owner.toml", {"id": "becky", "family": {"points": 5}})
    assert (in_tmp / "owner.toml").read_bytes() == before
    assert [path.name for path in in_tmp.iterdir()] == ["owner.toml"]


# ---------------------------------------------------------------- the package


def test_the_catalogue_package_knows_nothing_of_files_screens_or_hardware() -> None:
    package = Path(__file__).parent.parent / "rules" / "catalogue"
    for module in package.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        imported = {
            name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for name in (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
        }
        allowed = {"__future__", "collections", "copy", "dataclasses", "difflib", "functools"}
        assert imported <= allowed | {"re", "typing", "rules"}, module.name


# ---------------------------------------------------------------- card effects


def draw_colour(colour: str, count: int) -> Effect:
    return Effect("draw_colour", (("colour", colour), ("count", count)))


PRINTED_EFFECTS = {
    ("penguin", "kowalski"): draw_colour("blue", 2),
    ("figurant", "dr-bulgot"): Effect("give", (("count", 1),)),
    ("figurant", "shawna"): Effect("take", (("colour", "yellow"), ("count", 1))),
    ("figurant", "gladys"): Effect("draw", (("count", 1),)),
    ("figurant", "czerwony-wiewior"): Effect(
        "bonus_with", (("card", "bracia-wezuwiusz"), ("points", 1))
    ),
    ("figurant", "maurice"): Effect("immune", (("cards", ("king-julian", "mort")),)),
    ("figurant", "karaczany"): Effect("remove_marker"),
    ("figurant", "zoe"): Effect("bonus_with", (("card", "gladys"), ("points", 1))),
    ("mission", "idealny-dzien"): Effect("extra_mission"),
    ("mission", "blyskawiczne-znikniecie"): Effect("no_penalty"),
}


def effects_of(catalogue: Catalogue) -> dict[tuple[str, str], Effect | None]:
    """Every card's effect: a penguin's own, the advanced side's of the others."""
    found = {("penguin", card.id): card.effect for card in catalogue.penguins}
    found |= {("figurant", card.id): card.advanced.effect for card in catalogue.figurants}
    found |= {("mission", card.id): card.advanced.effect for card in catalogue.missions}
    return found


def card_bonus(catalogue: Catalogue, hand: tuple[str, ...]) -> int:
    """The permanent bonuses a hand of figurants scores, as the effects describe them."""
    total = 0
    for card_id in hand:
        effect = catalogue.figurant(card_id).advanced.effect
        if effect.do == "bonus_with" and effect.param("card") in hand:
            total += effect.param("points")
        elif effect.do == "bonus_per_type":
            others = [other for other in hand if other != card_id]
            kinds = [catalogue.figurant(other).advanced.type for other in others]
            total += kinds.count(effect.param("type")) * effect.param("points")
    return total


def test_printed_effects_are_what_the_rulebook_describes(printed: Catalogue) -> None:
    effects = effects_of(printed)
    assert {key: effect for key, effect in effects.items() if effect is not None} == (
        PRINTED_EFFECTS
    )
    assert effects[("figurant", "bolo")] is None
    assert all(card.family.effect is None for card in printed.figurants)
    for section, card_id in PRINTED_EFFECTS:
        card = getattr(printed, section)(card_id)
        assert card.name in dict(card.sources)["advanced.effect"], card_id
    for card in (printed.figurant("gladys"), printed.figurant("shawna")):
        assert any("Known only from Kuba's use" in note for note in card.notes), card.id
    assert any("Kuba's use" in note for note in printed.penguin("kowalski").notes)


def test_an_effect_is_a_small_value(printed: Catalogue) -> None:
    maurice = printed.figurant("maurice").advanced.effect
    assert maurice.param("cards") == ("king-julian", "mort")
    assert not maurice.is_action and printed.penguin("kowalski").effect.is_action
    assert Effect("none") == NO_EFFECT and not NO_EFFECT.is_action
    assert hash(maurice) == hash(Effect("immune", (("cards", ("king-julian", "mort")),)))
    with pytest.raises(KeyError, match="effect 'immune' has no parameter 'count'"):
        maurice.param("count")


def test_the_advanced_variant_needs_every_effect_in_play(printed: Catalogue) -> None:
    advanced = printed.missing_for("advanced", short=False)
    for line in (
        "penguin 'rico': advanced.effect",
        "figurant 'bolo': advanced.effect",
        "figurant 'hans': advanced.effect",
        "mission 'najlepszy-wrog': advanced.effect",
    ):
        assert line in advanced
    assert "figurant 'zoe': advanced.effect" not in advanced
    assert "penguin 'kowalski': advanced.effect" not in advanced
    short = printed.missing_for("advanced", short=True)
    assert "figurant 'hans': advanced.effect" not in short
    assert "mission 'najlepszy-wrog': advanced.effect" not in short
    assert not any("effect" in line for line in printed.missing_for("family", short=False))


def test_a_catalogue_written_before_effects_loads_but_is_not_ready(demo: Catalogue) -> None:
    """Game records embed their catalogue: older ones have no effects at all."""
    raw = demo.to_dict()
    for section in ("penguin", "figurant", "mission"):
        for card in raw[section]:
            del card["advanced"]["effect"]
    old = Catalogue.from_dict(raw)
    assert old.missing_for("family", short=False) == []
    assert old.missing_for("advanced", short=False) == [
        f"{section} {card_id!r}: advanced.effect" for section, card_id in effects_of(demo)
    ]


def test_demo_effects_are_complete_and_sensible(demo: Catalogue) -> None:
    effects = effects_of(demo)
    assert None not in effects.values()
    assert {key: effects[key] for key in PRINTED_EFFECTS} == PRINTED_EFFECTS
    figurants = [card.advanced.effect for card in demo.figurants]
    actions = [effect.do for effect in figurants if effect.is_action]
    assert 12 <= len(actions) <= 16
    assert set(actions) | {penguin.effect.do for penguin in demo.penguins} == set(ACTIONS)
    assert 3 <= sum(effect.do in PERMANENT for effect in figurants) <= 8
    assert figurants.count(NO_EFFECT) >= 20
    for card_id in ("king-julian", "mort"):
        assert demo.figurant(card_id).advanced.effect.do in ("steal_choice", "others_discard")
    for penguin in demo.penguins:
        assert penguin.effect == draw_colour(penguin.colour, 2), penguin.id


def test_demo_texts_say_what_the_effects_do(demo: Catalogue) -> None:
    for card in demo.figurants:
        side = card.advanced
        assert side.text.startswith("{A}") == side.effect.is_action, card.id
        assert (side.text == "") == (side.effect == NO_EFFECT), card.id
    for penguin in demo.penguins:
        assert penguin.action_text.startswith("{A}") and penguin.effect.is_action
    for mission in demo.missions:
        assert (mission.advanced.text == "") == (mission.advanced.effect == NO_EFFECT)


def test_demo_effects_agree_with_filips_example(demo: Catalogue) -> None:
    """Filip's 20 points hold exactly one card bonus: Zoe's, for holding Gladys."""
    assert card_bonus(demo, FILIP) == 1
    assert card_bonus(demo, tuple(card for card in FILIP if card != "gladys")) == 0


def test_effects_round_trip_whatever_order_they_are_written_in(printed_raw: dict) -> None:
    backwards = {"count": 2, "colour": "red", "do": "draw_colour"}
    owner = {
        "penguin": [{"id": "rico", "advanced": {"effect": backwards}}],
        "figurant": [{"id": "bolo", "advanced": {"effect": "none"}}],
    }
    catalogue = build(merge(printed_raw, owner, owner=True))
    assert catalogue.penguin("rico").effect == draw_colour("red", 2)
    assert catalogue.figurant("bolo").advanced.effect == NO_EFFECT
    raw = catalogue.to_dict()
    penguins = {card["id"]: card for card in raw["penguin"]}
    figurants = {card["id"]: card for card in raw["figurant"]}
    assert penguins["rico"]["advanced"]["effect"] == {
        "do": "draw_colour",
        "colour": "red",
        "count": 2,
    }
    assert figurants["bolo"]["advanced"]["effect"] == "none"
    assert figurants["becky"]["advanced"]["effect"] == UNKNOWN
    assert figurants["maurice"]["advanced"]["effect"] == {
        "do": "immune",
        "cards": ["king-julian", "mort"],
    }
    assert Catalogue.from_dict(raw) == catalogue
    assert tomllib.loads(to_toml(raw)) == raw


def test_a_demo_overlay_may_not_change_a_printed_effect(printed_raw: dict) -> None:
    same = demo_overlay(
        id="zoe", advanced={"effect": {"points": 1, "card": "gladys", "do": "bonus_with"}}
    )
    assert conflicts(printed_raw, same, "demo.toml", owner=False) == []
    more = demo_overlay(
        id="zoe", advanced={"effect": {"do": "bonus_with", "card": "gladys", "points": 2}}
    )
    assert [str(p) for p in conflicts(printed_raw, more, "demo.toml", owner=False)] == [
        "demo.toml: figurant 'zoe': advanced.effect: contradicts the known value "
        "{'do': 'bonus_with', 'card': 'gladys', 'points': 1}: a demo only fills unknowns"
    ]
    corrected = build(merge(printed_raw, more, owner=True))
    zoe = corrected.figurant("zoe")
    assert zoe.advanced.effect.param("points") == 2
    assert "advanced.effect" not in dict(zoe.sources)
    assert "advanced.text" in dict(zoe.sources)


def test_a_printed_file_writes_out_and_quotes_every_effect(printed_raw: dict) -> None:
    raw = copy.deepcopy(printed_raw)
    cards = {card["id"]: card for card in raw["figurant"]}
    del cards["zoe"]["advanced"]["effect"]
    cards["becky"]["advanced"]["effect"] = "none"
    del cards["maurice"]["sources"]["advanced.effect"]
    cards["hans"]["sources"] = {**cards["hans"]["sources"], "advanced.effect": "Setup: …"}
    assert [str(problem) for problem in problems(raw, "pingwiny.toml")] == [
        "pingwiny.toml: figurant 'becky': advanced.effect: "
        "known value without a source (quote the rulebook passage)",
        "pingwiny.toml: figurant 'hans': sources.advanced.effect: "
        "a source for a value that is unknown",
        "pingwiny.toml: figurant 'maurice': advanced.effect: "
        "known value without a source (quote the rulebook passage)",
        "pingwiny.toml: figurant 'zoe': advanced.effect: "
        'missing (write "unknown" if the rulebook does not say)',
    ]


ZOE = '[[figurant]]\nid = "zoe"\n'
ALL_FIGURANT_EFFECTS = (
    "draw, draw_colour, take, give, steal, remove_marker, move, grey, "
    "steal_choice, others_discard, acquire, "
    "bonus_with, bonus_per_type, immune"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            ZOE + 'advanced.effect = { do = "drwa", count = 1 }\n',
            "figurant 'zoe': advanced.effect.do: unknown figurant effect 'drwa' "
            "(did you mean 'draw'?)",
        ),
        (
            ZOE + 'advanced.effect = { do = "no_penalty" }\n',
            "figurant 'zoe': advanced.effect.do: 'no_penalty' is not a figurant effect "
            f"(expected one of: {ALL_FIGURANT_EFFECTS})",
        ),
        (
            '[[penguin]]\nid = "rico"\nadvanced.effect = { do = "immune", cards = ["mort"] }\n',
            "penguin 'rico': advanced.effect.do: 'immune' is not a penguin effect "
            "(expected one of: draw, draw_colour, take, give, steal, remove_marker, move, grey, "
            "steal_choice, others_discard, acquire)",
        ),
        (
            '[[mission]]\nid = "demo-8"\nadvanced.effect = { do = "draw", count = 1 }\n',
            "mission 'demo-8': advanced.effect.do: 'draw' is not a mission effect "
            "(expected one of: no_penalty, extra_mission)",
        ),
        (
            ZOE + 'advanced.effect = { do = "draw" }\n',
            "figurant 'zoe': advanced.effect.count: missing",
        ),
        (
            ZOE + 'advanced.effect = { do = "draw", count = 1, cuont = 1 }\n',
            "figurant 'zoe': advanced.effect.cuont: unknown key 'cuont' (did you mean 'count'?)",
        ),
        (
            ZOE + 'advanced.effect = { do = "move", count = 1 }\n',
            "figurant 'zoe': advanced.effect.count: unknown key 'count' (move takes no parameters)",
        ),
        (
            ZOE + 'advanced.effect = { do = "give", count = "one" }\n',
            "figurant 'zoe': advanced.effect.count: expected a whole number of at least 1, "
            "got 'one'",
        ),
        (
            ZOE + 'advanced.effect = { do = "steal", count = 0 }\n',
            "figurant 'zoe': advanced.effect.count: expected a whole number of at least 1, got 0",
        ),
        (
            ZOE + 'advanced.effect = { do = "take", colour = "pink", count = 1 }\n',
            "figurant 'zoe': advanced.effect.colour: unknown colour 'pink' "
            "(expected one of: red, blue, green, yellow)",
        ),
        (
            ZOE + 'advanced.effect = { do = "take", colour = "white", count = 1 }\n',
            "figurant 'zoe': advanced.effect.colour: there are no white tokens on the board "
            "(expected one of: red, blue, green, yellow)",
        ),
        (
            ZOE + 'advanced.effect = { do = "draw_colour", colour = "grey", count = 1 }\n',
            "figurant 'zoe': advanced.effect.colour: there are no grey tokens in the bag "
            "(expected one of: red, blue, green, yellow, white, black)",
        ),
        (
            ZOE + 'advanced.effect = { do = "bonus_per_type", type = "mamal", points = 1 }\n',
            "figurant 'zoe': advanced.effect.type: unknown type 'mamal' (did you mean 'mammal'?)",
        ),
        (
            ZOE + 'advanced.effect = { do = "bonus_with", card = 5, points = 1 }\n',
            "figurant 'zoe': advanced.effect.card: expected a figurant id, got 5",
        ),
        (
            ZOE + 'advanced.effect = { do = "immune", cards = [] }\n',
            "figurant 'zoe': advanced.effect.cards: expected a list of figurant ids, got []",
        ),
        (
            ZOE + "advanced.effect = 3\n",
            'figurant \'zoe\': advanced.effect: expected { do = "..." }, "none" or "unknown", '
            "got 3",
        ),
        (
            ZOE + "advanced.effect = { count = 1 }\n",
            "figurant 'zoe': advanced.effect.do: missing",
        ),
        (
            ZOE + 'advanced.effect = { do = "none" }\n',
            "figurant 'zoe': advanced.effect.do: not a primitive: "
            'write effect = "none" for a card without one',
        ),
        (
            ZOE + 'family.effect = "none"\n',
            "figurant 'zoe': family.effect: unknown key 'effect' "
            "(expected one of: cost, points, type)",
        ),
    ],
    ids=[
        "near-primitive",
        "mission-primitive-on-a-figurant",
        "permanent-on-a-penguin",
        "action-on-a-mission",
        "missing-parameter",
        "typo-parameter",
        "parameter-of-nothing",
        "count-not-a-number",
        "count-zero",
        "unknown-colour",
        "colour-not-on-the-board",
        "colour-not-in-the-bag",
        "unknown-type",
        "card-not-an-id",
        "no-cards",
        "not-a-table",
        "no-primitive",
        "none-as-a-primitive",
        "family-side",
    ],
)
def test_a_bad_effect_gives_exact_lines(in_tmp: Path, text: str, expected: str) -> None:
    (in_tmp / "owner.toml").write_text(text, encoding="utf-8")
    out = io.StringIO()
    assert check_command(["owner.toml"], out) == 1
    assert out.getvalue().splitlines() == [f"owner.toml: {expected}"]


def test_an_effect_naming_a_card_not_in_the_catalogue_is_refused(in_tmp: Path) -> None:
    """One file alone may name cards another file holds: names are checked once merged."""
    (in_tmp / "owner.toml").write_text(
        '[[figurant]]\nid = "bolo"\nadvanced.effect = { do = "bonus_with", card = "glady", '
        'points = 1 }\n\n[[figurant]]\nid = "maurice"\n'
        'advanced.effect = { do = "immune", cards = ["mort", "kign-julian", "nobody-at-all"] }\n',
        encoding="utf-8",
    )
    out = io.StringIO()
    assert check_command(["owner.toml"], out) == 1
    where = "pingwiny.toml + owner.toml: figurant"
    assert out.getvalue().splitlines() == [
        f"{where} 'maurice': advanced.effect.cards[1]: unknown figurant 'kign-julian' "
        "(did you mean 'king-julian'?)",
        f"{where} 'maurice': advanced.effect.cards[2]: unknown figurant 'nobody-at-all'",
        f"{where} 'bolo': advanced.effect.card: unknown figurant 'glady' (did you mean 'gladys'?)",
    ]


def test_an_owner_teaches_an_effect(in_tmp: Path) -> None:
    effect = {"do": "bonus_per_type", "type": "bird", "points": 1}
    save_owner_card("owner.toml", {"id": "bolo", "advanced": {"effect": effect}})
    text = (in_tmp / "owner.toml").read_text(encoding="utf-8")
    assert 'advanced.effect = { do = "bonus_per_type", type = "bird", points = 1 }' in text
    bolo = load(["owner.toml"], demo=False).figurant("bolo").advanced.effect
    assert bolo == Effect("bonus_per_type", (("type", "bird"), ("points", 1)))


# A well-formed value of each kind of parameter, mostly, and a broken one now and then.
PARAMETER_VALUES = {
    "number": st.integers(0, 3),
    "bag colour": st.sampled_from(["red", "white", "grey"]),
    "board colour": st.sampled_from(["blue", "yellow", "black"]),
    "type": st.sampled_from(["bird", "insect", "mamal"]),
    "card": st.sampled_from(["gladys", "mort", "nobody", "Bad Id"]),
    "cards": st.lists(st.sampled_from(["mort", "gladys", "nobody"]), max_size=2),
}
WELL_FORMED_EFFECT = st.sampled_from(list(PARAMETERS)).flatmap(
    lambda do: st.fixed_dictionaries(
        {"do": st.just(do)} | {name: PARAMETER_VALUES[kind] for name, kind in PARAMETERS[do]}
    )
)
BROKEN_EFFECT = st.one_of(
    st.sampled_from(["unknown", "none", "nothing"]),
    st.dictionaries(st.sampled_from(["do", "count", "colour", "cards"]), JUNK, max_size=3),
    JUNK,
)
EFFECT = st.one_of(WELL_FORMED_EFFECT, WELL_FORMED_EFFECT, WELL_FORMED_EFFECT, BROKEN_EFFECT)
OWNER_EFFECT = st.tuples(
    st.sampled_from([("penguin", "rico"), ("figurant", "bolo"), ("mission", "czlowieki")]),
    EFFECT,
)


@settings(max_examples=150, deadline=None)
@given(owner_effect=OWNER_EFFECT)
def test_any_effect_is_either_reported_or_round_trips(
    printed_raw: dict, owner_effect: tuple
) -> None:
    (section, card_id), effect = owner_effect
    overlay = {section: [{"id": card_id, "advanced": {"effect": effect}}]}
    if problems(overlay, "owner.toml"):
        return
    try:
        catalogue = build(merge(printed_raw, overlay, owner=True))
    except CatalogueError as error:
        assert all(".card" in problem.field for problem in error.problems)
        return
    built = effects_of(catalogue)[(section, card_id)]
    if isinstance(effect, dict):
        assert built.do == effect["do"]
        assert [name for name, _ in built.params] == [name for name, _ in PARAMETERS[built.do]]
    assert Catalogue.from_dict(catalogue.to_dict()) == catalogue
