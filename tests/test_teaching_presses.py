"""Teaching a card in few presses: points and type on one screen, Officer X as one choice,
a mission's step on one screen; every answer seen on the panel before it is pressed."""

import logging
import statistics

from screen_helpers import choose
from test_teaching import OWN_ADVANCED, answer_mix, own_game, teach_first_card

from firmware_app.flows.shared.teach import CostEntry
from firmware_app.flows.shared.teach_screens import PointsTypeEntry, StepEntry, in_columns
from firmware_app.runners.headless import Headless
from firmware_app.ui.canvas import ELLIPSIS, WIDTH, Canvas
from firmware_app.ui.screens import Menu
from rules.messages import INITIALS

FOUR = ("up", "down", "ok", "back")


def taught(sim, name):
    return next(f for f in sim.app.session.game.cards.figurants.values() if f.name == name)


def counting(sim) -> list[str]:
    """Every press from now on, noted."""
    pressed, press = [], sim.press

    def noted(name, times=1):
        pressed.extend([name] * times)
        press(name, times)

    sim.press = noted
    return pressed


def points_start(sim, card_id) -> int:
    """The median of the points the running game knows for the other figurants, else 1:
    computed here from the card table, not from the screen."""
    known = [
        f.points
        for f in sim.app.session.game.cards.figurants.values()
        if f.points is not None and f.id != card_id
    ]
    return statistics.median_low(known) if known else 1


def test_a_family_card_takes_its_tokens_ok_the_points_and_one_colour(tmp_path, caplog):
    """3 tokens, 2 points, "enemy": 3 + OK + the points from where they start + yellow;
    the log keeps one line of what was taught."""
    caplog.set_level(logging.INFO)
    sim = own_game(tmp_path)
    teach_first_card(sim)
    name = sim.app.top.title
    card_id = taught(sim, name).id
    pressed = counting(sim)
    sim.press("red", 2)
    sim.press("blue")
    sim.press("ok")
    entry = sim.app.top
    assert isinstance(entry, PointsTypeEntry)
    assert entry.value == points_start(sim, card_id)
    mark = INITIALS["en"]["yellow"]
    assert f"{mark} enemy" in sim.screen  # the screen says which colour is which type
    sim.press("up" if entry.value < 2 else "down", abs(entry.value - 2))
    sim.press("yellow")
    assert len(pressed) == 5 + abs(points_start(sim, card_id) - 2)
    card = taught(sim, name)
    assert (card.points, card.type, sum(card.cost)) == (2, "enemy", 3)
    last = [r.getMessage() for r in caplog.records if r.name == "tableside.teach"][-1]
    assert last.startswith(f"taught figurant {card_id!r}: ")
    assert "'points': 2" in last and "'type': 'enemy'" in last
    sim.close()


def test_the_points_start_the_same_whatever_the_cost(tmp_path):
    """The demo deck's points are its tokens less one: a start taken from the cost would
    flatter the figures. One token or six, the points start at the same value."""
    starts = []
    for tokens in (1, 6):
        sim = own_game(tmp_path / str(tokens))
        teach_first_card(sim)
        sim.press("black", tokens)
        sim.press("ok")
        starts.append(sim.app.top.value)
        sim.close()
    assert starts[0] == starts[1]


def test_the_points_start_at_the_median_the_box_has_been_taught(tmp_path):
    sim = own_game(tmp_path)
    teach_first_card(sim)
    sim.press("red")
    sim.press("ok")
    sim.press("up", 9)  # the highest: 9 points
    sim.press("grey")  # reptile
    pilot_to_next_points(sim)
    card = next(f for f in sim.app.session.game.cards.figurants.values() if f.points == 9)
    assert card.type == "reptile"
    here = taught(sim, sim.app.top.title).id
    assert sim.app.top.value == points_start(sim, here)
    sim.close()


def pilot_to_next_points(sim) -> None:
    """On to the next card's points: OK through the turns, a red token for each cost."""
    for _ in range(300):
        if isinstance(sim.app.top, PointsTypeEntry):
            return
        sim.press("red" if isinstance(sim.app.top, CostEntry) and not sim.app.top.entered else "ok")
    raise AssertionError(sim.screen)


def four_buttons_until(tmp_path, wanted) -> Headless:
    """A family game on our own cards on the 4-button build, OK pressed (the first
    value offered) until ``wanted(screen on top)``."""
    sim = Headless(tmp_path / "state", owner_catalogue=tmp_path / "owner.toml", fitted=FOUR)
    for _ in range(7):  # new game, family, 2 players, … our own cards
        sim.press("ok")
    answer_mix(sim)
    for _ in range(200):
        if wanted(sim.app.top):
            return sim
        sim.press("ok")
    raise AssertionError(sim.screen)


