"""The box's cards: which one came up, linking tags to cards, seeing and changing values.

The rulebook does not name every card of the box, and nothing on an unnamed
card links it to the number the app holds it under ("Figurant 41"), so no
screen names such a card before the table has named it, or numbered it by
writing the number on it (``rules.catalogue.teaching.identified``). While
the deck holds such cards the table shuffles its own deck; when one comes up
it is "Not in this list", and gets its name or number then.

Values are taught during play (``flows.teach``), the first time a game needs
them; here the table sees every card's values, whose they are (printed,
ours, not known yet), and changes one. A printed value is changed only after
the table says so, and a game being played keeps the values it started with,
since its record holds its own catalogue.
"""

import logging

from firmware_app.store import catalogue_files, state_check
from firmware_app.ui.screens import Item, LetterEntry, Menu
from firmware_app.words.i18n import card_name
from firmware_app.words.table_text import cost_words
from rules.catalogue.teaching import NAME_LENGTH, identified, number, numbered_name
from rules.colours import DIFFERENT, TYPES

LOG = logging.getLogger("tableside.cards")


def new_to_app(game) -> int:
    """How many cards of the game the table cannot find by the name the app holds."""
    cards = [("figurant", c, f.name) for c, f in game.cards.figurants.items()]
    cards += [("mission", m, card.name) for m, card in game.cards.missions.items()]
    return sum(1 for section, card, name in cards if not identified(section, card, name))


def reveal_items(app, actions) -> list[Item]:
    """The cards that may have come up ("reveal" or "reveal-mission" actions), by the names
    the table can find, A to Z, then "Not in this list" for a card the app cannot name."""
    t, cards = app.t, app.session.game.cards
    items, new = [], []
    for action in actions:
        section = "mission" if action.verb == "reveal-mission" else "figurant"
        card = (cards.missions if section == "mission" else cards.figurants)[action[1]]
        if identified(section, action[1], card.name):
            items.append(Item(card_name(t, card), lambda a=action: app.act(str(a))))
        else:
            new.append(action)
    items.sort(key=lambda item: item.label.casefold())
    if new:  # the unnamed cards are alike (nothing is known of them): the first stands in
        items.append(Item(t("Not in this list"), lambda a=new[0]: new_card(app, a)))
    return items


def new_card(app, action) -> None:
    """A card the app cannot name came up: the table writes the app's number on it, or
    types its printed name; either is kept in the owner's file, then the card is laid."""
    from firmware_app.flows.shared.teach import remember

    t, game = app.t, app.session.game
    section = "mission" if action.verb == "reveal-mission" else "figurant"
    card = action[1]
    held = (*game.cards.figurants.values(), *game.cards.missions.values())
    taken = {c.name.casefold() for c in held}

    def keep(name: str) -> None:
        if name.casefold() in taken:
            app.notice(t("Not possible"), [t("{name} is already in the list.", name=name)])
            return
        problem = remember(app, {section: [{"id": card, "name": name}]})
        if problem is not None:
            app.notice(t("Cards"), [t("Not saved: {reason}", reason=problem)])
            return
        LOG.info("the table named %s %r: %r", section, card, name)
        app.act(str(action))

    items = [
        Item(t("Write {n} on it", n=number(card)), lambda: keep(numbered_name(card))),
        Item(
            t("Type its name"),
            lambda: app.push(LetterEntry(app, t("A new card"), keep, NAME_LENGTH)),
        ),
    ]
    app.push(Menu(app, t("A new card"), items))


def enrol_tag(app, uid: str) -> None:
    """An unknown tag: ask which card it is stuck on, and remember."""
    t = app.t
    catalogue = catalogue_files.load_for_play(state_check.owner_files(app))
    known = set(app.tags().values())
    cards = [(f.name, f.id) for f in findable(catalogue, "figurant") if f.id not in known]
    cards += [(m.name, m.id) for m in findable(catalogue, "mission") if m.id not in known]

    def link(card: str, name: str) -> None:
        tags = dict(app.tags())
        tags[uid] = card
        app.set_setting("tags", tags)
        app.pop()
        app.notice(t("Tag"), [t("Tag {uid} is now {card}.", uid=uid, card=name)])

    for screen in [screen for screen in app.stack if isinstance(screen, TagMenu)]:
        app.pop(screen)  # one new tag at a time: the latest replaces an earlier one
    if not cards:
        app.notice(t("Tag"), [t("Every card already has a tag: this one is not linked.")])
        return
    items = [Item(name, lambda c=card, n=name: link(c, n)) for name, card in cards]
    app.push(TagMenu(app, t("New tag: which card?"), items))


