"""The hint: the normal level's move for the player to move, what it asks, and why.

The hint is the normal level's move for the player to move, with what it
asks of the table (the colours of an exchange, the card and how it is paid)
and one sentence of why. It promises only what the table can surely carry
out this turn: the rest of the turn the search plans is followed up to the
first draw from the bag, a deck or the die, whose outcome nobody knows yet.
"""

from firmware_app.flows.pingwiny import virtual  # its ``think``: the one search a test slows down
from firmware_app.flows.pingwiny.virtual import Thinking, describe, known, points
from firmware_app.flows.shared.seats import player_label
from firmware_app.ui.screens import Notice
from firmware_app.words.i18n import card_name
from firmware_app.words.table_text import exchange_label, tokens_of
from rules.actions import Action
from rules.colours import COLOURS, GREY
from rules.pingwiny import exchange
from rules.pingwiny.advanced_cards import playable
from rules.pingwiny.advanced_locations import SUPPLY
from rules.pingwiny.board import HQ_SQUARE, MIDDLE, neighbour
from rules.pingwiny.effects import param
from rules.players import decides, move_seed
from rules.players.evaluation import covered
from rules.players.sampling import DECKS, app_random, sample

HINT_LEVEL = "normal"  # the level whose move the hint gives


def hint(app) -> None:
    """The normal level's move for the player to move, what it asks, and why in a line."""
    t, session = app.t, app.session
    if decides(session.game, session.state) is None:
        app.notice(t("Hint"), [t("Nothing to choose now.")])
        return

    def shown() -> Notice:
        choice = virtual.think(app, HINT_LEVEL, turn=False)
        lines = [to_do(app, choice.action, choice.plan), reason(app, choice.action, choice.plan)]
        return Notice(app, t("Hint"), lines)

    app.push(shown() if app.think_clock is None else Thinking(app, t("Hint"), shown))


def to_do(app, action: Action, plan: tuple = ()) -> str:
    """The move in words; a move to the Gastro zone with the exchanges the turn makes there."""
    t = app.t
    if action.verb != "gastro":
        return describe(app, action)
    steps, _ = sure_plan(app, plan or (action,))
    exchanges = [words[0] for verb, words in map(_words, steps[1:]) if verb == "exchange"]
    if not exchanges:
        return describe(app, action)
    return t(
        "{who}: exchange at the {place}: {exchanges}.",
        who=player_label(app, app.session.state.current),
        place=t.name("gastro"),
        exchanges="; ".join(exchange_label(t, e) for e in exchanges),
    )


def reason(app, action: Action, plan: tuple = ()) -> str:
    """Why the move is good, in one sentence: the card it buys, the card the rest of the
    turn surely buys, the card its tokens bring nearer, what a draw from the bag may
    give, or (``_WHY``) where a move leads, whom a block or a marker hits, the colour an
    exchange gets, what the penguin card gives; ``plan`` is the move and the rest of the
    turn as the search expects it."""
    t, game, s = app.t, app.session.game, app.session.state
    cards = game.cards
    verb, words = _words(action)
    if verb == "lemur":
        mission = cards.missions[words[0]]
        held = s.players[s.current].figurants
        n = mission.count([cards.figurants[f] for f in held])
        if not n:
            return t("{mission}: your next cards can count for it.", mission=card_name(t, mission))
        return t.plural(
            "{mission}: {n} of your cards counts already.",
            "{mission}: {n} of your cards count already.",
            n,
            mission=card_name(t, mission),
        )
    if verb == "gate":
        return t("New cards to choose from.")
    steps, hand = sure_plan(app, plan or (action,))
    bought = next((words[0] for verb, words in map(_words, steps) if verb == "hq"), None)
    if bought and known(cards.figurants[bought]):
        card = cards.figurants[bought]
        worth = points(t, card.points)
        if verb == "hq":
            return t("{card}: {points}.", card=card_name(t, card), points=worth)
        return t(
            "This lets you buy {card} ({points}) this turn.", card=card_name(t, card), points=worth
        )
    before = s.players[s.current].tokens
    if nearer := saving_for(app, before, hand):
        return nearer
    short = _nearest(app, hand, lambda card: covered(card.cost, hand) < sum(card.cost))
    if steps and _draws_tokens(steps[-1]) and short:
        return t(
            "The bag may give what {card} ({points}) still needs.",
            card=card_name(t, short),
            points=points(t, short.points),
        )
    why = _WHY.get(verb)
    return (why and why(app, words, steps, hand)) or t("The best plan for this turn.")


