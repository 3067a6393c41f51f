"""Teaching the printed rules at the table, through the buttons on the fakes, in both
languages: the rainbow cost, missions counting several or different types, "we don't
know" the token mix, and the effect kinds the advanced teaching menu offers."""

import tomllib

import pytest
from test_teaching import OWN_ADVANCED, own_game, teach_first_card

from firmware_app.flows.pingwiny.turn import card_line, status_lines
from firmware_app.flows.shared.effect_words import CHOICES
from firmware_app.flows.shared.teach import CostEntry, TypePicker
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.store import catalogue_files
from firmware_app.ui.screens import NumberEntry
from rules.colours import COLOURS, DIFFERENT
from rules.record import replay

LANGUAGES = ["en", "pl"]
# From the start screen: New game, family, 2 players, normal, "We draw from the bag",
# the app's deck, our own cards.
OWN_CARDS_TABLE_BAG = ["press ok"] * 4 + ["press down", "press ok"] + ["press ok"] * 2


def cost(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(colour, 0) for colour in (*COLOURS, "any"))


def flat(sim) -> str:
    return " ".join(sim.screen.split())


# ------------------------------------------------------------ the rainbow cost


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rainbow_cost_is_taught_with_the_buttons_and_shown_in_initials(tmp_path, language):
    sim = own_game(tmp_path, language)
    entry = teach_first_card(sim)
    title = entry.title
    sim.press("red")
    sim.press("up")  # the rainbow "any token": no button of its own
    assert sim.app.t.name("any") in sim.screen
    sim.press("ok")  # one any token
    sim.press("down")  # back to "done"
    sim.press("ok")
    sim.press("ok")  # 1 point
    sim.press("ok")  # bird
    game = sim.app.session.game
    card = next(c for c, f in game.cards.figurants.items() if f.name == title)
    assert game.cards.figurants[card].cost == cost(red=1, any=1)
    line = card_line(sim.app, card)
    assert line.split("·")[0].endswith({"en": "R A ", "pl": "C D "}[language])
    owner = tomllib.loads((tmp_path / "owner.toml").read_text(encoding="utf-8"))
    taught = next(f for f in owner["figurant"] if f["id"] == card)
    assert taught["family"]["cost"] == {"red": 1, "any": 1}
    sim.close()


def test_a_rainbow_cost_of_eight_is_refused_and_changes_nothing(tmp_path):
    sim = own_game(tmp_path)
    teach_first_card(sim)
    before = (tmp_path / "owner.toml").read_bytes()
    header = sim.journal.record(sim.app.session.game_id)["catalogue"]
    sim.press("up")
    sim.press("ok", 8)
    sim.press("down")
    sim.press("ok")
    assert "1 to 7 tokens, not 8" in flat(sim)
    sim.press("ok")
    assert isinstance(sim.app.top, CostEntry)
    assert (tmp_path / "owner.toml").read_bytes() == before
    assert sim.journal.record(sim.app.session.game_id)["catalogue"] == header
    sim.close()


# ------------------------------------------------------------ missions


def open_card(sim, name: str) -> None:
    """Settings → Our cards → the card called ``name``."""
    t = sim.app.t
    sim.press("down")  # Settings
    sim.press("ok")
    labels = [item.label for item in sim.app.top.items]
    sim.press("down", labels.index(t("Our cards")))
    sim.press("ok")
    names = [item.label for item in sim.app.top.items]
    sim.press("down", names.index(name))
    sim.press("ok")


