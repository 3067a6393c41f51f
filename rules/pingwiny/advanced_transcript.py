"""Plain-text transcripts of advanced games, for the golden files.

The walk is ``transcript.playthrough``'s; this module says how an advanced
state reads: the board row by row (``*`` marks an Officer X marker), the
supplies, both rows of cards, what a multi-step action waits for, and each
player's penguin, place and holdings. A turn offers many more actions than a
family visit (every edge of every tile the Otter reaches, every way to pay),
so a long list is summed up by verb: the files stay small enough to read,
and a rule that changes what is legal still changes a count.
"""

from collections import Counter

from rules.actions import Action
from rules.pingwiny.advanced_state import AdvancedState
from rules.pingwiny.scoring import Line
from rules.pingwiny.transcript import Style, counts_text
from rules.pingwiny.transcript import playthrough as walk

LISTED = 24  # up to this many legal actions are written out one by one


def state_text(s: AdvancedState) -> list[str]:
    """The state in a few stable lines."""
    rows = [
        " ".join(s.layout[sq] + ("*" if sq in s.markers else "") for sq in range(r, r + 3))
        for r in (0, 3, 6)
    ]
    lines = [
        f"turn {s.turns} player p{s.current + 1} phase {s.phase} actions {s.actions_left}"
        f" stay {s.stay} last_round {s.last_round}",
        f"  board {' / '.join(rows)}",
        f"  bag {counts_text(s.bag)} | supply {counts_text(s.board)}"
        f" | grey beside {s.grey} | box {counts_text(s.box)}",
        f"  faceup {_row(s.faceup)} | deck {s.deck_size} | pending {list(s.pending)}",
        f"  missions {_row(s.mission_row)} | deck {s.mission_deck_size}"
        f" | pending {list(s.pending_missions)}",
    ]
    waiting = _waiting(s)
    if waiting:
        lines.append(f"  waiting {waiting}")
    for i, p in enumerate(s.players):
        lines.append(
            f"  p{i + 1} {p.penguin} at {s.layout[p.square]}:{p.spot}"
            f" tokens {counts_text(p.tokens)} | missions {' '.join(p.missions) or '-'}"
            f" | figurants {' '.join(p.figurants) or '-'}"
            f" | discarded {' '.join(p.discarded) or '-'}"
            + (" | penguin used" if p.penguin_used else "")
        )
    return lines


def _row(cards: tuple[str | None, ...]) -> str:
    return " ".join(c or "." for c in cards)


def _waiting(s: AdvancedState) -> str:
    """What a step inside an action waits on: exchanges, Officer X, losers, final actions."""
    parts = []
    if s.phase == "gastro":
        parts.append(f"fresh {counts_text(s.fresh)} exchanged {s.exchanged}")
    if s.officer is not None:
        player, low, high = s.officer
        parts.append(f"officer p{player + 1} range {low}-{high}")
    if s.losers:
        parts.append(f"losers {' '.join(f'p{q + 1}' for q in s.losers)}")
    if s.final_left:
        parts.append(f"final {' '.join(f'p{q + 1}' for q in s.final_left)}")
    return " | ".join(parts)


def legal_text(actions: list[Action]) -> str:
    """Every legal action, or for a long list how many of each verb."""
    if len(actions) <= LISTED:
        return f"  legal: {' | '.join(map(str, actions))}"
    counts = Counter(a.verb for a in actions)
    return f"  legal {len(actions)}: " + ", ".join(f"{verb} {n}" for verb, n in counts.items())


def score_text(line: Line) -> str:
    return (
        f"score p{line.player + 1}: figurants {line.figurants} penguin {line.penguin_bonus}"
        f" missions {line.mission} cards {line.bonus} penalty {line.penalty}"
        f" total {line.total} ({line.cards} figurants)"
    )


ADVANCED = Style(state_text, legal_text, score_text)


def playthrough(game, actions) -> str:
    """Apply ``actions`` from the set-up of an advanced game; the transcript of every step."""
    return walk(game, actions, ADVANCED)
