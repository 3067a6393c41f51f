"""The one-off actions of figurant cards and of the penguin card.

A figurant used for its action is discarded (it still scores); the penguin
card's action may be used once a game. What each action does is in
``rules.pingwiny.effects``; this module checks who may use which card, who
is protected from it, and who still has a final action to take.

``CardActions`` is mixed into ``AdvancedGame`` (``rules.pingwiny.advanced``),
which holds the turn sequence (``_expect``, ``_spend``, ``_next_final``); the
split keeps each file short enough to read on a phone.
"""

from rules.actions import Action
from rules.errors import IllegalAction, MalformedAction
from rules.pingwiny import effects
from rules.pingwiny.advanced_state import AdvancedState
from rules.pingwiny.state import set_player


class CardActions:
    """Figurant and penguin card actions of ``AdvancedGame``."""

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
        final = s.phase == "final"
        effects.apply(self, s, p, card, effect, tuple(a[2:]), events)
        seat = s.players[p]
        set_player(
            s,
            p,
            figurants=tuple(f for f in seat.figurants if f != card),
            discarded=seat.discarded + (card,),
        )
        events.append({"event": "used", "player": p, "card": card})
        self._card_done(s, events, final)

    def _do_penguin(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        p, seat = s.current, s.players[s.current]
        effect = self.cards.penguin_effects.get(seat.penguin)
        if seat.penguin_used:
            raise IllegalAction("illegal.penguin_used")
        if not effects.is_action(effect):
            raise IllegalAction("illegal.no_card_action", card=seat.penguin)
        effects.apply(self, s, p, seat.penguin, effect, tuple(a[1:]), events)
        set_player(s, p, penguin_used=True)
        events.append({"event": "used", "player": p, "card": seat.penguin})
        self._card_done(s, events, final=False)

    def _card_done(self, s: AdvancedState, events: list[dict], final: bool) -> None:
        """The action spent; an acquisition's die or the tokens the table names come first."""
        if not final:
            s.actions_left -= 1
        if s.officer is not None:
            self._roll_for_officer(s, events)
        elif s.losers:
            s.phase = "lose"
        elif final:
            self._next_final(s, events)
        else:
            self._resume(s, events)

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

    def immune(self, s: AdvancedState, q: int, card: str) -> bool:
        """Whether player ``q`` holds a card that protects from ``card``'s action (a
        figurant's: nothing protects from a penguin's)."""
        if card not in self.cards.figurants:
            return False
        return any(
            card in self.cards.immunities.get(f, ())
            for f in s.players[q].figurants + s.players[q].discarded
        )
