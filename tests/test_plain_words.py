"""Every screen of whole games speaks the table's words, never the code's.

Whole games of all three games are played by the autopilot in both
languages; along the way every extra of the turn menu (the score, the
table, help, why not, corrections, settings) is opened and each of its
pages drawn, and an undo is shown now and then. No frame may hold an
action's notation, a seat id (``p2``), a location, card or reward id, or a
driver's name.
"""

import re

import pytest
from screen_helpers import drawn_pages

from firmware_app.flows.pingwiny.turn import TurnMenu
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.session import Session
from firmware_app.store import catalogue_files
from firmware_app.ui.screens import Menu, Notice
from hw.buzzer import DRIVERS as BUZZER_DRIVERS
from hw.display import DRIVERS as DISPLAY_DRIVERS
from hw.rfid.factory import DRIVERS as READER_DRIVERS
from rules.messages import IN_PLACE, NAMES
from rules.pingwiny.options import Options
from rules.popiel.game import KINDS, PopielOptions

LOCATIONS = ("chimp", "gorilla", "shop", "storehouse", "otter", "lemur", "gate", "gastro", "hq")
DRIVERS = {"pn532", "rc522"} | {
    d for d in (*DISPLAY_DRIVERS, *BUZZER_DRIVERS, *READER_DRIVERS) if d != "none"
}
SEAT = re.compile(r"\bp[1-5]\b")
NOTATION = re.compile(r"[a-z]+[>=+][a-z]+")  # blue>red, grey=yellow, white+white


def start(sim: Headless, variant: str, seed: int) -> None:
    app = sim.app
    if variant == "popiel":
        options = PopielOptions(players=("mouse-1", "mouse-2", "mouse-3"), seed=seed)
        box, game = catalogue_files.load_popiel(True), ("popiel", "standard")
    else:
        options, box = Options(players=3, seed=seed), app.catalogue(demo=True)
        game = ("pingwiny", variant)
    app.session = Session.start(app.journal, options, box, now=0.0, game=game)
    app.show_game()


def pages(app, screen) -> list[str]:
    """The text of every page of a notice, or of a menu's list."""
    if isinstance(screen, Notice):
        return [canvas.text() for canvas in drawn_pages(screen)]
    if isinstance(screen, Menu):
        return ["\n".join([screen.title] + [item.label for item in screen.items])]
    return []


def open_extras(app) -> list[str]:
    """Each entry of the turn menu past its moves, and of its "More …", opened and drawn,
    then closed again."""
    menu, texts = app.top, []
    entries = list(menu.items[menu.moves :])
    for more in [item for item in entries if item.label == app.t("More …")]:
        stack = list(app.stack)
        more.run()
        texts += pages(app, app.top)
        entries = [item for item in entries if item is not more] + list(app.top.items)
        app.stack = stack
    for item in entries:
        if item.label in (app.t("Undo"), app.t("Redo")):
            continue
        stack = list(app.stack)
        item.run()
        if app.top is not menu:
            texts += pages(app, app.top)
            if isinstance(app.top, Menu):  # one level down: help pages and the like
                inner = app.top
                for entry in inner.items:
                    if isinstance(inner, Menu) and inner.title == app.t("Help"):
                        entry.run()
                        texts += pages(app, app.top)
                        app.stack = list(stack) + [inner]
        app.stack = stack
    return texts


def forbidden(text: str, language: str, ids: set[str], actions: list[str]) -> list[str]:
    text = " ".join(text.split())  # wrapped lines joined again
    plain = text
    places = IN_PLACE.values() if language == "pl" else ()  # "w Strefie gastro"
    for name in sorted([*NAMES[language].values(), *places], key=len, reverse=True):
        plain = plain.replace(name, " ")
    words = set(re.findall(r"[\w-]+", plain))
    found = [w for w in words if w in ids or w in DRIVERS or w in LOCATIONS]
    found += SEAT.findall(text) + NOTATION.findall(text)
    found += [a for a in actions if " " in a and a in text and notation(a).search(text)]
    return found


