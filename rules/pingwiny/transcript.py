"""Plain-text transcripts of a game: every state, its legal actions, the scores.

Kept as golden files for a few seeds, so that any change in the rules shows
up as a readable diff, in the manner of OpenSpiel's playthroughs.
"""

from rules.colours import COLOURS
from rules.pingwiny.state import State


def counts_text(counts: tuple[int, ...]) -> str:
    return " ".join(f"{COLOURS[c]}={n}" for c, n in enumerate(counts) if n) or "-"


def state_text(s: State) -> list[str]:
    """The state in a few stable lines."""
    lines = [
        f"turn {s.turns} player p{s.current + 1} phase {s.phase}"
        f" draw {s.draw_count} visits {s.visits_left} last_round {s.last_round}",
        f"  bag {counts_text(s.bag)} | board {counts_text(s.board)} | box {counts_text(s.box)}",
        f"  faceup {' '.join(c or '.' for c in s.faceup)} | deck {s.deck_size}"
        f" | pending {list(s.pending)}",
        f"  missions {' '.join(s.missions) or '-'}",
    ]
    for i, p in enumerate(s.players):
        lines.append(
            f"  p{i + 1} {p.penguin} tokens {counts_text(p.tokens)}"
            f" | mission {p.mission or '-'} | figurants {' '.join(p.figurants) or '-'}"
        )
    return lines


def playthrough(game, actions) -> str:
    """Apply ``actions`` from the set-up; the transcript of every step."""
    s = game.new_state()
    out = []
    for number, action in enumerate(actions, start=1):
        out += state_text(s)
        out.append(f"  legal: {' | '.join(map(str, game.legal_actions(s)))}")
        s, events = game.apply(s, action)
        out.append(f"{number}. {action}")
        out += [f"  -> {event}" for event in events]
    out += state_text(s)
    for line in game.score(s).lines:
        out.append(
            f"score p{line.player + 1}: figurants {line.figurants} penguin {line.penguin_bonus}"
            f" mission {line.mission} penalty {line.penalty} total {line.total}"
        )
    out.append(f"winners: {[w + 1 for w in game.score(s).winners]}")
    return "\n".join(out) + "\n"
