"""The Gastro zone's exchange table, shared by both variants.

    Two white or two black tokens for one any token, other than grey.
    One yellow, red, blue or green token for one any token, other than grey.
    One grey token for two tokens of the same colour, other than grey.

A line is a pair (tokens given, tokens received), each a tuple of colour
indices. Giving one token for one of the same colour is left out: it is not
an exchange. Notation: ``white+white>yellow``, ``grey>red+red``.
"""

from functools import cache

from rules.colours import BLACK, BLUE, COLOURS, GREEN, GREY, INDEX, RED, WHITE, YELLOW
from rules.errors import IllegalAction, MalformedAction

NOT_GREY = (RED, BLUE, GREEN, YELLOW, WHITE, BLACK)
FROM_BAG_ONLY = (WHITE, BLACK)


def _table() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    lines = []
    for pair in ((WHITE, WHITE), (BLACK, BLACK)):
        lines += [(pair, (c,)) for c in NOT_GREY]
    for single in (YELLOW, RED, BLUE, GREEN):
        lines += [((single,), (c,)) for c in NOT_GREY if c != single]
    lines += [((GREY,), (c, c)) for c in NOT_GREY]
    return tuple(lines)


LINES = _table()
LINE_SET = frozenset(LINES)


def notation(give: tuple[int, ...], get: tuple[int, ...]) -> str:
    return "+".join(COLOURS[c] for c in give) + ">" + "+".join(COLOURS[c] for c in get)


def parse(text: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The (give, get) of ``white+white>yellow``; None if it is not colours."""
    give_text, sep, get_text = text.partition(">")
    if not sep:
        return None
    try:
        give = tuple(INDEX[w] for w in give_text.split("+"))
        get = tuple(INDEX[w] for w in get_text.split("+"))
    except KeyError:
        return None
    return give, get


@cache
def by_give_cached() -> tuple:
    """``by_give`` computed once."""
    return by_give()


def by_give() -> tuple:
    """The table grouped by what is given, for listing legal exchanges fast.

    Each entry: (colour given, how many, [(colour received, how many of it must
    be there to receive, notation), ...]); every line of the table gives tokens
    of one colour. What the exchange gives back to the bag counts towards what
    must be there: two white tokens for a white one need none there.
    """
    groups: dict[tuple[int, ...], list] = {}
    for give, get in LINES:
        c = get[0]
        returned = give.count(c) if c in FROM_BAG_ONLY else 0
        groups.setdefault(give, []).append((c, len(get) - returned, notation(give, get)))
    return tuple((give[0], len(give), lines) for give, lines in groups.items())


PARSED = {notation(give, get): (give, get) for give, get in LINES}


def line_of(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The (give, get) of an exchange written in notation; refuses what the table lacks."""
    line = PARSED.get(text)
    if line is not None:
        return line  # the table's own notation: a line of the table, none for a grey
    line = parse(text)
    if line is None:
        raise MalformedAction("action.bad_exchange", exchange=text)
    if GREY in line[1]:
        raise IllegalAction("illegal.exchange_for_grey")
    if line not in LINE_SET:
        raise IllegalAction("illegal.exchange_not_in_table", exchange=text)
    return line
