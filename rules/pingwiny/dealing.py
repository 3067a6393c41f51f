"""What both variants do with the bag, the figurant deck and the seats.

The family and advanced states name these things alike (``bag``, ``rng``,
``players``, ``deck``, ``faceup``, ``pending``, ``last_round``), so one set of
functions serves both engines. Each works on the engine's working copy of
the state.
"""

from rules import rng
from rules.colours import COLOURS
from rules.errors import IllegalAction, SetupError
from rules.pingwiny.state import add, set_player


def check_options(options, penguin_ids, deck: tuple[str, ...], app_deck: bool) -> None:
    """Refuse dealt penguins or a deck order that do not fit the cards in play."""
    penguins = options.penguins
    if penguins is not None and (
        len(set(penguins)) != options.players or not set(penguins) <= set(penguin_ids)
    ):
        raise SetupError("setup.penguins", penguins=", ".join(penguins))
    if options.deck_order is not None:
        if sorted(options.deck_order) != sorted(deck):
            raise SetupError("setup.deck_order")
        if not app_deck:
            raise SetupError("setup.deck_order_table")


def check_mix(mix_known: bool, app_bag: bool) -> None:
    """The app can be the bag only when it knows what is in it: a mix the table does not
    know is played with the table's own bag."""
    if app_bag and not mix_known:
        raise SetupError("setup.token_mix_unknown")


def bag_model(catalogue) -> tuple[int, ...]:
    """The counts the bag starts from: the box's mix, or bounds where it is not known.

    Known, they are the mix. When the table does not know it ("we don't know"), a
    colour not known is counted at the most it could be: the box's total less the
    colours known. Each count then stays an upper bound as tokens come and go (the real
    bag holds no more than the model), so a colour the table enters is never refused
    against a count nobody knows; the model is never shown as the bag's content.
    """
    tokens = tuple(catalogue.tokens)
    most = catalogue.token_total - sum(n for n in tokens if n is not None)
    return tuple(most if n is None else n for n in tokens)


def seats(seed: int, options, penguin_ids: tuple[str, ...]) -> tuple[int, tuple, int]:
    """The penguins by seat and the first player: as given, or drawn."""
    penguins = options.penguins
    if penguins is None:
        seed, order = rng.shuffled(seed, penguin_ids)
        penguins = order[: options.players]
    first = options.first
    if first is None:
        seed, first = rng.below(seed, options.players)
    return seed, tuple(penguins), first


def shuffled_deck(seed: int, cards: tuple[str, ...], app: bool, order=None) -> tuple[int, tuple]:
    """A deck as groups, top first: known order (app or given) or one unknown group."""
    if order is not None:
        return seed, tuple((card,) for card in order)
    if app:
        seed, order = rng.shuffled(seed, cards)
        return seed, tuple((card,) for card in order)
    return seed, (tuple(sorted(cards)),)


def draw(s, count: int) -> list[int]:
    """The app draws up to ``count`` tokens from the bag (fewer if it runs short)."""
    colours, bag, seed = [], s.bag, s.rng
    for _ in range(min(count, sum(bag))):
        seed, c = rng.pick_from_counts(seed, bag)
        bag = add(bag, c, -1)
        colours.append(c)
    s.bag, s.rng = bag, seed
    return colours


def take_named(s, colours: list[int]) -> None:
    """The table drew these colours: they must be in the bag the engine models."""
    bag = s.bag
    for c in colours:
        if not bag[c]:
            raise IllegalAction("illegal.not_in_bag", colour=COLOURS[c])
        bag = add(bag, c, -1)
    s.bag = bag


def hand_over(s, p: int, colours: list[int], events: list[dict]) -> None:
    """Tokens drawn from the bag go to player ``p``."""
    tokens = s.players[p].tokens
    for c in colours:
        tokens = add(tokens, c)
    set_player(s, p, tokens=tokens)
    events.append({"event": "drew", "player": p, "tokens": [COLOURS[c] for c in colours]})


def refill(s, slot: int, app_deck: bool, events: list[dict]) -> None:
    """Lay the deck's top card in an empty face-up space, if any card is left.

    With the table's deck the space waits for the players to name the card.
    """
    if s.deck_size - len(s.pending) == 0:
        return
    if not app_deck:
        s.pending += (slot,)
        return
    (card,), s.deck = s.deck[0], s.deck[1:]
    lay(s, slot, card, events)


def lay(s, slot: int, card: str, events: list[dict]) -> None:
    """A card face up in ``slot``; the deck's last card starts the last round."""
    s.faceup = s.faceup[:slot] + (card,) + s.faceup[slot + 1 :]
    events.append({"event": "revealed", "slot": slot, "card": card})
    deck_checked(s, events)


def deck_checked(s, events: list[dict]) -> None:
    """The deck's last card is out (laid, or named by a correction): the last round."""
    if not s.deck and not s.last_round:
        s.last_round = True
        events.append({"event": "last_round", "why": "deck"})


def take_from_top(deck: tuple, card: str) -> tuple:
    """The deck without ``card``, which must be one the top group could show."""
    top = deck[0] if deck else ()
    if card not in top:
        raise IllegalAction("illegal.card_not_next", card=card)
    rest = list(top)
    rest.remove(card)
    return ((tuple(rest),) if rest else ()) + deck[1:]


def reveal(s, card: str, events: list[dict]) -> None:
    """The players name the card laid in the first space waiting for one."""
    if not s.pending:
        raise IllegalAction("illegal.no_reveal_expected")
    s.deck = take_from_top(s.deck, card)
    slot, s.pending = s.pending[0], s.pending[1:]
    lay(s, slot, card, events)
