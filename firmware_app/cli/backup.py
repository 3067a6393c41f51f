"""The command line's ``backup --to DIR`` and ``restore --from DIR [--yes]``.

The journal is found as for ``stats`` and ``export`` (``--state-dir``, ``--config``); the
owner's files are the catalogue the configuration names, or ``catalogue.toml`` in the state
folder, and the Król Popiel file beside it. Restore while the daemon is stopped (``sudo
systemctl stop tableside``): a running daemon would carry on with the settings it read
before. A restore onto a box that has never run (no journal, even no state folder yet)
makes the state folder and puts the backup's files there. The backup's side is read and
written through folder handles, as on a USB stick: below the folder named, no link is
followed and only plain files are read.
"""

import tempfile
import time
from pathlib import Path

from firmware_app.cli.common import CommandError, state_dir
from firmware_app.store.config import CATALOGUE, load_config
from firmware_app.transfer.box_backup import (
    BackupError,
    check_backup,
    make_backup,
    open_backup,
    owner_files,
    restore,
)


def _paths(args) -> tuple[Path, Path]:
    """The journal and the owner's catalogue the arguments name."""
    folder = state_dir(args)
    catalogue = folder / CATALOGUE if args.state_dir else load_config(args.config).app.catalogue
    return folder / "journal.sqlite", catalogue


def cmd_backup(args) -> int:
    journal, catalogue = _paths(args)
    if not journal.exists():
        raise CommandError(f"{journal.parent}: no journal there, nothing to back up")
    try:
        made = make_backup(journal, catalogue, Path(args.to), time.time())
    except (OSError, BackupError) as error:
        raise CommandError(f"{args.to}: cannot write the backup: {error}") from None
    try:
        held = check_backup(made, journal.parent).held
    except BackupError as error:  # the box's own journal failed the check a restore makes
        raise CommandError(f"{made}: written, but it would not be restored: {error}") from None
    owners = [name for name in owner_files(catalogue) if (made / name).exists()]
    kept = f"the owner's {' and '.join(owners)}" if owners else "no owner's file (none yet)"
    print(f"{made}: {held}; from {journal}, with {kept}")
    return 0


def cmd_restore(args) -> int:
    journal, catalogue = _paths(args)
    try:
        found = open_backup(Path(args.source))
    except OSError as error:
        raise CommandError(f"{args.source}: cannot be read: {error}") from None
    if found is None:
        raise CommandError(f"{args.source}: no finished backup there (a folder with manifest.json)")
    # the scratch copy goes beside the journal, or anywhere on a box that has never run
    scratch = journal.parent if journal.parent.is_dir() else Path(tempfile.gettempdir())
    try:
        with found:
            backup = check_backup(found, scratch)
    except BackupError as error:
        raise CommandError(f"{error}; nothing was changed") from None
    made = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(backup.made))
    what = f"{backup.folder} (made {made}, {backup.held})"
    if not args.yes:
        verb = "replace" if journal.exists() else "make"
        names = [journal, *owner_files(catalogue).values()]
        raise CommandError(
            f"restoring {what} would {verb} {', '.join(map(str, names))}; add --yes to do it "
            "(the replaced state is kept aside)"
        )
    try:
        aside = restore(backup, journal, catalogue, time.time())
    except BackupError as error:
        raise CommandError(f"{error}; nothing was changed") from None
    except OSError as error:  # the next start finishes the swap or undoes it
        raise CommandError(f"cannot restore: {error}") from None
    kept = "nothing was there before" if aside is None else f"the replaced state is kept in {aside}"
    print(f"restored {what} into {journal}; {kept}")
    return 0
