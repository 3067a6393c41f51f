"""History: what years of finished games cost the box, from start-up to backups and disk.

For each size (``--sizes``, default 0, 100, 1,000 and 10,000 finished games) this builds
a state folder as the box keeps it, plus ``--unfinished`` (default 10) unfinished games,
and measures the daemon on it.

Every stored game is a record played by the rules engines, none is copied from a file.
A pool of distinct games is played first: ``--pool`` (default 300, at most the largest
size) games, in turn Król Popiel standard, Pingwiny family and Pingwiny advanced, for 2,
3 or 4 players (one more every third game), on the demo cards and board. Each has a seed
of its own, the next one counting up from ``--seed`` × 1,000,000. The Pingwiny games are
played to their end by the ``easy`` virtual player on every seat (``rules.players.play``;
the record says so in ``options.virtual``). Król Popiel has no virtual player, so its
tiles and rewards are chosen by the seeded player of ``benchmarks/presses.py``. A game
not over after ``MAX_ACTIONS`` (1,000) is given up and its seed skipped, said on stderr:
the easy players of the advanced variant sometimes block edges without end (about one
seed in nine). Each record is replayed to check that it ends, and its summary is what the
box keeps of a finished game (``firmware_app.session.summary``, as ``transfer/results.py``
imports it). A folder of N finished games stores the pool's games in turn, N of them,
each with its own players' names (drawn from ``NAMES``) and dates (8 hours apart, the last
one a day ago), through ``Journal.import_finished``, as the box stores an imported game:
with the default pool a game is stored up to 34 times at 10,000, each time under other
names. The unfinished games are new games of the same three kinds and player counts,
each from its own seed (``--seed`` × 1,000,000 + 500,000 onwards), started with
``Session.start`` and played with ``Session.act`` for 24 to 48 actions chosen by the same
seeded player (stopping before an action that would end the game), started within the
past 30 days. A second folder per size holds the same N finished games and ``--many``
(default 100) unfinished ones: a copy of the first, before anything ran on it, with the
games that are missing added the same way. Playing the pool takes about two minutes,
storing 10,000 games under a minute more; the folders live in a temporary folder for
this run only, each size's removed once it is measured.

The daemon runs as ``tableside run --config FILE --home``: luma's own ``dummy`` panel (so
luma is imported as on the Pi), the fake buttons, reader and buzzer. The in-process
figures use the same ``App`` and ``Loop`` on the fakes (``FakeDisplay`` as the panel),
with the clock of the loop moved by hand in steps of 10 ms and real time measured.
Prints a table, or with ``--json`` one object per size, one per line:

    python benchmarks/history.py [--json] [--runs R] [--sizes 0,100,1000,10000]
        [--unfinished 10] [--many 100] [--pool 300] [--seed S]

Keys, in order:

- ``finished_games``: N.
- ``home_ms``: median over R runs (``--runs``, default 5) of the time from spawning
  ``tableside run --home`` on the folder to the time it prints for the home menu (after
  one run that is not timed); ``home_ratio``: that over the median of a bare
  ``python -c "import time, PIL.Image; print(time.time())"``, spawned before each daemon
  run, measured the same way; both run with compiled bytecode in a temporary cache, as
  in ``benchmarks/startup.py``.
- ``rss_mb``: the largest peak resident set (MiB) of those daemon runs, each read from
  its own exit (``os.wait4``), so nothing else is counted.
- ``resume_list_ms``: median time to build the home menu with its resume list,
  ``firmware_app.flows.start.start_screen(app)``, in-process, over the folder's
  unfinished games; ``resume_list_100_ms`` the same on the folder with ``--many``.
- ``stats_open_ms``: median time from OK on the home menu's Statistics line to the
  statistics menu shown, once the statistics cache is built (by the run below);
  ``stats_games_ms`` the same from OK on its Games line to the figures shown. Both count
  every loop tick from the press to the frame.
- ``bytes_per_finished_game``: the journal's files (the main file and its ``-wal``,
  after a checkpoint) at N, less at 0, over N (0 at N = 0, the reference).
- ``backup_ms``: median time of one rolling backup during play, ``Backups.take()``, just
  after an action was played in an unfinished game (``Session.act``), with 5 backups
  already there; ``backup_bytes_written``: the median of what that backup wrote to the
  storage (``write_bytes`` of ``/proc/self/io``; where it counts nothing, as on a memory
  file system, the sizes of the files it added or changed in the backups folder).
- ``state_dir_bytes``: every file in the state folder after 5 such backups, each after
  an action (the journal and its log, the backups; the statistics cache is not built yet).
- ``max_loop_block_ms``: the longest single ``Loop.tick`` while the daemon's ``App`` and
  ``Loop`` (journal through ``open_journal``, rolling backups on) start on the folder,
  the buttons go to Statistics for the first time (its cache not built yet) and wait
  for the statistics menu, then open its Games figures, then an action is played in an
  unfinished game and the ticks go on until the backup that is now due is written.
- ``runs``: R; ``load``: the 1-minute load average as the size's measures begin;
  ``python``, ``machine``.

In-process figures are medians of max(R, 5) repetitions.
"""

