"""The planner: a yardstick of a different kind from the greedy easy level, never a seat.

The easy level values each action by the search's own evaluation, which
compares the player with the best other one and weighs the hand against
every face-up card. A yardstick that thinks the same way flatters the search
(it knows exactly what the yardstick likes). The planner thinks like a
sensible person instead:

- it picks **one target**: the face-up card with the most points for the
  actions still needed to buy it (``reach``), and keeps to it for the move;
- it values an action by its own score sheet after it (tokens counting as
  a penalty only in the last round: before that they are on their way into a
  card) plus how near the target then is; the rest of the table is ignored;
- chance is averaged, not guessed: each action is tried in ``WORLDS`` sampled
  worlds (``sampling.sample``, never the real deck or bag), so the Otter or a
  rummage counts for the share of the bag that helps the target.

How near a card is, in the family variant: each missing colour costs a
visit to its supply tile while the tile has it, else a Gastro exchange while
the hand has a token the card does not need (one yellow, red, blue or green,
or two white or two black, for one token; spare greys already stand in as
jokers), else
the Otter as often as the bag needs on average to give it; each "any"
symbol one visit; the purchase one more. In the advanced variant the
evaluation's ``effort`` already counts the walks, takes and rummages.
"""

import math
import random
from itertools import islice

from rules.colours import BLACK, WHITE
from rules.players.evaluation import _short, effort, rounds_left, sheet_line
from rules.players.sampling import app_random, sample, seeds

WORLDS = 3  # sampled worlds each action is tried in
DECAY = 0.9  # a card's worth kept per family visit still needed to buy it
SUPPLY_COLOURS = (0, 1, 2, 3)  # red, blue, green, yellow: the family supply tiles' colours
TOKEN = 0.15  # a token's worth while it is no penalty yet, whatever card it ends in
FADE_ROUNDS = 2.0  # the rounds before the last over which a token turns into a penalty
OTHERS = 0.25  # the share of a face-up card's reach that counts when it is not the target
PAIRS = (WHITE, BLACK)  # given two at a time at the Gastro zone


def plan(game, state, seed: int):
    """The planner's action now: the best average, over sampled worlds, of ``worth``."""
    sim = app_random(game)
    me = state.current
    legal = sim.legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    target = _target(sim, state, me)
    worlds = [sample(state, s, game) for s in islice(seeds(seed), WORLDS)]
    ties = random.Random(seed)
    best, best_value = legal[0], -math.inf
    for action in legal:
        total = 0.0
        for world in worlds:
            after, _ = sim.apply(world, action)
            total += worth(sim, after, me, target)
        total += ties.random() * 1e-6
        if total > best_value:
            best, best_value = action, total
    return best


def worth(game, s, p: int, target: str | None) -> float:
    """``p``'s sheet total and what the hand may still become: until the last rounds the
    tokens are no penalty but a little worth each, the target counts its reach and the
    other face-up cards ``OTHERS`` of theirs (a card bought is in the total)."""
    line = sheet_line(game, s, p)
    total = line.total
    keep = min(1.0, max(0.0, (rounds_left(game, s) - 1) / FADE_ROUNDS))
    total += keep * (TOKEN * sum(s.players[p].tokens) - line.penalty)
    for card in _known(game, s):
        total += reach(game, s, p, card) * (1.0 if card == target else OTHERS)
    return total


def _known(game, s) -> list[str]:
    """The face-up cards whose cost and points the table has taught."""
    cards = game.cards.figurants
    return [c for c in s.faceup if c and None not in (cards[c].cost, cards[c].points)]


def _target(game, s, p: int) -> str | None:
    """The face-up card with the best reach for ``p`` (None when no card is known)."""
    return max(_known(game, s), key=lambda c: (reach(game, s, p, c), c), default=None)


def reach(game, s, p: int, card: str) -> float:
    """The card's points, less for every action still needed to buy it."""
    seat = s.players[p]
    if game.variant == "advanced":
        return effort(game, s, seat, card)
    f = game.cards.figurants[card]
    return f.points * DECAY ** visits(s, seat.tokens, f.cost)


def visits(s, hand, cost) -> float:
    """Family: the visits still needed to buy a card of ``cost`` (see the module's text)."""
    missing, anys = _short(cost, hand)
    spare = [max(0, hand[c] - cost[c]) for c in range(7)]
    exchanges = sum(spare[c] for c in SUPPLY_COLOURS) + sum(spare[c] // 2 for c in PAIRS)
    bag = sum(s.bag)
    needed = 1.0 + anys
    for c in range(7):
        if not missing[c]:
            continue
        fetched = min(missing[c], s.board[c]) if c in SUPPLY_COLOURS else 0
        swapped = min(missing[c] - fetched, exchanges)
        exchanges -= swapped
        drawn = missing[c] - fetched - swapped
        if drawn and not s.bag[c]:
            return math.inf
        needed += fetched + swapped + (drawn * bag / s.bag[c] if drawn else 0)
    return needed
