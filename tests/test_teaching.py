"""Playing the printed box: the panel asks each unknown value when the game first needs it."""

import io
import os
import tomllib

import pytest
from screen_helpers import choose

import rules.players
from firmware_app.flows.shared.teach import CardTeacher, CostEntry, card_name
from firmware_app.flows.shared.teach_screens import StepEntry
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.store import catalogue_files
from firmware_app.ui.screens import LetterEntry, Menu, NumberEntry
from rules.catalogue import Catalogue, merge
from rules.catalogue.teaching import refusal, unnamed_cards
from rules.catalogue.values import value_problems
from rules.colours import COLOURS
from rules.errors import IllegalAction
from rules.pingwiny.family import FamilyGame
from rules.pingwiny.options import Options
from rules.record import replay

# From the start screen: New game, family, 2 players, normal, app bag, app deck, our own cards.
OWN_CARDS = ["press ok"] * 7
# The same for the advanced variant, with the app's die.
OWN_ADVANCED = ["press ok", "press down 2", "press ok"] + ["press ok"] * 6


def own_game(tmp_path, language="en", seed=1, folder="state", script=OWN_CARDS) -> Headless:
    owner = tmp_path / "owner.toml"
    sim = Headless(tmp_path / folder, language=language, seed=seed, owner_catalogue=owner)
    for line in script:
        sim.command(line)
    return sim


def answer_mix(sim) -> None:
    """ "Count them now", OK on each colour (the suggested counts add up to 104), then the
    seats' defaults: no names, the app deals, the app draws who starts, everyone plays at
    the table."""
    if isinstance(sim.app.top, Menu) and sim.app.top.title == sim.app.t("Tokens in the box"):
        sim.press("ok")
    while isinstance(sim.app.top, NumberEntry) and sim.app.session is None:
        sim.press("ok")
    seats = [sim.app.t(t) for t in ("Names", "Penguins", "First player", "Virtual players")]
    while isinstance(sim.app.top, Menu) and sim.app.top.title in seats:
        sim.press("ok")  # no names, the app deals, the app draws, everyone plays


def teachers_asked(sim) -> list[str]:
    """Play the game out with the autopilot, noting each card a teaching screen named."""
    asked = []
    pilot = Autopilot(sim, 1)
    while pilot.step():
        top = sim.app.top
        if isinstance(top, CostEntry | LetterEntry) or "type" in sim.screen.splitlines()[0]:
            asked.append(sim.screen.splitlines()[0])
    return asked


@pytest.mark.whole_game
@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_whole_family_game_on_the_printed_box_from_an_empty_owners_file(tmp_path, language):
    sim = own_game(tmp_path, language)
    assert sim.app.top.title == sim.app.t("Tokens in the box")  # the token mix comes first
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


@pytest.mark.whole_game
@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_whole_advanced_game_on_the_printed_box_from_an_empty_owners_file(tmp_path, language):
    sim = own_game(tmp_path, language, script=OWN_ADVANCED)
    teachers_asked(sim)
    session = sim.app.session
    assert session.over
    assert replay(sim.journal.record(session.game_id)).final == session.state
    owner = tomllib.loads((tmp_path / "owner.toml").read_text(encoding="utf-8"))
    taught = [c for c in owner["figurant"] if "advanced" in c]
    assert len([c for c in taught if "officer_x" in c["advanced"]]) >= len(taught) - 1
    assert [c for c in taught if "effect" in c["advanced"] and "text" in c["advanced"]]
    missions = [m.get("advanced", {}) for m in owner["mission"]]
    assert [m for m in missions if "scoring" in m]
    # a mission's effect is taught, and its words are not made from it as a figurant's are
    assert [m for m in missions if "effect" in m]
    assert not [m for m in missions if "text" in m]
    assert session.game.score(session.state).winners
    sim.close()
    second = own_game(tmp_path, seed=2, folder="again", script=OWN_ADVANCED)
    known = {c["id"] for c in taught}
    pilot = Autopilot(second, 2)
    while pilot.step():
        top = second.app.top
        if isinstance(top, CostEntry):
            assert top.title not in {second.app.session.game.cards.figurants[c].name for c in known}
    second.close()


@pytest.mark.whole_game
def test_a_second_game_asks_nothing_already_taught(tmp_path):
    first = own_game(tmp_path, folder="one")
    teachers_asked(first)
    taught = {c["id"] for c in tomllib.loads((tmp_path / "owner.toml").read_text())["figurant"]}
    first.close()
    second = own_game(tmp_path, seed=2, folder="two")
    assert "how many" not in second.screen  # the mix is remembered
    assert second.app.top.title != second.app.t("Tokens in the box")
    again = teachers_asked(second)
    names = {c.name: c.id for c in second.app.session.game.cards.figurants.values()}
    assert not [title for title in again if names.get(title.strip("[]").split(":")[0]) in taught]
    second.close()


