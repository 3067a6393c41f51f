"""Where the daemon and the root unit that mounts a USB stick meet: the mount and the answers.

The root unit (``systemd/tableside-stick``) mounts the stick and says so in a file; the
daemon asks for the unmount with a file of its own and reads the unit's answer.
``firmware_app.transfer.stick`` tells the whole exchange; docs/install.md the files.
"""

import os
from pathlib import Path

from firmware_app.store.atomic import write_atomically

RUN = Path("/run/tableside")  # made at boot by systemd/tableside-tmpfiles.conf
FOLDER = "tableside"  # the folder the box writes on the stick
MOUNTED, RELEASE, RELEASED = "stick.mounted", "stick.release", "stick.released"


class StickPort:
    """The files the daemon and the root unit exchange in ``run`` (a plain folder in tests)."""

    def __init__(self, run: Path = RUN) -> None:
        self.run = Path(run)
        self.mount = self.run / "stick"

    @property
    def folder(self) -> Path:
        """Where the box writes on the stick."""
        return self.mount / FOLDER

    def marker(self) -> tuple[int, int] | None:
        """Which mounting of a stick is current (a new one each time), or None without a stick."""
        try:
            found = os.stat(self.run / MOUNTED)
        except OSError:
            return None
        return found.st_ino, found.st_mtime_ns

    def request_release(self) -> None:
        """Ask the root unit to unmount the stick; its answer comes as :meth:`released`."""
        (self.run / RELEASED).unlink(missing_ok=True)
        write_atomically(self.run / RELEASE, b"release\n")

    def released(self) -> str | None:
        """The unit's answer to the release: "ok", or why the stick is not unmounted."""
        try:
            answer = (self.run / RELEASED).read_text(encoding="utf-8").strip()
        except OSError:
            return None
        (self.run / RELEASED).unlink(missing_ok=True)
        return answer
