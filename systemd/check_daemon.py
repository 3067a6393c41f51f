"""Start the installed daemon the way systemd does, wait for READY=1, stop it with SIGTERM.

Used by ``check-arm64.sh`` inside the emulated root, where no systemd runs:
this script binds the notify socket systemd would pass in ``NOTIFY_SOCKET``,
runs the command given on its command line (the unit's ``ExecStart``, as the
service user), and passes when the daemon reports READY=1, then STOPPING=1
after SIGTERM, and exits 0. It prints how long each part took.

    check_daemon.py TIMEOUT COMMAND...
"""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time


def _wait_for(sock: socket.socket, wanted: bytes, deadline: float, seen: list[bytes]) -> bool:
    while time.monotonic() < deadline:
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            message = sock.recv(4096)
        except TimeoutError:
            return False
        seen.append(message)
        if message == wanted:
            return True
    return False


def main(argv: list[str]) -> int:
    timeout, command = float(argv[1]), argv[2:]
    with (
        tempfile.TemporaryDirectory(prefix="notify-") as folder,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock,
    ):
        path = os.path.join(folder, "notify")
        sock.bind(path)
        os.chmod(folder, 0o755)  # the daemon runs as the service user
        os.chmod(path, 0o777)
        seen: list[bytes] = []
        started = time.monotonic()
        child = subprocess.Popen(command, env={**os.environ, "NOTIFY_SOCKET": path})
        ready = _wait_for(sock, b"READY=1", started + timeout, seen)
        up = time.monotonic() - started
        child.send_signal(signal.SIGTERM)
        asked = time.monotonic()
        try:
            code = child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            code = child.wait()
        stopping = _wait_for(sock, b"STOPPING=1", time.monotonic() + 1, seen)
        down = time.monotonic() - asked
    print(
        f"check_daemon: READY=1 {'after' if ready else 'not sent within'} {up:.1f} s; "
        f"exit code {code} {down:.1f} s after SIGTERM; "
        f"STOPPING=1 {'sent' if stopping else 'missing'}; "
        f"messages: {b' | '.join(seen).decode(errors='replace')}"
    )
    return 0 if ready and stopping and code == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
