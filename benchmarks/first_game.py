"""A first evening with the printed box, press by press (``presses.py --first-game``).

A family switches the box on for the first time, with an empty owner's file:
a new game on "Our own cards", 3 players, the app as the bag and the deck,
three names typed. ``Table`` answers every setup question as that family
would, with the fewest presses a person who knows what to answer needs, and
every teaching question as ``firmware_app/runners/plausible.py`` does: the
demo deck's values (made up) for the card asked, the same every run. The
turns themselves are searched and played as ``presses.py --reading`` does,
so every notice page is read and closed with OK.

Each press is counted as setup, names, teaching or turn; each card taught
counts its presses from its first question to its save (the owner's file
gaining its values), by what was taught: a family card, an advanced card,
a mission, a penguin, the token mix; and the time the app took over the press
that saved it, which is what the table waits for before the game goes on.
"""

import time
import tomllib
from collections import Counter, defaultdict

from firmware_app.runners.plausible import Plausible
from firmware_app.ui.screens import LetterEntry, Menu, Notice

NAMES = ("Ada", "Ola", "Tom")  # early, middle and late letters of the alphabet


class Table(Plausible):
    """The family at the panel: answers setup and teaching, counts each press."""

    def __init__(self, app, variant: str, players: int) -> None:
        super().__init__(app, self._press)
        self.variant, self.players = variant, players
        self.counts: dict[str, int] = defaultdict(int)
        self.screens: Counter = Counter()  # presses by the class of the screen pressed
        self.cards: dict[str, list[int]] = defaultdict(list)  # what was taught -> presses each
        self.save_waits: list[float] = []  # seconds the press that saved a card took
        self.names = list(NAMES[:players])
        self.kind = "setup"  # what the presses being made do
        self.card_presses = 0
        self.first_turn = False  # the first turn's screen has been reached
        self.owner_seen = self._owner_state()

    # --------------------------------------------------------------- presses

    def _press(self, button: str) -> None:
        self.screens[type(self.app.top).__name__] += 1
        started = time.perf_counter()
        self.app.top.button(button)
        waited = time.perf_counter() - started
        self.counts[self.kind] += 1
        self.card_presses += self.kind == "teaching"
        self._saved(self.kind == "teaching", waited)

    def turn(self, button: str) -> None:
        """A press of the turn itself (searched by ``presses.py``)."""
        self.kind = "turn"
        self.press(button)

    def _owner_state(self) -> bytes:
        path = self.app.owner_catalogue
        return path.read_bytes() if path.exists() else b""

    def _saved(self, teaching: bool, waited: float) -> None:
        """A teaching press that wrote the owner's file ends a card: its presses go to what
        it taught, and the ``waited`` seconds of that press to ``save_waits``. (A card named
        or numbered as it comes up is part of the turn.)"""
        now = self._owner_state()
        if now == self.owner_seen:
            return
        before = tomllib.loads(self.owner_seen.decode()) if self.owner_seen else {}
        self.owner_seen = now
        if teaching:
            self.cards[_taught_kind(before, tomllib.loads(now.decode()))].append(self.card_presses)
            self.card_presses = 0
            self.save_waits.append(waited)

    # ------------------------------------------------------------- answering

    def answer(self) -> None:
        """One answer to the screen on top (a setup or teaching question, or a notice)."""
        top = self.app.top
        self.kind = self._kind(top)
        if isinstance(top, Notice):
            self.press("ok")
        elif self.mix() or (self.kind == "teaching" and self.card()):
            return  # answered with the demo deck's values
        elif isinstance(top, LetterEntry):
            self.letters(self.names.pop(0))
        elif isinstance(top, Menu):
            self.choose(self._setup_label(top) or top.items[top.cursor].label)
        else:
            self.press("ok")

    def _kind(self, top) -> str:
        t = self.app.t
        title = getattr(top, "title", "")
        if self.app.session is not None:
            if not isinstance(top, Notice) or self.card_presses:  # a card being taught
                return "teaching"
            return "turn" if self.first_turn else "setup"  # the turn's news, or the layout
        if title == t("Tokens in the box"):
            return "teaching"
        named = title == t("Names") or isinstance(top, LetterEntry)
        return "names" if named or self._seat(title) else "setup"

    def _seat(self, title: str) -> bool:
        """A seat's name question ("Player 2: name")."""
        return any(title == self.app.t("Player {n}: name", n=n + 1) for n in range(4))

    def _setup_label(self, menu) -> str | None:
        from firmware_app.flows.games import GAMES

        t = self.app.t
        wanted = {
            "Tableside": t("New game"),
            t("Game"): GAMES[("pingwiny", self.variant)].name(t),
            t("Players"): t.plural("{n} player", "{n} players", self.players),
            t("Cards"): t("Our own cards"),
            t("Names"): t("Choose the names"),
        }
        if menu.title in wanted:
            return wanted[menu.title]
        if self._seat(menu.title):
            return t("New name …")
        return None


def _taught_kind(before: dict, after: dict) -> str:
    """What a save of the owner's file taught: the card section and side that changed."""
    if after.get("tokens") != before.get("tokens"):
        return "mix"
    changed = []
    for section in ("mission", "figurant", "penguin"):
        old = {c["id"]: c for c in before.get(section, [])}
        for card in after.get(section, []):
            for side in ("family", "advanced"):
                if card.get(side) and card.get(side) != old.get(card["id"], {}).get(side):
                    changed.append((section, side))
    if ("mission", "family") in changed or ("mission", "advanced") in changed:
        return "mission"
    if ("figurant", "advanced") in changed:
        return "advanced card"
    if ("figurant", "family") in changed:
        return "family card"
    return "penguin" if changed else "name"
