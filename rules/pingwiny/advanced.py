"""The advanced variant of Pingwiny z Madagaskaru.

A turn is four actions: move (one more to push aside a penguin blocking the
edge), rummage in the bag, a figurant card's or the penguin card's one-off
action, or the action of the location the penguin stands on. An
acquisition at Headquarters is followed by Officer X's die; a marker
unmasks every penguin on its tile. The game ends when the eighth marker is
on the board or the figurant deck runs out: the round is completed, then
each player may use one last figurant action, from the first player on.

Chance is explicit, as in the family variant: the app draws, shuffles and
rolls from the seeded source in the state, or the table does and the
actions carry the results. Readings of unclear rules are in
``docs/rules-interpretations.md``.
"""

from functools import cache

from rules import rng
from rules.actions import Action, arity, colour_word, dispatch
from rules.colours import BLACK, BLUE, COLOURS, GREEN, GREY, RED, WHITE, YELLOW
from rules.errors import IllegalAction, MalformedAction, SetupError
from rules.pingwiny import board as geometry
from rules.pingwiny import dealing, effects, exchange
from rules.pingwiny.advanced_cards import advanced_table
from rules.pingwiny.advanced_scoring import score_seats
from rules.pingwiny.advanced_state import AdvancedState, Seat
from rules.pingwiny.corrections import correct
from rules.pingwiny.options import Options
from rules.pingwiny.payments import discard, joker_word, parse_jokers, payments, price
from rules.pingwiny.scoring import ScoreSheet
from rules.pingwiny.state import NO_TOKENS, add, set_player

SUPPLY = {"chimp": BLUE, "gorilla": RED, "shop": YELLOW, "storehouse": GREEN}
TILES = ("chimp", "gorilla", "shop", "storehouse", "otter", "lemur", "gate", "gastro")
ACTIONS_PER_TURN = 4
SETUP_TOKENS = 5
END_TOKENS = 2
MARKERS = 8
MISSION_LIMIT = 2
GREY_REWARD_COST = 7