def sure_plan(app, plan: tuple) -> tuple[tuple, tuple]:
    """The steps of ``plan`` the table can surely carry out this turn, and the hand after
    them. They are followed in a world sampled as the search samples them (the hidden deck
    order and draws unread), while the player is still to move, up to and including the
    first step that draws from the bag, a deck or the die: what follows depends on the
    draw. The hand is the one before it. (The family search plans the others' next turns
    too: those steps are never this player's.)"""
    session = app.session
    game, state = session.game, session.state
    sim = app_random(game)
    world = sample(state, move_seed(game.options.seed, len(session.states)), game)
    me = state.current
    hand, steps = world.players[me].tokens, []
    for action in plan:
        if world.current != me or action not in sim.legal_actions(world):
            break
        hidden = _hidden(world)
        world, _ = sim.apply(world, action)
        steps.append(action)
        if _hidden(world) != hidden:
            break
        hand = world.players[me].tokens
    return tuple(steps), hand


def _hidden(world) -> tuple:
    """What nobody at the table knows yet: the random source and the decks' order."""
    return (world.rng, *(getattr(world, deck, None) for deck in DECKS))


def _draws_tokens(action: Action) -> bool:
    """A draw from the bag: the advanced rummage, the family Otter visit (an advanced
    ``otter`` move names the place it goes to)."""
    verb, words = _words(action)
    return verb == "rummage" or (verb == "otter" and not words)


def _words(action: Action) -> tuple[str, tuple]:
    """The verb and its words, the family's ``visit`` left out: ``hq``, ``(becky, ...)``."""
    words = action[1:] if action.verb == "visit" else action[:]
    return words[0], tuple(words[1:])


def _nearest(app, hand: tuple, keep):
    """Of the face-up cards (cost and points known) that ``keep`` accepts, the one ``hand``
    pays the largest share of, the more points first among equals; None if there is none."""
    game, s = app.session.game, app.session.state
    figurants = game.cards.figurants
    wanted = [figurants[c] for c in s.faceup if c and known(figurants[c])]

    def nearness(card) -> tuple:
        return covered(card.cost, hand) / sum(card.cost), card.points

    return max(filter(keep, wanted), key=nearness, default=None)


def saving_for(app, before: tuple, after: tuple) -> str | None:
    """The face-up card the tokens gained bring nearest, and how near: "Becky (3 points):
    you will hold 4 of the 5 tokens it costs"; None when the hand comes no nearer to any."""
    t = app.t
    card = _nearest(app, after, lambda card: covered(card.cost, after) > covered(card.cost, before))
    if card is None:
        return None
    held, cost, worth = covered(card.cost, after), sum(card.cost), points(t, card.points)
    if held == cost:
        return t(
            "{card} ({points}): you will hold all its tokens.",
            card=card_name(t, card),
            points=worth,
        )
    return t(
        "{card} ({points}): you will hold {held} of the {cost} tokens it costs.",
        card=card_name(t, card),
        points=worth,
        held=held,
        cost=cost,
    )


# ------------------------------------------- why, for the advanced variant's other moves
# Each takes the move's words, the sure steps of the plan (the move first) and the hand
# after them, and reads only the position the table sees; None when it has nothing true.


