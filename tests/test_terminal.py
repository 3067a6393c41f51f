"""The terminal simulator: key map, keys on the fakes, a real pty."""

import curses
import fcntl
import logging
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from firmware_app.runners.autopilot import Autopilot
from firmware_app.runners.terminal import (
    GAP,
    NOT_A_TERMINAL,
    TAP,
    Command,
    Do,
    Simulator,
    command_for,
)
from firmware_app.runners.terminal_view import BLANK, PANEL_COLS, half_blocks, legend
from firmware_app.store.config import load_config
from firmware_app.store.journal import Journal
from firmware_app.ui.screens import ColourEntry
from hw.buttons import NAMES, Timing
from hw.events import Press

ROOT = Path(__file__).parent.parent
TICK = 0.01

# The keys a player types for each button, as the brief gives them.
KEY_FOR = {
    "up": curses.KEY_UP,
    "down": curses.KEY_DOWN,
    "ok": "\n",
    "back": "\x7f",
    "red": "r",
    "blue": "b",
    "green": "g",
    "yellow": "y",
    "grey": "e",
    "white": "w",
    "black": "k",
}
# From the start screen to the first turn of a 2-player game on the demo deck.
# The demo deck, then the seats (names, penguins, first player, virtual players), the
# setup pages (a notice of several pages takes an OK a page).
NEW_DEMO_GAME = ["\n"] * 6 + [curses.KEY_DOWN] + ["\n"] + ["\n"] * 4 + ["\n"] * 8


# ------------------------------------------------------------------- keys


@pytest.mark.parametrize(
    ("key", "command"),
    [
        (curses.KEY_UP, Command(Do.TAP, "up")),
        (curses.KEY_DOWN, Command(Do.TAP, "down")),
        ("\n", Command(Do.TAP, "ok")),
        ("\r", Command(Do.TAP, "ok")),
        (curses.KEY_ENTER, Command(Do.TAP, "ok")),
        (" ", Command(Do.TAP, "ok")),
        (curses.KEY_BACKSPACE, Command(Do.TAP, "back")),
        ("\x7f", Command(Do.TAP, "back")),
        ("\b", Command(Do.TAP, "back")),
        ("\x1b", Command(Do.TAP, "back")),
        ("u", Command(Do.HOLD, "back")),
        ("r", Command(Do.TAP, "red")),
        ("b", Command(Do.TAP, "blue")),
        ("g", Command(Do.TAP, "green")),
        ("y", Command(Do.TAP, "yellow")),
        ("e", Command(Do.TAP, "grey")),
        ("w", Command(Do.TAP, "white")),
        ("k", Command(Do.TAP, "black")),
        ("t", Command(Do.TAG)),
        ("q", Command(Do.QUIT)),
        ("R", Command(Do.TAP, "red")),  # Caps Lock on
        ("U", Command(Do.HOLD, "back")),
    ],
)
def test_each_key_does_what_the_legend_says(key, command):
    assert command_for(key) == command


@pytest.mark.parametrize("key", ["x", "1", curses.KEY_LEFT, curses.KEY_RESIZE, "ż"])
def test_other_keys_do_nothing(key):
    assert command_for(key) is None


@pytest.mark.parametrize(
    ("language", "colours"),
    [
        ("en", "r red   b blue   g green   y yellow   e grey   w white   k black"),
        ("pl", "r czerwony   b niebieski   g zielony   y żółty   e szary   w biały   k czarny"),
    ],
)
def test_the_legend_names_the_colour_keys_in_the_apps_language(language, colours):
    lines = legend(language)
    assert lines[1] == colours
    assert all(len(line) <= PANEL_COLS for line in lines)


# --------------------------------------------------------- keys on the fakes


