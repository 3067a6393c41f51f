"""Statistics on the panel: games, players, head to head, the last games, wins as bars.

Every screen asks ``firmware_app.store.statistics`` (indexed SQL over a cache beside the
journal), so it opens as fast with years of games as with one. The games finished since the
last opening are indexed when the menu opens, a slice a tick of the loop while there are many
(``stats_counting``). The filter (all games, one game or one variant) is chosen first and
holds for every screen below it.
"""

import time

from firmware_app.flows.shared.seats import MOUSE_COLOURS
from firmware_app.flows.shared.stats_counting import Counting
from firmware_app.store.statistics import Stats, cache_of
from firmware_app.ui.charts import Chart, bar_chart
from firmware_app.ui.screens import Item, Menu

# The filters in the order the first line cycles them: (game, variant) -> its name.
FILTERS = {
    (None, None): "All games",
    ("pingwiny", "family"): "Penguins: family",
    ("pingwiny", "advanced"): "Penguins: advanced",
    ("popiel", None): "King Popiel",
}
KINDS = list(FILTERS)
PIECES = {"pingwiny": "Favourite penguin: {piece}", "popiel": "Favourite mouse: {piece}"}


def open_stats(app) -> Stats:
    """The statistics of the app's journal, as far as indexed: the menu indexed them on opening
    (not here, where all the new games would be indexed at once, holding up the loop)."""
    return Stats(app.journal, cache_of(app.journal.path))


