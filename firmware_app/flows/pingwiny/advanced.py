"""The advanced variant of Pingwiny z Madagaskaru on the panel.

Every screen is built from the engine's ``legal_actions``, as the family
turn is, so the panel can never offer a move the rules refuse. An action
with choices (where to move, which card, how to pay, whom to target) is
chosen one word at a time: each menu lists the next words the legal
actions allow, and a single remaining action is played at once. The
engine's phases (the die, Officer X's marker, the tokens lost, the final
figurant actions) are screens of the same kind.
"""

from firmware_app.flows.pingwiny.advanced_table import SPOT_NAMES, help_menu, status_lines
from firmware_app.flows.pingwiny.turn import (
    Headquarters,
    TurnMenu,
    extras,
    gastro,
    kept_for,
    player_label,
    reason_lines,
    refusal,
    turn_bar,
    why_not_item,
)
from firmware_app.flows.shared.cards import reveal_items
from firmware_app.flows.shared.effect_words import effect_text
from firmware_app.flows.shared.end import score_pages
from firmware_app.ui.canvas import title_bar
from firmware_app.ui.screens import ColourEntry, Item, Menu
from firmware_app.words.i18n import card_name
from firmware_app.words.table_text import counted, payment_words
from rules.colours import COLOURS
from rules.numbers import seat
from rules.pingwiny import board as geometry
from rules.pingwiny.advanced import SUPPLY
from rules.pingwiny.advanced_officer import MARKERS

VERB_LABELS = {
    "move": "Move",
    "use": "Use a card",
    "penguin": "Penguin action",
    "pass": "Pass",
}

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


def lasting(app) -> str:
    """What holds until it ends, for the title bar: the last round, Officer X's last marker."""
    t, s = app.t, app.session.state
    if s.last_round:
        return t("last round")
    if len(s.markers) == MARKERS - 1:
        return t("last marker")
    return ""


def turn_screen(app) -> AdvancedTurn:
    t, game, s = app.t, app.session.game, app.session.state
    legal = game.legal_actions(s)
    right, lasting_note = "", lasting(app)  # a player's own bar holds it already
    if s.pending:
        title = t("Lay out space {space}", space=s.pending[0] + 1)
    elif s.pending_missions:
        title = t("Lay out mission {space}", space=s.pending_missions[0] + 1)
    elif s.phase == "end_draw":
        drawn = t("draw {n}", n=len(legal[0]) - 1)
        ending = title_bar(player_label(app, s.current), t("end of turn"), [drawn, lasting_note])
        title, right, lasting_note = *ending, ""
    elif s.phase == "draw":
        drawn = t("draw {n}", n=len(legal[0]) - 1)
        title, right, lasting_note = *turn_bar(app, drawn, lasting_note), ""
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
        left = t.plural("{n} left", "{n} left", s.actions_left)
        title, right, lasting_note = *turn_bar(app, left, lasting_note), ""
    moves = action_items(app, legal)
    missing = why_not(app, legal) if s.phase == "act" else []
    aside = [why_not_item(app, missing)] if missing else []
    title, right = title_bar(title, "", [right, lasting_note])
    # No remembered cursor, as on the family turn: the first line is what the tile offers
    # now; a line remembered from the last action sent the next one the long way round
    # (benchmarks/presses.py).
    menu = AdvancedTurn(app, title, moves, aside + advanced_extras(app), right)
    exchanges = [a for a in legal if a.verb == "exchange"]
    if exchanges:  # a colour button: the exchange giving that colour
        menu.shortcut = lambda colour: gastro(app, exchanges, 1, colour)
    return menu


def why_not(app, legal: list) -> list[str]:
    """What a turn could hold but does not now, each with the engine's reason."""
    t, game, s = app.t, app.session.game, app.session.state
    offered = {a.verb for a in legal}
    tries = {
        "hq": [f"hq {card}" for card in s.faceup if card is not None],
        "rummage": ["rummage"],
        "gastro": ["gastro"],
        "penguin": ["penguin"],
    }
    labels = {"hq": t.name("hq"), "rummage": t("Rummage in the bag"), "gastro": t.name("gastro")}
    labels["penguin"] = t(VERB_LABELS["penguin"])
    reasons = []
    for verb, actions in tries.items():
        if verb in offered or not actions:
            continue
        found = list(dict.fromkeys(r for r in (refusal(app, game, s, a) for a in actions) if r))
        reasons += reason_lines(labels[verb], found)
    return reasons


