"""The actions of the locations on the advanced board.

The supply tiles (the Chimp and Gorilla enclosures, the Souvenir shop, the
storehouse) give one or two tokens of their colour; the Lemur enclosure
gives a face-up mission; the Zoo gate puts the face-up figurants or missions
under their deck and lays out new ones; the Gastro zone is one action of
several exchanges, each with tokens held from before it, closed by
``done``; Headquarters acquires a face-up figurant, after which Officer X's
die is rolled (``rules.pingwiny.advanced_officer``).

``Locations`` is mixed into ``AdvancedGame`` (``rules.pingwiny.advanced``),
which holds the turn sequence (``_expect``, ``_spend``) and ``_here``; the
split keeps each file short enough to read on a phone.
"""

from rules import rng
from rules.actions import Action, arity, listed
from rules.colours import BLACK, BLUE, COLOURS, GREEN, GREY, RED, WHITE, YELLOW
from rules.errors import IllegalAction, MalformedAction
from rules.pingwiny import dealing, exchange
from rules.pingwiny.advanced_cards import playable
from rules.pingwiny.advanced_state import AdvancedState, Seat
from rules.pingwiny.payments import discard, payments, price
from rules.pingwiny.state import NO_TOKENS, add, set_player

SUPPLY = {"chimp": BLUE, "gorilla": RED, "shop": YELLOW, "storehouse": GREEN}
MISSION_LIMIT = 2
GREY_REWARD_COST = 7


class Locations:
    """What a penguin does where it stands, in ``AdvancedGame``."""

    def _legal_location(self, s: AdvancedState, p: int) -> list[Action]:
        seat = s.players[p]
        location = s.layout[seat.square]
        if location in SUPPLY:
            c = SUPPLY[location]
            return [listed("take", str(n)) for n in (1, 2) if s.board[c] >= n]
        if location == "otter":
            return [listed("otter", s.layout[sq]) for sq in range(9) if sq != seat.square]
        if location == "lemur":
            if len(seat.missions) >= self._mission_limit(seat):
                return []
            return [listed("lemur", m) for m in s.mission_row if m is not None and self._known(m)]
        if location == "gate":
            acts = []
            if any(s.faceup):
                acts.append(listed("gate", "figurants"))
            if any(s.mission_row):
                acts.append(listed("gate", "missions"))
            return acts
        if location == "gastro":
            return [_GASTRO] if self._exchanges(s, p) else []
        return self._legal_acquisitions(s, p)

    def _legal_acquisitions(self, s: AdvancedState, p: int) -> list[Action]:
        hand = s.players[p].tokens
        acts = []
        for card in s.faceup:
            if card is not None and playable(self.cards.figurants[card]):
                for words in payments(self.cards.figurants[card].cost, hand):
                    acts.append(listed("hq", card, *words))
        return acts

    def _legal_gastro(self, s: AdvancedState) -> list[Action]:
        acts = [listed("exchange", text) for text in self._exchanges(s, s.current)]
        if s.exchanged:
            acts.append(_DONE)
        return acts

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

    def _do_lemur(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        arity(a, 2)
        p, seat = s.current, s.players[s.current]
        if self._here(s) != "lemur":
            raise IllegalAction("illegal.not_here", action="lemur")
        if a[1] not in s.mission_row:
            raise IllegalAction("illegal.mission_not_available", mission=a[1])
        if not self._known(a[1]):
            raise IllegalAction("illegal.mission_unknown", mission=a[1])
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
        give, get = exchange.line_of(a[1])
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
        if len(a) not in (2, 3, 4):
            raise MalformedAction("action.bad_arguments", action=str(a))
        if self._here(s) != "hq":
            raise IllegalAction("illegal.not_here", action="hq")
        self._acquire(s, s.current, a[1], tuple(a[2:]), events)
        s.stay = True
        s.actions_left -= 1
        self._roll_for_officer(s, events)

    def _acquire(self, s: AdvancedState, p: int, card: str, words, events: list[dict]) -> None:
        """Pay, the grey reward, the card taken, its space refilled; the die is due next.

        Headquarters and a card's ``acquire`` effect both come here, so both roll.
        """
        if card not in s.faceup:
            raise IllegalAction("illegal.card_not_faceup", card=card)
        figurant = self.cards.figurants[card]
        if not playable(figurant):
            raise IllegalAction("illegal.cost_unknown", card=card)
        hand = s.players[p].tokens
        pay = price(card, figurant.cost, words, hand)
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
        dealing.refill(s, slot, self.app_deck, events)
        low, high = figurant.officer_x
        s.officer = (p, low, high)

    def _known(self, mission: str) -> bool:
        """A mission can be taken once its types, steps and effect are known."""
        card = self.cards.missions[mission]
        return None not in (card.type, card.scoring) and mission in self.cards.mission_effects

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
        return card.score(held) > 0

    def _exchanges(self, s: AdvancedState, p: int) -> list[str]:
        """Exchanges possible with tokens held from before this action."""
        hand, fresh = s.players[p].tokens, s.fresh
        # Where each colour received comes from: white and black from the bag, the others
        # from their supply. Worked out once, not once per line of the table.
        stock = [s.bag[c] if c in (WHITE, BLACK) else s.board[c] for c in range(7)]
        texts = []
        for given, count, lines in exchange.by_give_cached():
            if hand[given] - fresh[given] >= count:
                for c, at_least, text in lines:
                    if stock[c] >= at_least:
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


_GASTRO = Action("gastro")
_DONE = Action("done")
