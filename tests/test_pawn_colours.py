"""Król Popiel's mouse colours come from the box's own pawns (issue 24, point 11).

The rulebook's "Contents" lists "5 mouse pawns" and names none of their colours. The owner
marks once which five of the panel's eleven colours the pawns are (exactly five, else a
clear refusal that changes nothing); the box keeps them as a setting, the settings menu
changes them, and each seat then picks from those five, a colour taken by an earlier seat
not offered again. A stored value that is not five of the eleven is reset, never used.
"""

import json
import re
from pathlib import Path

import pytest
from screen_helpers import choose

from firmware_app.flows.shared.seats import MOUSE_COLOURS, PawnPicker
from firmware_app.runners.headless import Headless
from firmware_app.store import bounds, config
from firmware_app.store.journal import Journal

RULEBOOK = Path("/work/shared/rulebooks/krol-popiel.txt")
FIVE = ["red", "blue", "green", "yellow", "black"]  # in the order the panel lists them


def pawns_in_the_rulebook() -> int:
    """The number in the rulebook's "Contents" line "• 5 mouse pawns"."""
    text = RULEBOOK.read_text(encoding="utf-8")
    return int(re.search(r"•\s*(\d+) mouse pawns", text).group(1))


def title(sim) -> str:
    return sim.screen.splitlines()[0]


def labels(sim) -> list[str]:
    return [item.label for item in sim.app.top.items]


def to_the_mouse_colours(sim, players: int) -> None:
    """New game, Król Popiel, the demo box, side A, the app draws the rewards, no names."""
    t = sim.app.t
    choose(sim, t("New game"))
    choose(sim, t("King Popiel"))
    choose(sim, t.plural("{n} player", "{n} players", players))
    choose(sim, t("Demo box (made up)"))
    choose(sim, t("Board side {side}", side="A"))
    choose(sim, t("The app draws them"))
    choose(sim, t("No names"))
    assert title(sim) == f"[{t('Mouse colours')}]"


def mark(sim, colours) -> None:
    t = sim.app.t
    for colour in colours:
        label = t(MOUSE_COLOURS[colour])
        index = [item.label[4:] for item in sim.app.top.items].index(label)
        sim.press("down", (index - sim.app.top.cursor) % len(sim.app.top.items))
        sim.press("ok")


def test_the_box_has_as_many_pawns_as_the_rulebook_lists():
    assert config.MOUSE_PAWNS == pawns_in_the_rulebook() == 5
    assert tuple(MOUSE_COLOURS) == config.MOUSE_COLOURS  # the panel names every colour checked
    assert len(MOUSE_COLOURS) == 11


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_first_choice_of_colours_asks_for_the_five_pawns_then_each_seat_picks(
    tmp_path, language
):
    sim = Headless(tmp_path, language=language, seed=2)
    t = sim.app.t
    try:
        to_the_mouse_colours(sim, 3)
        choose(sim, t("Choose the colours"))
        assert isinstance(sim.app.top, PawnPicker)
        assert title(sim) == f"[{t('Pawn colours')}]"
        assert all(label.startswith("[ ] ") for label in labels(sim)[:-1])
        assert len(labels(sim)) == 11 + 1 and labels(sim)[-1] == t("That is all")
        hint = t("Mark the colours of the box's {n} mouse pawns.", n=5)
        assert sim.app.top.items[0].detail == hint  # the condition, said before
        mark(sim, FIVE[:4])
        choose(sim, t("That is all"))  # four: refused
        refused = " ".join(" ".join(sim.app.top.lines).split())
        expected = {
            "en": "The box has 5 mouse pawns: mark 5 colours, not 4.",
            "pl": "Pudełko ma 5 pionków myszy: zaznacz 5 kolorów, nie 4.",
        }
        assert refused == expected[language]
        assert sim.app.setting("pawn_colours") == []
        sim.press("ok")  # the notice closed: the marks are still there
        assert isinstance(sim.app.top, PawnPicker)
        mark(sim, ["brown", "pink"])  # six: refused too
        choose(sim, t("That is all"))
        six = " ".join(" ".join(sim.app.top.lines).split())
        assert six == expected[language].replace("4.", "6.")
        sim.press("ok")
        mark(sim, ["pink", "brown", "black"])  # pink and brown off, black on: the five
        marked = [label[4:] for label in labels(sim)[:-1] if label.startswith("[x] ")]
        assert marked == [t(MOUSE_COLOURS[c]) for c in FIVE]
        choose(sim, t("That is all"))
        assert sim.app.setting("pawn_colours") == FIVE
        assert title(sim) == "[" + t("{who}: mouse", who=t("Player {n}", n=1)) + "]"
        assert labels(sim) == [t(MOUSE_COLOURS[c]) for c in FIVE]
        choose(sim, t(MOUSE_COLOURS["green"]))
        assert labels(sim) == [t(MOUSE_COLOURS[c]) for c in FIVE if c != "green"]
        choose(sim, t(MOUSE_COLOURS["red"]))
        assert labels(sim) == [t(MOUSE_COLOURS[c]) for c in ("blue", "yellow", "black")]
        choose(sim, t(MOUSE_COLOURS["black"]))
        assert sim.app.session.game.options.players == ("green", "red", "black")
        assert Journal.get_setting(sim.journal, "pawn_colours") == FIVE  # kept
    finally:
        sim.close()

    sim = Headless(tmp_path, language=language, seed=3)  # the next evening: not asked again
    t = sim.app.t
    try:
        to_the_mouse_colours(sim, 2)  # a new game beside the one kept
        choose(sim, t("Choose the colours"))
        assert not isinstance(sim.app.top, PawnPicker)
        assert labels(sim) == [t(MOUSE_COLOURS[c]) for c in FIVE]
    finally:
        sim.close()