def test_four_buttons_take_the_points_then_the_type_from_a_list(tmp_path):
    sim = four_buttons_until(tmp_path, lambda top: isinstance(top, CostEntry))
    name = sim.app.top.title
    sim.press("ok")  # red, the first of the list
    sim.press("down", 8)  # to "done"
    sim.press("ok")
    entry = sim.app.top
    assert isinstance(entry, PointsTypeEntry)
    assert "OK: the type" in sim.screen and "enemy" not in sim.screen  # no colour marks
    start = entry.value
    sim.press("up")
    sim.press("ok")
    assert isinstance(sim.app.top, Menu) and sim.app.top.items[0].label == "bird"
    sim.press("down", 3)
    sim.press("ok")
    card = taught(sim, name)
    assert (card.points, card.type) == (start + 1, "enemy")
    sim.close()


def test_ok_on_the_points_lists_the_types_and_a_colour_still_picks_its_own(tmp_path):
    """The list OK opens keeps the colour buttons: black is insect there too."""
    sim = own_game(tmp_path)
    name = teach_first_card(sim).title
    sim.press("red")
    sim.press("ok")  # a cost of one red token
    start = sim.app.top.value
    sim.press("ok")
    assert isinstance(sim.app.top, Menu) and sim.app.top.items[0].label == "R bird"
    sim.press("black")
    assert (taught(sim, name).points, taught(sim, name).type) == (start, "insect")
    sim.close()


def test_a_steps_points_and_cards_stay_from_one_to_nine(tmp_path):
    sim = mission_steps(tmp_path)
    step = sim.app.top
    sim.press("down", 2)
    sim.press("red", 2)
    assert (step.count, step.points) == (1, 1)
    sim.press("up", 12)
    sim.press("green", 12)
    assert (step.count, step.points) == (9, 9)
    assert "R-/G+ cards: 9" in sim.screen and "↑↓ points: 9" in sim.screen
    sim.close()


def test_officer_x_is_one_choice_of_the_dies_ranges(tmp_path):
    sim = own_game(tmp_path, script=OWN_ADVANCED)
    teach_first_card(sim)
    name = sim.app.top.title
    sim.press("red")
    sim.press("ok")
    menu = sim.app.top
    assert menu.title.endswith(": Officer X range")
    labels = [item.label for item in menu.items]
    assert len(labels) == 21 and labels[0] == "1–1" and labels[-1] == "6–6"  # low ≤ high, 1–6
    assert labels[menu.cursor] == "1–2"  # the one range printed (Antonio's, in an example)
    sim.press("down")
    sim.press("ok")
    assert taught_later(sim, name, "officer_x") == (1, 3)
    sim.close()


def taught_later(sim, name, field):
    """Answer the card's remaining questions with OK (and a type's colour), then its
    ``field``."""
    for _ in range(20):
        top = sim.app.top
        if getattr(top, "teacher", None) is None:
            break
        sim.press("red" if isinstance(top, PointsTypeEntry) else "ok")
    return getattr(taught(sim, name), field)


def mission_steps(tmp_path, language="en"):
    """A family game's setup on to the first mission's step screen."""
    sim = own_game(tmp_path, language)
    answer_mix(sim)
    for _ in range(50):
        if isinstance(sim.app.top, StepEntry):
            return sim
        sim.press("ok")
    raise AssertionError(sim.screen)


def test_a_missions_step_is_one_screen_and_its_buttons_say_what_they_do(tmp_path):
    """Najlepszy wróg (its type is printed), taught 3 cards: 1, 4: 3, 5: 5."""
    sim = mission_steps(tmp_path)
    step = sim.app.top
    mission = step.title
    assert (step.n, step.count, step.points) == (1, 1, 1)  # no mission known yet
    screen = sim.screen
    assert "R-/G+ cards: 1" in screen and "↑↓ points: 1" in screen
    assert "OK: one more step" in screen and "B: this step is the last" in screen
    pressed = counting(sim)
    sim.press("green", 2)
    sim.press("ok")
    second = sim.app.top
    assert (second.n, second.count, second.points) == (2, 4, 2)  # one card, one point on
    sim.press("up")
    sim.press("ok")
    third = sim.app.top
    assert (third.count, third.points) == (5, 5)  # as far again as the last rise
    sim.press("blue")
    assert len(pressed) == 6
    card = next(m for m in sim.app.session.game.cards.missions.values() if m.name == mission)
    assert card.scoring == ((3, 1), (4, 3), (5, 5))
    sim.close()


def test_a_step_that_does_not_rise_is_refused_and_changes_nothing(tmp_path):
    sim = mission_steps(tmp_path)
    sim.press("green")
    sim.press("ok")  # step 1: 2 cards
    sim.press("red")  # step 2 back to 2 cards
    before = (tmp_path / "owner.toml").read_bytes()
    sim.press("blue")
    assert "Not possible" in sim.screen
    assert (tmp_path / "owner.toml").read_bytes() == before
    sim.press("ok")
    assert isinstance(sim.app.top, StepEntry) and sim.app.top.n == 2  # asked again
    sim.close()


