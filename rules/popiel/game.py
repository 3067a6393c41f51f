"""Król Popiel's rules: placements, reward tokens, the king's escape, the end.

A turn is ``place DOTS`` or ``place DOTS king``: the number of complete
yellow dots the tile formed (walls and obstacles included) and whether one
of its sides touches King Popiel's window. Touching him gives a reward token
while any is left (drawn by the app from the box's mix when the owner has
entered it, else named with ``reward KIND``); then the king escapes to the
next window up, token or not, and when no window is left he is devoured and
the game ends at once. After the move the player draws a tile from the draw
spaces and refills them from the stack; an extra move takes a tile from the
draw spaces and places it at once. ``pass`` records a tile that cannot be
placed; ``correct points pN DELTA`` fixes a score.

How the tokens combine (the rulebook does not say; docs/rules-interpretations.md):
the double doubles the dots of the move in which it was drawn, nothing else;
an extra move is a separate move, scored on its own, and may touch the king
again; +2 and +3 are added to the move that drew them.
"""

from dataclasses import dataclass, field

from rules import rng
from rules.actions import Action, arity, dispatch
from rules.errors import IllegalAction, MalformedAction, SetupError
from rules.numbers import seat, whole
from rules.popiel.state import PopielState

KINDS = ("plus2", "plus3", "extra", "double")
MAX_DOTS = 12  # more complete dots than one tile's edges can close
DRAW_SPACES = 3  # "the three marked draw spaces on the board"


@dataclass(frozen=True)
class PopielOptions:
    """Setup: mice by colour in turn order, the board side, who draws the rewards."""

    players: tuple[str, ...]  # the players' mice (by colour), clockwise from the first
    side: str = "A"
    windows: int | None = None  # window spaces on that side, when the data does not know
    rewards: str = "app"  # "app" draws from the mix; "table": players name the token
    seed: int = 0
    names: tuple[str, ...] | None = None

    def to_json(self) -> dict:
        return {
            "players": list(self.players),
            "side": self.side,
            "windows": self.windows,
            "rewards": self.rewards,
            "seed": self.seed,
            "names": list(self.names) if self.names else None,
        }

    @classmethod
    def from_json(cls, data: dict) -> "PopielOptions":
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
        return cls(**values)


