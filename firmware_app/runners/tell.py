"""The panel's word on what a start found, the same from the daemon and the simulators.

Kept apart from ``daemon.py`` so that ``tableside sim`` and ``--headless``, which open
the journal as the daemon does, say the same without importing the daemon's start-up.
"""


def tell_start(app, outcome, problems) -> None:
    """The panel's word on what the start found: the journal's state, the parts missing."""
    t = app.t
    if problems:
        names = {
            "buttons": t("Buttons"),
            "reader": t("Tag reader"),
            "buzzer": t("Buzzer"),
            "display": t("Display"),
        }
        lines = [f"{names[p.part]}: {p.fix}" for p in problems]
        app.notice(t("Not working"), lines + [t("Details: systemctl status tableside")])
    lines = outcome.message(t)
    if lines:
        app.notice(t("Game record"), lines)
