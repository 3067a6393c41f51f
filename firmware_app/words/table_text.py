"""What the table must do after an action, in words for the panel.

The app keeps the books; the players move the real tokens and cards. After
each action the engine's events become short instructions: which tokens to
take or return and where, which card to lay out, that the last round began.
"""

from collections import Counter

from firmware_app.words.i18n import card_name
from rules.colours import COLOURS, COST_COLOURS

DISCARD_PLACE = {"white": "bag", "black": "bag", "grey": "box"}
SUPPLY_PLACE = {"red": "gorilla", "blue": "chimp", "green": "storehouse", "yellow": "shop"}
# Where a token goes back, a location by its short name: each is one of a kind on the
# board, and the short form keeps what the table must do after a purchase on one page.
RETURN_PLACE = {
    "bag": "the bag",
    "box": "the box",
    "gorilla": "Gorillas",
    "chimp": "Chimps",
    "storehouse": "Storehouse",
    "shop": "Shop",
}


def counted(t, colours: list[str]) -> str:
    """``2× red, blue`` in the screen's language."""
    counts = Counter(colours)
    return ", ".join(
        (f"{n}× " if n > 1 else "") + t.name(c) for c, n in sorted(counts.items(), key=_order)
    )


def _order(item: tuple[str, int]) -> int:
    return COST_COLOURS.index(item[0])


# A number of tokens of one colour, whole: Polish declines the colour and the noun
# with the number ("1 szary żeton", "2 szare żetony", "5 szarych żetonów").
TOKENS_ONE = {
    "red": "{n} red token",
    "blue": "{n} blue token",
    "green": "{n} green token",
    "yellow": "{n} yellow token",
    "grey": "{n} grey token",
    "white": "{n} white token",
    "black": "{n} black token",
}
TOKENS_MANY = {
    "red": "{n} red tokens",
    "blue": "{n} blue tokens",
    "green": "{n} green tokens",
    "yellow": "{n} yellow tokens",
    "grey": "{n} grey tokens",
    "white": "{n} white tokens",
    "black": "{n} black tokens",
}


def tokens_of(t, colour: str, n: int) -> str:
    """``2 blue tokens`` / ``2 niebieskie żetony``: a sentence's object, declined."""
    return t.plural(TOKENS_ONE[colour], TOKENS_MANY[colour], n)


def tokens_counted(t, colours: list[str]) -> str:
    """``1 red token, 2 blue tokens``: each colour with its count, declined."""
    counts = sorted(Counter(colours).items(), key=_order)
    return ", ".join(tokens_of(t, colour, n) for colour, n in counts)


def cost_initials(t, cost: tuple) -> str:
    """``2R Y A``: a cost in colour initials, the rainbow "any token" last."""
    return " ".join(
        (f"{n}" if n > 1 else "") + t.initial(COST_COLOURS[c]) for c, n in enumerate(cost) if n
    )


def marks(t, colours: list[str]) -> str:
    """``2C N ●``: tokens as counted colour marks, the way a card's cost is shown."""
    counts = Counter(colours)
    return cost_initials(t, tuple(counts[colour] for colour in COST_COLOURS))


def cost_words(t, cost: tuple) -> str:
    """``2× red, yellow, any colour``: a cost in plain words."""
    return counted(t, [c for c, n in zip(COST_COLOURS, cost, strict=True) for _ in range(n)])


def payment_words(t, words: tuple[str, ...]) -> str:
    """How a way of paying differs from the printed tokens: what greys stand in for and
    which tokens pay the "any" symbols (``grey=red``, ``any=white``), in colour marks so
    that a long payment fits its line."""
    if not words:
        return t("Without grey")
    parts = []
    for word in words:
        prefix, _, colours = word.partition("=")
        named = marks(t, colours.split("+"))
        if prefix == "grey":
            parts.append(t("Grey for {colours}", colours=named))
        else:
            parts.append(t("Any: {colours}", colours=named))
    return "; ".join(parts)


def bag_line(t, game, s) -> str:
    """What the bag holds, or that nobody knows (a game played without the token mix:
    the engine's counts are then only bounds, never shown)."""
    if not game.cards.mix_known:
        return t("Bag: mix not known")
    return t.plural("Bag: {n} token", "Bag: {n} tokens", sum(s.bag))


def grey_beside(t, game, s) -> str:
    """The grey tokens beside the board (advanced), counted only when the mix is known."""
    if not game.cards.mix_known:
        return t("Grey tokens beside the board.")
    return t("{n} grey tokens beside the board.", n=s.grey)


