"""Cards a family can find: playing "Our cards" from an empty owner's file, the panel never
names a card the table cannot identify.

The rulebook names 29 of the box's 42 figurants and 7 of its 10 missions; the others are
held as "Figurant 30" … "Mission 10", a number printed nowhere. Whole games are played
through the buttons (the autopilot presses them), every frame is read, and none may name
such a card: the table shuffles its own deck and names the cards that come up, a card the
app cannot name being "Not in this list", numbered (the number written on it) or named.
"""

import re
import tomllib

import pytest
from test_teaching import OWN_ADVANCED, OWN_CARDS, own_game

from firmware_app.flows.shared.seats import player_label
from firmware_app.flows.shared.teach import CostEntry
from firmware_app.flows.shared.teach_screens import StepEntry
from firmware_app.runners.autopilot import Autopilot
from firmware_app.store import catalogue_files
from firmware_app.ui.screens import Menu, Notice
from rules.catalogue.teaching import unnamed_cards
from rules.colours import COLOURS
from rules.record import replay

LANGUAGES = ["en", "pl"]
# A card held under a number nobody wrote on it, in either language.
PLACEHOLDER = re.compile(r"\b(?:Figurant|Mission|Statysta|Misja) [0-9]+\b")
MIX = dict(zip(COLOURS, (15, 15, 15, 15, 14, 15, 15), strict=True))


def recording(sim) -> list[str]:
    """Every frame shown after every press, from now on."""
    frames: list[str] = []
    press = sim.press

    def pressed(name: str, times: int = 1) -> None:
        for _ in range(times):
            press(name)
            frames.append(sim.screen)

    sim.press = pressed
    return frames


def play_out(sim, seed: int) -> list[str]:
    """The game played to its end through the buttons; each frame checked as it is shown."""
    frames = recording(sim)
    pilot = Autopilot(sim, seed)
    checked = 0
    while pilot.step():
        for frame in frames[checked:]:
            assert not PLACEHOLDER.search(frame), frame
        checked = len(frames)
    return frames


def owner(tmp_path) -> dict:
    return tomllib.loads((tmp_path / "owner.toml").read_text(encoding="utf-8"))


@pytest.mark.whole_game
@pytest.mark.full_thinking  # the game of seed 4 the levels play brings up unnamed cards
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("script", [OWN_CARDS, OWN_ADVANCED], ids=["family", "advanced"])
def test_a_whole_game_on_our_cards_names_no_card_the_table_cannot_find(tmp_path, language, script):
    sim = own_game(tmp_path, language, script=script)  # "The app shuffles cards" chosen
    frames = play_out(sim, 4)
    session = sim.app.session
    assert session.over and session.game.options.deck == "table"
    assert replay(sim.journal.record(session.game_id)).final == session.state
    t = sim.app.t
    assert any(t("Not in this list") in frame for frame in frames)
    why = " ".join(t("The app shuffles once it knows every card by name.").split())
    assert any(why in " ".join(frame.split()) for frame in frames)
    # the cards that came up unnamed are in the owner's file, by the table's name or number
    held = [c for c in owner(tmp_path)["figurant"] if c["id"].startswith("figurant-")]
    assert held and all(c["name"] != f"Figurant {c['id'][9:]}" for c in held)
    assert {c["name"] for c in held} & {c["id"][9:] for c in held}  # one numbered at least
    sim.close()


def all_named(tmp_path) -> None:
    """An owner's file where every unnamed card of the box has been numbered or named."""
    raw = catalogue_files.load([], demo=False).to_dict()
    overlay = unnamed_cards(raw)
    for section in ("figurant", "mission"):
        for card in overlay[section]:
            card["name"] = card["id"].rpartition("-")[2]
    overlay["tokens"] = MIX
    catalogue_files.save_owner(tmp_path / "owner.toml", overlay)


def test_once_every_card_has_a_name_the_app_shuffles_again(tmp_path):
    all_named(tmp_path)
    sim = own_game(tmp_path, script=OWN_ADVANCED)
    frames = recording(sim)
    while sim.app.session is None:
        sim.press("ok")
    assert sim.app.session.game.options.deck == "app"
    while isinstance(sim.app.top, Notice):  # the setup, page by page
        sim.press("ok")
    text = " ".join(" ".join(frames).split())
    assert "Lay face up below the board:" in text and "Not in this list" not in text
    sim.close()


@pytest.mark.whole_game
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_card_is_taught_in_the_turn_that_revealed_it_before_the_hand_off(tmp_path, language):
    """The app's deck and bag: a card laid out by a purchase is taught under the buyer's name
    before the next player draws, so nobody answers for a card another turned up."""
    all_named(tmp_path)
    sim = own_game(tmp_path, language)
    pilot = Autopilot(sim, 7)
    asked = 0
    while pilot.step():
        top, session = sim.app.top, sim.app.session
        if not isinstance(top, CostEntry) or session is None or len(session.states) < 2:
            continue
        actions = sim.journal.record(session.game_id)["actions"]
        assert not actions[-1].startswith("draw"), (actions[-3:], top.title)
        buyer = player_label(sim.app, session.states[-2].current)
        assert top.title.startswith(f"{buyer}: "), top.title
        asked += 1
    assert asked >= 3
    assert sim.app.session.over
    sim.close()


def test_a_typed_name_already_in_the_list_is_refused_and_changes_nothing(tmp_path):
    sim = own_game(tmp_path)
    t = sim.app.t
    for _ in range(400):  # to a space whose list offers "Not in this list"
        top = sim.app.top
        labels = [item.label for item in top.items] if isinstance(top, Menu) else []
        if t("Not in this list") in labels:
            break
        sim.press("blue" if isinstance(top, StepEntry) else "ok")  # a one-step mission
    sim.press("down", labels.index(t("Not in this list")))
    sim.press("ok")
    before = (tmp_path / "owner.toml").read_bytes()
    played = len(sim.app.session.states)
    sim.press("down")  # type its name
    sim.press("ok")
    for letter in "Mort":  # a name the list already holds
        wheel_to(sim, letter)
    wheel_to(sim, "done")
    assert t("{name} is already in the list.", name="Mort") in " ".join(sim.screen.split())
    assert (tmp_path / "owner.toml").read_bytes() == before
    assert len(sim.app.session.states) == played
    sim.close()


def wheel_to(sim, symbol: str) -> None:
    """Turn the letter wheel to ``symbol`` (a letter, or "done") and take it."""
    from firmware_app.ui.screens import WHEEL

    entry = sim.app.top
    target = len(WHEEL) - 1 if symbol == "done" else WHEEL.index(symbol.upper())
    steps = target - entry.cursor
    sim.press("down" if steps > 0 else "up", abs(steps))
    sim.press("ok")


def test_the_settings_and_the_tags_list_only_cards_the_table_can_find(tmp_path):
    from firmware_app.flows.shared.cards import TagMenu, teach_menu

    sim = own_game(tmp_path, script=[])
    labels = [item.label for item in teach_menu(sim.app).items]
    assert "Mort" in labels and not [x for x in labels if PLACEHOLDER.search(x)]
    sim.tag("0A0A0A0A")
    assert isinstance(sim.app.top, TagMenu)
    labels = [item.label for item in sim.app.top.items]
    assert "Mort" in labels and not [x for x in labels if PLACEHOLDER.search(x)]
    sim.close()
