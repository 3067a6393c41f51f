"""Moving through the panel's menus in tests as a player would: UP/DOWN, then OK."""


def choose(sim, label: str, missing_ok: bool = False) -> None:
    """Press down to the item labelled ``label`` (else the first that starts with it) and OK.

    An entry of a turn screen's "More …" menu (undo, the score so far, settings)
    is reached through "More …", as on the panel. With ``missing_ok`` a label
    the menu lacks presses nothing (random input streams ask for any label).
    """
    top = sim.app.top
    labels = [item.label for item in getattr(top, "items", [])]
    index = _find(labels, label)
    more = sim.app.t("More …")
    if index is None and more in labels:
        choose(sim, more)
        choose(sim, label, missing_ok)
        return
    if index is None:
        assert missing_ok, f"{label!r} not in {labels}"
        return
    sim.press("down", (index - top.cursor) % len(labels))
    sim.press("ok")


def _find(labels: list[str], label: str) -> int | None:
    if label in labels:
        return labels.index(label)
    return next((i for i, text in enumerate(labels) if text.startswith(label)), None)


def drawn_pages(screen) -> list:
    """Each page of a notice (else the screen once) drawn on a canvas of its own; a notice
    is left on its first page."""
    from firmware_app.ui.canvas import Canvas
    from firmware_app.ui.screens import Notice

    canvases = []
    for page in range(screen.pages if isinstance(screen, Notice) else 1):
        if isinstance(screen, Notice):
            screen.page = page
        canvas = Canvas()
        screen.draw(canvas)
        canvases.append(canvas)
    if isinstance(screen, Notice):
        screen.page = 0
    return canvases


def recorded_play(sim) -> tuple:
    """What a refused action must leave as it was: the game's states, its state as the engine
    writes it, and the actions its journal holds."""
    session = sim.app.session
    actions = sim.journal.record(session.game_id)["actions"]
    return len(session.states), session.state.to_json(), actions