def exchange_label(t, notation: str) -> str:
    """``2 black → blue``. The exchange table is imported here, not at the top: the panel's
    screens draw colour marks from this module, and the home menu loads no game's rules."""
    from rules.pingwiny import exchange

    give, get = exchange.PARSED[notation]
    gave = counted(t, [COLOURS[c] for c in give])
    got = counted(t, [COLOURS[c] for c in get])
    return f"{gave} → {got}"


def returns(t, colours: list[str]) -> list[str]:
    """Where each discarded colour goes (the bag, the box or its location), in one sentence."""
    where = return_places(t, colours)
    return [t("Return {returns}.", returns=where)] if where else []


def return_places(t, colours: list[str]) -> str:
    """``blue to Chimps, white to the bag``: each discarded colour with where it goes."""
    by_place: dict[str, list[str]] = {}
    for colour in colours:
        place = DISCARD_PLACE.get(colour) or SUPPLY_PLACE[colour]
        by_place.setdefault(place, []).append(colour)
    return ", ".join(
        t("{tokens} to {place}", tokens=counted(t, group), place=t(RETURN_PLACE[place]))
        for place, group in by_place.items()
    )


def acquired_line(t, game, e: dict) -> str:
    """``Take Mort; return red to Gorillas.``: the card and its payment in one sentence,
    so that a purchase, the card laid in its space and the hand-off fit one page."""
    card = card_name(t, game.cards.figurants[e["card"]])
    paid = return_places(t, e["paid"])
    if not paid:
        return t("Take {card}.", card=card)
    return t("Take {card}; return {returns}.", card=card, returns=paid)


def new_row(t, game, events: list[dict]) -> str:
    """A new row of figurants in one sentence, the space before each name
    (``Face-up figurants under the deck; lay out 1 Becky, 2 Alice, …``): five
    sentences of their own would take the panel two pages. "" when the app does
    not deal the row (the table names each card) or no card is laid."""
    laid = [e for e in events if e["event"] == "revealed"]
    if not game.app_deck or not laid:
        return ""
    cards = ", ".join(
        f"{e['slot'] + 1} {card_name(t, game.cards.figurants[e['card']])}" for e in laid
    )
    return t("Face-up figurants under the deck; lay out {cards}.", cards=cards)


def cycles(events: list[dict]) -> bool:
    """Whether the face-up figurants went under the deck (so the cards laid make a row)."""
    return any(
        e["event"] == "cycled" and e["cards"] and e.get("what", "figurants") == "figurants"
        for e in events
    )


def event_lines(t, game, events: list[dict]) -> list[str]:
    lines: list[str] = []
    row = new_row(t, game, events) if cycles(events) else ""
    for e in events:
        kind = e["event"]
        if kind == "drew" and e["tokens"]:
            if game.app_bag:
                lines.append(t("From the bag: {tokens}.", tokens=counted(t, e["tokens"])))
        elif kind == "took":
            lines.append(t("Take {tokens} from its location.", tokens=counted(t, e["tokens"])))
        elif kind == "exchanged":
            lines += returns(t, e["gave"])
            lines.append(t("Take {tokens}.", tokens=counted(t, e["got"])))
        elif kind == "acquired":
            lines.append(acquired_line(t, game, e))
        elif kind == "revealed" and game.app_deck and not row:
            lines.append(laid_line(t, game, e))
        elif kind == "cycled" and e["cards"]:
            lines.append(row or t("Put the face-up figurants under the deck."))
        elif kind == "mission":
            taken = card_name(t, game.cards.missions[e["taken"]])
            lines.append(t("Take the mission {mission}.", mission=taken))
            if e["returned"]:
                back = card_name(t, game.cards.missions[e["returned"]])
                lines.append(t("Put {mission} back above the board.", mission=back))
        elif kind == "last_round":
            lines.append(t("The deck is empty: this is the last round."))
        elif kind == "game_over":
            lines.append(t("The round is complete: the game is over."))
        elif kind == "corrected":
            lines.append(t("Corrected."))
    return lines


def laid_line(t, game, e: dict) -> str:
    """``Lay out Becky in space 1.``: one card into the space a purchase emptied."""
    card = card_name(t, game.cards.figurants[e["card"]])
    return t("Lay out {card} in space {space}.", card=card, space=e["slot"] + 1)


def penguin_name(t, game, penguin: str) -> str:
    """``Rico (red)``: the card's name and the colour its bonus counts."""
    return penguin_label(t, penguin.capitalize(), COLOURS[game.cards.penguins[penguin]])


def penguin_label(t, name: str, colour: str | None) -> str:
    """A penguin card by name and colour, the colour left out where it is unknown."""
    return f"{name} ({t.name(colour)})" if colour else name
