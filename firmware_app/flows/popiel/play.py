"""Król Popiel on the panel: setup, a turn, the reminders, the end.

Tableside cannot see the tower: after placing a tile the player enters how
many yellow dots it completed and whether it touches the king's window. The
app answers with what the table must do: move the pawn to a track space
(flipping the 30-points marker), take the reward token, move the king up,
take a tile from the draw spaces and refill them.
"""

from dataclasses import replace

from firmware_app.flows.popiel.teach import popiel_rewards, popiel_windows
from firmware_app.flows.shared.end import end_game, leave
from firmware_app.flows.shared.score_chart import score_chart_screen
from firmware_app.flows.shared.seats import ask_mice, ask_names, mouse_label, seat_label
from firmware_app.session import Session
from firmware_app.store import catalogue_files, state_check
from firmware_app.store.catalogue_files import MOST_WINDOWS
from firmware_app.ui.canvas import title_bar
from firmware_app.ui.screens import Item, Menu, NumberEntry
from firmware_app.words.i18n import data_label
from firmware_app.words.score_sheet import REWARD_NAMES
from rules.errors import RulesError
from rules.popiel.game import KINDS, MAX_DOTS, PopielOptions
from rules.popiel.track import on_track

COMMON_DOTS = 5  # 0 to 4 dots: most tiles; more are listed after the king's entry


# What the table does after an event that carries nothing to show but itself.
TABLE_LINES = {
    "king_devoured": "No window left: the king is devoured!",
    "extra_move": "Extra move: take a tile from the draw spaces and place it.",
    "draw_tile": "Take a tile from the draw spaces.",
    "no_tile_to_draw": "No tile left to draw.",
    "no_tile_for_extra": "No tile on the draw spaces: no extra move.",
    "no_reward_left": "No reward token is left.",
    "game_over": "The game is over.",
}


def player_label(app, index: int) -> str:
    """The player's name, else their mouse by colour, else "Mouse N"."""
    names, mice = app.session.game.options.names, app.session.game.options.players
    return names[index] if names and names[index] else mouse_label(app.t, mice[index], index)


