"""Every way to pay a figurant's cost, checked against a count made without the engine.

``payments`` takes shortcuts (a hand that cannot pay is refused before any way is
listed; a hand with no grey to spare paying a card with no "any" symbol has one way).
The count here takes none: a set of tokens handed over pays a cost when it holds as
many tokens as the cost, and its spare greys (beyond the printed greys) cover every
printed colour it lacks; whatever is left over pays the "any" symbols.
"""

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.colours import GREY
from rules.errors import RulesError
from rules.pingwiny.payments import affordable, parse_payment, payments, price

PRINTED = [c for c in range(7) if c != GREY]
costs = st.tuples(*[st.integers(0, 2)] * 7, st.integers(0, 2))
hands = st.tuples(*[st.integers(0, 3)] * 7)


def ways_counted(cost: tuple, hand: tuple) -> set[tuple[int, ...]]:
    """Every set of tokens (counts by colour) from ``hand`` that pays ``cost``."""
    found = set()
    for handed in product(*(range(n + 1) for n in hand)):
        lacking = sum(max(0, cost[c] - handed[c]) for c in PRINTED)
        if sum(handed) == sum(cost) and handed[GREY] - cost[GREY] >= lacking:
            found.add(handed)
    return found


@settings(max_examples=300, deadline=None)
@given(cost=costs, hand=hands)
def test_each_way_to_pay_is_listed_once_and_nothing_else(cost, hand):
    listed = payments(cost, hand)
    handed = [tuple(price("card", cost, words, hand)) for words in listed]
    assert len(set(handed)) == len(handed)
    assert set(handed) == ways_counted(cost, hand)
    assert affordable(cost, hand) == bool(listed)


def test_the_printed_tokens_alone_are_the_one_way_without_a_spare_grey():
    cost = (1, 0, 2, 0, 1, 0, 0, 0)  # red, two green, a grey; no "any" symbol
    hand = (2, 1, 2, 0, 1, 3, 0)
    assert payments(cost, hand) == [()]
    assert ways_counted(cost, hand) == {(1, 0, 2, 0, 1, 0, 0)}


def test_an_any_symbol_or_a_spare_grey_gives_more_ways():
    assert len(payments((1, 0, 0, 0, 0, 0, 0, 1), (2, 1, 0, 0, 0, 0, 0))) == 2
    assert payments((1, 0, 0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 1, 0, 0)) == [(), ("grey=red",)]


def _cost(**counts: int) -> tuple:
    order = ("red", "blue", "green", "yellow", "grey", "white", "black", "any")
    return tuple(counts.get(colour, 0) for colour in order)


@pytest.mark.parametrize(
    "pay, said",
    [
        (lambda: parse_payment(("jokers=red",)), ["'jokers=red'", "greys stand for"]),
        (lambda: parse_payment(("grey=grey",)), ["'grey=grey'", "greys stand for"]),
        (lambda: parse_payment(("grey=red", "grey=blue")), ["'grey=blue'", "greys stand for"]),
        (lambda: parse_payment(("any=",)), ["'any='", "greys stand for"]),
        (lambda: price("becky", _cost(red=1), ("grey=blue",), (1,) * 7), ["not ask for blue"]),
        (lambda: price("becky", _cost(red=1, any=2), ("any=red",), (1,) * 7), ["becky", "2 "]),
        (lambda: price("becky", _cost(red=2), (), (1,) * 7), ["Not enough red", "'becky'"]),
    ],
)
def test_a_refused_payment_says_which_word_colour_or_count_is_wrong(pay, said):
    """The table reads why a payment was refused: the word it did not understand, the colour
    a grey cannot stand in for or the hand lacks, how many "any" tokens the card asks for."""
    with pytest.raises(RulesError) as refused:
        pay()
    text = refused.value.text("en")
    assert all(words in text for words in said), text