class AdvancedGame:
    """Static information of one advanced game, and its rules."""

    variant = "advanced"

    def __init__(self, catalogue, options: Options) -> None:
        self.options = options
        self.cards = advanced_table(catalogue, options.short)
        self.n = options.players
        self.app_bag = options.bag == "app"
        self.app_deck = options.deck == "app"
        self.app_die = options.die == "app"
        if options.layout is not None and (
            len(options.layout) != 9
            or options.layout[geometry.HQ_SQUARE] != "hq"
            or sorted(options.layout[:4] + options.layout[5:]) != sorted(TILES)
        ):
            raise SetupError("setup.layout")
        dealing.check_options(options, self.cards.penguins, self.cards.deck, self.app_deck)

    # ----------------------------------------------------------------- setup

    def new_state(self) -> AdvancedState:
        o = self.options
        seed, penguins, first = dealing.seats(rng.seed_state(o.seed), o, tuple(self.cards.penguins))
        layout = o.layout
        if layout is None:
            seed, tiles = rng.shuffled(seed, TILES)
            layout = tiles[:4] + ("hq",) + tiles[4:]
        seed, deck = dealing.shuffled_deck(seed, self.cards.deck, self.app_deck, o.deck_order)
        seed, missions = dealing.shuffled_deck(seed, self.cards.mission_deck, self.app_deck)
        s = AdvancedState.__new__(AdvancedState)
        s.players = tuple(
            Seat(p, NO_TOKENS, (), (), (), False, geometry.HQ_SQUARE, geometry.MIDDLE)
            for p in penguins
        )
        s.layout, s.markers = tuple(layout), ()
        tokens = self.cards.tokens
        s.bag, s.grey = add(tokens, GREY, -tokens[GREY]), tokens[GREY]
        s.board, s.box, s.fresh = NO_TOKENS, NO_TOKENS, NO_TOKENS
        s.deck, s.faceup = deck, (None,) * (self.n + 2)
        s.mission_deck, s.mission_row = missions, (None,) * (self.n + 1)
        s.current, s.first, s.turns, s.last_round, s.rng = first, first, 0, False, seed
        s.phase, s.actions_left, s.stay, s.exchanged = "draw", 0, False, False
        s.pending, s.pending_missions, s.officer, s.losers, s.final_left = (), (), None, (), ()
        events: list[dict] = []
        for slot in range(self.n + 2):
            dealing.refill(s, slot, self.app_deck, events)
        for slot in range(self.n + 1):
            self._refill_mission(s, slot, events)
        if self.app_bag:
            for _ in range(self.n):
                self._draw_app(s, SETUP_TOKENS, events)
                self._after_setup_draw(s, events)
        return s

    # --------------------------------------------------------- legal actions

    def legal_actions(self, s: AdvancedState) -> list[Action]:
        """Every legal action now, in a stable order (corrections excepted)."""
        if s.phase == "over":
            return []
        if s.pending:
            return [Action("reveal", c) for c in sorted(set(s.deck[0]))]
        if s.pending_missions:
            return [Action("reveal-mission", m) for m in sorted(set(s.mission_deck[0]))]
        return self._phase_actions[s.phase](self, s)

    def _legal_draw(self, s: AdvancedState) -> list[Action]:
        if self.app_bag:
            return [Action("draw")]
        count = min(SETUP_TOKENS if s.phase == "draw" else END_TOKENS, sum(s.bag))
        return [Action("draw", *pick) for pick in effects._bag_picks(s.bag, count)]

    def _legal_act(self, s: AdvancedState) -> list[Action]:
        p = s.current
        seat = s.players[p]
        acts = self._legal_moves(s, p)
        if self._can_rummage(s, seat):
            if self.app_bag:
                acts.append(_RUMMAGE)
            else:
                acts += [Action("rummage", COLOURS[c]) for c in range(7) if s.bag[c]]
        acts += self._legal_location(s, p)
        for card in seat.figurants:
            effect = self.cards.figurants[card].effect
            if effects.is_action(effect):
                acts += [Action("use", card, *w) for w in effects.options(self, s, p, card, effect)]
        effect = self.cards.penguin_effects.get(seat.penguin)
        if not seat.penguin_used and effects.is_action(effect):
            acts += [Action("penguin", *w) for w in effects.options(self, s, p, None, effect)]
        return acts or [_PASS]

    def _legal_moves(self, s: AdvancedState, p: int) -> list[Action]:
        if s.stay:
            return []
        seat = s.players[p]
        acts = []
        for target in geometry.ADJACENT[seat.square]:
            cost = 1 + (self._blocker(s, p, seat.square, target) is not None)
            if cost <= s.actions_left:
                for spot in _spots_after_entry(s, p, seat.square, target):
                    acts.append(Action("move", s.layout[target], spot))
        return acts

    def _legal_location(self, s: AdvancedState, p: int) -> list[Action]:
        seat = s.players[p]
        location = s.layout[seat.square]
        if location in SUPPLY:
            c = SUPPLY[location]
            return [Action("take", str(n)) for n in (1, 2) if s.board[c] >= n]
        if location == "otter":
            return [
                Action("otter", s.layout[sq], spot)
                for sq in range(9)
                if sq != seat.square
                for spot in effects.free_spots(s, sq, p)
            ]
        if location == "lemur":
            if len(seat.missions) >= self._mission_limit(seat):
                return []
            return [Action("lemur", m) for m in s.mission_row if m is not None]
        if location == "gate":
            acts = []
            if any(s.faceup):
                acts.append(Action("gate", "figurants"))
            if any(s.mission_row):
                acts.append(Action("gate", "missions"))
            return acts
        if location == "gastro":
            return [_GASTRO] if self._exchanges(s, p) else []
        return self._legal_acquisitions(s, p)

    def _legal_acquisitions(self, s: AdvancedState, p: int) -> list[Action]:
        hand = s.players[p].tokens
        acts = []
        for card in s.faceup:
            if card is not None:
                for jokers in payments(self.cards.figurants[card].cost, hand):
                    acts.append(_hq(card, jokers))
        return acts

    def _legal_gastro(self, s: AdvancedState) -> list[Action]:
        acts = [Action("exchange", text) for text in self._exchanges(s, s.current)]
        if s.exchanged:
            acts.append(_DONE)
        return acts

    def _legal_roll(self, s: AdvancedState) -> list[Action]:
        return [Action("roll", str(n)) for n in range(1, 7)]

    def _legal_officer(self, s: AdvancedState) -> list[Action]:
        return [Action("officer", s.layout[sq]) for sq in self._free_squares(s)]

    def _legal_lose(self, s: AdvancedState) -> list[Action]:
        hand = s.players[s.losers[0]].tokens
        return [Action("lose", COLOURS[c]) for c in range(7) if hand[c]]

    def _legal_final(self, s: AdvancedState) -> list[Action]:
        p = s.current
        acts = []
        for card in s.players[p].figurants:
            effect = self.cards.figurants[card].effect
            if effects.is_action(effect):
                acts += [Action("use", card, *w) for w in effects.options(self, s, p, card, effect)]
        return acts + [_PASS]

    _phase_actions = {
        "draw": _legal_draw,
        "end_draw": _legal_draw,
        "act": _legal_act,
        "gastro": _legal_gastro,
        "roll": _legal_roll,
        "officer": _legal_officer,
        "lose": _legal_lose,
        "final": _legal_final,
    }

    # ------------------------------------------------------------------ apply

    def apply(self, state: AdvancedState, action: Action | str) -> tuple[AdvancedState, list[dict]]:
        """The state after ``action`` and its events; ``state`` itself never changes."""
        action, handler = dispatch(self._handlers, state.phase, action)
        if action.verb not in ("reveal", "reveal-mission", "correct") and (
            state.pending or state.pending_missions
        ):
            raise IllegalAction("illegal.reveal_first")
        if action.verb == "reveal-mission" and state.pending:
            raise IllegalAction("illegal.reveal_first")  # figurants are laid out first
        s = state.copy()
        events: list[dict] = []
        handler(self, s, action, events)
        return s, events

    def _expect(self, s: AdvancedState, *phases: str) -> None:
        if s.phase not in phases:
            raise IllegalAction(f"illegal.phase_{s.phase}")

    # draws ---------------------------------------------------------------

    def _do_draw(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "draw", "end_draw")
        count = min(SETUP_TOKENS if s.phase == "draw" else END_TOKENS, sum(s.bag))
        if self.app_bag:
            _no_colours_named(a)
            self._draw_app(s, count, events)
        else:
            colours = [colour_word(w) for w in a[1:]]
            if len(colours) != count:
                raise IllegalAction("illegal.draw_count", expected=count)
            self._draw_table(s, s.current, colours, events)
        if s.phase == "draw":
            self._after_setup_draw(s, events)
        else:
            self._next_turn(s, events)

    def _draw_app(self, s: AdvancedState, count: int, events: list[dict]) -> None:
        dealing.hand_over(s, s.current, dealing.draw(s, count), events)

    def _draw_table(self, s: AdvancedState, p: int, colours: list[int], events: list[dict]) -> None:
        dealing.take_named(s, colours)
        dealing.hand_over(s, p, colours, events)

    def _after_setup_draw(self, s: AdvancedState, events: list[dict]) -> None:
        s.current = (s.current + 1) % self.n
        if s.current == s.first:
            self._start_turn(s, s.first, events)

    # actions -------------------------------------------------------------

    def _do_move(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        arity(a, 3)
        _spot_word(a)
        p, seat = s.current, s.players[s.current]
        target, spot = self._square(s, a[1]), a[2]
        if s.stay:
            raise IllegalAction("illegal.stay_at_hq")
        if target not in geometry.ADJACENT[seat.square]:
            raise IllegalAction("illegal.not_adjacent", location=a[1])
        blocker = self._blocker(s, p, seat.square, target)
        cost = 1 + (blocker is not None)
        if cost > s.actions_left:
            raise IllegalAction("illegal.push_needs_two")
        if blocker is not None:
            set_player(s, blocker, spot=geometry.MIDDLE)
            events.append({"event": "pushed", "player": blocker, "by": p})
        if spot not in effects.free_spots(s, target, p):
            raise IllegalAction("illegal.spot_taken", spot=spot)
        set_player(s, p, square=target, spot=spot)
        events.append({"event": "moved", "player": p, "location": a[1], "spot": spot})
        self._spend(s, cost, events)

    def _do_rummage(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        if not self._can_rummage(s, s.players[s.current]):
            raise IllegalAction("illegal.no_bag_symbol")
        if self.app_bag:
            _no_colours_named(a)
            self._draw_app(s, 1, events)
        else:
            if len(a) != 2:
                raise IllegalAction("illegal.draw_count", expected=1)
            self._draw_table(s, s.current, [colour_word(a[1])], events)
        self._spend(s, 1, events)

    def _do_take(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        arity(a, 2)
        if a[1] not in ("1", "2"):
            raise MalformedAction("action.bad_arguments", action=str(a))
        location = self._here(s)
        if location not in SUPPLY:
            raise IllegalAction("illegal.not_here", action="take")
        c, n = SUPPLY[location], int(a[1])
        if s.board[c] < n:
            raise IllegalAction("illegal.no_token_at", location=location, colour=COLOURS[c])
        s.board = add(s.board, c, -n)
        set_player(s, s.current, tokens=add(s.players[s.current].tokens, c, n))
        events.append(
            {"event": "took", "player": s.current, "from": location, "tokens": [COLOURS[c]] * n}
        )
        self._spend(s, 1, events)

    def _do_otter(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        arity(a, 3)
        _spot_word(a)
        if self._here(s) != "otter":
            raise IllegalAction("illegal.not_here", action="otter")
        target = self._square(s, a[1])
        p = s.current
        if target == s.players[p].square:
            raise IllegalAction("illegal.already_there", location=a[1])
        if a[2] not in effects.free_spots(s, target, p):
            raise IllegalAction("illegal.spot_taken", spot=a[2])
        set_player(s, p, square=target, spot=a[2])
        events.append({"event": "moved", "player": p, "location": a[1], "spot": a[2]})
        self._spend(s, 1, events)

    def _do_lemur(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        arity(a, 2)
        p, seat = s.current, s.players[s.current]
        if self._here(s) != "lemur":
            raise IllegalAction("illegal.not_here", action="lemur")
        if a[1] not in s.mission_row:
            raise IllegalAction("illegal.mission_not_available", mission=a[1])
        if len(seat.missions) >= self._mission_limit(seat):
            raise IllegalAction("illegal.missions_full")
        slot = s.mission_row.index(a[1])
        s.mission_row = s.mission_row[:slot] + (None,) + s.mission_row[slot + 1 :]
        set_player(s, p, missions=seat.missions + (a[1],))
        events.append({"event": "mission", "player": p, "taken": a[1], "returned": None})
        self._refill_mission(s, slot, events)
        self._spend(s, 1, events)

    def _do_gate(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        arity(a, 2)
        if a[1] not in ("figurants", "missions"):
            raise MalformedAction("action.bad_arguments", action=str(a))
        if self._here(s) != "gate":
            raise IllegalAction("illegal.not_here", action="gate")
        if a[1] == "figurants":
            if not any(s.faceup):
                raise IllegalAction("illegal.nothing_to_cycle")
            s.faceup, s.deck, slots = self._cycle(s, s.faceup, s.deck, events, "figurants")
            for slot in slots:
                dealing.refill(s, slot, self.app_deck, events)
        else:
            if not any(s.mission_row):
                raise IllegalAction("illegal.nothing_to_cycle")
            row, deck, slots = self._cycle(s, s.mission_row, s.mission_deck, events, "missions")
            s.mission_row, s.mission_deck = row, deck
            for slot in slots:
                self._refill_mission(s, slot, events)
        self._spend(s, 1, events)

    def _cycle(self, s: AdvancedState, row, deck, events, what: str):
        """Face-up cards under their deck, shuffled; returns the emptied row and spaces."""
        slots = [i for i, c in enumerate(row) if c is not None]
        cards = tuple(row[i] for i in slots)
        if self.app_deck:
            s.rng, order = rng.shuffled(s.rng, cards)
            deck = deck + tuple((c,) for c in order)
        else:
            deck = deck + (tuple(sorted(cards)),)
        events.append({"event": "cycled", "what": what, "cards": list(cards)})
        return (None,) * len(row), deck, slots

    def _do_gastro(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        arity(a, 1)
        if self._here(s) != "gastro":
            raise IllegalAction("illegal.not_here", action="gastro")
        if not self._exchanges(s, s.current):
            raise IllegalAction("illegal.no_exchange")
        s.phase, s.fresh, s.exchanged = "gastro", NO_TOKENS, False

    def _do_exchange(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "gastro")
        arity(a, 2)
        line = exchange.PARSED.get(a[1]) or exchange.parse(a[1])
        if line is None:
            raise MalformedAction("action.bad_exchange", exchange=a[1])
        give, get = line
        if GREY in get:
            raise IllegalAction("illegal.exchange_for_grey")
        if line not in exchange.LINE_SET:
            raise IllegalAction("illegal.exchange_not_in_table", exchange=a[1])
        p = s.current
        hand = s.players[p].tokens
        for c in set(give):
            if hand[c] - s.fresh[c] < give.count(c):
                raise IllegalAction("illegal.not_held_before", colour=COLOURS[c])
        for c in get:
            available = s.bag[c] + give.count(c) if c in (WHITE, BLACK) else s.board[c]
            if available < get.count(c):
                raise IllegalAction("illegal.cannot_receive", colour=COLOURS[c])
        for c in give:
            hand = discard(s, hand, c)
        for c in get:
            if c in (WHITE, BLACK):
                s.bag = add(s.bag, c, -1)
            else:
                s.board = add(s.board, c, -1)
            hand = add(hand, c)
            s.fresh = add(s.fresh, c)
        set_player(s, p, tokens=hand)
        s.exchanged = True
        events.append(
            {
                "event": "exchanged",
                "player": p,
                "gave": [COLOURS[c] for c in give],
                "got": [COLOURS[c] for c in get],
            }
        )

    def _do_done(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "gastro")
        arity(a, 1)
        if not s.exchanged:
            raise IllegalAction("illegal.no_exchange")
        s.phase, s.fresh, s.exchanged = "act", NO_TOKENS, False
        self._spend(s, 1, events)

    def _do_hq(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        if len(a) not in (2, 3):
            raise MalformedAction("action.bad_arguments", action=str(a))
        if self._here(s) != "hq":
            raise IllegalAction("illegal.not_here", action="hq")
        card = a[1]
        if card not in s.faceup:
            raise IllegalAction("illegal.card_not_faceup", card=card)
        jokers = parse_jokers(a[2]) if len(a) == 3 else ()
        figurant = self.cards.figurants[card]
        p = s.current
        hand = s.players[p].tokens
        pay = price(card, figurant.cost, jokers, hand)
        for c in range(7):
            for _ in range(pay[c]):
                hand = discard(s, hand, c)
        if sum(figurant.cost) == GREY_REWARD_COST and s.grey:
            s.grey -= 1
            hand = add(hand, GREY)
            events.append({"event": "grey_reward", "player": p})
        set_player(s, p, tokens=hand, figurants=s.players[p].figurants + (card,))
        slot = s.faceup.index(card)
        s.faceup = s.faceup[:slot] + (None,) + s.faceup[slot + 1 :]
        events.append(
            {
                "event": "acquired",
                "player": p,
                "card": card,
                "paid": [COLOURS[c] for c in range(7) for _ in range(pay[c])],
            }
        )
        s.stay = True
        s.actions_left -= 1
        dealing.refill(s, slot, self.app_deck, events)
        low, high = figurant.officer_x
        s.officer = (p, low, high)
        if self.app_die:
            s.rng, roll = rng.below(s.rng, 6)
            self._rolled(s, roll + 1, events)
        else:
            s.phase = "roll"

    def _do_roll(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "roll")
        arity(a, 2)
        if a[1] not in ("1", "2", "3", "4", "5", "6"):
            raise MalformedAction("action.bad_roll", roll=a[1])
        self._rolled(s, int(a[1]), events)

    def _rolled(self, s: AdvancedState, roll: int, events: list[dict]) -> None:
        _, low, high = s.officer
        found = low <= roll <= high
        events.append({"event": "rolled", "roll": roll, "range": [low, high], "found": found})
        if found and self._free_squares(s):
            s.phase = "officer"
            return
        if found:
            events.append({"event": "no_marker_place"})
        s.officer, s.phase = None, "act"
        self._resume(s, events)

    def _do_officer(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "officer")
        arity(a, 2)
        square = self._square(s, a[1])
        if square not in self._free_squares(s):
            raise IllegalAction("illegal.marker_not_there", location=a[1])
        acquirer = s.officer[0]
        s.markers = tuple(sorted(s.markers + (square,)))
        order = [(acquirer + i) % self.n for i in range(self.n)]
        unmasked = [q for q in order if s.players[q].square == square]
        events.append({"event": "officer_x", "location": a[1], "unmasked": unmasked})
        if len(s.markers) == MARKERS and not s.last_round:
            s.last_round = True
            events.append({"event": "last_round", "why": "officer_x"})
        s.officer = None
        s.losers = tuple(q for q in unmasked if any(s.players[q].tokens))
        if self.app_bag:
            for q in s.losers:
                s.rng, c = rng.pick_from_counts(s.rng, s.players[q].tokens)
                self._lose(s, q, c, events)
            s.losers = ()
        if s.losers:
            s.phase = "lose"
        else:
            s.phase = "act"
            self._resume(s, events)

    def _do_lose(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "lose")
        arity(a, 2)
        c = colour_word(a[1])
        q = s.losers[0]
        if not s.players[q].tokens[c]:
            raise IllegalAction("illegal.not_held", colour=COLOURS[c])
        self._lose(s, q, c, events)
        s.losers = s.losers[1:]
        if not s.losers:
            s.phase = "act"
            self._resume(s, events)

    def _lose(self, s: AdvancedState, q: int, c: int, events: list[dict]) -> None:
        set_player(s, q, tokens=discard(s, s.players[q].tokens, c))
        events.append({"event": "unmasked", "player": q, "lost": COLOURS[c]})

    def _do_use(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act", "final")
        if len(a) < 2:
            raise MalformedAction("action.bad_arguments", action=str(a))
        p, card = s.current, a[1]
        seat = s.players[p]
        if card not in seat.figurants:
            raise IllegalAction("illegal.card_not_held", card=card)
        effect = self.cards.figurants[card].effect
        if not effects.is_action(effect):
            raise IllegalAction("illegal.no_card_action", card=card)
        effects.apply(self, s, p, card, effect, tuple(a[2:]), events)
        seat = s.players[p]
        set_player(
            s,
            p,
            figurants=tuple(f for f in seat.figurants if f != card),
            discarded=seat.discarded + (card,),
        )
        events.append({"event": "used", "player": p, "card": card})
        if s.phase == "final":
            self._next_final(s, events)
        else:
            self._spend(s, 1, events)

    def _do_penguin(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        p, seat = s.current, s.players[s.current]
        effect = self.cards.penguin_effects.get(seat.penguin)
        if seat.penguin_used:
            raise IllegalAction("illegal.penguin_used")
        if not effects.is_action(effect):
            raise IllegalAction("illegal.no_card_action", card=seat.penguin)
        effects.apply(self, s, p, None, effect, tuple(a[1:]), events)
        set_player(s, p, penguin_used=True)
        events.append({"event": "used", "player": p, "card": seat.penguin})
        self._spend(s, 1, events)

    def _do_pass(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        arity(a, 1)
        if s.phase == "final":
            events.append({"event": "passed", "player": s.current})
            self._next_final(s, events)
            return
        self._expect(s, "act")
        if self._legal_act(s) != [_PASS]:
            raise IllegalAction("illegal.pass_while_able")
        events.append({"event": "passed", "player": s.current, "actions": s.actions_left})
        self._spend(s, s.actions_left, events)

    def _do_reveal(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        arity(a, 2)
        dealing.reveal(s, a[1], events)
        self._resume(s, events)

    def _do_reveal_mission(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        arity(a, 2)
        if not s.pending_missions:
            raise IllegalAction("illegal.no_reveal_expected")
        s.mission_deck = dealing.take_from_top(s.mission_deck, a[1])
        slot, s.pending_missions = s.pending_missions[0], s.pending_missions[1:]
        s.mission_row = s.mission_row[:slot] + (a[1],) + s.mission_row[slot + 1 :]
        events.append({"event": "mission_revealed", "slot": slot, "mission": a[1]})
        self._resume(s, events)

    def _do_correct(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        if len(a) > 1 and a[1] == "mission":
            raise IllegalAction("illegal.correct_mission_advanced")
        correct(s, a, self.cards)
        events.append({"event": "corrected", "action": str(a)})

    _handlers = {
        "draw": _do_draw,
        "move": _do_move,
        "rummage": _do_rummage,
        "take": _do_take,
        "otter": _do_otter,
        "lemur": _do_lemur,
        "gate": _do_gate,
        "gastro": _do_gastro,
        "exchange": _do_exchange,
        "done": _do_done,
        "hq": _do_hq,
        "roll": _do_roll,
        "officer": _do_officer,
        "lose": _do_lose,
        "use": _do_use,
        "penguin": _do_penguin,
        "pass": _do_pass,
        "reveal": _do_reveal,
        "reveal-mission": _do_reveal_mission,
        "correct": _do_correct,
    }

    # -------------------------------------------------------- turn sequence

    def _spend(self, s: AdvancedState, cost: int, events: list[dict]) -> None:
        s.actions_left -= cost
        self._resume(s, events)

    def _resume(self, s: AdvancedState, events: list[dict]) -> None:
        """After anything: end the turn once four actions are done and nothing is pending."""
        if s.pending or s.pending_missions or s.phase != "act" or s.actions_left:
            return
        seat = s.players[s.current]
        if self._can_rummage(s, seat):
            s.phase = "end_draw"
            if self.app_bag:
                self._draw_app(s, END_TOKENS, events)
                self._next_turn(s, events)
            return
        self._next_turn(s, events)

    def _next_turn(self, s: AdvancedState, events: list[dict]) -> None:
        s.turns += 1
        s.stay = False  # the stay on Headquarters lasts until the end of the turn
        nxt = (s.current + 1) % self.n
        if s.last_round and nxt == s.first:
            order = [(s.first + i) % self.n for i in range(self.n)]
            s.final_left = tuple(q for q in order if self._holds_card_action(s, q))
            events.append({"event": "final_actions", "players": list(s.final_left)})
            self._next_final(s, events, first=True)
            return
        self._start_turn(s, nxt, events)

    def _start_turn(self, s: AdvancedState, p: int, events: list[dict]) -> None:
        s.current, s.phase, s.actions_left = p, "act", ACTIONS_PER_TURN
        events.append({"event": "turn", "player": p})

    def _next_final(self, s: AdvancedState, events: list[dict], first: bool = False) -> None:
        if not first:
            s.final_left = s.final_left[1:]
        # Whether a card can be used is known only when the player's moment comes:
        # an earlier final action (a token given) may make it usable, or not.
        while s.final_left and not self._has_card_action(s, s.final_left[0]):
            s.final_left = s.final_left[1:]
        if s.final_left:
            s.current, s.phase = s.final_left[0], "final"
        else:
            s.phase = "over"
            events.append({"event": "game_over"})

    # ------------------------------------------------------------- helpers

    def _here(self, s: AdvancedState) -> str:
        return s.layout[s.players[s.current].square]

    def _square(self, s: AdvancedState, location: str) -> int:
        if location not in s.layout:
            raise MalformedAction("action.unknown_location", location=location)
        return s.layout.index(location)

    def _blocker(self, s: AdvancedState, p: int, origin: int, target: int) -> int | None:
        """The penguin standing on the edge of ``target`` that faces ``origin``."""
        edge = geometry.EDGE_TOWARDS[target, origin]
        for q, seat in enumerate(s.players):
            if q != p and seat.square == target and seat.spot == edge:
                return q
        return None

    def _can_rummage(self, s: AdvancedState, seat: Seat) -> bool:
        return seat.square != geometry.HQ_SQUARE and seat.square not in s.markers and any(s.bag)

    def _free_squares(self, s: AdvancedState) -> list[int]:
        if len(s.markers) >= MARKERS:
            return []
        return [sq for sq in range(9) if sq != geometry.HQ_SQUARE and sq not in s.markers]

    def _mission_limit(self, seat: Seat) -> int:
        extra = any(
            self.cards.mission_effects.get(m) == "extra_mission" and self._mission_done(seat, m)
            for m in seat.missions
        )
        return MISSION_LIMIT + extra

    def _mission_done(self, seat: Seat, mission: str) -> bool:
        """A mission counts as completed once it would score points."""
        card = self.cards.missions[mission]
        held = [self.cards.figurants[f] for f in seat.figurants + seat.discarded]
        return card.points_for(sum(1 for f in held if f.type == card.type)) > 0

    def _holds_card_action(self, s: AdvancedState, p: int) -> bool:
        """Whether player ``p`` still holds a figurant card with an action, usable or not."""
        return any(
            effects.is_action(self.cards.figurants[f].effect) for f in s.players[p].figurants
        )

    def _has_card_action(self, s: AdvancedState, p: int) -> bool:
        return any(
            effects.is_action(self.cards.figurants[f].effect)
            and effects.options(self, s, p, f, self.cards.figurants[f].effect)
            for f in s.players[p].figurants
        )

    def immune(self, s: AdvancedState, q: int, card: str | None) -> bool:
        """Whether player ``q`` holds a card that protects from ``card``'s action."""
        if card is None:
            return False
        return any(
            card in self.cards.immunities.get(f, ())
            for f in s.players[q].figurants + s.players[q].discarded
        )

    def _exchanges(self, s: AdvancedState, p: int) -> list[str]:
        """Exchanges possible with tokens held from before this action."""
        hand, fresh = s.players[p].tokens, s.fresh
        texts = []
        for given, count, lines in exchange.by_give_cached():
            if hand[given] - fresh[given] >= count:
                for c, need, returned, text in lines:
                    if c in (WHITE, BLACK):
                        if s.bag[c] + returned >= need:
                            texts.append(text)
                    elif s.board[c] >= need:
                        texts.append(text)
        return texts

    def _refill_mission(self, s: AdvancedState, slot: int, events: list[dict]) -> None:
        if s.mission_deck_size - len(s.pending_missions) == 0:
            return
        if not self.app_deck:
            s.pending_missions += (slot,)
            return
        (mission,), s.mission_deck = s.mission_deck[0], s.mission_deck[1:]
        s.mission_row = s.mission_row[:slot] + (mission,) + s.mission_row[slot + 1 :]
        events.append({"event": "mission_revealed", "slot": slot, "mission": mission})

    # ---------------------------------------------------------------- score

    def score(self, s: AdvancedState) -> ScoreSheet:
        return score_seats(self.cards, s.players)


def _spots_after_entry(s: AdvancedState, p: int, origin: int, target: int) -> list[str]:
    """Free spots on ``target`` once a blocker on the entry edge has been pushed aside."""
    entry = geometry.EDGE_TOWARDS[target, origin]
    spots = effects.free_spots(s, target, p)
    if entry not in spots and entry in geometry.INNER_EDGES[target]:
        spots = spots + [entry]
    return [spot for spot in geometry.SPOTS if spot in spots]


def _no_colours_named(a: Action) -> None:
    """With the app's bag the app draws: colours named by the table are refused."""
    if len(a) != 1:
        raise IllegalAction("illegal.app_draws")


def _spot_word(a: Action) -> None:
    """Refuse a place on a tile that is not the middle or an edge (``n``, ``e``, ``s``, ``w``)."""
    if a[2] not in geometry.SPOTS:
        raise MalformedAction("action.bad_arguments", action=str(a))


@cache
def _hq(card: str, jokers: tuple[int, ...]) -> Action:
    return Action("hq", card, *joker_word(jokers))


_RUMMAGE = Action("rummage")
_GASTRO = Action("gastro")
_DONE = Action("done")
_PASS = Action("pass")