class PopielWizard:
    """Players, box, board side, windows if unknown, who draws the rewards, names, mice."""

    def __init__(self, app) -> None:
        self.app, self.t = app, app.t
        self.choices: dict = {}

    def _ask(self, title: str, options, key: str, then) -> Menu:
        def choose(value):
            self.choices[key] = value
            then()

        items = [Item(label, lambda v=value: choose(v)) for label, value in options]
        return Menu(self.app, title, items)

    def players(self) -> Menu:
        t = self.t
        options = [(t.plural("{n} player", "{n} players", n), n) for n in (2, 3, 4, 5)]
        menu = self._ask(t("Players"), options, "players", lambda: self.app.push(self.box()))
        # Where a table looks for a seat the box could play, it learns why there is none.
        note = t("No virtual players: the rulebook does not print the tower's shape.")
        menu.items = [replace(item, detail=note) for item in menu.items]
        return menu

    def box(self) -> Menu:
        t = self.t
        options = [(t("The box's data"), False), (t("Demo box (made up)"), True)]
        return self._ask(t("Box"), options, "demo", lambda: self.app.push(self.side()))

    def side(self) -> Menu:
        t = self.t
        options = [(t("Board side {side}", side=s), s) for s in ("A", "B")]
        return self._ask(t("Board side"), options, "side", self.windows)

    def windows(self) -> None:
        depth = len(self.app.stack)
        demo = self.choices["demo"]  # the demo box is made up whole: the owner's stays out
        owner = None if demo else state_check.popiel_owner(self.app)  # a bad one kept aside
        told = self.app.stack[depth:]  # its notice: read before the next question
        del self.app.stack[depth:]
        self._windows(demo, owner)
        self.app.stack += told

    def _windows(self, demo: bool, owner) -> None:
        box = catalogue_files.load_popiel(demo, owner)
        self.box_data = box
        if box.windows[self.choices["side"]]:
            self.rewards()
            return

        def counted(n: int) -> None:
            self.box_data = popiel_windows(self.app, self.choices["side"], n, demo)
            self.rewards()

        self.app.push(
            NumberEntry(
                self.app,
                self.t("Windows"),
                self.t("Window spaces in the tower:"),
                counted,
                6,
                1,
                MOST_WINDOWS,
            )
        )

    def rewards(self) -> None:
        t = self.t
        options = [(t("We draw them at the table"), "table")]
        if self.box_data.rewards is not None:
            options.insert(0, (t("The app draws them"), "app"))
        elif self.app.owner_catalogue is not None and not self.choices["demo"]:
            options.insert(0, (t("Count them now"), "count"))
        self.app.push(self._ask(t("Reward tokens"), options, "rewards", self._rewards_chosen))

    def _rewards_chosen(self) -> None:
        if self.choices["rewards"] != "count":
            self.seats()
            return

        def counted(box) -> None:
            self.box_data, self.choices["rewards"] = box, "app"
            self.seats()

        kinds = [self.t(REWARD_NAMES[kind]) for kind in KINDS]
        popiel_rewards(self.app, kinds, counted)

    def seats(self) -> None:
        """Each player's name and mouse colour, numbered unless told; then begin."""
        count, t = self.choices["players"], self.t

        def named(names) -> None:
            self.choices["names"] = names
            ask_mice(self.app, [seat_label(t, names, i) for i in range(count)], coloured)

        def coloured(mice) -> None:
            self.choices["mice"] = mice or tuple(f"mouse-{i + 1}" for i in range(count))
            self.begin()

        hint = t("Player 1 starts: who last ate yellow cheese.")
        ask_names(self.app, count, named, hint)

    def begin(self) -> None:
        app, c = self.app, self.choices
        options = PopielOptions(
            players=c["mice"],
            names=c["names"],
            side=c["side"],
            windows=c.get("windows"),
            rewards=c["rewards"],
            seed=app.seed(),
        )
        try:
            app.session = Session.start(
                app.journal, options, self.box_data, now=app.clock(), game=("popiel", "standard")
            )
        except RulesError as error:
            app.notice(self.t("Not allowed"), [app.t.refusal(error)])
            return
        app.show_game()
        t = self.t
        lines = [
            t("Each player takes a mouse pawn and its marker."),
            t("Each gets one tile; three on the draw spaces."),
            t("King Popiel on the lowest window."),
            t("{who} starts, covering the start space.", who=player_label(app, 0)),
        ]
        if self.box_data.demo_label:
            lines.insert(0, f"[{data_label(t, self.box_data.demo_label)}]")
        app.notice(t("Setup"), lines)


def turn_screen(app) -> Menu:
    """The tile placed, as one choice: how many yellow dots it completed.

    The usual dots come first (the cursor on the number this player chose last; never
    on the king's line or "Cannot place", which one OK must not repeat), then a tile
    that touches the king, the rarer dots, then the rest. The title bar keeps the king's
    last window in sight.
    """
    t, session = app.t, app.session
    s = session.state
    who = player_label(app, s.current)
    if s.phase == "reward":
        items = [
            Item(t(REWARD_NAMES[kind]), lambda k=kind: app.act(f"reward {k}")) for kind in KINDS
        ]
        return Menu(app, t("Reward drawn"), items, back=app.home)
    title = t("{who}: extra move", who=who) if s.extra else who
    dots = [
        Item(t.plural("Tile: {n} dot", "Tile: {n} dots", n), lambda n=n: app.act(f"place {n}"))
        for n in range(MAX_DOTS + 1)
    ]
    king = Item(t("Tile touches the king …"), lambda: _place(app), remembered=False)
    items = (
        dots[:COMMON_DOTS]
        + [king]
        + dots[COMMON_DOTS:]
        + [
            Item(t("Cannot place"), lambda: app.act("pass"), remembered=False),
            Item(t("Scores"), lambda: app.notice(t("Scores"), score_lines(app))),
            Item(t("Correct a score"), lambda: _correct(app)),
            Item(t("Undo"), app.undo),
            Item(t("End game"), lambda: end_game(app)),
        ]
    )
    points = t.plural("{n} pt", "{n} pts", s.scores[s.current])
    king = t("king: last window") if session.game.windows - s.king == 1 else ""
    title, right = title_bar(title, "", [points, king])  # the name and points kept whole
    remember = f"dots {session.game_id} {s.current}"  # this player's, in this game
    return Menu(app, title, items, right=right, back=app.home, remember=remember)


