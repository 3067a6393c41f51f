"""The family variant of Pingwiny z Madagaskaru.

A turn is ``draw`` (two tokens from the bag) then exactly two ``visit``
actions. Chance is explicit: with the app's bag or deck the engine draws
from the seeded source kept in the state; with the table's, the colours
drawn are part of the ``draw`` action and every revealed figurant is named
by a ``reveal`` action. ``correct`` actions realign the model with the real
table and are recorded like any other action.

Readings of unclear passages are in ``docs/rules-interpretations.md``; the
tests named there hold them.
"""

from itertools import combinations_with_replacement
from operator import add as add_counts

from rules import rng
from rules.actions import Action, arity, colour_word, dispatch, listed
from rules.colours import BLUE, COLOURS, GREEN, RED, YELLOW
from rules.errors import IllegalAction, MalformedAction
from rules.pingwiny import dealing, exchange
from rules.pingwiny.cards import family_table
from rules.pingwiny.corrections import correct
from rules.pingwiny.options import Options
from rules.pingwiny.payments import discard, payments, price
from rules.pingwiny.scoring import ScoreSheet, score_players
from rules.pingwiny.state import NO_TOKENS, Player, State, add, set_player
from rules.pingwiny.unknowns import check_scorable

SUPPLY = {"chimp": BLUE, "gorilla": RED, "shop": YELLOW, "storehouse": GREEN}
SETUP_TOKENS = 5
TURN_TOKENS = 2
VISITS = 2


