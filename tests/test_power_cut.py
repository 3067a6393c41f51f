"""Power cuts: ``tableside run`` is killed with SIGKILL at random moments, again and again.

What a kill models. A power cut stops the daemon between any two of its
instructions: while it checks and replays the journal at start, inside an
SQLite transaction, while it takes a backup, or between the commit of an
input and the frame that shows it. SIGKILL does the same to the process.
What a kill does not do is drop the kernel's unwritten pages, as a real cut
does; that half is the journal's: in WAL mode with ``synchronous=FULL`` a
commit returns only once the log is on disk. What this file checks is the
daemon's half: it commits before it acknowledges, every state a kill can
leave the files in starts again, and a restart carries on from exactly
where the journal stood: every action, setting and enrolled tag kept.

How. Each life is the real daemon: ``firmware_app.cli.main.main(["run", ...])``
in a process forked from the test (so the imports are already done and a
life starts in tens of milliseconds), with its configuration naming gpiozero's
mock pin factory (gpiozero's default in the test, inherited by the fork) for the
buttons and the buzzer, luma's dummy panel, and an
RDM6300 reader on a pseudo-terminal. Inside it a player thread waits for the
daemon's main loop and then plays as a family would: it drives the mock
pins low and high (each press held across loop ticks, as the glitch filter
wants), writes tag frames to the pseudo-terminal, and moves with the
autopilot (seeded by the number of actions played, so every life makes the
same moves an uninterrupted run makes). Now and then a life first enrols a
new tag or changes the contrast through the settings menu. The player
reports each acknowledged input over a pipe right after the app accepted it,
which is after the commit: an action ``(game, number, notation)``, a setting
``(key, value)``; before a setting it reports the attempt too, since a kill
may land between the commit and the acknowledgement.

A cut is one of: early (SIGKILL soon after the start: the journal's check,
its recovery, the replay), late (within the time of one action after the
life's first acknowledgement), or unacknowledged (the player kills the
daemon right after a commit, before acknowledging it).

Checked after every kill, on a copy of the files as the kill left them:
the journal opens through the daemon's recovery, is sound, holds every
action acknowledged so far, every acknowledged tag, and the contrast last
acknowledged (or the one being set when the kill came).
"""

import contextlib
import importlib
import multiprocessing
import os
import random
import shutil
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path

import pytest
from pins import mock_pins
from test_rfid_pty import Pty

from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.store.recovery import close_journal, open_journal
from firmware_app.ui.screens import Notice
from hw.buttons import REFERENCE_PINS
from hw.rfid.rdm6300 import encode

# Every test here reads the one fixture of 200 kills.
pytestmark = pytest.mark.whole_game

FORK = multiprocessing.get_context("fork")
SEED = 5
KILL_SEED = 17
KILLS_WANTED = int(os.environ.get("KILLS", 200))
EARLY, LATE, UNACKNOWLEDGED = "early", "late", "unacknowledged"
SHARES = {EARLY: 0.45, UNACKNOWLEDGED: 0.1, LATE: 0.45}
EARLY_WINDOW = (0.0, 0.12)  # seconds after the start: configuration, panel, journal check, replay
LATE_WINDOW = (0.0, 0.1)  # seconds after the first acknowledgement: about one action
# What a life imports, loaded once before the forks, so that each life starts in
# tens of milliseconds (a fork shares the parent's modules).
PRELOADED = (
    "firmware_app.runners.daemon",
    "firmware_app.app",
    "firmware_app.flows.pingwiny.turn",
    "firmware_app.flows.shared.cards",
    "firmware_app.flows.shared.settings",
    "luma.oled.device",
    "hw.rfid.rdm6300_reader",
    "hw.buzzer",
)
STUCK = 30.0  # seconds without a word from a life: it hangs, the test fails
TAG_SHARE, CONTRAST_SHARE = 0.12, 0.08  # lives that first enrol a tag / change the contrast
CONTRASTS = (16, 64, 128, 192, 255)  # the settings menu's levels, in its order
CONFIG = """
[buttons]
driver = "gpio"
debounce_ms = 5
[display]
driver = "dummy"
[reader]
driver = "rdm6300"
port = "{port}"
[buzzer]
driver = "gpio"
[app]
language = "en"
state_dir = "{state}"
"""


# ------------------------------------------------------------ inside a life


class Player:
    """Plays the running daemon through its pins and its reader, as the autopilot's table."""

    def __init__(self, loop, pty_master: int, ticks: "Ticks") -> None:
        self.loop, self.app, self.master, self.ticks = loop, loop.app, pty_master, ticks
        self.factory = loop.buttons.pin_factory

    def press(self, name: str, times: int = 1) -> None:
        for _ in range(times):
            pin = self.factory.pin(REFERENCE_PINS[name])
            pin.drive_low()
            self.ticks.wait(2)  # the second tick polls after the glitch filter's 10 ms
            pin.drive_high()
            self.ticks.wait(1)  # the release; the next press falls after the 5 ms lock-out

    @property
    def screen(self) -> str:
        """The panel's text as the loop last drew it: how the autopilot sees a game go on."""
        return self.loop.frame.text()

    def command(self, line: str) -> None:
        words = line.split()
        if words:
            self.press(words[1], int(words[2]) if len(words) > 2 else 1)

    def tag(self, uid: str) -> None:
        os.write(self.master, encode(bytes.fromhex(uid)) * 2)  # the module repeats its frame
        self.ticks.wait(3)