class StatsMenu(Menu):
    """The statistics menu; its first line cycles the filter.

    Opening it indexes the games finished since the last time: one slice at once, then, while
    more remain, the screen says how far it got and is ``slow``, so the loop calls ``work`` for
    a slice a tick; BACK leaves, keeping the slices done. Then it is the menu.
    """

    part = "statistics"

    def __init__(self, app) -> None:
        self.filter = 0
        super().__init__(app, app.t("Statistics"), [])
        self.items = self._items()
        counting = Counting(app)
        counting.step()
        self.counting = None if counting.done and not counting.notes() else counting
        self.opening = True  # that slice ran in this tick of the loop: the next one, next tick

    @property
    def slow(self) -> bool:
        return self.counting is not None

    def work(self) -> None:
        """One slice; once done, the menu (after a notice if the storage refused the cache)."""
        counting, opening, self.opening = self.counting, self.opening, False
        if counting is None:
            return
        if not opening:
            counting.step()
        if counting.done:
            self.counting = None
            if counting.notes():
                self.app.notice(self.t("Statistics"), counting.notes())

    def draw(self, canvas) -> None:
        if self.counting is None:
            super().draw(canvas)
        else:
            self.counting.draw(canvas, self.title)

    def button(self, name: str) -> None:
        if self.counting is None:
            super().button(name)
        elif name == "back":  # the slices done are kept; the next opening goes on
            self.counting.close()
            self.counting = None
            self.app.pop(self)

    def _items(self) -> list[Item]:
        t = self.t
        return [
            Item(t(FILTERS[self.kind]), self._next_filter),
            Item(t("Games"), lambda: self._show(self._games)),
            Item(t("Players"), lambda: self._show(self._players)),
            Item(t("Head to head"), lambda: self._show(self._first_of_two)),
            Item(t("Last games"), lambda: self._show(self._last)),
            Item(t("Wins chart"), lambda: self._show(self._chart)),
        ]

    def _next_filter(self) -> None:
        self.filter = (self.filter + 1) % len(FILTERS)
        self.items = self._items()

    @property
    def kind(self) -> tuple[str | None, str | None]:
        return KINDS[self.filter]

    @property
    def one_game(self) -> bool:
        """Whether the figures are of one game: scores of different games are not comparable
        (a Król Popiel track against Pingwiny points), so "All games" shows no best or
        average score."""
        return self.kind[0] is not None

    def _show(self, screen) -> None:
        with open_stats(self.app) as stats:
            screen(stats)

    def _games(self, stats) -> None:
        t, figures = self.t, stats.games(*self.kind)
        if not figures["plays"]:
            self.app.notice(t("Games"), [t("No finished games yet.")])
            return
        scores = [
            t("Best score: {score} ({name})", score=figures["best_score"],
              name=figures["best_by"] or "-"),
            t("Average score: {score}", score=t.number(figures["average_score"])),
        ] if self.one_game else []  # fmt: skip
        lines = [
            t("Games played: {n}", n=figures["plays"]),
            *scores,
            t("Average length: {minutes} min", minutes=t.number(figures["average_minutes"])),
            t("Wins:"),
            *(f"  {name}: {wins}" for name, wins in figures["winners"]),
        ]  # fmt: skip
        self.app.notice(t("Games"), lines)

    def _players(self, stats) -> None:
        names = stats.players()
        if not names:
            self.app.notice(self.t("Players"), [self.t("No named players yet.")])
            return
        items = [Item(name, lambda n=name: self._player(n)) for name in names]
        self.app.push(Menu(self.app, self.t("Players"), items))

    def _player(self, name: str) -> None:
        t = self.t
        game = self.kind[0] or "pingwiny"  # all games: the favourite penguin
        with open_stats(self.app) as stats:
            figures = stats.player(name, *self.kind)
            favourite = stats.player(name, game, self.kind[1])["favourite"]
        rate = "-" if figures["win_rate"] is None else f"{round(figures['win_rate'] * 100)}%"
        scores = [
            t("Average score: {score}", score=t.number(figures["average_score"])),
            t("Best score: {score}", score=t.number(figures["best_score"])),
        ] if self.one_game else []  # fmt: skip
        lines = [
            t("Games: {n}, wins: {wins} ({rate})", n=figures["games"], wins=figures["wins"],
              rate=rate),
            *scores,
            t(PIECES[game], piece=_piece(t, favourite)),
            t("Last results:"),
            *(
                f"  {_date(r['ended'])} {r['score']}" + (" ✓" if r["won"] else "")
                for r in figures["last"]
            ),
        ]  # fmt: skip
        self.app.notice(name, lines)

    def _first_of_two(self, stats) -> None:
        names = stats.players()
        if len(names) < 2:
            self.app.notice(self.t("Head to head"), [self.t("Two named players are needed.")])
            return
        items = [Item(name, lambda n=name: self._second_of_two(n, names)) for name in names]
        self.app.push(Menu(self.app, self.t("First player"), items))

    def _second_of_two(self, first: str, names: list[str]) -> None:
        items = [
            Item(name, lambda n=name: self._head_to_head(first, n))
            for name in names
            if name != first
        ]
        self.app.push(Menu(self.app, self.t("Against"), items))

    def _head_to_head(self, first: str, second: str) -> None:
        t = self.t
        with open_stats(self.app) as stats:
            figures = stats.head_to_head(first, second, *self.kind)
        lines = [
            t("Games together: {n}", n=figures["games"]),
            f"{first}: {figures['wins'][0]}",
            f"{second}: {figures['wins'][1]}",
            t("Shared wins: {n}", n=figures["shared"]),
            t("Someone else won: {n}", n=figures["neither"]),
        ]
        self.app.notice(f"{first} – {second}", lines)

    def _last(self, stats) -> None:
        t = self.t
        games = stats.last_games(10, *self.kind)
        if not games:
            self.app.notice(t("Last games"), [t("No finished games yet.")])
            return
        lines = []
        for game in games:
            winners = ", ".join(
                w["name"] or t("Player {n}", n=w["seat"] + 1) for w in game["winners"]
            )
            lines.append(f"{_date(game['ended'])} {t(FILTERS[_kind_of(game)])}: {winners}")
        self.app.notice(t("Last games"), lines)

    def _chart(self, stats) -> None:
        bars = stats.wins(*self.kind)
        if not bars:
            self.app.notice(self.t("Wins chart"), [self.t("No named players yet.")])
            return
        title = self.t("Wins")
        self.app.push(Chart(self.app, lambda canvas: bar_chart(canvas, title, bars)))


def _piece(t, piece: str | None) -> str:
    """A penguin by its name, a mouse by its colour; "-" for none, or a mouse not named."""
    if piece in MOUSE_COLOURS:
        return t(MOUSE_COLOURS[piece])
    return "-" if piece is None or piece.startswith("mouse-") else piece.capitalize()


def _date(seconds: float) -> str:
    return time.strftime("%d.%m", time.localtime(seconds))


def _kind_of(game: dict) -> tuple[str, str | None]:
    """The filter a finished game falls under (Król Popiel has one variant)."""
    kind = (game["game"], game["variant"])
    return kind if kind in FILTERS else (game["game"], None)
