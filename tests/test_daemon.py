"""``tableside run`` as systemd runs it: READY after the first frame, watchdog pings from
the loop, STOPPING and a clean exit on SIGTERM; a bad configuration refused at start.

The daemon runs in a child process on the fake drivers, with ``NOTIFY_SOCKET`` pointing at
a real Unix datagram socket bound by the test.
"""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

FAKE = """
[buttons]
driver = "fake"
[display]
driver = "fake"
[reader]
driver = "fake"
[buzzer]
driver = "fake"
[app]
language = "en"
state_dir = "{state}"
"""


def receive(sock: socket.socket, wanted: bytes, deadline: float) -> list[bytes]:
    """Datagrams until one equals ``wanted`` (or the deadline passes)."""
    seen = []
    while time.monotonic() < deadline:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            message = sock.recv(4096)
        except TimeoutError:
            break
        seen.append(message)
        if message == wanted:
            break
    return seen


@contextmanager
def daemon(tmp_path, text: str, **environ: str) -> Iterator[tuple[subprocess.Popen, socket.socket]]:
    """``tableside run`` on the configuration ``text``, notifying a socket bound here.

    The child's stderr is in ``child.stderr_text`` once the block has ended.
    """
    config = tmp_path / "tableside.toml"
    config.write_text(text.format(state=tmp_path / "state"))
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        child = subprocess.Popen(
            [sys.executable, "-m", "firmware_app.cli.main", "run", "--config", str(config)],
            env={**os.environ, "NOTIFY_SOCKET": address, **environ},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            yield child, sock
        finally:
            child.kill()
            child.stderr_text = child.communicate()[1]


def stop(child: subprocess.Popen, sock: socket.socket) -> None:
    """SIGTERM: STOPPING=1 comes, and the daemon exits 0 (or the test shows what it wrote)."""
    child.send_signal(signal.SIGTERM)
    end = receive(sock, b"STOPPING=1", time.monotonic() + 10)
    assert end[-1] == b"STOPPING=1"
    assert child.wait(timeout=10) == 0, child.stderr.read()


def test_run_notifies_systemd_and_stops_cleanly_on_sigterm(tmp_path):
    with daemon(tmp_path, FAKE, WATCHDOG_USEC="200000") as (child, sock):
        start = receive(sock, b"READY=1", time.monotonic() + 30)
        assert start[-1] == b"READY=1"
        pings = receive(sock, b"never", time.monotonic() + 0.5)
        assert pings.count(b"WATCHDOG=1") >= 3
        stop(child, sock)
    assert (tmp_path / "state" / "journal.sqlite").exists()


def test_run_refuses_a_bad_configuration_listing_every_problem(tmp_path):
    config = tmp_path / "tableside.toml"
    config.write_text('[display]\ndriver = "ssd1307"\n[app]\nlanguage = "de"\n')
    done = subprocess.run(
        [sys.executable, "-m", "firmware_app.cli.main", "run", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 2, "one line per problem"
    assert lines[0].startswith(f"tableside: {config}:2: display.driver: ")
    assert lines[1].startswith(f"tableside: {config}:4: app.language: ")


def test_home_starts_fully_says_when_the_home_menu_was_shown_and_stops_cleanly(tmp_path):
    """``run --home``: the first frame's line, then the home menu's, exit 0, journal closed."""
    config = tmp_path / "tableside.toml"
    config.write_text(FAKE.format(state=tmp_path / "state"))
    environ = {key: value for key, value in os.environ.items() if key != "NOTIFY_SOCKET"}
    spawned = time.time()
    done = subprocess.run(
        [sys.executable, "-m", "firmware_app.cli.main", "run", "--config", str(config), "--home"],
        capture_output=True,
        text=True,
        timeout=60,
        env=environ,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    first, home = done.stdout.splitlines()
    assert first.startswith("first frame shown at ")
    assert home.startswith("home menu shown at ")
    first_at, home_at = float(first.split()[-1]), float(home.split()[-1])
    assert spawned < first_at <= home_at < time.time()
    state = tmp_path / "state"
    assert (state / "journal.sqlite").exists()
    assert not (state / "journal.sqlite.running").exists(), "the journal was not closed"
    assert not (state / "journal.sqlite-wal").exists(), "the log was not checkpointed"


# What the first frame must not wait for: on a Zero 2 W each of these costs a noticeable
# part of a second (benchmarks/startup.py measures the whole path).
NOT_BEFORE_THE_FIRST_FRAME = (
    "argparse",
    "dataclasses",
    "difflib",
    "inspect",
    "json",
    "PIL.ImageDraw",
    "PIL.ImageFont",
    "sqlite3",
    "gpiozero",
    "luma",
    "serial",
    "rules",
    "firmware_app.app",
)


@pytest.mark.unmutated  # every mutated module imports mutmut's own, which loads these
def test_the_first_frame_waits_for_no_module_it_does_not_need(tmp_path):
    config = tmp_path / "tableside.toml"
    config.write_text(FAKE.format(state=tmp_path / "state"))
    probe = (
        "import sys\n"
        "from firmware_app.cli.main import main\n"
        f"main(['run', '--config', {str(config)!r}, '--first-frame'])\n"
        "print(*sorted(sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    shown, loaded = done.stdout.splitlines()
    assert shown.startswith("first frame shown at ")
    assert sorted(set(loaded.split()) & set(NOT_BEFORE_THE_FIRST_FRAME)) == []


BROKEN = """
[buttons]
driver = "gpio"
pin_factory = "lgpio"
[display]
driver = "dummy"
[reader]
driver = "rc522-spi"
[buzzer]
driver = "gpio"
pin_factory = "lgpio"
[app]
language = "en"
state_dir = "{state}"
"""


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="a real GPIO chip is present")
def test_parts_that_fail_at_start_are_named_with_their_fix_and_the_rest_runs(tmp_path):
    """No pin library and no SPI reader: the daemon runs, says what is missing, stops cleanly."""
    with daemon(tmp_path, BROKEN) as (child, sock):
        start = receive(sock, b"READY=1", time.monotonic() + 30)
        assert start[-1] == b"READY=1", start
        status = [m for m in start if m.startswith(b"STATUS=")]
        assert status == [b"STATUS=waiting at the start screen; missing: buttons, reader, buzzer"]
        stop(child, sock)
    stderr = child.stderr_text
    failed = [line for line in stderr.splitlines() if line.startswith("ERROR tableside.parts")]
    assert len(failed) == 3, stderr
    assert failed[0].startswith("ERROR tableside.parts: buttons does not work (")
    assert "fix: install python3-lgpio" in failed[0]
    assert failed[1].startswith("ERROR tableside.parts: reader does not work (")
    assert "fix: install spidev: sudo systemd/install.sh --with spi" in failed[1]
    assert failed[2].startswith("ERROR tableside.parts: buzzer does not work (")
    assert "Traceback" not in stderr
    assert not (tmp_path / "state" / "journal.sqlite.running").exists(), "not a clean stop"


def test_a_failure_after_the_journal_opened_goes_through_the_same_clean_stop(tmp_path, monkeypatch):
    """A bug at start (here the app cannot be built): STOPPING, the "Stopped" frame, the
    journal checkpointed and closed, every part closed, and the error itself goes on up."""
    import firmware_app.app
    from firmware_app.runners import daemon
    from firmware_app.ui.canvas import message_frame
    from hw import buttons, buzzer, rfid
    from hw import display as displays

    shown = []

    class Watched(displays.FakeDisplay):
        def show(self, image):
            shown.append(image)
            return super().show(image)

    def broken(*args, **kwargs):
        raise RuntimeError("the app cannot be built")

    parts = []

    def kept(build):
        def building(settings):
            parts.append(build(settings))
            return parts[-1]

        return building

    for module, name in (
        (buttons, "build_buttons"),
        (rfid, "build_reader"),
        (buzzer, "build_buzzer"),
    ):
        monkeypatch.setattr(module, name, kept(getattr(module, name)))
    monkeypatch.setattr(firmware_app.app, "App", broken)
    panel = Watched()
    monkeypatch.setattr(daemon, "build_display", lambda settings: panel)
    monkeypatch.setattr(daemon, "exit_on_sigterm", lambda: None)  # the test's own SIGTERM
    config = tmp_path / "tableside.toml"
    config.write_text(FAKE.format(state=tmp_path / "state"))
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        monkeypatch.setenv("NOTIFY_SOCKET", address)
        with pytest.raises(RuntimeError, match="cannot be built"):
            daemon.run(str(config))
        assert receive(sock, b"STOPPING=1", time.monotonic() + 5)[-1] == b"STOPPING=1"
    stopped = message_frame("Stopped. / Zatrzymano.").image
    assert shown[-1].tobytes() == stopped.tobytes()
    state = tmp_path / "state"
    assert (state / "journal.sqlite").exists()
    assert not (state / "journal.sqlite.running").exists(), "the journal was not closed"
    assert not (state / "journal.sqlite-wal").exists(), "the log was not checkpointed"
    closed = [type(part).__name__ for part in parts if part.closed]
    assert closed == ["FakeButtons", "FakeReader", "FakeBuzzer"] and panel.closed
