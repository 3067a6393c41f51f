"""A USB stick for the panel's tests: a folder, and the root unit's part played by the test."""

import os
import time

from firmware_app.flows.shared.stick import StickWatch
from firmware_app.transfer.stick_port import MOUNTED, RELEASE, RELEASED, StickPort


class FakeUnit:
    """Does what tableside-stick@.service does, on a plain folder: "mounts", then lets go."""

    def __init__(self, run) -> None:
        self.port = StickPort(run)
        self.run = self.port.run
        self.run.mkdir(parents=True, exist_ok=True)

    def plug(self) -> None:
        self.port.mount.mkdir(exist_ok=True)
        (self.run / "marker.tmp").write_text("/dev/sdz1\n")
        os.replace(self.run / "marker.tmp", self.run / MOUNTED)

    def pull(self) -> None:
        (self.run / MOUNTED).unlink()

    def serve(self) -> None:
        """Answer a release request as the unit does once it has unmounted the stick."""
        if (self.run / RELEASE).exists():
            (self.run / MOUNTED).unlink()
            (self.run / RELEASE).unlink()
            (self.run / RELEASED).write_text("ok\n")


def watch(sim, run) -> StickWatch:
    """The daemon's stick watch on a headless app's loop."""
    sim.loop.stick = StickWatch(sim.app, StickPort(run))
    return sim.loop.stick


def screen_text(sim) -> str:
    return " ".join(sim.screen.split())


def wait_for(sim, text: str, unit=None, seconds: float = 30.0) -> None:
    """Run the loop (the stick's work is in a thread, in real time) until ``text`` shows."""
    deadline = time.monotonic() + seconds
    while text not in screen_text(sim):
        assert time.monotonic() < deadline, f"{text!r} never showed; the screen: {sim.screen}"
        if unit is not None:
            unit.serve()
        sim.run_for(0.05)
        time.sleep(0.005)
