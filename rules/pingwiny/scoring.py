"""Scoring of Pingwiny z Madagaskaru, line by line, and the winners.

Each figurant card is worth the points on its shield.
The penguin card gives 1 point for every 2 figurant cards that show at
least one token of the penguin's colour.
A mission gives points for the figurant cards of the type(s) it names (or the
different types among them).
1 penalty point for each token still held (see the interpretations).
Ties: more figurant cards wins; still tied, the players win together.
"""

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Line:
    """One player's score, with the breakdown the score sheet shows."""

    player: int
    penguin: str
    figurants: int
    penguin_bonus: int
    mission: int
    penalty: int
    total: int
    cards: int
    bonus: int = 0  # the cards' own bonuses (advanced variant)


@dataclass(frozen=True)
class ScoreSheet:
    lines: tuple[Line, ...]
    winners: tuple[int, ...]
    decided_by: str  # "points", "figurants" or "shared"

    def to_json(self) -> dict:
        return {
            "players": [asdict(line) for line in self.lines],
            "winners": list(self.winners),
            "decided_by": self.decided_by,
        }


def score_line(cards, index: int, penguin: str, figurants, mission, tokens_held: int) -> Line:
    """Score one player from what they hold at the end."""
    held = [cards.figurants[f] for f in figurants]
    colour = cards.penguins[penguin]
    points = sum(card.points for card in held)
    bonus = sum(1 for card in held if card.cost[colour]) // 2
    mission_points = 0
    if mission is not None:
        m = cards.missions[mission]
        mission_points = m.score(held)
    total = points + bonus + mission_points - tokens_held
    return Line(index, penguin, points, bonus, mission_points, -tokens_held, total, len(held))


def rank(lines: tuple[Line, ...]) -> ScoreSheet:
    """Winners by total, then by number of figurants; otherwise shared."""
    best = max(line.total for line in lines)
    leaders = [line for line in lines if line.total == best]
    if len(leaders) == 1:
        return ScoreSheet(lines, (leaders[0].player,), "points")
    most = max(line.cards for line in leaders)
    winners = tuple(line.player for line in leaders if line.cards == most)
    return ScoreSheet(lines, winners, "figurants" if len(winners) == 1 else "shared")


def score_players(cards, players) -> ScoreSheet:
    """The score sheet of players given as (penguin, tokens, figurants, mission)."""
    lines = tuple(
        score_line(cards, i, p.penguin, p.figurants, p.mission, sum(p.tokens))
        for i, p in enumerate(players)
    )
    return rank(lines)