def _why_move(app, words: tuple, steps: tuple, hand: tuple) -> str | None:
    """Where the move leads, and what the plan does there or what the tile offers."""
    t, s = app.t, app.session.state
    if not words:  # the family Otter visit draws from the bag
        return None
    square = s.layout.index(words[0])
    place = s.layout[square]
    then = _words(steps[1]) if len(steps) > 1 else (None, ())
    if then[0] == "gate":
        what = t("Figurants") if then[1][0] == "figurants" else t("Missions")
        return t("At the {place} you lay out new {what}.", place=t.name(place), what=what.lower())
    ready = _nearest(
        app, hand, lambda card: playable(card) and covered(card.cost, hand) == sum(card.cost)
    )
    if ready and square == HQ_SQUARE:
        return t(
            "At {place} you hold all the tokens {card} ({points}) costs.",
            place=t.name(place),
            card=card_name(t, ready),
            points=points(t, ready.points),
        )
    if place in SUPPLY and (why := _supply_needed(app, place, hand)):
        return why
    if place == "gastro" and (card := _gastro_nearer(app, hand)):
        return t(
            "At the {place} an exchange brings {card} ({points}) nearer.",
            place=t.name(place),
            card=card_name(t, card),
            points=points(t, card.points),
        )
    if ready:
        return t.plural(
            "The {place} is {n} step from {hq}: you hold all the tokens {card} ({points}) costs.",
            "The {place} is {n} steps from {hq}: you hold all the tokens {card} ({points}) costs.",
            _steps_to_hq(square),
            place=t.name(place),
            hq=t.name("hq"),
            card=card_name(t, ready),
            points=points(t, ready.points),
        )
    if place == "otter":
        return t("From the {place} one action takes you to any tile.", place=t.name(place))
    if place in _OFFERS:
        return t(_OFFERS[place], place=t.name(place))
    return None


# What a tile offers, said when the plan shows nothing surer about the move there.
_OFFERS = {
    "gastro": "At the {place} you exchange tokens.",
    "hq": "At {place} you buy face-up figurants.",
    "gate": "At the {place} you lay out new figurants or missions.",
}


def _steps_to_hq(square: int) -> int:
    """Steps from ``square`` to Headquarters, the middle of the 3x3 board."""
    row, col = divmod(square, 3)
    return abs(row - 1) + abs(col - 1)


def _supply_needed(app, place: str, hand: tuple) -> str | None:
    """The supply tile's colour, when the board still has it and a face-up card needs more."""
    t, s = app.t, app.session.state
    c = SUPPLY[place]
    card = _nearest(app, hand, lambda card: card.cost[c] > hand[c])
    if card is None or not s.board[c]:
        return None
    return t(
        "The {place} gives {colour}, a colour {card} ({points}) still needs.",
        place=t.name(place),
        colour=t.name(COLOURS[c]),
        card=card_name(t, card),
        points=points(t, card.points),
    )


def _gastro_nearer(app, hand: tuple):
    """The face-up card one exchange of ``hand`` brings nearest, or None. Only exchanges
    for a supply colour the board still holds count: the bag's mix may be unknown."""
    s = app.session.state
    afters = [
        _exchanged(hand, give, get)
        for give, get in exchange.LINES
        if all(hand[c] >= give.count(c) for c in give)
        and all(c in SUPPLY.values() and s.board[c] >= get.count(c) for c in get)
    ]
    return _nearer(app, hand, afters)


def _nearer(app, hand: tuple, afters: list):
    """The face-up card one of the hands ``afters`` covers more of than ``hand``, or None."""
    return _nearest(
        app,
        hand,
        lambda card: any(covered(card.cost, a) > covered(card.cost, hand) for a in afters),
    )


def _exchanged(hand: tuple, give: tuple, get: tuple) -> tuple:
    """``hand`` after giving ``give`` and getting ``get`` (colour indices)."""
    counts = list(hand)
    for c in give:
        counts[c] -= 1
    for c in get:
        counts[c] += 1
    return tuple(counts)


def _why_block(app, words: tuple, steps: tuple, hand: tuple) -> str | None:
    """What a blockade field closes: a step in across that edge pushes, so costs two
    actions; who stands on the tile beyond it, if anyone. Back to the middle, the action
    is spent where the penguin stands (the advanced turn has no pass): it takes no token."""
    t, s = app.t, app.session.state
    if words[0] == MIDDLE:
        place = t.name(s.layout[s.players[s.current].square])
        return t("You stay on the {place} and take no token.", place=place)
    square = s.players[s.current].square
    beyond = neighbour(square, words[0])
    there = t.name(s.layout[beyond])
    names = [player_label(app, q) for q, p in enumerate(s.players) if p.square == beyond]
    if not names:
        return t("A step in here from the {place} now costs two actions.", place=there)
    return t.plural(
        "{who} on the {place} now needs two actions to step in here.",
        "{who} on the {place} now need two actions to step in here.",
        len(names),
        who=", ".join(names),
        place=there,
    )


