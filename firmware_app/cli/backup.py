"""The command line's ``backup --to DIR`` and ``restore --from DIR [--yes]``.

The journal is found as for ``stats`` and ``export`` (``--state-dir``, ``--config``); the
owner's catalogue is the one the configuration names, or ``catalogue.toml`` in the state
folder. Restore while the daemon is stopped (``sudo systemctl stop tableside``): a running
daemon would carry on with the settings it read before.
"""

import time
from pathlib import Path

from firmware_app.cli.common import CommandError, state_dir
from firmware_app.store.config import CATALOGUE, load_config
from firmware_app.transfer.box_backup import (
    BackupError,
    check_backup,
    find_backup,
    make_backup,
    restore,
)


def _paths(args) -> tuple[Path, Path]:
    """The journal and the owner's catalogue the arguments name; a missing journal is refused."""
    folder = state_dir(args)
    catalogue = folder / CATALOGUE if args.state_dir else load_config(args.config).app.catalogue
    journal = folder / "journal.sqlite"
    if not journal.exists():
        raise CommandError(f"{folder}: no journal there, nothing to {args.command}")
    return journal, catalogue


def cmd_backup(args) -> int:
    journal, catalogue = _paths(args)
    try:
        made = make_backup(journal, catalogue, Path(args.to), time.time())
    except OSError as error:
        raise CommandError(f"{args.to}: cannot write the backup: {error.strerror}") from None
    owner = "with" if (made / "catalogue.toml").exists() else "without"
    games = check_backup(made, journal.parent).games
    print(f"{made}: {games} game(s) from {journal}, {owner} the owner's catalogue")
    return 0


def cmd_restore(args) -> int:
    journal, catalogue = _paths(args)
    found = find_backup(Path(args.source))
    if found is None:
        raise CommandError(f"{args.source}: no finished backup there (a folder with manifest.json)")
    try:
        backup = check_backup(found, journal.parent)
    except BackupError as error:
        raise CommandError(f"{error}; nothing was changed") from None
    made = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(backup.made))
    what = f"{found} (made {made}, {backup.games} game(s))"
    if not args.yes:
        raise CommandError(
            f"restoring {what} would replace {journal} and {catalogue}; add --yes to do it "
            "(the replaced state is kept aside)"
        )
    try:
        aside = restore(backup, journal, catalogue, time.time())
    except BackupError as error:
        raise CommandError(str(error)) from None
    print(f"restored {what} into {journal}; the replaced state is kept in {aside}")
    return 0
