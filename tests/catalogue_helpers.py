"""Shared values, strategies and fixtures for the catalogue tests."""

from pathlib import Path

import pytest
from hypothesis import strategies as st

from firmware_app.store.catalogue_files import PRINTED_FILE, load, load_raw
from rules.catalogue import Catalogue
from rules.colours import COST_COLOURS

# The figurants Filip holds in the rulebook's advanced Example Scoring.
FILIP = ("gladys", "fred", "edek", "joey", "alice", "zoe", "max-kolanko", "lolo")


def cost(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(colour, 0) for colour in COST_COLOURS)


@pytest.fixture(scope="module", name="printed_raw")
def printed_raw_fixture() -> dict:
    return load_raw(PRINTED_FILE)


@pytest.fixture(scope="module", name="printed")
def printed_fixture() -> Catalogue:
    return load([], demo=False)


@pytest.fixture(scope="module", name="demo")
def demo_fixture() -> Catalogue:
    return load([], demo=True)


@pytest.fixture(name="in_tmp")
def in_tmp_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Owner files given by bare name, as a user types them, so messages name them so."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def demo_overlay(**card: object) -> dict:
    return {"meta": {"game": "pingwiny", "kind": "demo", "label": "x"}, "figurant": [card]}


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
