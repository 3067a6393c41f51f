"""Moving on the advanced board: steps, blockades and pushes, rummaging, the Otter.

A step to a neighbouring tile costs one action, two when a penguin stands on
the edge it enters: that penguin is pushed to the middle. The mover stops in
the middle of the tile. Block is an action of its own ("You may choose from
five types of action: Move, Block, …"): for one action a penguin takes a
free blockade field of the tile it stands on, or goes back to the middle,
whether or not it moved this turn. Rummaging draws one token from the bag
where no marker covers the tile's bag symbol (never at Headquarters). The
Otter enclosure carries the penguin to the middle of any other tile, past
every blockade.

``Moves`` is mixed into ``AdvancedGame`` (``rules.pingwiny.advanced``), which
holds the turn sequence (``_expect``, ``_spend``), the bag draws, ``_here``
and ``_square``; the split keeps each file short enough to read on a phone.
"""

from rules.actions import Action, arity, colour_word, listed
from rules.errors import IllegalAction, MalformedAction
from rules.pingwiny import board as geometry
from rules.pingwiny.advanced_state import AdvancedState, Seat
from rules.pingwiny.state import set_player


class Moves:
    """Steps, pushes, rummaging and the Otter of ``AdvancedGame``."""

    def _legal_moves(self, s: AdvancedState, p: int) -> list[Action]:
        seat, left = s.players[p], s.actions_left
        acts = []
        for target in () if s.stay else geometry.ADJACENT[seat.square]:
            # A push costs two actions: with two left, any step can be paid, blocked or not.
            cost = 1 if left >= 2 else 1 + (self._blocker(s, p, seat.square, target) is not None)
            if cost <= left:
                acts.append(listed("move", s.layout[target]))
        return acts + [listed("block", spot) for spot in _block_spots(s, p)]

    def _do_move(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        arity(a, 2)
        p, seat = s.current, s.players[s.current]
        target = self._square(s, a[1])
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
        set_player(s, p, square=target, spot=geometry.MIDDLE)
        events.append({"event": "moved", "player": p, "location": a[1], "spot": geometry.MIDDLE})
        self._spend(s, cost, events)

    def _do_block(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        arity(a, 2)
        if a[1] not in geometry.SPOTS:
            raise MalformedAction("action.bad_arguments", action=str(a))
        p = s.current
        if a[1] == s.players[p].spot:
            raise IllegalAction("illegal.already_on_spot", spot=a[1])
        if a[1] not in _block_spots(s, p):
            raise IllegalAction("illegal.spot_taken", spot=a[1])
        set_player(s, p, spot=a[1])
        location = s.layout[s.players[p].square]
        events.append({"event": "blocked", "player": p, "location": location, "spot": a[1]})
        self._spend(s, 1, events)

    def _do_rummage(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        if not self._can_rummage(s, s.players[s.current]):
            raise IllegalAction("illegal.no_bag_symbol")
        if self.app_bag:
            no_colours_named(a)
            self._draw_app(s, 1, events)
        else:
            if len(a) != 2:
                raise IllegalAction("illegal.draw_count", expected=1)
            self._draw_table(s, s.current, [colour_word(a[1])], events)
        self._spend(s, 1, events)

    def _do_otter(self, s: AdvancedState, a: Action, events: list[dict]) -> None:
        self._expect(s, "act")
        arity(a, 2)
        if self._here(s) != "otter":
            raise IllegalAction("illegal.not_here", action="otter")
        target = self._square(s, a[1])
        p = s.current
        if target == s.players[p].square:
            raise IllegalAction("illegal.already_there", location=a[1])
        set_player(s, p, square=target, spot=geometry.MIDDLE)
        events.append({"event": "moved", "player": p, "location": a[1], "spot": geometry.MIDDLE})
        self._spend(s, 1, events)

    def _blocker(self, s: AdvancedState, p: int, origin: int, target: int) -> int | None:
        """The penguin standing on the edge of ``target`` that faces ``origin``."""
        edge = geometry.EDGE_TOWARDS[target, origin]
        for q, seat in enumerate(s.players):
            if q != p and seat.square == target and seat.spot == edge:
                return q
        return None

    def _can_rummage(self, s: AdvancedState, seat: Seat) -> bool:
        return seat.square != geometry.HQ_SQUARE and seat.square not in s.markers and any(s.bag)


def _block_spots(s: AdvancedState, p: int) -> list[str]:
    """Where a Block action can take the penguin on its tile: a free field, or the middle."""
    seat = s.players[p]
    taken = {q.spot for q in s.players if q.square == seat.square}  # its own field too
    spots = [] if seat.spot == geometry.MIDDLE else [geometry.MIDDLE]
    return spots + [edge for edge in geometry.INNER_EDGES[seat.square] if edge not in taken]


def no_colours_named(a: Action) -> None:
    """With the app's bag the app draws: colours named by the table are refused."""
    if len(a) != 1:
        raise IllegalAction("illegal.app_draws")
