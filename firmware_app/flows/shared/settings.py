"""Settings the family can change on the box, kept in the journal.

Wiring-level choices (pins, panel type, reader) live in the configuration
file; the screen shows them but they change only with the file.
"""

from firmware_app.ui.screens import Item, Menu

# When the panel asks a face-up card's points and type: with its cost, or at the score sheet.
POINTS_WHEN = {"now": "when laid out", "score": "at the score"}
CONTRAST_LEVELS = (16, 64, 128, 192, 255)
SLEEP_MINUTES = (0, 2, 5, 10, 30)


def settings_menu(app) -> Menu:
    t = app.t

    def choose(key: str, title: str, options: list[tuple[str, object]]) -> None:
        def pick(value):
            app.set_setting(key, value)
            if key == "language":
                rebuild_in_language(app)
            else:
                app.pop()
                app.pop()
            app.push(settings_menu(app))

        app.push(Menu(app, title, [Item(label, lambda v=v: pick(v)) for label, v in options]))

    language = {"pl": "Polski", "en": "English"}
    current, contrast = app.setting("language"), app.setting("contrast")
    sleep, bag, deck = app.setting("sleep_minutes"), app.setting("bag"), app.setting("deck")
    pawns = app.setting("pawn_colours")  # Król Popiel's mouse pawns, by colour
    items = [
        Item(
            t("Language: {value}", value=language[current]),
            lambda: choose("language", t("Language"), [(v, k) for k, v in language.items()]),
        ),
        Item(
            t("Contrast: {value}", value=contrast),
            lambda: choose("contrast", t("Contrast"), [(str(v), v) for v in CONTRAST_LEVELS]),
        ),
        Item(
            t("Sleep after: {value}", value=_minutes(t, sleep)),
            lambda: choose(
                "sleep_minutes", t("Sleep"), [(_minutes(t, v), v) for v in SLEEP_MINUTES]
            ),
        ),
        Item(
            t("Bag: {value}", value=t("app") if bag == "app" else t("table")),
            lambda: choose("bag", t("Token bag"), [(t("app"), "app"), (t("table"), "table")]),
        ),
        Item(
            t("Deck: {value}", value=t("app") if deck == "app" else t("table")),
            lambda: choose("deck", t("Figurant deck"), [(t("app"), "app"), (t("table"), "table")]),
        ),
        Item(
            t("Reader: {value}", value=t("none") if app.reader_name == "none" else t("fitted")),
            lambda: app.notice(t("Reader"), [t("The reader is set in the configuration file.")]),
        ),
        Item(
            t("Card points: {value}", value=t(POINTS_WHEN[app.setting("teach_points")])),
            lambda: choose(
                "teach_points",
                t("Ask a card's points"),
                [(t(label), key) for key, label in POINTS_WHEN.items()],
            ),
        ),
        Item(
            t("Mouse pawns: {value}", value=t("marked") if pawns else t("not marked")),
            lambda: _pawns(app),
        ),
        Item(t("Our cards"), lambda: _teach(app)),
    ]
    return Menu(app, t("Settings"), items)


def rebuild_in_language(app) -> None:
    """Every screen below was drawn in the old language: build the base screen anew."""
    if app.session is not None:
        app.show_game()
    else:
        app.home()


def _minutes(t, minutes: int) -> str:
    return t("never") if minutes == 0 else t("{n} min", n=minutes)


def _pawns(app) -> None:
    """The box's mouse pawn colours marked again; the menu then shows the new value."""
    from firmware_app.flows.shared.seats import PawnPicker

    def marked(pawns: list[str]) -> None:
        app.pop()
        app.pop()
        app.push(settings_menu(app))

    app.push(PawnPicker(app, marked))


def _teach(app) -> None:
    from firmware_app.flows.shared.cards import teach_menu

    app.push(teach_menu(app))
