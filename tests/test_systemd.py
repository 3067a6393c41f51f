"""The systemd side of the daemon: the notifier, the unit file and the install script.

The notifier is tested against real Unix datagram sockets, bound in a short
temporary folder or in the abstract namespace, and the bytes read back are
the ones systemd would read. The unit is checked by its settings and, where
``systemd-analyze`` exists, by systemd itself. The install script is run in
dry-run mode and, with the system commands replaced by logging stand-ins,
twice for real inside a temporary root.
"""

import logging
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_app.systemd_notify import Notifier

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
        tempfile.TemporaryDirectory(prefix="ts-") as folder,
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
    with tempfile.TemporaryDirectory(prefix="ts-") as folder:
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
    from firmware_app.systemd_notify import exit_on_sigterm

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


def unit_copy_with_existing_binary(folder: Path) -> Path:
    """The unit, with ExecStart pointing at a binary this machine has, for ``verify``."""
    true = shutil.which("true") or "/bin/true"
    text = UNIT.read_text(encoding="utf-8")
    copied, count = re.subn(
        r"^ExecStart=/opt/tableside/venv/bin/tableside",
        f"ExecStart={true}",
        text,
        flags=re.MULTILINE,
    )
    assert count == 1
    path = folder / "tableside.service"
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


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_unit_exposure_is_at_most_one() -> None:
    result = subprocess.run(
        [ANALYZE, "security", "--offline=true", str(UNIT)],
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    found = re.search(r"Overall exposure level for tableside\.service: (\d+\.\d+)", result.stdout)
    assert found, result.stdout[-500:]
    assert float(found.group(1)) <= 1.0


# --- the install script ------------------------------------------------------------------


def test_install_script_parses() -> None:
    subprocess.run([BASH, "-n", str(INSTALL)], check=True, timeout=30)
    assert INSTALL.stat().st_mode & stat.S_IXUSR


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_install_script_is_shellcheck_clean() -> None:
    result = subprocess.run(
        ["shellcheck", str(INSTALL)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the files of the checkout that the script uses."""
    top = tmp_path / "checkout"
    (top / "systemd").mkdir(parents=True)
    (top / "docs").mkdir()
    shutil.copy2(INSTALL, top / "systemd" / "install.sh")
    shutil.copy2(UNIT, top / "systemd" / "tableside.service")
    shutil.copy2(REPO / "pyproject.toml", top / "pyproject.toml")
    shutil.copy2(EXAMPLE, top / "docs" / "tableside.example.toml")
    return top


def make_executable(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


@pytest.fixture
def pi_root(tmp_path: Path) -> Path:
    """A folder shaped like the parts of Raspberry Pi OS the script looks at."""
    root = tmp_path / "root"
    firmware = root / "boot" / "firmware"
    firmware.mkdir(parents=True)
    (firmware / "config.txt").write_text("# For more options\n[cm4]\notg_mode=1\n")
    (firmware / "cmdline.txt").write_text("console=serial0,115200 console=tty1 root=/dev/x\n")
    make_executable(root / "usr" / "bin" / "raspi-config", 'echo "raspi-config $*" >>"$LOG"\n')
    return root


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {
        str(p.relative_to(folder)): (p.stat().st_mode, p.read_bytes() if p.is_file() else b"")
        for p in sorted(folder.rglob("*"))
    }


def install(
    checkout: Path, root: Path, *args: str, path: str | None = None
) -> subprocess.CompletedProcess:
    env = {
        "PATH": path or os.environ["PATH"],
        "TABLESIDE_ROOT": str(root),
        "LOG": str(root.parent / "commands.log"),
        "LC_ALL": "C",
    }
    return subprocess.run(
        [BASH, str(checkout / "systemd" / "install.sh"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_dry_run_prints_every_step_and_changes_nothing(checkout: Path, pi_root: Path) -> None:
    before_root, before_checkout = snapshot(pi_root), snapshot(checkout)
    result = install(checkout, pi_root, "--dry-run")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    venv = pi_root / "opt" / "tableside" / "venv"
    unit_config = unit_settings(UNIT.read_text())["Service"]["ExecStart"][0].split()[-1]
    for planned in (
        "==> system packages: python3-venv python3-pip python3-lgpio python3-pil i2c-tools",
        "would run: usermod --append --groups gpio,i2c,spi,dialout tableside",
        f"would run: python3 -m venv --system-site-packages {venv}",
        f"would run: {venv}/bin/pip install --upgrade {checkout}[pi]",
        f"would run: {pi_root}/usr/bin/raspi-config nonint do_i2c 0",
        f"would run: {pi_root}/usr/bin/raspi-config nonint do_serial_cons 1",
        f"would run: {pi_root}/usr/bin/raspi-config nonint do_serial_hw 0",
        f"would append: [all] {I2C_LINE}",
        f"would run: install -D -m 0644 {checkout}/docs/tableside.example.toml "
        f"{pi_root}{unit_config}",
        f"would run: install -D -m 0644 {checkout}/systemd/tableside.service "
        f"{pi_root}/etc/systemd/system/tableside.service",
        "would run: systemctl enable tableside.service",
        "==> dry run: nothing was changed",
    ):
        assert planned in out
    assert "running:" not in out
    assert snapshot(pi_root) == before_root
    assert snapshot(checkout) == before_checkout
    assert not (pi_root.parent / "commands.log").exists()


def test_dry_run_on_an_installed_box_keeps_what_is_there(checkout: Path, pi_root: Path) -> None:
    config_txt = pi_root / "boot" / "firmware" / "config.txt"
    config_txt.write_text(f"[all]\n{I2C_LINE}\n")
    (pi_root / "etc" / "tableside").mkdir(parents=True)
    (pi_root / "etc" / "tableside" / "tableside.toml").write_text("# mine\n")
    (pi_root / "etc" / "systemd" / "system").mkdir(parents=True)
    shutil.copy2(UNIT, pi_root / "etc" / "systemd" / "system" / "tableside.service")
    make_executable(pi_root / "opt" / "tableside" / "venv" / "bin" / "python", "exit 0\n")
    result = install(checkout, pi_root, "--dry-run")
    assert result.returncode == 0, result.stderr
    for kept in ("a baud rate is already set; kept", "exists; kept", "unchanged", "    exists"):
        assert kept in result.stdout
    assert "python3 -m venv" not in result.stdout
    assert "install -D" not in result.stdout


def test_refuses_a_system_that_is_not_raspberry_pi_os(checkout: Path, tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    result = install(checkout, root)
    assert result.returncode == 1
    if os.geteuid() == 0:
        why = f"no {root}/usr/bin/raspi-config: not Raspberry Pi OS? (add --force to go on)"
    else:
        why = f"run it as root: sudo {checkout}/systemd/install.sh (or add --force)"
    assert result.stderr == f"install.sh: {why}\n"
    assert list(root.iterdir()) == []


def test_unknown_option_is_refused(checkout: Path, pi_root: Path) -> None:
    result = install(checkout, pi_root, "--yes")
    assert result.returncode == 2
    assert result.stderr.startswith("install.sh: unknown option --yes\n")


STAND_INS = {
    "apt-get": 'echo "apt-get $*" >>"$LOG"; [ "$1" = install ] && touch "$LOG.apt"; exit 0\n',
    "dpkg-query": '[ -e "$LOG.apt" ] && echo "install ok installed"\n',
    "getent": '[ "$1" = group ] || [ -e "$LOG.user" ]\n',
    "groupadd": 'echo "groupadd $*" >>"$LOG"\n',
    "useradd": 'echo "useradd $*" >>"$LOG"; touch "$LOG.user"\n',
    "usermod": 'echo "usermod $*" >>"$LOG"\n',
    "systemctl": 'echo "systemctl $*" >>"$LOG"\n',
    # "python3 -m venv ... DIR": a venv whose pip only logs.
    "python3": textwrap.dedent(
        r"""
        echo "python3 $*" >>"$LOG"
        for v; do venv="$v"; done
        mkdir -p "$venv/bin"
        printf '#!/bin/sh\nexit 0\n' >"$venv/bin/python"
        printf '#!/bin/sh\necho "pip $*" >>"$LOG"\n' >"$venv/bin/pip"
        chmod +x "$venv/bin/python" "$venv/bin/pip"
        """
    ),
}


def test_running_twice_installs_once_and_keeps_the_owners_edits(
    checkout: Path, pi_root: Path, tmp_path: Path
) -> None:
    bin_dir = tmp_path / "stand-ins"
    for name, body in STAND_INS.items():
        make_executable(bin_dir / name, body)
    path = f"{bin_dir}:{os.environ['PATH']}"
    log = tmp_path / "commands.log"
    firmware = pi_root / "boot" / "firmware"
    original = (firmware / "config.txt").read_text()
    config = pi_root / "etc" / "tableside" / "tableside.toml"
    unit = pi_root / "etc" / "systemd" / "system" / "tableside.service"

    first = install(checkout, pi_root, "--force", path=path)
    assert first.returncode == 0, first.stderr
    assert "boot settings changed: reboot now" in first.stdout
    assert (firmware / "config.txt").read_text() == original + f"\n[all]\n{I2C_LINE}\n"
    assert (firmware / "config.txt.before-tableside").read_text() == original
    assert config.read_bytes() == EXAMPLE.read_bytes()
    assert unit.read_bytes() == UNIT.read_bytes()
    venv = pi_root / "opt" / "tableside" / "venv"
    assert log.read_text().splitlines() == [
        "apt-get update",
        "apt-get install -y --no-install-recommends "
        "python3-venv python3-pip python3-lgpio python3-pil i2c-tools",
        "useradd --system --user-group --no-create-home --home-dir /nonexistent "
        "--shell /usr/sbin/nologin --comment Tableside tableside",
        "usermod --append --groups gpio,i2c,spi,dialout tableside",
        f"python3 -m venv --system-site-packages {venv}",
        f"pip install --upgrade {checkout}[pi]",
        "raspi-config nonint do_i2c 0",
        "raspi-config nonint do_serial_cons 1",
        "raspi-config nonint do_serial_hw 0",
        "systemctl daemon-reload",
        "systemctl enable tableside.service",
    ]

    config.write_text("# the owner's own settings\n")
    log.unlink()
    second = install(checkout, pi_root, "--force", path=path)
    assert second.returncode == 0, second.stderr
    assert "no reboot needed" in second.stdout
    assert (firmware / "config.txt").read_text().count(I2C_LINE) == 1
    assert (firmware / "config.txt.before-tableside").read_text() == original
    assert config.read_text() == "# the owner's own settings\n"
    assert log.read_text().splitlines() == [
        "usermod --append --groups gpio,i2c,spi,dialout tableside",
        f"pip install --upgrade {checkout}[pi]",
        "raspi-config nonint do_i2c 0",
        "raspi-config nonint do_serial_cons 1",
        "raspi-config nonint do_serial_hw 0",
        "systemctl daemon-reload",
        "systemctl enable tableside.service",
        "systemctl restart tableside.service",
    ]
