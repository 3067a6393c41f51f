"""Bad input: long random streams of presses, holds, chords, idle spells and tags.

A family presses whatever it presses: two buttons at once, a button held for
seconds, BACK in the middle of a form, a card nobody taught the box, the
language switched half-way through a turn. Whatever comes, the app must not
crash, the journal must stay sound and agree with the game on the screen, and
every state a game passes through must keep the rulebook's totals.

Each stream is a seeded list of lines run through ``Headless`` (the real app
and main loop on ``hw``'s fakes). Besides the script commands of
``docs/sim-script.md`` (``press``, ``hold``, ``tag``) a line may be:

- ``play``: one step of the autopilot, so that games move on and end;
- ``choose LABEL``: UP/DOWN to the menu item so labelled, then OK, as a
  player reading the panel would (nothing if the screen has no such item);
- ``chord A B``: two buttons pressed and released together;
- ``idle SECONDS``: a quiet spell, the script's ``wait`` (``Headless.wait``,
  which moves the clock over the ticks where nothing can happen; the panel
  may go to sleep).

Four profiles mix them differently: a wanderer that first tours every
corner (help, settings and a language switch, a refused correction,
teaching a card, enrolling a tag, undo and redo) and then goes on at random;
a finisher that plays short games to their end and beyond; a table game
(the table's bag and deck); and Król Popiel. After every line the journal is
checked and must name the app's game with as many actions as the app has
states; every tenth line and at the end the journal's record is replayed to
the app's state. A failure names the profile, the line and the lines before
it; ``run_stream`` with the same profile fails the same way again.
"""

import math
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from advanced_helpers import token_total as advanced_token_total
from family_helpers import token_total
from screen_helpers import choose as pick
from stats_helpers import known_games, more_games

from firmware_app.flows.shared import stats_counting
from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import TICK, Headless
from firmware_app.store.catalogue_files import load
from firmware_app.store.journal import Journal
from firmware_app.ui.screens import ColourEntry, Menu, NumberEntry
from firmware_app.words.i18n import translations
from hw.buttons import NAMES as BUTTONS
from hw.events import Press
from rules.pingwiny.advanced_state import AdvancedState
from rules.pingwiny.state import State
from rules.popiel.state import PopielState
from rules.record import replay

NAVIGATION = ("up", "down", "ok", "back")
KNOWN_STATES = (State, AdvancedState, PopielState)  # the games whose invariants are checked
REPLAY_EVERY = 10  # lines between two full replays of the journal (a few ms each)


def short_game(table: bool) -> tuple[str, ...]:
    """From the start screen to a short two-player family game on the demo cards."""
    who_draws = ("press down",) if table else ()
    return (
        "press ok",  # New game
        "press ok",  # Penguins of Madagascar: family
        "press ok",  # 2 players
        "press down",
        "press ok",  # short game
        *who_draws,
        "press ok",  # the app draws tokens, or we draw from the bag
        *who_draws,
        "press ok",  # the app shuffles cards, or we shuffle real cards
        "press down",
        "press ok",  # demo deck
        "press ok 4",  # the seats: no names, the app deals, the app draws, no virtual players
    )


# The wanderer starts with a walk through every corner, then goes on at random.
TOUR = (
    *new_game_script(3),
    "press back 6",  # the setup notices, each closed whatever its pages
    "choose Help",
    "press ok",  # a location's page
    "press back",
    "press back",
    "choose Score so far",
    "press back",
    "choose Table status",
    "press back",  # closed whatever its pages
    "choose Correct the table",
    "choose A token is elsewhere",
    "press grey",  # which colour
    "choose the board",  # from: the board never holds grey, so this is refused
    "choose the bag",
    "press ok",  # "Not allowed"
    "press back 3",
    "choose Settings",
    "choose Language: {value}",
    "choose English",
    "choose Our cards",
    "press ok",  # the first card: Kowalski
    "press ok",  # his printed action: change it?
    "press ok",  # keep it
    "press back",
    "press back",
    "press back",  # and "More"
    "tag 0A1B2C3D",  # never seen: which card is it?
    "press ok",
    "press ok",
    "tag 0A1B2C3D",  # now a known card
    "press ok",
    "play",
    "play",
    "hold back",  # undo
    "press ok",
    "choose Redo",
    "press ok",
)
# Menu items a ``choose`` line may look for (English ids; a ``{`` ends the part compared).
LABELS = (
    "Resume: {game}",
    "New game",
    "Settings",
    "Score so far",
    "Table status",
    "Help",
    "Correct the table",
    "A token is elsewhere",
    "A face-up card differs",
    "A card is someone else's",
    "A penguin differs",
    "Undo",
    "Redo",
    "Language: {value}",
    "English",
    "Polski",
    "Sleep after: {value}",
    "Our cards",
    "Score sheet",
    "Done",
    "End game",
    "Yes: end the game",
)
END_LABELS = (
    "Score sheet",
    "Scores by round",
    "Done",
    "Undo",
    "Redo",
)
POPIEL_LABELS = (
    "Tile touches the king …",
    "Tile: {n} dot",
    "Cannot place",
    "Scores",
    "Correct a score",
    "Undo",
    "New game",
)
# Titles the streams must reach between them (English ids, shown in either language).
TITLES = (
    "Settings",
    "Language",
    "Help",
    "Correct the table",
    "Our cards",
    "Printed on the card",
    "New tag: which card?",
    "Tag",
    "Card",
    "Not allowed",
    "Undone",
    "Redo",
    "Score so far",
    "Game over",
    "Score sheet",
    "Tokens drawn",
    "Scores",
    "Touches the king",
)


