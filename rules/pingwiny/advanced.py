"""The advanced variant of Pingwiny z Madagaskaru.

A turn is four actions: move (one more to push aside a penguin blocking the
edge), block (take a blockade field of the tile, or its middle), rummage in
the bag, a figurant card's or the penguin card's one-off action, or the
action of the location the penguin stands on. An
acquisition at Headquarters is followed by Officer X's die; a marker
unmasks every penguin on its tile. The game ends when the eighth marker is
on the board or the figurant deck runs out: the round is completed, then
each player may use one last figurant action, from the first player on.

Chance is explicit, as in the family variant: the app draws, shuffles and
rolls from the seeded source in the state, or the table does and the
actions carry the results. Readings of unclear rules are in
``docs/rules-interpretations.md``.
"""

from rules import rng
from rules.actions import Action, arity, colour_word, dispatch, listed
from rules.colours import COLOURS, GREY
from rules.errors import IllegalAction, MalformedAction, SetupError
from rules.pingwiny import board as geometry
from rules.pingwiny import dealing, effects
from rules.pingwiny.advanced_card_actions import CardActions
from rules.pingwiny.advanced_cards import advanced_table
from rules.pingwiny.advanced_locations import GREY_REWARD_COST, MISSION_LIMIT, SUPPLY, Locations
from rules.pingwiny.advanced_moves import Moves, no_colours_named
from rules.pingwiny.advanced_officer import MARKERS, OfficerX
from rules.pingwiny.advanced_scoring import score_seats
from rules.pingwiny.advanced_state import AdvancedState, Seat
from rules.pingwiny.corrections import correct
from rules.pingwiny.options import Options
from rules.pingwiny.scoring import ScoreSheet
from rules.pingwiny.state import NO_TOKENS, add
from rules.pingwiny.unknowns import check_scorable

__all__ = [
    "ACTIONS_PER_TURN",
    "END_TOKENS",
    "GREY_REWARD_COST",
    "MARKERS",
    "MISSION_LIMIT",
    "SETUP_TOKENS",
    "SUPPLY",
    "TILES",
    "AdvancedGame",
]

TILES = ("chimp", "gorilla", "shop", "storehouse", "otter", "lemur", "gate", "gastro")
ACTIONS_PER_TURN = 4
SETUP_TOKENS = 5
END_TOKENS = 2


class AdvancedGame(Moves, Locations, OfficerX, CardActions):
    """Static information of one advanced game, and its rules.

    This class holds setup, the tables of legal actions and handlers, and the
    turn sequence; the actions themselves are in its mixins: ``Moves``
    (``advanced_moves``), ``Locations`` (``advanced_locations``), ``OfficerX``
    (``advanced_officer``) and ``CardActions`` (``advanced_card_actions``).
    The tables name the mixins' methods themselves, so a step costs no extra
    call for the split.
    """

    variant = "advanced"

    def __init__(self, catalogue, options: Options) -> None:
        self.options = options
        self.cards = advanced_table(catalogue, options.short)
        self.n = options.players
        self.app_bag = options.bag == "app"
        dealing.check_mix(self.cards.mix_known, self.app_bag)
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
            return [listed("draw")]
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
                acts += [listed("use", card, *w) for w in effects.options(self, s, p, card, effect)]
        effect = self.cards.penguin_effects.get(seat.penguin)
        if not seat.penguin_used and effects.is_action(effect):
            acts += [
                listed("penguin", *w) for w in effects.options(self, s, p, seat.penguin, effect)
            ]
        return acts  # never empty: a Block (or a step) is always possible, see _do_pass

    def _legal_final(self, s: AdvancedState) -> list[Action]:
        p = s.current
        acts = []
        for card in s.players[p].figurants:
            effect = self.cards.figurants[card].effect
            if effects.is_action(effect):
                acts += [listed("use", card, *w) for w in effects.options(self, s, p, card, effect)]
        return acts + [_PASS]

    _phase_actions = {
        "draw": _legal_draw,
        "end_draw": _legal_draw,
        "act": _legal_act,
        "gastro": Locations._legal_gastro,
        "roll": OfficerX._legal_roll,
        "officer": OfficerX._legal_officer,
        "lose": OfficerX._legal_lose,
        "final": _legal_final,
    }

    # ------------------------------------------------------------------ apply

    def apply(self, state: AdvancedState, action: Action | str) -> tuple[AdvancedState, list[dict]]:
        """The state after ``action`` and its events; ``state`` itself never changes."""
        action, handler = dispatch(self._handlers, state.phase, action)
        if (state.pending or state.pending_missions) and action.verb not in _WHILE_PENDING:
            raise IllegalAction("illegal.reveal_first")
        if state.pending and action.verb == "reveal-mission":
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
            no_colours_named(a)
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

    # pass, reveals, corrections ------------------------------------------

    def _do_pass(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        arity(a, 1)
        if s.phase == "final":
            events.append({"event": "passed", "player": s.current})
            self._next_final(s, events)
            return
        # "In your turn you must perform 4 actions." With Block an action of its own, one is
        # always possible: a penguin on a blockade field may go back to the middle, one in the
        # middle may take a free field; every field of its tile taken needs more penguins than
        # the game has left to also block every step away (Headquarters has four fields).
        self._expect(s, "act")
        raise IllegalAction("illegal.pass_while_able")

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
        correct(s, a, self.cards, events)
        self._resume(s, events)

    _handlers = {
        "draw": _do_draw,
        "move": Moves._do_move,
        "block": Moves._do_block,
        "rummage": Moves._do_rummage,
        "take": Locations._do_take,
        "otter": Moves._do_otter,
        "lemur": Locations._do_lemur,
        "gate": Locations._do_gate,
        "gastro": Locations._do_gastro,
        "exchange": Locations._do_exchange,
        "done": Locations._do_done,
        "hq": Locations._do_hq,
        "roll": OfficerX._do_roll,
        "officer": OfficerX._do_officer,
        "lose": OfficerX._do_lose,
        "use": CardActions._do_use,
        "penguin": CardActions._do_penguin,
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

    # ---------------------------------------------------------------- score

    def score(self, s: AdvancedState) -> ScoreSheet:
        """The score sheet; refused while a card held has an unknown value."""
        check_scorable(self, s)
        return score_seats(self.cards, s.players)


_RUMMAGE = Action("rummage")
_PASS = Action("pass")
_WHILE_PENDING = ("reveal", "reveal-mission", "correct")  # verbs while a card is to be named
