"""docs/commands.md, the reference of every command and option, written from the parser.

The reference is what ``tableside COMMAND --help`` says, laid out for reading on a page:
each command's description, then a table of its arguments with what each takes (a number,
one of some choices), its default and whether it is required. ``test_cli`` checks the page
against the parser, so a help that changes, an option renamed or a choice dropped either
changes the page in the same commit or fails the suite. Rewrite the page after changing a
command: ``.venv/bin/python tests/cli_reference.py``.

Built from argparse's own records of each action rather than from its printed help, whose
layout differs between Python versions.
"""

import argparse
import sys
from pathlib import Path

PAGE = Path(__file__).parent.parent / "docs" / "commands.md"

HEAD = """\
# Commands

Every command of `tableside` with its options, as `tableside COMMAND --help` gives them. This
page is written from the command line's own parser (`.venv/bin/python tests/cli_reference.py`);
the tests fail when the two differ.
"""


def commands(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every command's parser by its words (``catalogue check``), through argparse's actions."""
    found = {}
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                found[name] = command
                found |= {f"{name} {k}": v for k, v in commands(command).items()}
    return found


def reference(top: argparse.ArgumentParser) -> str:
    """The whole page: the program's description, its commands and epilog, then each command."""
    parts = [HEAD, top.description + "\n", listed(top), top.epilog + "\n"]
    for words, command in commands(top).items():
        parts.append(section(f"{top.prog} {words}", command))
    return "\n".join(parts)


def listed(parser: argparse.ArgumentParser) -> str:
    """The commands a parser takes, each with its one-line help, under their title."""
    lines = []
    for group in parser._action_groups:
        for action in group._group_actions:
            if not isinstance(action, argparse._SubParsersAction):
                continue
            lines += [f"Its {group.title} (`{action.metavar}`):", ""]
            lines += ["| command | what it does |", "|---|---|"]
            lines += [f"| `{c.dest}` | {c.help} |" for c in action._choices_actions]
            lines.append("")
    return "\n".join(lines)


def section(heading: str, command: argparse.ArgumentParser) -> str:
    """One command: its heading, its description, its own commands and a row per argument."""
    lines = [f"## {heading}", "", command.description, ""]
    if commands_of := listed(command):
        lines.append(commands_of)
    rows = [action for action in command._actions if not _help_or_commands(action)]
    if rows:
        lines += ["| argument | takes | what it does |", "|---|---|---|"]
        lines += [row(action, command) for action in rows]
        lines.append("")
    return "\n".join(lines)


def row(action: argparse.Action, command: argparse.ArgumentParser) -> str:
    """``| --seed N | a whole number; default 1 | seed of the game's draws |``."""
    name = " / ".join(action.option_strings) or action.dest
    return f"| `{name}` | {'; '.join(takes(action, command))} | {action.help} |"


def takes(action: argparse.Action, command: argparse.ArgumentParser) -> list[str]:
    """What an argument takes and how it is given, in words."""
    if action.nargs == 0:
        words = ["a switch"]
    elif action.choices is not None:
        number = "a whole number: " if action.type is int else ""
        words = [number + "one of " + ", ".join(f"`{choice}`" for choice in action.choices)]
    elif action.type is int:
        words = ["a whole number"]
    else:
        words = [f"`{action.metavar or action.dest.upper()}`"]
    words += {"*": ["any number of them"], "+": ["one or more"]}.get(action.nargs, [])
    if isinstance(action, argparse._AppendAction):
        words.append("may be given again")
    if action.default not in (None, False, []):
        words.append(f"default `{action.default}`")
    if action.required and action.option_strings:
        words.append("required")
    others = [
        other.option_strings[0]
        for group in command._mutually_exclusive_groups
        if action in group._group_actions
        for other in group._group_actions
        if other is not action
    ]
    if others:
        words.append("not with " + ", ".join(f"`{other}`" for other in others))
    return words


def _help_or_commands(action: argparse.Action) -> bool:
    return isinstance(action, argparse._HelpAction | argparse._SubParsersAction)


if __name__ == "__main__":
    sys.path.insert(0, str(PAGE.parent.parent))
    from firmware_app.cli.main import parser

    PAGE.write_text(reference(parser()), encoding="utf-8")
    print(f"{PAGE}: written")
