"""Power cuts: the daemon is killed with SIGKILL at random moments of a game, again and again.

What a kill models. A power cut stops the daemon between any two of its
instructions: while it draws a frame, while it replays the journal at
start-up, inside an SQLite transaction, or between the commit of an action
and the frame that shows it. SIGKILL does the same to the process. What a
kill does not do is drop the kernel's unwritten pages, as a real cut does;
that half is the journal's: in WAL mode with ``synchronous=FULL`` a commit
returns only once the log is on disk, so every committed transaction survives
and an unfinished one leaves no trace (checked here as the storage settings
of every journal a kill leaves behind). What this file checks is the app's
half: it commits before it acknowledges, every state a kill can leave the
files in opens cleanly, and a restart carries on from exactly where the
journal stood.

How. The "daemon" is a forked child (a fork starts in about a millisecond)
running the app and its main loop on ``hw``'s fakes (``Headless``) over one
state folder: it starts a demo game if the journal has none, then the
autopilot plays; after a restart the start screen offers the game to resume
first and the autopilot takes it. Its choices are seeded by the number of
actions played, so every life makes the moves an uninterrupted run makes.
The child reports each acknowledged action, ``(number, notation)``, over a
pipe right after ``App.act`` accepted it, which is after the commit. The
parent cuts each life short, with seeded random choices, and starts the
next, until a child ends the game and exits by itself. A cut is one of:
early (SIGKILL soon after the start: journal recovery, replay, resume),
late (SIGKILL within the time of one action after the life's first
acknowledgement: anywhere in the next action), or unacknowledged (the child
kills itself right after its first commit, before acknowledging it: the
narrowest window, hit on purpose rather than by luck). Each life moves the
game on by an action or two, so one game takes a few hundred kills. The
windows are scaled by the time an action takes on the machine, measured on
the uninterrupted run; where exactly a timed kill lands depends on the
machine, and nothing checked does.

Checked: after every kill, on a copy of the files as the kill left them (so
the next life still does its own recovery), ``Journal.check()`` is clean,
the storage is WAL + FULL, and the game holds every action acknowledged so
far (after an unacknowledged kill: exactly one action more than before).
No action number is acknowledged twice (the autopilot being deterministic,
a lost action would be played and acknowledged again). The final record
replays and equals, actions and state, the record of the same game played
without a kill. At least 200 kills landed on a living process.
"""

import multiprocessing
import os
import random
import shutil
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path

import pytest

from firmware_app.autopilot import Autopilot, new_game_script
from firmware_app.headless import Headless
from firmware_app.journal import Journal
from rules.record import replay

FORK = multiprocessing.get_context("fork")
SEED = 5  # the game: deal, draws and the autopilot's moves
KILL_SEED = 17  # the moments of the kills
PLAYERS = 2
KILLS_WANTED = 200
EARLY, LATE, UNACKNOWLEDGED = "early", "late", "unacknowledged"
SHARES = {EARLY: 0.3, UNACKNOWLEDGED: 0.1, LATE: 0.6}
# Windows in units of the time one action takes here (measured on the uninterrupted run),
# so that a faster or slower machine still sees about as many kills per game.
EARLY_WINDOW = 2.5  # after the start: fork, journal recovery, replay, resume
LATE_WINDOW = 1.0  # after the first acknowledgement: somewhere in the next action
STUCK = 60.0  # seconds without a word from a child: it hangs, the test fails
STALLED = 50  # kills in a row with no new action in the journal: the game is stuck
FILES = ("journal.sqlite", "journal.sqlite-wal")  # the -shm index is rebuilt on open


def _daemon(folder: Path, acks: Connection, die_unacknowledged: bool) -> None:
    """One life of the daemon: resume or start the game, play on, report each acknowledgement.

    With ``die_unacknowledged`` it kills itself right after its first commit,
    before the table could have seen the action: the narrowest window there is.
    """
    sim = Headless(folder, seed=SEED)
    app = sim.app
    accept = app.act

    def act(action: str) -> bool:
        accepted = accept(action)
        if accepted:
            if die_unacknowledged:
                os.kill(os.getpid(), signal.SIGKILL)
            acks.send((len(app.session.states) - 1, action))
        return accepted

    app.act = act
    if app.session is None:
        for line in new_game_script(PLAYERS):
            sim.command(line)
    Autopilot(sim, SEED).play()
    sim.close()


@dataclass(frozen=True)
class Cut:
    """How a life ends: ``delay`` seconds after its start (early) or its first
    acknowledgement (late), or by its own hand before its first acknowledgement."""

    kind: str
    delay: float = 0.0


def _cut(rng: random.Random, action_time: float) -> Cut:
    kind = rng.choices(list(SHARES), weights=list(SHARES.values()))[0]
    window = {EARLY: EARLY_WINDOW, LATE: LATE_WINDOW, UNACKNOWLEDGED: 0.0}[kind]
    return Cut(kind, rng.uniform(0, window * action_time))


@dataclass
class Life:
    acks: list[tuple[int, str]]
    exitcode: int
    seconds: float

    @property
    def killed(self) -> bool:
        """The kill landed while the process was alive (it had not ended by itself)."""
        return self.exitcode == -signal.SIGKILL


