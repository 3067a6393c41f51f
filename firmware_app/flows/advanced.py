"""The advanced variant of Pingwiny z Madagaskaru on the panel.

Every screen is built from the engine's ``legal_actions``, as the family
turn is, so the panel can never offer a move the rules refuse. An action
with choices (where to move, which card, how to pay, whom to target) is
chosen one word at a time: each menu lists the next words the legal
actions allow, and a single remaining action is played at once. The
engine's phases (the die, Officer X's marker, the tokens lost, the final
figurant actions) are screens of the same kind.
"""

from dataclasses import replace

from firmware_app.flows.end import DECIDED, finish
from firmware_app.flows.help import PAGES
from firmware_app.flows.start import Wizard, penguin_name
from firmware_app.flows.turn import EXTRAS, TurnMenu, exchange_label, extras, player_label
from firmware_app.table_text import SUPPLY_PLACE, counted, returns
from firmware_app.ui.screens import ColourEntry, Item, Menu, Notice
from rules.colours import COLOURS
from rules.pingwiny import board as geometry
from rules.pingwiny.advanced import SUPPLY
from rules.pingwiny.options import Options

SPOT_NAMES = {
    "middle": "Middle",
    "n": "North edge",
    "e": "East edge",
    "s": "South edge",
    "w": "West edge",
}
VERB_LABELS = {"move": "Move", "use": "Use a card", "penguin": "Penguin action", "pass": "Pass"}
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


# ------------------------------------------------------------------- setup


class AdvancedWizard(Wizard):
    """The family wizard's questions, the die, and the advanced table's layout."""

    variant = "advanced"

    def after_deck(self) -> Menu:
        t = self.t
        options = [(t("The app rolls the die"), "app"), (t("We roll a real die"), "table")]
        return self._ask(t("Officer X's die"), options, "die", self.cards)

    def options(self, seed: int) -> Options:
        return replace(super().options(seed), die=self.choices["die"])

    def pages(self) -> list[tuple[str, list[str]]]:
        return setup_pages(self.app)


def setup_pages(app) -> list[tuple[str, list[str]]]:
    """Step-by-step setup of the advanced table, matching the app's deal."""
    t, game, s = app.t, app.session.game, app.session.state
    pages = []
    if game.cards.demo_label:
        pages.append((t("Cards"), [t("Playing with the {label}.", label=game.cards.demo_label)]))
    rows = [
        t(
            "Row {n}: {tiles}",
            n=r + 1,
            tiles=", ".join(t.name(x) for x in s.layout[r * 3 : r * 3 + 3]),
        )
        for r in range(3)
    ]
    pages.append((t("Board"), [t("Lay the tiles, Headquarters in the middle:")] + rows))
    penguins = [
        t("Player {n}: {penguin}", n=i + 1, penguin=penguin_name(t, game, p.penguin))
        for i, p in enumerate(s.players)
    ]
    pages.append((t("Penguins"), penguins + [t("Every penguin starts on Headquarters.")]))
    pages.append((t("First player"), [t("Player {n} starts: first-player marker.", n=s.first + 1)]))
    if game.app_deck:
        laid = [
            t("{space}. {card}", space=i + 1, card=game.cards.figurants[c].name)
            for i, c in enumerate(s.faceup)
        ]
        pages.append((t("Figurants"), [t("Lay face up below the board:")] + laid))
        missions = [game.cards.missions[m].name for m in s.mission_row]
        pages.append((t("Missions"), [t("Above the board:")] + missions))
    else:
        n = len(s.faceup)
        pages.append(
            (t("Figurants"), [t("Shuffle the deck, lay {n} cards face up, name each one.", n=n)])
        )
        n = len(s.mission_row)
        pages.append(
            (t("Missions"), [t("Shuffle the missions, lay {n} face up, name each one.", n=n)])
        )
    if game.app_bag:
        hands = [
            t("Player {n}: {tokens}", n=i + 1, tokens=counted(t, _colours(p.tokens)))
            for i, p in enumerate(s.players)
        ]
        pages.append((t("Tokens"), [t("The app is the bag. Take from the pile:")] + hands))
    else:
        pages.append((t("Tokens"), [t("All tokens but grey into the bag; each player draws 5.")]))
    pages.append(
        (
            t("Grey tokens"),
            [
                t("{n} grey tokens beside the board.", n=s.grey),
                t("Officer X markers beside the board."),
            ],
        )
    )
    return pages


def _colours(counts: tuple[int, ...]) -> list[str]:
    return [COLOURS[c] for c, n in enumerate(counts) for _ in range(n)]


