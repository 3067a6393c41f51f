"""Switching on: resume one of the unfinished games, start one, or change the settings.

The games come from the registry (``flows/games.py``): this screen knows
none of them by name. Every unfinished game of the journal is offered, the
one played last first, by game, players, how far it got and when it was
last played; starting a new game leaves the others as they are.
"""

from firmware_app.flows.games import GAMES
from firmware_app.ui.screens import Item, Menu


def start_screen(app) -> Menu:
    t = app.t
    items = [
        Item(
            t("Resume: {game}", game=GAMES[(game.game, game.variant)].short(t)),
            lambda game_id=game.id: app.resume(game_id),
            detail=resume_detail(app, game),
        )
        for game in app.journal.unfinished_games()
        if (game.game, game.variant) in GAMES and not kept_at_its_end(app, game)
    ]
    items.append(Item(t("New game"), lambda: app.push(game_choice(app))))
    items.append(Item(t("Settings"), lambda: app.push(settings(app))))
    items.append(Item(t("Statistics"), lambda: app.push(statistics(app))))
    return Menu(app, "Tableside", items, back=lambda: None)


# The menus below the home menu are imported when first chosen, not with it: after
# switching on, the home menu is what the table waits for (see ``flows/games.py``).


def settings(app):
    from firmware_app.flows.shared.settings import settings_menu

    return settings_menu(app)


def statistics(app):
    from firmware_app.flows.shared.stats import StatsMenu

    return StatsMenu(app)


def kept_at_its_end(app, game) -> bool:
    """A game at its end not kept yet (the power went as it ended, or it ended before games
    were kept at once) is kept as finished now, unless its score still waits for a value
    to teach: then it is resumed, and kept once taught."""
    if not (_whole(game.place) and game.place["over"]):
        return False
    from firmware_app.flows.shared.end import keep_result
    from firmware_app.session import Session

    session = Session.load(app.journal, game.id)
    keep_result(app, session)
    return game.id not in {g.id for g in app.journal.unfinished_games()}


def resume_detail(app, game) -> str:
    """``3 players, round 5`` and ``12 min ago``: enough to tell the unfinished games apart.

    From the place the journal keeps with each change, so the list replays nothing; a
    game without one (kept before places were) is replayed once, which stores it.
    """
    t = app.t
    place = game.place
    if not _whole(place):  # none kept yet, or a damaged one: the game replayed once
        from firmware_app.session import Session

        place = Session.load(app.journal, game.id).place()
    progress = t(
        "{players}, {progress}",
        players=t.plural("{n} player", "{n} players", place["players"]),
        progress=t("game over")
        if place["over"]
        else GAMES[(game.game, game.variant)].progress(t, place["step"]),
    )
    if not isinstance(game.played, int | float):  # a damaged date: the rest still shown
        return progress
    return f"{progress}\n{ago(t, app.clock() - game.played)}"


def _whole(place) -> bool:
    """Whether a stored place has what the list shows (``Session.place``)."""
    return (
        isinstance(place, dict)
        and type(place.get("players")) is int
        and isinstance(place.get("over"), bool)
        and type(place.get("step")) is int
    )


def ago(t, seconds: float) -> str:
    """How long ago, in words whose form does not change with the number."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return t("just now")
    if minutes < 60:
        return t("{n} min ago", n=minutes)
    if minutes < 24 * 60:
        return t("{n} h ago", n=minutes // 60)
    days = minutes // (24 * 60)
    return t("yesterday") if days == 1 else t("{n} days ago", n=days)


def game_choice(app) -> Menu:
    """Every registered game, in the registry's order; OK starts its setup wizard."""
    items = [
        Item(screens.name(app.t), lambda setup=screens.setup: app.push(setup(app)))
        for screens in GAMES.values()
    ]
    return Menu(app, app.t("Game"), items)
