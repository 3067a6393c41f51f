"""How good a position is for a player: the score sheet now, plus what the hand may still become.

A search that stops before the end of the game needs a value for where it
stopped. The score sheet gives most of it (cards, penguin bonus, missions,
the penalty of one point per token held), but early in the game a token is
not yet a penalty: it is on its way into a card. So the value adds back, for
each token, how likely it is still to be spent (``token_worth``: near 1
while many rounds are left, falling to 0 in the last one), and a little for
how close the hand is to the best face-up card (``fit``) and the held
missions to their next step. All of it fades as the end comes, so a player
who thinks with it ends the game with an empty hand (and comes back if a
game drags on past its usual length: ``overtime``).

``outlook`` compares the player with the best of the others: a search for
the lead, not for points alone. A search values the same seat in the same
surroundings many times over (the other players' seats hardly change during
one's own turn), so it passes a ``memo`` dict that keeps each value once
worked out: the values are the same with it or without it, only sooner.
"""

from functools import lru_cache

from rules.colours import ANY, GREY
from rules.pingwiny.advanced_locations import SUPPLY
from rules.pingwiny.advanced_scoring import score_seat
from rules.pingwiny.scoring import score_line

ROUNDS_AT_FULL_WORTH = 3.0  # rounds left from which a token is worth its full penalty back
TOKEN_WORTH = 0.95
FIT_WEIGHT = 0.6  # below 1: holding a card's cost is worth less than buying it
MISSION_WEIGHT = 0.5
CARDS_PER_TURN = 0.7  # figurants a turn takes from the deck, about, in both variants
OFFICER_HITS_PER_TURN = 0.35  # Officer X markers a turn lays, about (advanced)
MARKERS = 8
STALL_SLACK = 2.0  # rounds a game may run behind its usual pace before tokens regain worth
FAMILY_FETCH = 0.5  # a missing token on its supply tile counts half as held (family)
ACTION_DISCOUNT = 0.85  # advanced: a card's worth kept per action still needed to buy it
HQ = 4
SUPPLY_TILES = {c: location for location, c in SUPPLY.items()}
CACHED = 1 << 15  # costs and hands kept worked out (``_short``, ``_share``): a few MB at most
STEPS = tuple(tuple(abs(a // 3 - b // 3) + abs(a % 3 - b % 3) for b in range(9)) for a in range(9))


def rounds_left(game, s) -> float:
    """About how many more turns each player gets: the deck runs out, or Officer X closes in."""
    if s.phase == "over":
        return 0.0
    if s.last_round:
        return 0.5
    turns = s.deck_size / CARDS_PER_TURN
    markers = getattr(s, "markers", None)
    if markers is not None:
        turns = min(turns, (MARKERS - len(markers)) / OFFICER_HITS_PER_TURN)
    return turns / game.n


def overtime(game, s) -> float:
    """Rounds the table has stood still, about: turns played beyond what the cards gone
    from the deck account for, less ``STALL_SLACK`` rounds.

    Tokens lose their worth as the end nears (few cards left, or few Officer X
    markers), so that a player empties the hand; but only a purchase brings
    the end: if every player then avoids tokens, nobody can buy and the game
    stands still. Once it has stood still a while the tokens regain their
    worth, which brings the buying, and the end, back.
    """
    gone = len(game.cards.deck) - s.deck_size - sum(1 for card in s.faceup if card)
    return max(0.0, s.turns - gone / CARDS_PER_TURN - STALL_SLACK * game.n) / game.n


def sheet_line(game, s, p: int):
    """The line the score sheet would give player ``p`` now.

    A family mission taken before the table taught its steps scores nothing
    here yet (the panel asks for them right after it is taken).
    """
    seat = s.players[p]
    if game.variant == "advanced":
        return score_seat(game.cards, p, seat)
    mission = seat.mission if taught(game, seat.mission) else None
    return score_line(game.cards, p, seat.penguin, seat.figurants, mission, sum(seat.tokens))


def taught(game, mission: str | None) -> bool:
    """A held mission whose steps the table has taught (the family Lemur may take one first)."""
    return mission is not None and game.cards.missions[mission].scoring is not None


def value(game, s, p: int, rounds: float | None = None, memo: dict | None = None) -> float:
    """The sheet's total for ``p`` plus the worth of the hand and missions still in play."""
    rounds = rounds_left(game, s) if rounds is None else rounds
    if rounds <= 0:
        return float(sheet_line(game, s, p).total)
    fade = min(1.0, max(rounds, overtime(game, s)) / ROUNDS_AT_FULL_WORTH)
    seat = s.players[p]
    if memo is not None:
        # Everything the value reads: the seat, the face-up row, the board, the bag, the fade.
        key = (p, seat, s.faceup, s.board, s.bag, getattr(s, "layout", None), fade)
        known = memo.get(key)
        if known is not None:
            return known
    line = _kept(memo, ("line", p, seat), sheet_line, game, s, p)
    worth = -TOKEN_WORTH * fade * line.penalty  # a protected hand has no penalty to win back
    if game.variant == "family":  # what ``fit`` reads, by variant
        reads = ("fit", seat.tokens, s.faceup, s.board)
    else:
        reads = ("fit", seat, s.faceup, s.board, s.bag, s.layout)
    near = _kept(memo, reads, fit, game, s, seat)
    ahead = _kept(memo, ("ahead", seat), missions_ahead, game, seat)
    result = line.total + worth + fade * (FIT_WEIGHT * near + ahead)
    if memo is not None:
        memo[key] = result
    return result


def _kept(memo: dict | None, key: tuple, work, *args):
    """``work(*args)``, kept in ``memo`` under ``key`` (the parts of the value: each reads
    less than the whole, so the other seats' parts are found again and again)."""
    if memo is None:
        return work(*args)
    found = memo.get(key)
    if found is None:
        found = memo[key] = work(*args)
    return found


def fit(game, s, seat) -> float:
    """How near the hand is to the best face-up card (see ``share`` and ``effort``).

    A card of the printed box whose cost or points are not taught yet has no
    worth to aim at: it is left out until the table teaches them.
    """
    cards = game.cards.figurants
    known = [c for c in s.faceup if c and None not in (cards[c].cost, cards[c].points)]
    if game.variant == "advanced":
        return max((effort(game, s, seat, card) for card in known), default=0.0)
    return max((share(game, s, seat.tokens, card) for card in known), default=0.0)


@lru_cache(maxsize=CACHED)
def _short(cost, hand) -> tuple[tuple[int, ...], int]:
    """Tokens missing for ``cost`` by colour once spare greys stand in, and the greys missing
    (the "any" symbols are paid from what is left over, greys last; a symbol nothing pays
    counts as a grey missing: any token will do for it). Kept once worked out: a search
    asks it for the same cost and hand many thousand times over."""
    missing = [max(0, cost[c] - hand[c]) if c != GREY else 0 for c in range(7)]
    spare = hand[GREY] - cost[GREY]
    for c in range(7):
        while spare > 0 and missing[c]:
            missing[c] -= 1
            spare -= 1
    left = sum(max(0, hand[c] - cost[c]) for c in range(7) if c != GREY) + max(0, spare)
    return tuple(missing), max(0, -spare) + max(0, cost[ANY] - left)


def covered(cost, hand) -> int:
    """How many of a card's ``cost`` tokens ``hand`` can pay (spare greys standing in)."""
    missing, greys = _short(cost, hand)
    return sum(cost) - sum(missing) - greys


def share(game, s, hand, card: str) -> float:
    """Family: the card's points times the square of the share of its cost in hand, a
    token on the supply tiles (one visit away) counting half."""
    f = game.cards.figurants[card]
    held, total, fetch = _gap(f.cost, hand)
    board = s.board
    held += sum(min(n, board[c]) for c, n in fetch) * FAMILY_FETCH
    ratio = held / total
    return ratio * ratio * f.points


@lru_cache(maxsize=CACHED)
def _gap(cost, hand) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    """For ``share``: the cost's tokens the hand pays, the cost's size, and the colours
    missing that a supply tile gives, with how many (kept once worked out, as ``_short``)."""
    missing, greys = _short(cost, hand)
    fetch = tuple((c, missing[c]) for c in SUPPLY.values() if missing[c])
    return sum(cost) - sum(missing) - greys, sum(cost), fetch


def effort(game, s, seat, card: str) -> float:
    """Advanced: the card's points, less for every action still needed to buy it.

    The actions: walk to each supply tile with a missing colour and take its
    tokens (two at a time), rummage for the colours only the bag gives (as
    often as it takes on average), walk to Headquarters, buy. Tokens that
    any colour pays (the "any" symbols) are taken with the last supply
    tile's, or from the nearest tile that has two. A grey printed on the card
    and not held puts it out of reach: greys come only as the reward for a
    card of seven tokens.
    """
    f = game.cards.figurants[card]
    if f.cost[GREY] > seat.tokens[GREY]:
        return 0.0
    missing, greys = _short(f.cost, seat.tokens)
    actions, here, taken = 1.0, seat.square, None
    bag = sum(s.bag)
    for c in range(7):
        if not missing[c]:
            continue
        tile = SUPPLY_TILES.get(c)
        if tile is not None and s.board[c] >= missing[c]:
            there = s.layout.index(tile)
            actions += STEPS[here][there] + (missing[c] + 1) // 2
            here, taken = there, (c, missing[c])
        elif s.bag[c]:
            actions += missing[c] * bag / s.bag[c]
        else:
            return 0.0
    if greys:
        if taken is not None and s.board[taken[0]] >= taken[1] + greys:
            actions += (taken[1] + greys + 1) // 2 - (taken[1] + 1) // 2
        else:
            tiles = [s.layout.index(SUPPLY_TILES[c]) for c in SUPPLY_TILES if s.board[c] >= 2]
            if not tiles:
                return 0.0
            there = min(tiles, key=lambda t: STEPS[here][t])
            actions += STEPS[here][there] + (greys + 1) // 2
            here = there
    actions += STEPS[here][HQ]
    return f.points * ACTION_DISCOUNT**actions


def missions_ahead(game, seat) -> float:
    """Half the points of each held mission's next step, by how far towards it the cards are."""
    held = seat.mission if game.variant == "family" else None
    missions = (held,) if held else getattr(seat, "missions", ())
    if not missions:
        return 0.0
    cards = seat.figurants + getattr(seat, "discarded", ())
    figurants = game.cards.figurants
    total = 0.0
    for mission in filter(lambda m: taught(game, m), missions):
        m = game.cards.missions[mission]
        count = m.count([figurants[f] for f in cards])
        now = m.points_for(count)
        for at_least, points in m.scoring:
            if points > now:
                total += MISSION_WEIGHT * (points - now) * count / at_least
                break
    return total


def outlook(game, s, p: int, memo: dict | None = None) -> float:
    """``p``'s value less the best other player's: what a search for the win maximises."""
    rounds = rounds_left(game, s)
    mine = value(game, s, p, rounds, memo)
    others = max(value(game, s, q, rounds, memo) for q in range(game.n) if q != p)
    return mine - others
