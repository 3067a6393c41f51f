"""Paying for a figurant at Headquarters, shared by both variants.

    You may use a grey token as a joker – a token of any colour.

A payment is the tuple of printed colours that grey tokens stand in for;
``visit hq becky grey=yellow`` (family) or ``hq becky grey=yellow`` (advanced)
names it. Discarded tokens go back where their colour goes.
"""

from itertools import combinations_with_replacement

from rules.actions import colour_word
from rules.colours import BLACK, COLOURS, GREY, WHITE
from rules.errors import IllegalAction, MalformedAction
from rules.pingwiny.state import add


def payments(cost: tuple, hand: tuple) -> list[tuple[int, ...]]:
    """Every way to pay ``cost`` from ``hand``: the colours greys stand in for."""
    spare_grey = hand[GREY] - cost[GREY]
    if spare_grey < 0:
        return []
    if spare_grey == 0:
        for held, needed in zip(hand, cost, strict=True):
            if held < needed:
                return []
        return [()]
    short = [max(0, cost[c] - hand[c]) if c != GREY else 0 for c in range(7)]
    needed = sum(short)
    if needed > spare_grey:
        return []
    room = [cost[c] - short[c] if c != GREY else 0 for c in range(7)]
    base = tuple(c for c in range(7) for _ in range(short[c]))
    results = []
    for extra in range(spare_grey - needed + 1):
        colours = [c for c in range(7) if room[c]]
        for pick in combinations_with_replacement(colours, extra):
            if all(pick.count(c) <= room[c] for c in set(pick)):
                results.append(tuple(sorted(base + pick)))
    return results


def joker_word(jokers: tuple[int, ...]) -> tuple[str, ...]:
    """The ``grey=...`` word of a payment, or nothing when no grey stands in."""
    if not jokers:
        return ()
    return ("grey=" + "+".join(COLOURS[c] for c in jokers),)


def parse_jokers(word: str) -> tuple[int, ...]:
    prefix, _, colours = word.partition("=")
    if prefix != "grey" or not colours:
        raise MalformedAction("action.bad_jokers", word=word)
    jokers = tuple(colour_word(w) for w in colours.split("+"))
    if GREY in jokers:
        raise MalformedAction("action.bad_jokers", word=word)
    return jokers


def price(card: str, cost: tuple, jokers: tuple[int, ...], hand: tuple) -> list[int]:
    """The tokens to hand over, by colour; refuses what the hand cannot pay."""
    pay = list(cost)
    for c in jokers:
        if pay[c] == 0:
            raise IllegalAction("illegal.joker_not_needed", colour=COLOURS[c])
        pay[c] -= 1
        pay[GREY] += 1
    for c in range(7):
        if hand[c] < pay[c]:
            raise IllegalAction("illegal.cannot_afford", card=card, colour=COLOURS[c])
    return pay


def discard(s, hand: tuple, c: int) -> tuple:
    """Return one token of ``c`` from ``hand`` to where its colour goes.

    White and black into the bag, grey into the box, the rest onto their
    location's supply.
    """
    if c in (WHITE, BLACK):
        s.bag = add(s.bag, c)
    elif c == GREY:
        s.box = add(s.box, c)
    else:
        s.board = add(s.board, c)
    return add(hand, c, -1)