class Ticks:
    """Counts the daemon's loop ticks, so the player waits for the loop, not the clock."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = threading.Condition()

    def tick(self) -> None:
        with self.changed:
            self.count += 1
            self.changed.notify_all()

    def wait(self, ticks: int) -> None:
        with self.changed:
            goal = self.count + ticks
            assert self.changed.wait_for(lambda: self.count >= goal, timeout=STUCK)


def _life(config: Path, pty_master: int, acks: Connection, life: int, suicidal: bool) -> None:
    """One life: ``tableside run`` with a player thread pressing its mock pins."""
    import firmware_app.loop
    from firmware_app.cli.main import main

    ticks, started = Ticks(), threading.Event()
    found = {}

    class WatchedLoop(firmware_app.loop.Loop):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            found["loop"] = self
            started.set()

        def tick(self, now: float) -> bool:
            redrawn = super().tick(now)
            ticks.tick()
            return redrawn

    firmware_app.loop.Loop = WatchedLoop

    def play() -> None:
        started.wait()
        player = Player(found["loop"], pty_master, ticks)
        _report(player.app, acks, suicidal)
        ticks.wait(1)
        choice = random.Random(life)
        if choice.random() < TAG_SHARE:
            player.tag(f"{life:010X}")
        elif choice.random() < CONTRAST_SHARE:
            _change_contrast(player, choice.randrange(len(CONTRASTS)))
        while True:
            if player.app.session is None or player.app.session.over:
                _new_game(player)
            pilot = Autopilot(player, SEED)
            while pilot.step():
                pass

    threading.Thread(target=play, daemon=True).start()
    main(["run", "--config", str(config)])


def _report(app, acks: Connection, suicidal: bool) -> None:
    """Wrap the app so that each acknowledged input is reported (after its commit)."""
    act, set_setting = app.act, app.set_setting

    def reported_act(action: str) -> bool:
        accepted = act(action)
        if accepted:
            if suicidal:
                os.kill(os.getpid(), signal.SIGKILL)
            session = app.session
            acks.send(("action", session.game_id, len(session.states) - 1, action))
        return accepted

    def reported_setting(key: str, value) -> None:
        acks.send(("trying", key, value))
        set_setting(key, value)
        if suicidal:
            os.kill(os.getpid(), signal.SIGKILL)
        acks.send(("setting", key, value))

    app.act, app.set_setting = reported_act, reported_setting


def _change_contrast(player: Player, level: int) -> None:
    """From the start screen: Settings, Contrast, the level; then back to the start."""
    while player.app.top is not player.app.stack[0]:
        player.press("back")
    _choose(player, "Settings")
    _choose(player, "Contrast")
    player.press("down", level)
    player.press("ok")
    player.press("back")


def _choose(player: Player, label: str) -> None:
    """Move the menu on top to the item whose label starts with ``label``, and take it."""
    menu = player.app.top
    index = next(i for i, item in enumerate(menu.items) if item.label.startswith(label))
    steps = index - menu.cursor
    player.press("down" if steps > 0 else "up", abs(steps))
    player.press("ok")


def _new_game(player: Player) -> None:
    """Close a game that is over ("Done") and set up the next one."""
    app = player.app
    while app.session is not None:
        top = app.top
        if isinstance(top, Notice):
            player.press("ok")
        elif top is not app.stack[0]:
            player.press("back")
        elif top.title == "Game over":  # the end menu: its last item
            player.press("up", top.cursor + 1)
            player.press("ok")
        else:  # the start screen after a restart: "Resume the game" first
            player.press("up", top.cursor)
            player.press("ok")
    for line in new_game_script(2):
        player.command(line)


# ------------------------------------------------------------ the test side


@dataclass(frozen=True)
class Cut:
    kind: str
    delay: float = 0.0


@dataclass
class Acknowledged:
    """Everything the lives acknowledged so far, and the setting being tried at a kill."""

    actions: dict = field(default_factory=dict)  # (game, number) -> notation
    tags: dict = field(default_factory=dict)
    contrast: tuple = (None, None)  # last acknowledged, tried since

    def take(self, message: tuple) -> None:
        kind, *rest = message
        if kind == "action":
            game, number, notation = rest
            self.actions[(game, number)] = notation
        elif kind == "trying" and rest[0] == "contrast":
            self.contrast = (self.contrast[0], rest[1])
        elif kind == "setting" and rest[0] == "contrast":
            self.contrast = (rest[1], None)
        elif kind == "setting" and rest[0] == "tags":
            self.tags.update(rest[1])


def _live(config: Path, pty: Pty, cut: Cut, life: int, seen: Acknowledged) -> tuple[int, int]:
    """Run one life and cut it; the exit code and the number of acknowledgements it sent."""
    reader, writer = FORK.Pipe(duplex=False)
    child = FORK.Process(
        target=_life, args=(config, pty.master, writer, life, cut.kind == UNACKNOWLEDGED)
    )
    child.start()
    writer.close()
    sent = 0
    due = time.monotonic() + cut.delay if cut.kind == EARLY else None
    ended = False
    while not ended:
        timeout = STUCK if due is None else max(0.0, due - time.monotonic())
        if not wait([reader], timeout):
            if due is None:
                child.kill()
                child.join()
                pytest.fail(f"life {life} said nothing for {STUCK} s: it hangs")
            break
        try:
            message = reader.recv()
        except EOFError:
            ended = True
            break
        seen.take(message)
        sent += 1
        if cut.kind == LATE and due is None and message[0] == "action":
            due = time.monotonic() + cut.delay
    child.kill()
    child.join()
    while not ended:
        try:
            seen.take(reader.recv())
            sent += 1
        except EOFError:
            ended = True
    reader.close()
    return child.exitcode, sent


def _problems(state: Path, scratch: Path, seen: Acknowledged, where: str) -> list[str]:
    """What is wrong with the files a kill left, opened as the next start opens them."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(state, scratch)
    journal, outcome = open_journal(scratch / "journal.sqlite")
    try:
        found = [f"{where}: {problem}" for problem in journal.check()]
        # A kill between the two writes of a log frame leaves it cut short, which the
        # start cannot tell from a log torn by damage: it rebuilds, and must lose nothing.
        torn = outcome.problems and all("cut short" in text for text in outcome.problems)
        if outcome.kind not in ("sound", "new") and not torn:
            found.append(f"{where}: the start found the journal {outcome.kind}: {outcome.problems}")
        records = {}
        for (game, number), notation in seen.actions.items():
            if game not in records:
                records[game] = journal.record(game)["actions"]
            actions = records[game]
            if number > len(actions) or actions[number - 1] != notation:
                found.append(f"{where}: acknowledged action {number} {notation!r} is lost")
        tags = journal.get_setting("tags", {})
        found += [
            f"{where}: acknowledged tag {uid} is lost"
            for uid, card in seen.tags.items()
            if tags.get(uid) != card
        ]
        contrast = journal.get_setting("contrast", 255)
        if seen.contrast[0] is not None and contrast not in seen.contrast:
            found.append(f"{where}: contrast {contrast}, acknowledged {seen.contrast}")
        return found
    finally:
        close_journal(journal)


