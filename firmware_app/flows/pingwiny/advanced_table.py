"""What the advanced game tells the table: events as instructions, the board as text,
the help pages, the score sheet and the end."""

from firmware_app.flows.pingwiny.help import PAGES
from firmware_app.flows.shared.seats import player_label, seat_label
from firmware_app.ui.screens import Item, Menu
from firmware_app.words.i18n import card_name
from firmware_app.words.score_sheet import demo_lines
from firmware_app.words.table_text import (
    SUPPLY_PLACE,
    acquired_line,
    bag_line,
    counted,
    cycles,
    laid_line,
    new_row,
    penguin_name,
    returns,
    tokens_counted,
)
from rules.colours import COLOURS

SPOT_NAMES = {
    "middle": "Middle",
    "n": "North edge",
    "e": "East edge",
    "s": "South edge",
    "w": "West edge",
}
# Short tile names for the text board: three to a row of the panel.
TILE_CODES = {
    "chimp": "Chi",
    "gorilla": "Gor",
    "shop": "Sho",
    "storehouse": "Sto",
    "otter": "Ott",
    "lemur": "Lem",
    "gate": "Gat",
    "gastro": "Gas",
    "hq": "HQ",
}
LAST_ROUND = {
    "deck": "The deck is empty: this is the last round.",
    "officer_x": "The eighth Officer X marker: this is the last round.",
}


def status_lines(app) -> list[str]:
    """Who holds what and stands where, the board as text, the bag and decks."""
    t, game, s = app.t, app.session.game, app.session.state
    lines = demo_lines(t, game)
    for i, p in enumerate(s.players):
        lines.append(f"{player_label(app, i)}: {penguin_name(t, game, p.penguin)}")
        lines.append("  " + (counted(t, colours_of(p.tokens)) or "—"))
        cards = len(p.figurants) + len(p.discarded)
        lines.append("  " + t.plural("{n} figurant", "{n} figurants", cards))
        lines += ["  " + card_name(t, game.cards.missions[m]) for m in p.missions]
    lines += board_lines(app)
    lines.append(t("Board: {tokens}", tokens=counted(t, colours_of(s.board)) or "—"))
    grey = s.grey if game.cards.mix_known else t("not counted")  # only a bound otherwise
    lines.append(t("Grey beside the board: {n}", n=grey))
    lines.append(bag_line(t, game, s))
    lines.append(t.plural("Deck: {n} card", "Deck: {n} cards", s.deck_size))
    return lines


def board_lines(app) -> list[str]:
    """The nine tiles in three rows; ``*`` marks Officer X, digits the penguins by seat."""
    t, s = app.t, app.session.state
    cells = []
    for square, location in enumerate(s.layout):
        seats = "".join(str(q + 1) for q, p in enumerate(s.players) if p.square == square)
        marker = "*" if square in s.markers else ""
        cells.append(f"{t(TILE_CODES[location])}{marker}{seats}")
    return ["  ".join(cells[r * 3 : r * 3 + 3]) for r in range(3)]


SHARED_HELP = ("Exchange table", "Discarding")
HELP = {
    "A turn": [
        "Four actions: move, block, rummage in the bag, a card's action or the tile's action.",
        "Moving through an edge a penguin blocks takes 2 actions and pushes it aside.",
        "After 4 actions, on an uncovered bag symbol, draw 2 tokens.",
    ],
    "Officer X": [
        "After an acquisition the die is rolled: within the card's range, Officer X comes.",
        "The marker goes on a free tile; each penguin there loses a random token.",
    ],
    "The end": [
        "The eighth marker or an empty deck: the round is completed.",
        "Then each player may use one last figurant action.",
        "Score: cards, penguin bonus, missions, card bonuses, minus 1 per token held.",
    ],
}


def help_menu(app) -> Menu:
    """This variant's own pages, then the family's exchange table and where tokens go."""
    t = app.t
    items = [
        Item(t(title), lambda title=title, lines=lines: app.notice(t(title), [t(x) for x in lines]))
        for title, lines in HELP.items()
    ]
    items += [
        Item(t(title), lambda title=title, lines=lines: app.notice(t(title), [t(x) for x in lines]))
        for title, lines in PAGES.items()
        if title in SHARED_HELP
    ]
    return Menu(app, t("Help"), items)


# ------------------------------------------------------------------ events


def event_lines(t, game, events: list[dict]) -> list[str]:
    """What the table must do after an action, in the order it happened.

    A penguin's own move is not repeated back: the player has just said
    where it went, so it costs no notice (a penguin pushed aside is told).
    """
    lines: list[str] = []
    row = new_row(t, game, events) if cycles(events) else ""
    for i, e in enumerate(events):
        if e["event"] == "drew" and _end_draw_at(events, i) and game.app_bag and e["tokens"]:
            lines.append(_end_draw(t, e["tokens"]))
        elif row and e["event"] == "revealed":
            continue  # said in the row's sentence
        elif row and e["event"] == "cycled" and e["what"] == "figurants":
            lines.append(row)
        else:
            lines += _event(t, game, e)
    return lines


