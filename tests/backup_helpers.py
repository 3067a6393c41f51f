"""What a backup must carry and a restore bring back, read from a state folder to compare."""

import sqlite3

from firmware_app.store import catalogue_files
from firmware_app.transfer.box_backup import CATALOGUE, JOURNAL, POPIEL

REWARDS = {"plus2": 3, "plus3": 2, "extra": 2, "double": 1}
TAUGHT = {"becky": 4, "windows": {"A": 6, "B": 7}, "rewards": REWARDS}


def teach(owner) -> None:
    """Values a family taught the box: a Pingwiny card, Król Popiel's tower and reward mix."""
    catalogue_files.save_owner_card(owner, {"id": "becky", "family": {"points": 4}})
    popiel = catalogue_files.popiel_owner_file(owner)
    catalogue_files.save_popiel_owner(popiel, "windows", {"A": 6, "B": 7})
    catalogue_files.save_popiel_owner(popiel, "rewards", REWARDS)


def journal_rows(folder) -> dict:
    """Games, actions and settings (tags too), as stored."""
    db = sqlite3.connect(folder / JOURNAL)
    try:
        return {
            table: db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("games", "actions", "settings")
        }
    finally:
        db.close()


def state(folder) -> dict:
    """Everything a restore must bring back: the journal's rows, the owner's files as bytes
    and the values the box reads from them."""
    files = {name: (folder / name).read_bytes() for name in (CATALOGUE, POPIEL)
             if (folder / name).exists()}  # fmt: skip
    return journal_rows(folder) | {"owner's files": files, "taught": taught(folder / CATALOGUE)}


def taught(owner) -> dict:
    """The taught values as the box reads them."""
    becky = next(card for card in catalogue_files.load_for_play([owner]).figurants
                 if card.id == "becky") if owner.exists() else None  # fmt: skip
    popiel = catalogue_files.load_popiel(False, catalogue_files.popiel_owner_file(owner))
    return {
        "becky": None if becky is None else becky.family.points,
        "windows": popiel.windows,
        "rewards": popiel.rewards,
    }
