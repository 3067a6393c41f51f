"""State that cannot be read is kept aside, replaced by its default, and named.

What the box reads besides the journal's games may be damaged in ways the journal's own check
cannot see: a setting that is JSON but not a value the box knows (a contrast of 1e308, a
language it does not speak, the tags stored as a list), or the owner's card file cut short,
not UTF-8, holding a value the engines refuse, nested past Python's recursion limit, or a
folder, pipe or link standing where the file belongs. None of it may stop the box: each such
part is kept aside under a name that says so, the box goes on with its default (the printed or
demo deck for the cards), and the panel names what was reset.

- **Settings** are checked at every start (``check_settings``, from ``App.reload``) against the
  bounds the configuration file uses (``store.config``), so a value the owner may write in the
  file is one the journal may hold. The stored texts of the settings found wrong are written to
  ``journal.settings-aside-YYYYMMDD-HHMMSS.json`` beside the journal, the defaults written
  back when the journal can be written. A bad entry of the tags drops that entry only.
- **The owner's card files** are checked where they are first read (``owner_catalogue``,
  ``popiel_owner``): the start must not import the card rules (``tests/test_games_registry.py``),
  and a good file costs nothing more than the load the game needs anyway. A file that cannot be
  loaded is renamed to ``catalogue.toml.damaged-YYYYMMDD-HHMMSS``: a rename keeps its bytes
  without reading them, and moves a folder, pipe or link without following it.

This module is imported at start: the card rules are imported only inside the functions that
need them.
"""

import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_app.store import bounded_read, config, regular
from firmware_app.store.atomic import sync_folder, write_atomically
from firmware_app.store.faults import JournalError

LOG = logging.getLogger("tableside.state")

# How each setting the table can change is checked: the configuration file's checks where it
# has the same setting, so both accept the same values.
_APP, _DISPLAY = config.SCHEMA["app"], config.SCHEMA["display"]
CHECKS: Mapping[str, config.Check] = {
    "language": _APP["language"].check,
    "contrast": _DISPLAY["contrast"].check,
    "sleep_minutes": _APP["sleep_after_minutes"].check,
    "bag": config.box_source,
    "deck": config.box_source,
    "names": _APP["names"].check,
    "teach_points": config.teach_points,
    "handoff_chirp": _APP["handoff_chirp"].check,
    "pawn_colours": config.pawn_colours,
}
# The settings' names on the panel, when one is reset.
SETTING_NAMES = {
    "language": "Language",
    "contrast": "Contrast",
    "sleep_minutes": "Sleep",
    "bag": "Token bag",
    "deck": "Figurant deck",
    "tags": "Tags",
    "names": "Names",
    "teach_points": "Ask a card's points",
    "handoff_chirp": "Chirp at a hand-off",
    "pawn_colours": "Mouse pawns",
}


def _stamp(clock: Callable[[], float]) -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime(clock()))


def _free_name(path: Path) -> Path:
    """``path``, or with ``-2``, ``-3`` … added when something is already there."""
    candidate, n = path, 1
    while os.path.lexists(candidate):
        n += 1
        candidate = path.with_name(f"{path.name}-{n}")
    return candidate


def at_start(part: str, work: Callable[[], Any], default: Any, failed: list[str]) -> Any:
    """What ``work()`` reads of the state at start, or ``default`` when it fails in a way
    nothing foresaw (a bug, or damage no check knows): logged with its traceback and
    ``part`` added to ``failed`` for the panel. The box must reach its home menu whatever
    the state holds, or systemd restarts it into the same failure."""
    try:
        return work()
    except Exception:
        LOG.exception("%s could not be read at start", part)
        failed.append(part)
        return default


# ---------------------------------------------------------------- settings


@dataclass
class SettingsFindings:
    """What the start made of the stored settings: the values to use and what was reset."""

    settings: dict[str, Any]
    reset: list[str] = field(default_factory=list)  # keys, in the order of the defaults
    aside: Path | None = None  # where the stored texts were kept (None: not written)

    def message(self, t) -> list[str]:
        """The panel's words; empty when every setting was sound."""
        if not self.reset:
            return []
        names = ", ".join(t(SETTING_NAMES[key]) for key in self.reset)
        return [
            t.plural(
                "A setting could not be read and is back to its default: {names}.",
                "Settings could not be read and are back to their defaults: {names}.",
                len(self.reset),
                names=names,
            )
        ]


def valid_tags(value: Any) -> dict[str, str] | None:
    """The sound entries of stored tags (a tag's id to a card's id); None: not a table."""
    if not isinstance(value, dict):
        return None
    return {
        uid: card
        for uid, card in value.items()
        if isinstance(uid, str) and uid.strip() and isinstance(card, str) and card.strip()
    }


_UNREADABLE = object()  # a stored text that is not JSON


def check_settings(
    journal, defaults: Mapping[str, Any], clock: Callable[[], float] = time.time
) -> SettingsFindings:
    """The settings of ``defaults``' keys from the journal, each checked (see the module).

    Never raises for what the journal holds: a setting not stored takes its default, one that
    is not JSON or not a value the box knows is reset and kept aside.
    """
    try:
        stored = journal.setting_texts()
    except sqlite3.Error as error:
        LOG.warning("settings cannot be read, the defaults are used: %s", error)
        return SettingsFindings(dict(defaults))
    settings, reset, fixed = {}, [], {}
    for key, default in defaults.items():
        if key not in stored:
            settings[key] = default
            continue
        try:
            value = json.loads(stored[key])
        except (ValueError, RecursionError):  # the start's check finds these; a restore may not
            value = _UNREADABLE
        if key == "tags":  # its sound entries are kept
            tags = valid_tags(value)
            use = default if tags is None else tags
            sound = use == value
        else:
            sound = value is not _UNREADABLE and _sound(key, value)
            use = value if sound else default
        settings[key] = use
        if not sound:
            reset.append(key)
            fixed[key] = use
    findings = SettingsFindings(settings, reset)
    if reset:
        findings.aside = _keep_settings_aside(journal, {k: stored[k] for k in reset}, clock)
        _write_back(journal, fixed)
        LOG.warning(
            "settings reset to their defaults: %s; the stored values are kept in %s",
            ", ".join(reset),
            findings.aside or "nothing (the folder cannot be written)",
        )
    return findings


