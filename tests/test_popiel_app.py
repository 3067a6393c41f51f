"""A whole game of Król Popiel through the screens on the fakes, then replayed."""

import random

from screen_helpers import choose

from firmware_app.flows.popiel.play import turn_screen
from firmware_app.runners.headless import Headless
from firmware_app.ui.screens import Notice, NumberEntry
from rules.record import replay

START = [
    "press ok",  # New game
    "press down",  # King Popiel
    "press ok",
    "press down",  # 3 players
    "press ok",
    "press down",  # demo box
    "press ok",
    "press ok",  # side A
    "press ok",  # the app draws the rewards
    "press ok",  # no names
    "press ok",  # numbered mice
]


def play_a_turn(sim, chooser) -> None:
    """Place a tile with a few dots, touching the king one time in three."""
    dots = chooser.randrange(5)
    if chooser.random() < 0.34:
        choose(sim, "Tile touches the king …")
        assert isinstance(sim.app.top, NumberEntry)
        sim.press("up", dots)
        sim.press("ok")
    else:
        choose(sim, f"Tile: {dots} dot" + ("" if dots == 1 else "s"))
    while isinstance(sim.app.top, Notice):
        sim.press("ok")


def test_a_whole_popiel_game_in_the_simulator_replays_from_its_record(tmp_path):
    sim = Headless(tmp_path, language="en", seed=5)
    try:
        for line in START:
            sim.command(line)
        assert sim.screen.startswith("[Setup] 1/")
        while isinstance(sim.app.top, Notice):
            sim.press("ok")
        assert sim.screen.startswith("[Mouse 1]")
        chooser = random.Random(5)
        turns = 0
        while not sim.app.session.over:
            play_a_turn(sim, chooser)
            turns += 1
            assert turns < 200
        session = sim.app.session
        assert sim.screen.startswith("[Game over]")
        assert session.state.king == session.game.windows
        record = sim.journal.record(session.game_id)
        assert replay(record).final == session.state
        sim.press("ok")
        text = " ".join(" ".join(sim.app.top.lines).split())
        assert "Winner:" in text and "demo box — not the printed mix or tower" in text
    finally:
        sim.close()


def test_the_table_is_told_to_move_the_pawn_and_flip_the_marker(tmp_path):
    sim = Headless(tmp_path, language="en", seed=6)
    try:
        for line in START:
            sim.command(line)
        while isinstance(sim.app.top, Notice):
            sim.press("ok")
        session = sim.app.session
        session.states[-1] = session.state.replace(scores=(28, 0, 0))
        sim.app.reset(turn_screen(sim.app))
        choose(sim, "Tile: 4 dots")  # does not touch the king
        text = " ".join(sim.screen.split())
        assert sim.screen.startswith("[Tile to Mouse 2]")
        assert "4 points: pawn to track space 2, marker flipped." in text
        assert "Flip the 30-points marker." in " ".join(" ".join(sim.app.top.lines).split())
    finally:
        sim.close()


def test_the_table_is_told_to_refill_the_draw_spaces_only_while_the_stack_lasts():
    from firmware_app.flows.popiel.play import event_lines
    from firmware_app.store.catalogue_files import load_popiel
    from firmware_app.words.i18n import Translator
    from rules.popiel.game import PopielGame, PopielOptions

    t = Translator("en")
    game = PopielGame(load_popiel(demo=True), PopielOptions(players=("a", "b")))
    s = game.new_state()
    _, events = game.apply(s, "place 1")
    assert "Take a tile from the draw spaces; refill them." in event_lines(t, game, events)
    _, events = game.apply(s.replace(stack=0), "place 1")
    assert "Take a tile from the draw spaces." in event_lines(t, game, events)
    _, events = game.apply(s.replace(stack=0, draw_spaces=0), "place 1")
    assert "No tile left to draw." in event_lines(t, game, events)
