"""Card effects in the catalogue: the printed ones, the demo's, owners' files, round trips."""

import copy
import io
import tomllib
from pathlib import Path

import pytest
from catalogue_helpers import (
    FILIP,
    JUNK,
    demo_fixture,  # noqa: F401  (a fixture)
    demo_overlay,
    in_tmp_fixture,  # noqa: F401  (a fixture)
    printed_fixture,  # noqa: F401  (a fixture)
    printed_raw_fixture,  # noqa: F401  (a fixture)
)
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_app.store.catalogue_files import check_command, load, save_owner_card, to_toml
from rules.catalogue import (
    ACTIONS,
    NO_EFFECT,
    PARAMETERS,
    PERMANENT,
    UNKNOWN,
    Catalogue,
    CatalogueError,
    Effect,
    build,
    conflicts,
    merge,
    problems,
)

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
    assert 'advanced.effect = {do = "bonus_per_type", type = "bird", points = 1}' in text
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