# Verbs that spend the rest of a turn at once, and the one-off actions (a card is
# discarded by its action, the penguin's is used once): never the line a menu opens on.
SPENDING = ("block", "pass")
ONE_OFF = ("use", "penguin")

# What the tile a penguin stands on offers (rummaging needs its bag symbol): listed
# before the moves away from it.
HERE = ("take", "otter", "lemur", "gate", "gastro", "rummage")


def action_items(app, legal: list) -> list[Item]:
    """One item per verb (or per action where each is a choice of its own).

    What can be done now comes first: Headquarters, then what the penguin's
    tile offers, then the moves (a supply tile's colour button moves there),
    then the rest in the engine's order, a Block per spot last.
    """
    t = app.t
    by_verb: dict[str, list] = {}
    for action in legal:
        by_verb.setdefault(action.verb, []).append(action)
    items = []
    for verb, actions in sorted(by_verb.items(), key=lambda pair: _rank(pair[0])):
        if verb == "exchange":  # the Gastro zone: the colour given, then the colour got
            items.append(Item(t("Exchange …"), lambda a=actions: gastro(app, a, 1)))
        elif verb in ("reveal", "reveal-mission"):  # the names the table can find
            items += reveal_items(app, actions)
        elif verb in ("roll", "officer", "take"):
            if verb == "take":  # the same action either way: the most tokens first
                actions = sorted(actions, key=lambda a: -int(a[1]))
            items += [
                Item(_single_label(app, a), lambda a=a: app.act(str(a)), detail=_here(app, a))
                for a in actions
            ]
        elif verb in ("draw", "rummage", "lose"):
            items.append(_colour_item(app, verb, actions))
        elif verb == "done":
            items.append(Item(t("Done"), lambda: app.act("done")))
        elif verb == "gastro":
            items.append(Item(t.name(verb), lambda: app.act("gastro")))
        elif verb == "hq":
            label = t.name("hq") + " …"
            items.insert(0, Item(label, lambda a=actions: app.push(Headquarters(app, a, 1))))
        elif verb == "move":  # one entry per tile: the tile is chosen with the move
            by_tile: dict[str, list] = {}
            for action in sorted(actions, key=lambda a: a[1] != "hq"):  # buying first
                by_tile.setdefault(action[1], []).append(action)
            for tile, group in by_tile.items():
                place = _choice_label(app, tile, group[0])
                pushes = _pushes(app, tile)  # a push says so, and its cost under it
                moving = place if pushes else t("Move: {place}", place=place)
                label = moving + (" …" if len(group) > 1 else "")
                detail = t("A push takes 2 actions.") if pushes else ""
                colour = COLOURS[SUPPLY[tile]] if tile in SUPPLY else None
                items.append(
                    Item(
                        label,
                        lambda label=place, g=group: choose_action(app, label, g, 2),
                        detail=detail,
                        colour=colour,
                    )
                )
        elif verb == "block":  # a line per spot: each blocks at once, as it is named
            items += [
                Item(
                    t("Block: {spot}", spot=word_label(app, a[1])),
                    lambda a=a: app.act(str(a)),
                    remembered=False,
                )
                for a in actions
            ]
        elif verb == "penguin" and len(actions) == 1:  # what it does, under the line
            label = t(VERB_LABELS[verb])
            items.append(_one_off_item(app, label, actions[0]))
        else:
            label = t(VERB_LABELS[verb]) if verb in VERB_LABELS else t.name(verb)
            shown = label + " …" if len(actions) > 1 or len(actions[0]) > 1 else label
            items.append(
                Item(
                    shown,
                    lambda label=label, a=actions: choose_action(app, label, a, 1),
                    remembered=verb not in SPENDING + ONE_OFF,
                )
            )
    return items


def _rank(verb: str) -> int:
    """Where a verb's lines go: what the tile offers (its tokens before the bag), the
    rest in the engine's order, then what spends the turn, last and nearest the extras."""
    if verb in HERE:
        return HERE.index(verb)
    return len(HERE) + (verb in SPENDING)


def _one_off_item(app, label: str, action) -> Item:
    """A card's or the penguin's action as the line that plays it: what it does is
    shown under the line while the cursor is on it, so OK is the choice made with it
    read (undo, a long BACK, takes it back)."""
    return Item(
        label, lambda: app.act(str(action)), detail=what_it_does(app, action), remembered=False
    )