class FamilyGame:
    """Static information of one game (options and cards) and its rules."""

    variant = "family"

    def __init__(self, catalogue, options: Options) -> None:
        self.options = options
        self.cards = family_table(catalogue, options.short)
        # Each card's cost by its id, looked up for every face-up card at every step.
        self._costs = {card: figurant.cost for card, figurant in self.cards.figurants.items()}
        self.n = options.players
        self.app_bag = options.bag == "app"
        self.app_deck = options.deck == "app"
        dealing.check_mix(self.cards.mix_known, self.app_bag)
        dealing.check_options(options, self.cards.penguins, self.cards.deck, self.app_deck)

    # ----------------------------------------------------------------- setup

    def new_state(self) -> State:
        """The table after setup: penguins dealt, cards laid out, tokens drawn."""
        o = self.options
        seed, penguins, first = dealing.seats(rng.seed_state(o.seed), o, tuple(self.cards.penguins))
        seed, deck = dealing.shuffled_deck(seed, self.cards.deck, self.app_deck, o.deck_order)
        s = State.__new__(State)
        s.players = tuple(Player(p, NO_TOKENS, (), None) for p in penguins)
        s.board, s.bag, s.box = NO_TOKENS, self.cards.tokens, NO_TOKENS
        s.deck, s.faceup, s.pending = deck, (None,) * (self.n + 2), ()
        s.missions = self.cards.mission_row
        s.current, s.first, s.turns, s.last_round, s.rng = first, first, 0, False, seed
        s.phase, s.draw_count, s.visits_left = "draw", SETUP_TOKENS, 0
        events: list[dict] = []
        for slot in range(self.n + 2):
            dealing.refill(s, slot, self.app_deck, events)
        if self.app_bag:
            for _ in range(self.n):
                dealing.hand_over(s, s.current, dealing.draw(s, SETUP_TOKENS), events)
                self._after_draw(s, events)
        return s

    # --------------------------------------------------------- legal actions

    def legal_actions(self, s: State) -> list[Action]:
        """Every legal action now, in a stable order (corrections excepted)."""
        if s.phase == "over":
            return []
        if s.pending:
            return [Action("reveal", card) for card in sorted(set(s.deck[0]))]
        if s.phase == "draw":
            if self.app_bag:
                return [listed("draw")]
            bag_list = [c for c in range(7) for _ in range(s.bag[c])]
            k = min(s.draw_count, len(bag_list))
            picks = sorted(set(combinations_with_replacement(sorted(set(bag_list)), k)))
            return [
                Action("draw", *(COLOURS[c] for c in pick))
                for pick in picks
                if all(pick.count(c) <= s.bag[c] for c in set(pick))
            ]
        return self._legal_visits(s)

    def _legal_visits(self, s: State) -> list[Action]:
        hand = s.players[s.current].tokens
        acts = [action for c, action in _SUPPLY_VISITS if s.board[c]]
        if any(s.bag):
            if self.app_bag:
                acts.append(_OTTER)
            else:
                acts += [Action("visit", "otter", COLOURS[c]) for c in range(7) if s.bag[c]]
        acts += [listed("visit", "lemur", m) for m in s.missions]
        later = _legal_exchanges(s, hand)
        costs = self._costs
        for card in s.faceup:
            cost = costs.get(card)  # None for an empty space, or a cost the table has not told
            if cost is not None:
                for words in payments(cost, hand):
                    later.append(listed("visit", "hq", card, *words))
        if any(s.faceup) or not (acts or later):
            acts.append(_GATE)
        return acts + later

    # ------------------------------------------------------------------ apply

    def apply(self, state: State, action: Action | str) -> tuple[State, list[dict]]:
        """The state after ``action`` and the events a screen shows.

        Raises ``MalformedAction`` or ``IllegalAction``; ``state`` is never
        changed (the work is done on a copy).
        """
        action, handler = dispatch(self._handlers, state.phase, action)
        s = state.copy()
        events: list[dict] = []
        handler(self, s, action, events)
        return s, events

    def _do_draw(self, s: State, a: Action, events: list[dict]) -> None:
        if s.pending:
            raise IllegalAction("illegal.reveal_first")
        if s.phase != "draw":
            raise IllegalAction("illegal.already_drew")
        if self.app_bag:
            if len(a) != 1:
                raise IllegalAction("illegal.app_draws")
            colours = dealing.draw(s, s.draw_count)
        else:
            colours = [colour_word(w) for w in a[1:]]
            expected = min(s.draw_count, sum(s.bag))
            if len(colours) != expected:
                raise IllegalAction("illegal.draw_count", expected=expected)
            dealing.take_named(s, colours)
        dealing.hand_over(s, s.current, colours, events)
        self._after_draw(s, events)

    def _after_draw(self, s: State, events: list[dict]) -> None:
        if s.draw_count == SETUP_TOKENS:
            s.current = (s.current + 1) % self.n
            if s.current == s.first:
                s.draw_count = TURN_TOKENS
                events.append({"event": "turn", "player": s.current})
        else:
            s.phase, s.visits_left = "visit", VISITS

    def _do_visit(self, s: State, a: Action, events: list[dict]) -> None:
        if len(a) < 2 or a[1] not in self._visit_handlers:
            raise MalformedAction("action.unknown_location", location=a[1] if len(a) > 1 else "")
        if s.pending:
            raise IllegalAction("illegal.reveal_first")
        if s.phase == "draw":
            raise IllegalAction("illegal.draw_first")
        location = a[1]
        self._visit_handlers[location](self, s, a, events)
        s.visits_left -= 1
        events.append({"event": "visited", "player": s.current, "location": location})
        self._maybe_end_turn(s, events)

    def _visit_supply(self, s: State, a: Action, events: list[dict]) -> None:
        arity(a, 2)
        c = SUPPLY[a[1]]
        if not s.board[c]:
            raise IllegalAction("illegal.no_token_at", location=a[1], colour=COLOURS[c])
        s.board = add(s.board, c, -1)
        set_player(s, s.current, tokens=add(s.players[s.current].tokens, c))
        events.append({"event": "took", "player": s.current, "tokens": [COLOURS[c]]})

    def _visit_otter(self, s: State, a: Action, events: list[dict]) -> None:
        if not any(s.bag):
            raise IllegalAction("illegal.bag_empty")
        if self.app_bag:
            arity(a, 2)
            dealing.hand_over(s, s.current, dealing.draw(s, 1), events)
            return
        arity(a, 3)
        c = colour_word(a[2])
        if not s.bag[c]:
            raise IllegalAction("illegal.not_in_bag", colour=COLOURS[c])
        dealing.take_named(s, [c])
        dealing.hand_over(s, s.current, [c], events)

    def _visit_lemur(self, s: State, a: Action, events: list[dict]) -> None:
        arity(a, 3)
        mission = a[2]
        if mission not in s.missions:
            raise IllegalAction("illegal.mission_not_available", mission=mission)
        held = s.players[s.current].mission
        if held is None:
            s.missions = tuple(m for m in s.missions if m != mission)
        else:
            s.missions = tuple(held if m == mission else m for m in s.missions)
        set_player(s, s.current, mission=mission)
        events.append({"event": "mission", "player": s.current, "taken": mission, "returned": held})

    def _visit_gate(self, s: State, a: Action, events: list[dict]) -> None:
        """Nothing face up: refused, unless no other visit is possible (no passing)."""
        arity(a, 2)
        if not any(s.faceup) and self._legal_visits(s) != [_GATE]:
            raise IllegalAction("illegal.nothing_to_cycle")
        slots = [i for i, card in enumerate(s.faceup) if card is not None]
        cards = tuple(s.faceup[i] for i in slots)
        if self.app_deck:
            s.rng, order = rng.shuffled(s.rng, cards)
            s.deck += tuple((card,) for card in order)
        elif cards:
            s.deck += (tuple(sorted(cards)),)
        s.faceup = (None,) * len(s.faceup)
        events.append({"event": "cycled", "cards": list(cards)})
        for slot in slots:
            dealing.refill(s, slot, self.app_deck, events)

    def _visit_gastro(self, s: State, a: Action, events: list[dict]) -> None:
        arity(a, 3)
        give, get = exchange.line_of(a[2])
        hand = s.players[s.current].tokens
        given = give[0]  # every line of the table gives tokens of one colour
        if hand[given] < len(give):
            raise IllegalAction("illegal.not_held", colour=COLOURS[given])
        hand = discard(s, hand, given, len(give))
        for c in get:
            if c not in exchange.FROM_BAG_ONLY and s.board[c]:
                s.board = add(s.board, c, -1)
            elif s.bag[c]:
                s.bag = add(s.bag, c, -1)
            else:
                raise IllegalAction("illegal.cannot_receive", colour=COLOURS[c])
            hand = add(hand, c)
        set_player(s, s.current, tokens=hand)
        events.append(
            {
                "event": "exchanged",
                "player": s.current,
                "gave": [COLOURS[c] for c in give],
                "got": [COLOURS[c] for c in get],
            }
        )

    def _visit_hq(self, s: State, a: Action, events: list[dict]) -> None:
        if len(a) not in (3, 4, 5):
            raise MalformedAction("action.bad_arguments", action=str(a))
        card = a[2]
        if card not in s.faceup:
            raise IllegalAction("illegal.card_not_faceup", card=card)
        hand = s.players[s.current].tokens
        cost = self.cards.figurants[card].cost
        if cost is None:
            raise IllegalAction("illegal.cost_unknown", card=card)
        pay = price(card, cost, tuple(a[3:]), hand)
        for c in range(7):
            for _ in range(pay[c]):
                hand = discard(s, hand, c)
        player = s.players[s.current]
        set_player(s, s.current, tokens=hand, figurants=player.figurants + (card,))
        slot = s.faceup.index(card)
        s.faceup = s.faceup[:slot] + (None,) + s.faceup[slot + 1 :]
        events.append(
            {
                "event": "acquired",
                "player": s.current,
                "card": card,
                "paid": [COLOURS[c] for c in range(7) for _ in range(pay[c])],
            }
        )
        dealing.refill(s, slot, self.app_deck, events)

    def _do_reveal(self, s: State, a: Action, events: list[dict]) -> None:
        arity(a, 2)
        dealing.reveal(s, a[1], events)
        self._maybe_end_turn(s, events)

    def _maybe_end_turn(self, s: State, events: list[dict]) -> None:
        if s.pending or s.phase != "visit" or s.visits_left:
            return
        s.turns += 1
        nxt = (s.current + 1) % self.n
        if s.last_round and nxt == s.first:
            s.phase = "over"
            events.append({"event": "game_over"})
            return
        s.current, s.phase, s.draw_count = nxt, "draw", TURN_TOKENS
        events.append({"event": "turn", "player": nxt})

    def _do_correct(self, s: State, a: Action, events: list[dict]) -> None:
        correct(s, a, self.cards, events)
        self._maybe_end_turn(s, events)

    _handlers = {
        "draw": _do_draw,
        "visit": _do_visit,
        "reveal": _do_reveal,
        "correct": _do_correct,
    }
    _visit_handlers = {
        **dict.fromkeys(SUPPLY, _visit_supply),
        "otter": _visit_otter,
        "lemur": _visit_lemur,
        "gate": _visit_gate,
        "gastro": _visit_gastro,
        "hq": _visit_hq,
    }

    # ---------------------------------------------------------------- scoring

    def score(self, s: State) -> ScoreSheet:
        """The score sheet of the position, final or not; refused while a card held has
        an unknown value."""
        check_scorable(self, s)
        return score_players(self.cards, s.players)


def _legal_exchanges(s: State, hand: tuple) -> list[Action]:
    """Exchanges the current player can make (what is given goes back first)."""
    # Where each colour received comes from: white and black from the bag only, the others
    # from their supply or else the bag. Worked out once, not once per line of the table.
    bag = s.bag
    stock = list(map(add_counts, s.board, bag))
    for c in exchange.FROM_BAG_ONLY:
        stock[c] = bag[c]
    acts = []
    for given, count, lines in _EXCHANGES:
        if hand[given] >= count:
            for c, at_least, action in lines:
                if stock[c] >= at_least:
                    acts.append(action)
    return acts


# ``exchange.by_give`` with each line's action.
_EXCHANGES = tuple(
    (given, count, [(c, least, Action("visit", "gastro", text)) for c, least, text in lines])
    for given, count, lines in exchange.by_give()
)


_SUPPLY_VISITS = tuple((c, Action("visit", loc)) for loc, c in SUPPLY.items())
_OTTER = Action("visit", "otter")
_GATE = Action("visit", "gate")
