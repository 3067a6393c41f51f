"""Virtual players on the panel: the seats the box plays, the steps it asks of the table, hints.

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
any other; thinking again
from the same position gives the same move (the seed comes from the game's
seed and the number of actions played), and redo replays the journal.

The hint is the normal level's move for the player to move, with a one-line
reason in words.
"""

from firmware_app.flows.advanced_table import SPOT_NAMES
from firmware_app.flows.seats import player_label
from firmware_app.table_text import counted, exchange_label
from firmware_app.ui.screens import ColourEntry, Item, Menu, Notice
from rules.actions import Action
from rules.colours import COLOURS
from rules.pingwiny.advanced_locations import SUPPLY
from rules.pingwiny.options import LEVELS
from rules.players import choose, decides, move_seed, table_actions

LEVEL_LABELS = {"easy": "Easy", "normal": "Normal", "strong": "Strong"}
# Seconds a move may think on the device, on top of its node budget (which decides on a laptop).
THINKING_SECONDS = {"easy": 1.0, "normal": 4.0, "strong": 12.0}
HINT_LEVEL = "normal"

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
            Item(t("Virtual: {level}", level=t(LEVEL_LABELS[level])), lambda v=level: pick(v))
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
    """The turn screen, or a virtual player's step when a virtual seat must choose."""
    level = level_to_move(app)
    if level is None:
        return turn_screen(app)
    return VirtualStep(app, level, think(app, level), lambda: turn_screen(app))


def think(app, level: str) -> Action:
    """The level's move now: the same for the same position, seed and budget."""
    session = app.session
    seed = move_seed(session.game.options.seed, len(session.states))
    deadline = app.clock() + THINKING_SECONDS[level]
    return choose(
        session.game, session.state, level, seed, deadline=deadline, clock=app.clock
    ).action


class VirtualStep(Notice):
    """What the virtual player does now; OK plays it, BACK opens the turn's menu."""

    def __init__(self, app, level: str, action: Action, menu) -> None:
        t, s = app.t, app.session.state
        title = t("{who}: {level}", who=player_label(app, s.current), level=t(LEVEL_LABELS[level]))
        super().__init__(app, title, [describe(app, action)])
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
            "{who}: take the mission {mission}.", who=who, mission=cards.missions[words[0]].name
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
        return t("{who} buys {card}.", who=who, card=cards.figurants[words[0]].name)
    if verb == "officer":
        return t("{who}: Officer X marker on the {place}.", who=who, place=t.name(words[0]))
    if verb == "use":
        return t("{who} uses {card}.", who=who, card=cards.figurants[words[0]].name)
    if verb == "penguin":
        return t("{who}: penguin card action.", who=who)
    if verb == "pass":
        return t("{who} passes.", who=who)
    return f"{who}: {action}"


# ------------------------------------------------------------------- hint


def hint(app) -> None:
    """The normal level's move for the player to move, and why, in one line."""
    t, session = app.t, app.session
    if decides(session.game, session.state) is None:
        app.notice(t("Hint"), [t("Nothing to choose now.")])
        return
    action = think(app, HINT_LEVEL)
    app.notice(t("Hint"), [describe(app, action), reason(app, action)])


def reason(app, action: Action) -> str:
    """Why the move is good, in words: the card it buys, the card a token is for, and so on."""
    t, game, s = app.t, app.session.game, app.session.state
    cards = game.cards
    words = action[1:] if action.verb == "visit" else action
    verb = words[0]
    if verb == "hq":
        card = cards.figurants[words[1]]
        return t("{card}: {n} points.", card=card.name, n=card.points)
    colour = None
    if verb in SUPPLY:
        colour = SUPPLY[verb]
    elif verb == "take":
        colour = SUPPLY[s.layout[s.players[s.current].square]]
    if colour is not None:
        wanted = [cards.figurants[c] for c in s.faceup if c and cards.figurants[c].cost[colour]]
        if wanted:
            best = max(wanted, key=lambda f: f.points)
            return t("{colour} for {card}.", colour=t.name(COLOURS[colour]), card=best.name)
    if verb == "lemur":
        mission = cards.missions[words[1]]
        held = s.players[s.current].figurants
        n = mission.count([cards.figurants[f] for f in held])
        return t("{mission}: {n} of your cards count.", mission=mission.name, n=n)
    if verb == "gate":
        return t("New cards to choose from.")
    return t("The best plan for this turn.")