def _end_draw_at(events: list[dict], i: int) -> bool:
    """Whether the draw ``events[i]`` is the end of the turn's: the last draw before the
    turn passes (a rummage, the turn's last action, draws just before it)."""
    for later in events[i + 1 :]:
        if later["event"] == "turn":
            return True
        if later["event"] == "drew":
            return False
    return False


def _end_draw(t, tokens: list[str]) -> str:
    """``End of turn: draw 2 — red, black``."""
    return t("End of turn: draw {n} — {tokens}.", n=len(tokens), tokens=counted(t, tokens))


def _who(t, game, p: int) -> str:
    return seat_label(t, game.options.names, p)


def _card_name(t, game, card: str) -> str:
    if card in game.cards.figurants:
        return card_name(t, game.cards.figurants[card])
    return card.capitalize()  # a penguin card


def _event(t, game, e: dict) -> list[str]:
    kind = e["event"]
    if kind == "drew":
        if game.app_bag and e["tokens"]:
            return [t("From the bag: {tokens}.", tokens=counted(t, e["tokens"]))]
    elif kind == "pushed":
        return [t("Push {who}'s penguin to the middle.", who=_who(t, game, e["player"]))]
    elif kind == "took":
        return [_took(t, e)]
    elif kind == "exchanged":
        return returns(t, e["gave"]) + [t("Take {tokens}.", tokens=counted(t, e["got"]))]
    elif kind == "acquired":
        return [acquired_line(t, game, e)]
    elif kind == "grey_reward":
        return [t("Reward: take a grey token from beside the board.")]
    elif kind == "rolled":
        return [_rolled(t, e)]
    elif kind == "no_marker_place":
        return [t("No tile is free for a marker.")]
    elif kind == "officer_x":
        lines = [t("Officer X marker on the {place}.", place=t.name(e["location"]))]
        unmasked = ", ".join(_who(t, game, q) for q in e["unmasked"])
        if not unmasked:
            return lines + [t("Nobody there.")]
        count = len(e["unmasked"])
        return lines + [t.plural("Unmasked: {names}.", "Unmasked: {names}.", count, names=unmasked)]
    elif kind in ("unmasked", "lost"):
        who = _who(t, game, e["player"])
        return [t("{who} loses {tokens}.", who=who, tokens=t.name(e["lost"]))] + returns(
            t, [e["lost"]]
        )
    elif kind == "gave":
        return [_handed(t, game, e["player"], e["to"], e["tokens"])]
    elif kind == "took_from":
        return [_handed(t, game, e["from"], e["player"], e["tokens"])]
    elif kind == "marker_removed":
        return [t("Remove the marker from the {place}.", place=t.name(e["location"]))]
    elif kind == "used":
        return [t("Card used: {card}.", card=_card_name(t, game, e["card"]))]
    elif kind == "mission":
        taken = card_name(t, game.cards.missions[e["taken"]])
        return [t("Take the mission {mission}.", mission=taken)]
    elif kind == "mission_revealed" and game.app_deck:
        mission = card_name(t, game.cards.missions[e["mission"]])
        return [t("Lay the mission {mission} above the board.", mission=mission)]
    elif kind == "revealed" and game.app_deck:
        return [laid_line(t, game, e)]
    elif kind == "cycled" and e["cards"]:
        if e["what"] == "missions":
            return [t("Put the face-up missions under their deck.")]
        return [t("Put the face-up figurants under the deck.")]
    elif kind == "last_round":
        return [t(LAST_ROUND[e["why"]])]
    elif kind == "final_actions":
        names = ", ".join(_who(t, game, q) for q in e["players"])
        if names:
            return [t("Last figurant actions: {names}.", names=names)]
        return [t("Nobody has a figurant action left.")]
    elif kind == "game_over":
        return [t("The game is over.")]
    elif kind == "corrected":
        return [t("Corrected.")]
    return []


def _took(t, e: dict) -> str:
    tokens = counted(t, e["tokens"])
    source = e["from"]
    if source == "bag":
        return t("Take {tokens} from the bag.", tokens=tokens)
    if source == "board":  # a card's action: from the colour's own location
        source = SUPPLY_PLACE[e["tokens"][0]]
    if source == "beside the board":
        return t("Take {tokens} from beside the board.", tokens=tokens_counted(t, e["tokens"]))
    return t("Take {tokens} from the {place}.", tokens=tokens, place=t.name(source))


def _rolled(t, e: dict) -> str:
    low, high = e["range"]
    if e["found"]:
        return t("Die {n} ({low}–{high}): Officer X comes!", n=e["roll"], low=low, high=high)
    return t("Die {n} ({low}–{high}): no Officer X.", n=e["roll"], low=low, high=high)


def _handed(t, game, giver: int, taker: int, tokens: list[str]) -> str:
    return t(
        "{giver} gives {taker}: {tokens}.",
        giver=_who(t, game, giver),
        taker=_who(t, game, taker),
        tokens=tokens_counted(t, tokens),
    )


def colours_of(counts: tuple[int, ...]) -> list[str]:
    """Token counts by colour as a list of colour names, one per token."""
    return [COLOURS[c] for c, n in enumerate(counts) for _ in range(n)]
