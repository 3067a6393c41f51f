"""Scoring of the advanced variant, line by line.

    Count victory points based on the cards you hold at the end of the game,
    including cards you have discarded by performing their actions.

Figurant points, the penguin bonus (1 per 2 cards showing its colour), each
mission by how far it was completed, the cards' own bonuses (Red Squirrel
with the Vesuvius Brothers, Zoe with Gladys, ...), and 1 penalty point per
token held unless a mission (Lightning Disappearance) protects from them.
"""

from rules.pingwiny.scoring import Line, ScoreSheet, rank


def card_bonus(cards, held: list) -> int:
    """The permanent bonuses of the cards held, for the cards held with them."""
    ids = {card.id for card in held}
    total = 0
    for card in held:
        effect = cards.bonuses.get(card.id)
        if effect is None:
            continue
        if effect.do == "bonus_with" and effect.param("card") in ids:
            total += effect.param("points")
        elif effect.do == "bonus_per_type":
            others = sum(1 for o in held if o.id != card.id and o.type == effect.param("type"))
            total += others * effect.param("points")
    return total


def score_seat(cards, index: int, seat) -> Line:
    held = [cards.figurants[f] for f in seat.figurants + seat.discarded]
    colour = cards.penguins[seat.penguin]
    points = sum(card.points for card in held)
    bonus = sum(1 for card in held if card.cost[colour]) // 2
    missions = 0
    for mission in seat.missions:
        m = cards.missions[mission]
        missions += m.score(held)
    protected = any(cards.mission_effects.get(m) == "no_penalty" for m in seat.missions)
    penalty = 0 if protected else -sum(seat.tokens)
    extra = card_bonus(cards, held)
    total = points + bonus + missions + extra + penalty
    return Line(index, seat.penguin, points, bonus, missions, penalty, total, len(held), extra)


def score_seats(cards, seats) -> ScoreSheet:
    return rank(tuple(score_seat(cards, i, seat) for i, seat in enumerate(seats)))
