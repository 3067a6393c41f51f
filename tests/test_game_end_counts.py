"""A game that reaches its end counts at once: in the statistics and the exports, whatever
is pressed next (BACK at "Game over", or the power switched off after the score sheet)."""

import pytest
from test_teaching import POPIEL, answer_mix, own_game, teach_first_card

from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.session import Session
from firmware_app.store.journal import Journal
from firmware_app.ui.screens import Notice
from rules.record import replay


def finished(journal) -> list[int]:
    return [game.id for game in journal.finished_games()]


def statistics_games_line(sim) -> str:
    """Statistics → Games, as the panel shows it, then back home."""
    t = sim.app.t
    sim.app.home()
    labels = [item.label for item in sim.app.top.items]
    sim.press("down", labels.index(t("Statistics")))
    sim.press("ok")
    sim.press("down")  # Games
    sim.press("ok")
    shown = " ".join(sim.screen.split())
    sim.app.home()
    return shown


def demo_game_to_its_end(folder, players=2, language="en") -> Headless:
    sim = Headless(folder, language=language, seed=3)
    for line in new_game_script(players):
        sim.command(line)
    Autopilot(sim, 5).play()
    assert sim.app.session.over
    return sim


@pytest.mark.whole_game
@pytest.mark.parametrize("language", ["en", "pl"])
def test_back_at_game_over_leaves_a_finished_game_in_the_statistics(tmp_path, language):
    sim = demo_game_to_its_end(tmp_path / "state", language=language)
    t = sim.app.t
    game_id = sim.app.session.game_id
    assert sim.app.top.title == t("Game over")
    assert finished(sim.journal) == [game_id]  # before any press
    sim.hold("back")  # undo: the kept game is closed
    assert t("Nothing to undo.") in sim.screen
    sim.press("ok")
    sim.press("back")
    assert t("Resume: {game}", game="")[:6] not in sim.screen  # nothing left to resume
    assert t("Games played: {n}", n=1) in statistics_games_line(sim)
    sim.close()


@pytest.mark.whole_game
def test_power_off_after_the_score_sheet_keeps_the_game_for_the_export(tmp_path):
    folder = tmp_path / "state"
    sim = demo_game_to_its_end(folder)
    sim.press("ok")  # the score sheet
    assert isinstance(sim.app.top, Notice)
    game_id = sim.app.session.game_id
    sim.close()  # the power goes
    again = Headless(folder, language="en", seed=3)
    assert not again.screen.splitlines()[1].strip("> ").startswith("Resume")
    assert finished(again.journal) == [game_id]
    exported = again.journal.export(game_id)  # what an export writes for it
    assert replay(exported).final.phase == "over"
    again.close()


@pytest.mark.whole_game
def test_a_game_over_not_kept_when_the_power_went_is_kept_at_the_next_start(tmp_path):
    """The journal of a game at its end, left unfinished (the power went between the last
    action and its keeping, or it ended before games were kept at once)."""
    folder = tmp_path / "state"
    sim = demo_game_to_its_end(folder)
    record = sim.journal.record(sim.app.session.game_id)
    sim.close()
    other = tmp_path / "other"
    other.mkdir()
    with Journal(other / "journal.sqlite") as journal:
        header = {key: value for key, value in record.items() if key != "actions"}
        session = Session.load(journal, journal.start_game(header, now=0.0))
        for action in record["actions"]:
            session.act(action, now=1.0)
        assert session.over and finished(journal) == []
    again = Headless(other, language="en", seed=3)
    assert "Resume" not in again.screen
    assert finished(again.journal) == [session.game_id]
    again.close()


def test_a_krol_popiel_game_is_kept_at_its_end(tmp_path):
    sim = Headless(tmp_path / "state", language="en", owner_catalogue=tmp_path / "owner.toml")
    for line in POPIEL:
        sim.command(line)
    while sim.app.session is None:
        sim.press("ok")
    Autopilot(sim, 1).play()
    assert sim.app.session.over
    assert finished(sim.journal) == [sim.app.session.game_id]
    sim.close()


@pytest.mark.whole_game
def test_points_taught_at_the_score_sheet_keep_the_game_once_taught(tmp_path):
    """The score is not known while a held card's points wait for the score sheet: the game
    is kept as soon as the last of them is taught, and not before."""
    sim = own_game(tmp_path)
    sim.app.set_setting("teach_points", "score")
    answer_mix(sim)
    teach_first_card(sim)
    pilot = Autopilot(sim, 1)
    while not sim.app.session.over:
        pilot.step()
    assert finished(sim.journal) == []  # points still to teach
    while pilot.step():
        pass
    assert finished(sim.journal) == [sim.app.session.game_id]
    sim.close()
