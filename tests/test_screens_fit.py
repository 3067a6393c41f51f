"""Every screen of whole games fits the panel without hiding what matters.

Whole games of all three games are played by the autopilot in both languages,
once with the app as the bag and once drawing from the table's own bag; each
frame is drawn, and now and then the turn menu's extras (the score so far, the
table, help, why not) are opened and every page drawn. A line too wide for the
panel is cut with an ellipsis; the canvas keeps what each cut hid
(``Canvas.cuts``). The test fails where a cut hides a number (points, a cost's
count, a space), a card's question (": type"), a cost or points of a card line
(" · "), or a player's name in a title.
"""

import pytest
from screen_helpers import drawn_pages

from firmware_app.flows.pingwiny.turn import TurnMenu
from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.headless import Headless
from firmware_app.session import Session
from firmware_app.store import catalogue_files
from firmware_app.ui.canvas import ELLIPSIS, Canvas
from firmware_app.ui.screens import Menu
from rules.messages import INITIALS
from rules.pingwiny.options import Options
from rules.popiel.game import PopielOptions


def start(sim: Headless, variant: str, seed: int, bag: str) -> None:
    app = sim.app
    names = ("Aleksandra", "Bartłomiej", "Ela")  # long names, as a family has them
    if variant == "popiel":
        mice = ("mouse-1", "mouse-2", "mouse-3")
        options = PopielOptions(players=mice, names=names, seed=seed)
        box, game = catalogue_files.load_popiel(True), ("popiel", "standard")
    else:
        options = Options(players=3, seed=seed, names=names, bag=bag)
        box, game = app.catalogue(demo=True), ("pingwiny", variant)
    app.session = Session.start(app.journal, options, box, now=0.0, game=game)
    app.show_game()


def hidden(text: str, shown: str) -> str:
    """What an ellipsis took out of ``text`` to show ``shown``."""
    before, _, after = shown.partition(ELLIPSIS)
    return text[len(before) : len(text) - len(after)]


def lost(text: str, shown: str, language: str, names: list[str]) -> list[str]:
    """What a cut must never hide, found in what it hid."""
    gone = hidden(text, shown)
    found = [c for c in gone if c.isdigit() or c in ":·?"]
    marks = set(INITIALS[language].values()) - set("ABCDGNRWYZŻ")  # the discs; letters are words
    found += [c for c in gone if c in marks]
    found += [name for name in names if name in text and name not in shown]
    return found


def extras(app) -> list[Canvas]:
    """The turn menu's entries past its moves, and those of "More …", opened and drawn."""
    menu, canvases = app.top, []
    stack = list(app.stack)
    for item in list(menu.items[menu.moves :]):
        item.run()
        if isinstance(app.top, Menu) and app.top is not menu:
            inner = app.top
            canvases += drawn_pages(inner)
            for entry in list(inner.items):
                if entry.label in (app.t("Undo"), app.t("Redo"), app.t("End game")):
                    continue
                if entry.label in (app.t("Correct the table"), app.t("Settings")):
                    continue
                entry.run()
                canvases += drawn_pages(app.top)
                app.stack = list(stack) + [inner]
        else:
            canvases += drawn_pages(app.top)
        app.stack = list(stack)
    return canvases


@pytest.mark.whole_game
@pytest.mark.parametrize("language", ["en", "pl"])
@pytest.mark.parametrize(
    ("variant", "bag"),
    [("family", "app"), ("family", "table"), ("advanced", "app"), ("popiel", "app")],
)
def test_whole_games_fit_the_panel_without_hiding_numbers_costs_or_names(
    tmp_path, variant, bag, language
):
    sim = Headless(tmp_path, language=language, seed=7)
    try:
        start(sim, variant, seed=7, bag=bag)
        app, pilot, step, bad = sim.app, Autopilot(sim, 7), 0, {}
        names = list(getattr(app.session.game.options, "names", None) or ())
        while True:
            canvases = [app.render()]
            if isinstance(app.top, TurnMenu) and step % 23 == 1:
                canvases += extras(app)
            for canvas in canvases:
                for text, shown in canvas.cuts:
                    found = lost(text, shown, language, names)
                    if found:
                        bad[text] = (shown, found)
            if not pilot.step():
                break
            step += 1
            assert step < 20_000
        for item in app.top.items:  # the end: the score sheet, the chart
            stack = list(app.stack)
            if item.label in (app.t("Scores"), app.t("Score sheet"), app.t("Scores by round")):
                item.run()
                for canvas in drawn_pages(app.top):
                    for text, shown in canvas.cuts:
                        if lost(text, shown, language, names):
                            bad[text] = (shown, lost(text, shown, language, names))
            app.stack = stack
        assert bad == {}
    finally:
        sim.close()


def test_the_check_finds_what_a_cut_hides():
    assert lost("King of the Rats 2C ● · 3 pkt", "King of the Rats 2C…", "pl", []) == [
        "·",
        "3",
        "●",
    ]
    assert lost("Ptak zamknięty ptak szalony: type", "Ptak zamknięty ptak szalon…", "en", []) == [
        ":"
    ]
    assert lost("Aleksandra: Rico", "Ale…", "en", ["Aleksandra"]) == [":", "Aleksandra"]
    assert lost("Ptak zamknięty ptak szalony: type", "Ptak zamknięty ptak …: type", "en", []) == []
    assert lost("Aleksandra: Skipper the Great", "Aleksandra: Skipper…", "en", ["Aleksandra"]) == []
