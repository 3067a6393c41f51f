"""The family turn on the panel: hand-off, shortcuts, why not, paging, undo in words."""

import pytest

from firmware_app.app import App
from firmware_app.flows.pingwiny.turn import Headquarters, TurnMenu
from firmware_app.session import Session
from firmware_app.store.journal import Journal
from firmware_app.ui.screens import Menu, Notice
from firmware_app.words.i18n import ThingsNamed, card_name
from rules.actions import Action
from rules.colours import COLOURS
from rules.errors import IllegalAction
from rules.pingwiny.options import Options
from rules.pingwiny.state import set_player


@pytest.fixture
def app(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    app = App(journal, language="en")
    options = Options(players=2, seed=3)
    app.session = Session.start(
        journal, options, app.catalogue(demo=True), now=0.0, game=("pingwiny", "family")
    )
    app.show_game()
    yield app
    journal.close()


def close_notices(app) -> None:
    while isinstance(app.top, Notice):
        app.top.button("back")


def test_a_notice_turns_its_pages_and_closes_on_the_last(app):
    app.notice("Many", [f"Line {n}." for n in range(12)])
    notice = app.top
    assert notice.pages == 3 and app.render().lines[0] == "[Many] 1/3"
    notice.button("ok")
    assert app.top is notice and app.render().lines[0] == "[Many] 2/3"
    notice.button("ok")
    notice.button("ok")
    assert app.top is not notice


def test_down_on_a_notices_last_page_closes_it_and_moves_the_menu_beneath(app):
    app.top.button("ok")  # draw
    close_notices(app)
    menu = app.top
    app.notice("Two pages", [f"Line {n}." for n in range(6)])
    app.top.button("down")  # the first page: DOWN turns it
    assert isinstance(app.top, Notice) and app.top.page == 1
    app.top.button("up")  # back a page: nothing closes
    assert isinstance(app.top, Notice) and app.top.page == 0
    app.top.button("down")
    cursor = menu.cursor
    app.top.button("down")  # the last page read: the press goes on to the menu
    assert app.top is menu and menu.cursor == (cursor + 1) % len(menu.items)
    assert len(app.session.states) == 2  # nothing played


def test_the_turn_lists_its_choices_then_why_not_and_more(app):
    app.top.button("ok")  # draw
    close_notices(app)
    menu = app.top
    labels = [item.label for item in menu.items]
    assert labels[menu.moves :] in (["Why not …", "More …"], ["More …"])
    menu.cursor = labels.index("More …")
    menu.button("ok")
    extras = [item.label for item in app.top.items]
    assert extras == ["Hint", "Score so far", "Table status", "Help", "Correct the table"] + [
        "Undo",
        "Redo",
        "Settings",
        "End game",
    ]
    app.top.button("back")
    assert app.top is menu


def test_the_hand_off_names_the_next_player_and_its_ok_draws(app):
    first = app.session.state.current
    app.top.button("ok")  # draw
    close_notices(app)
    for _ in range(2):
        gate = [i.label for i in app.top.items].index(app.t.name("gate"))
        app.top.cursor = gate
        app.top.button("ok")
        if app.session.state.current == first:
            close_notices(app)
    following = app.session.state.current
    assert following != first
    assert app.top.title == f"Bag to Player {following + 1}"
    drawn = len(app.session.states)
    while isinstance(app.top, Notice):
        app.top.button("ok")
    assert len(app.session.states) == drawn + 1  # the last OK drew the tokens
    assert app.session.state.phase == "visit"


def test_the_tokens_drawn_stay_above_the_visits_until_the_first_is_chosen(app):
    s = app.session.state
    had = s.players[s.current].tokens
    app.top.button("ok")  # draw: no notice of its own, the menu says what came out
    menu, s = app.top, app.session.state
    has = s.players[s.current].tokens
    drawn = [colour for i, colour in enumerate(COLOURS) for _ in range(has[i] - had[i])]
    assert isinstance(menu, TurnMenu) and len(drawn) == s.draw_count == 2
    shown = app.render().lines
    assert shown[1].strip() == drawn_line(drawn)  # the table reads it, then chooses
    assert shown[2].startswith(">") and menu.cursor == 0  # the first visit right under it
    menu.cursor = [item.label.endswith("…") for item in menu.items].index(False)
    menu.button("ok")  # a visit played at once: what it asks replaces the draw's line
    if isinstance(app.top, Notice):  # too long to stand above the choices
        assert app.top.title == "At the table"
        assert sum(len(app.wrap(line)) for line in app.top.lines) > 2
        close_notices(app)
    assert app.session.state.visits_left == 1 and app.top is not menu
    assert drawn_line(drawn) not in app.top.header


def drawn_line(colours: list[str]) -> str:
    return "From the bag: " + ", ".join(colours) + "."


def test_a_turn_menu_says_only_what_fits_above_its_choices(app):
    app.top.button("ok")
    menu = app.top
    assert not menu.say(["One line.", "Two lines.", "Three lines."])
    assert menu.say(["Take the red token."]) and menu.header == ["Take the red token."]
    assert app.render().lines[1].strip() == "Take the red token."


def names(line: str, name: str) -> bool:
    """Whether a card line is the card's: its name whole, or shortened to fit the row."""
    head = line.split(" · ")[0]
    return head.startswith(name) or ("…" in head and name.startswith(head.split("…")[0]))


def test_headquarters_comes_first_with_cost_and_points_and_a_colour_filters(app):
    app.top.button("ok")
    close_notices(app)
    s, game = app.session.state, app.session.game
    legal = game.legal_actions(s)
    if not any(a[1] == "hq" for a in legal):
        pytest.skip("no card to pay in this deal")
    menu = app.top
    assert isinstance(menu, TurnMenu) and menu.items[0].label.startswith(app.t.name("hq"))
    menu.button("ok")
    hq = app.top
    assert isinstance(hq, Headquarters)
    card = next(a[2] for a in legal if a[1] == "hq")
    figurant = game.cards.figurants[card]
    line = next(item.label for item in hq.items if names(item.label, figurant.name))
    assert line.endswith(f"· {figurant.points} pt" + ("" if figurant.points == 1 else "s"))
    colours = ("red", "blue", "green", "yellow", "grey", "white", "black")
    present = next(c for c, n in zip(colours, figurant.cost, strict=True) if n)
    hq.button(present)  # only the cards whose cost has that colour
    assert any(names(item.label, figurant.name) for item in hq.items)
    assert hq.right == app.t.initial(present)
    hq.button(present)  # again: all of them
    assert hq.right == ""


def test_gastro_by_the_colour_given_then_the_colour_got(app):
    app.top.button("ok")
    close_notices(app)
    legal = app.session.game.legal_actions(app.session.state)
    exchanges = [a for a in legal if a[1] == "gastro"]
    give_one = [a for a in exchanges if "+" not in a[2].split(">")[0]]
    if not give_one:
        pytest.skip("no single-token exchange in this deal")
    give, get = give_one[0][2].split(">")
    played = len(app.session.states)
    app.top.button(give)  # the turn menu: straight to what you get
    assert isinstance(app.top, Menu) and app.top.title == "Gastro: you get"
    assert give not in [item.colour for item in app.top.items]  # one for the same: no exchange
    app.top.button(get.split("+")[0])
    assert len(app.session.states) == played + 1
    assert app.session.journal.record(app.session.game_id)["actions"][-1] == str(give_one[0])


def test_why_not_gives_the_engines_own_reasons(app):
    app.top.button("ok")
    close_notices(app)
    menu = app.top
    why = next(item for item in menu.items if item.label == "Why not …")
    why.run()
    text = " ".join(app.top.lines)
    s, game = app.session.state, app.session.game
    shut = [
        location
        for location in ("chimp", "gorilla", "shop", "storehouse")
        if not any(a[1] == location for a in game.legal_actions(s))
    ]
    assert shut, "no location shut: nothing to explain"
    for location in shut:
        with pytest.raises(IllegalAction) as refused:
            game.apply(s, Action.parse(f"visit {location}"))
        said = " ".join(app.t.refusal(refused.value, app.session).split())
        assert said in " ".join(text.split())  # the refusal, in the same words


def test_undo_says_what_it_undid_in_words(app):
    app.top.button("ok")
    close_notices(app)
    who = app.session.state.current + 1
    app.undo()
    assert " ".join(app.top.lines) == f"Undone: Player {who} drew tokens"


def test_a_penguins_action_is_explained_under_its_line_and_one_ok_plays_it(tmp_path):
    journal = Journal(tmp_path / "advanced.sqlite")
    try:
        app = App(journal, language="en")
        options = Options(players=2, seed=3)
        app.session = Session.start(
            journal, options, app.catalogue(demo=True), now=0.0, game=("pingwiny", "advanced")
        )
        app.show_game()
        close_notices(app)
        legal = app.session.game.legal_actions(app.session.state)
        penguin = [a for a in legal if a.verb == "penguin"]
        assert penguin, legal
        played = len(app.session.states)
        menu = app.top
        menu.cursor = [item.label for item in menu.items].index("Penguin action")
        assert menu.items[menu.cursor].detail.startswith("Take 2 ")  # the demo penguins' draw
        assert "Take 2 " in app.render().text()  # shown under the line, before any press
        assert len(app.session.states) == played  # nothing played by moving onto it
        menu.button("ok")
        assert len(app.session.states) == played + 1
        assert app.journal.record(app.session.game_id)["actions"][-1] == str(penguin[0])
    finally:
        journal.close()


def test_two_black_for_one_black_is_offered_it_leaves_a_token_fewer(app):
    """The rulebook's Adam exchanges to hold fewer tokens: two black for one is such a way."""
    app.top.button("ok")  # draw
    close_notices(app)
    s = app.session.state.copy()
    set_player(s, s.current, tokens=(0, 0, 0, 0, 0, 0, 2))  # two black, nothing else
    app.session.states[-1] = s  # what the screens read (nothing is journalled here)
    app.show_game()
    app.top.button("black")  # the Gastro zone, giving black: what you get
    assert app.top.title == "Gastro: you get"
    assert "black" in [item.colour for item in app.top.items]


def test_a_refusal_names_every_card_mission_penguin_and_seat_as_the_table_reads_them(app):
    game, t = app.session.game, app.t
    named = ThingsNamed(t, app.session)
    cards = game.cards
    expected = {card: card_name(t, f) for card, f in cards.figurants.items()}
    expected |= {mission: card_name(t, m) for mission, m in cards.missions.items()}
    expected |= {penguin: penguin.capitalize() for penguin in cards.penguins}
    expected |= {"p1": "Player 1", "p2": "Player 2"}  # Options(players=2), no names given
    assert dict(named) == expected
    assert len(named) == len(expected)
    assert "p3" not in named and "nobody" not in named
