"""The USB stick's system files: the udev rule, the root unit, its script, the run folder."""

import re
import subprocess
from pathlib import Path

import pytest
from test_systemd import ANALYZE, unit_copy_with_existing_binary

from firmware_app.transfer.stick_port import MOUNTED, RELEASE, RELEASED, RUN, StickPort

SYSTEMD = Path(__file__).resolve().parents[1] / "systemd"
SCRIPT = SYSTEMD / "tableside-stick"


def test_the_rule_starts_the_unit_for_a_usb_file_system_only():
    rules = [
        line
        for line in (SYSTEMD / "99-tableside-usb.rules").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert len(rules) == 1
    rule = rules[0]
    wanted = ('ACTION=="add"', 'SUBSYSTEM=="block"', 'ENV{ID_BUS}=="usb"',
              'ENV{ID_FS_USAGE}=="filesystem"', 'ENV{ID_FS_TYPE}=="vfat|exfat|ext4"',
              'TAG+="systemd"', 'ENV{SYSTEMD_WANTS}+="tableside-stick@%k.service"')  # fmt: skip
    assert [match for match in wanted if match not in rule] == []


def test_the_script_and_the_daemon_name_the_same_files():
    text = SCRIPT.read_text()
    assert f"RUN=${{TABLESIDE_STICK_RUN:-{RUN}}}" in text
    assert StickPort().mount == RUN / "stick" and "MOUNT=$RUN/stick" in text
    for name in (MOUNTED, RELEASE, RELEASED):
        assert f"$RUN/{name}" in text or f"tell {name}" in text
    tmpfiles = (SYSTEMD / "tableside-tmpfiles.conf").read_text()
    assert re.search(rf"^d {RUN} 0750 tableside tableside -$", tmpfiles, re.MULTILINE)
    service = (SYSTEMD / "tableside.service").read_text()
    assert f"ReadWritePaths=-{RUN}" in service.splitlines()


def test_the_script_parses_and_refuses_a_missing_device():
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True, timeout=30)
    assert SCRIPT.stat().st_mode & 0o100
    result = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=30)
    assert result.returncode != 0 and "usage: tableside-stick DEVICE" in result.stderr


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify_accepts_the_stick_unit(tmp_path):
    unit = SYSTEMD / "tableside-stick@.service"
    command = "/usr/local/libexec/tableside-stick"
    path = unit_copy_with_existing_binary(tmp_path, unit, "tableside-stick@sdz1.service", command)
    result = subprocess.run(
        [ANALYZE, "verify", "--man=no", str(path)], capture_output=True, text=True, timeout=120
    )
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if "stick" in line]
    assert result.returncode == 0, result.stderr
    assert complaints == []