def hand_off(app, lines: list[str]) -> None:
    """The turn passed: the notice's title names the next mouse and its tile.

    A turn that placed nothing ("Cannot place") is handed off too, so the next
    player never starts on the menu the last one left.
    """
    who = player_label(app, app.session.state.current)
    app.handed_off()
    app.notice(app.t("Tile to {who}", who=who), lines or [app.t("{who}, your turn.", who=who)])


def describe(app, state, notation: str) -> str:
    """A Król Popiel action in words, for undo."""
    t, words = app.t, notation.split()
    who = player_label(app, state.current)
    if words[0] == "place":
        n = int(words[1])
        if len(words) == 3:
            return t.plural(
                "{who} placed a tile: {n} dot, the king",
                "{who} placed a tile: {n} dots, the king",
                n,
                who=who,
            )
        return t.plural("{who} placed a tile: {n} dot", "{who} placed a tile: {n} dots", n, who=who)
    if words[0] == "reward":
        return t("{who} drew {token}", who=who, token=t(REWARD_NAMES[words[1]]))
    if words[0] == "pass":
        return t("{who} could not place", who=who)
    return t("a score correction")


def _place(app) -> None:
    t = app.t

    def dots_entered(dots: int) -> None:
        app.pop()
        app.act(f"place {dots} king")

    app.push(
        NumberEntry(
            app, t("Touches the king"), t("Yellow dots completed:"), dots_entered, 0, 0, MAX_DOTS
        )
    )


def _correct(app) -> None:
    t, n = app.t, app.session.game.n

    def player_chosen(p: int) -> None:
        def delta_chosen(value: int) -> None:
            app.pop()
            app.pop()
            app.act(f"correct points p{p + 1} {value}")

        app.push(
            NumberEntry(app, t("Correct a score"), t("Points to add:"), delta_chosen, 0, -60, 60)
        )

    items = [Item(player_label(app, p), lambda p=p: player_chosen(p)) for p in range(n)]
    app.push(Menu(app, t("Correct a score"), items))


def score_lines(app) -> list[str]:
    t, s = app.t, app.session.state
    label = app.session.game.components.demo_label
    lines = [f"[{data_label(t, label)}]"] if label else []
    for p, score in enumerate(s.scores):
        lines.append(f"{player_label(app, p)}: {score}")
        lines.append("  " + track_text(t, score))
        if s.rewards[p]:
            lines.append("  " + ", ".join(t(REWARD_NAMES[k]) for k in s.rewards[p]))
    return lines


def track_text(t, total: int) -> str:
    position = on_track(total)
    if position.laps == 0:
        return t("track space {space}", space=position.space)
    if position.laps == 1:
        return t("track space {space}, marker flipped", space=position.space)
    return t(
        "track space {space}, marker flipped, {laps} laps", space=position.space, laps=position.laps
    )


def event_lines(t, game, events: list[dict]) -> list[str]:
    lines = []
    for e in events:
        kind = e["event"]
        if kind == "scored":
            before = e["total"] - e["points"]
            lines.append(
                t.plural(
                    "{n} point: pawn to {where}.",
                    "{n} points: pawn to {where}.",
                    e["points"],
                    where=track_text(t, e["total"]),
                )
            )
            if on_track(before).laps < on_track(e["total"]).laps:
                lines.append(t("Flip the 30-points marker."))
        elif kind == "reward":
            lines.append(t("Keep the token: {token}.", token=t(REWARD_NAMES[e["kind"]])))
        elif kind == "king_escapes":
            lines.append(t("The king escapes to window {n}.", n=e["window"] + 1))
        elif kind == "draw_tile" and e["refill"]:
            lines.append(t("Take a tile from the draw spaces; refill them."))
        elif kind == "extra_move" and e["refill"]:
            lines.append(t("Extra move: take a tile from the draw spaces, refill them, place it."))
        elif kind in TABLE_LINES:
            lines.append(t(TABLE_LINES[kind]))
    return lines


def end_screen(app) -> Menu:
    t, session = app.t, app.session
    winners = ", ".join(player_label(app, w) for w in session.game.winners(session.state))
    items = [
        Item(
            t("Scores"),
            lambda: app.notice(
                t("Scores"), score_lines(app) + [t("Winner: {names}", names=winners)]
            ),
        ),
        Item(t("Scores by round"), lambda: app.push(score_chart_screen(app))),
        Item(t("Done"), lambda: leave(app)),
    ]
    return Menu(app, t("Game over"), items, back=lambda: leave(app))
