"""Virtual players on the panel: the seats the box plays, the steps it asks of the table.

At setup each seat may be given to a virtual player at a level (easy,
normal, strong); ``Options.virtual`` keeps the choice, so the game record
replays. When a virtual seat must choose, the turn screen is a
``VirtualStep``: it says in words what the penguin does ("Rico: take 1 blue
from the Chimp enclosure"), and OK plays it; every physical step that
follows (tokens to return, the card to take, the card to lay out) then gets
a screen of its own, each waiting for OK. Chance at the table stays the
table's: when the real bag is drawn from, the humans enter the colours as
for anyone. BACK on a step opens the turn's menu (undo, the table,
corrections, or the move played by hand), so a virtual turn is undone like
any other, and redo replays the journal. A move thinks for its level's node
budget (``rules.players.NODES``, the budget the benchmark measures), or less
once its choice is settled, so thinking again from the same position gives
the same move (the seed comes from the game's seed and the number of actions
played). On the box it thinks under a "Thinking…" screen, and a clock caps
it (``THINKING_CAP``) should the box be slower than its budget assumes;
without a thinking clock (tests, the demo) the node budget alone bounds it.

The hint, the same search for the player to move, is ``flows.pingwiny.hint``.
"""

import logging

from firmware_app.flows.pingwiny.advanced_table import SPOT_NAMES
from firmware_app.flows.shared.seats import player_label
from firmware_app.ui.screens import ColourEntry, Item, Menu, Notice
from firmware_app.words.i18n import card_name
from firmware_app.words.table_text import counted, exchange_label
from rules.actions import Action
from rules.colours import COLOURS
from rules.pingwiny.advanced_locations import SUPPLY
from rules.pingwiny.options import LEVELS
from rules.pingwiny.payments import price
from rules.players import Choice, choose, decides, move_seed, table_actions

LOG = logging.getLogger("tableside.virtual")
LEVEL_LABELS = {"easy": "Easy", "normal": "Normal", "strong": "Strong"}
# The most seconds a virtual player's whole turn thinks on the box, the wait the table
# allows: the node budget ends it sooner on a Zero 2 W but for the longest turns
# (docs/virtual-players.md, "The box's budgets"), so a slow or busy box waits no longer.
THINKING_CAP = {"normal": 3.0, "strong": 8.0}
LEAST_THINKING = 0.2  # seconds a move may always think, however long its turn has thought

# ------------------------------------------------------------------ setup


def ask_virtual(app, seats: list[str], then) -> None:
    """Which seats the box plays, and how well: a tuple of levels (None: a person), or None."""
    t = app.t
    chosen: list[str | None] = []

    def seat(i: int) -> None:
        if i == len(seats):
            then(tuple(chosen) if any(chosen) else None)
            return

        def pick(level: str | None) -> None:
            del chosen[i:]  # BACK may have led here again
            chosen.append(level)
            seat(i + 1)

        items = [Item(t("Plays at the table"), lambda: pick(None))]
        items += [
            Item(
                t("Virtual: {level}", level=t(LEVEL_LABELS[level]).lower()),
                lambda v=level: pick(v),
            )
            for level in LEVELS
        ]
        app.push(Menu(app, seats[i], items))

    items = [
        Item(t("Everyone plays"), lambda: then(None)),
        Item(t("Choose virtual seats"), lambda: seat(0)),
    ]
    app.push(Menu(app, t("Virtual players"), items))


# ------------------------------------------------------------------- turn


def level_to_move(app) -> str | None:
    """The level of the virtual player who must choose now, or None for a person or chance."""
    session = app.session
    virtual = getattr(session.game.options, "virtual", None)
    if not virtual:
        return None
    seat = decides(session.game, session.state)
    return None if seat is None else virtual[seat]


