"""Teaching the box its real cards at the table, the moment a game first needs a value.

The rulebook prints few of the cards' values, so a family plays "our own
cards" without any teaching first: after every action the app asks the
engine which unknown values the position needs (``rules.pingwiny.unknowns``)
and asks for them on one short screen per value: a face-up card's cost (and
its points and type at once, or at the score sheet, as the settings say), on
the advanced side its Officer X range and its effect in words, a mission's
types and steps when it is laid out, a penguin's action when it is first
used. A card the rulebook does not name got its name (or number) from the
table when it came up (``flows.shared.cards``).

The questions come in the turn that revealed the card, under the name of the
player whose action revealed it: when that action also passed the turn, the
hand-off waits until the card is taught (``held_hand_off``).

Each taught value is checked (``rules.catalogue.teaching``), written to the
owner's file atomically, then filled into the running game's record, which
still replays the same (``Session.teach``). A value the owner's file already
knows is filled in without asking, so nothing is asked twice, even after a
power cut between the two writes.
"""

import logging
import statistics
from collections import Counter

from firmware_app.flows.shared.effect_words import CHOICES, PROMPTS, effect_text
from firmware_app.flows.shared.teach_screens import (
    HIGHEST,
    PointsTypeEntry,
    StepEntry,
    type_items,
)
from firmware_app.store import catalogue_files
from firmware_app.ui.screens import ColourEntry, Item, Marks, Menu, NumberEntry
from firmware_app.words.i18n import Translator, shown_name
from rules.catalogue import (
    NO_EFFECT,
    PARAMETERS,
    Catalogue,
    CatalogueError,
    Effect,
    merge,
)
from rules.catalogue.effects import ALLOWED, BAG_COLOURS, BOARD_COLOURS, effect_raw
from rules.catalogue.teaching import REFUSALS, identified, is_unnamed, refusal
from rules.colours import COLOURS, COST_COLOURS, DIFFERENT, TYPES
from rules.pingwiny.unknowns import unknowns

LOG = logging.getLogger("tableside.teach")
POINTS_SETTING = "teach_points"  # "now": with the cost; "score": at the score sheet
TOKEN_TOTAL = 104
# Where the Officer X range starts while the box knows none: "the printed ranges are like
# '1–2, 1–3 and so on'" (rulebook, Officer X).
FIRST_RANGE = (1, 2)


def ask(app) -> bool:
    """Ask for the first unknown value the running game wants now, if any; whether a
    question is on the screen. With none left, a hand-off held for the teaching is shown."""
    session = app.session
    if session is None or session.game.variant == "popiel" or session.game.cards.demo_label:
        return False
    wanted: dict[tuple[str, str, str], list[str]] = {}
    for need in unknowns(session.game, session.state):
        if need.when == "now" or need.section == "mission" or session.over or _at_once(app):
            fields = wanted.setdefault((need.section, need.card, need.side), [])
            fields += [name for name in need.fields if name not in fields]
    for (section, card, side), fields in wanted.items():
        if _fill_from_owner(app, section, card, side, fields):
            app.show_game()  # which asks for the next value, if any
            return teaching_now(app)
        CardTeacher(app, section, card, side, fields).start()
        return True
    if app.held_hand_off is not None and not laying_out(session.state):
        hand_off, player = app.held_hand_off
        app.held_hand_off = None
        if session.state.current == player:  # not when undo took the turn back
            hand_off()
    return False


def laying_out(state) -> bool:
    """Whether the table is still naming the cards it lays out (its own deck)."""
    return bool(getattr(state, "pending", ()) or getattr(state, "pending_missions", ()))


def teaching_now(app) -> bool:
    """Whether a card's question is on the screens."""
    return any(getattr(screen, "teacher", None) is not None for screen in app.stack)


def hold_hand_off(app, hand_off) -> bool:
    """Hold the hand-off (``hand_off()``) while the cards revealed are still being named
    or taught; True when held."""
    if not (teaching_now(app) or laying_out(app.session.state)):
        return False
    app.held_hand_off = (hand_off, app.session.state.current)
    return True


