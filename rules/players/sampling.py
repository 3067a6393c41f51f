"""What a player at the table knows, and one world consistent with it.

A virtual player must not read what the table cannot see: the order of the
figurant and mission decks and the future draws from the bag and the die.
Everything else is public: what lies face up, every player's tokens, cards
and missions, the board, and the bag's contents (the token mix less every
token out of the bag, which is what the state's ``bag`` counts hold).

``sample`` returns a copy of the state in which the hidden part is drawn
afresh from a sample seed: the cards of each deck, sorted so their true
order leaves no trace, are shuffled into a new order, and the random source
is replaced. The search thinks only about such samples, so its choice is the
same whatever the real deck order is (the no-peeking test holds it to that).
One thing the table could know is given up on purpose: that the cards a Zoo
gate visit put under the deck lie at its bottom. The sample shuffles the
whole deck, which makes the player a little weaker and never better informed.

The search plays the sampled worlds with the app as the bag, the deck and the
die (``app_random``), whoever is random at the real table: the chance in an
action is then drawn inside ``apply`` from the sample's seed.
"""

import copy
from dataclasses import replace

from rules import rng
from rules.colours import GREY

# Decks of each variant's state: the figurant deck, and the advanced mission deck.
DECKS = ("deck", "mission_deck")


def sample(state, seed: int, game=None):
    """A copy of ``state`` with the deck orders and the random source drawn from ``seed``;
    with ``game`` played without the token mix, the bag as ``believed_bag`` has it."""
    s = state.copy()
    if game is not None and not game.cards.mix_known:
        believed_bag(game, s)
    seed = rng.seed_state(seed)
    for name in DECKS:
        deck = getattr(s, name, None)
        if deck is None:
            continue
        cards = tuple(sorted(card for group in deck for card in group))
        seed, order = rng.shuffled(seed, cards)
        setattr(s, name, tuple((card,) for card in order))
    s.rng, _ = rng.next_u64(seed)
    return s


def believed_bag(game, s) -> None:
    """A plain belief about a bag whose mix the table did not count, put into ``s``.

    The engine then holds bounds only (``dealing.bag_model``: each colour not counted
    at every token not counted). The belief: those tokens were shared evenly among the
    colours not counted (the first colours in ``COLOURS`` order taking one more when
    they do not divide), and what has come out of the bag since came out of that
    share. It serves the search's imagined draws only, and is never shown.
    """
    mix, start = game.cards.mix, game.cards.tokens
    unknown = [c for c in range(len(mix)) if mix[c] is None]
    left = start[unknown[0]]
    over = {
        c: left - (left // len(unknown) + (i < left % len(unknown))) for i, c in enumerate(unknown)
    }
    bag = list(s.bag)
    for c in unknown:
        bag[c] = max(0, bag[c] - over[c])
    s.bag = tuple(bag)
    if hasattr(s, "grey") and GREY in over:  # advanced: the greys beside the board
        s.grey = max(0, s.grey - over[GREY])


def app_random(game):
    """The same game with the app drawing, shuffling and rolling, for the search's worlds.

    Points not taught yet (the table may leave them to the score sheet) count
    0 there: a planner values only what the table has said. Points decide no
    legal action, so the search's choices stay legal in the real game.
    """
    unknown = [c for c, f in game.cards.figurants.items() if f.points is None]
    if game.app_bag and game.app_deck and getattr(game, "app_die", True) and not unknown:
        return game
    search = copy.copy(game)
    search.app_bag = search.app_deck = search.app_die = True
    if unknown:
        figurants = dict(game.cards.figurants)
        figurants.update({c: replace(figurants[c], points=0) for c in unknown})
        search.cards = replace(game.cards, figurants=figurants)
    return search


def seeds(seed: int):
    """An endless stream of sample seeds derived from one seed."""
    state = rng.seed_state(seed ^ 0x5EED_0F_7AB1E5)
    while True:
        state, value = rng.next_u64(state)
        yield value