def idealny_dzien(sim):
    return catalogue_files.load_for_play([sim.app.owner_catalogue]).mission("idealny-dzien")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_mission_counting_different_types_is_taught_with_its_steps(tmp_path, language):
    sim = Headless(tmp_path / "s", language=language, owner_catalogue=tmp_path / "owner.toml")
    t = sim.app.t
    open_card(sim, "Idealny Dzień")
    sim.press("ok")  # its type: not known yet
    assert [item.label for item in sim.app.top.items][-2:] == [
        t("Several types"),
        t("Different types"),
    ]
    sim.press("down", 8)
    sim.press("ok")
    assert "Idealny Dzień" in flat(sim)  # saved
    assert idealny_dzien(sim).advanced.type == DIFFERENT
    sim.press("ok")
    labels = [item.label for item in sim.app.top.items]
    assert t("Different types") in labels[0]
    sim.press("down")  # its steps
    sim.press("ok")
    marks = {"fewer": t.initial("red"), "more": t.initial("green")}
    assert t("{fewer}-/{more}+ types: {n}", n=1, **marks) in flat(sim)
    sim.press("green", 7)  # 8 types: there are only 7
    sim.press("blue")  # the last step
    assert t("A step counts {low} to {high} types, not {n}.", low=1, high=7, n=8) in flat(sim)
    assert idealny_dzien(sim).advanced.scoring is None  # nothing kept
    sim.press("ok")  # the step is asked again, as it was
    assert t("{fewer}-/{more}+ types: {n}", n=8, **marks) in flat(sim)
    sim.press("red", 5)  # 3 types
    sim.press("up")  # 2 points
    sim.press("blue")
    assert idealny_dzien(sim).advanced.scoring == ((3, 2),)
    sim.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_mission_counting_several_types_needs_two_marked(tmp_path, language):
    sim = Headless(tmp_path / "s", language=language, owner_catalogue=tmp_path / "owner.toml")
    t = sim.app.t
    open_card(sim, "Idealny Dzień")
    sim.press("ok")
    sim.press("down", 7)  # several types
    sim.press("ok")
    assert isinstance(sim.app.top, TypePicker)
    assert (
        sim.screen.splitlines()[0]
        == {"en": "[Which types count?]", "pl": "[Które typy się liczą?]"}[language]
    )
    sim.press("down", 3)  # enemy
    sim.press("ok")
    assert sim.app.top.items[3].label == "[x] " + t("enemy")
    sim.press("down", 4)  # that is all, with one type marked
    sim.press("ok")
    assert sim.screen.splitlines()[0] == f"[{t('Not possible')}]"
    assert t("Mark two types or more.") in flat(sim)
    sim.press("ok")
    assert not sim.app.owner_catalogue.exists()  # nothing kept
    sim.press("up", 6)  # human
    sim.press("ok")
    sim.press("down", 6)
    sim.press("ok")
    assert idealny_dzien(sim).advanced.type == ("human", "enemy")
    sim.close()


# ------------------------------------------------------------ "we don't know" the mix


@pytest.mark.parametrize("language", LANGUAGES)
def test_we_dont_know_the_mix_is_offered_only_with_the_tables_bag_and_said_before(
    tmp_path, language
):
    sim = own_game(tmp_path, language, script=["press ok"] * 4)  # at the bag question
    t = sim.app.t
    assert sim.app.top.title == t("Token bag")
    details = [item.detail for item in sim.app.top.items]
    assert details == [
        t("With our own cards, count their tokens once first."),
        t("With our own cards, their mix may stay unknown."),
    ]
    assert " ".join(details[0].split()[:3]) in " ".join(sim.screen.split())
    for line in ["press ok"] * 3:  # the app as the bag, the app's deck, our own cards
        sim.command(line)
    assert isinstance(sim.app.top, NumberEntry)  # counted at once: nothing else is possible
    assert sim.app.top.title == t("Tokens in the box")
    assert sim.app.session is None and not (tmp_path / "owner.toml").exists()
    sim.close()
    again = own_game(tmp_path, language, folder="again", script=OWN_CARDS_TABLE_BAG)
    labels = [item.label for item in again.app.top.items]
    assert labels == [t("Count them now"), t("We don't know")]
    again.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_back_from_the_mix_question_returns_to_the_choice_of_cards(tmp_path, language):
    sim = own_game(tmp_path, language, script=OWN_CARDS_TABLE_BAG)
    t = sim.app.t
    assert sim.app.top.title == t("Tokens in the box")
    sim.press("back")
    assert sim.app.top.title == t("Cards")
    assert sim.app.top.items[sim.app.top.cursor].label == t("Our own cards")
    assert sim.app.session is None and not (tmp_path / "owner.toml").exists()
    sim.close()