# -------------------------------------------------------------------- turn


class AdvancedTurn(TurnMenu):
    """A phase's choices plus the extras; a tapped card starts its actions."""

    def card(self, card_id: str) -> None:
        session = self.app.session
        legal = session.game.legal_actions(session.state)
        matching = [a for a in legal if len(a) > 1 and a[1] == card_id]
        if not matching:
            self.app.notice(self.t("Card"), [self.t("That card cannot be played now.")])
            return
        choose_action(self.app, word_label(self.app, card_id), matching, 2)


def turn_screen(app) -> AdvancedTurn:
    t, game, s = app.t, app.session.game, app.session.state
    legal = game.legal_actions(s)
    who = f"{player_label(app, s.current)}: {s.players[s.current].penguin.capitalize()}"
    right = ""
    if s.pending:
        title = t("Lay out space {space}", space=s.pending[0] + 1)
    elif s.pending_missions:
        title = t("Lay out mission {space}", space=s.pending_missions[0] + 1)
    elif s.phase in ("draw", "end_draw"):
        title, right = who, t("draw {n}", n=len(legal[0]) - 1)
    elif s.phase == "roll":
        _, low, high = s.officer
        title, right = t("Officer X: the die"), f"{low}–{high}"
    elif s.phase == "officer":
        title = t("Officer X marker")
    elif s.phase == "lose":
        title = t("Lost token: {who}", who=player_label(app, s.losers[0]))
    elif s.phase == "final":
        title = t("Last action: {who}", who=player_label(app, s.current))
    else:
        title, right = who, t("{n} left", n=s.actions_left)
    return AdvancedTurn(app, title, action_items(app, legal) + advanced_extras(app), right)


def action_items(app, legal: list) -> list[Item]:
    """One item per verb (or per action where each is a choice of its own)."""
    t = app.t
    by_verb: dict[str, list] = {}
    for action in legal:
        by_verb.setdefault(action.verb, []).append(action)
    items = []
    for verb, actions in by_verb.items():
        if verb in ("reveal", "reveal-mission", "exchange", "roll", "officer", "take"):
            items += [Item(_single_label(app, a), lambda a=a: app.act(str(a))) for a in actions]
        elif verb in ("draw", "rummage", "lose"):
            items.append(_colour_item(app, verb, actions))
        elif verb == "done":
            items.append(Item(t("Done"), lambda: app.act("done")))
        elif verb == "gastro":
            items.append(Item(t.name(verb), lambda: app.act("gastro")))
        else:
            label = t(VERB_LABELS[verb]) if verb in VERB_LABELS else t.name(verb)
            shown = label + " …" if len(actions) > 1 or len(actions[0]) > 1 else label
            items.append(
                Item(shown, lambda label=label, a=actions: choose_action(app, label, a, 1))
            )
    return items


def _single_label(app, action) -> str:
    t, s = app.t, app.session.state
    verb = action.verb
    if verb == "exchange":
        return exchange_label(t, action[1])
    if verb == "take":
        colour = COLOURS[SUPPLY[s.layout[s.players[s.current].square]]]
        return t("Take {tokens}", tokens=counted(t, [colour] * int(action[1])))
    if verb == "officer":
        square = s.layout.index(action[1])
        here = [t("P{n}", n=q + 1) for q, p in enumerate(s.players) if p.square == square]
        place = t.name(action[1])
        return t("{who}: {place}", who=", ".join(here), place=place) if here else place
    return word_label(app, action[1])


def _colour_item(app, verb: str, actions: list) -> Item:
    """Colours from the real bag (or a loser's hand): the colour buttons, or a menu of them."""
    t, s = app.t, app.session.state
    if len(actions) == 1 and len(actions[0]) == 1:  # the app draws, or the bag is empty
        label = t("Rummage in the bag") if verb == "rummage" else t("Draw")
        return Item(label, lambda: app.act(verb))
    if verb == "draw":
        count = len(actions[0]) - 1
        label, title, prompt = (
            t("Enter the tokens drawn"),
            t("Tokens drawn"),
            t("Colours drawn ({n}):", n=count),
        )
        allowed = [c for i, c in enumerate(COLOURS) if s.bag[i]]
    else:
        count, allowed = 1, [a[1] for a in actions]
        if verb == "lose":
            label, title, prompt = t("Enter the token lost"), t("Token lost"), t("Which colour?")
        else:
            label, title, prompt = t("Rummage in the bag"), t("Rummage"), t("Colour drawn:")

    def entered(colours: list[str]) -> None:
        app.act(" ".join([verb, *colours]))

    def enter() -> None:
        app.push(ColourEntry(app, title, prompt, entered, count=count, allowed=allowed))

    return Item(label, enter)


