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

from firmware_app.flows.pingwiny.turn import TurnMenu
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.session import Session
from firmware_app.store import catalogue_files
from firmware_app.ui.canvas import Canvas
from firmware_app.ui.screens import Menu, Notice
from hw.buzzer import DRIVERS as BUZZER_DRIVERS
from hw.display import DRIVERS as DISPLAY_DRIVERS
from hw.rfid.factory import DRIVERS as READER_DRIVERS
from rules.messages import NAMES
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
    texts = []
    if isinstance(screen, Notice):
        for page in range(screen.pages):
            screen.page = page
            texts.append(drawn(screen))
    elif isinstance(screen, Menu):
        texts.append("\n".join([screen.title] + [item.label for item in screen.items]))
    return texts


def drawn(screen) -> str:
    canvas = Canvas()
    screen.draw(canvas)
    return canvas.text()


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
    for name in sorted(NAMES[language].values(), key=len, reverse=True):
        plain = plain.replace(name, " ")
    words = set(re.findall(r"[\w-]+", plain))
    found = [w for w in words if w in ids or w in DRIVERS or w in LOCATIONS]
    found += SEAT.findall(text) + NOTATION.findall(text)
    found += [a for a in actions if " " in a and a in text and notation(a).search(text)]
    return found


def notation(action: str) -> re.Pattern:
    """An action's notation standing alone: "take 2" in "Undone: take 2", not in "take 2× green"."""
    return re.compile(rf"(?<![\w-]){re.escape(action)}(?![\w×+>=-])")


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
