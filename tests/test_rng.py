"""The seeded random source: SplitMix64's published outputs, and the draws made from them.

``below``, ``shuffled`` and ``pick_from_counts`` write the generator out in their own loops
(they are the engine's busiest steps), so each is checked here against ``next_u64``, which is
itself checked against the generator's published outputs.
"""

import pytest

from rules import rng

SEEDS = [0, 1, 2, 12345, 2**63 + 7, 2**64 - 1]


def test_the_source_gives_splitmix64s_published_outputs():
    # SplitMix64 (Steele, Lea and Flood, 2014) from the state 0: the first outputs of its
    # reference C code, as published with it.
    state, outputs = 0, []
    for _ in range(3):
        state, value = rng.next_u64(state)
        outputs.append(value)
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def draws(state: int, n: int, count: int) -> tuple[int, list[int]]:
    """``count`` draws below ``n`` made from ``next_u64`` by the rule ``below`` documents: an
    output in the last, partial block of ``n`` is drawn again (never met in these tests)."""
    found = []
    for _ in range(count):
        state, value = rng.next_u64(state)
        assert value < 2**64 - 2**64 % n
        found.append(value % n)
    return state, found


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 52])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_draw_below_n_is_the_next_output_modulo_n(seed, n):
    assert rng.below(seed, n) == (lambda s, d: (s, d[0]))(*draws(seed, n, 1))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_shuffle_swaps_each_place_with_a_draw_below_it(seed):
    """Fisher–Yates from the last place down: place i swaps with a draw below i + 1."""
    items = tuple("abcdefghij")
    order, state = list(items), seed
    for i in range(len(order) - 1, 0, -1):
        state, (j,) = draws(state, i + 1, 1)
        order[i], order[j] = order[j], order[i]
    assert rng.shuffled(seed, items) == (state, tuple(order))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_pick_from_counts_lands_in_the_drawn_items_run(seed):
    """Items laid out in runs of their counts, the draw's place names one: never an item
    counted 0."""
    counts = (0, 3, 0, 1, 2, 0, 4)
    runs = [index for index, count in enumerate(counts) for _ in range(count)]
    state, (place,) = draws(seed, len(runs), 1)
    assert rng.pick_from_counts(seed, counts) == (state, runs[place])


def test_a_pick_never_lands_on_an_item_counted_0():
    picked = {rng.pick_from_counts(seed, (0, 1, 0, 1))[1] for seed in range(200)}
    assert picked == {1, 3}
    with pytest.raises(ValueError):
        rng.pick_from_counts(5, (0, 0, 0))


def state_before(output: int) -> int:
    """The state whose next output is ``output``: SplitMix64's steps undone (each xor-shift by
    xoring back, each product by the multiplier's inverse modulo 2**64)."""

    def unshift(y: int, s: int) -> int:
        x = y
        for _ in range(64 // s + 1):
            x = y ^ (x >> s)
        return x

    z = unshift(output, 31)
    z = unshift(z * pow(0x94D049BB133111EB, -1, 2**64) % 2**64, 27)
    z = unshift(z * pow(0xBF58476D1CE4E5B9, -1, 2**64) % 2**64, 30)
    return (z - rng.GOLDEN) % 2**64


@pytest.mark.parametrize("n", [3, 7, 52])
def test_an_output_in_the_last_partial_block_is_drawn_again(n):
    """No value is favoured: of the outputs from ``limit`` up (the last, partial block of n),
    none is taken; the one just below it is."""
    limit = 2**64 - 2**64 % n
    assert rng.next_u64(state_before(limit))[1] == limit
    rejected = state_before(limit)
    after, _ = rng.next_u64(rejected)
    assert rng.below(rejected, n) == (lambda s, d: (s, d[0]))(*draws(after, n, 1))
    accepted = state_before(limit - 1)
    assert rng.below(accepted, n) == (rng.next_u64(accepted)[0], (limit - 1) % n)
    # The shuffle's first swap draws below the number of items, the same way.
    for state in (rejected, accepted):
        assert rng.shuffled(state, tuple(range(n))) == swapped_by_below(state, tuple(range(n)))


def swapped_by_below(state: int, items: tuple) -> tuple[int, tuple]:
    """Fisher–Yates made with ``below``: place i, from the last down, swaps with a draw below
    i + 1."""
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        state, j = rng.below(state, i + 1)
        order[i], order[j] = order[j], order[i]
    return state, tuple(order)