@dataclass(frozen=True)
class Profile:
    """How a stream mixes its inputs: relative weights of each kind of line."""

    name: str
    seed: int
    steps: int
    weights: dict[str, float]
    prefix: tuple[str, ...] = ()
    labels: tuple[str, ...] = LABELS


PROFILES = (
    Profile(
        "wanderer",
        seed=1,
        steps=1400,
        weights=dict(play=3, press=4, choose=2, repeat=1, hold=1, tag=1, chord=0.5, idle=0.2),
        prefix=TOUR,
    ),
    Profile(
        "finisher",
        seed=2,
        steps=1800,
        weights=dict(
            play=12, press=2, choose=1.5, repeat=0.3, hold=0.4, tag=0.4, chord=0.2, idle=0.1
        ),
        prefix=short_game(table=False),
        labels=END_LABELS,
    ),
    Profile(
        "table",
        seed=3,
        steps=1000,
        weights=dict(play=6, press=3, choose=1, repeat=0.5, hold=0.5, tag=0.5, chord=0.3, idle=0.1),
        prefix=short_game(table=True),
    ),
    Profile(
        "popiel",
        seed=4,
        steps=800,
        weights=dict(play=8, press=3, choose=2, repeat=0.5, hold=0.5, tag=0.3, chord=0.3, idle=0.1),
        # New game, King Popiel, the wizard's first answers, the setup pages, a tile on the king
        prefix=("press ok", "press down") + ("press ok",) * 8 + ("choose Tile touches the king …",),
        labels=POPIEL_LABELS,
    ),
)


