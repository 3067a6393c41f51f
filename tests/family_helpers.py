"""Shared set-ups for the family-variant tests: games, positions, play-outs."""

import random

from rules.colours import INDEX
from rules.pingwiny.family import FamilyGame
from rules.pingwiny.options import Options
from rules.pingwiny.state import NO_TOKENS, State


def tokens(**counts: int) -> tuple[int, ...]:
    """A 7-tuple of token counts from colour names: ``tokens(red=2, grey=1)``."""
    result = list(NO_TOKENS)
    for colour, n in counts.items():
        result[INDEX[colour]] = n
    return tuple(result)


def new_game(catalogue, **options) -> tuple[FamilyGame, State]:
    options.setdefault("players", 2)
    game = FamilyGame(catalogue, Options(**options))
    return game, game.new_state()


def at_visits(game: FamilyGame, state: State) -> State:
    """Play the current player's draw so the state waits for a visit."""
    while state.phase == "draw":
        state, _ = game.apply(state, game.legal_actions(state)[0])
    return state


def random_playout(
    game: FamilyGame, state: State, seed: int, limit: int = 5000, eager: bool = False
):
    """Random legal actions to the end (or ``limit``); yields (state, action, next).

    ``eager`` players acquire a figurant whenever they can, which ends games
    sooner (shorter transcripts) and reaches the end-of-game rules more often.
    """
    chooser = random.Random(seed)
    for _ in range(limit):
        actions = game.legal_actions(state)
        if not actions:
            return
        acquisitions = [a for a in actions if a[:2] == ("visit", "hq")] if eager else []
        action = chooser.choice(acquisitions or actions)
        after, _ = game.apply(state, action)
        yield state, action, after
        state = after


def token_total(state: State) -> tuple[int, ...]:
    """Tokens per colour over bag, board, box and hands: never changes."""
    places = [state.bag, state.board, state.box] + [p.tokens for p in state.players]
    return tuple(sum(place[c] for place in places) for c in range(7))
