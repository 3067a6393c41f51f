"""What a Tableside configuration needs from the system, for ``install.sh``.

Prints one word per line for each optional part of the installation the file
calls for: ``spi`` when the panel is on SPI (``[display] interface = "spi"``)
or the reader is the RC522 (``[reader] driver = "rc522-spi"``). A missing
file is the reference build, which needs nothing optional.

It runs on the system's own Python before the daemon's environment exists,
so it uses the standard library only and reads just those keys; the daemon's
configuration checker (``firmware_app.store.config``) judges the rest of the file.
A test holds the two to the same answer for every documented snippet.
"""

import sys
import tomllib
from pathlib import Path

# Drivers that draw in memory or in the simulator open no bus.
NO_BUS = ("fake", "dummy")


def needs(config: dict) -> list[str]:
    """The optional parts ``config`` (a parsed file) calls for."""
    display, reader = (_table(config, name) for name in ("display", "reader"))
    spi_panel = display.get("interface") == "spi" and display.get("driver") not in NO_BUS
    return ["spi"] if spi_panel or reader.get("driver") == "rc522-spi" else []


def _table(config: dict, name: str) -> dict:
    table = config.get(name)
    return table if isinstance(table, dict) else {}  # a wrong type is the checker's to report


def main(argv: list[str]) -> int:
    path = Path(argv[1])
    if not path.exists():
        return 0
    try:
        config = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        print(f"cannot read {path}: {error}", file=sys.stderr)
        return 1
    for need in needs(config):
        print(need)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