@dataclass(frozen=True)
class Components:
    """What the box holds, as far as it is known (``None`` = not printed, not entered)."""

    tiles: int
    windows: dict[str, int | None]
    rewards: dict[str, int] | None  # the mix of the 8 reward tokens by kind
    reward_count: int
    demo_label: str | None = None
    sources: dict = field(default_factory=dict)

    @property
    def is_demo(self) -> bool:
        return self.demo_label is not None

    def to_dict(self) -> dict:
        return {
            "tiles": self.tiles,
            "windows": dict(self.windows),
            "rewards": dict(self.rewards) if self.rewards else None,
            "reward_count": self.reward_count,
            "demo_label": self.demo_label,
            "sources": dict(self.sources),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Components":
        return cls(**data)


class PopielGame:
    variant = "popiel"

    def __init__(self, components: Components, options: PopielOptions) -> None:
        self.options, self.components = options, components
        self.n = len(options.players)
        if not 2 <= self.n <= 5 or len(set(options.players)) != self.n:
            raise SetupError("setup.popiel_players", players=self.n)
        if options.side not in components.windows:
            raise SetupError("setup.popiel_side", side=options.side)
        self.windows = options.windows or components.windows[options.side]
        if not self.windows or self.windows < 1:
            raise SetupError("setup.popiel_windows", side=options.side)
        if options.rewards not in ("app", "table"):
            raise SetupError("setup.source", option="rewards", value=options.rewards)
        self.app_rewards = options.rewards == "app"
        if self.app_rewards and components.rewards is None:
            raise SetupError("setup.popiel_reward_mix")

    def new_state(self) -> PopielState:
        c = self.components
        pool = tuple(c.rewards[k] for k in KINDS) if self.app_rewards else ()
        return PopielState(
            scores=(0,) * self.n,
            rewards=((),) * self.n,
            current=0,
            king=0,
            pool=pool,
            tokens_left=c.reward_count,
            hands=(1,) * self.n,
            draw_spaces=DRAW_SPACES,
            stack=c.tiles - self.n - DRAW_SPACES,
            phase="place",
            extra=False,
            move_dots=0,
            passes=0,
            moves=0,
            rng=rng.seed_state(self.options.seed),
        )

    # --------------------------------------------------------- legal actions

    def legal_actions(self, s: PopielState) -> list[Action]:
        if s.phase == "over":
            return []
        if s.phase == "reward":
            return [Action("reward", k) for k in KINDS]
        places = [Action("place", str(d)) for d in range(MAX_DOTS + 1)]
        places += [Action("place", str(d), "king") for d in range(MAX_DOTS + 1)]
        return places + [Action("pass")]

    # ------------------------------------------------------------------ apply

    def apply(self, state: PopielState, action: Action | str) -> tuple[PopielState, list[dict]]:
        action, handler = dispatch(self._handlers, state.phase, action)
        events: list[dict] = []
        s = handler(self, state, action, events)
        return s, events

    def _place(self, s: PopielState, a: Action, events: list[dict]) -> PopielState:
        if s.phase != "place":
            raise IllegalAction("illegal.popiel_reward_first")
        dots = whole(a[1]) if len(a) in (2, 3) else None
        if dots is None or (len(a) == 3 and a[2] != "king"):
            raise MalformedAction("action.bad_arguments", action=str(a))
        if dots > MAX_DOTS:
            raise IllegalAction("illegal.popiel_dots", dots=dots)
        p = s.current
        king = len(a) == 3
        events.append({"event": "placed", "player": p, "dots": dots, "king": king})
        s = s.replace(
            hands=_plus(s.hands, p, -1), moves=s.moves + 1, passes=0, move_dots=dots, extra=False
        )
        if not king:
            return self._next(self._add(s, p, dots, events), events)
        if s.tokens_left:
            if not self.app_rewards:
                return s.replace(phase="reward")
            seed, index = rng.pick_from_counts(s.rng, s.pool)
            pool = list(s.pool)
            pool[index] -= 1
            s = s.replace(rng=seed, pool=tuple(pool))
            return self._rewarded(s, KINDS[index], events)
        events.append({"event": "no_reward_left"})
        return self._escape(self._add(s, p, dots, events), None, events)

    def _reward(self, s: PopielState, a: Action, events: list[dict]) -> PopielState:
        arity(a, 2)
        if s.phase != "reward":
            raise IllegalAction("illegal.popiel_no_reward")
        if a[1] not in KINDS:
            raise MalformedAction("action.popiel_kind", kind=a[1])
        return self._rewarded(s.replace(phase="place"), a[1], events)

    def _rewarded(self, s: PopielState, kind: str, events: list[dict]) -> PopielState:
        p = s.current
        rewards = list(s.rewards)
        rewards[p] += (kind,)
        s = s.replace(rewards=tuple(rewards), tokens_left=s.tokens_left - 1)
        points = {"plus2": s.move_dots + 2, "plus3": s.move_dots + 3, "double": s.move_dots * 2}
        events.append({"event": "reward", "player": p, "kind": kind})
        s = self._add(s, p, points.get(kind, s.move_dots), events)
        return self._escape(s, kind, events)

    def _escape(self, s: PopielState, kind: str | None, events: list[dict]) -> PopielState:
        """The king flees one window up, with a token drawn or none left; the top ends it."""
        king = s.king + 1
        if king >= self.windows:
            events.append({"event": "king_devoured"})
            return self._end(s.replace(king=king), events)
        events.append({"event": "king_escapes", "window": king})
        s = s.replace(king=king)
        if kind == "extra":
            if s.draw_spaces:
                s, refill = self._take_tile(s)
                events.append({"event": "extra_move", "player": s.current, "refill": refill})
                return s.replace(extra=True, move_dots=0)
            events.append({"event": "no_tile_for_extra", "player": s.current})
        return self._next(s, events)

    def _add(self, s: PopielState, p: int, points: int, events: list[dict]) -> PopielState:
        scores = list(s.scores)
        scores[p] += points
        events.append({"event": "scored", "player": p, "points": points, "total": scores[p]})
        return s.replace(scores=tuple(scores))

    def _next(self, s: PopielState, events: list[dict]) -> PopielState:
        """The player draws a tile from the draw spaces and refills them; the next turn."""
        if s.draw_spaces:
            s, refill = self._take_tile(s)
            events.append({"event": "draw_tile", "player": s.current, "refill": refill})
        else:
            events.append({"event": "no_tile_to_draw", "player": s.current})
        return self._next_player(s, events)

    def _take_tile(self, s: PopielState) -> tuple[PopielState, int]:
        """The current player takes a tile from a draw space, which the stack refills."""
        refill = min(DRAW_SPACES - s.draw_spaces + 1, s.stack)
        s = s.replace(
            hands=_plus(s.hands, s.current, 1),
            draw_spaces=s.draw_spaces - 1 + refill,
            stack=s.stack - refill,
        )
        return s, refill

    def _next_player(self, s: PopielState, events: list[dict]) -> PopielState:
        """Clockwise to the next player holding a tile; nobody holding one ends the game."""
        holders = [q for q in range(1, self.n + 1) if s.hands[(s.current + q) % self.n]]
        if not holders:
            events.append({"event": "tiles_gone"})
            return self._end(s, events)
        nxt = (s.current + holders[0]) % self.n
        events.append({"event": "turn", "player": nxt})
        return s.replace(current=nxt, extra=False, move_dots=0)

    def _pass(self, s: PopielState, a: Action, events: list[dict]) -> PopielState:
        arity(a, 1)
        if s.phase != "place":
            raise IllegalAction("illegal.popiel_reward_first")
        p = s.current
        events.append({"event": "passed", "player": p})
        if s.extra:  # the extra tile goes back (a free draw space, else the stack); move over
            back = s.draw_spaces < DRAW_SPACES
            s = s.replace(
                hands=_plus(s.hands, p, -1),
                draw_spaces=s.draw_spaces + back,
                stack=s.stack + (not back),
                extra=False,
            )
            return self._next(s, events)
        s = s.replace(passes=s.passes + 1)
        if s.passes >= sum(1 for held in s.hands if held):
            events.append({"event": "nobody_can_place"})
            return self._end(s, events)
        return self._next_player(s, events)

    def _correct(self, s: PopielState, a: Action, events: list[dict]) -> PopielState:
        arity(a, 4)
        n = seat(a[2])
        if a[1] != "points" or n is None or not 1 <= n <= self.n:
            raise MalformedAction("action.bad_correction", action=str(a))
        try:
            delta = int(a[3])
        except ValueError:
            raise MalformedAction("action.bad_correction", action=str(a)) from None
        p = n - 1
        if s.scores[p] + delta < 0:
            raise IllegalAction("illegal.popiel_negative")
        events.append({"event": "corrected", "action": str(a)})
        return self._add(s, p, delta, events)

    def _end(self, s: PopielState, events: list[dict]) -> PopielState:
        events.append({"event": "game_over"})
        return s.replace(phase="over")

    _handlers = {"place": _place, "reward": _reward, "pass": _pass, "correct": _correct}

    # ---------------------------------------------------------------- score

    def winners(self, s: PopielState) -> tuple[int, ...]:
        """Most points wins; tied players share the victory."""
        best = max(s.scores)
        return tuple(p for p, score in enumerate(s.scores) if score == best)

    def score(self, s: PopielState) -> "PopielScore":
        winners = self.winners(s)
        return PopielScore(
            s.scores, s.rewards, winners, "points" if len(winners) == 1 else "shared"
        )


def _plus(counts: tuple[int, ...], p: int, n: int) -> tuple[int, ...]:
    as_list = list(counts)
    as_list[p] += n
    return tuple(as_list)


@dataclass(frozen=True)
class PopielScore:
    """Totals, the reward tokens each player keeps, and the winners."""

    totals: tuple[int, ...]
    rewards: tuple[tuple[str, ...], ...]
    winners: tuple[int, ...]
    decided_by: str  # "points" or "shared"

    def to_json(self) -> dict:
        return {
            "players": [
                {"player": p, "total": total, "rewards": list(self.rewards[p])}
                for p, total in enumerate(self.totals)
            ],
            "winners": list(self.winners),
            "decided_by": self.decided_by,
        }