def choose_action(app, heading: str, actions: list, depth: int) -> None:
    """Play the one action left, or ask for the next word that tells the actions apart.

    A menu's heading is the choice made one level up (a menu's title bar has no
    page counter, so a label fits it); a word every action shares is skipped,
    and named in the heading instead.
    """
    while len(actions) > 1:
        groups: dict[str, list] = {}
        for action in actions:
            groups.setdefault(action[depth] if len(action) > depth else "", []).append(action)
        if len(groups) > 1:
            app.push(Menu(app, heading, _word_items(app, groups, depth + 1)))
            return
        heading = word_label(app, actions[0][depth])
        depth += 1
    app.act(str(actions[0]))


def _word_items(app, groups: dict[str, list], depth: int) -> list[Item]:
    labelled = [(_choice_label(app, word, group[0]), group) for word, group in groups.items()]
    return [
        Item(label, lambda label=label, group=group: choose_action(app, label, group, depth))
        for label, group in labelled
    ]


def _choice_label(app, word: str, action) -> str:
    t = app.t
    if not word:
        return t("Without grey")
    if word.startswith("grey="):
        return t("Grey for {colours}", colours=counted(t, word[5:].split("+")))
    if action.verb == "move" and word == action[1] and _pushes(app, word):
        return t("{place}: push", place=t.name(word))
    return word_label(app, word)


def _pushes(app, location: str) -> bool:
    """Whether moving to ``location`` pushes a penguin off the edge it enters by."""
    s = app.session.state
    origin, target = s.players[s.current].square, s.layout.index(location)
    edge = geometry.EDGE_TOWARDS[target, origin]
    return any(
        q != s.current and p.square == target and p.spot == edge for q, p in enumerate(s.players)
    )


def word_label(app, word: str) -> str:
    """A word of an action as the table says it: a card, a place, a player, colours."""
    t, cards = app.t, app.session.game.cards
    if word in cards.figurants:
        return cards.figurants[word].name
    if word in cards.missions:
        return cards.missions[word].name
    if word in SPOT_NAMES:
        return t(SPOT_NAMES[word])
    if word == "figurants":
        return t("Figurants")
    if word == "missions":
        return t("Missions")
    if word[:1] == "p" and word[1:].isdigit():
        return player_label(app, int(word[1:]) - 1)
    if all(c in COLOURS for c in word.split("+")):
        return counted(t, word.split("+"))
    return t.name(word)


# ------------------------------------------------------------------ extras


def advanced_extras(app) -> list[Item]:
    """The family turn's extras, with this variant's score sheet, table and help."""
    t = app.t
    own = {
        "Score so far": lambda: app.push(score_pages(app, final=False)),
        "Table status": lambda: app.notice(t("Table"), status_lines(app)),
        "Help": lambda: app.push(help_menu(app)),
    }
    return [
        Item(item.label, own.get(key, item.run))
        for key, item in zip(EXTRAS, extras(app), strict=True)
    ]


def status_lines(app) -> list[str]:
    """Who holds what and stands where, the board as text, the bag and decks."""
    t, game, s = app.t, app.session.game, app.session.state
    lines = []
    for i, p in enumerate(s.players):
        lines.append(f"{player_label(app, i)}: {penguin_name(t, game, p.penguin)}")
        lines.append("  " + (counted(t, _colours(p.tokens)) or "—"))
        cards = len(p.figurants) + len(p.discarded)
        lines.append("  " + t("{n} figurants", n=cards))
        lines += ["  " + game.cards.missions[m].name for m in p.missions]
    lines += board_lines(app)
    lines.append(t("Board: {tokens}", tokens=counted(t, _colours(s.board)) or "—"))
    lines.append(t("Grey beside the board: {n}", n=s.grey))
    lines.append(t("Bag: {n} tokens, deck: {d} cards", n=sum(s.bag), d=s.deck_size))
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
        "Four actions: move, rummage in the bag, a card's action or the tile's action.",
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


# --------------------------------------------------------------------- end


def end_screen(app) -> Menu:
    t = app.t
    items = [
        Item(t("Score sheet"), lambda: app.push(score_pages(app, final=True))),
        Item(t("Undo the last action"), app.undo),
        Item(t("Finish: new game"), lambda: finish(app)),
    ]
    return Menu(app, t("Game over"), items, back=lambda: None)