import argparse
import gc
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from presses import choose as table_choice
from report import MACHINE
from startup import baseline_command, child_environ, daemon_command, spawn, write_config

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT))

from firmware_app.app import App  # noqa: E402
from firmware_app.flows.start import start_screen  # noqa: E402
from firmware_app.loop import Loop  # noqa: E402
from firmware_app.session import Session, summary  # noqa: E402
from firmware_app.store import catalogue_files  # noqa: E402
from firmware_app.store.config import load_config  # noqa: E402
from firmware_app.store.housekeeping import Keeper  # noqa: E402
from firmware_app.store.journal import Journal  # noqa: E402
from firmware_app.store.recovery import close_journal, open_journal  # noqa: E402
from firmware_app.store.rolling_backups import Backups, newest  # noqa: E402
from firmware_app.store.rolling_backups import folder as backups_folder  # noqa: E402
from hw.buttons import FakeButtons  # noqa: E402
from hw.display import FakeDisplay  # noqa: E402
from hw.rfid.fake import FakeReader  # noqa: E402
from rules.pingwiny.options import Options  # noqa: E402
from rules.players import play  # noqa: E402
from rules.popiel.game import PopielOptions  # noqa: E402
from rules.record import VARIANTS, new_record, replay  # noqa: E402

KINDS = (("popiel", "standard"), ("pingwiny", "family"), ("pingwiny", "advanced"))
NAMES = ("Ala", "Olek", "Iza", "Kuba", "Gosia", "Filip", "Adam", "Monika", "Ewa", "Tomek")
MICE = ("red", "blue", "green", "yellow")
LEVEL = "easy"  # the virtual player on every Pingwiny seat of the pool's games
MAX_ACTIONS = 1000  # a pool game not over by then is given up (the longest seen: 600)
HOUR, DAY = 3600.0, 86400.0
SPACING = 8 * HOUR  # between two finished games
BACKUPS = 5  # taken before the state folder is measured
TICK, TAP, GAP = 0.01, 0.08, 0.12  # the loop's clock step; a press held; the pause after
WAIT = 600.0  # loop-clock seconds a screen or a backup may take before the run fails
AFTER = 5.0  # loop-clock seconds ticked on once the backup is written
IDLE = 0.001  # real seconds between ticks (the daemon sleeps 0.01)
KEYS = (
    "finished_games",
    "home_ms",
    "home_ratio",
    "rss_mb",
    "resume_list_ms",
    "resume_list_100_ms",
    "stats_open_ms",
    "stats_games_ms",
    "bytes_per_finished_game",
    "backup_ms",
    "backup_bytes_written",
    "state_dir_bytes",
    "max_loop_block_ms",
)

# ------------------------------------------------------------------ games


@dataclass(frozen=True)
class Played:
    """A whole game played by the engines: its record (no names yet) and its summary."""

    record: dict
    summary: dict
    players: int