def turn_or_virtual(app, turn_screen):
    """The turn screen, or a virtual player's step when a virtual seat must choose.

    On the box and in the simulator (a thinking clock) the step comes after a
    "Thinking…" screen, which every runner draws before the search runs (no press
    needed, and those made meanwhile are dropped); without a thinking clock
    (tests, the demo) the move is thought at once, for its node budget.
    """
    level = level_to_move(app)
    if level is None:
        return turn_screen(app)

    def step() -> VirtualStep:
        return VirtualStep(app, level, think(app, level).action, lambda: turn_screen(app))

    if app.think_clock is None:
        return step()
    return Thinking(app, virtual_title(app, level), step)


class Thinking(Notice):
    """Shown while a virtual player thinks; the loop then runs ``work``, which puts the
    result in its place. Presses and tags meanwhile change nothing, and the loop drops
    those made during the search, so none acts on the step that follows."""

    slow = True
    drops_presses = True
    part = "virtual"

    def __init__(self, app, title: str, result) -> None:
        super().__init__(app, title, [app.t("Thinking…")])
        self.result = result

    def work(self) -> None:
        screen = self.result()
        stack = self.app.stack
        if self in stack:
            stack[stack.index(self)] = screen

    def button(self, name: str) -> None:
        pass

    def card(self, card_id: str) -> None:
        pass


def virtual_title(app, level: str) -> str:
    """``Rico: Strong``: the player to move and the level that plays the seat."""
    who = player_label(app, app.session.state.current)
    return app.t("{who}: {level}", who=who, level=app.t(LEVEL_LABELS[level]))


def think(app, level: str, turn: bool = True) -> Choice:
    """The level's move now, thought for its node budget or until settled. On the box
    (a thinking clock) the moves of a virtual ``turn`` together think no longer than
    ``THINKING_CAP`` (a hint, not a turn, caps its one move so). Easy does not search."""
    session = app.session
    game, state = session.game, session.state
    seed = move_seed(game.options.seed, len(session.states))
    clock = app.think_clock
    nodes = app.think_nodes
    if clock is None or level not in THINKING_CAP:
        return choose(game, state, level, seed, nodes)
    before = thought(app) if turn else 0.0
    started = clock()
    deadline = started + max(THINKING_CAP[level] - before, LEAST_THINKING)
    choice = choose(game, state, level, seed, nodes, deadline, clock)
    if turn:
        seconds = before + clock() - started
        app.turn_thought = (session.game_id, state.current, len(session.states), seconds)
    if choice.stopped == "clock":  # the box is slower than its budget assumes
        LOG.warning("%s move capped by the clock after %d states", level, choice.nodes)
    return choice


def thought(app) -> float:
    """The seconds the player to move has thought already in this turn: none unless it
    thought last, in this game, and no other seat has been to move since (an undo of
    that move starts the count afresh)."""
    if app.turn_thought is None:
        return 0.0
    game_id, seat, played, seconds = app.turn_thought
    session = app.session
    if game_id != session.game_id or len(session.states) <= played:
        return 0.0
    return seconds if all(s.current == seat for s in session.states[played:]) else 0.0


class VirtualStep(Notice):
    """What the virtual player does now; OK plays it, BACK opens the turn's menu."""

    part = "virtual"

    def __init__(self, app, level: str, action: Action, menu) -> None:
        super().__init__(app, virtual_title(app, level), [describe(app, action)])
        self.action, self.menu = action, menu

    def button(self, name: str) -> None:
        if name == "ok":
            carry_out(self.app, self.action)
        elif name == "back":
            self.app.push(self.menu())
        else:
            super().button(name)

    def card(self, card_id: str) -> None:
        self.app.notice(self.app.t("Card"), [self.app.t("The virtual player chooses its cards.")])


def carry_out(app, action: Action) -> None:
    """Play the action; where the real bag is drawn from, the humans enter what came out."""
    session = app.session
    ways = table_actions(session.game, session.state, action)
    who = player_label(app, session.state.current)
    if len(ways) <= 1:  # one way, or none: the engine says why it refuses
        app.act(str(ways[0] if ways else action), steps=who)
        return
    words = sorted({a[len(action)] for a in ways})
    count = len(words[0].split("+"))
    allowed = sorted({c for w in words for c in w.split("+")}, key=COLOURS.index)

    def entered(colours: list[str]) -> None:
        word = "+".join(sorted(colours, key=COLOURS.index))
        app.act(" ".join([*action, word]), steps=who)

    prompt = app.t("Colours drawn ({n}):", n=count) if count > 1 else app.t("Colour drawn:")
    app.push(ColourEntry(app, app.t("From the bag"), prompt, entered, count=count, allowed=allowed))


