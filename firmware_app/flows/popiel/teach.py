"""Teaching Król Popiel's box at its first setup: the tower's windows, the reward mix.

The rulebook prints neither; the wizard asks them the first time a game needs
them and they are kept in the owner's Król Popiel file
(``catalogue_files.popiel_owner_file``), so the next game asks nothing.
"""

import logging
from dataclasses import replace

from firmware_app.flows.shared.teach import count_mix
from firmware_app.store import catalogue_files
from rules.catalogue import CatalogueError
from rules.popiel.game import KINDS

LOG = logging.getLogger("tableside.teach")


def popiel_windows(app, side: str, windows: int, demo: bool = False):
    """The tower's windows on one board side, remembered (not for the demo box, whose
    other values are made up); the box as it now stands."""
    path = None if demo else catalogue_files.popiel_owner_file(app.owner_catalogue)
    if path is not None:
        try:
            catalogue_files.save_popiel_owner(path, "windows", {side: windows})
        except (CatalogueError, OSError) as error:
            LOG.warning("windows not saved: %s", error)
    box = catalogue_files.load_popiel(demo, path)
    if box.windows[side] is None:  # no owner's file: this game still knows them
        box = replace(box, windows={**box.windows, side: windows})
    return box


def popiel_rewards(app, kinds: list[str], then) -> None:
    """The mix of the 8 reward tokens, kind by kind (``kinds``: their names on the
    screen, in ``KINDS`` order), checked against the box's count; then ``then(box)``."""
    t = app.t
    total = catalogue_files.load_popiel(False).reward_count

    def counted(counts: list[int]) -> None:
        path = catalogue_files.popiel_owner_file(app.owner_catalogue)
        catalogue_files.save_popiel_owner(path, "rewards", dict(zip(KINDS, counts, strict=True)))
        then(catalogue_files.load_popiel(False, path))

    prompts = [t("{kind}: how many?", kind=kind) for kind in kinds]
    count_mix(app, t("Reward tokens"), prompts, total, counted)
