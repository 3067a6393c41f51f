"""SIGKILL at random moments of everything the box writes; each start after it ends with a count.

One state folder is played once (finished games, a game in play partly backed up, an owner's
file of taught cards) and copied for every kill. A forked child does one kind of work on the
copy: plays with the autopilot (reporting each action through a pipe as soon as ``app.act``
has returned), recovers a damaged journal at start (``open_journal``), takes backups,
counts the statistics, teaches a card, writes backups and results to a folder standing for
the USB stick. It says when it is ready; the parent kills it after a random short delay
(seeded), then starts the box as ``tableside run`` does and counts (``tests/fault_count.py``):
the box runs, nothing acknowledged is lost, the owner's file parses and is the old or the
new one, whole, and no temporary file is left after the start. Each phase asserts how many
kills it made, and that most of them hit a child still at work (the rest had finished).
"""

import os
import random
import select
import shutil
import signal
import sqlite3
import time
import tomllib
import traceback
from collections import Counter
from pathlib import Path

import pytest
from fault_count import count, held, journal_games, kept
from played_helpers import finish_game

from firmware_app.app import App
from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.daemon import tell_start
from firmware_app.runners.headless import Headless
from firmware_app.session import summary
from firmware_app.store.catalogue_files import save_owner_card
from firmware_app.store.journal import Journal
from firmware_app.store.recovery import open_journal, read_rows
from firmware_app.store.rolling_backups import Backups, newest
from firmware_app.store.statistics import Stats, cache_of
from firmware_app.transfer.box_backup import check_backup, make_backup
from firmware_app.transfer.stick import write_stick_results
from rules.record import replay

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

SEED = 11
IMPORTED = 40  # finished games added, so that counting the statistics takes a while
BACKED_UP, PLAYED = 10, 24  # actions of the game in play in the backup, and in all
OWNER = "catalogue.toml"
CARD = "becky"
JOURNAL = "journal.sqlite"
# Kills per phase: 175 here, with those of tests/test_restore_atomic.py over 200.
KILLS = {
    "play": 40,
    "start-up recovery": 30,
    "backups": 25,
    "statistics": 25,
    "teaching a card": 25,
    "stick": 30,
}
REAL = 0.8  # the share of kills that must hit a child still at work


def _play_to(sim: Headless, pilot: Autopilot, actions: int) -> None:
    while len(sim.app.session.states) - 1 < actions:
        assert pilot.step()


@pytest.fixture(scope="module")
def state(tmp_path_factory):
    """Two copies of one played folder: as a power cut leaves it, and after a clean stop;
    and the actions of its games."""
    root = tmp_path_factory.mktemp("kills")
    folder = root / "playing"
    sim = Headless(folder, seed=SEED)
    backups = Backups(sim.journal, clock=lambda: 1_700_000_000 + sim.now)
    for line in new_game_script(2):
        sim.command(line)
    Autopilot(sim, SEED).play()
    session = sim.app.session
    record = sim.journal.record(session.game_id)
    result = replay(record)
    for number in range(IMPORTED):
        sim.journal.import_finished(
            record, summary(result.game, result.final), 1_600_000_000 + number, 1_600_000_900
        )
    finish_game(sim)
    sim.journal.checkpoint()  # as when a game ends: the log holds the game in play only
    for line in new_game_script(2):
        sim.command(line)
    pilot = Autopilot(sim, SEED + 1)
    _play_to(sim, pilot, BACKED_UP)
    assert backups.take() is not None
    _play_to(sim, pilot, PLAYED)
    save_owner_card(folder / OWNER, {"id": CARD, "family": {"points": 1}})
    in_play = sim.journal.record(sim.app.session.game_id)["actions"]
    games = [game for game in journal_games(sim.journal) if game != in_play] + [in_play]
    cut = root / "as-cut"
    shutil.copytree(folder, cut, ignore=shutil.ignore_patterns("*-shm"))
    (cut / f"{JOURNAL}.running").touch()
    sim.close()
    stopped = root / "stopped"
    shutil.copytree(folder, stopped)
    with Journal(folder / JOURNAL) as journal, Stats(journal, cache_of(journal.path)) as stats:
        stats.refresh()
        plays = stats.games()["plays"]
    assert plays >= IMPORTED
    return {"cut": cut, "stopped": stopped, "games": games, "plays": plays}


