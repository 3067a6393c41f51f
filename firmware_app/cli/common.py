"""What every command shares: its two kinds of error, and the two ways to name the state folder.

A leaf of the command line: ``main`` and the command modules import it, it imports none of
them, and it loads the configuration only when a command asks for the folder, so that
``tableside run`` draws its first frame before any of that is read.
"""

from pathlib import Path


class CommandError(Exception):
    """An expected failure: reported as one line, exit status 1."""


class UsageError(CommandError):
    """Options that do not go together: reported as one line, exit status 2 (as argparse)."""


def add_arguments(parser) -> None:
    """``--state-dir`` and ``--config``, the two ways to name the journal."""
    parser.add_argument("--state-dir", help="the folder of the journal (journal.sqlite)")
    parser.add_argument("--config", help="the configuration file naming the state folder")


def state_dir(args) -> Path:
    """The folder ``--state-dir`` names, else the one of the configuration ``--config`` names."""
    if args.state_dir:
        return Path(args.state_dir)
    from firmware_app.store.config import load_config

    return load_config(args.config).app.state_dir  # a ConfigError is reported as it is
