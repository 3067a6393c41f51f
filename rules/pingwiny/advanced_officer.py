"""Officer X: the die after an acquisition, the marker, the unmasking.

The die is rolled against the range of the figurant just acquired (at
Headquarters or by a card's ``acquire`` effect). On a hit the acquiring
player puts a marker on a tile without one (never Headquarters); every
penguin standing there is unmasked and loses a random token, in turn order
from the acquirer, the acquirer too when standing there. A card making the
other players discard a random token uses the same loss, and the ``lose``
phase when the table's bag is used. The eighth marker starts the last
round.

``OfficerX`` is mixed into ``AdvancedGame`` (``rules.pingwiny.advanced``),
which holds the turn sequence (``_expect``, ``_resume``) and ``_square``; the
split keeps each file short enough to read on a phone.
"""

from rules import rng
from rules.actions import Action, arity, colour_word, listed
from rules.colours import COLOURS
from rules.errors import IllegalAction, MalformedAction
from rules.pingwiny import board as geometry
from rules.pingwiny.advanced_state import AdvancedState
from rules.pingwiny.payments import discard
from rules.pingwiny.state import set_player

MARKERS = 8


class OfficerX:
    """The die, the markers and the unmasking of ``AdvancedGame``."""

    def _legal_roll(self, s: AdvancedState) -> list[Action]:
        return [Action("roll", str(n)) for n in range(1, 7)]

    def _legal_officer(self, s: AdvancedState) -> list[Action]:
        return [listed("officer", s.layout[sq]) for sq in self._free_squares(s)]

    def _legal_lose(self, s: AdvancedState) -> list[Action]:
        hand = s.players[s.losers[0]].tokens
        return [Action("lose", COLOURS[c]) for c in range(7) if hand[c]]

    def _do_roll(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "roll")
        arity(a, 2)
        if a[1] not in ("1", "2", "3", "4", "5", "6"):
            raise MalformedAction("action.bad_roll", roll=a[1])
        self._rolled(s, int(a[1]), events)

    def _roll_for_officer(self, s: AdvancedState, events: list[dict]) -> None:
        """ "After acquiring a figurant card, you must immediately roll the die." """
        if self.app_die:
            s.rng, roll = rng.below(s.rng, 6)
            self._rolled(s, roll + 1, events)
        else:
            s.phase = "roll"

    def _rolled(self, s: AdvancedState, roll: int, events: list[dict]) -> None:
        _, low, high = s.officer
        found = low <= roll <= high
        events.append({"event": "rolled", "roll": roll, "range": [low, high], "found": found})
        if found and self._free_squares(s):
            s.phase = "officer"
            return
        if found:
            events.append({"event": "no_marker_place"})
        self._back_to_turn(s, events)

    def _back_to_turn(self, s: AdvancedState, events: list[dict]) -> None:
        """Officer X or the tokens lost dealt with: on with the turn, or the final actions."""
        s.officer = None
        if s.final_left:
            self._next_final(s, events)
        else:
            s.phase = "act"
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
        s.losers = tuple(q for q in unmasked if any(s.players[q].tokens))
        if self.app_bag:
            for q in s.losers:
                s.rng, c = rng.pick_from_counts(s.rng, s.players[q].tokens)
                self._lose(s, q, c, events)
            s.losers = ()
        if s.losers:
            s.phase = "lose"
        else:
            self._back_to_turn(s, events)

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
            self._back_to_turn(s, events)

    def _lose(self, s: AdvancedState, q: int, c: int, events: list[dict]) -> None:
        """Player ``q`` discards a random token: unmasked by Officer X, or by a card's action."""
        set_player(s, q, tokens=discard(s, s.players[q].tokens, c))
        kind = "unmasked" if s.officer is not None else "lost"
        events.append({"event": kind, "player": q, "lost": COLOURS[c]})

    def _free_squares(self, s: AdvancedState) -> list[int]:
        if len(s.markers) >= MARKERS:
            return []
        return [sq for sq in range(9) if sq != geometry.HQ_SQUARE and sq not in s.markers]