@dataclass
class PowerCuts:
    kills: Counter = field(default_factory=Counter)
    seen: Acknowledged = field(default_factory=Acknowledged)
    problems: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


@pytest.fixture(scope="module")
def cuts(tmp_path_factory) -> PowerCuts:
    # A kill leaves the kernel's page cache whole: the folder is in memory where the
    # machine has a memory file system (tests/conftest.py), for short lives.
    folder = tmp_path_factory.mktemp("power-cut")
    state = folder / "state"
    pty = Pty(folder / "serial0")
    config = folder / "tableside.toml"
    config.write_text(CONFIG.format(port=pty.path, state=state))
    result, rng = PowerCuts(), random.Random(KILL_SEED)
    for module in PRELOADED:
        importlib.import_module(module)
    start = time.monotonic()
    # gpiozero's mock pins as the default factory, which every life inherits by the fork
    with mock_pins(), contextlib.ExitStack() as cleanup:
        cleanup.callback(pty.close)
        for life in range(KILLS_WANTED * 2):
            if result.kills.total() >= KILLS_WANTED:
                break
            kind = rng.choices(list(SHARES), weights=list(SHARES.values()))[0]
            window = {EARLY: EARLY_WINDOW, LATE: LATE_WINDOW, UNACKNOWLEDGED: (0, 0)}[kind]
            cut = Cut(kind, rng.uniform(*window))
            exitcode, _ = _live(config, pty, cut, life, result.seen)
            if exitcode != -signal.SIGKILL:
                result.failures.append(f"life {life} ended by itself with exit code {exitcode}")
                continue
            result.kills[kind] += 1
            where = f"after kill {result.kills.total()} ({kind}, life {life})"
            result.problems += _problems(state, folder / "copy", result.seen, where)
    result.seconds = time.monotonic() - start
    return result


def test_every_life_was_killed_and_none_failed(cuts):
    assert cuts.failures == []


def test_nothing_acknowledged_is_lost_after_any_kill(cuts):
    assert cuts.problems == []


def test_hundreds_of_kills_landed_on_actions_settings_and_tags(cuts):
    print(
        f"\npower cuts: {cuts.kills.total()} kills {dict(cuts.kills)} in {cuts.seconds:.0f} s; "
        f"acknowledged: {len(cuts.seen.actions)} actions, {len(cuts.seen.tags)} tags, "
        f"contrast {cuts.seen.contrast[0]}; lost: {len(cuts.problems)}"
    )
    assert cuts.kills.total() >= KILLS_WANTED
    assert set(cuts.kills) == {EARLY, LATE, UNACKNOWLEDGED}
    assert len(cuts.seen.actions) >= KILLS_WANTED // 4
    assert cuts.seen.tags and cuts.seen.contrast[0] is not None