@pytest.mark.whole_game
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_whole_game_without_the_mix_with_the_tables_bag(tmp_path, language):
    sim = own_game(tmp_path, language, script=OWN_CARDS_TABLE_BAG)
    t = sim.app.t
    sim.press("down")  # we don't know
    sim.press("ok")
    assert sim.app.top.title != t("Tokens in the box")
    pilot = Autopilot(sim, 3)
    while sim.app.session is None or not sim.app.session.states[1:]:
        pilot.step()
    assert t("Bag: mix not known") in status_lines(sim.app)
    while pilot.step():
        pass
    session = sim.app.session
    assert session.over and not session.game.cards.mix_known
    record = sim.journal.record(session.game_id)
    assert set(record["catalogue"]["tokens"].values()) == {"unknown"}
    assert replay(record).final == session.state
    owner = tomllib.loads((tmp_path / "owner.toml").read_text(encoding="utf-8"))
    assert "tokens" not in owner  # nothing was taught about the mix
    sim.close()


# ------------------------------------------------------------ effect words


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_advanced_teaching_menu_offers_the_newer_effect_kinds(tmp_path, language):
    sim = own_game(tmp_path, language, script=OWN_ADVANCED)
    teach_first_card(sim)
    t = sim.app.t
    sim.press("red")
    sim.press("ok")  # cost done
    sim.press("ok")  # Officer X 1–2
    labels = [item.label for item in sim.app.top.items]
    wanted = [t(CHOICES[do]) for do in ("steal_choice", "others_discard", "acquire")]
    assert set(wanted) <= set(labels)
    sim.press("down", labels.index(t(CHOICES["acquire"])))
    sim.press("ok")  # no parameters: on to the points and type
    sim.press("red")  # a bird
    box = catalogue_files.load_for_play([tmp_path / "owner.toml"])
    taught = [f for f in box.figurants if f.advanced.effect is not None]
    assert [f.advanced.effect.do for f in taught if f.advanced.effect.do == "acquire"]
    words = [f.advanced.text for f in taught if f.advanced.effect.do == "acquire"]
    assert words == ["Acquire a face-up card"]  # the card's text, in the file's English
    sim.close()


def test_back_while_teaching_from_our_cards_then_on_returns_to_the_card(tmp_path):
    """BACK from an effect's count to the list of effects, the effect chosen again: saved as
    in one go, and the panel is back on the card, as without the BACK (the count's first
    screen, left by BACK, is not taken away twice, nor the card's screen with it)."""
    seen = []
    for back in (False, True):
        sim = Headless(
            tmp_path / str(back), language="en", owner_catalogue=tmp_path / f"{back}.toml"
        )
        open_card(sim, "Alice")
        labels = [item.label for item in sim.app.top.items]
        sim.press("down", next(i for i, label in enumerate(labels) if "Effect" in label))
        sim.press("ok")
        sim.press("down")  # "Draw random tokens"
        sim.press("ok")
        assert "How many tokens?" in sim.screen
        if back:
            sim.press("back")
            assert "How many tokens?" not in sim.screen
            sim.press("ok")
        sim.press("ok")  # 1 token: saved
        sim.press("ok")  # the notice read
        seen.append((sim.screen, len(sim.app.stack)))
        sim.close()
    assert seen[1] == seen[0]
    assert seen[0][0].startswith("[Alice]")


def test_a_token_mix_the_owners_file_cannot_keep_is_said_and_begins_no_game(tmp_path):
    """Counted, but the owner's file refuses it (a folder stands where it goes): the panel
    says "Not saved" with the reason, the counting's screens are gone, no game begins, and
    nothing is written anywhere."""
    sim = own_game(tmp_path, script=OWN_CARDS_TABLE_BAG)
    t = sim.app.t
    sim.press("ok")  # count them now
    (tmp_path / "owner.toml").mkdir()
    for _ in COLOURS:  # the suggested counts: they add up to 104
        assert isinstance(sim.app.top, NumberEntry)
        assert sim.app.top.high == 104
        sim.press("ok")
    assert sim.app.top.title == t("Cards")
    said = f"Not saved: {tmp_path / 'owner.toml'}: a folder, not a regular file"
    assert "".join("".join(sim.app.top.lines).split()) == "".join(said.split())  # as wrapped
    assert not any(isinstance(screen, NumberEntry) for screen in sim.app.stack)
    assert sim.app.session is None and list((tmp_path / "owner.toml").iterdir()) == []
    sim.close()