def score_pages(app, final: bool) -> Notice:
    """Each player's breakdown with missions and card bonuses, then the winner."""
    t, game = app.t, app.session.game
    sheet = game.score(app.session.state)
    lines = [f"[{game.cards.demo_label}]"] if game.cards.demo_label else []
    for line in sheet.lines:
        lines += [
            f"{player_label(app, line.player)}: {line.total}",
            "  " + t("cards {points} ({n})", points=line.figurants, n=line.cards),
            "  " + t("penguin +{n}", n=line.penguin_bonus),
            "  " + t("missions +{n}", n=line.mission),
            "  " + t("card bonuses +{n}", n=line.bonus),
            "  " + t("tokens {n}", n=line.penalty),
        ]
    winners = ", ".join(player_label(app, w) for w in sheet.winners)
    label = t("Winner: {names}", names=winners) if final else t("Leading: {names}", names=winners)
    lines += [label, t(DECIDED[sheet.decided_by])]
    return Notice(app, t("Score sheet") if final else t("Score so far"), lines)


# ------------------------------------------------------------------ events


def event_lines(t, game, events: list[dict]) -> list[str]:
    """What the table must do after an action, in the order it happened."""
    lines: list[str] = []
    for e in events:
        lines += _event(t, game, e)
    return lines


def _who(t, game, p: int) -> str:
    names = game.options.names
    return names[p] if names else t("Player {n}", n=p + 1)


def _card_name(game, card: str) -> str:
    if card in game.cards.figurants:
        return game.cards.figurants[card].name
    return card.capitalize()  # a penguin card


def _event(t, game, e: dict) -> list[str]:
    kind = e["event"]
    if kind == "drew":
        if game.app_bag and e["tokens"]:
            return [t("From the bag: {tokens}.", tokens=counted(t, e["tokens"]))]
    elif kind == "moved":
        place = f"{t.name(e['location'])}, {t(SPOT_NAMES[e['spot']]).lower()}"
        return [t("{who}: penguin to {place}.", who=_who(t, game, e["player"]), place=place)]
    elif kind == "pushed":
        return [t("Push {who}'s penguin to the middle.", who=_who(t, game, e["player"]))]
    elif kind == "took":
        return [_took(t, e)]
    elif kind == "exchanged":
        return returns(t, e["gave"]) + [t("Take {tokens}.", tokens=counted(t, e["got"]))]
    elif kind == "acquired":
        card = game.cards.figurants[e["card"]].name
        return [t("Take the card {card}.", card=card)] + returns(t, e["paid"])
    elif kind == "grey_reward":
        return [t("Reward: take a grey token from beside the board.")]
    elif kind == "rolled":
        return [_rolled(t, e)]
    elif kind == "no_marker_place":
        return [t("No tile is free for a marker.")]
    elif kind == "officer_x":
        lines = [t("Officer X marker on the {place}.", place=t.name(e["location"]))]
        unmasked = ", ".join(_who(t, game, q) for q in e["unmasked"])
        return lines + [t("Unmasked: {names}.", names=unmasked) if unmasked else t("Nobody there.")]
    elif kind == "unmasked":
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
        return [t("Card used: {card}.", card=_card_name(game, e["card"]))]
    elif kind == "mission":
        return [t("Take the mission {mission}.", mission=game.cards.missions[e["taken"]].name)]
    elif kind == "mission_revealed" and game.app_deck:
        mission = game.cards.missions[e["mission"]].name
        return [t("Lay the mission {mission} above the board.", mission=mission)]
    elif kind == "revealed" and game.app_deck:
        card = game.cards.figurants[e["card"]].name
        return [t("Lay {card} face up in space {space}.", card=card, space=e["slot"] + 1)]
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
        return t("Take {tokens} from beside the board.", tokens=tokens)
    return t("Take {tokens} from the {place}.", tokens=tokens, place=t.name(source))


def _rolled(t, e: dict) -> str:
    low, high = e["range"]
    if e["found"]:
        return t("Rolled {n} ({low}–{high}): Officer X comes!", n=e["roll"], low=low, high=high)
    return t("Rolled {n} ({low}–{high}): no Officer X.", n=e["roll"], low=low, high=high)


def _handed(t, game, giver: int, taker: int, tokens: list[str]) -> str:
    return t(
        "{giver} gives {taker}: {tokens}.",
        giver=_who(t, game, giver),
        taker=_who(t, game, taker),
        tokens=counted(t, tokens),
    )
