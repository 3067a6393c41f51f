"""Presses per turn: how many buttons a table presses to record its turns.

Seeded whole games are played on the real app (demo cards, the app as the
bag, the deck and the die), with no hardware: for each accepted action the
script searches the screens themselves, breadth first over every button of
the build, from where the previous action left them (cursor, notices, open
menus), for the fewest presses that make the screens play that action; then
it presses them for real, so the next search starts where a person would
be. The turn menu's extras (the score, help, corrections, settings, undo)
are not searched: they never play the turn's action; nor is leaving the
game (undo, redo, a setting, ending it, BACK to the start screen). Nothing is a
formula: a screen that needs a press more costs a press more. The actions
come from a seeded player that chooses among the legal ones (preferring
to acquire a card it can pay), so every build plays the same games. That player is a yardstick, not
a table: in the advanced variant a third of its actions are Blocks, because
each edge is a legal action of its own. ``--player normal`` has the normal
virtual player (by node budget, so as deterministic) choose the Pingwiny
turns instead, as a family plays them; chance and Król Popiel stay seeded.
Without ``--reading`` the search may close a notice with the press that also
acts on the screen beneath, or skip its pages: the best case. With it every
notice page is read and the notice closed with OK, as a family does; the
figures the README quotes are ``--reading --player normal``.

A turn is every action from one hand-off to the next (the draw and the
visits of a family turn; the four actions, the die and Officer X of an
advanced one; a tile and its reward in Król Popiel). The 11-button build
has the seven colour buttons; the 4-button build has UP, DOWN, OK, BACK.

    python benchmarks/presses.py [--variant V] [--seeds N] [--player P] [--reading] [--json]
    python benchmarks/presses.py --first-game [--variant V] [--seeds N] [--actions N] [--json]

Prints a table of medians per variant and build, or with ``--json`` one
object per game and build, one per line, with the keys ``variant``
(``family``, ``advanced``, ``popiel``), ``buttons`` (``11`` or ``4``),
``player``, ``reading``, ``seed``, ``players``, ``turns``, ``actions``, ``presses_per_turn_median``,
``presses_per_turn_p90``, ``presses_by_screen`` (the class of the screen each press went to),
``python``, ``machine``.

``--first-game`` plays instead a first evening with the printed box for
each Pingwiny variant (``first_game.py``: from launch, an empty owner's file,
"Our own cards", 3 players, three names typed, every card taught when the
game first needs it, plausible values, every notice read) and prints, or
with ``--json`` gives, one object per variant, seed and build with the keys
``first_game`` (the variant), ``buttons``, ``reading``, ``seed``, ``players``,
``launch_to_first_turn``, ``before_first_turn`` and ``presses`` (presses by
what they did: ``setup``, ``names``, ``teaching``, ``turn``), ``cards_taught``
and ``card_presses`` (by what was taught: median, min and max presses a
card), ``save_wait_ms`` (median and max of the time the app took over the
press that saved a card, the owner's file growing as the game goes),
``turns``, ``presses_per_turn_median``, ``presses_by_screen``, ``python``,
``machine``.
"""

import argparse
import json
import random
import statistics
import tempfile
from collections import Counter
from pathlib import Path

from report import MACHINE

from firmware_app.ui.screens import Notice

VARIANTS = ("family", "advanced", "popiel")
NAVIGATION = ("up", "down", "ok", "back")
COLOUR_BUTTONS = ("red", "blue", "green", "yellow", "grey", "white", "black")
BUILDS = {11: NAVIGATION + COLOUR_BUTTONS, 4: NAVIGATION}
MAX_ACTIONS = 1500  # a seeded player that never ends its game is cut off here
MAX_STATES = 60_000  # screens states one search may visit
FIRST_PLAYERS = 3  # a first evening's table (``--first-game``)


class Acted(Exception):
    """The screens asked the app to play an action (during a search)."""

    def __init__(self, action: str) -> None:
        self.action = action


class Leaves(Exception):
    """The screens left the game (undo, redo, a setting): not a way to the action."""


def start(app, variant: str, players: int, seed: int):
    """A new demo game on ``app``, its first screen shown."""
    from firmware_app.session import Session
    from firmware_app.store import catalogue_files
    from rules.pingwiny.options import Options
    from rules.popiel.game import PopielOptions

    if variant == "popiel":
        mice = tuple(f"mouse-{i + 1}" for i in range(players))
        options, box = PopielOptions(players=mice, seed=seed), catalogue_files.load_popiel(True)
        game = ("popiel", "standard")
    else:
        options, box = Options(players=players, seed=seed), app.catalogue(demo=True)
        game = ("pingwiny", variant)
    app.session = Session.start(app.journal, options, box, now=0.0, game=game)
    app.show_game()


