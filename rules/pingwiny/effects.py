"""Card effects: the small vocabulary the catalogue composes cards from.

A card's effect is data (``{do = "take", colour = "yellow", count = 1}``),
so a card an owner teaches the box can be given an effect without new code.
Actions (figurant ``{A}`` cards and penguin cards) are played with
``use CARD ...`` or ``penguin ...``; the words after the card are the
choices the effect needs (a colour, a player, a location). Permanent
effects are read by scoring (``bonus_with``, ``bonus_per_type``) and by
targeting (``immune``).

Each action primitive has two functions: ``options`` lists every legal
choice (as tuples of words) and ``apply`` checks one choice and plays it.
"""

from itertools import combinations_with_replacement

from rules import rng
from rules.actions import colour_word
from rules.catalogue.effects import ACTIONS
from rules.colours import COLOURS, GREY
from rules.errors import IllegalAction
from rules.numbers import seat
from rules.pingwiny import board as geometry
from rules.pingwiny.state import add, set_player


def param(effect, name: str):
    return dict(effect.params)[name]


def is_action(effect) -> bool:
    return effect is not None and effect.do in ACTIONS


# ------------------------------------------------------------------ options


def options(game, s, p: int, card: str, effect) -> list[tuple[str, ...]]:
    """Every legal choice for playing ``effect`` now (empty: it cannot be played)."""
    do = effect.do
    if do == "draw":
        count = min(param(effect, "count"), sum(s.bag))
        if not count:
            return []
        if game.app_bag:
            return [()]
        return _bag_picks(s.bag, count)
    if do == "draw_colour":
        return [()] if s.bag[colour_word(param(effect, "colour"))] else []
    if do == "take":
        return [()] if s.board[colour_word(param(effect, "colour"))] else []
    if do == "grey":
        return [()] if s.grey else []
    if do == "give":
        hand = s.players[p].tokens
        if sum(hand) < param(effect, "count"):
            return []
        picks = _bag_picks(hand, param(effect, "count"))
        return [("+".join(pick), f"p{q + 1}") for q in _targets(game, s, p, card) for pick in picks]
    if do == "steal" and game.app_bag:
        return [(f"p{q + 1}",) for q in _holders(game, s, p, card)]
    if do in ("steal", "steal_choice"):  # the tokens named: taken at random, or chosen
        return [
            (f"p{q + 1}", "+".join(pick))
            for q in _holders(game, s, p, card)
            for pick in _bag_picks(
                s.players[q].tokens, min(param(effect, "count"), sum(s.players[q].tokens))
            )
        ]
    if do == "others_discard":
        return [()] if _holders(game, s, p, card) else []
    if do == "acquire":  # what Headquarters offers (never a card whose values are unknown)
        return [tuple(a[1:]) for a in game._legal_acquisitions(s, p)]
    if do == "remove_marker":
        return [(s.layout[square],) for square in s.markers]
    if do == "move":
        if s.stay:
            return []
        return [(s.layout[square],) for square in range(9) if square != s.players[p].square]
    raise ValueError(f"unknown effect {do!r}")


def _bag_picks(counts: tuple[int, ...], k: int) -> list[tuple[str, ...]]:
    """Every multiset of ``k`` colours that ``counts`` can give, as colour names."""
    present = [c for c in range(7) if counts[c]]
    return [
        tuple(COLOURS[c] for c in pick)
        for pick in combinations_with_replacement(present, k)
        if all(pick.count(c) <= counts[c] for c in set(pick))
    ]


def _targets(game, s, p: int, card: str) -> list[int]:
    """Other players this card's action may affect (``immune`` cards protect)."""
    return [q for q in range(len(s.players)) if q != p and not game.immune(s, q, card)]


def _holders(game, s, p: int, card: str) -> list[int]:
    """The other players this card's action may affect who hold a token."""
    return [q for q in _targets(game, s, p, card) if any(s.players[q].tokens)]


# -------------------------------------------------------------------- apply


def apply(game, s, p: int, card: str, effect, words: tuple[str, ...], events: list[dict]) -> None:
    """Check the choice ``words`` against ``options`` and play the effect of ``card`` (a
    figurant, or the player's penguin), which a refusal names."""
    legal = options(game, s, p, card, effect)
    if words not in legal:
        if not legal:
            raise IllegalAction("illegal.effect_impossible", card=card)
        raise IllegalAction("illegal.effect_choice", card=card, choice=" ".join(words) or "-")
    _PLAY[effect.do](game, s, p, card, effect, words, events)


