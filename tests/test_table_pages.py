"""What the table must do after a purchase or a new row, in as few notice pages as it can.

Every physical step is still told (the card taken, each colour paid and where it goes,
each card laid and its space); the wording keeps them short enough that a family reads
them on one page, and a sentence that does not fit waits above the next choices.
"""

import pytest

from firmware_app.app import App
from firmware_app.flows.pingwiny.turn import SAID_ROWS, TurnMenu
from firmware_app.session import Session
from firmware_app.store.journal import Journal
from firmware_app.ui.screens import Item, Notice
from firmware_app.words.i18n import card_name
from firmware_app.words.table_text import RETURN_PLACE, SUPPLY_PLACE
from rules.pingwiny.options import Options
from rules.pingwiny.state import set_player


def family(tmp_path, language: str) -> App:
    journal = Journal(tmp_path / f"{language}.sqlite")
    app = App(journal, language=language)
    options = Options(players=3, seed=1)
    app.session = Session.start(
        journal, options, app.catalogue(demo=True), now=0.0, game=("pingwiny", "family")
    )
    app.show_game()
    app.top.button("ok")  # draw: the first visit of the turn is next
    return app


def shown(app) -> str:
    """The text of the screens on top, notices read page by page, then the menu beneath."""
    text = []
    while isinstance(app.top, Notice):
        notice = app.top
        for page in notice.sheets:
            text += page
        app.top.button("back")
    return " ".join(text + app.render().lines)


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_new_row_is_one_sentence_on_one_page_with_every_card_and_its_space(tmp_path, language):
    app = family(tmp_path, language)
    app.act("visit gate")
    notice = app.top
    assert isinstance(notice, Notice) and notice.pages == 1
    text = " ".join(notice.lines)
    state, t = app.session.state, app.t
    for space, card in enumerate(state.faceup, start=1):
        assert f"{space} {card_name(t, app.session.game.cards.figurants[card])}" in text
    assert t("Face-up figurants under the deck; lay out {cards}.", cards="").split(";")[0] in text


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_purchase_tells_the_card_each_colour_where_it_goes_and_the_card_laid(tmp_path, language):
    app = family(tmp_path, language)
    session = app.session
    s = session.state.copy()
    set_player(s, s.current, tokens=(2, 2, 2, 2, 0, 0, 0))  # red, blue, green, yellow
    session.states[-1] = s
    app.show_game()
    buying = [a for a in session.game.legal_actions(s) if a[:2] == ("visit", "hq")]
    assert buying
    card = buying[0][2]
    cost = session.game.cards.figurants[card].cost
    app.act(str(buying[0]))
    t = app.t
    pages = app.top.pages if isinstance(app.top, Notice) else 0
    text = shown(app)
    assert pages == 1, "the purchase is read on one page"
    assert card_name(t, session.game.cards.figurants[card]) in text
    for colour, place in SUPPLY_PLACE.items():  # each colour paid, with its location
        index = ("red", "blue", "green", "yellow").index(colour)
        if cost[index]:
            assert t(RETURN_PLACE[place]) in text
            assert t.name(colour) in text
    slot = s.faceup.index(card)
    laid = card_name(t, session.game.cards.figurants[session.state.faceup[slot]])
    assert t("Lay out {card} in space {space}.", card=laid, space=slot + 1) in text


def test_what_does_not_fit_above_the_choices_is_read_first_on_a_notice(tmp_path):
    app = family(tmp_path, "en")
    menu = TurnMenu(app, "Turn", [Item("Zoo gate", lambda: None)], [], "")
    app.push(menu)
    first = "Take Bracia Wezuwiusz; return 2× red to Gorillas, 2× blue to Chimps, white to the bag."
    last = "Lay out Demo figurant 37 in space 3."
    assert Notice(app, "", [first, last]).pages == 2  # one notice would take two pages
    assert menu.say([first, last])
    notice = app.top
    assert isinstance(notice, Notice) and notice.pages == 1
    assert " ".join(notice.lines) == first
    assert menu.header == [last]  # shown above the choices once the notice is read
    assert sum(len(app.wrap(line)) for line in menu.header) <= SAID_ROWS


def test_lines_that_take_as_many_pages_split_or_not_stay_on_one_notice(tmp_path):
    app = family(tmp_path, "en")
    menu = TurnMenu(app, "Turn", [Item("Zoo gate", lambda: None)], [], "")
    app.push(menu)
    lines = [f"Sentence number {n} for the table." for n in range(4)]
    assert not menu.say(lines)  # the caller's notice: splitting would save no page
    assert app.top is menu and menu.header == []


def test_a_rummage_as_the_last_action_is_not_called_the_end_of_turn_draw(tmp_path):
    """The fourth action rummages (a draw), then the turn's end draws two: only the second
    is the end of the turn's draw."""
    from firmware_app.flows.pingwiny.advanced_table import event_lines

    journal = Journal(tmp_path / "advanced.sqlite")
    app = App(journal, language="en")
    game = Session.start(
        journal,
        Options(players=2, seed=1),
        app.catalogue(demo=True),
        now=0.0,
        game=("pingwiny", "advanced"),
    ).game
    events = [
        {"event": "drew", "player": 0, "tokens": ["white"]},
        {"event": "drew", "player": 0, "tokens": ["red", "yellow"]},
        {"event": "turn", "player": 1},
    ]
    lines = event_lines(app.t, game, events)
    assert lines[0] == "From the bag: white."
    assert "End of turn: draw 2 — red, yellow." in lines
    assert sum(line.startswith("End of turn") for line in lines) == 1
    journal.close()