def revealer(app) -> str | None:
    """The player whose action revealed the card being taught: the last one played
    outside the naming of laid-out cards (the turn may have passed since); none while the
    table is laid out at the start."""
    from firmware_app.flows.shared.seats import player_label

    for state in reversed(app.session.states[:-1]):
        if not laying_out(state):
            return player_label(app, state.current)
    return None


def _at_once(app) -> bool:
    return app.setting(POINTS_SETTING) == "now"


def _fill_from_owner(app, section: str, card_id: str, side: str, fields: list[str]) -> bool:
    """Values the owner's file knows but the game does not (taught in another game, or
    saved just before a power cut) go into the game without a question."""
    if app.owner_catalogue is None or not app.owner_catalogue.exists():
        return False
    try:
        box = catalogue_files.load_for_play([app.owner_catalogue])
    except CatalogueError:
        return False
    raw = box.to_dict()
    card = next((c for c in raw[section] if c["id"] == card_id), None)
    if card is None:
        return False
    known = {name: card[side][name] for name in fields if card[side][name] != "unknown"}
    if not known:
        return False
    overlay = {"id": card_id, "name": card["name"], side: known}
    return remember(app, {section: [overlay]}, owner_file=False) is None


def remember(app, overlay: dict, *, owner_file: bool = True, game: bool = True) -> str | None:
    """Write taught values to the owner's file, then into the running game; the reason
    when refused (nothing is changed then)."""
    try:
        if owner_file and app.owner_catalogue is not None:
            catalogue_files.save_owner(app.owner_catalogue, overlay)
        session = app.session
        if game and session is not None and session.game.variant != "popiel":
            current = app.journal.record(session.game_id)["catalogue"]
            session.teach(merge(current, overlay, owner=True, source="taught at the table"))
    except (CatalogueError, OSError, ValueError) as error:
        return str(error)
    return None


def card_name(game, section: str, card_id: str) -> str:
    """A card's name in the running game; a penguin's is its id, capitalised."""
    if section == "penguin":
        return card_id.capitalize()
    table = game.cards.missions if section == "mission" else game.cards.figurants
    return table[card_id].name


def box_name(box, section: str, card_id: str) -> str:
    """A card's name in a catalogue."""
    if section == "penguin":
        return box.penguin(card_id).name
    return box.mission(card_id).name if section == "mission" else box.figurant(card_id).name


def card_names(app) -> dict[str, str]:
    """Figurant ids and their names in the running game."""
    return {card: f.name for card, f in app.session.game.cards.figurants.items()}


class CostEntry(ColourEntry):
    """A cost: a colour button adds a token, OK finishes (on 4 buttons: "done").

    The rulebook's rainbow "any token" symbol has no button of its own: UP or
    DOWN shows it, and OK then adds one (on 4 buttons it is one more colour of
    the list). The cursor starts on "done", so a cost without it takes the
    presses it always took.
    """

    def __init__(self, app, title: str, prompt: str, done) -> None:
        super().__init__(app, title, prompt, done, allowed=COST_COLOURS)

    def _choices(self) -> list[str]:
        if self.app.has_colour_buttons:
            return ["done", "any"]
        return super()._choices()