class Boxes:
    """The demo cards and Król Popiel's demo box, loaded once."""

    def __init__(self) -> None:
        self.cards = catalogue_files.load([], demo=True)
        self.popiel = catalogue_files.load_popiel(True)

    def setup(self, kind, players: int, seed: int, names=None, virtual=None):
        """The options and box of a new game of ``kind``."""
        if kind[0] == "popiel":
            return PopielOptions(players=MICE[:players], seed=seed, names=names), self.popiel
        options = Options(players=players, seed=seed, names=names, virtual=virtual)
        return options, self.cards


def kind_of(number: int) -> tuple[tuple[str, str], int]:
    """The kind and the player count of a game by its number: every mix comes round."""
    return KINDS[number % 3], 2 + (number // 3) % 3


def play_whole(boxes: Boxes, kind, players: int, seed: int) -> Played | None:
    """A game of ``kind`` from ``seed`` played to its end and checked by a replay; None
    when it has not ended after ``MAX_ACTIONS``."""
    if kind[0] == "popiel":
        options, box = boxes.setup(kind, players, seed)
        game = VARIANTS[kind](box, options)
        state, actions, chooser = game.new_state(), [], random.Random(seed)
        while state.phase != "over" and len(actions) < MAX_ACTIONS:
            action = table_choice(chooser, game, state)
            state, _ = game.apply(state, action)
            actions.append(action)
    else:
        seats = (LEVEL,) * players
        options, box = boxes.setup(kind, players, seed, virtual=seats)
        game = VARIANTS[kind](box, options)
        actions, state = play(game, game.new_state(), seats, seed, limit=MAX_ACTIONS)
    if state.phase != "over":
        return None
    record = new_record(*kind, options, box) | {"actions": [str(a) for a in actions]}
    result = replay(record)
    if result.final.phase != "over":
        raise SystemExit(f"the game of seed {seed} does not replay to its end")
    return Played(record, summary(result.game, result.final), players)


class Pool:
    """The distinct engine-played games, played as they are first needed.

    Game k of the pool is of ``kind_of(k)``, from the first seed after the previous
    game's (``seed`` × 1,000,000 onwards) whose game ends; a seed whose game does not
    is skipped, and said on stderr.
    """

    def __init__(self, boxes: Boxes, size: int, seed: int) -> None:
        self.boxes, self.size, self.seed = boxes, size, seed
        self.games: list[Played] = []
        self.next_seed = seed * 1_000_000

    def __getitem__(self, number: int) -> Played:
        number %= self.size
        while len(self.games) <= number:
            kind, players = kind_of(len(self.games))
            seed, self.next_seed = self.next_seed, self.next_seed + 1
            game = play_whole(self.boxes, kind, players, seed)
            if game is None:
                print(
                    f"history.py: seed {seed} ({' '.join(kind)}, {players} players) has not "
                    f"ended after {MAX_ACTIONS} actions; skipped",
                    file=sys.stderr,
                )
            else:
                self.games.append(game)
        return self.games[number]


# ----------------------------------------------------------------- folders


def store_finished(journal, pool: Pool, count: int, now: float) -> None:
    """``count`` finished games of the pool, each with its own names and dates."""
    names = random.Random(pool.seed)
    for number in range(count):
        game = pool[number]
        record = game.record | {
            "options": game.record["options"] | {"names": names.sample(NAMES, game.players)}
        }
        started = now - DAY - (count - number) * SPACING
        minutes = 10 + len(record["actions"]) / 6
        journal.import_finished(record, game.summary, started, started + minutes * 60)


def start_unfinished(journal, boxes: Boxes, first: int, count: int, seed: int, now: float):
    """Unfinished games ``first`` to ``first + count - 1``, each 24 to 48 actions in."""
    for number in range(first, first + count):
        kind, players = kind_of(number)
        game_seed = seed * 1_000_000 + 500_000 + number
        chooser = random.Random(game_seed)
        options, box = boxes.setup(kind, players, game_seed, chooser.sample(NAMES, players))
        started = now - chooser.uniform(1, 30) * DAY
        session = Session.start(journal, options, box, now=started, game=kind)
        for step in range(chooser.randint(24, 48)):
            if not play_one(session, chooser, started + 60 * (step + 1)):
                break


def play_one(session: Session, chooser: random.Random, now: float) -> bool:
    """One action of the seeded player, unless it would end the game; whether played."""
    action = table_choice(chooser, session.game, session.state)
    ended = session.game.apply(session.state, action)[0].phase == "over"
    if not ended:
        session.act(action, now=now)
    return not ended


def play_on(journal, chooser: random.Random, last_first: bool = True) -> None:
    """A table playing on: one action in an unfinished game, the one played last first
    (or last), or the next where an action does not end it."""
    games = journal.unfinished_games()
    for game in games if last_first else games[::-1]:
        if play_one(Session.load(journal, game.id), chooser, time.time()):
            return
    raise SystemExit("no unfinished game takes an action that does not end it")


@dataclass
class Folder:
    """A state folder and the configuration file that points the daemon at it."""

    config: Path
    journal: Path

    @classmethod
    def make(cls, where: Path) -> "Folder":
        where.mkdir(parents=True)
        config = write_config(where / "tableside.toml", where / "state")
        return cls(config, load_config(str(config)).app.journal)

    @property
    def state(self) -> Path:
        return self.journal.parent


def build(where: Path, pool: Pool, finished: int, unfinished: int) -> Folder:
    """A state folder of ``finished`` finished games and ``unfinished`` unfinished ones."""
    now = time.time()
    folder = Folder.make(where)
    folder.state.mkdir()
    with Journal(folder.journal) as journal:
        store_finished(journal, pool, finished, now)
        start_unfinished(journal, pool.boxes, 0, unfinished, pool.seed, now)
    return folder


def crowd(folder: Folder, where: Path, pool: Pool, unfinished: int, many: int) -> Folder:
    """A copy of ``folder`` (``unfinished`` unfinished games) with ``many`` of them."""
    crowded = Folder.make(where)
    shutil.copytree(folder.state, crowded.state)
    with Journal(crowded.journal) as journal:
        more = max(0, many - unfinished)
        start_unfinished(journal, pool.boxes, unfinished, more, pool.seed, time.time())
    return crowded


# ---------------------------------------------------------------- measures


def median_ms(seconds: list[float]) -> float:
    return round(statistics.median(seconds) * 1000, 2)


def timed(work, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return median_ms(times)


def journal_bytes(path: Path) -> int:
    """The journal's main file and its log, after a checkpoint."""
    with Journal(path) as journal:
        journal.checkpoint()
        return sum(f.stat().st_size for f in (path, Path(f"{path}-wal")) if f.exists())


def tree_bytes(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def home_runs(folder: Folder, runs: int, environ: dict) -> dict:
    """The daemon to its home menu, run after run, each after a bare Pillow import."""
    daemon, baseline = daemon_command(folder.config, "--home"), baseline_command()
    spawn(baseline, environ)
    spawn(daemon, environ)  # the file cache, and a first start on this folder
    homes, bases, peaks = [], [], []
    for _ in range(runs):
        bases.append(spawn(baseline, environ)[0][-1])
        times, peak = spawn(daemon, environ)
        homes.append(times[-1])
        peaks.append(peak)
    return {
        "home_ms": median_ms(homes),
        "home_ratio": round(statistics.median(homes) / statistics.median(bases), 2),
        "rss_mb": round(max(peaks) / 2**20, 1),
    }


def resume_list_ms(folder: Folder, repeats: int) -> float:
    with Journal(folder.journal) as journal:
        app = App(journal, language="en", think_clock=None)
        return timed(lambda: start_screen(app), repeats)


def files_in(folder: Path) -> dict[Path, tuple[int, int]]:
    """Each file under ``folder`` with its size and change time."""
    if not folder.is_dir():
        return {}
    return {f: (f.stat().st_size, f.stat().st_mtime_ns) for f in folder.rglob("*") if f.is_file()}


class Written:
    """What the process writes to the storage, or failing that what appears in a folder: where
    the kernel counts no write (no ``/proc/self/io``, or a folder on a memory file system,
    as /tmp is on some systems), the sizes of the files added or changed."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.io = self._io()
        self.files = files_in(folder)

    @staticmethod
    def _io() -> int | None:
        try:
            with open("/proc/self/io", encoding="ascii") as io:
                lines = dict(line.split(":") for line in io)
            return int(lines["write_bytes"])
        except (OSError, KeyError, ValueError):
            return None

    def since(self) -> int:
        if self.io is not None and (written := self._io() - self.io):
            return written
        after = files_in(self.folder)
        return sum(size for f, (size, _) in after.items() if self.files.get(f) != after[f])


def backups_in_play(folder: Folder, repeats: int) -> dict:
    """Five backups, each after an action, then the timed ones, each after an action too."""
    chooser = random.Random(1)
    with Journal(folder.journal) as journal:
        backups = Backups(journal)
        try:
            for _ in range(BACKUPS):
                play_on(journal, chooser)
                backups.take()
            state_bytes = tree_bytes(folder.state)
            times, written = [], []
            for _ in range(repeats):
                play_on(journal, chooser)
                wrote = Written(backups_folder(folder.journal))
                started = time.perf_counter()
                if backups.take() is None:
                    raise SystemExit(f"no backup could be written in {folder.state}")
                times.append(time.perf_counter() - started)
                written.append(wrote.since())
        finally:
            backups.close()
    return {
        "backup_ms": median_ms(times),
        "backup_bytes_written": int(statistics.median(written)),
        "state_dir_bytes": state_bytes,
    }


class Box:
    """The daemon's app and loop on the fakes, over a state folder, on a hand-moved clock.

    Every tick's real duration is kept in ``ticks``.
    """

    def __init__(self, folder: Folder) -> None:
        # This process also holds the played games of the pool, which a box never holds:
        # frozen out of the collector, as the daemon freezes what its start made.
        gc.freeze()
        self.now = 0.0
        self.journal, _ = open_journal(folder.journal)
        self.backups = Keeper(self.journal)  # as the daemon: the check, then the backups
        self.app = App(self.journal, language="en", think_clock=None)
        self.buttons, self.display = FakeButtons(), FakeDisplay(clock=lambda: self.now)
        self.loop = Loop(self.app, self.buttons, FakeReader(), self.display, backups=self.backups)
        self.ticks: list[float] = []
        self.tick()

    def close(self) -> None:
        self.backups.close()
        close_journal(self.journal)

    @property
    def screen(self) -> str:
        return self.loop.frame.text()

    def tick(self) -> None:
        self.now = round(self.now + TICK, 6)
        started = time.perf_counter()
        self.loop.tick(self.now)
        self.ticks.append(time.perf_counter() - started)
        time.sleep(IDLE)  # the daemon idles between ticks, and the work beside it runs then
        self.display.frames.clear()  # a box keeps no pictures
        self.buttons.history.clear()

    def run_for(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.tick()

    def until(self, done, what: str) -> None:
        end = self.now + WAIT
        while not done():
            if self.now > end:
                raise SystemExit(f"{what} did not happen; the panel shows:\n{self.screen}")
            self.tick()

    def press(self, name: str, then=None, what: str = "") -> float:
        """Press and release ``name``; with ``then``, the real seconds from the press to
        the tick after which ``then()`` holds."""
        self.buttons.press(name, self.now)
        first = len(self.ticks)
        if then is not None:
            self.tick()
            self.until(then, what)
        waited = sum(self.ticks[first:])
        self.run_for(TAP)
        self.buttons.release(name, self.now)
        self.run_for(GAP)
        return waited

    def select(self, label: str) -> None:
        """Move the cursor of the menu shown to the line ``label``."""
        menu = self.app.top
        for _ in menu.items:
            if menu.items[menu.cursor].label == label:
                return
            self.press("down")
        raise SystemExit(f"no line {label!r} in the menu:\n{self.screen}")

    def statistics(self) -> tuple[float, float]:
        """From the home menu: the statistics menu, then its Games figures, then back home;
        the seconds each took to be shown."""
        self.select("Statistics")
        menu = self.press("ok", lambda: "All games" in self.screen, "the statistics menu")
        self.select("Games")
        games = self.press("ok", lambda: self.screen.startswith("[Games]"), "the Games figures")
        self.press("back")
        self.press("back")
        return menu, games


def loop_blocks(folder: Folder) -> float:
    """The longest tick: start, Statistics the first time, then a backup that is due."""
    box = Box(folder)
    try:
        box.statistics()
        before = newest(folder.journal)
        play_on(box.journal, random.Random(2), last_first=False)  # not the app's own game
        box.until(lambda: newest(folder.journal) != before, "the backup")
        box.run_for(AFTER)  # the looks that follow, which see the backup done
        return round(max(box.ticks) * 1000, 2)
    finally:
        box.close()


def statistics_opened(folder: Folder, repeats: int) -> dict:
    """Opening the statistics menu and its Games figures, the cache built."""
    box = Box(folder)
    try:
        box.statistics()  # builds the cache if the start left it to do
        opened = [box.statistics() for _ in range(repeats)]
    finally:
        box.close()
    return {
        "stats_open_ms": median_ms([menu for menu, _ in opened]),
        "stats_games_ms": median_ms([games for _, games in opened]),
    }


def measure(folder: Folder, crowded: Folder, size: int, runs: int, environ: dict) -> dict:
    """Every figure of one size; ``folder`` changes as a box's would (backups, cache)."""
    load = round(os.getloadavg()[0], 2)
    repeats = max(runs, 5)
    result = {"finished_games": size}
    result |= backups_in_play(folder, repeats)
    result |= home_runs(folder, runs, environ)
    result["max_loop_block_ms"] = loop_blocks(folder)
    result |= statistics_opened(folder, repeats)
    result["resume_list_ms"] = resume_list_ms(folder, repeats)
    result["resume_list_100_ms"] = resume_list_ms(crowded, repeats)
    return result | {"runs": runs, "load": load}


def history(args: argparse.Namespace, root: Path):
    """Each size's figures, in the order of ``--sizes``, as each size is done."""
    pool = Pool(Boxes(), max(1, min(args.pool, max(args.sizes))), args.seed)
    environ = child_environ(root / "pycache")
    empty = build(root / "empty", pool, 0, args.unfinished)  # the same unfinished games
    reference = journal_bytes(empty.journal)
    for number, size in enumerate(args.sizes):
        where = root / f"{number}-{size}"
        if size == 0 and empty.state.exists():  # built already
            folder = Folder.make(where / "box")
            shutil.move(empty.state, folder.state)
        else:
            folder = build(where / "box", pool, size, args.unfinished)
        grown = journal_bytes(folder.journal) - reference
        crowded = crowd(folder, where / "crowded", pool, args.unfinished, args.many)
        result = measure(folder, crowded, size, args.runs, environ)
        shutil.rmtree(where)  # a 10,000-game size takes gigabytes with its backups
        result["bytes_per_finished_game"] = round(grown / size, 1) if size else 0
        yield {key: result[key] for key in KEYS} | {"runs": args.runs, "load": result["load"]}


# -------------------------------------------------------------------- main


def sizes(text: str) -> list[int]:
    try:
        values = [int(word) for word in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are whole numbers, as 0,100: {text!r}") from None
    if min(values) < 0:
        raise argparse.ArgumentTypeError("sizes are 0 or more")
    return values


def table(results: list[dict]) -> None:
    """One line per figure, one column per size."""
    width = max(len(key) for key in results[0])
    for key in results[0]:
        print(f"{key:>{width}}  " + "  ".join(f"{result[key]!s:>10}" for result in results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per size")
    parser.add_argument("--runs", type=int, default=5, help="daemon runs per size")
    parser.add_argument("--sizes", type=sizes, default=[0, 100, 1000, 10_000])
    parser.add_argument("--unfinished", type=int, default=10, help="unfinished games")
    parser.add_argument("--many", type=int, default=100, help="for resume_list_100_ms")
    parser.add_argument("--pool", type=int, default=300, help="distinct games played")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if min(args.runs, args.pool, args.unfinished, args.many) < 1:
        parser.error("--runs, --pool, --unfinished and --many must be at least 1")
    results = []
    with tempfile.TemporaryDirectory(prefix="tableside-history-") as root:
        for result in history(args, Path(root)):
            result |= MACHINE
            results.append(result)
            if args.json:
                print(json.dumps(result), flush=True)
    if not args.json:
        table(results)


if __name__ == "__main__":
    main()