def choose(rng: random.Random, game, state, player: str = "random"):
    """The seeded player's next action, or the normal virtual player's where it decides."""
    if player == "normal" and game.variant != "popiel":
        from rules import players

        if players.decides(game, state) is not None:  # no deadline: its node budget decides
            return players.choose(game, state, "normal", rng.getrandbits(32)).action
    legal = [a for a in game.legal_actions(state) if a.verb != "correct"]
    if game.variant == "popiel" and state.phase == "place":
        if rng.random() < 0.03:
            return next(a for a in legal if a.verb == "pass")
        dots = rng.choice((0, 0, 1, 1, 1, 2, 2, 3, 4))
        king = rng.random() < 0.15
        return next(a for a in legal if a[1:] == ((str(dots), "king") if king else (str(dots),)))
    buying = [a for a in legal if a.verb == "hq" or a[:2] == ("visit", "hq")]
    if buying and rng.random() < 0.8:
        return rng.choice(buying)
    useful = [a for a in legal if a.verb != "pass"] or legal
    return rng.choice(useful)


class Searcher:
    """Finds the fewest presses from the app's current screens to one action."""

    def __init__(self, app, buttons: tuple[str, ...], reading: bool = False) -> None:
        self.app, self.buttons, self.reading = app, buttons, reading

    def tried(self) -> tuple[str, ...]:
        """The buttons worth trying on the top screen: with ``reading``, a notice is read
        to its last page and closed with OK, never skipped by a press meant for beneath."""
        if self.reading and isinstance(self.app.top, Notice):
            return ("ok",)
        return self.buttons

    def snapshot(self) -> list:
        """The screens on the stack with their fields, and what the menus remember."""
        memory = dict(getattr(self.app, "cursors", {}))
        return [(memory, None)] + [(screen, _copied(vars(screen))) for screen in self.app.stack]

    def restore(self, snapshot: list) -> None:
        (memory, _), snapshot = snapshot[0], snapshot[1:]
        if hasattr(self.app, "cursors"):
            self.app.cursors = dict(memory)
        self.app.stack = [screen for screen, _ in snapshot]
        for screen, attributes in snapshot:
            vars(screen).clear()
            vars(screen).update(_copied(attributes))

    def presses(self, target: str, alike: frozenset = frozenset()) -> list[str]:
        """The shortest press sequence that plays ``target`` (or one of ``alike``, actions
        the table cannot tell from it); the screens are left as found. What a path
        teaches on its way (a card named or numbered) is not written during the search."""
        from firmware_app.store import catalogue_files

        app, session, journal = self.app, self.app.session, self.app.journal
        real = session.act, session.undo, session.redo, session.abandon, journal.set_setting
        real_teach, save_owner = session.teach, catalogue_files.save_owner
        wanted = {target, *alike}

        def act(action, **_when):
            raise Acted(str(action))

        def leave(*_args, **_kwargs):
            raise Leaves

        def unwritten(*_args, **_kwargs):
            return None

        session.act, session.undo, session.redo = act, leave, leave
        session.abandon, journal.set_setting = leave, leave
        session.teach, catalogue_files.save_owner = unwritten, unwritten
        origin = self.snapshot()
        base = app.stack[0]  # the game's own screen: a press that replaces it left the game
        frontier, seen = [(origin, [])], {self._key()}
        try:
            while frontier and len(seen) < MAX_STATES:
                following = []
                for snapshot, path in frontier:
                    self.restore(snapshot)
                    for button in self.tried():
                        self.restore(snapshot)
                        if button == "ok" and _aside(app.top):
                            continue
                        try:
                            app.top.button(button)
                        except Acted as played:
                            if played.action in wanted:
                                return path + [button]
                            continue
                        except Leaves:
                            continue
                        if app.stack[0] is not base:  # home, or another game: not this one
                            continue
                        key = self._key()
                        if key not in seen:
                            seen.add(key)
                            following.append((self.snapshot(), path + [button]))
                frontier = following
        finally:
            session.act, session.undo, session.redo, session.abandon, journal.set_setting = real
            session.teach, catalogue_files.save_owner = real_teach, save_owner
            app.session = session
            self.restore(origin)
        raise LookupError(f"no presses reach {target!r} from {app.top.__class__.__name__}")

    def _key(self) -> tuple:
        memory = tuple(sorted(getattr(self.app, "cursors", {}).items()))
        return (memory, *(_screen_key(screen) for screen in self.app.stack))


