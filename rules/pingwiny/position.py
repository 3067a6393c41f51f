"""End positions given directly, for tables that only want the scorekeeper.

A position names each player's penguin, figurant cards, mission(s) and the
tokens left (a number, or counts by colour); the advanced variant adds the
cards discarded by using their action. Only the cards named must be known
to the catalogue. The format is in ``docs/game-record.md``.
"""

import difflib

from rules.colours import COLOURS, INDEX
from rules.pingwiny.advanced_cards import advanced_figurant, advanced_mission, card_table
from rules.pingwiny.advanced_scoring import score_seat
from rules.pingwiny.advanced_state import Seat
from rules.pingwiny.cards import CardTable, figurant_card, mission_card
from rules.pingwiny.scoring import ScoreSheet, rank, score_line


class PositionError(ValueError):
    """The position is not well formed or names what the catalogue lacks."""


def score_position(catalogue, position: dict) -> tuple[ScoreSheet, list[str]]:
    """The score sheet and player names of a position."""
    players = position.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= 4:
        raise PositionError("'players' must be a list of 1 to 4 players")
    variant = position.get("variant", "family")
    if variant not in ("family", "advanced"):
        raise PositionError(f"'variant' must be 'family' or 'advanced', not {variant!r}")
    advanced = variant == "advanced"
    problems: list[str] = []
    figurants, missions = {}, {}
    dealt: dict[str, int] = {}  # penguin -> the player who has it
    build_figurant = advanced_figurant if advanced else figurant_card
    build_mission = advanced_mission if advanced else mission_card
    for number, player in enumerate(players, start=1):
        where = f"player {number}"
        if not isinstance(player, dict):
            problems.append(f"{where}: expected an object with the player's cards")
            continue
        for card in _ids(player, "figurants", where, problems) + _ids(
            player, "discarded", where, problems
        ):
            found = _known(
                catalogue.figurants, card, build_figurant, f"{where}: figurant", problems
            )
            figurants[card] = found
        for mission in _missions(player, advanced, where, problems):
            found = _known(
                catalogue.missions, mission, build_mission, f"{where}: mission", problems
            )
            missions[mission] = found
        if not isinstance(player.get("name") or "", str):
            problems.append(f"{where}: 'name' must be text")
        penguin = player.get("penguin")
        _find(catalogue.penguins, penguin, f"{where}: penguin", problems)
        if isinstance(penguin, str) and penguin in dealt:
            problems.append(
                f"{where}: penguin '{penguin}' is player {dealt[penguin]}'s already "
                "(each player has a penguin of their own)"
            )
        elif isinstance(penguin, str):
            dealt[penguin] = number
        _tokens_left(player.get("tokens", 0), where, problems)
    if problems:
        raise PositionError("; ".join(problems))
    names = [p.get("name") or f"Player {i + 1}" for i, p in enumerate(players)]
    if advanced:
        table = card_table(catalogue, list(figurants.values()), list(missions.values()))
        lines = tuple(score_seat(table, i, _seat(p)) for i, p in enumerate(players))
    else:
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
    return rank(lines), names


def _ids(player: dict, key: str, where: str, problems: list[str]) -> list[str]:
    """The card ids under ``key``; a problem line when they are not a list of ids."""
    cards = player.get(key, [])
    if isinstance(cards, list) and all(isinstance(card, str) for card in cards):
        return cards
    problems.append(f"{where}: '{key}' must be a list of card ids")
    return []


def _missions(player: dict, advanced: bool, where: str, problems: list[str]) -> list[str]:
    if advanced:
        return _ids(player, "missions", where, problems)
    mission = player.get("mission")
    if mission is None or isinstance(mission, str):
        return [] if mission is None else [mission]
    problems.append(f"{where}: 'mission' must be a card id")
    return []


def _known(cards, card_id: str, build, where: str, problems: list[str]):
    """The card, built for scoring; a problem line when it is absent or not fully known."""
    found = _find(cards, card_id, where, problems)
    if found is None:
        return None
    built = build(found)
    if built is None:
        problems.append(f"{where} '{card_id}' is not fully known yet")
    return built


def _seat(player: dict) -> Seat:
    held = _tokens_left(player.get("tokens", 0), "", [])
    return Seat(
        player["penguin"],
        (held, 0, 0, 0, 0, 0, 0),
        tuple(player.get("figurants", [])),
        tuple(player.get("discarded", [])),
        tuple(player.get("missions", [])),
        True,
        0,
        "middle",
    )


def _find(cards, card_id, where: str, problems: list[str]):
    """The card of ``card_id``; else a problem line naming the closest known id."""
    for card in cards:
        if card.id == card_id:
            return card
    close = difflib.get_close_matches(str(card_id), [card.id for card in cards], n=1)
    guess = f" (did you mean '{close[0]}'?)" if close else ""
    problems.append(f"{where} '{card_id}' is not in the catalogue{guess}")
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