class Typist:
    """Types keys into a Simulator on a virtual clock, as the curses loop does."""

    def __init__(self, state_dir: Path, language: str = "en", seed: int = 1, buttons=NAMES) -> None:
        settings = load_config(None, environ={"TABLESIDE_STATE_DIR": str(state_dir)}).app
        self.now = 0.0
        self.sim = Simulator(settings, language, seed, self.now, buttons)
        self.app = self.sim.app  # what Autopilot reads
        self.tick()

    def tick(self) -> None:
        self.now = round(self.now + TICK, 6)
        self.sim.tick(self.now)

    def type(self, *keys: str | int) -> None:
        for key in keys:
            while not self.sim.ready(self.now):
                self.tick()
            assert self.sim.key(key, self.now)
            self.tick()
        while not self.sim.ready(self.now):
            self.tick()
        self.tick()

    def press(self, name: str, times: int = 1) -> None:
        """A button by its key, for Autopilot."""
        self.type(*[KEY_FOR[name]] * times)

    @property
    def text(self) -> str:
        return "\n".join(self.sim.view().text)

    screen = text  # what Autopilot reads to see the game go on

    def actions(self) -> list[str]:
        return self.sim.journal.record(self.app.session.game_id)["actions"]


@pytest.fixture
def typist(tmp_path):
    typist = Typist(tmp_path)
    yield typist
    typist.sim.close()


def test_keys_start_a_demo_game_and_enter_draws(typist):
    assert typist.text == "[Tableside]\n> New game\n  Settings\n  Statistics"
    typist.type(*NEW_DEMO_GAME)
    assert "> Draw 2 tokens" in typist.text
    typist.type("\n")
    assert typist.text.split("\n")[1].startswith("  From the bag:")  # on the turn menu
    assert [action.split()[0] for action in typist.actions()] == ["draw"]
    assert typist.sim.view().log.endswith(" drew tokens")  # the table's words, not "draw"


def test_a_key_is_one_short_press_and_the_next_key_waits_for_it(typist):
    start = typist.now
    assert typist.sim.key("r", start)
    assert not typist.sim.ready(start)
    typist.type()
    assert [(e.name, e.kind, round(e.at - start, 6)) for e in typist.sim.buttons.history] == [
        ("red", Press.PRESS, Timing().min_press_ms / 1000),  # once past the glitch filter
        ("red", Press.RELEASE, TAP),
    ]
    assert typist.sim.ready(typist.now) and typist.now - start <= TAP + GAP + 2 * TICK


def test_u_holds_back_long_enough_to_undo(typist):
    typist.type(*NEW_DEMO_GAME, "\n")  # the draw: its tokens show on the turn menu
    assert len(typist.actions()) == 1
    typist.type("u")
    assert typist.actions() == []
    assert typist.text.startswith("[Undone]")
    back = [e.kind for e in typist.sim.buttons.history if e.name == "back"]
    assert back == [Press.PRESS, Press.LONG]  # the release is silent after the screen change
    assert typist.sim.view().log == "Undone"


def test_a_short_back_is_not_an_undo(typist):
    typist.type("\n")
    assert typist.text.startswith("[Game]")
    typist.type("\x7f")
    assert typist.text.startswith("[Tableside]")
    assert Press.LONG not in [e.kind for e in typist.sim.buttons.history]


def test_colour_keys_press_the_colour_buttons(typist):
    typist.type(*"rbgyewk")
    names = [e.name for e in typist.sim.buttons.history if e.kind is Press.PRESS]
    assert names == ["red", "blue", "green", "yellow", "grey", "white", "black"]


def test_t_types_a_tag_that_is_laid_on_the_reader_and_taken_off(typist):
    typist.type("t", "0", "4", "x", "a", "1", "b", "7", curses.KEY_BACKSPACE, "2")
    assert typist.sim.view().prompt == "04A1B2"
    assert typist.sim.buttons.history == []  # the letters went to the prompt
    typist.type("\n")
    assert [event.uid for event in typist.sim.reader.history] == ["04A1B2"]
    assert typist.text.startswith("[New tag: which card?]")
    assert typist.sim.view().log == "Tag 04A1B2 on the reader."
    typist.type("\x7f", "t", "0", "4", "A", "1", "B", "2", "\n")  # the same tag again
    assert [event.uid for event in typist.sim.reader.history] == ["04A1B2", "04A1B2"]


def test_a_tag_prompt_can_be_cancelled_and_a_bad_uid_is_explained(typist):
    typist.type("t", "0", "\x1b")
    assert typist.sim.view().prompt is None
    typist.type("t", "0", "4", "a", "\n")
    assert typist.sim.reader.history == []
    said = "No tag laid: its number is an even count of hex digits."
    assert typist.sim.view().log == said
    typist.type("t", "\n")
    assert typist.sim.view().log == said