def notation(action: str) -> re.Pattern:
    """An action's notation standing alone: "take 2" in "Undone: take 2", not in "take 2× green"."""
    return re.compile(rf"(?<![\w-]){re.escape(action)}(?![\w×+>=-])")


@pytest.mark.whole_game
@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize("variant", ["family", "advanced", "popiel"])
def test_whole_games_show_no_internal_words(tmp_path, variant, language):
    sim = Headless(tmp_path, language=language, seed=4)
    sim.app.reader_name = "fake"  # the simulator's reader: a driver's name never shows
    try:
        start(sim, variant, seed=4)
        app, pilot, texts, step = sim.app, Autopilot(sim, 4), [], 0
        game = app.session.game
        if variant == "popiel":
            ids = set(KINDS)
        else:
            cards = game.cards
            ids = {*cards.figurants, *cards.missions, *cards.penguins}
            ids -= {i for i in ids if i.capitalize() == i}
        while pilot.step():
            step += 1
            texts.append(sim.screen)
            if isinstance(app.top, TurnMenu) and step % 37 == 1:
                texts += open_extras(app)
            if step % 53 == 0 and app.session.can_undo():
                app.undo()
                texts += pages(app, app.top)
                app.redo()
            assert step < 20_000
        texts += sim.frames
        actions = sim.journal.record(app.session.game_id)["actions"]
        bad = {}
        for text in texts:
            found = forbidden(text, language, ids, actions)
            if found:
                bad[text] = found
        assert bad == {}
    finally:
        sim.close()


def test_the_scan_finds_what_it_looks_for():
    actions = ["visit hq maurice"]
    assert forbidden("Undone: visit hq maurice", "en", {"maurice"}, actions)
    assert forbidden("There is no yellow token in p2", "en", set(), [])
    assert forbidden("Reader: fake", "en", set(), []) == ["fake"]
    assert forbidden("2× black → black? blue>red", "en", set(), []) == ["blue>red"]
    assert forbidden("Cofnięto: visit gorilla", "pl", set(), []) == ["gorilla"]
    assert forbidden("Undone: take 2", "en", set(), ["take 2"]) == ["take 2"]
    assert forbidden("Rico: take 2× green from the Chimp enclosure", "en", set(), ["take 2"]) == []
    assert (
        forbidden("Undone: Rico bought Maurice. Souvenir shop, Zoo gate", "en", {"rico"}, []) == []
    )


# Plain Polish: the corrections of issue 24, each through the code that says it ----------


def test_polish_counts_agree_with_their_number():
    from firmware_app.flows.shared.effect_words import effect_text
    from firmware_app.words.i18n import Translator
    from rules.catalogue import Effect

    t = Translator("pl")
    assert [t.plural("{n} left", "{n} left", n) for n in (1, 2, 4, 5)] == [
        "została 1",
        "zostały 2",
        "zostały 4",
        "zostało 5",
    ]
    assert effect_text(t, Effect("give", (("count", 1),))) == "Oddaj pingwinowi 1 żeton"
    assert effect_text(t, Effect("others_discard", (("count", 1),))) == (
        "Każdy inny pingwin odrzuca 1 losowy żeton"
    )
    assert effect_text(t, Effect("draw_colour", (("colour", "blue"), ("count", 2)))) == (
        "Weź z worka 2 niebieskie żetony"
    )
    assert effect_text(t, Effect("grey", (("count", 5),))) == "Weź 5 szarych żetonów"
    english = effect_text(Translator("en"), Effect("give", (("count", 1),)))
    assert english == "Give 1 token to a penguin"