@pytest.mark.whole_game
def test_points_can_wait_for_the_score_sheet_and_score_the_same(tmp_path):
    sim = own_game(tmp_path)
    sim.app.set_setting("teach_points", "score")
    answer_mix(sim)
    teach_first_card(sim)  # a face-up card, and only its cost
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
    """Past the setup, the missions' questions and the naming of the cards laid out (the
    first of each list) to the first card's cost."""
    answer_mix(sim)
    for _ in range(200):
        if isinstance(sim.app.top, CostEntry):
            return sim.app.top
        sim.press("blue" if isinstance(sim.app.top, StepEntry) else "ok")  # a one-step mission
    raise AssertionError(sim.screen)


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


@pytest.mark.parametrize(
    ("field", "value", "refused"),
    [
        ("cost", {"red": 1}, False),
        ("cost", {"red": 7}, False),
        ("cost", {}, True),
        ("cost", {"red": 4, "blue": 4}, True),
        ("points", 0, False),
        ("points", 9, False),
        ("points", 10, True),
        ("scoring", [[2, 1], [3, 3]], False),
        ("scoring", [[3, 1], [3, 3]], True),
        ("scoring", [[2, 0]], True),
        ("scoring", [[10, 1]], True),
        ("name", "Julek", False),
        ("name", " ", True),
        ("name", "A" * 17, True),
    ],
)
def test_every_bound(field, value, refused):
    assert (refusal(field, value) is not None) == refused


@pytest.mark.parametrize(
    ("value", "refused"),
    [([1, 6], False), ([2, 2], False), ([0, 3], True), ([4, 7], True), ([5, 3], True)],
)
def test_an_officer_x_range_lies_on_the_die(value, refused):
    """The panel offers only the die's ranges; a file's range is checked with its shape."""
    assert bool(value_problems("officer_x", value)) == refused


def test_the_unnamed_cards_are_numbered_after_the_named_ones():
    raw = catalogue_files.load([], demo=False).to_dict()
    overlay = unnamed_cards(raw)
    assert [c["name"] for c in overlay["figurant"]][:2] == ["Figurant 30", "Figurant 31"]
    assert len(overlay["figurant"]) == 13
    assert [c["id"] for c in overlay["mission"]] == ["mission-8", "mission-9", "mission-10"]
    raw["figurant"].append({"id": "figurant-30", "name": "Julek"})
    assert overlay_ids(unnamed_cards(raw))[0] == "figurant-31"


def test_a_catalogue_that_gives_no_counts_adds_no_unnamed_card():
    """Without the box's counts nothing says how many cards are still to be named."""
    raw = catalogue_files.load([], demo=False).to_dict()
    raw["meta"] = {key: value for key, value in raw["meta"].items() if "count" not in key}
    assert unnamed_cards(raw) == {}
    assert unnamed_cards({**raw, "figurant": [], "mission": []}) == {}  # not even one card


def test_a_catalogue_with_counts_and_no_card_yet_numbers_every_card_from_one():
    """A section not written yet holds no named card: its unnamed ones start at 1."""
    overlay = unnamed_cards({"meta": {"figurant_count": 2, "mission_count": 1}})
    assert overlay == {
        "figurant": [
            {"id": "figurant-1", "name": "Figurant 1"},
            {"id": "figurant-2", "name": "Figurant 2"},
        ],
        "mission": [{"id": "mission-1", "name": "Mission 1"}],
    }


def overlay_ids(overlay):
    return [c["id"] for c in overlay["figurant"]]


def test_a_penguins_card_in_a_game_is_named_as_the_box_names_its_penguin():
    box = catalogue_files.load([], demo=False)
    game = FamilyGame(box, Options(players=2, seed=1, bag="table"))  # the printed mix unknown
    named = {p.id: card_name(game, "penguin", p.id) for p in box.penguins}
    assert named == {p.id: p.name for p in box.penguins} and "Rico" in named.values()


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


POPIEL = ["press ok", "press down 1", "press ok", "press ok", "press ok", "press ok"]


