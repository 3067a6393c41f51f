"""A journal of known finished games, for the statistics' tests."""

import json
from pathlib import Path

EXAMPLES = Path(__file__).parents[1] / "examples"
HEADERS = {
    ("pingwiny", "family"): "family-3p-seed7.json",
    ("pingwiny", "advanced"): "advanced-3p-seed5.json",
    ("popiel", "standard"): "krol-popiel-3p-game.json",
}


def header(names, game="pingwiny", variant="family", mice=None):
    """A real game's header (its catalogue from an example) with these players."""
    record = json.loads((EXAMPLES / HEADERS[game, variant]).read_text(encoding="utf-8"))
    record["actions"] = []
    players = list(mice) if mice else len(names)
    record["options"] |= {"players": players, "names": names, "seed": 1}
    return record


def sheet(penguins, totals, winners):
    lines = [
        {"player": i, "penguin": p, "figurants": t, "penguin_bonus": 0, "mission": 0,
         "penalty": 0, "total": t, "cards": 1, "bonus": 0}
        for i, (p, t) in enumerate(zip(penguins, totals, strict=True))
    ]  # fmt: skip
    return {"players": lines, "winners": winners, "decided_by": "points"}


def finish(journal, names, penguins, totals, winners, started, minutes=30, **kind):
    game = journal.start_game(header(names, **kind), now=started)
    journal.finish(game, sheet(penguins, totals, winners), now=started + minutes * 60)
    return game


def known_games(opened) -> None:
    """Five known games: four Pingwiny (one shared win, one unnamed seat), one Król Popiel.

    One more game is abandoned, and one is still being played: neither counts.
    """
    finish(opened, ["Ala", "Olek"], ["rico", "skipper"], [20, 15], [0], 1000)
    finish(opened, ["Ala", "Olek"], ["rico", "kowalski"], [12, 18], [1], 5000, minutes=40)
    finish(opened, ["Ala", "Olek", "Iza"], ["kowalski", "rico", "skipper"], [9, 9, 4],
           [0, 1], 9000)  # fmt: skip
    finish(opened, ["Ala", None], ["rico", "skipper"], [30, 2], [0], 13000, variant="advanced")
    popiel = opened.start_game(
        header(["Ala", "Iza"], game="popiel", variant="standard", mice=["red", "blue"]),
        now=17000,
    )
    opened.finish(popiel, {"scores": [31, 40], "winners": [1]}, now=17600)
    abandoned = opened.start_game(header(["Ala", "Olek"]), now=20000)
    opened.abandon(abandoned, now=20500)
    opened.start_game(header(["Ala", "Olek"]), now=21000)


def more_games(journal, count: int, started: float = 100_000) -> None:
    """``count`` more finished games of Ala and Olek, the scores by their number."""
    for n in range(count):
        ala = n % 7
        winners = [0] if ala > 3 else [0, 1] if ala == 3 else [1]
        finish(journal, ["Ala", "Olek"], ["rico", "skipper"], [ala, 3], winners, started + n * 100)


def every_figure(stats) -> dict:
    """Everything a screen, a command or an export can ask of a cache, to compare two."""
    names = stats.players()
    kinds = [(None, None), ("pingwiny", None), ("pingwiny", "family"), ("popiel", None)]
    return {
        "rows": stats.rows(),
        "games": [stats.games(*kind) for kind in kinds],
        "players": [stats.player(name, *kind) for name in names for kind in kinds],
        "pairs": [stats.head_to_head(a, b) for a in names for b in names if a != b],
        "last": stats.last_games(100),
    }