def test_polish_events_read_as_sentences():
    from types import SimpleNamespace

    from firmware_app.flows.pingwiny.advanced_table import _event
    from firmware_app.words.i18n import Translator

    t = Translator("pl")
    game = SimpleNamespace(options=SimpleNamespace(names=("Ada", "Bea", "Cy", "Ela")))
    unmasked = {"event": "officer_x", "location": "gastro", "unmasked": [2]}
    assert _event(t, game, unmasked)[1] == "Zdemaskowany: Cy."
    unmasked["unmasked"] = [0, 2]
    assert _event(t, game, unmasked)[1] == "Zdemaskowani: Ada, Cy."
    took = {"event": "took", "from": "beside the board", "tokens": ["grey"]}
    assert _event(t, game, took) == ["Weź 1 szary żeton obok planszy."]
    gave = {"event": "gave", "player": 3, "to": 1, "tokens": ["yellow"]}
    assert _event(t, game, gave) == ["Ela oddaje: 1 żółty żeton. Bierze Bea."]


def test_polish_refusals_decline_the_colour_and_the_place():
    from rules.messages import text

    assert text("illegal.cannot_afford", "pl", colour="green", card="Maurice") == (
        "Za mało zielonych żetonów, by zwerbować kartę „Maurice”."
    )
    assert text("illegal.not_here", "pl", action="gastro") == (
        "Twój pingwin nie stoi w Strefie gastro."
    )
    assert text("illegal.cannot_afford", "en", colour="green", card="Maurice") == (
        "Not enough green tokens to acquire 'Maurice'."
    )


def test_polish_words_of_the_setup_and_the_panel():
    from firmware_app.words.i18n import Translator

    t = Translator("pl")
    assert t("Players") == "Gracze"
    assert t("BACK: delete") == "WSTECZ: usuń"
    assert t("Bag to {who}", who="Gracz 3") == "Gracz 3 z workiem"
    assert t("last marker") == "ostatni znacznik"
    assert t("Take the mission {mission}.", mission="Ni wydra, ni...") == (
        "Weź misję Ni wydra, ni..."
    )


def test_decimals_are_written_as_the_language_writes_them():
    from firmware_app.words.i18n import Translator

    assert Translator("pl").number(27.5) == "27,5"
    assert Translator("en").number(27.5) == "27.5"
    assert Translator("pl").number(34.0) == "34"
    assert Translator("pl").number(None) == "-"


def test_the_app_names_its_stand_in_cards_in_the_tables_language():
    from types import SimpleNamespace

    from firmware_app.words.i18n import Translator, card_name

    demo = SimpleNamespace(id="demo-33", name="Demo figurant 33")
    mission = SimpleNamespace(id="demo-9", name="Demo mission 9")
    unnamed = SimpleNamespace(id="mission-9", name="Mission 9")
    own = SimpleNamespace(id="figurant-31", name="Pan Kot")  # a name the family gave
    printed = SimpleNamespace(id="king-of-the-rats", name="King of the Rats")
    t = Translator("pl")
    assert [card_name(t, c) for c in (demo, mission, unnamed, own, printed)] == [
        "Statysta demo 33",
        "Misja demo 9",
        "Misja 9",
        "Pan Kot",
        "Król Szczurów",  # named only in English by the rulebook: the data's translation
    ]
    assert card_name(Translator("en"), demo) == "Demo figurant 33"


def test_why_not_gives_one_reason_a_line_each_a_sentence(tmp_path):
    from firmware_app.app import App
    from firmware_app.flows.pingwiny.turn import why_not_visits
    from firmware_app.store.journal import Journal

    journal = Journal(tmp_path / "journal.sqlite")
    try:
        app = App(journal, language="pl")
        options = Options(players=2, seed=3)
        box = app.catalogue(demo=True)
        app.session = Session.start(journal, options, box, now=0.0, game=("pingwiny", "family"))
        lines = why_not_visits(app, ["hq", "gastro", "lemur", "chimp"])
        assert all(";" not in line for line in lines)
        assert all(line.endswith((".", "!")) for line in lines)
        headquarters = [line for line in lines if line.startswith("Kwatera Główna: ")]
        assert len(headquarters) >= 1 and all(line.count(".") <= 2 for line in headquarters)
        assert "Strefa gastro: Żadna wymiana nie jest możliwa." in lines
    finally:
        journal.close()
