"""Seats: the players' names, the penguins dealt, who starts, Król Popiel's mice; in records."""

import pytest
from screen_helpers import choose

from firmware_app.app import App
from firmware_app.flows.pingwiny.turn import TurnMenu
from firmware_app.flows.shared.seats import GROUPS, MOUSE_COLOURS
from firmware_app.runners.headless import Headless
from firmware_app.store.config import load_config
from firmware_app.store.journal import Journal
from firmware_app.ui.screens import WHEEL, LetterEntry, Notice
from rules.colours import COLOURS
from rules.record import replay


def title(sim) -> str:
    return sim.screen.splitlines()[0]


def labels(sim) -> list[str]:
    return [item.label for item in sim.app.top.items]


def type_name(sim, name: str) -> None:
    """Letter by letter with UP/DOWN and OK, the shortest way round the wheel, then done."""
    for symbol in [*name.upper(), "done"]:
        entry = sim.app.top
        assert isinstance(entry, LetterEntry)
        steps = (WHEEL.index(symbol) - entry.cursor) % len(WHEEL)
        if steps <= len(WHEEL) // 2:
            sim.press("down", steps)
        else:
            sim.press("up", len(WHEEL) - steps)
        sim.press("ok")


def to_the_family_seats(sim, players: int = 2) -> None:
    sim.press("ok")  # New game
    sim.press("ok")  # family
    sim.press("down", players - 2)
    sim.press("ok", 4)  # players, normal, the app's bag and deck
    sim.press("down")  # demo deck
    sim.press("ok")