def _aside(screen) -> bool:
    """The turn menu's extras (score, help, corrections, settings) never play the turn."""
    moves = getattr(screen, "moves", None)
    return moves is not None and screen.cursor >= moves


def _copied(attributes: dict) -> dict:
    return {k: list(v) if isinstance(v, list) else v for k, v in attributes.items()}


def _screen_key(screen) -> tuple:
    """What a screen will do next: its plain fields, its items, and what its callbacks hold."""
    return (type(screen).__name__, _fingerprint(vars(screen), 3))


def _fingerprint(value, depth: int):
    if isinstance(value, str | int | float | bool | type(None)):
        return value
    if depth == 0:
        return type(value).__name__
    if isinstance(value, dict):
        return tuple((k, _fingerprint(v, depth)) for k, v in sorted(value.items()) if k != "app")
    if isinstance(value, list | tuple):
        return tuple(_fingerprint(v, depth) for v in value)
    if hasattr(value, "label") and hasattr(value, "run"):  # a menu item
        return (value.label, _fingerprint(value.run, depth - 1))
    code = getattr(value, "__code__", None)
    if code is not None:  # a callback: what it will do depends on what it closed over
        cells = [_contents(c) for c in value.__closure__ or ()]
        return (code, _fingerprint(list(value.__defaults__ or ()) + cells, depth - 1))
    return type(value).__name__


def _contents(cell):
    try:
        return cell.cell_contents
    except ValueError:  # a closure variable not assigned yet
        return None


def play(
    variant: str, players: int, seed: int, buttons: int, player: str = "random", reading=False
) -> dict:
    """One seeded game on one build: presses per turn."""
    from firmware_app.app import App
    from firmware_app.store.journal import Journal

    with tempfile.TemporaryDirectory(prefix="tableside-presses-") as folder:
        journal = Journal(Path(folder) / "journal.sqlite")
        try:
            app = App(journal, language="en", buttons=BUILDS[buttons], seeds=lambda: seed)
            start(app, variant, players, seed)
            searcher = Searcher(app, BUILDS[buttons], reading)
            rng = random.Random(seed)
            turns, current, actions = [0], app.session.state.current, 0
            screens = Counter()
            while not app.session.over and actions < MAX_ACTIONS:
                target = str(choose(rng, app.session.game, app.session.state, player))
                path = searcher.presses(target)
                played = len(app.session.states)
                for button in path:
                    screens[type(app.top).__name__] += 1
                    app.top.button(button)
                if len(app.session.states) != played + 1:
                    raise RuntimeError(f"{target!r} was not accepted after {path}")
                turns[-1] += len(path)
                actions += 1
                state = app.session.state
                if state.current != current and not app.session.over:
                    current = state.current
                    turns.append(0)
        finally:
            journal.close()
    return {
        "variant": variant,
        "buttons": buttons,
        "player": player,
        "reading": reading,
        "seed": seed,
        "players": players,
        "turns": len(turns),
        "actions": actions,
        "presses_per_turn_median": statistics.median(turns),
        "presses_per_turn_p90": _p90(turns),
        "presses_by_screen": dict(screens),
        **MACHINE,
    }


