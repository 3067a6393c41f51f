"""The systemd side of the daemon: the notifier and the unit file.

The notifier is tested against real Unix datagram sockets, bound in a short
temporary folder or in the abstract namespace, and the bytes read back are
the ones systemd would read. The unit is checked by its settings and, where
``systemd-analyze`` exists, by systemd itself. The install script that
installs the unit is tested in ``test_install.py``.
"""

import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_app.runners.systemd_notify import Notifier

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "tableside.service"
INSTALL = REPO / "systemd" / "install.sh"
EXAMPLE = REPO / "docs" / "tableside.example.toml"
BASH = shutil.which("bash") or "/bin/bash"
ANALYZE = shutil.which("systemd-analyze")
I2C_LINE = "dtparam=i2c_arm=on,i2c_baudrate=400000"


# --- the notifier ------------------------------------------------------------------------


class Listener:
    """A bound datagram socket standing in for systemd's notify socket."""

    def __init__(self, sock: socket.socket, name: str) -> None:
        self.sock = sock
        self.name = name  # the NOTIFY_SOCKET value that reaches it

    def received(self) -> list[bytes]:
        """Every datagram queued so far (Unix datagrams are queued before sendto returns)."""
        out = []
        while True:
            try:
                out.append(self.sock.recv(4096, socket.MSG_DONTWAIT))
            except BlockingIOError:
                return out


@pytest.fixture
def path_listener() -> Iterator[Listener]:
    # A short folder: a socket path must fit in 108 bytes.
    with (
        tempfile.TemporaryDirectory(prefix="ts-", dir="/tmp") as folder,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock,
    ):
        path = os.path.join(folder, "notify")
        sock.bind(path)
        yield Listener(sock, path)


@pytest.fixture
def abstract_listener() -> Iterator[Listener]:
    name = f"tableside-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(b"\0" + name.encode())
        yield Listener(sock, "@" + name)


@pytest.fixture(params=["path", "abstract"])
def listener(request: pytest.FixtureRequest) -> Listener:
    return request.getfixturevalue(f"{request.param}_listener")