@pytest.mark.parametrize("language", ["en", "pl"])
def test_krol_popiel_asks_its_windows_and_reward_mix_once(tmp_path, language):
    owner = tmp_path / "owner.toml"
    for game in ("one", "two"):
        sim = Headless(tmp_path / game, language=language, owner_catalogue=owner)
        for line in POPIEL:
            sim.command(line)
        asked = []
        while sim.app.session is None:
            title = sim.screen.splitlines()[0]
            if title in (f"[{sim.app.t('Windows')}]", f"[{sim.app.t('Reward tokens')}]"):
                asked.append(title)
            sim.press("ok")
        pilot = Autopilot(sim, 1)
        while pilot.step():
            pass
        session = sim.app.session
        assert session.over
        assert replay(sim.journal.record(session.game_id)).final == session.state
        assert session.game.options.rewards == "app"
        if game == "one":
            assert len(asked) == 6  # windows, "count them now", the four kinds
        else:
            assert len(asked) == 1  # only who draws the rewards
        sim.close()
    taught = tomllib.loads((tmp_path / "owner-krol-popiel.toml").read_text(encoding="utf-8"))
    assert taught["windows"] == {"A": 6} and sum(taught["rewards"].values()) == 8


def test_windows_a_full_card_cannot_save_are_played_this_game_and_asked_again(
    tmp_path, monkeypatch, caplog
):
    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(catalogue_files, "save_popiel_owner", full)
    sim = Headless(tmp_path / "state", owner_catalogue=tmp_path / "owner.toml")
    for line in POPIEL:
        sim.command(line)
    sim.press("up", 2)  # eight windows, not the six first offered
    sim.press("ok")
    assert caplog.messages == ["windows not saved: [Errno 28] No space left on device"]
    assert not (tmp_path / "owner-krol-popiel.toml").exists()
    sim.press("down")  # the rewards drawn at the table: nothing more to save
    for _ in range(20):
        if sim.app.session is not None:
            break
        sim.press("ok")
    assert sim.app.session.game.windows == 8
    sim.close()


def test_a_reward_mix_that_does_not_add_up_is_refused(tmp_path):
    sim = Headless(tmp_path / "state", owner_catalogue=tmp_path / "owner.toml")
    for line in POPIEL:
        sim.command(line)
    sim.press("ok")  # six windows
    sim.press("ok")  # count them now
    sim.press("ok", 3)  # two of each of the first three kinds
    sim.press("up")  # and three doubles: nine in all
    sim.press("ok")
    assert "add up to 9" in " ".join(sim.screen.split())
    assert "rewards" not in (tmp_path / "owner-krol-popiel.toml").read_text()
    sim.press("ok")
    assert "Count them now" in sim.screen  # back to the choice, to count again
    sim.close()


def test_check_lists_no_unknown_for_the_shipped_data_and_a_fully_taught_owners_file(tmp_path):
    """Every value the demo makes up, taught as an owner would (its numbered cards as the
    box's own), and Król Popiel's tower and rewards: nothing is left to ask."""
    demo = tomllib.loads((catalogue_files.DEMO_FILE).read_text(encoding="utf-8"))
    del demo["meta"]
    for section in ("figurant", "mission"):
        for card in demo[section]:
            if card["id"].startswith("demo-"):
                number = card["id"].removeprefix("demo-")
                card["id"], card["name"] = f"{section}-{number}", f"Ours {number}"
    renamed = {f"demo-{n}": f"figurant-{n}" for n in range(30, 43)}
    for card in demo["figurant"]:
        effect = card.get("advanced", {}).get("effect")
        if isinstance(effect, dict) and "card" in effect:
            effect["card"] = renamed.get(effect["card"], effect["card"])
        if isinstance(effect, dict) and "cards" in effect:
            effect["cards"] = [renamed.get(c, c) for c in effect["cards"]]
    owner = tmp_path / "owner.toml"
    catalogue_files.save_owner(owner, demo)
    popiel = catalogue_files.popiel_owner_file(owner)
    catalogue_files.save_popiel_owner(popiel, "windows", {"A": 6, "B": 7})
    catalogue_files.save_popiel_owner(
        popiel, "rewards", {"plus2": 3, "plus3": 2, "extra": 2, "double": 1}
    )
    out = io.StringIO()
    assert catalogue_files.check_command([str(owner)], out) == 0
    assert out.getvalue().splitlines() == ["ok", "nothing unknown"]