def test_the_status_line_speaks_the_tables_language_never_the_logs(tmp_path):
    typist = Typist(tmp_path, language="pl", seed=3)
    try:
        assert typist.sim.view().log.startswith("Ziarno 3: tableside sim --seed 3 ")
        typist.type(*NEW_DEMO_GAME)
        assert not typist.app.act("visit hq nobody")
        typist.tick()
        assert "refused" not in typist.sim.view().log and "{" not in typist.sim.view().log
        assert typist.sim.log.text.startswith("refused")  # the log keeps the program's words
    finally:
        typist.sim.close()


def test_the_panel_sleeps_and_the_waking_key_does_nothing_else(typist):
    minutes = typist.app.setting("sleep_minutes")
    while typist.now < minutes * 60 + 1:
        typist.now += 1  # one tick per second is enough to fall asleep
        typist.tick()
    shown = typist.sim.view()
    assert shown.asleep and shown.panel == BLANK
    typist.type("\n")
    assert not typist.sim.view().asleep
    assert typist.text.startswith("[Tableside]")
    assert "> " + typist.app.t("New game") in typist.text


def test_the_panel_is_the_displays_last_frame_in_half_blocks(typist):
    assert typist.sim.view().panel == tuple(half_blocks(typist.sim.display.last_image))


def test_a_game_left_with_q_is_offered_again(tmp_path):
    first = Typist(tmp_path)
    first.type(*NEW_DEMO_GAME, "\n")
    played = first.actions()
    assert not first.sim.key("q", first.now)
    first.sim.close()
    again = Typist(tmp_path, language="pl")
    try:
        assert again.text.startswith("[Tableside]\n> Wznów: Pingwiny rodzinne")
        again.type("\n")
        assert again.actions() == played
    finally:
        again.sim.close()


def new_family_game(typist, table_bag: bool) -> None:
    """New game, the family variant, 2 players, a short game, the app's or the table's bag,
    the app's deck, the demo cards."""
    down = curses.KEY_DOWN
    typist.type(
        "\n", "\n", "\n", down, "\n", *((down,) if table_bag else ()), "\n", "\n", down, "\n"
    )


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_whole_family_game_is_played_with_keys_alone(tmp_path, language):
    typist = Typist(tmp_path, language=language, seed=5)
    try:
        new_family_game(typist, table_bag=False)
        Autopilot(typist, seed=5).play()
        assert typist.app.session.over
        assert typist.app.session.game.options.short
        assert len(typist.actions()) > 20
    finally:
        typist.sim.close()


def test_closing_gives_the_loggers_back(tmp_path):
    logger = logging.getLogger("tableside")
    before = (logger.level, logger.propagate, list(logger.handlers))
    typist = Typist(tmp_path)
    assert not logger.propagate
    typist.sim.close()
    typist.sim.close()
    assert (logger.level, logger.propagate, list(logger.handlers)) == before


# ------------------------------------------------------ the real command


def sim_command(state_dir: Path, *options: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "firmware_app.cli.main",
        "sim",
        "--state-dir",
        str(state_dir),
        *options,
    ]


def test_without_a_terminal_it_refuses_in_one_line(tmp_path):
    done = subprocess.run(
        sim_command(tmp_path / "state"),
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,
    )
    assert (done.returncode, done.stdout, done.stderr) == (1, "", NOT_A_TERMINAL + "\n")
    assert not (tmp_path / "state").exists()


# A deadline that only a hang reaches: a loaded machine (a mutation run, other work) can take
# ten seconds to start the simulator's Python and draw its first screen.
HANG = 60