def tag_pool(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    """Tags linked to cards before the stream starts, and tags the box has never seen."""
    box = load([], demo=False)
    cards = [f.id for f in box.figurants[:6]] + [m.id for m in box.missions[:2]]
    known = {f"{rng.getrandbits(56):014X}": card for card in cards}
    unknown = [f"{rng.getrandbits(32):08X}" for _ in range(4)]
    return known, unknown


def stream(profile: Profile, unknown_tags: list[str], known_tags: list[str]) -> list[str]:
    """The lines of one stream: the profile's prefix, then seeded random inputs."""
    rng = random.Random(profile.seed)
    kinds, weights = list(profile.weights), list(profile.weights.values())
    lines = list(profile.prefix)
    for _ in range(profile.steps):
        kind = rng.choices(kinds, weights)[0]
        if kind == "play":
            lines.append("play")
        elif kind == "press":
            lines.append(f"press {rng.choice(NAVIGATION * 3 + BUTTONS)}")
        elif kind == "repeat":
            lines.append(f"press {rng.choice(BUTTONS)} {rng.randint(2, 9)}")
        elif kind == "hold":
            seconds = rng.choice((0.005, 0.03, 0.5, 0.85, 1.2, 2.5))
            lines.append(f"hold {rng.choice(NAVIGATION + ('back',) * 2 + BUTTONS)} {seconds}")
        elif kind == "tag":
            lines.append(f"tag {rng.choice(unknown_tags + known_tags)}")
        elif kind == "choose":
            lines.append(f"choose {rng.choice(profile.labels)}")
        elif kind == "chord":
            lines.append("chord {} {}".format(*rng.sample(BUTTONS, 2)))
        else:
            lines.append(f"idle {rng.choice((1, 30, 200, 400))}")
    return lines


def run_line(sim: Headless, pilot: Autopilot, line: str) -> None:
    if not line.strip():  # a blank line of a script does nothing
        return
    verb, *args = line.split()
    if verb == "play":
        play(sim, pilot)
    elif verb == "choose":
        choose(sim, line.partition(" ")[2])
    elif verb == "chord":
        for name in args:
            sim.buttons.press(name, sim.now)
        sim.run_for(0.1)
        for name in args:
            sim.buttons.release(name, sim.now)
        sim.run_for(0.1)
    elif verb == "idle":
        sim.wait(float(args[0]))
    else:
        sim.command(line)


def play(sim: Headless, pilot: Autopilot) -> None:
    """One step of the autopilot, where it knows what to do; elsewhere what a player would."""
    top, session = sim.app.top, sim.app.session
    if isinstance(top, ColourEntry) and not (top.count and session and any(session.state.bag)):
        sim.press("back")  # it enters only colours drawn from a game's bag
    elif isinstance(top, Menu) and not top.items:
        sim.press("back")  # it picks an item at random
    elif isinstance(top, NumberEntry):
        sim.press("ok")  # it does not enter numbers: take the one offered
    elif not pilot.step():
        sim.press("ok")  # the game is over: read what the cursor opens, the score sheet first


def choose(sim: Headless, label: str) -> None:
    """The item labelled ``label`` (its text up to a placeholder, read from the catalogue as
    it is before it is filled), if the menu has one; a language is named in itself, in
    either language."""
    shown = (
        label if label in ("English", "Polski") else translations(sim.app.language).gettext(label)
    )
    pick(sim, shown.partition("{")[0], missing_ok=True)


def conserved(state) -> tuple:
    """What every state of one game keeps: the tokens per colour, the cards and missions
    in play (Pingwiny); the reward tokens, kept or still to draw (Król Popiel)."""
    if isinstance(state, PopielState):
        return (state.tokens_left + sum(len(kept) for kept in state.rewards),)
    figurants = [f for p in state.players for f in p.figurants]
    figurants += [c for c in state.faceup if c is not None]
    figurants += [c for group in state.deck for c in group]
    if isinstance(state, AdvancedState):
        figurants += [f for p in state.players for f in p.discarded]
        missions = [m for p in state.players for m in p.missions]
        missions += [m for m in state.mission_row if m is not None]
        missions += [m for group in state.mission_deck for m in group]
        return advanced_token_total(state), Counter(figurants), Counter(missions)
    missions = list(state.missions) + [p.mission for p in state.players if p.mission]
    return token_total(state), Counter(figurants), Counter(missions)


def counts(state) -> tuple[int, ...]:
    """Every count of things in the state: none may go negative."""
    if isinstance(state, PopielState):
        return (state.tokens_left, state.tiles_left) + state.pool + state.scores
    places = (state.bag, state.board, state.box) + tuple(p.tokens for p in state.players)
    return tuple(n for place in places for n in place)


class Checker:
    """The invariants, checked after every line; remembers which states it has seen."""

    def __init__(self, sim: Headless) -> None:
        self.sim = sim
        self.seen: dict[int, object] = {}  # id -> state, kept alive so ids stay unique
        self.totals: dict[int, tuple] = {}  # game id -> what its states conserve
        self.titles: set[str] = set()
        self.languages: set[str] = set()
        self.steps = 0

    def __call__(self) -> list[str]:
        sim, problems = self.sim, []
        app, journal = sim.app, sim.journal
        self.steps += 1
        self.languages.add(app.language)
        title = getattr(app.top, "title", None)
        self.titles |= {t for t in TITLES if title == app.t(t)}
        problems += journal.check()
        session = app.session
        unfinished = {game.id for game in journal.unfinished_games()}
        if session is not None and not session.over and session.game_id not in unfinished:
            problems.append(f"the app's game {session.game_id} is not unfinished: {unfinished}")
        if session is None:
            return problems
        record = journal.record(session.game_id)
        if len(record["actions"]) != len(session.states) - 1:
            problems.append(
                f"journal has {len(record['actions'])} actions, "
                f"the app {len(session.states) - 1} states after the start"
            )
        elif self.steps % REPLAY_EVERY == 0 and replay(record).final != session.state:
            problems.append("the journal replays to another state than the app's")
        if not isinstance(session.state, KNOWN_STATES):
            return problems + [f"add the invariants of {type(session.state).__name__} here"]
        totals = self.totals.setdefault(session.game_id, conserved(session.states[0]))
        for state in session.states:
            if id(state) in self.seen:
                continue
            self.seen[id(state)] = state
            if conserved(state) != totals:
                problems.append(f"totals changed: {conserved(state)} != {totals}")
            if min(counts(state), default=0) < 0:
                problems.append(f"a negative count: {state.to_json()}")
        return problems

    def final(self) -> list[str]:
        """The full replay, whatever step the stream stopped at."""
        session = self.sim.app.session
        if session is None:
            return []
        record = self.sim.journal.record(session.game_id)
        return [] if replay(record).final == session.state else ["the final replay differs"]


@dataclass
class Outcome:
    """Where a stream went: for the test that the streams reach every corner."""

    titles: set[str]
    languages: set[str]
    finished_games: int


def run_stream(profile: Profile, folder: Path) -> Outcome:
    """Run one profile's stream; fail at the first crash or broken invariant, with context."""
    rng = random.Random(profile.seed)
    known, unknown = tag_pool(rng)
    with Journal(folder / "journal.sqlite") as journal:
        journal.set_setting("tags", known)
    sim = Headless(folder, language="pl", seed=profile.seed, owner_catalogue=folder / "owner.toml")
    pilot, check = Autopilot(sim, profile.seed), Checker(sim)
    lines = stream(profile, unknown, list(known))
    try:
        for step, line in enumerate(lines):
            try:
                run_line(sim, pilot, line)
            except Exception as error:
                pytest.fail(f"{where(profile, step, lines)}\n{type(error).__name__}: {error}")
            problems = check()
            if problems:
                pytest.fail(where(profile, step, lines) + "\n" + "\n".join(problems))
        problems = check.final()
        assert problems == [], where(profile, len(lines) - 1, lines)
        return Outcome(check.titles, check.languages, len(sim.journal.finished_games()))
    finally:
        sim.close()


def where(profile: Profile, step: int, lines: list[str]) -> str:
    recent = "\n  ".join(lines[max(0, step - 25) : step + 1])
    return f"profile {profile.name}, line {step + 1}; the lines up to it:\n  {recent}"


@pytest.fixture(scope="module")
def streams(tmp_path_factory):
    """Runs a profile's stream once per module, for whichever test asks first."""
    done: dict[str, Outcome] = {}

    def run(profile: Profile) -> Outcome:
        if profile.name not in done:
            done[profile.name] = run_stream(profile, tmp_path_factory.mktemp(profile.name))
        return done[profile.name]

    return run


@pytest.mark.whole_game
@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_a_stream_of_bad_input_breaks_nothing(streams, profile):
    """Fails at the first crash or broken invariant, with the lines that led there."""
    streams(profile)


@pytest.mark.whole_game  # reads every stream the test above runs
def test_the_streams_reach_every_corner_of_the_app(streams):
    outcomes = {p.name: streams(p) for p in PROFILES}
    titles = set().union(*(o.titles for o in outcomes.values()))
    assert sorted(set(TITLES) - titles) == []
    languages = set().union(*(o.languages for o in outcomes.values()))
    assert languages == {"pl", "en"}
    assert outcomes["finisher"].finished_games >= 1


# ----------------------------------------------------------- a wait, ticked or not
#
# ``Headless.wait`` (a script's ``wait``) moves the clock over the ticks where nothing can
# happen. Each case below runs the same inputs twice, from the same state, once ticking the
# loop every 10 ms (``run_for``) and once with ``wait``: what the panel showed and received,
# when it slept, the clock and the journal must be the same.


def _sleep_soon(sim: Headless) -> None:
    sim.app.set_setting("sleep_minutes", 2)  # the shortest sleep the settings offer


def _button_down(sim: Headless) -> None:
    sim.command("press ok")  # New game: a menu where DOWN repeats
    sim.buttons.press("down", sim.now)  # released after the wait, by ``_after``


def _let_go_in_the_lock_out(sim: Headless) -> None:
    sim.command("press ok")  # New game: BACK, let go, goes home
    # Between ticks, as a pin's callback stamps them: the press is confirmed 10 ms after it
    # closed, and the release falls in the 20 ms lock-out that follows, so it is taken as
    # the lock-out ends, 25 ms after the last edge, in the wait's fourth tick.
    sim.buttons.press("back", sim.now + 0.005)
    sim.buttons.release("back", sim.now + 0.02)


def _tag_laid(sim: Headless) -> None:
    sim.reader.present("04A1B2C3", sim.now)  # seen at the wait's first tick


def _unplugged(sim: Headless) -> None:
    sim.display.unplug()
    sim.command("press down")  # a new frame finds no panel: tried again, less and less often


def _in_a_game(sim: Headless) -> None:
    _sleep_soon(sim)
    for line in short_game(table=False):
        sim.command(line)


def _counting(sim: Headless) -> None:
    known_games(sim.journal)
    more_games(sim.journal, 40)
    sim.app.home()
    choose(sim, "Statistics")  # a slow screen: a game counted a tick (see the test)


WAITS = {  # what comes before the wait, and how long it is
    "a quiet box goes to sleep": (_sleep_soon, 125),
    "a button held down repeats": (_button_down, 2),
    "BACK let go in the lock-out": (_let_go_in_the_lock_out, 5),
    "a tag just laid": (_tag_laid, 20),
    "a lost panel": (_unplugged, 40),
    "in a game": (_in_a_game, 130.005),
    "the statistics counted": (_counting, 2),
}


def _after(sim: Headless) -> bool:
    """What follows the wait: a button let go, a tag taken off, the panel back, a press
    that wakes the panel, another that acts. Whether the panel was found again within
    1.5 s (a lost panel is tried again after 0.5 s, then twice as long each time)."""
    for name in sim.buttons.names:  # a button not held: an edge that changes nothing
        sim.buttons.release(name, sim.now)
    sim.reader.remove(sim.now)
    sim.display.plug()
    sim.run_for(1.5)
    found = sim.display.fault is None
    sim.press("ok", 2)
    return found


def _waited(folder: Path, before, seconds: float, way: str) -> tuple[tuple, int]:
    """What the box shows and keeps after ``before``, a wait of ``seconds`` done ``way``,
    and ``_after``; and how many ticks the loop ran in the wait."""
    sim = Headless(folder, language="en", seed=5)
    try:
        before(sim)
        ticks, slept = [], []
        tick, sleep = sim.loop.tick, sim.display.sleep
        sim.loop.tick = lambda now: ticks.append(now) or tick(now)  # counted, then run
        sim.display.sleep = lambda: slept.append(sim.now) or sleep()  # when, then done
        getattr(sim, way)(seconds)
        sim.loop.tick = tick
        then = (sim.now, sim.loop.last_input, sim.screen, sim.display.asleep)  # as it ends
        found = _after(sim)
        session = sim.app.session
        actions = sim.journal.record(session.game_id)["actions"] if session else None
        shown = tuple(image.tobytes() for image in sim.display.frames)
        seen = (then, sim.now, sim.loop.last_input, slept, found, sim.frames, shown)
        return (*seen, sim.buttons.history, sim.reader.history, actions), len(ticks)
    finally:
        sim.close()


@pytest.mark.parametrize("case", list(WAITS))
def test_a_wait_ends_as_the_loop_ticking_through_it_does(case, tmp_path, monkeypatch):
    monkeypatch.setattr(stats_counting, "SLICE_GAMES", 1)  # counted a game a tick, in order
    before, seconds = WAITS[case]
    ticked, every = _waited(tmp_path / "ticked", before, seconds, "run_for")
    waited, run = _waited(tmp_path / "waited", before, seconds, "wait")
    assert waited == ticked
    assert every == math.ceil(seconds / TICK - 1e-6)
    if case in ("a quiet box goes to sleep", "a tag just laid", "in a game"):
        assert run < 10  # a few ticks: at the start, before the sleep, before the end
    if case == "a button held down repeats":  # its long press and repeats each ticked at,
        held = [e for e in waited[-3] if e.kind in (Press.LONG, Press.REPEAT)]  # none between
        assert len(held) >= 10 and len(held) < run < every / 4


def test_a_wait_sleeps_the_panel_at_the_tick_the_loop_would(tmp_path):
    sim = Headless(tmp_path, language="en")
    try:
        _sleep_soon(sim)
        assert sim.now == sim.loop.last_input == TICK  # the first tick: nothing pressed since
        sim.wait(120.0)  # to 120.01 s: two minutes since, not more
        assert not sim.display.asleep
        sim.wait(TICK)  # more than two minutes: the loop puts the panel to sleep
        assert sim.display.asleep and sim.now == 120.02
        sim.wait(3600)
        sim.press("ok")  # wakes the panel, and does nothing else
        assert not sim.display.asleep and sim.screen.startswith("[Tableside]")
    finally:
        sim.close()
