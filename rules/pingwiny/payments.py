"""Paying for a figurant at Headquarters, shared by both variants.

    You may use a grey token as a joker – a token of any colour.
    Any token – a token of any colour (red, blue, green, yellow, grey, black
    or white). Shown with a rainbow design.

A cost counts tokens in ``COST_COLOURS`` order: the seven colours, then the
rainbow "any token" symbol. A payment says what grey tokens stand in for
(printed colours) and which tokens pay the "any" symbols: ``visit hq becky
grey=yellow any=white`` (family) or ``hq becky grey=yellow any=white``
(advanced). A grey paying an "any" symbol is written ``any=grey``, never as a
joker, so each way of paying has one notation. Discarded tokens go back where
their colour goes.
"""

from functools import lru_cache
from itertools import combinations, combinations_with_replacement

from rules.actions import colour_word
from rules.colours import ANY, BLACK, COLOURS, GREY, WHITE
from rules.errors import IllegalAction, MalformedAction
from rules.pingwiny.state import add

_PRINTED = tuple(c for c in range(7) if c != GREY)  # colours a grey may stand in for


def payments(cost: tuple, hand: tuple) -> list[tuple[str, ...]]:
    """Every way to pay ``cost`` from ``hand``, as the payment's words (``()`` for
    the printed tokens exactly), each set of tokens handed over once."""
    if not affordable(cost, hand):
        return []
    if hand[GREY] == cost[GREY] and not cost[ANY]:
        return [()]  # no grey to spare, no "any" symbol: the printed tokens, the one way
    # What the greys may stand in for depends on the hand only up to the cost: the tokens
    # of each printed colour it can pay with, and its greys.
    choices = _joker_choices(cost, tuple(map(min, hand, cost)), hand[GREY])
    if not cost[ANY]:
        # Each choice of what the greys stand in for hands over other tokens: none twice.
        return [_words(jokers, ()) for jokers in choices]
    found: dict[tuple[int, ...], tuple[str, ...]] = {}
    for jokers in choices:
        pay = _printed_pay(cost, jokers)
        left = [hand[c] - pay[c] for c in range(7)]
        for anys in _picks(left, cost[ANY]):
            total = tuple(pay[c] + anys.count(c) for c in range(7))
            found.setdefault(total, _words(jokers, anys))
    return list(found.values())


def affordable(cost: tuple, hand: tuple) -> bool:
    """Whether ``hand`` can pay ``cost`` at all: the spare greys cover the printed colours
    the hand lacks, and enough tokens are left for the "any" symbols.

    Many face-up cards cannot be paid at a given moment; this says so without listing
    the ways to pay (listing legal actions asks it for every face-up card, every step).
    """
    spare = hand[GREY] - cost[GREY]
    for c in _PRINTED:
        if hand[c] < cost[c]:
            spare -= cost[c] - hand[c]
    # Once the printed colours are paid, the tokens left over pay the "any" symbols.
    return spare >= 0 and (not cost[ANY] or sum(hand) >= sum(cost))


@lru_cache(maxsize=4096)
def _joker_choices(cost: tuple, paid: tuple, greys: int) -> tuple[tuple[int, ...], ...]:
    """The colours greys may stand in for, leaving the "any" symbols aside (for a hand
    that is ``affordable``, holding ``greys`` grey tokens and able to pay ``paid[c]`` of
    each printed colour): every printed token the hand lacks, then as many of the printed
    tokens it holds (``held``) as the greys left over can take the place of.

    Kept: a hand with greys to spare asks this of every card it can buy, at every step,
    and only a few hundred different questions come up in a game (hands differ in what
    the cost does not ask for)."""
    lacking, held = [], []
    for c in _PRINTED:
        lacking += [c] * (cost[c] - paid[c])
        held += [c] * paid[c]
    spare = greys - cost[GREY] - len(lacking)
    results = []
    for extra in range(min(spare, len(held)) + 1):
        # ``held`` is sorted, so each choice comes sorted; a colour held twice gives the
        # same choice twice, kept once, in the order first met.
        for pick in dict.fromkeys(combinations(held, extra)):
            results.append(tuple(sorted(lacking + list(pick))))
    return tuple(results)


def _printed_pay(cost: tuple, jokers: tuple[int, ...]) -> list[int]:
    pay = list(cost[:7])
    for c in jokers:
        pay[c] -= 1
        pay[GREY] += 1
    return pay


def _picks(counts: list[int], k: int) -> list[tuple[int, ...]]:
    """Every multiset of ``k`` colours that ``counts`` can give."""
    present = [c for c in range(7) if counts[c] > 0]
    return [
        pick
        for pick in combinations_with_replacement(present, k)
        if all(pick.count(c) <= counts[c] for c in set(pick))
    ]


def _words(jokers: tuple[int, ...], anys: tuple[int, ...]) -> tuple[str, ...]:
    words = []
    if jokers:
        words.append("grey=" + "+".join(COLOURS[c] for c in jokers))
    if anys:
        words.append("any=" + "+".join(COLOURS[c] for c in anys))
    return tuple(words)


def parse_payment(words: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The jokers and the tokens paying "any" that ``grey=...`` and ``any=...`` name."""
    parsed: dict[str, tuple[int, ...]] = {}
    for word in words:
        prefix, _, colours = word.partition("=")
        if prefix not in ("grey", "any") or prefix in parsed or not colours:
            raise MalformedAction("action.bad_jokers", word=word)
        named = tuple(colour_word(w) for w in colours.split("+"))
        if prefix == "grey" and GREY in named:
            raise MalformedAction("action.bad_jokers", word=word)
        parsed[prefix] = named
    return parsed.get("grey", ()), parsed.get("any", ())


def price(card: str, cost: tuple, words: tuple[str, ...], hand: tuple) -> list[int]:
    """The tokens to hand over, by colour; refuses what the hand cannot pay."""
    jokers, anys = parse_payment(words)
    for c in jokers:
        if cost[c] - jokers.count(c) < 0:
            raise IllegalAction("illegal.joker_not_needed", colour=COLOURS[c])
    if len(anys) != cost[ANY]:
        raise IllegalAction("illegal.any_tokens", card=card, n=cost[ANY])
    pay = _printed_pay(cost, jokers)
    for c in anys:
        pay[c] += 1
    for c in range(7):
        if hand[c] < pay[c]:
            raise IllegalAction("illegal.cannot_afford", card=card, colour=COLOURS[c])
    return pay


def discard(s, hand: tuple, c: int, n: int = 1) -> tuple:
    """Return ``n`` tokens of ``c`` from ``hand`` to where their colour goes.

    White and black into the bag, grey into the box, the rest onto their
    location's supply.
    """
    if c in (WHITE, BLACK):
        s.bag = add(s.bag, c, n)
    elif c == GREY:
        s.box = add(s.box, c, n)
    else:
        s.board = add(s.board, c, n)
    return add(hand, c, -n)
