"""Plausible answers to the panel's questions about the printed box, pressed on its buttons.

A first game on the printed box asks what the rulebook does not print: the
token mix, then each card's values as the game first needs them
(``flows/shared/teach.py``). The demo GIF's printed game (``tableside demo
--printed``) and the first-evening benchmark (``benchmarks/first_game.py``)
answer with the demo deck's values for the card asked (made up, never
presented as printed; the demo says so on every frame), so the game is a
sensible one and the same every run. Each answer is pressed the way a
person who knows it would: the shorter way round a menu or the letter
wheel, a colour button where the build has one and the screen shows what
it does (a cost's tokens, a type beside its colour's mark, a step's "fewer",
"more" and "last"). A question this does not know takes what the panel
offers first.
"""

import re

from firmware_app.flows.shared import teach
from firmware_app.flows.shared.effect_words import CHOICES, PROMPTS
from firmware_app.flows.shared.seats import GROUPS
from firmware_app.flows.shared.teach_screens import PointsTypeEntry, StepEntry, type_labels
from firmware_app.store import catalogue_files
from firmware_app.ui.screens import DONE, WHEEL, ColourEntry, Menu, NumberEntry
from rules.catalogue.effects import PARAMETERS
from rules.colours import COLOURS, DIFFERENT, TYPES

MIX_TITLE = "Tokens in the box"  # the token mix's questions (``teach.token_mix``)


