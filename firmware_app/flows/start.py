"""Switching on: resume a game, start one, or change the settings.

The games come from the registry (``flows/games.py``): this screen knows
none of them by name.
"""

from firmware_app.flows.games import GAMES
from firmware_app.flows.settings import settings_menu
from firmware_app.flows.stats import StatsMenu
from firmware_app.ui.screens import Item, Menu


def start_screen(app) -> Menu:
    t = app.t
    items = []
    if app.session is not None:
        items.append(Item(t("Resume the game"), app.show_game))
    items.append(Item(t("New game"), lambda: app.push(game_choice(app))))
    items.append(Item(t("Settings"), lambda: app.push(settings_menu(app))))
    items.append(Item(t("Statistics"), lambda: app.push(StatsMenu(app))))
    return Menu(app, "Tableside", items, back=lambda: None)


def game_choice(app) -> Menu:
    """Every registered game, in the registry's order; OK starts its setup wizard."""
    items = [
        Item(screens.name(app.t), lambda setup=screens.setup: app.push(setup(app)))
        for screens in GAMES.values()
    ]
    return Menu(app, app.t("Game"), items)
