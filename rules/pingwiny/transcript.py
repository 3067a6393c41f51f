"""Plain-text transcripts of a game: every state, its legal actions, the scores.

Kept as golden files for a few seeds, so that any change in the rules shows
up as a readable diff, in the manner of OpenSpiel's playthroughs. Each
variant says how its states, legal actions and score lines read (a
``Style``); the walk through the game is the same for all.
"""

from collections.abc import Callable
from typing import NamedTuple

from rules.actions import Action
from rules.colours import COLOURS
from rules.pingwiny.scoring import Line
from rules.pingwiny.state import State


class Style(NamedTuple):
    """How one variant writes a state, its legal actions and a score line."""

    state: Callable[[object], list[str]]
    legal: Callable[[list[Action]], str]
    score: Callable[[Line], str]


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


def legal_text(actions: list[Action]) -> str:
    return f"  legal: {' | '.join(map(str, actions))}"


def score_text(line: Line) -> str:
    return (
        f"score p{line.player + 1}: figurants {line.figurants} penguin {line.penguin_bonus}"
        f" mission {line.mission} penalty {line.penalty} total {line.total}"
    )


FAMILY = Style(state_text, legal_text, score_text)


def playthrough(game, actions, style: Style = FAMILY) -> str:
    """Apply ``actions`` from the set-up; the transcript of every step."""
    s = game.new_state()
    out = []
    for number, action in enumerate(actions, start=1):
        out += style.state(s)
        out.append(style.legal(game.legal_actions(s)))
        s, events = game.apply(s, action)
        out.append(f"{number}. {action}")
        out += [f"  -> {event}" for event in events]
    out += style.state(s)
    sheet = game.score(s)
    out += [style.score(line) for line in sheet.lines]
    out.append(f"winners: {[w + 1 for w in sheet.winners]}")
    return "\n".join(out) + "\n"