def _live(folder: Path, cut: Cut | None) -> Life:
    """Run one life of the daemon, cut as ``cut`` says (None: let it play to the end)."""
    start = time.monotonic()
    reader, writer = FORK.Pipe(duplex=False)
    suicidal = cut is not None and cut.kind == UNACKNOWLEDGED
    child = FORK.Process(target=_daemon, args=(folder, writer, suicidal))
    child.start()
    writer.close()  # only the child writes now: EOF once it is gone
    acks: list[tuple[int, str]] = []
    due = time.monotonic() + cut.delay if cut and cut.kind == EARLY else None
    ended = False
    while not ended:
        if not wait([reader], STUCK if due is None else max(0.0, due - time.monotonic())):
            if due is None:
                child.kill()
                child.join()
                pytest.fail(f"the daemon said nothing for {STUCK} s: it hangs")
            break  # the moment of the cut
        try:
            acks.append(reader.recv())
        except EOFError:
            ended = True
        if cut and cut.kind == LATE and due is None:
            due = time.monotonic() + cut.delay
    child.kill()  # harmless if it has already ended
    child.join()
    while not ended:  # what it sent before it died
        try:
            acks.append(reader.recv())
        except EOFError:
            ended = True
    reader.close()
    if child.exitcode not in (0, -signal.SIGKILL):
        pytest.fail(f"the daemon failed with exit code {child.exitcode} (traceback above)")
    return Life(acks, child.exitcode, time.monotonic() - start)


def _inspect(folder: Path, scratch: Path) -> tuple[list[str], dict, list[str]]:
    """Problems, storage and live actions of the journal as a kill left it, on a copy."""
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    for name in FILES:
        if (folder / name).exists():
            shutil.copyfile(folder / name, scratch / name)
    with Journal(scratch / FILES[0]) as journal:
        game = journal.unfinished()
        actions = [] if game is None else journal.record(game)["actions"]
        return journal.check(), journal.storage(), actions


def _record(folder: Path) -> dict:
    with Journal(folder / FILES[0]) as journal:
        return journal.record(journal.unfinished())


@dataclass
class PowerCuts:
    """What the parent saw: the kills, every acknowledgement, what each kill left behind."""

    kills: Counter = field(default_factory=Counter)  # by kind of cut
    acks: list[tuple[int, str]] = field(default_factory=list, repr=False)
    after_kills: list[str] = field(default_factory=list)  # problems found, one line each
    record: dict = field(default_factory=dict, repr=False)
    uninterrupted: dict = field(default_factory=dict, repr=False)
    uninterrupted_acks: list[tuple[int, str]] = field(default_factory=list, repr=False)


def _problems(
    where: str,
    checked: list[str],
    storage: dict,
    actions: list[str],
    acks: list[tuple[int, str]],
    cut: Cut,
    before: int,
) -> list[str]:
    """Everything wrong with the journal a kill left, one line each."""
    found = [f"{where}: {problem}" for problem in checked]
    if (storage["journal_mode"], storage["synchronous"]) != ("wal", "FULL"):
        found.append(f"{where}: storage {storage}")
    found += [
        f"{where}: acknowledged action {n} '{notation}' is not in the journal"
        for n, notation in acks
        if n > len(actions) or actions[n - 1] != notation
    ]
    if cut.kind == UNACKNOWLEDGED and len(actions) != before + 1:
        found.append(f"{where}: {len(actions) - before} actions kept, not the 1 committed")
    return found


@pytest.fixture(scope="module")
def cuts(tmp_path_factory) -> PowerCuts:
    base = tmp_path_factory.mktemp("power-cut")
    result = PowerCuts()
    calm = _live(base / "uninterrupted", None)
    result.uninterrupted_acks = calm.acks
    result.uninterrupted = _record(base / "uninterrupted")
    action_time = calm.seconds / len(calm.acks)
    folder, rng, played, stalled = base / "state", random.Random(KILL_SEED), 0, 0
    while stalled < STALLED:
        cut = _cut(rng, action_time)
        life = _live(folder, cut)
        result.acks += life.acks
        if not life.killed:
            break
        result.kills[cut.kind] += 1
        checked, storage, actions = _inspect(folder, base / "copy")
        where = f"after kill {result.kills.total()} ({cut.kind})"
        result.after_kills += _problems(where, checked, storage, actions, result.acks, cut, played)
        stalled = 0 if len(actions) > played else stalled + 1
        played = len(actions)
    else:
        result.after_kills.append(f"no new action in the journal after {STALLED} kills in a row")
    result.record = _record(folder)
    return result


def test_every_action_is_acknowledged_once_and_in_order(cuts):
    numbers = [n for n, _ in cuts.acks]
    assert numbers == sorted(set(numbers)), "an action number was acknowledged twice"
    # without kills, the acknowledgements are exactly the journal's actions
    actions = cuts.uninterrupted["actions"]
    assert cuts.uninterrupted_acks == list(enumerate(actions, start=1))


def test_the_journal_is_sound_and_complete_after_every_kill(cuts):
    assert cuts.after_kills == []


def test_the_game_ends_as_if_the_power_had_never_gone(cuts):
    final = replay(cuts.record).final
    assert final.phase == "over"
    assert final == replay(cuts.uninterrupted).final
    assert cuts.record == cuts.uninterrupted


def test_no_acknowledged_action_is_lost_or_changed(cuts):
    actions = cuts.record["actions"]
    changed = [(n, a) for n, a in cuts.acks if n > len(actions) or actions[n - 1] != a]
    assert changed == []
    assert cuts.acks, "no action was acknowledged"


def test_hundreds_of_kills_landed(cuts):
    assert cuts.kills.total() >= KILLS_WANTED
    assert set(cuts.kills) == {EARLY, LATE, UNACKNOWLEDGED}