def findable(box, section: str) -> list:
    """The figurants or missions of a catalogue the table can find by their names."""
    cards = box.figurants if section == "figurant" else box.missions
    return [card for card in cards if identified(section, card.id, card.name)]


class TagMenu(Menu):
    """The cards a new tag may name; only one such menu is open at a time."""


FIELD_LABELS = {
    "cost": "Cost",
    "points": "Points",
    "type": "Type",
    "officer_x": "Officer X",
    "effect": "Effect",
    "scoring": "Steps",
}
SIDE_LABELS = {"family": "Family", "advanced": "Advanced"}
# The fields a family can change; a card's text follows its effect.
FIELDS = {
    "penguin": {"advanced": ("effect",)},
    "figurant": {
        "family": ("cost", "points", "type"),
        "advanced": ("cost", "points", "type", "officer_x", "effect"),
    },
    "mission": {"family": ("type", "scoring"), "advanced": ("type", "scoring", "effect")},
}


def teach_menu(app) -> Menu:
    """Every card of the box; choosing one shows its values, whose they are, and lets a
    taught (or, after asking, a printed) value be changed."""
    t = app.t
    if app.owner_catalogue is None:
        return Menu(app, t("Our cards"), [Item(t("No owner's file"), app.pop)])
    box = catalogue_files.load_for_play(state_check.owner_files(app))
    cards = [("penguin", c) for c in box.penguins]
    cards += [("figurant", c) for c in findable(box, "figurant")]
    cards += [("mission", c) for c in findable(box, "mission")]
    items = [
        Item(card_name(t, card), lambda s=section, c=card: app.push(card_menu(app, box, s, c)))
        for section, card in cards
    ]
    return Menu(app, t("Our cards"), items)


def card_menu(app, box, section: str, card) -> Menu:
    """One card: each value with whose it is (printed, ours, or not known yet)."""
    t = app.t
    sources = dict(card.sources)
    items = []
    for side, fields in FIELDS[section].items():
        values = card if section == "penguin" else getattr(card, side)
        if values is None:
            continue
        for field in fields:
            value = getattr(values, field)
            if value is None:
                whose = t("not known yet")
            elif f"{side}.{field}" in sources:
                whose = t("printed")
            else:
                whose = t("ours")
            label = t(
                "{side} {field}: {value} ({whose})",
                side=t(SIDE_LABELS[side]),
                field=t(FIELD_LABELS[field]),
                value=_shown(t, box, field, value),
                whose=whose,
            )
            printed = f"{side}.{field}" in sources
            items.append(
                Item(
                    label,
                    lambda s=side, f=field, p=printed: _change(app, box, section, card, s, f, p),
                )
            )
    return Menu(app, card_name(t, card), items)


def _shown(t, box, field: str, value) -> str:
    from firmware_app.flows.shared.effect_words import effect_text

    if value is None:
        return "?"
    if field == "cost":
        return cost_words(t, value)
    if field == "type":
        return type_words(t, value)
    if field == "officer_x":
        return f"{value[0]}–{value[1]}"
    if field == "scoring":
        return ", ".join(f"{count}→{points}" for count, points in value)
    if field == "effect":
        names = {f.id: f.name for f in box.figurants}
        return effect_text(t, value, names.get)
    return str(value)


def type_words(t, value) -> str:
    """A figurant's type, or what a mission counts: a type, several, or the different ones."""
    if value == DIFFERENT:
        return t("Different types")
    words = {kind: t(kind) for kind in TYPES}
    kinds = (value,) if isinstance(value, str) else value
    return ", ".join(words.get(kind, kind) for kind in kinds)


def _change(app, box, section: str, card, side: str, field: str, printed: bool) -> None:
    """Teach the value again; a printed value only after the table says so."""
    from firmware_app.flows.shared.teach import CardTeacher

    t = app.t

    def saved() -> None:
        app.pop()  # the card's old values: shown anew
        again = catalogue_files.load_for_play([app.owner_catalogue])
        found = {"penguin": again.penguin, "figurant": again.figurant, "mission": again.mission}
        app.push(card_menu(app, again, section, found[section](card.id)))
        lines = [
            t("{card}: saved in the owner's file.", card=card.name),
            t("New games use it; a game being played keeps its value."),
        ]
        app.notice(t("Our cards"), lines)

    def teach() -> None:
        CardTeacher(app, section, card.id, side, [field], box=box, then=saved).start()

    if not printed:
        teach()
        return
    items = [
        Item(t("Keep the printed value"), app.pop),
        Item(t("Change it"), lambda: (app.pop(), teach())),
    ]
    app.push(Menu(app, t("Printed on the card"), items))
