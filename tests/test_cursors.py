"""Cursors that never press for the player.

A menu that remembers a choice opens on it again only for the player who made
it, in the same game, and never on a line that ends, skips or spends a turn
(Cannot place, Tile touches the king, Block, End of turn). A list whose lines
change keeps the cursor on the same choice, not the same row. Every turn that
passes is handed off, even one that placed nothing.
"""

import pytest

from firmware_app.app import App
from firmware_app.flows.pingwiny import advanced
from firmware_app.flows.pingwiny.turn import Headquarters, kept_for
from firmware_app.session import Session
from firmware_app.store import catalogue_files
from firmware_app.store.journal import Journal
from firmware_app.ui.screens import Item, Menu, Notice
from rules.pingwiny.options import Options
from rules.popiel.game import PopielOptions


@pytest.fixture
def app(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    app = App(journal, language="en")
    yield app
    journal.close()


def popiel(app, seed: int = 4) -> None:
    options = PopielOptions(players=("mouse-1", "mouse-2", "mouse-3"), seed=seed)
    box = catalogue_files.load_popiel(True)
    app.session = Session.start(app.journal, options, box, now=0.0, game=("popiel", "standard"))
    app.show_game()
    close_notices(app)


def pingwiny(app, variant: str, seed: int = 3) -> None:
    options = Options(players=3, seed=seed)
    box = app.catalogue(demo=True)
    app.session = Session.start(app.journal, options, box, now=0.0, game=("pingwiny", variant))
    app.show_game()
    close_notices(app)


def close_notices(app) -> None:
    while isinstance(app.top, Notice):
        app.top.button("back")


def selected(app) -> str:
    return app.top.items[app.top.cursor].label


def press_label(app, label: str) -> None:
    menu = app.top
    menu.cursor = [item.label for item in menu.items].index(label)
    menu.button("ok")


# The menu itself ----------------------------------------------------------------


def test_a_remembering_menu_opens_on_the_same_choice_when_lines_are_added_above(app):
    items = [Item("Move: Gate", lambda: None), Item("Move: Shop", lambda: None)]
    Menu(app, "Turn", items, remember="turn").run(items[1])
    grown = [Item("Take 2× yellow", lambda: None), Item("Take red", lambda: None), *items]
    menu = Menu(app, "Turn", grown, remember="turn")
    assert menu.items[menu.cursor].label == "Move: Shop"


def test_a_line_that_spends_the_turn_is_never_where_a_menu_opens(app):
    ran = []
    items = [
        Item("Tile: 2 dots", lambda: ran.append("2")),
        Item("Cannot place", lambda: ran.append("pass"), remembered=False),
    ]
    Menu(app, "Turn", items, remember="turn").run(items[0])
    Menu(app, "Turn", items, remember="turn").run(items[1])
    assert ran == ["2", "pass"]
    assert Menu(app, "Turn", items, remember="turn").cursor == 0  # still on "Tile: 2 dots"
    app.cursors["turn"] = "Cannot place"  # even if it was stored somehow
    assert Menu(app, "Turn", items, remember="turn").cursor == 0


# Król Popiel ---------------------------------------------------------------------


def test_cannot_place_hands_off_and_the_next_player_does_not_start_on_it(app):
    popiel(app)
    first = app.session.state.current
    press_label(app, "Cannot place")
    assert app.session.state.current != first
    assert isinstance(app.top, Notice), "a turn that placed nothing is handed off too"
    who = app.render().lines[0]
    assert who == "[Tile to Mouse 2]"
    close_notices(app)
    assert selected(app) == "Tile: 0 dots"  # the first line, nothing remembered
    app.top.button("ok")  # one OK places a tile, it does not skip the turn
    assert app.journal.record(app.session.game_id)["actions"][-1] == "place 0"


def test_each_mouse_opens_on_its_own_last_dots_never_on_the_kings_line(app):
    popiel(app)
    press_label(app, "Tile: 3 dots")  # Mouse 1
    close_notices(app)
    assert selected(app) == "Tile: 0 dots", "Mouse 2 does not get Mouse 1's choice"
    press_label(app, "Tile touches the king …")  # Mouse 2
    app.top.button("ok")  # no dots
    close_notices(app)
    assert selected(app) == "Tile: 0 dots"  # Mouse 3
    press_label(app, "Tile: 1 dot")
    close_notices(app)
    assert selected(app) == "Tile: 3 dots"  # Mouse 1 again
    press_label(app, "Tile: 2 dots")
    close_notices(app)
    assert selected(app) == "Tile: 0 dots", "Mouse 2 chose the king's line: not kept"


def test_a_new_game_does_not_open_on_the_last_games_choice(app):
    popiel(app)
    press_label(app, "Tile: 4 dots")
    popiel(app, seed=9)
    assert selected(app) == "Tile: 0 dots"


# Pingwiny ------------------------------------------------------------------------


def test_a_pingwiny_choice_is_kept_for_its_player_and_game_only(app):
    pingwiny(app, "family")
    key = kept_for(app, "hq")
    app.top.button("ok")  # draw
    close_notices(app)
    assert kept_for(app, "hq") == key  # the same player's turn
    first = app.session.state.current
    while app.session.state.current == first:  # two visits end the turn
        app.top.button("ok")
        close_notices(app)
    assert kept_for(app, "hq") != key
    pingwiny(app, "family")
    assert kept_for(app, "hq") not in (key, kept_for(app, "gastro get"))


def test_a_colour_filter_keeps_the_cursor_on_the_same_card(app):
    pingwiny(app, "family")
    game, s = app.session.game, app.session.state
    cards = [c for c in s.faceup if c is not None]
    actions = [f"visit hq {card}".split() for card in cards]
    hq = Headquarters(app, actions, 2)
    hq.cursor = len(hq.items) - 1
    card = hq.items[hq.cursor].label
    cost = game.cards.figurants[list(hq.by_card)[hq.cursor]].cost[:4]
    colours = [c for c, n in zip(("red", "blue", "green", "yellow"), cost, strict=True) if n]
    hq.colour(colours[0])
    assert hq.items[hq.cursor].label == card


def test_block_the_end_of_turn_and_a_one_off_action_are_never_remembered(app):
    """A card's action discards it and the penguin's is used once: the line that played
    one is not where the menu opens again, for the same player or the next."""
    pingwiny(app, "advanced")
    items = advanced.action_items(app, app.session.game.legal_actions(app.session.state))
    never = ("Block", "Pass", "End of turn", "Penguin action", "Use a card")
    spending = [item for item in items if item.label.startswith(never)]
    assert any(item.label == "Penguin action" for item in spending)
    assert all(not item.remembered for item in spending)
    others = [item for item in items if item not in spending]
    assert others and all(item.remembered for item in others)


def test_after_the_penguins_action_the_turn_menu_opens_on_its_first_line(app):
    pingwiny(app, "advanced")
    press_label(app, "Penguin action")  # one OK: what it does was shown under the line
    close_notices(app)
    assert app.journal.record(app.session.game_id)["actions"][-1].startswith("penguin")
    assert app.top.cursor == 0
    assert "Penguin action" not in [item.label for item in app.top.items]  # used: gone


def test_an_advanced_turn_opens_on_its_first_line_after_every_action(app):
    """Nothing is remembered on the advanced turn menu: after an action the line the
    player chose is not where the next choice starts (it may mean another thing now)."""
    pingwiny(app, "advanced")
    for _ in range(6):
        menu = app.top
        labels = [item.label for item in menu.items[: menu.moves]]
        played = [label for label in labels if label.startswith(("Move: ", "Take "))]
        press_label(app, played[-1] if played else labels[0])
        close_notices(app)
        while not isinstance(app.top, advanced.AdvancedTurn):  # a sub-menu: its first line
            app.top.button("ok")
            close_notices(app)
        assert app.top.cursor == 0
