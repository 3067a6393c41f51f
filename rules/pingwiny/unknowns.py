"""Which card values a position needs that the catalogue does not know yet.

A game may start on a box whose cards are only partly known: the table
teaches a value when the game first needs it, and the catalogue in the
game's record is completed then. Values only ever go from unknown to known,
and the engine refuses whatever would read a value still unknown (a card of
unknown cost cannot be bought, a score with unknown points is not drawn up),
so no recorded action depends on a value taught after it: the completed
record replays to the same game.

``when`` says how soon the value is needed: ``"now"`` (play cannot offer
the card without it: the cost of a face-up card, and on the advanced side
its Officer X range and its effect) or ``"score"`` (only the score reads
it: points, types and missions' scoring).
"""

from dataclasses import dataclass

from rules.errors import IllegalAction


@dataclass(frozen=True)
class Unknown:
    section: str  # "figurant", "mission" or "penguin"
    card: str
    side: str  # "family" or "advanced"
    fields: tuple[str, ...]
    when: str  # "now" or "score"


FIGURANT_NOW = {"family": ("cost",), "advanced": ("cost", "officer_x", "effect")}
FIGURANT_SCORE = ("points", "type")
MISSION_FIELDS = {"family": ("type", "scoring"), "advanced": ("type", "scoring", "effect")}


def unknowns(game, s) -> list[Unknown]:
    """The unknown values of the cards in play now, face-up cards first, each card once."""
    side = game.variant
    found: list[Unknown] = []
    seen: set[tuple[str, str]] = set()

    def note(section: str, card_id: str, names: tuple[str, ...], when: str) -> None:
        card = (
            game.cards.figurants[card_id] if section == "figurant" else game.cards.missions[card_id]
        )
        fields = tuple(name for name in names if getattr(card, name) is None)
        if fields and (section, card_id, when) not in seen:
            seen.add((section, card_id, when))
            found.append(Unknown(section, card_id, side, fields, when))

    held = _held(s)
    for card in [c for c in s.faceup if c is not None]:
        note("figurant", card, FIGURANT_NOW[side], "now")
        note("figurant", card, FIGURANT_SCORE, "score")
    for card in held:
        note("figurant", card, FIGURANT_SCORE, "score")
    row = getattr(s, "mission_row", None) or s.missions
    for mission in (*(m for m in row if m is not None), *_held_missions(s)):
        note("mission", mission, MISSION_FIELDS[side], "score")
    return found


def check_scorable(game, s) -> None:
    """Refuse to draw up a score that would read an unknown value of a card held."""
    held = {*_held(s), *_held_missions(s)}
    cards = sorted(u.card for u in unknowns(game, s) if u.when == "score" and u.card in held)
    if cards:
        raise IllegalAction("illegal.values_unknown", cards=", ".join(cards))


def _held(s) -> list[str]:
    """Every figurant in front of a player, used ones included (they still score)."""
    return [f for p in s.players for f in p.figurants + getattr(p, "discarded", ())]


def _held_missions(s) -> list[str]:
    found = []
    for player in s.players:
        missions = getattr(player, "missions", None)
        found += missions if missions is not None else [player.mission]
    return [m for m in found if m is not None]