@pytest.fixture
def sim(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.set_setting("names", ["Olek", "Zosia"])  # remembered from earlier games
    sim = Headless(tmp_path, language="en", seed=7)
    yield sim
    sim.close()


def test_each_seat_question_has_a_default_one_ok_takes(sim):
    to_the_family_seats(sim)
    assert sim.screen.startswith("[Names]\n> No names\n")
    sim.press("ok")
    assert sim.screen.startswith("[Penguins]\n> The app deals\n")
    sim.press("ok")
    assert sim.screen.startswith("[First player]\n> The app draws\n")
    assert sim.screen.endswith("  Rulebook: who last visited a\n  zoo starts.")  # the hint
    sim.press("ok")
    assert sim.screen.startswith("[Virtual players]\n> Everyone plays\n")
    sim.press("ok")
    options = sim.app.session.game.options
    assert (options.names, options.penguins, options.first) == (None, None, None)


def test_names_penguins_and_first_player_go_into_the_record_and_onto_the_screens(sim):
    to_the_family_seats(sim)
    choose(sim, "Choose the names")
    assert title(sim) == "[Player 1: name]"
    assert labels(sim) == ["Olek", "Zosia", "New name …", "No name"]
    choose(sim, "New name …")
    type_name(sim, "Ala")
    assert title(sim) == "[Player 2: name]"
    choose(sim, "Zosia")
    choose(sim, "We dealt real cards")
    assert title(sim) == "[Ala: penguin]"
    first_penguin = labels(sim)[1]
    sim.press("down")
    sim.press("ok")
    assert title(sim) == "[Zosia: penguin]" and first_penguin not in labels(sim)
    sim.press("ok")
    assert labels(sim) == ["The app draws", "Ala", "Zosia"]
    choose(sim, "Zosia")
    choose(sim, "Everyone plays")

    session = sim.app.session
    options = session.game.options
    penguins = [card.id for card in sim.app.catalogue(demo=True).penguins]
    assert options.names == ("Ala", "Zosia") and options.first == 1
    assert options.penguins == (penguins[1], [p for p in penguins if p != penguins[1]][0])
    record = sim.journal.record(session.game_id)
    assert record["options"]["names"] == ["Ala", "Zosia"]
    assert replay(record).final.first == 1
    assert sim.app.setting("names") == ["Ala", "Zosia", "Olek"]

    pages = []
    while isinstance(sim.app.top, Notice):
        pages.append(sim.screen)
        sim.press("ok")
    text = "\n".join(pages)
    assert "Ala: " in text and "Zosia starts: first-player marker." in " ".join(text.split())
    assert isinstance(sim.app.top, TurnMenu) and title(sim).startswith("[Zosia: ")
    session.abandon(now=1.0)
    assert sim.journal.export(session.game_id)["options"]["names"] == ["Ala", "Zosia"]


def test_a_name_taken_by_another_seat_is_refused(sim):
    to_the_family_seats(sim)
    choose(sim, "Choose the names")
    choose(sim, "Olek")
    assert "Olek" not in labels(sim)  # not offered twice
    choose(sim, "New name …")
    type_name(sim, "Olek")
    shown = " ".join(sim.screen.split())
    assert title(sim) == "[Player 2: name]" and "Olek is taken by another player." in shown
    sim.press("ok")
    assert isinstance(sim.app.top, LetterEntry) and sim.app.top.entered == "Olek"


def test_the_letter_entry_capitalises_words_and_back_deletes(sim):
    to_the_family_seats(sim)
    choose(sim, "Choose the names")
    choose(sim, "New name …")
    entry = sim.app.top
    sim.press("ok")  # A
    sim.press("down")
    sim.press("ok")  # ą
    assert entry.entered == "Aą"
    sim.press("back")
    assert entry.entered == "A"
    sim.press("up", 4)  # from Ą past A, done and the hyphen: the space
    sim.press("ok")
    sim.press("down", 3)  # the hyphen, done, A
    sim.press("ok")
    assert entry.entered == "A A"
    assert "OK: a" in sim.screen  # the next letter is small
    sim.press("back", 3)
    sim.press("up")  # from A: done
    sim.press("ok")  # done on an empty name does nothing
    assert sim.app.top is entry
    sim.press("back")
    assert title(sim) == "[Player 1: name]"


def test_popiel_players_name_their_mouse_colours(tmp_path):
    sim = Headless(tmp_path, language="pl", seed=2)
    try:  # the box's pawns marked before (tests/test_pawn_colours.py marks them)
        sim.app.set_setting("pawn_colours", ["red", "blue", "green", "yellow", "black"])
        sim.press("ok")  # Nowa gra
        sim.press("down")
        sim.press("ok")  # Król Popiel
        sim.press("ok")  # 2 players
        sim.press("down")
        sim.press("ok")  # demo box
        sim.press("ok", 2)  # side A, the app draws the rewards
        assert sim.screen.startswith("[Imiona graczy]")
        sim.press("ok")  # no names
        assert sim.screen.startswith("[Kolory myszy]\n> Myszy numerowane")
        sim.press("down")
        sim.press("ok")
        assert title(sim) == "[Gracz 1: mysz]"
        assert labels(sim)[:2] == ["Czerwona mysz", "Niebieska mysz"]
        sim.press("down")
        sim.press("ok")  # blue
        assert "Niebieska mysz" not in labels(sim)
        sim.press("ok")  # red
        options = sim.app.session.game.options
        assert options.players == ("blue", "red") and options.names is None
        assert "Zaczyna Niebieska mysz, zakrywając pole startowe." in " ".join(
            " ".join(sim.app.top.lines).split()
        )
        sim.press("back")  # the setup notice, whatever its pages
        assert title(sim) == "[Niebieska mysz] 0 pkt"
        record = sim.journal.record(sim.app.session.game_id)
        assert replay(record).game.options.players == ("blue", "red")
    finally:
        sim.close()


def test_every_mouse_colour_has_its_own_message():
    assert len(set(MOUSE_COLOURS.values())) == len(MOUSE_COLOURS) >= 5


def test_the_configuration_names_are_offered_until_the_box_remembers_its_own(tmp_path):
    config_file = tmp_path / "tableside.toml"
    config_file.write_text(f'[app]\nstate_dir = "{tmp_path}"\nnames = ["Iza", " Filip "]\n')
    config = load_config(config_file)
    assert config.app.names == ("Iza", "Filip")
    with Journal(config.app.journal) as journal:
        app = App(journal, language="en", defaults=config.app.setting_defaults())
        assert app.setting("names") == ["Iza", "Filip"]


def test_a_bad_names_setting_is_reported(tmp_path):
    config_file = tmp_path / "tableside.toml"
    config_file.write_text('[app]\nnames = ["Iza", 3]\n')
    with pytest.raises(Exception, match="player names: a name is text, not 3"):
        load_config(config_file)


def test_back_to_an_earlier_seat_deals_again_without_a_stale_penguin(sim):
    to_the_family_seats(sim)
    sim.press("ok")  # no names
    choose(sim, "We dealt real cards")
    sim.press("ok")  # player 1: the first penguin
    assert title(sim) == "[Player 2: penguin]"
    sim.press("back")
    assert title(sim) == "[Player 1: penguin]"
    sim.press("down")
    sim.press("ok")  # player 1: the second penguin instead
    offered = labels(sim)
    sim.press("ok")  # player 2: the first one offered
    sim.press("ok")  # the app draws who starts
    sim.press("ok")  # everyone plays
    penguins = [card.id for card in sim.app.catalogue(demo=True).penguins]
    assert sim.app.session.game.options.penguins == (penguins[1], penguins[0])
    assert len(offered) == len(penguins) - 1


def test_a_setup_the_engine_refuses_says_why_and_stores_no_game(tmp_path):
    """An owner's file that unsays a penguin's colour: the engine cannot deal it. (Card
    values it does not know are asked during play, so they refuse no setup.)"""
    owner = tmp_path / "owner.toml"
    owner.write_text('[[penguin]]\nid = "rico"\ncolour = "unknown"\n', encoding="utf-8")
    sim = Headless(tmp_path / "state", language="en", owner_catalogue=owner)
    try:
        sim.press("ok")  # New game
        sim.press("down", 2)
        sim.press("ok", 6)  # advanced, 2 players, normal, the app's bag, deck and die
        assert labels(sim)[0] == "Our own cards"
        sim.press("ok")
        sim.press("ok")  # count the tokens now
        while "how many" in sim.screen:  # the token mix, as suggested
            sim.press("ok")
        sim.press("ok", 4)  # the seats' defaults: no names, dealt, drawn, everyone plays
        assert title(sim).startswith("[Not allowed]")
        assert "does not yet know enough to play" in " ".join(sim.app.top.lines)
        assert sim.app.session is None
        assert sim.journal.unfinished_games() == [] and sim.journal.ended_games() == []
    finally:
        sim.close()


# ------------------------------------------------------------ names by colour


class Counted:
    """The simulator's presses, counted."""

    def __init__(self, sim) -> None:
        self.sim, self.presses = sim, 0

    def press(self, name: str, times: int = 1) -> None:
        self.sim.press(name, times)
        self.presses += times


def colour_name(counted: Counted, name: str) -> None:
    """Two colour presses a letter: its group (red the first), then its place in the group;
    then OK, the wheel standing on "done"."""
    for letter in name.upper():
        group = next(g for g, letters in enumerate(GROUPS) if letter in letters)
        counted.press(COLOURS[group])
        counted.press(COLOURS[GROUPS[group].index(letter)])
    counted.press("ok")


@pytest.mark.parametrize("language", ["en", "pl"])
def test_three_new_names_on_a_first_evening_take_26_presses(tmp_path, language):
    """The goal is 30 for three new 3-letter names; the box remembers none yet."""
    sim = Headless(tmp_path, language=language, seed=7)
    try:
        to_the_family_seats(sim, players=3)
        counted = Counted(sim)
        counted.press("down")  # Choose the names
        counted.press("ok")
        for name in ("Ada", "Ola", "Tom"):
            assert labels(sim)[0] == sim.app.t("New name …")  # nothing remembered yet
            counted.press("ok")
            colour_name(counted, name)
        assert counted.presses == 26
        sim.press("ok", 3)  # the app deals, draws who starts; everyone plays
        assert sim.app.session.game.options.names == ("Ada", "Ola", "Tom")
        assert sim.app.setting("names")[:3] == ["Ada", "Ola", "Tom"]
    finally:
        sim.close()


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_colour_letters_show_their_groups_back_forgets_one_the_wheel_still_works(
    tmp_path, language
):
    sim = Headless(tmp_path, language=language, seed=7)
    try:
        t = sim.app.t
        to_the_family_seats(sim)
        choose(sim, t("Choose the names"))
        sim.press("down", 2)
        sim.press("ok")  # New name …
        entry = sim.app.top
        assert t("Colours: {letters}", letters="A D H Ł Ó Ś X") in sim.screen
        sim.press("yellow")  # Ł M N Ń O
        assert t("Colours: {letters}", letters="Ł M N Ń O") in sim.screen
        sim.press("white")  # no sixth letter: said, nothing entered, the group stays
        shown = " ".join(sim.screen.split())
        assert t("No letter on that button: one of {letters}.", letters="Ł M N Ń O") in shown
        sim.press("ok")
        assert entry.entered == "" and t("Colours: {letters}", letters="Ł M N Ń O") in sim.screen
        sim.press("back")  # forgets the group, deletes nothing
        assert t("Colours: {letters}", letters="A D H Ł Ó Ś X") in sim.screen
        sim.press("yellow")
        sim.press("red")
        assert entry.entered == "Ł"
        assert t("↑↓ letter, OK: {choice}", choice=t("done")) in sim.screen
        assert t("Colours: {letters}", letters="a d h ł ó ś x") in sim.screen  # small now
        sim.press("down")  # the wheel, one past "done": A, small
        sim.press("ok")
        assert entry.entered == "Ła"
        sim.press("back")  # deletes the last letter
        assert entry.entered == "Ł"
        type_name(sim, "")  # done, on the wheel
        choose(sim, t("No name"))  # the second seat
        sim.press("ok", 3)
        assert sim.app.session.game.options.names == ("Ł", None)
    finally:
        sim.close()
