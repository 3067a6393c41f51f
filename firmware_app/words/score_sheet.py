"""The score sheet as text: what the panel and the command line print."""

from rules.pingwiny.scoring import ScoreSheet

DECIDED = {
    "points": "wins on points",
    "figurants": "wins the tie with more figurant cards",
    "shared": "share the win (same points, same number of figurant cards)",
}
# Król Popiel's reward tokens, as the panel's reward menu and this sheet name them.
REWARD_NAMES = {
    "plus2": "2-point cheese",
    "plus3": "3-point cheese",
    "extra": "Extra move",
    "double": "Double points",
}


def sheet_text(
    sheet: ScoreSheet,
    names: list[str],
    demo_label: str | None,
    final: bool = True,
    variant: str = "family",
) -> str:
    """One block per player, line by line, then the winner and how it was decided."""
    lines = []
    advanced = any(line.bonus for line in sheet.lines) or variant == "advanced"
    if demo_label:
        lines.append(f"[{demo_label}]")
    for line in sheet.lines:
        lines += [
            f"{names[line.player]} ({line.penguin})",
            f"  figurant cards  {line.figurants:>4}  ({line.cards} cards)",
            f"  penguin bonus   {line.penguin_bonus:>4}",
            f"  mission{'s' if advanced else ' '}        {line.mission:>4}",
            *([f"  card bonuses    {line.bonus:>4}"] if advanced else []),
            f"  penalty         {line.penalty:>4}",
            f"  total           {line.total:>4}",
        ]
    winners = " and ".join(names[w] for w in sheet.winners)
    if final:
        lines.append(f"Winner: {winners} {DECIDED[sheet.decided_by]}")
    else:
        lines.append(f"Leading so far: {winners}")
    return "\n".join(lines)


def player_names(options_names, count: int) -> list[str]:
    """The names by seat; a seat without one (or a game without names) is "Player N"."""
    names = options_names or [None] * count
    return [seat_name(name, i) for i, name in enumerate(names)]


def seat_name(name: str | None, seat: int) -> str:
    """A seat's name in the files the box writes (English): the name, or "Player N"."""
    return name or f"Player {seat + 1}"


def popiel_text(score, names: list[str], demo_label: str | None, final: bool = True) -> str:
    """Król Popiel's totals, with the track space and marker each pawn shows.

    The reward tokens are named as on the panel's reward menu.
    """
    from rules.popiel.track import on_track

    lines = [f"[{demo_label}]"] if demo_label else []
    for p, total in enumerate(score.totals):
        where = on_track(total)
        marker = ", marker flipped" if where.flipped else ""
        laps = f", {where.laps} laps" if where.laps > 1 else ""
        tokens = ", ".join(REWARD_NAMES[kind] for kind in score.rewards[p]) or "no reward tokens"
        lines.append(f"{names[p]}: {total}  (track space {where.space}{marker}{laps}; {tokens})")
    winners = " and ".join(names[w] for w in score.winners)
    lines.append(f"Winner: {winners}" if final else f"Leading so far: {winners}")
    return "\n".join(lines)


def demo_label(game) -> str | None:
    """The made-up-data label of the game's cards or box, if any."""
    box = game.components if game.variant == "popiel" else game.cards
    return box.demo_label


def demo_lines(t, game) -> list[str]:
    """The made-up-data label as a screen's first line, for every screen that shows a value
    from the demo data (counts, the grey tokens, the tower); nothing for real data."""
    from firmware_app.words.i18n import data_label

    label = demo_label(game)
    return [f"[{data_label(t, label)}]"] if label else []


def game_text(game, state) -> str:
    """The score sheet of any game's state, final or so far."""
    names = player_names(game.options.names, game.n)
    final = state.phase == "over"
    sheet = game.score(state)
    if game.variant == "popiel":
        return popiel_text(sheet, names, demo_label(game), final)
    return sheet_text(sheet, names, demo_label(game), final, game.variant)
