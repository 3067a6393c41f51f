"""The score sheet as text: what the panel and the command line print."""

from rules.pingwiny.scoring import ScoreSheet

DECIDED = {
    "points": "wins on points",
    "figurants": "wins the tie with more figurant cards",
    "shared": "share the win (same points, same number of figurant cards)",
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
    return list(options_names) if options_names else [f"Player {i + 1}" for i in range(count)]
