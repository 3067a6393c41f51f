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


def test_run_notifies_systemd_and_stops_cleanly_on_sigterm(tmp_path):
    config = tmp_path / "tableside.toml"
    config.write_text(FAKE.format(state=tmp_path / "state"))
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        env = {**os.environ, "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "200000"}
        child = subprocess.Popen(
            [sys.executable, "-m", "firmware_app.cli", "run", "--config", str(config)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            start = receive(sock, b"READY=1", time.monotonic() + 30)
            assert start[-1] == b"READY=1"
            pings = receive(sock, b"never", time.monotonic() + 0.5)
            assert pings.count(b"WATCHDOG=1") >= 3
            child.send_signal(signal.SIGTERM)
            end = receive(sock, b"STOPPING=1", time.monotonic() + 10)
            assert end[-1] == b"STOPPING=1"
            assert child.wait(timeout=10) == 0
        finally:
            child.kill()
            child.communicate()
    assert (tmp_path / "state" / "journal.sqlite").exists()


def test_run_refuses_a_bad_configuration_listing_every_problem(tmp_path):
    config = tmp_path / "tableside.toml"
    config.write_text('[display]\ndriver = "ssd1307"\n[app]\nlanguage = "de"\n')
    done = subprocess.run(
        [sys.executable, "-m", "firmware_app.cli", "run", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 2, "one line per problem"
    assert lines[0].startswith(f"tableside: {config}:2: display.driver: ")
    assert lines[1].startswith(f"tableside: {config}:4: app.language: ")


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


def test_the_first_frame_waits_for_no_module_it_does_not_need(tmp_path):
    config = tmp_path / "tableside.toml"
    config.write_text(FAKE.format(state=tmp_path / "state"))
    probe = (
        "import sys\n"
        "from firmware_app.cli import main\n"
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