def _sound(key: str, value: Any) -> bool:
    """Whether the value passes its setting's check (a setting with none: any JSON value)."""
    check = CHECKS.get(key)
    return check is None or not any(True for _ in check(value))


def _keep_settings_aside(journal, texts: dict[str, str], clock) -> Path | None:
    path = Path(journal.path)
    aside = _free_name(path.with_name(f"{path.stem}.settings-aside-{_stamp(clock)}.json"))
    try:
        write_atomically(aside, json.dumps(texts, ensure_ascii=False, indent=1).encode("utf-8"))
    except OSError as error:
        LOG.warning("the settings reset cannot be kept aside: %s", error)
        return None
    return aside


def _write_back(journal, values: dict[str, Any]) -> None:
    """The defaults into the journal, when it can be written; a refusal is no reason to stop."""
    if getattr(journal, "read_only", False):
        return
    for key, value in values.items():
        try:
            journal.set_setting(key, value)
        except (JournalError, sqlite3.Error, OSError) as error:
            LOG.warning("setting %s not written back: %s", key, error)
            return


# --------------------------------------------------------- the owner's files

# What loading an owner's file raises when the file, not the box, is wrong: the catalogue's
# refusals (CatalogueError and the engines' SetupError are ValueErrors), text that is not
# UTF-8, TOML nested past the recursion limit, a folder or link (NotRegular), and the odd
# shapes the checks of a file do not foresee.
LOAD_ERRORS = (ValueError, RecursionError, OSError, TypeError, KeyError, AttributeError)


def set_aside(path: Path, clock: Callable[[], float] = time.time) -> Path | None:
    """Rename what stands at ``path`` to ``NAME.damaged-TIME``; None when it cannot be."""
    path = Path(path)
    aside = _free_name(path.with_name(f"{path.name}.damaged-{_stamp(clock)}"))
    try:
        os.rename(path, aside)  # a link is renamed, never followed; a pipe never opened
        sync_folder(path.parent)
    except OSError as error:
        LOG.warning("%s cannot be kept aside: %s", path, error)
        return None
    return aside


def _present(path: Path | None) -> bool:
    return path is not None and os.path.lexists(path)


def _damaged_owner_file(app, path: Path, error: BaseException) -> None:
    """Keep the owner's file aside, play on without it, and say so once."""
    LOG.warning("the owner's cards in %s cannot be used: %s", path, error)
    aside = set_aside(path, app.clock)
    if aside is None:  # not even renamed (a read-only folder): left alone for this run
        app.owner_catalogue = None
    else:
        LOG.warning("the owner's file is kept as %s", aside)
    t = app.t
    app.notice(
        t("Our cards"),
        [t("Our cards' file could not be read: it is kept aside and the box's cards are used.")],
    )


def check_owner_files(app) -> None:
    """At start, what needs no card rules: each owner's file is a regular file of at most
    ``OWNER_FILE_LIMIT`` bytes, UTF-8, and TOML (nested no deeper than Python can parse).
    A value the engines refuse is found where the file is first loaded (below)."""
    path = app.owner_catalogue
    for owner in (path, config.popiel_owner_file(path)):
        if not _present(owner):
            continue
        try:
            data = regular.read_bytes(owner, config.OWNER_FILE_LIMIT)
            bounded_read.parse_toml(bounded_read.text_of(data))
        except (ValueError, OSError) as error:  # TOML, UTF-8 and bounds errors too
            _damaged_owner_file(app, owner, error)
            if app.owner_catalogue is None:
                return


def owner_catalogue(app, demo: bool):
    """The box's catalogue with the owner's file, or without it when that cannot be loaded."""
    from firmware_app.store import catalogue_files

    path = app.owner_catalogue
    if not _present(path):
        return catalogue_files.load([], demo=demo)
    try:
        return catalogue_files.load([path], demo=demo)
    except LOAD_ERRORS as error:
        catalogue = catalogue_files.load([], demo=demo)  # the box's own data must load
        _damaged_owner_file(app, path, error)
        return catalogue


def owner_files(app) -> list[Path]:
    """The owner's file in a list when it loads for play; [] when there is none, or when it
    cannot be loaded (then it is kept aside)."""
    from firmware_app.store import catalogue_files

    path = app.owner_catalogue
    if not _present(path):
        return []
    try:
        catalogue_files.load_for_play([path])
    except LOAD_ERRORS as error:
        catalogue_files.load_for_play([])  # the box's own data must load
        _damaged_owner_file(app, path, error)
        return []
    return [path]


def popiel_owner(app) -> Path | None:
    """The owner's Król Popiel file when it loads; kept aside (and None) when it does not."""
    from firmware_app.store import catalogue_files

    path = config.popiel_owner_file(app.owner_catalogue)
    if not _present(path):
        return path
    try:
        catalogue_files.load_popiel(False, path)
    except LOAD_ERRORS as error:
        catalogue_files.load_popiel(False)  # the box's own data must load
        _damaged_owner_file(app, path, error)
        return None if app.owner_catalogue is None else path
    return path
