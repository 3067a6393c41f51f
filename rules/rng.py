"""A seeded random source whose whole state is one 64-bit integer.

The engine keeps this integer inside the game state, so a state carries its
own future: replaying the same actions from the same state gives the same
draws, and an undone draw comes back identical when it is redone. SplitMix64
is tiny, fast in pure Python and the same on every platform, which matters
more here than statistical strength.
"""

from bisect import bisect_right
from itertools import accumulate

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The first state for a seed of any size (folded to 64 bits)."""
    return seed & MASK


def next_u64(state: int) -> tuple[int, int]:
    """Advance ``state``; return the new state and a 64-bit output."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in ``range(n)``, by rejection so no value is favoured."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        state = (state + GOLDEN) & MASK  # ``next_u64``, written out: a draw is a busy step
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


def shuffled(state: int, items: tuple) -> tuple[int, tuple]:
    """A Fisher–Yates shuffle of ``items``; returns the new state and the order.

    The same draws as ``below`` for each position, written out in the loop: a
    virtual player shuffles the decks of every world it imagines, so this is
    the engine's busiest use of the source."""
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - (1 << 64) % n
        while True:
            state = (state + GOLDEN) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        order[i], order[j] = order[j], order[i]
    return state, tuple(order)


def pick_from_counts(state: int, counts: tuple[int, ...]) -> tuple[int, int]:
    """Index of one item drawn uniformly from a multiset given as counts."""
    ends = list(accumulate(counts))  # where each item's run of places ends
    if not ends or not ends[-1]:
        raise ValueError("empty multiset")
    state, place = below(state, ends[-1])
    return state, bisect_right(ends, place)
