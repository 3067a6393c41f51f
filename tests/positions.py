"""Positions built for a test, and actions played on them, for any game's engine."""


def with_fields(state, **fields):
    """A copy of ``state`` with some fields replaced: a position built for a test."""
    new = state.copy()
    for name, value in fields.items():
        setattr(new, name, value)
    return new


def with_player(state, index: int, **fields):
    """A copy of ``state`` with some fields of one player replaced."""
    players = list(state.players)
    players[index] = players[index]._replace(**fields)
    return with_fields(state, players=tuple(players))


def play(game, state, *actions):
    """Apply actions in order; returns the last state and every event."""
    events = []
    for action in actions:
        state, happened = game.apply(state, action)
        events += happened
    return state, events
