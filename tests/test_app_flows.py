"""Whole family games played through the screens by button and tag events on the fakes."""

import pytest
from screen_helpers import choose, recorded_play

from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import Headless, run_script
from firmware_app.session import Session
from firmware_app.store.journal import Journal
from rules.record import replay


@pytest.fixture
def sim(tmp_path):
    sim = Headless(tmp_path / "state", language="en", seed=3)
    yield sim
    sim.close()


def start_demo_game(sim, players=2, bag_table=False, deck_table=False):
    for line in new_game_script(players)[:5]:
        sim.command(line)
    sim.command("press down" if bag_table else "")
    sim.press("ok")
    sim.command("press down" if deck_table else "")
    sim.press("ok")
    assert "Demo deck (made up)" in sim.screen
    sim.press("down")
    sim.press("ok")
    sim.press("ok", 4)  # the seats: no names, the app deals, the app draws, no virtual players


def test_start_screen_offers_a_new_game(sim):
    assert sim.screen == "[Tableside]\n> New game\n  Settings\n  Statistics"


def test_setup_wizard_walks_the_table_through_setup(sim):
    start_demo_game(sim, players=3)
    titles = []
    while sim.app.session.state.phase == "draw" and "Draw 2 tokens" not in sim.screen:
        titles.append(sim.screen.splitlines()[0])
        sim.press("ok")
    heads = [t.split("]")[0] + "]" for t in titles]
    # a notice of several pages is read page by page, with its page count in the title bar
    assert "[Figurants] 1/2" in titles and "[Figurants] 2/2" in titles
    assert [h for i, h in enumerate(heads) if heads[i - 1 : i] != [h]] == [
        "[Cards]",
        "[Penguins]",
        "[First player]",
        "[Missions above board]",
        "[Figurants]",
        "[Tokens]",
    ]
    first = sim.app.session.state.first
    assert sim.screen.startswith(f"[Player {first + 1}: ")
    assert sim.screen.splitlines()[0].endswith("] draw 2")


def test_a_whole_game_through_the_buttons_ends_with_the_score_sheet(sim):
    start_demo_game(sim, players=3)
    Autopilot(sim, seed=11).play()
    session = sim.app.session
    assert session.over
    assert sim.screen.startswith("[Game over]")
    sim.press("ok")
    sheet = session.game.score(session.state)
    text = "\n".join(sim.app.top.lines)
    assert "[demo deck — not the printed cards]" in " ".join(sim.app.top.lines)
    for line in sheet.lines:
        assert f"Player {line.player + 1}: {line.total}" in text
        assert f"cards {line.figurants} ({line.cards} card" in text
    assert any(line.startswith("Winner:") for line in sim.app.top.lines)
    # the journal holds the same game, and it replays to the same end
    record = sim.journal.record(session.game_id)
    assert replay(record).final == session.state


def test_a_game_at_its_end_is_kept_at_once_and_done_returns_to_the_start(sim):
    start_demo_game(sim)
    Autopilot(sim, seed=2).play()
    game_id = sim.app.session.game_id
    assert [g.id for g in sim.journal.finished_games()] == [game_id]  # nothing pressed yet
    assert sim.screen == "[Game over]\n> Score sheet\n  Scores by round\n  Done"
    sim.press("up")  # the last item: Done
    sim.press("ok")
    assert sim.screen == "[Tableside]\n> New game\n  Settings\n  Statistics"
    assert [g.id for g in sim.journal.finished_games()] == [game_id]


def test_a_refused_action_shows_why_and_changes_nothing(sim):
    start_demo_game(sim)
    while "Draw 2 tokens" not in sim.screen:
        sim.press("ok")
    before = recorded_play(sim)
    sim.app.act("visit chimp")  # before drawing
    shown = sim.app.render().text()
    assert shown.startswith("[Not allowed]")
    assert "First draw 2 tokens from the bag." in " ".join(shown.split())
    assert recorded_play(sim) == before
    sim.press("ok")
    assert "Draw 2 tokens" in sim.screen


def test_long_back_undoes_and_redo_gives_the_same_draw(sim):
    start_demo_game(sim)
    while "Draw 2 tokens" not in sim.screen:
        sim.press("ok")
    sim.press("ok")
    drawn = sim.screen  # the turn menu names the tokens drawn: no notice of its own
    assert drawn.split("\n")[1].startswith("  From the bag:")
    state = sim.app.session.state
    sim.hold("back")
    assert sim.screen.startswith("[Undone]")
    assert sim.app.session.state.phase == "draw"
    sim.app.redo()
    assert sim.app.render().text() == drawn and sim.app.session.state == state


def test_resume_after_a_restart_continues_where_it_was(tmp_path):
    sim = Headless(tmp_path, language="en", seed=4)
    start_demo_game(sim)
    Autopilot(sim, seed=4).play(limit=60)
    state = sim.app.session.state
    sim.close()
    again = Headless(tmp_path, language="en", seed=4)
    assert again.screen.startswith("[Tableside]\n> Resume: Penguins family\n  New game\n")
    again.press("ok")
    assert again.app.session.state == state
    again.close()


def test_table_bag_colours_are_entered_with_the_colour_buttons(sim):
    start_demo_game(sim, bag_table=True)
    while "Enter the tokens drawn" not in sim.screen:
        sim.press("ok")
    s = sim.app.session.state
    assert s.draw_count == 5
    sim.press("ok")
    assert sim.screen.startswith("[Tokens drawn] 0/5")
    for colour in ("red", "red", "blue", "white", "black"):
        sim.press(colour)
    hand = sim.app.session.state.players[s.current].tokens
    assert hand == (2, 1, 0, 0, 0, 1, 1)