@pytest.fixture(params=["en", "pl"])
def sim(tmp_path, request):
    headless = Headless(tmp_path, language=request.param, seed=2)
    yield headless
    headless.close()


def test_back_from_the_first_seat_leads_to_the_choice_not_the_marks(sim):
    t = sim.app.t
    to_the_mouse_colours(sim, 2)
    choose(sim, t("Choose the colours"))
    mark(sim, FIVE)
    choose(sim, t("That is all"))
    sim.press("back")
    assert title(sim) == f"[{t('Mouse colours')}]"
    choose(sim, t("Numbered mice"))  # the five stay marked, the seats numbered
    assert sim.app.session.game.options.players == ("mouse-1", "mouse-2")
    assert sim.app.setting("pawn_colours") == FIVE


def test_the_settings_menu_changes_the_pawn_colours(sim):
    t = sim.app.t
    choose(sim, t("Settings"))
    choose(sim, t("Mouse pawns: {value}", value=t("not marked")))
    assert isinstance(sim.app.top, PawnPicker)
    mark(sim, FIVE)
    choose(sim, t("That is all"))
    assert title(sim) == f"[{t('Settings')}]"
    assert t("Mouse pawns: {value}", value=t("marked")) in labels(sim)
    choose(sim, t("Mouse pawns: {value}", value=t("marked")))
    marked = [label[4:] for label in labels(sim)[:-1] if label.startswith("[x] ")]
    assert marked == [t(MOUSE_COLOURS[c]) for c in FIVE]  # the kept five, shown marked
    mark(sim, ["black", "white"])
    choose(sim, t("That is all"))
    assert sim.app.setting("pawn_colours") == ["red", "blue", "green", "yellow", "white"]
    choose(sim, t("Mouse pawns: {value}", value=t("marked")))
    mark(sim, ["white"])
    choose(sim, t("That is all"))  # four: refused, the five kept
    assert sim.app.setting("pawn_colours") == ["red", "blue", "green", "yellow", "white"]


HOSTILE = [
    ["red", "blue", "green", "yellow"],  # four
    ["red", "blue", "green", "yellow", "black", "white"],  # six
    ["red", "red", "blue", "green", "yellow"],  # one colour twice
    ["red", "blue", "green", "yellow", "teal"],  # not one of the eleven
    ["red", "blue", "green", "yellow", 5],
    "red",
    {"red": True},
    None,
]


@pytest.mark.parametrize("stored", HOSTILE, ids=[json.dumps(v) for v in HOSTILE])
def test_a_hostile_stored_value_is_reset_and_never_offered(tmp_path, stored):
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.set_setting("pawn_colours", stored)
        problems = bounds.settings_problems(journal.setting_texts())
    assert [p for p in problems if p.startswith("setting 'pawn_colours'")]
    sim = Headless(tmp_path, language="pl", seed=2)
    t = sim.app.t
    try:
        assert sim.app.setting("pawn_colours") == []
        said = " ".join(" ".join(sim.app.top.lines).split())
        if stored is not None:  # a null the journal's own check finds first, and says so
            assert said == "Nie udało się odczytać ustawienia; wróciło do domyślnego: Pionki myszy."
            assert list(tmp_path.glob("journal.settings-aside-*.json"))
            assert sim.journal.get_setting("pawn_colours") == []  # the default written back
        sim.press("ok")  # the notice read: the home menu
        to_the_mouse_colours(sim, 2)
        choose(sim, t("Choose the colours"))
        assert isinstance(sim.app.top, PawnPicker)  # asked again, nothing stored used
        assert not any(label.startswith("[x] ") for label in labels(sim))
    finally:
        sim.close()


def test_the_check_accepts_none_marked_or_five_of_the_eleven():
    assert list(config.pawn_colours([])) == []
    assert list(config.pawn_colours(FIVE)) == []
    assert list(config.pawn_colours(["orange", "purple", "pink", "grey", "brown"])) == []
    assert [m for _, m in config.pawn_colours(["red", "blue", "green", "yellow", "teal"])] == [
        'unknown mouse colour "teal"; accepted: red, blue, green, yellow, orange, purple, '
        "pink, white, black, grey, brown"
    ]