def _single_label(app, action) -> str:
    t, s = app.t, app.session.state
    verb = action.verb
    if verb == "take":
        colour = COLOURS[SUPPLY[s.layout[s.players[s.current].square]]]
        return t("Take {tokens}", tokens=counted(t, [colour] * int(action[1])))
    if verb == "officer":
        return t.name(action[1])
    return word_label(app, action[1])


def _here(app, action) -> str:
    """Who Officer X would unmask on the tile a marker choice names, under the choice."""
    s = app.session.state
    if action.verb != "officer":
        return ""
    square = s.layout.index(action[1])
    here = [player_label(app, q) for q, p in enumerate(s.players) if p.square == square]
    return app.t("Here: {names}", names=", ".join(here)) if here else ""


def _colour_item(app, verb: str, actions: list) -> Item:
    """Colours from the real bag (or a loser's hand): the colour buttons, or a menu of them."""
    t, s = app.t, app.session.state
    if len(actions) == 1 and len(actions[0]) == 1:  # the app draws, or the bag is empty
        if verb == "rummage":
            label = t("Rummage in the bag")
        elif s.phase == "end_draw":
            label = t.plural("End of turn: draw {n} token", "End of turn: draw {n} tokens", 2)
        else:
            label = t("Draw")
        return Item(label, lambda: app.act(verb), remembered=s.phase != "end_draw")
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
            items = _word_items(app, groups, depth + 1)
            app.push(Menu(app, heading, items, remember=kept_for(app, heading)))
            return
        heading = word_label(app, actions[0][depth])
        depth += 1
    if actions[0].verb == "use":  # a tapped card: its action not shown yet
        confirm(app, actions[0])
    else:
        app.act(str(actions[0]))


def confirm(app, action) -> None:
    """A tapped card's action, reached without a menu line that showed what it does:
    what it does, then yes or no."""
    t = app.t
    name = card_name(t, app.session.game.cards.figurants[action[1]])
    detail = what_it_does(app, action)
    items = [
        Item(t("Yes: use it"), lambda: app.act(str(action)), detail=detail),
        Item(t("No: go back"), app.pop, detail=detail),
    ]
    app.push(Menu(app, name, items))


def what_it_does(app, action) -> str:
    """A card's or the penguin's action in words, with the choices made for it."""
    t, game, s = app.t, app.session.game, app.session.state
    if action.verb == "use":
        effect = game.cards.figurants[action[1]].effect
    else:
        effect = game.cards.penguin_effects.get(s.players[s.current].penguin)
    does = effect_text(t, effect, lambda c: word_label(app, c))
    chosen = [word_label(app, w) for w in action[1 if action.verb == "penguin" else 2 :]]
    return does + (" — " + ", ".join(chosen) if chosen else "")


def _word_items(app, groups: dict[str, list], depth: int) -> list[Item]:
    """The next word's choices; the last one of a card's or the penguin's action plays
    it, what it does shown under the line."""
    items = []
    for word, group in groups.items():
        label = _choice_label(app, word, group[0])
        if len(group) == 1 and group[0].verb in ONE_OFF:
            items.append(_one_off_item(app, label, group[0]))
        else:
            items.append(_next_word_item(app, label, group, depth))
    return items


def _next_word_item(app, label: str, group: list, depth: int) -> Item:
    """A choice that asks the action's next word (or plays the one action left)."""
    return Item(label, lambda: choose_action(app, label, group, depth))


def _choice_label(app, word: str, action) -> str:
    t = app.t
    if not word or "=" in word:  # a way of paying: greys as jokers, tokens for "any"
        return payment_words(t, (word,) if word else ())
    if action.verb == "move" and word == action[1] and _pushes(app, word):
        return t("Push: {place}", place=t.name(word))
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
        return card_name(t, cards.figurants[word])
    if word in cards.missions:
        return card_name(t, cards.missions[word])
    if word in SPOT_NAMES:
        return t(SPOT_NAMES[word])
    if word == "figurants":
        return t("Figurants")
    if word == "missions":
        return t("Missions")
    if (n := seat(word)) is not None:
        return player_label(app, n - 1)
    if all(c in COLOURS for c in word.split("+")):
        return counted(t, word.split("+"))
    return t.name(word)


# ------------------------------------------------------------------ extras


def advanced_extras(app) -> list[Item]:
    """The family turn's "More …", with this variant's score sheet, table and help."""
    t = app.t
    own = {
        "Score so far": lambda: app.push(score_pages(app, final=False)),
        "Table status": lambda: app.notice(t("Table"), status_lines(app)),
        "Help": lambda: app.push(help_menu(app)),
    }
    return extras(app, own)
