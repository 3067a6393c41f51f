"""The demo deck beside an owner's file that numbered a card the rulebook does not name.

The demo deck lends its made-up stand-ins ("Demo figurant 30") to the box's unnamed
cards; an owner's file that holds one of them as itself ("figurant-30", written "30" on
the card) takes the stand-in's place. A demo card whose effect named that stand-in
("+1 point with Demo figurant 30") then names the owner's card: the two files load
together, and choosing "Demo deck" never keeps the owner's good file aside as damaged.
"""

from firmware_app.runners.headless import Headless
from firmware_app.store import catalogue_files
from rules.catalogue.teaching import demo_without

NUMBERED = {"id": "figurant-30", "name": "30", "family": {"cost": {"yellow": 2}, "points": 3}}


def test_a_numbered_card_takes_the_stand_ins_place_in_the_demo_cards_effects(tmp_path):
    owner = tmp_path / "catalogue.toml"
    catalogue_files.save_owner(owner, {"figurant": [NUMBERED]})
    box = catalogue_files.load([owner], demo=True)
    named = [
        dict(f.advanced.effect.params).get("card")
        for f in box.figurants
        if f.advanced.effect is not None and f.advanced.effect.params
    ]
    assert "figurant-30" in named and "demo-30" not in named
    assert box.figurant("figurant-30").name == "30"


def test_choosing_the_demo_deck_keeps_the_owners_file_where_it_is(tmp_path):
    owner = tmp_path / "catalogue.toml"
    catalogue_files.save_owner(owner, {"figurant": [NUMBERED]})
    kept = owner.read_bytes()
    sim = Headless(tmp_path / "state", owner_catalogue=owner)
    try:
        sim.app.catalogue(demo=True)
        assert owner.read_bytes() == kept
        assert not list(tmp_path.glob("catalogue.toml.damaged-*"))
        assert "Our cards' file could not be read" not in sim.screen
    finally:
        sim.close()


def test_a_demo_effect_naming_several_stand_ins_names_the_owners_cards_among_them():
    """An effect naming cards by a list ("immune" to Demo figurants 30 and 31) has each
    stand-in the owner holds as itself replaced, and the others kept: the demo deck has no
    such effect today, a made-up one stands for it."""
    immune = {"do": "immune", "cards": ["demo-30", "demo-31", "hans"]}
    card = {"id": "demo-5", "name": "Demo figurant 5", "advanced": {"effect": immune}}
    stand_ins = [{"id": "demo-30"}, {"id": "demo-31"}]
    kept = demo_without({"figurant": [card, *stand_ins]}, [{"figurant": [NUMBERED]}])
    (five, thirty_one) = kept["figurant"]
    assert five["advanced"]["effect"] == {
        "do": "immune",
        "cards": ["figurant-30", "demo-31", "hans"],
    }
    assert thirty_one == {"id": "demo-31"}