class CardTeacher:
    """The unknown values of one card, one short screen each, remembered at the end."""

    def __init__(
        self, app, section: str, card_id: str, side: str, fields: list[str], *, box=None, then=None
    ) -> None:
        """In a game by default; from the settings, ``box`` is the owner's box (the running
        game keeps its values) and ``then()`` runs once the value is saved."""
        self.app, self.t = app, app.t
        self.section, self.card_id, self.side = section, card_id, side
        self.in_game, self.then, self.box = box is None, then, box
        if box is None:
            self.name = card_name(app.session.game, section, card_id)
            self.names = card_names(app)
            self.who = revealer(app)
        else:
            self.name = box_name(box, section, card_id)
            self.names = {f.id: f.name for f in box.figurants}
            self.who = None
        self.unnamed = is_unnamed(section, card_id)  # the owner's file needs its name
        self.steps = list(fields)
        if "points" in self.steps and "type" in self.steps:  # one screen for both
            self.steps[self.steps.index("points")] = "points_type"
            self.steps.remove("type")
        if "effect" in self.steps and section != "mission":  # its words, from the effect
            self.steps.append("action_text" if section == "penguin" else "text")
        self.values: dict = {}
        self.screens: list = []

    def start(self) -> None:
        self._step(0)

    # --------------------------------------------------------------- steps

    def _push(self, screen) -> None:
        screen.teacher = self
        self.screens.append(screen)
        self.app.push(screen)

    def _title(self) -> str:
        """The card, under the name of the player who revealed it."""
        name = shown_name(self.t, self.card_id, self.name)
        if self.who is None:
            return name
        return self.t("{who}: {card}", who=self.who, card=name)

    def _step(self, index: int) -> None:
        if index == len(self.steps):
            self._save()
            return
        field = self.steps[index]
        if field in ("text", "action_text"):  # the card's text is its effect in words
            words = effect_text(Translator("en"), self.values["effect"], self.names.get)
            self.values[field] = words
            self._step(index + 1)
            return
        getattr(self, f"_ask_{field}")(lambda value: self._accept(index, field, value))

    def _accept(self, index: int, field: str, value) -> None:
        taught = {field: value}
        if field == "points_type":
            taught = {"points": value[0], "type": value[1]}
        for name, one in taught.items():
            found = refusal(name, _raw(name, one))
            if found is not None:
                key, params = found
                self.app.notice(self.t("Not possible"), [self.t(REFUSALS[key], **params)])
                return
        self.values.update(taught)
        self._step(index + 1)

    def known(self, section: str, field: str) -> list:
        """The values of ``field`` this box already knows (printed, or taught so far) on
        the side being taught, other cards' only: where a question's answer starts."""
        if self.in_game:
            game = self.app.session.game
            cards = game.cards.missions if section == "mission" else game.cards.figurants
            values = [
                getattr(card, field, None) for key, card in cards.items() if key != self.card_id
            ]
        else:
            cards = self.box.missions if section == "mission" else self.box.figurants
            sides = [getattr(card, self.side) for card in cards if card.id != self.card_id]
            values = [getattr(side, field, None) for side in sides if side is not None]
        return [value for value in values if value is not None]

    def _usual_points(self) -> int:
        """Where the points start: the median of the points this box knows on this side
        (never guessed from the cost just entered), else 1."""
        known = self.known("figurant", "points")
        return statistics.median_low(known) if known else 1

    def _ask_cost(self, done) -> None:
        t = self.t

        def counted(colours: list[str]) -> None:
            done(dict(Counter(colours)))

        if self.app.has_colour_buttons:
            prompt = t("Cost: press each token")
        else:  # no token buttons: each token is picked from the list
            prompt = t("Cost: choose each token")
        self._push(CostEntry(self.app, self._title(), prompt, counted))

    def _ask_points(self, done) -> None:
        value = self._usual_points()
        self._push(NumberEntry(self.app, self._title(), self.t("Points:"), done, value=value))

    def _ask_points_type(self, done) -> None:
        def finished(points: int, kind: str) -> None:
            done((points, kind))

        self._push(
            PointsTypeEntry(self.app, self._title(), self._usual_points(), finished, self._ask_type)
        )

    def _ask_type(self, done) -> None:
        t = self.t
        items = type_items(self.app, done)
        if self.section == "mission":
            items += [
                Item(t("Several types"), lambda: self._push(TypePicker(self.app, done))),
                Item(t("Different types"), lambda: done(DIFFERENT)),
            ]
        self._push(Menu(self.app, t("{card}: type", card=self._title()), items))

    def counts(self):
        """What the mission counts (being taught, or known): its steps' bounds follow."""
        if "type" in self.values:
            return self.values["type"]
        if self.in_game:
            return self.app.session.game.cards.missions[self.card_id].type
        return getattr(self.box.mission(self.card_id), self.side).type

    def _ask_officer_x(self, done) -> None:
        """The range as one choice of the die's 21 ("1–2", "1–3" …), starting on the one
        this box knows most often (else the rulebook's first example)."""
        t = self.t
        ranges = [(low, high) for low in range(1, 7) for high in range(low, 7)]
        known = Counter(tuple(r) for r in self.known("figurant", "officer_x"))
        usual = known.most_common(1)[0][0] if known else FIRST_RANGE
        items = [Item(f"{low}–{high}", lambda r=(low, high): done(r)) for low, high in ranges]
        title = t("{card}: {question}", card=self._title(), question=t("Officer X range"))
        menu = Menu(self.app, title, items)
        menu.cursor = ranges.index(usual)
        self._push(menu)

    def _ask_effect(self, done) -> None:
        EffectChooser(self, done).start()

    def _ask_scoring(self, done) -> None:
        ScoringEntry(self, done).start()

    # ---------------------------------------------------------------- save

    def _save(self) -> None:
        app, t = self.app, self.t
        for screen in self.screens:
            app.pop(screen)
        card: dict = {"id": self.card_id}
        if self.unnamed:
            card["name"] = self.name
        card[self.side] = {field: _raw(field, value) for field, value in self.values.items()}
        overlay = {self.section: [card]}
        named = self._unnamed_named()
        if named:  # the owner's file must hold the cards its effects name
            overlay.setdefault("figurant", []).extend(named)
        problem = remember(app, overlay, game=self.in_game)
        if problem is not None:
            app.notice(t("Cards"), [t("Not saved: {reason}", reason=problem)])
            return
        LOG.info("taught %s %r: %s", self.section, self.card_id, card)
        if self.in_game:
            app.show_game()
        else:
            self.then()

    def _unnamed_named(self) -> list[dict]:
        """The unnamed figurants the taught effect names, as cards of the owner's file."""
        effect = self.values.get("effect")
        if effect is None:
            return []
        named = []
        for key, value in effect.params:
            if key in ("card", "cards"):
                named += [value] if key == "card" else list(value)
        return [
            {"id": card, "name": self.names[card]}
            for card in named
            if is_unnamed("figurant", card) and card != self.card_id
        ]