def _play_draw(game, s, p, card, effect, words, events) -> None:
    if game.app_bag:
        count = min(param(effect, "count"), sum(s.bag))
        colours, bag, seed = [], s.bag, s.rng
        for _ in range(count):
            seed, c = rng.pick_from_counts(seed, bag)
            bag = add(bag, c, -1)
            colours.append(c)
        s.rng, s.bag = seed, bag
    else:
        colours = [colour_word(w) for w in words]
        for c in colours:
            s.bag = add(s.bag, c, -1)
    _receive(s, p, colours, "bag", events)


def _play_draw_colour(game, s, p, card, effect, words, events) -> None:
    c = colour_word(param(effect, "colour"))
    n = min(param(effect, "count"), s.bag[c])
    s.bag = add(s.bag, c, -n)
    _receive(s, p, [c] * n, "bag", events)


def _play_take(game, s, p, card, effect, words, events) -> None:
    c = colour_word(param(effect, "colour"))
    n = min(param(effect, "count"), s.board[c])
    s.board = add(s.board, c, -n)
    _receive(s, p, [c] * n, "board", events)


def _play_grey(game, s, p, card, effect, words, events) -> None:
    n = min(param(effect, "count"), s.grey)
    s.grey -= n
    _receive(s, p, [GREY] * n, "beside the board", events)


def _play_give(game, s, p, card, effect, words, events) -> None:
    colours = [colour_word(w) for w in words[0].split("+")]
    q = seat(words[1]) - 1  # checked against the options: a seat of the table
    _move_tokens(s, p, q, colours)
    events.append({"event": "gave", "player": p, "to": q, "tokens": [COLOURS[c] for c in colours]})


def _play_steal(game, s, p, card, effect, words, events) -> None:
    q = seat(words[0]) - 1
    if game.app_bag and effect.do == "steal":
        colours, hand, seed = [], s.players[q].tokens, s.rng
        for _ in range(min(param(effect, "count"), sum(hand))):
            seed, c = rng.pick_from_counts(seed, hand)
            hand = add(hand, c, -1)
            colours.append(c)
        s.rng = seed
    else:
        colours = [colour_word(w) for w in words[1].split("+")]
    _move_tokens(s, q, p, colours)
    events.append(
        {"event": "took_from", "player": p, "from": q, "tokens": [COLOURS[c] for c in colours]}
    )


def _play_others_discard(game, s, p, card, effect, words, events) -> None:
    """Each other player discards random tokens: the app draws them, or the table names them."""
    losers, n = [], len(s.players)
    for q in sorted(_holders(game, s, p, card), key=lambda q: (q - p) % n):  # in turn order
        losers += [q] * min(param(effect, "count"), sum(s.players[q].tokens))
    if not game.app_bag:
        s.losers = tuple(losers)
        return
    for q in losers:
        s.rng, c = rng.pick_from_counts(s.rng, s.players[q].tokens)
        game._lose(s, q, c, events)


def _play_acquire(game, s, p, card, effect, words, events) -> None:
    game._acquire(s, p, words[0], tuple(words[1:]), events)


def _play_remove_marker(game, s, p, card, effect, words, events) -> None:
    square = s.layout.index(words[0])
    s.markers = tuple(m for m in s.markers if m != square)
    events.append({"event": "marker_removed", "player": p, "location": words[0]})


def _play_move(game, s, p, card, effect, words, events) -> None:
    square = s.layout.index(words[0])
    set_player(s, p, square=square, spot=geometry.MIDDLE)
    events.append({"event": "moved", "player": p, "location": words[0], "spot": geometry.MIDDLE})


def _receive(s, p: int, colours: list[int], source: str, events: list[dict]) -> None:
    tokens = s.players[p].tokens
    for c in colours:
        tokens = add(tokens, c)
    set_player(s, p, tokens=tokens)
    events.append(
        {"event": "took", "player": p, "from": source, "tokens": [COLOURS[c] for c in colours]}
    )


def _move_tokens(s, giver: int, taker: int, colours: list[int]) -> None:
    give, take = s.players[giver].tokens, s.players[taker].tokens
    for c in colours:
        give, take = add(give, c, -1), add(take, c)
    set_player(s, giver, tokens=give)
    set_player(s, taker, tokens=take)


_PLAY = {
    "draw": _play_draw,
    "draw_colour": _play_draw_colour,
    "take": _play_take,
    "give": _play_give,
    "steal": _play_steal,
    "steal_choice": _play_steal,
    "others_discard": _play_others_discard,
    "acquire": _play_acquire,
    "remove_marker": _play_remove_marker,
    "move": _play_move,
    "grey": _play_grey,
}