def test_teaching_an_advanced_card_costs_these_presses(tmp_path):
    """4 tokens, Officer X 1–3, "draw 2 random tokens", 2 points, "enemy": the figures
    quoted in docs/catalogue.md, counted press by press: the cost (5), the range (DOWN,
    OK), the effect (DOWN, OK, the count from where it starts, OK), the points from where
    they start and the type's colour."""
    sim = own_game(tmp_path, script=OWN_ADVANCED)
    teach_first_card(sim)
    title = sim.app.top.title
    pressed = []
    press = sim.press

    def counting(name, times=1):
        pressed.extend([name] * times)
        press(name, times)

    def to(value):  # UP or DOWN from where the number starts
        start = sim.app.top.value
        sim.press("up" if value > start else "down", abs(value - start))
        return abs(value - start)

    sim.press = counting
    for colour in ("red", "red", "blue", "white"):
        sim.press(colour)
    sim.press("ok")  # cost done
    sim.press("down")  # Officer X 1–3, one below 1–2
    sim.press("ok")
    assert sim.app.top.title == f"{title}: What it does"
    assert sim.app.top.items[0].label == "No effect"
    sim.press("down")  # draw random tokens
    sim.press("ok")
    moved = to(2)  # 2 of them
    sim.press("ok")
    moved += to(2)  # 2 points
    sim.press("yellow")  # enemy
    assert len(pressed) == 11 + moved
    card = next(f for f in sim.app.session.game.cards.figurants.values() if f.name == title)
    assert (sum(card.cost), card.officer_x, card.points, card.type) == (4, (1, 3), 2, "enemy")
    assert (card.effect.do, card.effect.param("count")) == ("draw", 2)
    box = catalogue_files.load_for_play([tmp_path / "owner.toml"])
    taught = next(f for f in box.figurants if f.name == title)
    assert taught.advanced.text == "Draw 2 random tokens"
    sim.close()


def test_a_value_saved_just_before_a_power_cut_is_filled_in_on_resume(tmp_path):
    """The owner's file is written first, then the game's record: a cut between the two
    leaves the value in the file only, and the resumed game takes it without asking."""
    sim = own_game(tmp_path)
    teach_first_card(sim)
    name = sim.app.top.title
    game = sim.app.session.game
    card = next(f for f in game.cards.figurants.values() if f.name == name)
    saved = {"id": card.id, "family": {"cost": {"red": 2}, "points": 1, "type": "bird"}}
    if card.id.startswith("figurant-"):
        saved["name"] = name
    catalogue_files.save_owner_card(tmp_path / "owner.toml", saved)
    sim.close()  # the power goes
    written = (tmp_path / "owner.toml").stat()
    again = Headless(tmp_path / "state", owner_catalogue=tmp_path / "owner.toml")
    again.press("ok")  # resume
    session = again.app.session
    assert session.game.cards.figurants[card.id].cost == (2, 0, 0, 0, 0, 0, 0, 0)
    now = (tmp_path / "owner.toml").stat()  # what the file holds is not written to it again
    assert (now.st_ino, now.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)
    header = again.journal.record(session.game_id)["catalogue"]
    assert next(f for f in header["figurant"] if f["id"] == card.id)["family"]["type"] == "bird"
    assert not (isinstance(again.app.top, CostEntry) and again.app.top.title == name)
    again.close()


def test_a_second_unknown_tag_replaces_the_first_and_no_empty_menu_opens(tmp_path):
    from firmware_app.flows.shared.cards import TagMenu

    sim = Headless(tmp_path / "state", owner_catalogue=tmp_path / "owner.toml")
    sim.tag("0A0A0A0A")
    sim.tag("0B0B0B0B")
    assert [type(s) for s in sim.app.stack].count(TagMenu) == 1
    menu = sim.app.top
    box = catalogue_files.load_for_play([])
    every = [f.id for f in box.figurants] + [m.id for m in box.missions]
    sim.app.set_setting("tags", {f"{n:08X}": card for n, card in enumerate(every)})
    sim.tag("0C0C0C0C")
    assert menu not in sim.app.stack
    assert "Every card already has a tag" in " ".join(sim.screen.split())
    sim.close()


def test_a_virtual_player_thinks_past_cards_not_taught_yet():
    """A hint on the printed box: a face-up card of unknown cost or points is no aim."""
    raw = catalogue_files.load_for_play([]).to_dict()
    mix = dict(zip(COLOURS, (15, 15, 15, 15, 14, 15, 15), strict=True))
    box = Catalogue.from_dict(merge(raw, {"tokens": mix}, owner=True))
    game = FamilyGame(box, Options(players=2, seed=1))
    s = game.apply(game.new_state(), "draw")[0]
    assert any(game.cards.figurants[c].cost is None for c in s.faceup if c)
    choice = rules.players.choose(game, s, "normal", seed=1, nodes=200)
    assert choice.action in game.legal_actions(s)


