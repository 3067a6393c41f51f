"""Help pages reachable from any turn: the locations, the exchanges, the rules' gist."""

from firmware_app.ui.screens import Item, Menu

LOCATION_HELP = {
    "chimp": "Take one blue token from here. No blue token here: no visit.",
    "gorilla": "Take one red token from here. No red token here: no visit.",
    "shop": "Take one yellow token from here. No yellow token here: no visit.",
    "storehouse": "Take one green token from here. No green token here: no visit.",
    "otter": "Draw one random token from the bag.",
    "lemur": "Take a mission from above the board, or swap yours for another. "
    "You hold only one mission.",
    "gate": "Put the face-up figurants under the deck, shuffled; lay as many from the top.",
    "gastro": "Exchange tokens by the exchange table. Never for grey.",
    "hq": "Acquire a face-up figurant: pay the tokens shown. Grey is a joker. "
    "The top card of the deck fills the space.",
}

PAGES = {
    "Exchange table": [
        "2 white or 2 black → 1 of any colour but grey.",
        "1 yellow, red, blue or green → 1 of any colour but grey.",
        "1 grey → 2 of one colour, not grey.",
        "Take it from its location, else from the bag; white and black from the bag.",
    ],
    "Discarding": [
        "White and black: into the bag.",
        "Yellow: Souvenir shop. Red: Gorilla enclosure.",
        "Blue: Chimp enclosure. Green: Zoo storehouse.",
        "Grey: into the box, out of the game.",
    ],
    "A turn": [
        "Draw 2 tokens from the bag.",
        "Visit 2 locations; the same one twice is allowed.",
        "Pass the bag to the left.",
    ],
    "The end": [
        "When the deck runs out, the round is finished so everyone had as many turns.",
        "Score: card points, 1 per 2 cards with your penguin's colour, mission points, "
        "minus 1 per token held.",
        "Tie: more figurant cards wins; else a shared win.",
    ],
}


def help_menu(app) -> Menu:
    t = app.t
    items = [
        Item(t.name(loc), lambda loc=loc: app.notice(t.name(loc), [t(LOCATION_HELP[loc])]))
        for loc in LOCATION_HELP
    ]
    items += [
        Item(t(title), lambda title=title, lines=lines: app.notice(t(title), [t(x) for x in lines]))
        for title, lines in PAGES.items()
    ]
    return Menu(app, t("Help"), items)