def test_table_deck_cards_are_named_by_tag(sim):
    start_demo_game(sim, deck_table=True)
    while not sim.screen.startswith("[Lay out space 1]"):
        sim.press("ok")
    candidate = sim.app.session.game.legal_actions(sim.app.session.state)[0][1]
    sim.tag("04A1B2C3D4E5F6")
    assert sim.screen.startswith("[New tag: which card?]")
    names = [item.label for item in sim.app.top.items]
    wanted = sim.app.catalogue(demo=False).figurant(candidate).name
    sim.press("down", names.index(wanted))
    sim.press("ok")
    assert f"Tag 04A1B2C3D4E5F6 is now {wanted}." in " ".join(sim.screen.split())
    sim.press("ok")
    sim.tag("04A1B2C3D4E5F6")
    assert sim.app.session.state.faceup[0] == candidate


def test_four_button_build_enters_colours_from_a_menu(tmp_path):
    sim = Headless(tmp_path, language="en", seed=5)
    start_demo_game(sim, bag_table=True)
    while "Enter the tokens drawn" not in sim.screen:
        sim.press("ok")
    sim.press("ok")
    first_allowed = sim.app.top.allowed[0]
    sim.press("ok", 5)  # OK adds the highlighted colour
    s = sim.app.session.state
    assert s.players[(s.current - 1) % 2].tokens[0] == 5 or first_allowed != "red"
    sim.close()


def test_help_is_reachable_from_a_turn(sim):
    start_demo_game(sim)
    while "Draw 2 tokens" not in sim.screen:
        sim.press("ok")
    choose(sim, "Help")  # through "More …"
    assert sim.screen.startswith("[Help]")
    sim.press("down", 7)
    sim.press("ok")
    assert sim.screen.startswith("[Gastro zone]")
    assert "Exchange tokens" in sim.screen


def test_script_runner_reports_a_failed_expect(tmp_path):
    from firmware_app.runners.headless import ScriptError

    with pytest.raises(ScriptError) as failed:
        run_script(["press ok", 'expect "Nowhere"'], tmp_path)
    assert str(failed.value).startswith("line 2: expected 'Nowhere' on the screen:")
    # stopped cleanly: the journal closed, so the next run over the folder starts as usual
    assert (tmp_path / "journal.sqlite").is_file()
    assert not (tmp_path / "journal.sqlite.running").exists()


def test_session_resume_reads_the_journal(tmp_path):
    with Journal(tmp_path / "j.sqlite") as journal:
        assert Session.resume(journal) is None


def test_a_value_is_changed_from_the_settings_and_a_printed_one_only_after_asking(tmp_path):
    owner = tmp_path / "owner.toml"
    sim = Headless(tmp_path / "state", language="en", seed=8, owner_catalogue=owner)
    try:
        sim.press("down")  # Settings
        sim.press("ok")
        labels = [item.label for item in sim.app.top.items]
        sim.press("down", labels.index("Our cards"))
        sim.press("ok")
        names = [item.label for item in sim.app.top.items]
        sim.press("down", names.index("Becky"))
        sim.press("ok")
        fields = [item.label for item in sim.app.top.items]
        assert fields[0] == "Family Cost: 4× yellow, white (printed)"
        assert fields[1] == "Family Points: ? (not known yet)"
        sim.press("ok")  # the printed cost: asked first
        assert sim.screen.startswith("[Printed on the card]")
        sim.press("ok")  # keep it
        assert not owner.exists()
        sim.press("down")
        sim.press("ok")  # points
        sim.press("up", 3)
        sim.press("ok")
        assert "Becky: saved in the owner's file." in " ".join(sim.screen.split())
        assert "a game being played keeps its value" in " ".join(sim.screen.split())
        taught = next(f for f in sim.app.catalogue(demo=False).figurants if f.name == "Becky")
        assert taught.family.points == 4
        assert taught.family.cost == (0, 0, 0, 4, 0, 1, 0, 0)
        sim.press("ok")
        assert "Family Points: 4 (ours)" in [item.label for item in sim.app.top.items]
        sim.press("back", 2)  # out of "Our cards", then in again: the box as it now is
        choose(sim, "Our cards")
        choose(sim, "Hans")  # another card's points start at the median the box knows
        choose(sim, "Family Points")
        assert sim.app.top.value == 4  # Becky's, the only points this box knows
    finally:
        sim.close()


def test_a_penguins_action_is_taught_from_our_cards_under_its_name(tmp_path):
    """A penguin's advanced action, unknown in the box, is taught from the settings: its
    questions carry the penguin's name, and the owner's file holds the action after."""
    owner = tmp_path / "owner.toml"
    sim = Headless(tmp_path / "state", language="en", seed=8, owner_catalogue=owner)
    try:
        choose(sim, "Settings")
        choose(sim, "Our cards")
        choose(sim, "Rico")
        choose(sim, "Advanced Effect")
        assert sim.app.top.title == "Rico: What it does"
        choose(sim, "Draw random tokens")
        sim.press("up")  # two tokens
        sim.press("ok")
        assert "Rico: saved in the owner's file." in " ".join(sim.screen.split())
        rico = sim.app.catalogue(demo=False).penguin("rico")
        assert (rico.effect.do, dict(rico.effect.params)) == ("draw", {"count": 2})
    finally:
        sim.close()
