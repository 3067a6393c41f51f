"""End positions given directly, for tables that only want the scorekeeper.

A position names each player's penguin, figurant cards, mission (or none)
and the tokens left (a number, or counts by colour). Only the cards named
must be known to the catalogue.
"""

from rules.colours import COLOURS, INDEX
from rules.pingwiny.cards import CardTable, FigurantCard, MissionCard, figurant_card, mission_card
from rules.pingwiny.scoring import ScoreSheet, rank, score_line


class PositionError(ValueError):
    """The position is not well formed or names what the catalogue lacks."""


def score_position(catalogue, position: dict) -> tuple[ScoreSheet, list[str]]:
    """The score sheet and player names of a position (see ``docs/game-record.md``)."""
    players = position.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= 4:
        raise PositionError("'players' must be a list of 1 to 4 players")
    problems: list[str] = []
    figurants: dict[str, FigurantCard] = {}
    missions: dict[str, MissionCard] = {}
    for number, player in enumerate(players, start=1):
        where = f"player {number}"
        for card in player.get("figurants", []):
            f = _find(catalogue.figurants, card, f"{where}: figurant", problems)
            if f is not None:
                figurants[card] = figurant_card(f)
                if figurants[card] is None:
                    problems.append(f"{where}: figurant '{card}' is not fully known yet")
        mission = player.get("mission")
        if mission is not None:
            m = _find(catalogue.missions, mission, f"{where}: mission", problems)
            if m is not None:
                missions[mission] = mission_card(m)
                if missions[mission] is None:
                    problems.append(f"{where}: mission '{mission}' is not fully known yet")
        _find(catalogue.penguins, player.get("penguin"), f"{where}: penguin", problems)
        _tokens_left(player.get("tokens", 0), where, problems)
    if problems:
        raise PositionError("; ".join(problems))
    table = CardTable(
        figurants=figurants,
        missions=missions,
        penguins={p.id: INDEX[p.colour] for p in catalogue.penguins},
        tokens=(),
        deck=(),
        mission_row=(),
        demo_label=catalogue.label if catalogue.is_demo else None,
    )
    lines = tuple(
        score_line(
            table,
            i,
            p["penguin"],
            p.get("figurants", []),
            p.get("mission"),
            _tokens_left(p.get("tokens", 0), "", []),
        )
        for i, p in enumerate(players)
    )
    names = [p.get("name") or f"Player {i + 1}" for i, p in enumerate(players)]
    return rank(lines), names


def _find(cards, card_id, where: str, problems: list[str]):
    for card in cards:
        if card.id == card_id:
            return card
    problems.append(f"{where} '{card_id}' is not in the catalogue")
    return None


def _tokens_left(tokens, where: str, problems: list[str]) -> int:
    if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens >= 0:
        return tokens
    if isinstance(tokens, dict) and all(
        c in COLOURS and isinstance(n, int) and n >= 0 for c, n in tokens.items()
    ):
        return sum(tokens.values())
    problems.append(f"{where}: 'tokens' must be a number or counts by colour")
    return 0
