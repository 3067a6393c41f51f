"""The USB stick's system files: the udev rule, the root unit, its script, the two run folders.

What the script does to hostile sticks is tests/test_stick_root.py (as root, on disk images).
"""

import subprocess
from pathlib import Path

import pytest
from test_systemd import ANALYZE, exposure, unit_copy_with_existing_binary, unit_settings

from firmware_app.transfer.stick_port import MOUNTED, RELEASE, RELEASED, RUN, StickPort

SYSTEMD = Path(__file__).resolve().parents[1] / "systemd"
SCRIPT = SYSTEMD / "tableside-stick"
STICK_UNIT = SYSTEMD / "tableside-stick@.service"

# Each of these gives a unit a mount namespace of its own, from which systemd lets no mount
# propagate to the system's: the stick would be mounted where the daemon never sees it.
NAMESPACED = [
    "PrivateMounts",
    "PrivateTmp",
    "PrivateDevices",
    "PrivateUsers",
    "PrivateIPC",
    "ProtectSystem",
    "ProtectHome",
    "ProtectKernelTunables",
    "ProtectKernelModules",
    "ProtectKernelLogs",
    "ProtectControlGroups",
    "ProtectProc",
    "ProcSubset",
    "ReadWritePaths",
    "ReadOnlyPaths",
    "InaccessiblePaths",
    "TemporaryFileSystem",
    "BindPaths",
    "BindReadOnlyPaths",
    "RootDirectory",
    "RootImage",
    "MountFlags",
]


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
    assert f"MARKER=$RUN/{MOUNTED}" in text and f"CALL=$RUN/{RELEASE}" in text
    assert f"$RUN/{RELEASED}" in text and f"tell {RELEASED} ok" in text
    tmpfiles = (SYSTEMD / "tableside-tmpfiles.conf").read_text()
    lines = [line for line in tmpfiles.splitlines() if line and not line.startswith("#")]
    assert lines == [f"d {RUN} 0750 root tableside -"]
    service = unit_settings((SYSTEMD / "tableside.service").read_text())["Service"]
    assert service["ReadWritePaths"] == [f"-{RUN}"]


def test_the_script_parses_and_refuses_a_missing_device():
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True, timeout=30)
    assert SCRIPT.stat().st_mode & 0o100
    result = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "usage: tableside-stick DEVICE" in result.stderr


@pytest.mark.parametrize(
    "device",
    ["sdb1;touch x", "$(touch x)", "`touch x`", "sdb 1", "../sdb1", "/dev/../sdb1", "sdb1\n",
     "-o", "SDB1", "sdb1*", "/run/x", "a" * 40, "sdb1'"],
)  # fmt: skip
def test_a_device_that_is_not_a_kernel_name_is_refused_before_anything(device, tmp_path):
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "TABLESIDE_STICK_RUN": str(tmp_path)}
    result = subprocess.run(
        ["bash", str(SCRIPT), device], capture_output=True, text=True, timeout=30, env=env,
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("usage: tableside-stick DEVICE")
    assert list(tmp_path.iterdir()) == []  # no x, no lock, no mount point


def test_the_stick_unit_has_no_mount_namespace_and_one_capability():
    service = unit_settings(STICK_UNIT.read_text())["Service"]
    assert [key for key in NAMESPACED if key in service] == ["PrivateMounts"]
    assert service["PrivateMounts"] == ["no"]  # said outright: PrivateNetwork implies it lately
    assert service["CapabilityBoundingSet"] == ["CAP_SYS_ADMIN"]
    assert service["Group"] == ["tableside"] and "User" not in service
    assert service["DevicePolicy"] == ["closed"] and service["DeviceAllow"] == ["block-sd rw"]
    assert service["SystemCallFilter"] == ["@system-service @mount", "~@privileged @resources"]


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify_accepts_the_stick_unit(tmp_path):
    command = "/usr/local/libexec/tableside-stick"
    path = unit_copy_with_existing_binary(tmp_path, STICK_UNIT, "tableside-stick@sdz1.service",
                                          command)  # fmt: skip
    result = subprocess.run(
        [ANALYZE, "verify", "--man=no", str(path)], capture_output=True, text=True, timeout=120
    )
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if "stick" in line]
    assert result.returncode == 0, result.stderr
    assert complaints == []


@pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed")
def test_the_stick_unit_exposure_is_at_most_three():
    assert exposure(STICK_UNIT) <= 3.0