# ------------------------------------------------------------------ the child and the kill


def _child(work, folder: Path, writing: int) -> None:
    """Run ``work(folder, say)`` in the forked child; never return into pytest."""
    try:

        def say(line: str) -> None:
            os.write(writing, (line.replace("\n", " ") + "\n").encode())

        work(folder, say)
        say("finished")
    except BaseException:
        os.write(writing, ("error " + traceback.format_exc().replace("\n", " | ") + "\n").encode())
    finally:
        os._exit(0)


def _kill(work, folder: Path, delay: float) -> tuple[bool, list[str]]:
    """Fork a child doing ``work`` on ``folder``, SIGKILL it ``delay`` s after it is ready.

    Returns whether it was still at work when killed, and the lines it said."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reading)
        _child(work, folder, writing)
    os.close(writing)
    text = b""
    deadline = time.monotonic() + 30
    while b"ready\n" not in text and time.monotonic() < deadline:
        ready, _, _ = select.select([reading], [], [], 0.5)
        if ready:
            chunk = os.read(reading, 65536)
            if not chunk:
                break
            text += chunk
    time.sleep(delay)
    done, _ = os.waitpid(pid, os.WNOHANG)
    alive = done == 0
    if alive:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    while chunk := os.read(reading, 65536):
        text += chunk
    os.close(reading)
    lines = text.decode(errors="replace").splitlines()
    errors = [line for line in lines if line.startswith("error ")]
    assert not errors, errors[0]
    return alive and "finished" not in lines, lines


def _start(folder: Path):
    """What ``tableside run`` does before its main loop."""
    journal, outcome = open_journal(folder / JOURNAL, folder / OWNER)
    app = App(journal, language="en", owner_catalogue=folder / OWNER)
    tell_start(app, outcome, [])
    return journal, outcome, app


def _temporary(folder: Path) -> list[str]:
    """Temporary files of a write or a rebuild (``.<name>.<random>.tmp``, ``.salvage-*``)."""
    return sorted(
        str(path.relative_to(folder))
        for pattern in (".*.tmp", ".salvage-*")
        for path in folder.rglob(pattern)
    )


def _owner_points(folder: Path) -> int:
    """The taught card's points in the owner's file, which must parse whole."""
    raw = tomllib.loads((folder / OWNER).read_text(encoding="utf-8"))
    (card,) = [card for card in raw["figurant"] if card["id"] == CARD]
    return card["family"]["points"]


class Problems(Counter):
    """What went wrong after the kills, by kind, with one example of each."""

    def __init__(self) -> None:
        super().__init__()
        self.examples: dict[str, str] = {}
        self.counted = Counter()  # the counts taken: actions acknowledged, lost

    def note(self, kind: str, example: str) -> None:
        self[kind] += 1
        self.examples.setdefault(kind, example)

    def __str__(self) -> str:
        return "; ".join(
            f"{kind}: {n} (e.g. {self.examples.get(kind, '-')})" for kind, n in self.items()
        )


def _checked_start(folder: Path, acknowledged: list[list[str]], problems: Counter) -> None:
    """Start the box after a kill and note each thing the count or the folder gets wrong."""
    try:
        journal, _, app = _start(folder)
    except Exception as error:
        problems.note("the start raised", f"{type(error).__name__}: {error}")
        return
    try:
        result = count(app, acknowledged)
        problems.counted.update(acknowledged=result.acknowledged, lost=result.lost)
        if not result.running:
            problems.note("not running", result.error or result.screen)
        if result.lost:
            problems.note("acknowledged actions lost", str(result))
        if temporary := _temporary(folder):
            problems.note("temporary files left after the start", temporary[0])
        if journal.check():
            problems.note("the journal fails its check", str(journal.check()))
        try:
            _owner_points(folder)
        except (OSError, ValueError, KeyError) as error:
            problems.note("the owner's file does not parse whole", repr(error))
    finally:
        journal.close()


def _phase(name: str, template: Path, work, delays, tmp_path: Path, check) -> Counter:
    """``KILLS[name]`` kills of ``work``, each on a fresh copy of ``template``; the tally."""
    rng = random.Random(f"{SEED}-{name}")
    tally, problems = Counter(), Problems()
    for number in range(KILLS[name]):
        folder = tmp_path / f"kill-{number}" / "state"
        shutil.copytree(template, folder)
        alive, lines = _kill(work, folder, delays(rng))
        tally["kills"] += 1
        tally["real" if alive else "finished"] += 1
        check(folder, lines, problems)
        shutil.rmtree(folder.parent, ignore_errors=True)
    print(f"{name}: {dict(tally)}, actions {dict(problems.counted)}")
    assert tally["kills"] == KILLS[name], tally
    assert tally["real"] >= REAL * KILLS[name], f"too few kills hit the work: {dict(tally)}"
    assert not problems, f"{name}, in {KILLS[name]} kills: {problems}"
    assert problems.counted["acknowledged"] > 0 == problems.counted["lost"], problems.counted
    return tally


# ------------------------------------------------------------------ the phases


def _playing(folder: Path, say) -> None:
    sim = Headless(folder, seed=SEED + 2)
    pilot = Autopilot(sim, SEED + 3)
    act = sim.app.act

    def acknowledged(*args, **kwargs) -> bool:
        done = act(*args, **kwargs)
        if done:
            say("acked " + sim.journal.record(sim.app.session.game_id)["actions"][-1])
        return done

    sim.app.act = acknowledged
    say("ready")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and pilot.step():
        pass


@pytest.mark.parametrize("phase", list(KILLS))
def test_kills(state, tmp_path, phase):
    games = state["games"]
    if phase == "play":
        acked_before_kills = []

        def check(folder, lines, problems):
            acked = [line[6:] for line in lines if line.startswith("acked ")]
            acked_before_kills.append(len(acked))
            in_play = games[-1] + acked
            _checked_start(folder, [*games[:-1], in_play], problems)

        _phase(phase, state["cut"], _playing, lambda rng: rng.uniform(0.01, 0.2), tmp_path, check)
        assert max(acked_before_kills) > 0, "no kill came after an acknowledged action"
    elif phase == "start-up recovery":
        _recovery(state, tmp_path)
    elif phase == "backups":

        def taking(folder: Path, say) -> None:
            journal = Journal(folder / JOURNAL)
            taker = Backups(journal)
            say("ready")
            for _ in range(400):
                taker.take()

        def check(folder, lines, problems):
            _checked_start(folder, games, problems)
            # as a recovery reads them
            for snapshot in newest(folder / JOURNAL):
                if read_rows(snapshot).problems:
                    problems.note("a recovery cannot read a snapshot", snapshot.name)
            archive = folder / "backups" / "archive.sqlite"
            if archive.exists() and (problem := read_rows(archive).problems):
                problems.note("a recovery cannot read the archive", problem[0])

        _phase(phase, state["cut"], taking, lambda rng: rng.uniform(0.003, 0.08), tmp_path, check)
    elif phase == "statistics":

        def counting(folder: Path, say) -> None:
            journal = Journal(folder / JOURNAL)
            say("ready")
            for _ in range(200):
                with Stats(journal, cache_of(journal.path)) as stats:
                    stats.refresh()
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{cache_of(journal.path)}{suffix}").unlink(missing_ok=True)

        def check(folder, lines, problems):
            _checked_start(folder, games, problems)
            with Journal(folder / JOURNAL) as journal, Stats(journal, cache_of(journal.path)) as s:
                s.refresh()
                if s.games()["plays"] != state["plays"]:
                    problems.note("statistics miscounted", str(s.games()["plays"]))

        _phase(phase, state["cut"], counting, lambda rng: rng.uniform(0.003, 0.08), tmp_path, check)
    elif phase == "teaching a card":

        def teaching(folder: Path, say) -> None:
            say("ready")
            for points in range(2, 100_000):
                save_owner_card(folder / OWNER, {"id": CARD, "family": {"points": points}})
                say(f"taught {points}")

        def check(folder, lines, problems):
            taught = [int(line[7:]) for line in lines if line.startswith("taught ")]
            last = max(taught, default=1)
            _checked_start(folder, games, problems)
            try:
                points = _owner_points(folder)
            except (OSError, ValueError, KeyError):
                return  # noted by the start's check
            if points not in (last, last + 1):
                problems.note(
                    "the owner's file is neither the old nor the new", f"{points} after {last}"
                )

        _phase(phase, state["cut"], teaching, lambda rng: rng.uniform(0.003, 0.08), tmp_path, check)
    else:

        def writing(folder: Path, say) -> None:
            stick = folder.parent / "stick" / "tableside"
            say("ready")
            for number in range(200):
                make_backup(folder / JOURNAL, folder / OWNER, stick / "backup", 1.7e9 + number)
                write_stick_results(folder / JOURNAL, stick)

        def check(folder, lines, problems):
            _checked_start(folder, games, problems)
            shelf = folder.parent / "stick" / "tableside" / "backup"
            for backup in sorted(shelf.iterdir()) if shelf.is_dir() else []:
                if not (backup / "manifest.json").exists():
                    continue  # unfinished: never restored
                try:
                    check_backup(backup, folder.parent)
                except Exception as error:
                    problems.note("a finished backup fails its check", str(error))

        _phase(phase, state["cut"], writing, lambda rng: rng.uniform(0.003, 0.08), tmp_path, check)


# ------------------------------------------------------------------ start-up recovery


def _flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def _last_actions_page(path: Path) -> int:
    db = sqlite3.connect(path)
    (page,) = db.execute("SELECT max(pageno) FROM dbstat WHERE name = 'actions'").fetchone()
    db.close()
    return (page - 1) * 4096 + 3


# Damaged journals a killed start-up recovery works on: (template, damage)
DAMAGES = {
    "signature flipped": ("stopped", lambda f: _flip(f / JOURNAL, 0)),
    "application id flipped": ("stopped", lambda f: _flip(f / JOURNAL, 68)),
    "page header flipped": (
        "stopped",
        lambda f: _flip(f / JOURNAL, _last_actions_page(f / JOURNAL)),
    ),
    "log torn": (
        "cut",
        lambda f: (f / f"{JOURNAL}-wal").write_bytes(
            (f / f"{JOURNAL}-wal").read_bytes()[: (f / f"{JOURNAL}-wal").stat().st_size * 3 // 5]
        ),
    ),
}


def _recovery(state, tmp_path: Path) -> None:
    """Each damaged journal once recovered without a kill (its duration and what it keeps),
    then killed during its recovery at random moments and started again."""
    templates, acknowledged, durations = {}, {}, {}
    for name, (source, damage) in DAMAGES.items():
        template = tmp_path / "damaged" / name.replace(" ", "-")
        shutil.copytree(state[source], template)
        damage(template)
        templates[name] = template
        acknowledged[name] = kept(state["games"], held(template))
        trial = tmp_path / "trial" / template.name
        shutil.copytree(template, trial)
        started = time.perf_counter()
        journal, _ = open_journal(trial / JOURNAL)
        durations[name] = time.perf_counter() - started
        journal.close()
    names = list(DAMAGES)

    def recovering(folder: Path, say) -> None:
        say("ready")
        open_journal(folder / JOURNAL)

    rng = random.Random(f"{SEED}-recovery")
    tally, problems = Counter(), Problems()
    for number in range(KILLS["start-up recovery"]):
        name = names[number % len(names)]
        folder = tmp_path / f"kill-{number}" / "state"
        shutil.copytree(templates[name], folder)
        alive, _ = _kill(recovering, folder, rng.uniform(0, 0.6 * durations[name]))
        tally["kills"] += 1
        tally["real" if alive else "finished"] += 1
        _checked_start(folder, acknowledged[name], problems)
        shutil.rmtree(folder.parent, ignore_errors=True)
    print(f"start-up recovery: {dict(tally)}, actions {dict(problems.counted)}")
    kills = KILLS["start-up recovery"]
    assert tally["kills"] == kills, tally
    assert tally["real"] >= REAL * kills, f"too few kills hit the work: {dict(tally)}"
    assert not problems, f"start-up recovery, in {kills} kills: {problems}"
    assert problems.counted["acknowledged"] > 0 == problems.counted["lost"], problems.counted


def test_the_kills_add_up():
    """175 kills here; tests/test_restore_atomic.py adds those of the restore."""
    assert sum(KILLS.values()) >= 170
    assert min(KILLS.values()) >= 25
