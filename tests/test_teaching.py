"""Playing the printed box: the panel asks each unknown value when the game first needs it."""

import os
import tomllib

import pytest

from firmware_app import catalogue_files
from firmware_app.autopilot import Autopilot
from firmware_app.flows.teach import CardTeacher, CostEntry
from firmware_app.headless import Headless
from firmware_app.ui.screens import LetterEntry, Menu, Notice, NumberEntry
from rules.catalogue import Catalogue, merge
from rules.catalogue.teaching import refusal, unnamed_cards
from rules.colours import COLOURS
from rules.errors import IllegalAction
from rules.pingwiny.family import FamilyGame
from rules.pingwiny.options import Options
from rules.record import replay

# From the start screen: New game, family, 2 players, normal, app bag, app deck, our own cards.
OWN_CARDS = ["press ok"] * 7


def own_game(tmp_path, language="en", seed=1, folder="state") -> Headless:
    sim = Headless(tmp_path / folder, language=language, owner_catalogue=tmp_path / "owner.toml")
    sim.seed = seed
    for line in OWN_CARDS:
        sim.command(line)
    return sim


def answer_mix(sim) -> None:
    """OK on each colour: the suggested counts add up to 104; then the seats' defaults."""
    while isinstance(sim.app.top, NumberEntry) and "how many" in sim.screen:
        sim.press("ok")
    sim.press("ok", 4)  # no names, the app deals, the app draws, everyone plays


def teachers_asked(sim) -> list[str]:
    """Play the game out with the autopilot, noting each card a teaching screen named."""
    asked = []
    pilot = Autopilot(sim, 1)
    while pilot.step():
        top = sim.app.top
        if isinstance(top, CostEntry | LetterEntry) or "type" in sim.screen.splitlines()[0]:
            asked.append(sim.screen.splitlines()[0])
    return asked


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_whole_family_game_on_the_printed_box_from_an_empty_owners_file(tmp_path, language):
    sim = own_game(tmp_path, language)
    assert "how many" in sim.screen or "ile" in sim.screen  # the token mix comes first
    teachers_asked(sim)
    session = sim.app.session
    assert session.over
    record = sim.journal.record(session.game_id)
    assert record["catalogue"]["meta"]["kind"] == "owner"
    assert replay(record).final == session.state  # the completed record replays exactly
    owner = tomllib.loads((tmp_path / "owner.toml").read_text(encoding="utf-8"))
    assert sum(owner["tokens"].values()) == 104
    assert session.game.score(session.state).winners
    sim.close()


def test_a_second_game_asks_nothing_already_taught(tmp_path):
    first = own_game(tmp_path, folder="one")
    teachers_asked(first)
    taught = {c["id"] for c in tomllib.loads((tmp_path / "owner.toml").read_text())["figurant"]}
    first.close()
    second = own_game(tmp_path, seed=2, folder="two")
    assert "how many" not in second.screen  # the mix is remembered
    again = teachers_asked(second)
    names = {c.name: c.id for c in second.app.session.game.cards.figurants.values()}
    assert not [title for title in again if names.get(title.strip("[]").split(":")[0]) in taught]
    second.close()


def test_points_can_wait_for_the_score_sheet_and_score_the_same(tmp_path):
    sim = own_game(tmp_path)
    sim.app.set_setting("teach_points", "score")
    answer_mix(sim)
    while isinstance(sim.app.top, Notice):
        sim.press("ok")
    # the first card asked for is a face-up one, and only its cost
    assert isinstance(sim.app.top, CostEntry | Menu)
    pilot = Autopilot(sim, 1)
    while not sim.app.session.over:
        pilot.step()
    with pytest.raises(IllegalAction):  # points of held cards are still unknown
        sim.app.session.game.score(sim.app.session.state)
    while pilot.step():
        pass
    assert sim.app.session.game.score(sim.app.session.state).winners
    sim.close()


def teach_first_card(sim) -> CardTeacher:
    answer_mix(sim)
    while isinstance(sim.app.top, Notice):
        sim.press("ok")
    while isinstance(sim.app.top, Menu) and "Keep" in sim.screen:  # an unnamed card: keep
        sim.press("ok")
    assert isinstance(sim.app.top, CostEntry), sim.screen
    return sim.app.top