# ------------------------------------------------------------ the words


def describe(app, action: Action) -> str:
    """What the penguin does, in a line of the table's language."""
    t, game, s = app.t, app.session.game, app.session.state
    who = player_label(app, s.current)
    cards = game.cards
    verb, words = action.verb, action[1:]
    if verb == "visit":  # the family variant: the location, then what is chosen there
        verb, words = words[0], words[1:]
        if verb in SUPPLY:
            colour = t.name(COLOURS[SUPPLY[verb]])
            return t(
                "{who}: take 1 {colour} from the {place}.",
                who=who,
                colour=colour,
                place=t.name(verb),
            )
        if verb in ("otter", "gate"):
            return t("{who}: visit the {place}.", who=who, place=t.name(verb))
        if verb == "gastro":
            verb = "exchange"
    if verb == "block":
        place = t.name(s.layout[s.players[s.current].square])
        if words[0] == "middle":
            return t("{who}: back to the middle of the {place}.", who=who, place=place)
        spot = t(SPOT_NAMES[words[0]]).lower()
        return t("{who}: block the {place}, {spot}.", who=who, place=place, spot=spot)
    if verb in ("move", "otter"):
        place = t.name(words[0])
        if len(words) > 1 and words[1] != "middle":  # a place of one spot names none
            place = f"{place}, {t(SPOT_NAMES[words[1]]).lower()}"
        return t("{who}: move to the {place}.", who=who, place=place)
    if verb == "take":
        here = s.layout[s.players[s.current].square]
        tokens = counted(t, [COLOURS[SUPPLY[here]]] * int(words[0]))
        return t(
            "{who}: take {tokens} from the {place}.", who=who, tokens=tokens, place=t.name(here)
        )
    if verb == "rummage":
        return t("{who}: draw 1 token from the bag.", who=who)
    if verb == "lemur":
        return t(
            "{who}: take the mission {mission}.",
            who=who,
            mission=card_name(t, cards.missions[words[0]]),
        )
    if verb == "gate":
        what = t("Figurants") if words[0] == "figurants" else t("Missions")
        return t("{who}: Zoo gate, new {what}.", who=who, what=what.lower())
    if verb == "gastro":
        return t("{who}: exchange at the {place}.", who=who, place=t.name("gastro"))
    if verb == "exchange":
        return t("{who}: exchange {exchange}.", who=who, exchange=exchange_label(t, words[0]))
    if verb == "done":
        return t("{who}: no more exchanges.", who=who)
    if verb == "hq":
        card = cards.figurants[words[0]]
        if not known(card):
            return t("{who} buys {card}.", who=who, card=card_name(t, card))
        hand = s.players[s.current].tokens
        paid = price(words[0], card.cost, tuple(words[1:]), hand)
        tokens = counted(t, [COLOURS[c] for c, n in enumerate(paid) for _ in range(n)])
        return t(
            "{who} buys {card}, paying {tokens}.", who=who, card=card_name(t, card), tokens=tokens
        )
    if verb == "officer":
        return t("{who}: Officer X marker on the {place}.", who=who, place=t.name(words[0]))
    if verb == "use":
        return t("{who} uses {card}.", who=who, card=card_name(t, cards.figurants[words[0]]))
    if verb == "penguin":
        return t("{who}: penguin card action.", who=who)
    if verb == "pass":
        return t("{who} passes.", who=who)
    return f"{who}: {action}"


def known(card) -> bool:
    """A card whose cost and points the table has taught (a printed box teaches them in play)."""
    return None not in (card.cost, card.points)


def points(t, n: int) -> str:
    """``3 points`` in the screen's language."""
    return t.plural("{n} point", "{n} points", n)