class TypePicker(Marks):
    """A mission counting several types: OK marks or unmarks a type, then "That is all"."""

    def __init__(self, app, done) -> None:
        self.done = done
        choices = [(kind, app.t(kind)) for kind in TYPES]
        super().__init__(app, app.t("Which types count?"), choices, self._chosen)

    def _chosen(self, kinds: list[str]) -> None:
        if len(kinds) < 2:
            self.app.notice(self.t("Not possible"), [self.t("Mark two types or more.")])
            return
        self.done(tuple(kinds))


class EffectChooser:
    """An effect from the vocabulary in words, then each of its parameters."""

    def __init__(self, teacher: CardTeacher, done) -> None:
        self.teacher, self.done, self.t = teacher, done, teacher.t

    def start(self) -> None:
        t, section = self.t, self.teacher.section
        items = []
        if section != "penguin":
            items.append(Item(t("No effect"), lambda: self.done(NO_EFFECT)))
        items += [
            Item(t(CHOICES[do]), lambda do=do: self._parameters(do, [], 0))
            for do in CHOICES
            if do in ALLOWED[section]
        ]
        title = t("{card}: {question}", card=self.teacher._title(), question=t("What it does"))
        self.teacher._push(Menu(self.teacher.app, title, items))

    def _parameters(self, do: str, chosen: list, index: int) -> None:
        names = PARAMETERS[do]
        if index == len(names):
            self.done(Effect(do, tuple(chosen)))
            return
        name, kind = names[index]

        def then(value) -> None:
            self._parameters(do, [*chosen, (name, value)], index + 1)

        t, app = self.t, self.teacher.app
        prompt = t(PROMPTS[name])
        if kind == "number":
            value = self._usual(name)
            self.teacher._push(
                NumberEntry(app, self.teacher._title(), prompt, then, value=value, low=1)
            )
            return
        if kind in ("bag colour", "board colour"):  # a colour's own button picks it
            options = BAG_COLOURS if kind == "bag colour" else BOARD_COLOURS
            items = [Item(t.name(c), lambda c=c: then(c), colour=c) for c in options]
        elif kind == "type":
            items = type_items(app, then)
        else:  # card, cards: one figurant, of those the table can find by name
            one = kind == "card"
            items = [
                Item(shown_name(t, card, label), lambda c=card: then(c if one else (c,)))
                for card, label in self.teacher.names.items()
                if card != self.teacher.card_id and identified("figurant", card, label)
            ]
        title = t("{card}: {question}", card=self.teacher._title(), question=prompt)
        self.teacher._push(Menu(app, title, items))

    def _usual(self, name: str) -> int:
        """Where a number starts: the median of that number in the effects this box knows
        on this side (a card's "2 tokens" suggests the next card's), else 1."""
        known = [
            value
            for effect in self.teacher.known("figurant", "effect")
            for key, value in effect.params
            if key == name and isinstance(value, int)
        ]
        return statistics.median_low(known) if known else 1