def test_a_cost_out_of_bounds_is_refused_and_changes_nothing(tmp_path):
    sim = own_game(tmp_path)
    teach_first_card(sim)
    before = (tmp_path / "owner.toml").read_bytes()
    header = sim.journal.record(sim.app.session.game_id)["catalogue"]
    sim.press("red", 8)
    sim.press("ok")
    assert "1 to 7 tokens, not 8" in " ".join(sim.screen.split())
    sim.press("ok")
    assert isinstance(sim.app.top, CostEntry)  # asked again
    assert (tmp_path / "owner.toml").read_bytes() == before
    assert sim.journal.record(sim.app.session.game_id)["catalogue"] == header
    sim.press("ok")  # no token at all
    assert "not 0" in " ".join(sim.screen.split())
    sim.close()


def test_teaching_a_family_card_costs_these_presses(tmp_path):
    """4 tokens, 2 points, "enemy": the figures quoted in docs/catalogue.md."""
    sim = own_game(tmp_path)
    teach_first_card(sim)
    name = sim.screen.splitlines()[0].split("]")[0].strip("[")
    presses = 0
    for colour in ("red", "red", "blue", "white"):
        sim.press(colour)
        presses += 1
    sim.press("ok")  # cost done
    sim.press("up")  # 2 points
    sim.press("ok")
    sim.press("down", 3)  # enemy
    sim.press("ok")
    presses += 1 + 2 + 4
    assert presses == 11
    card = next(f for f in sim.app.session.game.cards.figurants.values() if f.name == name)
    assert (card.points, card.type) == (2, "enemy")
    assert sum(card.cost) == 4
    sim.close()


@pytest.mark.parametrize(
    ("section", "field", "value", "refused"),
    [
        ("figurant", "cost", {"red": 1}, False),
        ("figurant", "cost", {"red": 7}, False),
        ("figurant", "cost", {}, True),
        ("figurant", "cost", {"red": 4, "blue": 4}, True),
        ("figurant", "points", 0, False),
        ("figurant", "points", 9, False),
        ("figurant", "points", 10, True),
        ("figurant", "officer_x", [1, 6], False),
        ("figurant", "officer_x", [0, 3], True),
        ("figurant", "officer_x", [4, 7], True),
        ("mission", "scoring", [[2, 1], [3, 3]], False),
        ("mission", "scoring", [[3, 1], [3, 3]], True),
        ("mission", "scoring", [[2, 0]], True),
        ("mission", "scoring", [[10, 1]], True),
        ("figurant", "name", "Julek", False),
        ("figurant", "name", " ", True),
        ("figurant", "name", "A" * 17, True),
    ],
)
def test_every_bound(section, field, value, refused):
    assert (refusal(section, field, value) is not None) == refused


def test_the_unnamed_cards_are_numbered_after_the_named_ones():
    raw = catalogue_files.load([], demo=False).to_dict()
    overlay = unnamed_cards(raw)
    assert [c["name"] for c in overlay["figurant"]][:2] == ["Figurant 30", "Figurant 31"]
    assert len(overlay["figurant"]) == 13
    assert [c["id"] for c in overlay["mission"]] == ["mission-8", "mission-9", "mission-10"]
    raw["figurant"].append({"id": "figurant-30", "name": "Julek"})
    assert overlay_ids(unnamed_cards(raw))[0] == "figurant-31"


def overlay_ids(overlay):
    return [c["id"] for c in overlay["figurant"]]


def test_an_unknown_cost_cannot_be_bought():
    raw = catalogue_files.load_for_play([]).to_dict()
    mix = dict(zip(COLOURS, (15, 15, 15, 15, 14, 15, 15), strict=True))
    box = Catalogue.from_dict(merge(raw, {"tokens": mix}, owner=True))
    game = FamilyGame(box, Options(players=2, seed=1))
    s = game.new_state()
    s = game.apply(s, "draw")[0]
    card = next(c for c in s.faceup if game.cards.figurants[c].cost is None)
    assert not [a for a in game.legal_actions(s) if card in str(a)]
    with pytest.raises(IllegalAction):
        game.apply(s, f"visit hq {card}")


def test_the_owners_file_survives_a_power_cut_in_the_middle_of_teaching(tmp_path, monkeypatch):
    path = tmp_path / "owner.toml"
    catalogue_files.save_owner_card(path, {"id": "becky", "family": {"points": 4}})
    before = path.read_bytes()

    def cut(*args):
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", cut)
    with pytest.raises(OSError):
        catalogue_files.save_owner_card(path, {"id": "hans", "family": {"points": 2}})
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["owner.toml"]  # no half file left
