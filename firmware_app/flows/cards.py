"""Teaching the box its deck: linking tags to cards, completing unknown cards.

The rulebook does not print every card's values, so the owner enters a card
once (cost with the colour buttons, points, type) and it is remembered in
the owner's catalogue file, merged over the shipped data from then on.
"""

from collections import Counter

from firmware_app import catalogue_files
from firmware_app.ui.screens import ColourEntry, Item, Menu, NumberEntry
from rules.catalogue import CatalogueError
from rules.colours import TYPES


def enrol_tag(app, uid: str) -> None:
    """An unknown tag: ask which card it is stuck on, and remember."""
    t = app.t
    catalogue = app.catalogue(demo=False)
    known = set(app.tags().values())
    cards = [(f.name, f.id) for f in catalogue.figurants if f.id not in known]
    cards += [(m.name, m.id) for m in catalogue.missions if m.id not in known]

    def link(card: str, name: str) -> None:
        tags = dict(app.tags())
        tags[uid] = card
        app.set_setting("tags", tags)
        app.pop()
        app.notice(t("Tag"), [t("Tag {uid} is now {card}.", uid=uid, card=name)])

    items = [Item(name, lambda c=card, n=name: link(c, n)) for name, card in cards]
    app.push(Menu(app, t("New tag: which card?"), items))


def teach_menu(app) -> Menu:
    t = app.t
    catalogue = app.catalogue(demo=False)
    unknown = [
        f for f in catalogue.figurants if None in (f.family.cost, f.family.points, f.family.type)
    ]
    items = [Item(f.name, lambda f=f: CardForm(app, f.id, f.name).start()) for f in unknown]
    if not items:
        items = [Item(t("Every card is known."), app.pop)]
    return Menu(app, t("Teach a card"), items)


class CardForm:
    """Cost, then points, then type; saved to the owner's catalogue at the end."""

    def __init__(self, app, card_id: str, name: str) -> None:
        self.app, self.t, self.card_id, self.name = app, app.t, card_id, name
        self.values: dict = {}

    def start(self) -> None:
        self.app.push(ColourEntry(self.app, self.name, self.t("Cost: press each token"), self.cost))

    def cost(self, colours: list[str]) -> None:
        self.values["cost"] = dict(Counter(colours))
        self.app.push(NumberEntry(self.app, self.name, self.t("Points:"), self.points, value=1))

    def points(self, value: int) -> None:
        self.values["points"] = value
        items = [Item(self.t(kind), lambda k=kind: self.save(k)) for kind in TYPES]
        self.app.push(Menu(self.app, self.t("Type"), items))

    def save(self, kind: str) -> None:
        self.values["type"] = kind
        app, t = self.app, self.t
        for _ in range(4):
            app.pop()
        if app.owner_catalogue is None:
            app.notice(t("Cards"), [t("No owner's catalogue file is configured.")])
            return
        try:
            catalogue_files.save_owner_card(
                app.owner_catalogue, {"id": self.card_id, "family": self.values}
            )
        except (CatalogueError, OSError) as error:
            app.notice(t("Cards"), [t("Not saved: {reason}", reason=str(error))])
            return
        app.notice(t("Cards"), [t("{card} is remembered.", card=self.name)])
