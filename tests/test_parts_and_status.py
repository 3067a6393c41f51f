"""What the daemon says about itself: the fix for a part that fails, the status line."""

import errno

import pytest

from firmware_app.runners.autopilot import Autopilot, new_game_script
from firmware_app.runners.headless import Headless
from firmware_app.runners.parts import build_part, fix_for
from firmware_app.status import play_status
from hw.errors import ConfigError, DeviceUnavailable


def _wrapped(part_error: BaseException, message: str) -> DeviceUnavailable:
    try:
        raise DeviceUnavailable(message) from part_error
    except DeviceUnavailable as error:
        return error


@pytest.mark.parametrize(
    ("part", "error", "fix"),
    [
        (
            "buttons",
            _wrapped(ModuleNotFoundError("No module named 'lgpio'", name="lgpio"), "pins"),
            "install python3-lgpio: sudo systemd/install.sh",
        ),
        (
            "display",
            ImportError("No module named 'RPi'", name="RPi"),
            "install rpi-lgpio: sudo systemd/install.sh --with spi",
        ),
        (
            "reader",
            PermissionError(errno.EACCES, "Permission denied", "/dev/serial0"),
            "add the user to the dialout group: sudo usermod -aG dialout tableside",
        ),
        (
            "buttons",
            _wrapped(PermissionError(errno.EACCES, "Permission denied"), "buttons.pins.up"),
            "add the user to the gpio group: sudo usermod -aG gpio tableside",
        ),
        (
            "reader",
            DeviceUnavailable(
                "cannot open /dev/spidev0.1 (is SPI enabled?): [Errno 2] No such file or directory"
            ),
            "SPI is off: sudo raspi-config nonint do_spi 0, then reboot",
        ),
        (
            "buzzer",
            DeviceUnavailable("buzzer.pin_factory: cannot start pin factory 'lgpio': ..."),
            "install python3-lgpio: sudo systemd/install.sh",
        ),
        ("reader", DeviceUnavailable("no chip answers"), "check the wiring (wiring.md)"),
    ],
)
def test_each_failure_names_its_fix(part, error, fix):
    assert fix_for(part, error).startswith(fix)


def test_a_failing_part_is_replaced_and_recorded_but_a_configuration_error_is_not():
    problems = []

    def broken():
        raise DeviceUnavailable("no chip answers")

    assert build_part("reader", broken, lambda: "stand-in", problems) == "stand-in"
    assert [problem.part for problem in problems] == ["reader"]
    assert str(problems[0]).startswith("reader does not work (no chip answers); fix: ")

    def misconfigured():
        raise ConfigError("reader.driver: unknown")

    with pytest.raises(ConfigError):
        build_part("reader", misconfigured, lambda: "stand-in", problems)
    assert [problem.part for problem in problems] == ["reader"]  # the first only


def test_the_status_line_names_the_game_its_players_and_round(tmp_path):
    sim = Headless(tmp_path, seed=3)
    try:
        assert play_status(sim.app) == "waiting at the start screen"
        for line in new_game_script(3):
            sim.command(line)
        assert play_status(sim.app) == "Penguins family, 3 players, round 1"
        pilot = Autopilot(sim, 3)
        while sim.app.session.state.turns < 3:  # every player has had a turn
            pilot.step()
        assert play_status(sim.app) == "Penguins family, 3 players, round 2"
    finally:
        sim.close()


class Listener:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def status(self, text: str) -> None:
        self.sent.append(text)

    def watchdog(self) -> None:
        pass


def test_the_loop_sends_the_status_when_it_changes(tmp_path):
    sim = Headless(tmp_path, seed=3)
    try:
        listener = Listener()
        sim.loop.notifier, sim.loop.missing = listener, "missing: reader"
        sim.press("down")
        sim.press("up")
        assert listener.sent == ["waiting at the start screen; missing: reader"]
        for line in new_game_script(2):
            sim.command(line)
        assert listener.sent[-1] == "Penguins family, 2 players, round 1; missing: reader"
    finally:
        sim.close()