class Plausible:
    """Presses ``press(button)`` to answer the screen on top of ``app``."""

    def __init__(self, app, press) -> None:
        self.app, self.press = app, press
        self.demo = catalogue_files.load([], demo=True).to_dict()
        self.teacher = None  # the card being taught (``watch``)

    # ---------------------------------------------------------------- buttons

    def choose(self, label: str) -> None:
        """The menu item ``label`` (else the first that starts with it), the shorter way."""
        menu = self.app.top
        labels = [item.label for item in menu.items]
        index = next((i for i, text in enumerate(labels) if text == label), None)
        if index is None:
            index = next((i for i, text in enumerate(labels) if text.startswith(label)), 0)
        colour = menu.items[index].colour
        if colour is not None and self.app.has_colour_buttons:
            self.press(colour)
            return
        self._move(index, len(labels))
        self.press("ok")

    def _move(self, index: int, size: int) -> None:
        """UP or DOWN to ``index`` on a list that wraps round, the shorter way."""
        down = (index - self.app.top.cursor) % size
        for _ in range(min(down, size - down)):
            self.press("down" if down <= size - down else "up")

    def number(self, value: int, then: str = "ok") -> None:
        """UP or DOWN to ``value``, then ``then`` (OK)."""
        entry = self.app.top
        step = "up" if value > entry.value else "down"
        for _ in range(abs(value - entry.value)):
            self.press(step)
        self.press(then)

    def colours(self, wanted: list[str]) -> None:
        """Each colour of ``wanted`` added (its button, else from the list), then done."""
        for colour in wanted:
            if self.app.has_colour_buttons and colour in COLOURS:
                self.press(colour)
            else:
                entry = self.app.top
                self._move(entry._choices().index(colour), len(entry._choices()))
                self.press("ok")
        entry = self.app.top
        if isinstance(entry, ColourEntry) and "done" in entry._choices():
            self._move(entry._choices().index("done"), len(entry._choices()))
            self.press("ok")

    def letters(self, name: str) -> None:
        """A name letter by letter: two colour presses where the entry takes them
        (``seats.NameEntry``), else the wheel, the shorter way round; then "done"."""
        by_colour = self.app.has_colour_buttons and hasattr(self.app.top, "group")
        for symbol in name.upper():
            group = next((g for g, letters in enumerate(GROUPS) if symbol in letters), None)
            if by_colour and group is not None:
                self.press(COLOURS[group])
                self.press(COLOURS[GROUPS[group].index(symbol)])
                continue
            self._move(WHEEL.index(symbol), len(WHEEL))
            self.press("ok")
        self._move(WHEEL.index(DONE), len(WHEEL))
        self.press("ok")

    # -------------------------------------------------------------- answering

    def mix(self) -> bool:
        """A question of the token mix answered (the demo deck's counts); False if none."""
        t, top = self.app.t, self.app.top
        if getattr(top, "title", "") != t(MIX_TITLE):
            return False
        if isinstance(top, NumberEntry):
            colour = next(c for c in COLOURS if top.prompt.startswith(t.name(c)))
            self.number(self.demo["tokens"][colour])
        else:
            self.choose(t("Count them now"))
        return True

    def card(self) -> bool:
        """A question about the card being taught answered; False if none is."""
        top, teacher = self.app.top, self.teacher
        if teacher is None or self.app.session is None or top not in teacher.screens:
            return False
        values = _demo_card(self.demo, teacher.section, teacher.card_id).get(teacher.side, {})
        effect = values.get("effect") if isinstance(values.get("effect"), dict) else {}
        if isinstance(top, ColourEntry):
            cost = values.get("cost") or {"red": 1, "blue": 1}
            self.colours([c for c, n in cost.items() for _ in range(n)])
        elif isinstance(top, PointsTypeEntry):
            self.points_type(values.get("points", 2), values.get("type") or "bird")
        elif isinstance(top, StepEntry):
            self.step(top, values.get("scoring") or [[3, 2]])
        elif isinstance(top, NumberEntry):
            self.number(self._number(top.prompt, values, effect))
        elif isinstance(top, Menu):
            self.choose(self._label(top, values, effect) or top.items[top.cursor].label)
        else:
            self.press("ok")
        return True

    def points_type(self, points: int, kind: str) -> None:
        """The points with UP/DOWN, then the type's colour as the screen shows it (on 4
        buttons OK, and the type from the list that follows)."""
        colours = self.app.has_colour_buttons
        self.number(points, COLOURS[TYPES.index(kind)] if colours else "ok")

    def step(self, entry, scoring: list) -> None:
        """A mission's step on one screen: its count with the colours the screen names
        (fewer, more), its points with UP/DOWN, then OK, or the "last" colour."""
        count, points = scoring[min(entry.n, len(scoring)) - 1]
        button = entry.MORE if count > entry.count else entry.FEWER
        for _ in range(abs(count - entry.count)):
            self.press(button)
        step = "up" if points > entry.points else "down"
        for _ in range(abs(points - entry.points)):
            self.press(step)
        self.press(entry.LAST if entry.n >= len(scoring) else "ok")

    def _number(self, prompt: str, values: dict, effect: dict) -> int:
        t = self.app.t
        scoring = values.get("scoring") or [[3, 2]]
        found = re.search(r"\d+", prompt)
        step = scoring[min(len(scoring), int(found.group())) - 1] if found else (1, 1)
        wanted = {t("Points:"): values.get("points", 2)}
        for name, kind in PARAMETERS.get(effect.get("do"), ()):
            if kind == "number":
                wanted[t(PROMPTS[name])] = effect[name]
        if prompt in wanted:
            return wanted[prompt]
        if found and prompt == t("Step {n}: points", n=found.group()):
            return step[1]
        return step[0]  # a step's count

    def _label(self, menu, values: dict, effect: dict) -> str | None:
        t, game = self.app.t, self.app.session.game
        title, counts = menu.title, values.get("type")
        kinds = type_labels(self.app)  # the type menus' labels
        names = {kind: t(kind) for kind in TYPES}  # those of the several types' marks

        def asked(question: str) -> str:  # a question's title names its card
            return t("{card}: {question}", card=self.teacher._title(), question=question)

        if title == t("{card}: type", card=self.teacher._title()):
            if counts == DIFFERENT:
                return t("Different types")
            return kinds[counts] if isinstance(counts, str) else t("Several types")
        if title == t("Which types count?"):
            marked = [names[k] for k in counts or ()]
            for item in menu.items:
                if item.label.startswith("[ ]") and any(item.label.endswith(k) for k in marked):
                    return item.label
            return t("That is all")
        if title == asked(t("Officer X range")):
            low, high = values.get("officer_x") or (1, 3)
            return f"{low}–{high}"
        if title == asked(t("What it does")):
            return t(CHOICES[effect["do"]]) if effect else t("No effect")
        scoring = values.get("scoring") or [[3, 2]]
        for n in range(1, len(scoring) + 1):
            if title == asked(t("Steps: {n}", n=n)):
                return t("That is all") if n >= len(scoring) else t("Another step")
        for name, kind in PARAMETERS.get(effect.get("do"), ()):
            if title == asked(t(PROMPTS[name])):
                value = effect[name]
                if kind in ("bag colour", "board colour"):
                    return t.name(value)
                if kind == "type":
                    return kinds[value]
                card = value if isinstance(value, str) else value[0]
                return game.cards.figurants[card].name if card in game.cards.figurants else None
        return None

    def watch(self):
        """Note each card the panel starts teaching; the function returned stops it."""
        answers, start = self, teach.CardTeacher.start

        def started(teacher) -> None:
            answers.teacher = teacher
            start(teacher)

        teach.CardTeacher.start = started
        return lambda: setattr(teach.CardTeacher, "start", start)


def _demo_card(demo: dict, section: str, card_id: str) -> dict:
    """The demo deck's card for ``card_id``: the same id, or the same number ("Figurant 41")."""
    cards = demo.get(section, [])
    found = next((c for c in cards if c["id"] == card_id), None)
    number = re.search(r"\d+$", card_id)
    if found is None and number:
        found = next((c for c in cards if c["id"].endswith("-" + number.group())), None)
    return found or {}