class Clock:
    """An injectable monotonic clock that the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_each_message_has_the_exact_bytes(listener: Listener) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": listener.name, "WATCHDOG_USEC": "10000000"})
    assert notifier.enabled
    notifier.ready()
    assert listener.received() == [b"READY=1"]
    notifier.watchdog()
    assert listener.received() == [b"WATCHDOG=1"]
    notifier.status("Runda 2: ruch Łucji")
    assert listener.received() == ["STATUS=Runda 2: ruch Łucji".encode()]
    notifier.stopping()
    assert listener.received() == [b"STOPPING=1"]


def test_status_is_kept_on_one_line(path_listener: Listener) -> None:
    Notifier({"NOTIFY_SOCKET": path_listener.name}).status("Round 3\nscore: 41\r\n")
    assert path_listener.received() == [b"STATUS=Round 3 score: 41"]


def test_without_notify_socket_nothing_is_sent_and_nothing_logged(
    path_listener: Listener, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("WATCHDOG_USEC", "1000000")
    caplog.set_level(logging.DEBUG, logger="tableside.systemd")
    for notifier in (Notifier(), Notifier({"WATCHDOG_USEC": "1000000"})):
        assert not notifier.enabled
        assert notifier.watchdog_interval is None
        notifier.ready()
        notifier.watchdog()
        notifier.status("idle")
        notifier.stopping()
    assert path_listener.received() == []
    assert caplog.records == []


def test_os_environ_is_read_by_default(
    path_listener: Listener, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", path_listener.name)
    monkeypatch.setenv("WATCHDOG_USEC", "8000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    notifier = Notifier()
    assert notifier.watchdog_interval == 4.0
    notifier.ready()
    assert path_listener.received() == [b"READY=1"]


def test_watchdog_pings_at_most_once_per_half_period(path_listener: Listener) -> None:
    clock = Clock()
    notifier = Notifier({"NOTIFY_SOCKET": path_listener.name, "WATCHDOG_USEC": "10000000"}, clock)
    assert notifier.watchdog_interval == 5.0
    sent = []
    for now in (100.0, 100.01, 104.99, 105.0, 105.5, 109.99, 110.0, 130.0, 130.2):
        clock.now = now
        notifier.watchdog()
        sent.append(len(path_listener.received()))
    assert sent == [1, 0, 0, 1, 0, 0, 1, 1, 0]


def test_watchdog_for_another_pid_stays_silent(path_listener: Listener) -> None:
    other_pid = str(os.getpid() + 1)
    notifier = Notifier(
        {"NOTIFY_SOCKET": path_listener.name, "WATCHDOG_USEC": "2000000", "WATCHDOG_PID": other_pid}
    )
    assert notifier.watchdog_interval is None
    notifier.watchdog()
    notifier.ready()
    assert path_listener.received() == [b"READY=1"]


def test_watchdog_for_our_pid_pings(path_listener: Listener) -> None:
    notifier = Notifier(
        {
            "NOTIFY_SOCKET": path_listener.name,
            "WATCHDOG_USEC": "2000000",
            "WATCHDOG_PID": str(os.getpid()),
        }
    )
    notifier.watchdog()
    assert path_listener.received() == [b"WATCHDOG=1"]


@pytest.mark.parametrize("usec", [None, "0", "soon"])
def test_no_watchdog_without_a_usable_period(path_listener: Listener, usec: str | None) -> None:
    env = {"NOTIFY_SOCKET": path_listener.name}
    if usec is not None:
        env["WATCHDOG_USEC"] = usec
    notifier = Notifier(env)
    assert notifier.watchdog_interval is None
    notifier.watchdog()
    assert path_listener.received() == []


def test_unusable_socket_name_disables_with_one_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="tableside.systemd")
    notifier = Notifier({"NOTIFY_SOCKET": "vsock:2:1234"})
    assert not notifier.enabled
    notifier.ready()
    assert [r.getMessage() for r in caplog.records] == [
        "NOTIFY_SOCKET='vsock:2:1234' is not a Unix socket path; not notifying"
    ]


def test_vanished_socket_never_raises_and_warns_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="tableside.systemd")
    with tempfile.TemporaryDirectory(prefix="ts-", dir="/tmp") as folder:
        path = os.path.join(folder, "notify")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(path)
            notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000"})
        os.unlink(path)
        notifier.ready()
        notifier.watchdog()
        notifier.status("still here")
        notifier.stopping()
    records = [r for r in caplog.records if r.name == "tableside.systemd"]
    assert len(records) == 1
    assert records[0].levelno == logging.WARNING
    assert records[0].getMessage().startswith(f"cannot notify systemd at {path!r}: ")


def test_abstract_socket_nobody_listens_on_does_not_raise(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="tableside.systemd")
    notifier = Notifier({"NOTIFY_SOCKET": f"@tableside-nobody-{uuid.uuid4().hex}"})
    notifier.ready()
    notifier.stopping()
    assert len(caplog.records) == 1


def test_a_full_queue_does_not_block_the_main_loop(
    path_listener: Listener, caplog: pytest.LogCaptureFixture
) -> None:
    """Nobody reads the socket: sends fail fast instead of waiting for room."""
    caplog.set_level(logging.WARNING, logger="tableside.systemd")
    notifier = Notifier({"NOTIFY_SOCKET": path_listener.name})
    done = threading.Event()

    def flood() -> None:
        for n in range(5000):
            notifier.status(f"tick {n}")
        done.set()

    threading.Thread(target=flood, daemon=True).start()
    assert done.wait(timeout=30), "a send blocked on the full queue"
    assert len(caplog.records) == 1
    assert path_listener.received()[0] == b"STATUS=tick 0"


SIGTERM_CHILD = textwrap.dedent(
    """
    import signal, sys
    from firmware_app.runners.systemd_notify import exit_on_sigterm

    exit_on_sigterm()
    try:
        print("looping", flush=True)
        while True:
            signal.pause()
    finally:
        print("finally ran", flush=True)
    """
)


def test_sigterm_unwinds_through_finally() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", SIGTERM_CHILD],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "looping\n"
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert out == "finally ran\n"
    assert err == ""
    assert child.returncode == 0


# --- the unit file -----------------------------------------------------------------------


def unit_settings(text: str) -> dict[str, dict[str, list[str]]]:
    """Sections of a unit file, each key with all its values in order (keys may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def unit() -> dict[str, dict[str, list[str]]]:
    return unit_settings(UNIT.read_text(encoding="utf-8"))


def test_unit_is_a_notify_service_with_a_watchdog(unit: dict) -> None:
    service = unit["Service"]
    assert service["Type"] == ["notify"]
    assert service["NotifyAccess"] == ["main"]
    assert int(service["WatchdogSec"][0]) >= 4
    assert service["Restart"] == ["on-failure"]
    assert int(service["RestartSec"][0]) > 0
    assert int(service["TimeoutStartSec"][0]) >= 60
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def test_unit_runs_the_installed_command_as_its_own_user(unit: dict) -> None:
    service = unit["Service"]
    assert service["ExecStart"] == [
        "/opt/tableside/venv/bin/tableside run --config /etc/tableside/tableside.toml"
    ]
    assert service["User"] == ["tableside"]
    assert service["Group"] == ["tableside"]
    assert service["SupplementaryGroups"][0].split() == ["gpio", "i2c", "spi", "dialout"]


def test_unit_state_lives_in_its_writable_state_directory(unit: dict) -> None:
    service = unit["Service"]
    assert service["StateDirectory"] == ["tableside"]
    assert service["WorkingDirectory"] == ["%S/tableside"]
    assert "TABLESIDE_STATE_DIR=%S/tableside" in service["Environment"]
    assert service["ConfigurationDirectory"] == ["tableside"]
    assert service["ProtectSystem"] == ["strict"]
    assert service["UMask"] == ["0077"]


def test_unit_keeps_the_devices_it_needs(unit: dict) -> None:
    service = unit["Service"]
    # PrivateDevices hides the buses; PrivateUsers maps the device groups away.
    assert service.get("PrivateDevices", ["no"]) == ["no"]
    assert service.get("PrivateUsers", ["no"]) == ["no"]
    # subset=pid hides /proc/device-tree and /proc/cpuinfo, where gpiozero finds the board.
    assert "ProcSubset" not in service
    assert service["DevicePolicy"] == ["closed"]
    allowed = set(service["DeviceAllow"])
    for device in ("gpiochip", "*gpiomem*", "i2c", "spi", "ttyS", "ttyAMA", "ttyUSB", "ttyACM"):
        assert f"char-{device} rw" in allowed


def test_unit_values_carry_no_inline_comments(unit: dict) -> None:
    for section in unit.values():
        for key, values in section.items():
            for value in values:
                assert "#" not in value, f"{key}={value}"


def unit_copy_with_existing_binary(
    folder: Path,
    unit: Path = UNIT,
    name: str = "tableside.service",
    command: str = "/opt/tableside/venv/bin/tableside",
) -> Path:
    """The unit, with ExecStart pointing at a binary this machine has, for ``verify``."""
    true = shutil.which("true") or "/bin/true"
    text = unit.read_text(encoding="utf-8")
    copied, count = re.subn(
        rf"^ExecStart={re.escape(command)}",
        f"ExecStart={true}",
        text,
        flags=re.MULTILINE,
    )
    assert count == 1
    path = folder / name
    path.write_text(copied, encoding="utf-8")
    return path


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    path = unit_copy_with_existing_binary(tmp_path)
    result = subprocess.run(
        [ANALYZE, "verify", "--man=no", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    complaints = [
        line for line in (result.stdout + result.stderr).splitlines() if "tableside" in line
    ]
    assert result.returncode == 0, result.stderr
    assert complaints == []


def exposure(unit: Path) -> float:
    """The overall exposure ``systemd-analyze security --offline=true`` gives ``unit``."""
    assert ANALYZE is not None
    result = subprocess.run(
        [ANALYZE, "security", "--offline=true", str(unit)],
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout[-500:]
    return float(found.group(1))


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_unit_exposure_is_at_most_one() -> None:
    assert exposure(UNIT) <= 1.0
