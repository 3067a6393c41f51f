"""Laying one table over another, on the smallest tables that show each rule of docs/catalogue.md
("Merging"): a demo only fills unknowns, an owner's file may correct, a new card needs its
name, and neither table given is changed."""

import copy

import pytest

from rules.catalogue import OWNER_LABEL, CatalogueError, conflicts, merge, misspelt_ids

BASE = {
    "meta": {"game": "pingwiny", "kind": "printed", "label": "printed", "token_total": 104},
    "figurant": [
        {"id": "hans", "name": "Hans", "family": {"points": 2}, "sources": {"name": "p. 4"}},
        {"id": "becky", "name": "Becky", "family": {"points": "unknown"}},
    ],
    "mission": [{"id": "wrog", "name": "Wróg", "notes": ["printed in 2014"]}],
}


def demo(**parts: object) -> dict:
    return {"meta": {"game": "pingwiny", "kind": "demo", "label": "made up"}, **parts}


def test_an_owners_card_of_no_known_id_and_no_name_is_named_as_misspelt() -> None:
    owner = {
        "meta": {"game": "pingwiny", "kind": "owner"},
        "tokens": {"red": 16},
        "figurant": [
            {"id": "hnas", "family": {"points": 3}},
            {"id": "newbie", "name": "Newbie"},
            {"id": "becky", "family": {"points": 3}},
            {"id": "zzz"},
        ],
        "mission": [{"id": "hans"}],
    }
    assert [str(problem) for problem in misspelt_ids(BASE, owner, "owner.toml")] == [
        "owner.toml: figurant 'hnas': id: no figurant has this id; did you mean 'hans'? "
        "(a new card also needs its name)",
        "owner.toml: figurant 'zzz': id: no figurant has this id (a new card also needs its name)",
        "owner.toml: mission 'hans': id: no mission has this id (a new card also needs its name)",
    ]


def test_a_card_of_a_section_the_base_lacks_is_misspelt_too() -> None:
    found = misspelt_ids(BASE, {"penguin": [{"id": "rico"}]}, "owner.toml")
    assert [str(problem) for problem in found] == [
        "owner.toml: penguin 'rico': id: no penguin has this id (a new card also needs its name)"
    ]


def test_a_demo_that_changes_a_known_value_is_refused_value_by_value() -> None:
    overlay = demo(
        figurant=[
            {"id": "newbie", "name": "Newbie", "short_game": "removed"},
            {"id": "hans", "family": {"points": 3}, "short_game": "removed"},
            {"id": "becky", "family": {"points": 4, "cost": {"red": 1}}, "english": "Becky"},
        ],
    )
    overlay["meta"]["token_total"] = 100
    with pytest.raises(CatalogueError) as caught:
        merge(BASE, overlay, owner=False, source="demo.toml")
    assert str(caught.value).splitlines() == [
        "demo.toml: meta: token_total: contradicts the known value 104: a demo only fills unknowns",
        "demo.toml: figurant 'hans': family.points: contradicts the known value 2: a demo only "
        "fills unknowns",
        "demo.toml: figurant 'hans': short_game: contradicts the known value 'kept': a demo only "
        "fills unknowns",
        "demo.toml: figurant 'becky': english: contradicts the known value nothing: a demo only "
        "fills unknowns",
    ]


def test_only_a_demo_or_an_owners_file_is_merged_and_the_refusal_names_the_source() -> None:
    printed = {"meta": {"game": "pingwiny", "kind": "printed"}}
    with pytest.raises(CatalogueError) as caught:
        merge(BASE, printed, owner=False)
    assert str(caught.value) == (
        "overlay: meta: kind: 'printed': only an owner's file or a demo overlay may be merged"
    )
    chess = {"meta": {"game": "chess"}}
    assert [str(p) for p in conflicts(BASE, chess, "owner.toml", owner=True)] == [
        "owner.toml: meta: game: 'chess' does not match 'pingwiny'"
    ]
    assert conflicts(BASE, {"figurant": [{"id": "becky"}]}, "owner.toml", owner=True) == []
    assert [str(p) for p in conflicts(BASE, {}, "overlay", owner=False)] == [
        "overlay: meta: kind: None: only an owner's file or a demo overlay may be merged"
    ]  # an overlay that says nothing of itself is no demo


def test_a_demo_fills_unknowns_and_adds_cards_and_says_its_label() -> None:
    overlay = demo(
        tokens={"red": 16},
        figurant=[{"id": "becky", "family": {"points": 4}}, {"id": "new", "name": "New"}],
    )
    merged = merge(BASE, overlay, owner=False)
    assert merged["meta"] == BASE["meta"] | {"kind": "demo", "label": "made up"}
    assert merged["tokens"] == {"red": 16}
    assert merged["figurant"][1]["family"] == {"points": 4}
    assert merged["figurant"][2] == {"id": "new", "name": "New"}
    unlabelled = {"meta": {"game": "pingwiny", "kind": "demo"}}
    assert merge(BASE, unlabelled, owner=False)["meta"]["label"] == "printed"


def test_an_owners_correction_loses_the_old_source_and_keeps_notes_once() -> None:
    owner = {
        "figurant": [
            {"id": "hans", "name": "Hans Olaf", "sources": {"family.points": "my box"}},
        ],
        "mission": [{"id": "wrog", "notes": ["printed in 2014", "mine is torn"]}],
    }
    merged = merge(BASE, owner, owner=True)
    hans = merged["figurant"][0]
    assert hans["name"] == "Hans Olaf"
    assert hans["sources"] == {"family.points": "my box"}
    assert merged["mission"][0]["notes"] == ["printed in 2014", "mine is torn"]
    assert merged["meta"] | {"token_total": 0} == BASE["meta"] | {
        "kind": "owner",
        "label": OWNER_LABEL,
        "token_total": 0,
    }
    same = merge(BASE, {"figurant": [{"id": "hans", "name": "Hans"}]}, owner=True)
    assert same["figurant"][0]["sources"] == {"name": "p. 4"}


def test_an_owners_file_over_a_table_without_meta_or_tokens_makes_them() -> None:
    bare = {"figurant": [{"id": "hans", "name": "Hans"}]}
    merged = merge(bare, {"tokens": {"grey": 10}}, owner=True)
    assert merged["tokens"] == {"grey": 10}
    assert merged["meta"] == {"kind": "owner", "label": OWNER_LABEL}


def test_neither_table_given_is_changed_by_the_merge_or_by_changing_its_result() -> None:
    base, overlay = (
        copy.deepcopy(BASE),
        {"mission": [{"id": "wrog", "family": {"scoring": [[1, 2]]}}]},
    )
    merged = merge(base, overlay, owner=True)
    merged["mission"][0]["family"]["scoring"][0][1] = 9
    merged["figurant"][0]["family"]["points"] = 9
    assert base == BASE
    assert overlay == {"mission": [{"id": "wrog", "family": {"scoring": [[1, 2]]}}]}