def test_four_buttons_keep_the_three_questions_of_a_step(tmp_path):
    sim = four_buttons_until(tmp_path, lambda top: "cards?" in getattr(top, "prompt", ""))
    assert sim.app.top.value == 1
    sim.press("down")
    assert sim.app.top.value == 1  # a step counts one card or more
    sim.press("up", 2)
    sim.press("ok")
    sim.press("down")
    assert sim.app.top.value == 1  # and gives one point or more
    sim.press("ok")  # 1 point
    assert sim.app.top.items[sim.app.top.cursor].label == "That is all"  # none known yet
    sim.press("down")
    sim.press("ok")
    assert (sim.app.top.value, "Step 2" in sim.app.top.prompt) == (4, True)
    sim.close()


def drawn(screen) -> Canvas:
    canvas = Canvas()
    screen.draw(canvas)
    return canvas


def test_the_new_screens_fit_the_panel_in_both_languages(tmp_path):
    """Long names, both languages, both builds: no line of the body is cut, and the
    title keeps the card's name whole or shortens it before its question."""
    for language in ("en", "pl"):
        for fitted in (None, FOUR):
            extra = {"fitted": fitted} if fitted else {}
            sim = Headless(tmp_path / f"{language}{fitted is None}", language=language, **extra)
            app = sim.app
            title = "Aleksandra: Ptak zamknięty ptak szalony"
            screens = [
                PointsTypeEntry(app, title, 9, None, None),
                StepEntry(app, title, 9, 9, 9, True, None),
                StepEntry(app, title, 9, 9, 9, False, None),
            ]
            for screen in screens:
                canvas = drawn(screen)
                head, *body = canvas.lines
                assert not [line for line in body if ELLIPSIS in line], (language, body)
                whole = head == f"[{title}]" or head.endswith(f"{ELLIPSIS}]")
                assert head.startswith("[Aleksandra: ") and whole, head
            sim.close()


def test_the_second_column_starts_at_the_same_place_on_every_row():
    canvas, starts = Canvas(), set()
    for left in ("R bird", "G mammal", "◐ reptile", "N człowiek"):
        row = in_columns(canvas, left, "B human")
        starts.add(canvas.font.text_width(row[: row.index("B human")]))
    assert max(starts) - min(starts) < canvas.font.text_width("  ") - canvas.font.text_width(" ")


def test_back_to_an_earlier_question_then_on_leaves_the_game_where_it_was(tmp_path):
    """BACK on the Officer X range reopens the cost; answered again, the card is taught as
    in one go, and the game goes on from the same screen (the question left by BACK is not
    taken away twice, nor a screen of the game with it)."""
    screens = []
    for back in (False, True):
        sim = own_game(tmp_path / str(back), script=OWN_ADVANCED)
        teach_first_card(sim)
        name = sim.app.top.title
        sim.press("red")
        sim.press("ok")
        assert sim.app.top.title.endswith(": Officer X range")
        if back:
            sim.press("back")
            assert isinstance(sim.app.top, CostEntry)
            sim.press("red")
            sim.press("ok")
        assert taught_later(sim, name, "officer_x") == (1, 2)
        screens.append((sim.screen, len(sim.app.stack)))
        sim.close()
    assert screens[1] == screens[0]


def test_each_line_of_a_step_screen_has_a_row_of_its_own(tmp_path):
    """The title and five lines fill the panel: each line is drawn on its own row, none over
    another, none left blank, in the order a reader goes down them."""
    sim = mission_steps(tmp_path)
    shown = sim.app.render()
    lines = [line.strip() for line in shown.lines[1:]]
    assert len(lines) == shown.body_rows == 5
    h = shown.row_height
    for index, line in enumerate(lines):
        alone = Canvas()
        alone.row(index, line)
        band = (0, h * (index + 1) + 1, WIDTH, h * (index + 2) + 1)
        assert shown.image.crop(band).tobytes() == alone.image.crop(band).tobytes(), line
    sim.close()


def test_a_colour_from_the_bag_or_the_board_offers_the_colours_found_there(tmp_path):
    """The rulebook puts every token but grey into the bag, and gives red, blue, green and
    yellow a place on the board: an effect's colour is chosen among those of its source."""
    sim = own_game(tmp_path, script=OWN_ADVANCED)
    teach_first_card(sim)
    sim.press("red")
    sim.press("ok")  # its cost
    sim.press("ok")  # Officer X: the usual range
    assert sim.app.top.title.endswith(": What it does")
    choose(sim, "A colour from the bag")
    colours = ["red", "blue", "green", "yellow", "white", "black"]
    assert [item.colour for item in sim.app.top.items] == colours
    sim.press("back")
    choose(sim, "A colour from the board")
    assert [item.colour for item in sim.app.top.items] == colours[:4]
    sim.close()