class Pty:
    """A command on a pseudo-terminal of a given size, read with deadlines."""

    def __init__(self, command: list[str], cols: int, rows: int) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("LINES", "COLUMNS")}
        env |= {"TERM": "xterm", "LANG": "C.UTF-8"}
        self.process = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env
        )
        os.close(slave)
        self.master = master
        self.output = b""

    def send(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def read_until(self, text: bytes, seconds: float = HANG) -> None:
        """Read until ``text`` has been output; fail at the end of output or the deadline."""
        deadline = time.monotonic() + seconds
        while text not in self.output:
            assert time.monotonic() < deadline, f"no {text!r} in {self.output[-3000:]!r}"
            assert self._read(deadline), f"ended without {text!r}: {self.output[-3000:]!r}"

    def exit_status(self, seconds: float = HANG) -> int:
        """Read to the end of output; the command's exit status."""
        deadline = time.monotonic() + seconds
        while self._read(deadline):
            assert time.monotonic() < deadline, f"still running: {self.output[-3000:]!r}"
        return self.process.wait(timeout=seconds)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)

    def _read(self, deadline: float) -> bool:
        """Wait for output until ``deadline``; False once the other side has closed."""
        if not select.select([self.master], [], [], max(0.0, deadline - time.monotonic()))[0]:
            return True
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # Linux says EIO once every copy of the other side is closed
            return False
        self.output += chunk
        return bool(chunk)


@pytest.fixture
def pty_run():
    started: list[Pty] = []

    def run(command: list[str], cols: int = 140, rows: int = 50) -> Pty:
        started.append(Pty(command, cols, rows))
        return started[-1]

    yield run
    for pty in started:
        pty.close()


DOWN = b"\x1bOB"  # the down arrow of TERM=xterm while curses has the keypad on
# NEW_DEMO_GAME as a terminal sends it: typed ahead, each key waits for the last.
TYPED_NEW_DEMO_GAME = b"".join(DOWN if key == curses.KEY_DOWN else b"\r" for key in NEW_DEMO_GAME)


def test_a_demo_game_played_on_a_pseudo_terminal_is_kept_after_quitting(tmp_path, pty_run):
    pty = pty_run(sim_command(tmp_path, "--language", "en", "--seed", "42"))
    pty.read_until(b"New game")
    pty.send(TYPED_NEW_DEMO_GAME)
    pty.read_until(b"Draw 2 tokens")
    pty.send(b"\rq")
    assert pty.exit_status() == 0
    assert f"The journal is kept in {tmp_path / 'journal.sqlite'}".encode() in pty.output
    with Journal(tmp_path / "journal.sqlite") as journal:
        record = journal.record(journal.unfinished())
    assert record["catalogue"]["meta"]["kind"] == "demo"
    assert [action.split()[0] for action in record["actions"]] == ["draw"]

    again = pty_run(sim_command(tmp_path, "--language", "pl"))  # the language asked for
    again.read_until("Wznów: Pingwiny rodzinne".encode())
    again.send(b"q")
    assert again.exit_status() == 0


def test_a_terminal_too_small_is_refused_in_one_line(tmp_path, pty_run):
    pty = pty_run(sim_command(tmp_path / "state"), cols=60, rows=15)
    assert pty.exit_status() == 1
    assert pty.output == (
        b"tableside sim needs a terminal of at least 66x19 characters "
        b"(130x45 or 164x38 for the full picture); this one is 60x15\r\n"
    )
    assert not (tmp_path / "state").exists()


def test_a_default_80x24_terminal_plays_in_braille(tmp_path, pty_run):
    pty = pty_run(sim_command(tmp_path, "--language", "en", "--seed", "42"), cols=80, rows=24)
    pty.read_until(b"New game")
    assert "⣿".encode()[:2] in pty.output, "braille cells drawn"
    assert b"Seed 42: tableside sim --seed 42 deals the same again." in pty.output
    pty.send(TYPED_NEW_DEMO_GAME)
    pty.read_until(b"Draw 2 tokens")
    pty.send(b"q")
    assert pty.exit_status() == 0
    assert b"This run's seed was 42: tableside sim --seed 42 draws the same again." in pty.output


def test_each_launch_without_a_seed_draws_a_fresh_one(tmp_path, pty_run):
    seeds = []
    for _ in range(2):
        pty = pty_run(sim_command(tmp_path), cols=80, rows=24)
        pty.read_until(b"New game")
        pty.send(b"q")
        assert pty.exit_status() == 0
        found = re.search(rb"This run's seed was (\d+): tableside sim --seed \1 ", pty.output)
        assert found, pty.output[-500:]
        seeds.append(int(found[1]))
    assert seeds[0] != seeds[1]


# ------------------------------------------------------ the 4-button build