class ScoringEntry:
    """A mission's steps: at least how many cards (or types), and the points.

    Each step starts where the last one points: as far again as the last rise
    (2 → 4 cards, 1 → 3 points suggests 6 cards, 5 points), or one card and one
    point more after the first step; the first starts at the median first step
    of the missions this box knows, else at 1 card, 1 point. On 11 buttons a
    step is one screen (``StepEntry``); on 4 its count, its points, then "That
    is all" or "Another step", the cursor on "Another step" while the mission
    has fewer steps than this box's missions usually have.
    """

    def __init__(self, teacher: CardTeacher, done) -> None:
        self.teacher, self.done, self.t = teacher, done, teacher.t
        self.steps: list[tuple[int, int]] = []
        self.known = [tuple(map(tuple, s)) for s in teacher.known("mission", "scoring") if s]

    def start(self) -> None:
        self._ask(1)

    def _guess(self, n: int) -> tuple[int, int]:
        """Where step ``n`` starts, from the steps before it."""
        if n == 1:
            firsts = [steps[0] for steps in self.known] or [(1, 1)]
            counts, points = zip(*firsts, strict=True)
            return statistics.median_low(counts), statistics.median_low(points)
        count, points = self.steps[n - 2]
        rise = (count - self.steps[n - 3][0], points - self.steps[n - 3][1]) if n > 2 else (1, 1)
        return min(HIGHEST, count + max(1, rise[0])), min(HIGHEST, points + max(1, rise[1]))

    def _ask(self, n: int) -> None:
        teacher, t = self.teacher, self.t
        count, points = self._guess(n)
        types = teacher.counts() == DIFFERENT
        if teacher.app.has_colour_buttons:

            def kept(count: int, points: int, last: bool) -> None:
                self._kept(n, count, points, last)

            teacher._push(StepEntry(teacher.app, teacher._title(), n, count, points, types, kept))
            return
        if types:
            prompt = t("Step {n}: how many types?", n=n)
        else:
            prompt = t("Step {n}: how many cards?", n=n)

        def counted(count: int) -> None:
            teacher._push(
                NumberEntry(
                    teacher.app,
                    teacher._title(),
                    t("Step {n}: points", n=n),
                    lambda points: self._kept(n, count, points, None),
                    value=points,
                    low=1,
                )
            )

        teacher._push(
            NumberEntry(teacher.app, teacher._title(), prompt, counted, value=count, low=1)
        )

    def _kept(self, n: int, count: int, points: int, last: bool | None) -> None:
        """Step ``n`` entered (an earlier screen reopened by BACK replaces the steps from
        it on); ``last``: whether it was the last, ``None``: ask."""
        t = self.t
        steps = [*self.steps[: n - 1], (count, points)]
        found = refusal("scoring", [list(s) for s in steps], counts=self.teacher.counts())
        if found is not None:
            key, params = found
            self.teacher.app.notice(t("Not possible"), [t(REFUSALS[key], **params)])
            return
        self.steps = steps
        if last is None:
            self._ask_more(n)
        elif last:
            self.done(tuple(steps))
        else:
            self._ask(n + 1)

    def _ask_more(self, n: int) -> None:
        """4 buttons: "That is all" or "Another step" after step ``n``."""
        t = self.t
        items = [
            Item(t("That is all"), lambda: self.done(tuple(self.steps))),
            Item(t("Another step"), lambda: self._ask(n + 1)),
        ]
        title = t("{card}: {question}", card=self.teacher._title(), question=t("Steps: {n}", n=n))
        menu = Menu(self.teacher.app, title, items)
        usual = statistics.median_low(len(s) for s in self.known) if self.known else 0
        menu.cursor = 1 if n < usual else 0
        self.teacher._push(menu)


