"""Where the daemon and the root unit that mounts a USB stick meet: the mount and the answers.

One folder, ``/run/tableside-stick``, root's; the daemon (group tableside) may read it and
write nothing in it but a byte into the FIFO the unit makes for each stick:

- ``stick``: the mount point;
- ``stick.mounted``: the unit's "a stick is there", a new file for each stick;
- ``stick.release``: the FIFO; a byte written into it asks the unit to unmount the stick;
- ``stick.released``: the unit's answer, "ok" or why not.

So the daemon has nothing the unit would read or follow, and the unit nothing the daemon could
replace. ``systemd/tableside-stick`` is the unit's side; ``firmware_app.transfer.stick`` tells
the whole exchange, docs/install.md the files.
"""

import os
from pathlib import Path

RUN = Path("/run/tableside-stick")  # made at boot by systemd/tableside-tmpfiles.conf
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
        """Ask the root unit to unmount the stick; its answer comes as :meth:`released`.

        Never waits: with the unit gone (no reader, no FIFO) this raises OSError at once.
        """
        flags = os.O_WRONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
        handle = os.open(self.run / RELEASE, flags)
        try:
            os.write(handle, b"release\n")
        finally:
            os.close(handle)

    def released(self) -> str | None:
        """The unit's answer to the release: "ok", or why the stick is not unmounted.

        The unit removes it when the next stick is mounted.
        """
        try:
            return (self.run / RELEASED).read_text(encoding="utf-8").strip()
        except OSError:
            return None