def first_game(
    variant: str, buttons: int, seed: int, language: str = "en", most: int = MAX_ACTIONS
) -> dict:
    """A first printed-box game from launch (``first_game.py``): presses by what they did."""
    from first_game import Table

    from firmware_app.app import App
    from firmware_app.store.journal import Journal

    with tempfile.TemporaryDirectory(prefix="tableside-first-") as folder:
        journal = Journal(Path(folder) / "journal.sqlite")
        owner = Path(folder) / "owner.toml"
        app = App(journal, language=language, owner_catalogue=owner, buttons=BUILDS[buttons])
        app.seed = lambda: seed
        table = Table(app, variant, FIRST_PLAYERS)
        unwatch = table.watch()
        try:
            while app.session is None or len(app.stack) > 1:
                table.answer()
            first_turn, table.first_turn = dict(table.counts), True
            searcher, rng = Searcher(app, BUILDS[buttons], reading=True), random.Random(seed)
            turns, current, actions = [0], app.session.state.current, 0
            while actions < most:
                while any(not isinstance(screen, Notice) for screen in app.stack[1:]):
                    table.answer()  # a card to teach, under the notices read first
                if app.session.over:
                    break
                action = choose(rng, app.session.game, app.session.state, "normal")
                path = searcher.presses(str(action), unnamed_alike(app.session, action))
                for button in path:
                    table.turn(button)
                turns[-1] += len(path)
                actions += 1
                if app.session.state.current != current and not app.session.over:
                    current = app.session.state.current
                    turns.append(0)
        finally:
            unwatch()
            journal.close()
    cards = {kind: (statistics.median(n), min(n), max(n)) for kind, n in table.cards.items()}
    return {
        "first_game": variant,
        "buttons": buttons,
        "reading": True,
        "seed": seed,
        "players": FIRST_PLAYERS,
        "launch_to_first_turn": sum(first_turn.values()),
        "before_first_turn": first_turn,
        "presses": dict(table.counts),
        "cards_taught": {kind: len(n) for kind, n in table.cards.items()},
        "card_presses": cards,
        "save_wait_ms": [round(1000 * f(table.save_waits), 1) for f in (statistics.median, max)],
        "turns": len(turns),
        "presses_per_turn_median": statistics.median(turns),
        "presses_by_screen": dict(table.screens),
        **MACHINE,
    }


def unnamed_alike(session, action) -> frozenset:
    """A card the table cannot name yet came up: any such card stands for it on the panel
    ("Not in this list"), so revealing any of them is the same presses."""
    if action.verb not in ("reveal", "reveal-mission"):
        return frozenset()
    from rules.catalogue.teaching import identified

    section = "mission" if action.verb == "reveal-mission" else "figurant"
    cards = session.game.cards.missions if section == "mission" else session.game.cards.figurants
    if identified(section, action[1], cards[action[1]].name):
        return frozenset()
    return frozenset(
        str(other)
        for other in session.game.legal_actions(session.state)
        if other.verb == action.verb and not identified(section, other[1], cards[other[1]].name)
    )


def _p90(values: list[int]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def first_games(args) -> None:
    """``--first-game``: one first game per Pingwiny variant, seed and build, printed."""
    for variant in [v for v in args.variant or VARIANTS if v != "popiel"]:
        for build in BUILDS:
            for seed in range(1, args.seeds + 1):
                result = first_game(variant, build, seed, most=args.actions)
                if args.json:
                    print(json.dumps(result), flush=True)
                    continue
                wait = result["save_wait_ms"]
                cards = ", ".join(
                    f"{kind} {median} ({low}-{high})"
                    for kind, (median, low, high) in result["card_presses"].items()
                )
                print(
                    f"{variant} {build} buttons, seed {seed}: launch to first turn "
                    f"{result['launch_to_first_turn']} {result['before_first_turn']}; "
                    f"game {result['presses']}; per card median (min-max): {cards}; "
                    f"turn median {result['presses_per_turn_median']}; the press saving a "
                    f"card took {wait[0]} ms (median), {wait[1]} ms (max)"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", choices=VARIANTS, action="append")
    parser.add_argument("--seeds", type=int, default=3, help="games per variant and build")
    parser.add_argument("--player", choices=("random", "normal"), default="random")
    parser.add_argument("--reading", action="store_true", help="read every notice, close with OK")
    parser.add_argument("--first-game", action="store_true", help="a first printed-box game")
    parser.add_argument(
        "--actions", type=int, default=MAX_ACTIONS, help="--first-game: stop after N actions"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.first_game:
        first_games(args)
        return
    results = []
    for variant in args.variant or VARIANTS:
        for build in BUILDS:
            for seed in range(1, args.seeds + 1):
                players = 2 + seed % 3 if variant != "popiel" else 2 + seed % 4
                result = play(variant, players, seed, build, args.player, args.reading)
                results.append(result)
                if args.json:
                    print(json.dumps(result), flush=True)
    if not args.json:
        print(f"{'variant':>9} {'buttons':>7} {'games':>5} {'median':>7} {'p90':>5}")
        for variant in args.variant or VARIANTS:
            for build in BUILDS:
                mine = [r for r in results if r["variant"] == variant and r["buttons"] == build]
                median = statistics.median(r["presses_per_turn_median"] for r in mine)
                p90 = statistics.median(r["presses_per_turn_p90"] for r in mine)
                print(f"{variant:>9} {build:>7} {len(mine):>5} {median:>7} {p90:>5}")


if __name__ == "__main__":
    main()