FOUR = ("up", "down", "ok", "back")


class FourButtonTypist(Typist):
    """A 4-button build's simulator: a colour is picked from the entry's list with the
    arrow keys and Enter, as a person at such a box does."""

    def __init__(self, state_dir: Path, language: str = "en", seed: int = 1) -> None:
        super().__init__(state_dir, language, seed, buttons=FOUR)

    def press(self, name: str, times: int = 1) -> None:
        if name in FOUR:
            super().press(name, times)
            return
        for _ in range(times):  # the autopilot's colour, from the list on the panel
            entry = self.app.top
            steps = entry._choices().index(name) - entry.cursor
            self.type(*[curses.KEY_DOWN if steps > 0 else curses.KEY_UP] * abs(steps), "\n")


@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_4_button_legend_has_no_colour_keys_and_they_do_nothing(tmp_path, language):
    typist = FourButtonTypist(tmp_path, language=language)
    try:
        view = typist.sim.view()
        assert not view.colour_keys
        lines = legend(language, view.colour_keys)
        assert (
            lines[1]
            == {
                "en": "A 4-button build: colours are chosen from lists with ↑ ↓ and Enter.",
                "pl": "Wersja z 4 przyciskami: kolory wybiera się z list ↑ ↓ i Enterem.",
            }[language]
        )
        assert all(len(line) <= PANEL_COLS for line in lines)
        before = typist.text
        typist.type(*"rbgyewk")
        assert typist.text == before and typist.sim.buttons.history == []
        assert not typist.app.has_colour_buttons
    finally:
        typist.sim.close()


@pytest.mark.parametrize("language", ["en", "pl"])
def test_a_whole_family_game_on_the_4_button_build_with_the_tables_bag(tmp_path, language):
    typist = FourButtonTypist(tmp_path, language=language, seed=4)
    try:
        new_family_game(typist, table_bag=True)
        pilot = Autopilot(typist, seed=4)
        t = typist.app.t
        while not isinstance(typist.app.top, ColourEntry):  # the first draw from the bag
            pilot.step()
        entry = typist.app.top
        first = t.name(entry._choices()[0])
        assert "  " + t("↑↓ colour, OK: {choice}", choice=first) in typist.text.splitlines()
        typist.type(curses.KEY_DOWN)  # the next colour of the list
        second = t.name(entry._choices()[1])
        assert "  " + t("↑↓ colour, OK: {choice}", choice=second) in typist.text.splitlines()
        pilot.play()
        session = typist.app.session
        assert session.over and session.game.options.bag == "table"
        assert len(typist.actions()) > 20
        assert {event.name for event in typist.sim.buttons.history} <= set(FOUR)
    finally:
        typist.sim.close()


def test_sim_takes_the_button_set_of_4_or_of_a_configuration(tmp_path):
    from firmware_app.cli.main import _sim_buttons, parser

    def buttons(*options: str) -> tuple[str, ...]:
        return _sim_buttons(parser().parse_args(["sim", *options]))

    assert buttons() == FOUR + ("red", "blue", "green", "yellow", "grey", "white", "black")
    assert buttons("--buttons", "4") == FOUR
    config = tmp_path / "four.toml"
    config.write_text("[buttons]\npins = { up = 5, down = 6, ok = 13, back = 19 }\n")
    assert buttons("--config", str(config)) == FOUR
    with pytest.raises(SystemExit):  # one or the other
        buttons("--buttons", "4", "--config", str(config))


def test_the_status_line_keeps_its_words_when_another_game_is_opened(typist):
    """The line says the last action in words worded when it was played: once the app
    holds a game of another kind, whose screens cannot word it, it still reads the same."""
    from firmware_app.session import Session
    from firmware_app.store import catalogue_files
    from rules.popiel.game import PopielOptions

    typist.type(*NEW_DEMO_GAME, "\n")  # the draw: the line says it
    said = typist.sim.view().log
    options = PopielOptions(players=("mouse-1", "mouse-2"), seed=1)
    box = catalogue_files.load_popiel(True)
    app = typist.app
    app.session = Session.start(app.journal, options, box, now=0.0, game=("popiel", "standard"))
    app.show_game()
    typist.tick()
    assert typist.sim.view().log == said