def _raw(field: str, value):
    """A taught value as the catalogue files write it."""
    if field == "effect":
        return effect_raw(value)
    if field in ("officer_x", "scoring"):
        return [list(v) for v in value] if field == "scoring" else list(value)
    if field == "type" and isinstance(value, tuple):  # a mission counting several types
        return list(value)
    return value


# ------------------------------------------------------------------ token mix


def count_mix(app, title: str, prompts: list[str], total: int, then) -> None:
    """How many of each kind (one number a prompt, each starting at its share of what is
    left), checked against ``total``; then ``then(counts)``. A mix that does not add up
    is refused with the sum, and nothing is kept."""
    t = app.t
    counts: list[int] = []
    screens: list = []

    def ask() -> None:
        left = total - sum(counts)
        guess = min(left, round(left / (len(prompts) - len(counts))))
        entry = NumberEntry(app, title, prompts[len(counts)], got, value=guess, high=total)
        screens.append(entry)
        app.push(entry)

    def got(n: int) -> None:
        counts.append(n)
        if len(counts) < len(prompts):
            ask()
            return
        entered = sum(counts)
        for screen in screens:
            app.pop(screen)
        if entered != total:
            app.notice(
                t("Not possible"),
                [t("The tokens add up to {n}; the box has {total}.", n=entered, total=total)],
            )
            return
        then(counts)

    ask()


def token_mix(app, then) -> None:
    """The box's token mix, colour by colour, checked against the rulebook's 104; then
    ``then(overlay)`` (which starts the game)."""
    t = app.t

    def counted(counts: list[int]) -> None:
        overlay = {"tokens": dict(zip(COLOURS, counts, strict=True))}
        problem = remember(app, overlay, game=False)
        if problem is not None:
            app.notice(t("Cards"), [t("Not saved: {reason}", reason=problem)])
            return
        then(overlay)

    prompts = [t("{colour}: how many?", colour=t.name(colour)) for colour in COLOURS]
    count_mix(app, t("Tokens in the box"), prompts, TOKEN_TOTAL, counted)


def own_mix_known(app) -> bool:
    """Whether the owner's box has its token mix (or the box plays without an owner's file,
    where there is nothing to count)."""
    if app.owner_catalogue is None:
        return True
    try:
        return None not in catalogue_files.load_for_play(_owner_files(app)).tokens
    except CatalogueError:
        return True  # the file is kept aside when the cards are chosen, and said so then


def own_cards(app, begin, app_bag: bool) -> None:
    """Play the printed box with what the owner taught: the token mix first while it is
    not known, then the game, which asks the rest as it goes. The app can draw only from
    a bag whose mix it knows, so with the app as the bag the tokens are counted at once
    (the bag question said so); with the table's own bag "We don't know" is offered too:
    the drawn colours are then entered and checked against no count."""
    box = catalogue_files.load_for_play(_owner_files(app))
    if None not in box.tokens:
        begin(box)
        return
    t = app.t

    def count() -> None:
        token_mix(app, lambda mix: begin(_with(box, mix)))

    def unknown() -> None:
        LOG.info("playing without the token mix: the table's bag")
        begin(box)

    if app_bag:
        count()
        return
    items = [Item(t("Count them now"), count), Item(t("We don't know"), unknown)]
    app.push(Menu(app, t("Tokens in the box"), items))


def _with(box, overlay: dict):
    """The box with the values just taught, whether or not an owner's file keeps them."""
    return Catalogue.from_dict(merge(box.to_dict(), overlay, owner=True, source="taught"))


def _owner_files(app) -> list:
    path = app.owner_catalogue
    return [path] if path is not None and path.exists() else []