def _why_exchange(app, words: tuple, steps: tuple, hand: tuple) -> str | None:
    """The colour the exchange gets, when a face-up card needs more of it than is held;
    else, for two tokens given for one, the penalty point it saves (rulebook, the scoring:
    "1 penalty point for each token you still hold at the end of the game")."""
    t, s = app.t, app.session.state
    give, get = exchange.parse(words[0])
    gets = sorted(set(get) - set(give))  # two black for one black gains no colour
    held = s.players[s.current].tokens
    card = _nearest(app, held, lambda card: any(card.cost[c] > held[c] for c in gets))
    if card is None:
        if len(give) > len(get):
            return t("Two tokens for one: fewer tokens to cost you points at the end.")
        return None
    return t(
        "This exchange gets a colour {card} ({points}) still needs: {colour}.",
        card=card_name(t, card),
        points=points(t, card.points),
        colour=", ".join(t.name(COLOURS[c]) for c in gets),
    )


def _why_done(app, words: tuple, steps: tuple, hand: tuple) -> str | None:
    """Closing the exchanges when none of those left brings a face-up card nearer."""
    s = app.session.state
    held = s.players[s.current].tokens
    afters = [
        _exchanged(held, *exchange.parse(a[1]))
        for a in app.session.game.legal_actions(s)
        if a.verb == "exchange"
    ]
    if _nearer(app, held, afters):
        return None
    return app.t("No other exchange brings a face-up card nearer.")


def _why_penguin(app, words: tuple, steps: tuple, hand: tuple) -> str | None:
    """What the penguin card gives, when it gives tokens of one colour."""
    t, s = app.t, app.session.state
    effect = app.session.game.cards.penguin_effects.get(s.players[s.current].penguin)
    if effect is None or effect.do not in ("draw_colour", "take", "grey"):
        return None
    tokens = _tokens_given(t, effect)
    if effect.do == "draw_colour":
        return t("Your penguin card draws at most {tokens} from the bag.", tokens=tokens)
    return t("Your penguin card gives at most {tokens}.", tokens=tokens)


def _why_use(app, words: tuple, steps: tuple, hand: tuple) -> str | None:
    """What a figurant's action does: where its move leads, or the tokens it gives."""
    t = app.t
    card = app.session.game.cards.figurants[words[0]]
    effect = card.effect
    if effect.do == "move":
        return _why_move(app, words[1:], steps, hand)
    if effect.do not in ("draw_colour", "take", "grey"):
        return None
    tokens, name = _tokens_given(t, effect), card_name(t, card)
    if effect.do == "draw_colour":
        return t("{card} draws at most {tokens} from the bag.", card=name, tokens=tokens)
    return t("{card} gives at most {tokens}.", card=name, tokens=tokens)


def _tokens_given(t, effect) -> str:
    """The tokens of one colour an effect draws or gives, counted ("2 yellow")."""
    colour = COLOURS[GREY] if effect.do == "grey" else param(effect, "colour")
    return tokens_of(t, colour, param(effect, "count"))


def _why_officer(app, words: tuple, steps: tuple, hand: tuple) -> str | None:
    """Whom the marker unmasks: those standing on the tile, who lose a token if they hold one,
    named in turn order from the player placing it (the order they lose in)."""
    t, s = app.t, app.session.state
    square, n = s.layout.index(words[0]), len(s.players)
    order = sorted(range(n), key=lambda q: (q - s.current) % n)
    names = [
        player_label(app, q)
        for q in order
        if s.players[q].square == square and any(s.players[q].tokens)
    ]
    if not names:
        return t("The marker on the {place} costs nobody a token.", place=t.name(words[0]))
    return t.plural(
        "{who} on the {place} loses a random token.",
        "{who} on the {place} each lose a random token.",
        len(names),
        who=", ".join(names),
        place=t.name(words[0]),
    )


_WHY = {
    "move": _why_move,
    "otter": _why_move,
    "block": _why_block,
    "exchange": _why_exchange,
    "done": _why_done,
    "penguin": _why_penguin,
    "use": _why_use,
    "officer": _why_officer,
}
