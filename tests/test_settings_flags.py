"""A flag on the command line wins over the stored setting, for that run only."""

import json

from firmware_app.app import App
from firmware_app.cli.main import main
from firmware_app.runners.headless import Headless
from firmware_app.store.journal import Journal


def stored_language(folder, language: str) -> None:
    with Journal(folder / "journal.sqlite") as journal:
        journal.set_setting("language", language)


def test_an_override_wins_over_the_stored_setting_and_is_not_saved(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        journal.set_setting("language", "pl")
        app = App(journal, language="pl", overrides={"language": "en"})
        assert (app.language, app.setting("language"), app.t("New game")) == (
            "en",
            "en",
            "New game",
        )
        assert journal.get_setting("language") == "pl"
        plain = App(journal, language="en")
        assert plain.language == "pl", "without a flag the stored setting holds"


def test_a_setting_changed_during_the_run_is_saved_as_ever(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as journal:
        app = App(journal, language="en", overrides={"language": "en"})
        app.set_setting("language", "pl")
        assert app.language == "pl" and journal.get_setting("language") == "pl"


def test_the_headless_simulator_takes_the_language_flag_over_the_stored_one(tmp_path):
    stored_language(tmp_path, "pl")
    sim = Headless(tmp_path, language="en")
    try:
        assert sim.screen.startswith("[Tableside]\n> New game")
    finally:
        sim.close()
    sim = Headless(tmp_path)
    try:
        assert sim.screen.startswith("[Tableside]\n> Nowa gra")
    finally:
        sim.close()


def test_sim_language_flag_on_the_command_line(tmp_path, capsys):
    stored_language(tmp_path, "pl")
    script = tmp_path / "script.txt"
    script.write_text("wait 0.1\n")
    argv = ["sim", "--headless", "--json", "--script", str(script), "--state-dir", str(tmp_path)]
    assert main([*argv, "--language", "en"]) == 0
    assert json.loads(capsys.readouterr().out)["screen"].startswith("[Tableside]\n> New game")
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["screen"].startswith("[Tableside]\n> Nowa gra")
    with Journal(tmp_path / "journal.sqlite") as journal:
        assert journal.get_setting("language") == "pl"