def test_a_token_mix_adding_up_to_less_than_104_is_refused(tmp_path):
    """The rulebook's "Game Components": "104 tokens." A count one short (the last colour
    lowered by one) is refused with its sum, and nothing is kept in the owner's file."""
    sim = own_game(tmp_path)
    try:
        assert isinstance(sim.app.top, NumberEntry)  # the app's bag: counted at once
        for _ in range(len(COLOURS) - 1):
            sim.press("ok")  # the suggested count of each colour but the last
        sim.press("down")  # the last one lowered: the mix is one short
        sim.press("ok")
        assert sim.screen.splitlines()[0] == "[Not possible]"
        assert "add up to 103; the box has 104" in " ".join(sim.screen.split())
        assert sim.app.session is None  # no game begun on a wrong mix
        owner = tmp_path / "owner.toml"
        assert not owner.exists() or "tokens" not in tomllib.loads(owner.read_text("utf-8"))
    finally:
        sim.close()


def test_an_effects_count_starts_at_the_median_of_the_counts_the_box_knows(tmp_path):
    """The rulebook's examples give three effects a count of 1; the owner's file gives four
    more cards a count of 3: teaching the next effect starts its count at the median of the
    seven, 3 (docs/catalogue.md, "advanced: what it does")."""
    drawing = {"advanced": {"effect": {"do": "draw", "count": 3}}}
    cards = [{"id": card, **drawing} for card in ("antonio", "becky", "hans", "mort")]
    catalogue_files.save_owner(tmp_path / "owner.toml", {"figurant": cards})
    sim = own_game(tmp_path, script=OWN_ADVANCED)
    teach_first_card(sim)
    for press in ("red", "ok", "ok", "down", "ok"):  # a cost, Officer X, "draw random tokens"
        sim.press(press)
    assert isinstance(sim.app.top, NumberEntry) and sim.app.top.value == 3
    sim.close()


def test_an_effect_naming_a_numbered_card_writes_that_card_into_a_lost_owners_file(tmp_path):
    """The running game knows the table's number "30" for figurant-30; the owner's file that
    held it is lost mid-game. A card taught "+2 with 30" then writes figurant-30 and its
    number back with it: the owner's file alone finds every card its effects name."""
    owner = tmp_path / "owner.toml"
    catalogue_files.save_owner(owner, {"figurant": [{"id": "figurant-30", "name": "30"}]})
    sim = own_game(tmp_path, script=OWN_ADVANCED)
    answer_mix(sim)
    pilot = Autopilot(sim, 1)
    asks = sim.app.t("What it does")
    while not (isinstance(sim.app.top, Menu) and sim.app.top.title.endswith(asks)):
        assert pilot.step(), "the game ended without asking a card's effect"
    teacher = sim.app.top.teacher
    taught = teacher.card_id
    assert taught != "figurant-30"
    owner.unlink()  # the owner's file is lost; the game keeps its cards' names
    choose(sim, "Points with another card")
    choose(sim, "30")
    sim.press("up")  # 2 points
    sim.press("ok")
    while getattr(sim.app.top, "teacher", None) is teacher:  # the card's other values
        pilot.step()
    written = tomllib.loads(owner.read_text(encoding="utf-8"))
    cards = {card["id"]: card for card in written["figurant"]}
    assert cards["figurant-30"] == {"id": "figurant-30", "name": "30"}
    assert dict(cards[taught]["advanced"]["effect"]) == {
        "do": "bonus_with",
        "card": "figurant-30",
        "points": 2,
    }
    sim.close()


def test_a_card_revealed_in_play_is_taught_under_the_name_of_the_player_who_revealed_it(
    tmp_path,
):
    """Past the cards laid out at the start, a card laid face up by a player's action is
    asked for under that player's seat: "Player N: <card>" (no names given)."""
    sim = own_game(tmp_path)
    answer_mix(sim)
    pilot = Autopilot(sim, 1)
    for _ in range(300):
        if isinstance(sim.app.top, CostEntry) and sim.app.top.teacher.who is not None:
            break
        assert pilot.step(), "the game ended without a card revealed in play"
    else:
        raise AssertionError(sim.screen)
    session = sim.app.session
    acted = session.states[-2].current  # whose action made the position asking for it
    card = card_name(session.game, "figurant", sim.app.top.teacher.card_id)
    assert sim.app.top.title == f"Player {acted + 1}: {card}"
    sim.close()
