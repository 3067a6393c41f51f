"""The install path: the script's plan for each configuration, and its runs.

``systemd/install.sh`` decides what to install from the configuration, so
its dry-run plan is asserted for every example of ``docs/configuration.md``,
on 64-bit and 32-bit Raspberry Pi OS and on plain Debian. Real runs happen
inside a temporary root with the system commands replaced by logging
stand-ins, on a running system and on an image being built (no udev, no
systemd). What the wheel holds and how it runs once installed is
``tests/test_wheel.py``. The end-to-end run on an emulated arm64 Debian is
``systemd/check-arm64.sh``, outside this suite.
"""

import os
import re
import shutil
import stat
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from install_helpers import PACKAGES, REPO, SHIPPED, shipped_files, toml_snippets

INSTALL = REPO / "systemd" / "install.sh"
UNIT = REPO / "systemd" / "tableside.service"
EXAMPLE = REPO / "docs" / "tableside.example.toml"
BASH = shutil.which("bash") or "/bin/bash"
I2C_LINE = "dtparam=i2c_arm=on,i2c_baudrate=400000"
BASE = "python3-venv i2c-tools"
SPI_BUILD = "gcc libc6-dev python3-dev"
# The USB stick's files (docs/install.md, "A USB stick") and where they are installed.
STICK_FILES = {
    "99-tableside-usb.rules": "etc/udev/rules.d/99-tableside-usb.rules",
    "tableside-stick@.service": "etc/systemd/system/tableside-stick@.service",
    "tableside-stick": "usr/local/libexec/tableside-stick",
    "tableside-tmpfiles.conf": "etc/tmpfiles.d/tableside.conf",
}


# --- the plan, for each configuration ----------------------------------------------------


def configuration_examples() -> dict[str, str]:
    return dict(toml_snippets(REPO / "docs" / "configuration.md"))


def make_executable(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the checkout's files that the script uses or ships."""
    top = tmp_path / "checkout"
    for name in SHIPPED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, top / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (top / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, top / name)
    for name in ("systemd/install.sh", "systemd/config_needs.py", "systemd/tableside.service",
                 *(f"systemd/{name}" for name in STICK_FILES)):  # fmt: skip
        (top / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, top / name)
    (top / "docs").mkdir()
    shutil.copy2(EXAMPLE, top / "docs" / "tableside.example.toml")
    return top


def booted(root: Path) -> Path:
    """Mark ``root`` as a running system: systemd is the service manager, udevd listens."""
    (root / "run" / "systemd" / "system").mkdir(parents=True, exist_ok=True)
    (root / "run" / "udev").mkdir(parents=True, exist_ok=True)
    (root / "run" / "udev" / "control").touch()  # a socket on a real system
    return root


@pytest.fixture
def pi_root(tmp_path: Path) -> Path:
    """A folder shaped like the parts of a running Raspberry Pi OS the script looks at."""
    root = booted(tmp_path / "root")
    firmware = root / "boot" / "firmware"
    firmware.mkdir(parents=True)
    (firmware / "config.txt").write_text("# For more options\n[cm4]\notg_mode=1\n")
    (firmware / "cmdline.txt").write_text("console=serial0,115200 console=tty1 root=/dev/x\n")
    make_executable(root / "usr" / "bin" / "raspi-config", 'echo "raspi-config $*" >>"$LOG"\n')
    return root


def install(
    checkout: Path, root: Path, *args: str, path: str | None = None, arch: str = "arm64"
) -> subprocess.CompletedProcess:
    scratch = root.parent / "scratch"  # the script's own temporary folder, this test's alone
    scratch.mkdir(exist_ok=True)
    env = {
        "PATH": path or os.environ["PATH"],
        "TMPDIR": str(scratch),
        "TABLESIDE_ROOT": str(root),
        "TABLESIDE_ARCH": arch,
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


def plan_of(result: subprocess.CompletedProcess, root: Path) -> dict[str, object]:
    """The parts of a dry run's output a plan is made of."""
    assert result.returncode == 0, result.stderr
    out = result.stdout.replace(str(root), "")
    packages = re.search(r"^==> system packages: (.*)$", out, re.MULTILINE)
    extras = re.search(r"^==> Tableside from \S+(?: with \[(.*)\])?$", out, re.MULTILINE)
    site = re.search(r"system site packages: (\w+)\)$", out, re.MULTILINE)
    assert packages and extras and site, out
    return {
        "packages": packages.group(1),
        "extras": extras.group(1) or "",
        "system site": site.group(1) == "true",
        "raspi-config": re.findall(r"would run: /usr/bin/raspi-config nonint (.*)$", out, re.M),
        "notes": re.findall(r"^    note: (.*)$", out, re.MULTILINE),
    }


PI_OS_STEPS = ["do_i2c 0", "do_serial_cons 1", "do_serial_hw 0"]
REFERENCE = {"packages": BASE, "extras": "pi", "raspi-config": PI_OS_STEPS}
SPI = {
    "packages": f"{BASE} {SPI_BUILD}",
    "extras": "pi,spi",
    "raspi-config": [*PI_OS_STEPS, "do_spi 0"],
}
EXPECTED = {
    "The reference build": REFERENCE,
    "An SH1106 panel at address 0x3D": REFERENCE,
    "Four buttons, no buzzer": REFERENCE,
    "An SPI panel": SPI,
    "A PN532 on the UART": REFERENCE,
    "A PN532 on a USB serial adapter": REFERENCE,
    "An RDM6300 on the UART": REFERENCE,
    "An RC522 and an SPI panel on one SPI bus": SPI,
}


def test_every_configuration_example_has_an_expected_plan() -> None:
    assert sorted(configuration_examples()) == sorted(EXPECTED)


@pytest.mark.parametrize("title", sorted(EXPECTED))
def test_plan_on_64_bit_raspberry_pi_os(
    title: str, checkout: Path, pi_root: Path, tmp_path: Path
) -> None:
    config = tmp_path / "planned.toml"
    config.write_text(configuration_examples()[title])
    plan = plan_of(install(checkout, pi_root, "--dry-run", "--config", str(config)), pi_root)
    assert plan == {**EXPECTED[title], "system site": False, "notes": []}


def test_without_a_configuration_the_plan_is_the_examples(checkout: Path, pi_root: Path) -> None:
    result = install(checkout, pi_root, "--dry-run")
    assert f"==> configuration {checkout}/docs/tableside.example.toml: nothing optional" in (
        result.stdout
    )
    assert plan_of(result, pi_root) == {**REFERENCE, "system site": False, "notes": []}


def test_the_installed_configuration_decides_and_with_spi_adds(
    checkout: Path, pi_root: Path
) -> None:
    installed = pi_root / "etc" / "tableside" / "tableside.toml"
    installed.parent.mkdir(parents=True)
    installed.write_text('[reader]\ndriver = "rc522-spi"\n')
    assert plan_of(install(checkout, pi_root, "--dry-run"), pi_root)["extras"] == "pi,spi"
    installed.write_text('[reader]\ndriver = "rdm6300"\n')
    assert plan_of(install(checkout, pi_root, "--dry-run"), pi_root)["extras"] == "pi"
    with_spi = plan_of(install(checkout, pi_root, "--dry-run", "--with", "spi"), pi_root)
    assert with_spi == {**SPI, "system site": False, "notes": []}


def test_plan_on_32_bit_raspberry_pi_os_uses_apts_pillow(checkout: Path, pi_root: Path) -> None:
    plan = plan_of(install(checkout, pi_root, "--dry-run", "--with", "spi", arch="armhf"), pi_root)
    assert plan == {
        **SPI,
        "packages": f"{BASE} python3-pil python3-cbor2 python3-lgpio {SPI_BUILD}",
        "system site": True,
        "notes": [],
    }


@pytest.mark.parametrize("arch", ["amd64", "arm64"])
def test_forced_on_plain_debian_skips_what_only_pi_os_has(
    arch: str, checkout: Path, tmp_path: Path
) -> None:
    root = booted(tmp_path / "root")
    result = install(checkout, root, "--dry-run", "--force", "--with", "spi", arch=arch)
    plan = plan_of(result, root)
    assert plan == {
        **SPI,
        "raspi-config": [],
        "system site": False,
        "notes": ["no /usr/bin/raspi-config: enable I2C, SPI and the UART by hand (wiring.md)"],
    }
    assert "no /boot/firmware/config.txt; skipped" in result.stdout.replace(str(root), "")


def test_forced_on_32_bit_debian_leaves_out_the_gpio_libraries(
    checkout: Path, tmp_path: Path
) -> None:
    root = booted(tmp_path / "root")
    plan = plan_of(install(checkout, root, "--dry-run", "--force", arch="armhf"), root)
    assert plan == {
        "packages": f"{BASE} python3-pil python3-cbor2",
        "extras": "",
        "system site": True,
        "raspi-config": [],
        "notes": [
            "python3-lgpio is Raspberry Pi OS's; skipped, and with it the GPIO and SPI libraries",
            "no /usr/bin/raspi-config: enable I2C and the UART by hand (wiring.md)",
        ],
    }


def test_a_configuration_that_is_not_toml_stops_the_plan(
    checkout: Path, pi_root: Path, tmp_path: Path
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("[display\n")
    result = install(checkout, pi_root, "--dry-run", "--config", str(config))
    assert result.returncode == 1
    reason, refusal = result.stderr.splitlines()
    assert reason.startswith(f"cannot read {config}: ")
    assert refusal == f"install.sh: fix {config} first (the daemon would refuse it too)"


@pytest.mark.parametrize(
    "args, error",
    [
        (["--yes"], "install.sh: unknown option --yes"),
        (["--with", "usb"], "install.sh: --with accepts spi, not usb"),
        (["--config"], "install.sh: --config needs a value"),
    ],
)
def test_unknown_options_are_refused(
    args: list[str], error: str, checkout: Path, pi_root: Path
) -> None:
    result = install(checkout, pi_root, *args)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == error


@pytest.mark.unmutated  # reads the code as text (docs/testing.md)
def test_the_shipped_files_are_what_pyproject_builds_from() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    setuptools = project["tool"]["setuptools"]
    find = setuptools["packages"]["find"]
    assert find.get("where", ["."]) == ["."] and find.get("namespaces") is False
    # Each pattern is one top-level package with everything under it.
    assert all(re.fullmatch(r"[a-z_]+\*", pattern) for pattern in find["include"])
    packages = {pattern.removesuffix("*") for pattern in find["include"]}
    assert packages == set(PACKAGES)
    assert set(SHIPPED) == {"pyproject.toml", project["project"]["readme"], *packages}
    listed = re.search(r"^SHIPPED=\((.*)\)$", INSTALL.read_text(), re.MULTILINE)
    assert listed and tuple(listed.group(1).split()) == SHIPPED

    # Without namespace packages only a folder with __init__.py is found: one holding
    # modules without it would leave them out of the wheel.
    files = [
        Path(name) for name in shipped_files() if name.startswith(tuple(f"{p}/" for p in packages))
    ]
    folders = {path.parent for path in files if path.suffix == ".py"}
    assert {"firmware_app/flows/shared", "hw/rfid", "rules/catalogue"} <= set(map(str, folders))
    assert [f for f in sorted(folders) if not (REPO / f / "__init__.py").is_file()] == []

    # Every other file is package data, declared by a pattern that matches something.
    assert setuptools.get("include-package-data") is False
    declared = set()
    for package, patterns in setuptools["package-data"].items():
        assert package.split(".")[0] in packages
        for pattern in patterns:
            matched = {
                p.relative_to(REPO) for p in (REPO / package.replace(".", "/")).glob(pattern)
            }
            assert matched, f"{package}: {pattern} matches no file"
            declared |= matched
    data = [path for path in files if path.suffix != ".py"]
    assert Path("firmware_app/runners/splash.bin") in data
    assert [path for path in data if path not in declared] == []


# --- the script itself -------------------------------------------------------------------


def test_install_script_parses() -> None:
    subprocess.run([BASH, "-n", str(INSTALL)], check=True, timeout=30)
    assert INSTALL.stat().st_mode & stat.S_IXUSR


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_install_script_is_shellcheck_clean() -> None:
    result = subprocess.run(
        ["shellcheck", str(INSTALL)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout


def snapshot(folder: Path) -> dict[str, tuple[int, int, bytes]]:
    return {
        str(p.relative_to(folder)): (
            p.stat().st_mode,
            p.stat().st_uid,
            p.read_bytes() if p.is_file() else b"",
        )
        for p in sorted(folder.rglob("*"))
    }


def test_dry_run_prints_every_step_and_changes_nothing(checkout: Path, pi_root: Path) -> None:
    before_root, before_checkout = snapshot(pi_root), snapshot(checkout)
    result = install(checkout, pi_root, "--dry-run")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    venv = pi_root / "opt" / "tableside" / "venv"
    unit_config = re.search(r"--config (\S+)$", UNIT.read_text(), re.MULTILINE).group(1)
    for planned in (
        f"==> system packages: {BASE}",
        "would run: usermod --append --groups gpio,i2c,spi,dialout tableside",
        f"would run: python3 -m venv {venv}",
        "would copy pyproject.toml README.md rules hw firmware_app to a temporary folder",
        f"would run: {venv}/bin/pip install --upgrade '<copy>[pi]'",
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


STAND_INS = {
    "apt-get": 'echo "apt-get $*" >>"$LOG"; [ "$1" = install ] && touch "$LOG.apt"; exit 0\n',
    "dpkg-query": '[ -e "$LOG.apt" ] && echo "install ok installed"\n',
    "getent": '[ "$1" = group ] || [ -e "$LOG.user" ]\n',
    "groupadd": 'echo "groupadd $*" >>"$LOG"\n',
    "useradd": 'echo "useradd $*" >>"$LOG"; touch "$LOG.user"\n',
    "usermod": 'echo "usermod $*" >>"$LOG"\n',
    "systemctl": 'echo "systemctl $*" >>"$LOG"\n',
    "systemd-tmpfiles": 'echo "systemd-tmpfiles $*" >>"$LOG"\n',
    "udevadm": 'echo "udevadm $*" >>"$LOG"\n',
    # "python3 -m venv [...] DIR": a venv whose pip logs and lists the copy it installs
    # from; any other python3 call is the real one (the script reads the configuration).
    "python3": textwrap.dedent(
        rf"""
        [ "$1 $2" = "-m venv" ] || exec {sys.executable} "$@"
        echo "python3 $*" >>"$LOG"
        site=false
        for v; do venv="$v"; [ "$v" = --system-site-packages ] && site=true; done
        mkdir -p "$venv/bin"
        echo "include-system-site-packages = $site" >"$venv/pyvenv.cfg"
        printf '#!/bin/sh\nexit 0\n' >"$venv/bin/python"
        cat >"$venv/bin/pip" <<'PIP'
        #!/bin/sh
        for v; do copy="$v"; done
        echo "pip $*" | sed "s|$(dirname "$copy")/tableside-build\.[^[]*|COPY|" >>"$LOG"
        (cd "${{copy%%[*}}" && find . -type f | sort) >"$LOG.copy"
        PIP
        chmod +x "$venv/bin/python" "$venv/bin/pip"
        """
    ),
}


def stand_in_path(folder: Path, **bodies: str) -> str:
    """A PATH whose system commands only log what they are asked to do (``bodies`` replace some)."""
    for name, body in (STAND_INS | bodies).items():
        make_executable(folder / name, body)
    return f"{folder}:{os.environ['PATH']}"


@pytest.fixture
def stand_ins(tmp_path: Path) -> str:
    return stand_in_path(tmp_path / "stand-ins")


def test_running_twice_installs_once_and_keeps_the_owners_edits(
    checkout: Path, pi_root: Path, tmp_path: Path, stand_ins: str
) -> None:
    log = tmp_path / "commands.log"
    firmware = pi_root / "boot" / "firmware"
    original = (firmware / "config.txt").read_text()
    config = pi_root / "etc" / "tableside" / "tableside.toml"
    unit = pi_root / "etc" / "systemd" / "system" / "tableside.service"
    before_checkout = snapshot(checkout)

    first = install(checkout, pi_root, "--force", path=stand_ins)
    assert first.returncode == 0, first.stderr
    assert "boot settings changed: reboot now" in first.stdout
    assert (firmware / "config.txt").read_text() == original + f"\n[all]\n{I2C_LINE}\n"
    assert (firmware / "config.txt.before-tableside").read_text() == original
    assert config.read_bytes() == EXAMPLE.read_bytes()
    assert unit.read_bytes() == UNIT.read_bytes()
    venv = pi_root / "opt" / "tableside" / "venv"
    assert log.read_text().splitlines() == [
        "apt-get update",
        f"apt-get install -y --no-install-recommends {BASE}",
        "useradd --system --user-group --no-create-home --home-dir /nonexistent "
        "--shell /usr/sbin/nologin --comment Tableside tableside",
        "usermod --append --groups gpio,i2c,spi,dialout tableside",
        f"python3 -m venv {venv}",
        "pip install --upgrade COPY[pi]",
        "raspi-config nonint do_i2c 0",
        "raspi-config nonint do_serial_cons 1",
        "raspi-config nonint do_serial_hw 0",
        f"systemd-tmpfiles --create {pi_root}/etc/tmpfiles.d/tableside.conf",
        "udevadm control --reload",
        "systemctl daemon-reload",
        "systemctl daemon-reload",
        "systemctl enable tableside.service",
    ]
    for name, target in STICK_FILES.items():
        assert (pi_root / target).read_bytes() == (REPO / "systemd" / name).read_bytes()
    assert (pi_root / STICK_FILES["tableside-stick"]).stat().st_mode & stat.S_IXUSR
    # pip was given a copy of the shipped files, which is gone; the checkout is untouched.
    copied = (tmp_path / "commands.log.copy").read_text().splitlines()
    assert "./firmware_app/runners/daemon.py" in copied
    assert "./pyproject.toml" in copied
    assert not [name for name in copied if "__pycache__" in name or name.startswith("./tests")]
    assert not list((tmp_path / "scratch").iterdir())
    assert snapshot(checkout) == before_checkout

    config.write_text("# the owner's own settings\n")
    log.unlink()
    before_root = snapshot(pi_root)
    second = install(checkout, pi_root, "--force", path=stand_ins)
    assert second.returncode == 0, second.stderr
    assert "    up to date" in second.stdout
    assert "nothing changed; Tableside left running as it was" in second.stdout
    assert snapshot(pi_root) == before_root
    assert config.read_text() == "# the owner's own settings\n"
    assert log.read_text().splitlines() == [
        "usermod --append --groups gpio,i2c,spi,dialout tableside",
        "raspi-config nonint do_i2c 0",
        "raspi-config nonint do_serial_cons 1",
        "raspi-config nonint do_serial_hw 0",
        "systemctl enable tableside.service",
    ]


def test_an_update_reinstalls_from_the_changed_checkout(
    checkout: Path, pi_root: Path, tmp_path: Path, stand_ins: str
) -> None:
    assert install(checkout, pi_root, "--force", path=stand_ins).returncode == 0
    (checkout / "firmware_app" / "runners" / "splash.bin").unlink()  # upstream removed a file
    log = tmp_path / "commands.log"
    log.unlink()
    update = install(checkout, pi_root, "--force", path=stand_ins)
    assert update.returncode == 0, update.stderr
    assert "pip install --upgrade COPY[pi]" in log.read_text().splitlines()
    assert "./firmware_app/runners/splash.bin" not in (tmp_path / "commands.log.copy").read_text()
    assert "no reboot needed; Tableside is (re)started" in update.stdout
    assert log.read_text().splitlines()[-1] == "systemctl restart tableside.service"


def test_a_changed_configuration_adds_spi_and_its_libraries(
    checkout: Path, pi_root: Path, tmp_path: Path, stand_ins: str
) -> None:
    assert install(checkout, pi_root, "--force", path=stand_ins).returncode == 0
    (pi_root / "etc" / "tableside" / "tableside.toml").write_text(
        '[display]\ndriver = "ssd1309"\ninterface = "spi"\n'
    )
    log = tmp_path / "commands.log"
    log.unlink()
    (tmp_path / "commands.log.apt").unlink()  # gcc and friends are not installed yet
    assert install(checkout, pi_root, "--force", path=stand_ins).returncode == 0
    done = log.read_text().splitlines()
    assert f"apt-get install -y --no-install-recommends {BASE} {SPI_BUILD}" in done
    assert "pip install --upgrade COPY[pi,spi]" in done
    assert "raspi-config nonint do_spi 0" in done


def test_a_venv_made_with_other_settings_is_made_again(
    checkout: Path, pi_root: Path, tmp_path: Path, stand_ins: str
) -> None:
    """Earlier versions gave every box the system site packages; 64-bit ones need none."""
    venv = pi_root / "opt" / "tableside" / "venv"
    make_executable(venv / "bin" / "python", "exit 0\n")
    (venv / "pyvenv.cfg").write_text("include-system-site-packages = true\n")
    assert install(checkout, pi_root, "--force", path=stand_ins).returncode == 0
    done = (tmp_path / "commands.log").read_text().splitlines()
    assert f"python3 -m venv {venv}" in done
    assert (venv / "pyvenv.cfg").read_text() == "include-system-site-packages = false\n"


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to leave root-owned files")
def test_root_owned_build_folders_of_earlier_installs_leave_the_checkout(
    checkout: Path, pi_root: Path, stand_ins: str
) -> None:
    for leftover in ("build/lib/firmware_app", "tableside.egg-info"):
        (checkout / leftover).mkdir(parents=True)
    os.chown(checkout, 1000, 1000)
    mine = checkout / "build.txt"
    mine.write_text("the owner's\n")
    assert install(checkout, pi_root, "--force", path=stand_ins).returncode == 0
    assert not (checkout / "build").exists()
    assert not (checkout / "tableside.egg-info").exists()
    assert mine.exists()


# --- where udev and systemd are not running (an image built in a chroot) -----------------

NOT_BOOTED = "System has not been booted with systemd as init system (PID 1). Can't operate."
# As each fails there: udevadm finds no udevd; systemctl works offline for enable only.
IMAGE_BUILD = {
    "udevadm": textwrap.dedent(
        """\
        echo "udevadm $*" >>"$LOG"
        echo "Failed to send reload request: No such file or directory" >&2
        exit 1
        """
    ),
    "systemctl": textwrap.dedent(
        f"""\
        echo "systemctl $*" >>"$LOG"
        [ "$1" = enable ] && exit 0
        echo "{NOT_BOOTED}" >&2
        exit 1
        """
    ),
}
NOTE = "    note: {} not running here (an image build?): the rules and units are installed"


@pytest.fixture
def image_root(pi_root: Path) -> Path:
    """Raspberry Pi OS as a chroot sees it while an image is built: no /run of a running one."""
    shutil.rmtree(pi_root / "run")
    return pi_root


def notes(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.lstrip().startswith("note:")]


def test_an_image_build_installs_everything_and_says_what_waits_for_the_boot(
    checkout: Path, image_root: Path, tmp_path: Path
) -> None:
    path = stand_in_path(tmp_path / "stand-ins", **IMAGE_BUILD)
    log = tmp_path / "commands.log"
    first = install(checkout, image_root, "--force", path=path)
    assert first.returncode == 0, first.stderr
    tmpfiles = f"systemd-tmpfiles --create {image_root}/etc/tmpfiles.d/tableside.conf"
    assert notes(first.stdout) == [
        NOTE.format("udev and systemd are") + " and take effect at the next boot (not run: "
        f"{tmpfiles}, udevadm control --reload, systemctl daemon-reload)"
    ]
    assert first.stdout.splitlines()[-1] == "==> installed; Tableside starts at the next boot"
    for name, target in STICK_FILES.items():
        assert (image_root / target).read_bytes() == (REPO / "systemd" / name).read_bytes()
    unit = image_root / "etc" / "systemd" / "system" / "tableside.service"
    assert unit.read_bytes() == UNIT.read_bytes()
    done = log.read_text().splitlines()
    assert "systemctl enable tableside.service" in done
    assert [line for line in done if line.startswith(("udevadm", "systemd-tmpfiles"))] == []
    assert [line for line in done if line.startswith("systemctl") and "enable" not in line] == []

    # An update of the image: the restart waits for the boot as well.
    (checkout / "firmware_app" / "runners" / "splash.bin").unlink()
    log.unlink()
    update = install(checkout, image_root, "--force", path=path)
    assert update.returncode == 0, update.stderr
    assert "pip install --upgrade COPY[pi]" in log.read_text().splitlines()
    assert notes(update.stdout) == [
        NOTE.format("systemd is") + " and take effect at the next boot "
        "(not run: systemctl restart tableside.service)"
    ]
    again = install(checkout, image_root, "--force", path=path)
    assert again.returncode == 0, again.stderr
    assert notes(again.stdout) == []
    assert again.stdout.splitlines()[-1] == "==> nothing changed; Tableside left running as it was"


def test_the_dry_run_of_an_image_build_says_it_once_too(checkout: Path, image_root: Path) -> None:
    result = install(checkout, image_root, "--dry-run")
    plan = plan_of(result, image_root)
    assert plan["notes"] == [
        "udev and systemd are not running here (an image build?): the rules and units are "
        "installed and take effect at the next boot (not run: systemd-tmpfiles --create "
        "/etc/tmpfiles.d/tableside.conf, udevadm control --reload, systemctl daemon-reload)"
    ]
    assert "would run: systemctl enable tableside.service" in result.stdout
    assert "would run: udevadm" not in result.stdout
    assert "would run: systemctl daemon-reload" not in result.stdout


@pytest.mark.parametrize(
    "running, failing, error",
    [
        # enable needs no running systemd: where none runs, its failure is still a real one.
        (False, "systemctl", "Failed to enable unit: Unit file tableside.service does not exist."),
        # With udevd running, a reload that fails is a real failure.
        (True, "udevadm", "Failed to send reload request: Connection refused"),
    ],
    ids=["enable-in-an-image-build", "udev-reload-while-udev-runs"],
)
def test_a_step_that_really_fails_still_stops_the_script(
    running: bool, failing: str, error: str, checkout: Path, pi_root: Path, tmp_path: Path
) -> None:
    failing_body = {failing: f'echo "{failing} $*" >>"$LOG"; echo "{error}" >&2; exit 1\n'}
    if running:
        path = stand_in_path(tmp_path / "stand-ins", **failing_body)
    else:
        shutil.rmtree(pi_root / "run")
        path = stand_in_path(tmp_path / "stand-ins", **IMAGE_BUILD | failing_body)
    result = install(checkout, pi_root, "--force", path=path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [error]
    stopped_at = (tmp_path / "commands.log").read_text().splitlines()[-1]
    assert stopped_at.startswith(failing)
    assert result.stdout.splitlines()[-1] == f"    running: {stopped_at}"
    assert notes(result.stdout) == []


def test_a_restart_that_fails_on_a_running_system_stops_the_script(
    checkout: Path, pi_root: Path, tmp_path: Path, stand_ins: str
) -> None:
    assert install(checkout, pi_root, "--force", path=stand_ins).returncode == 0
    (checkout / "firmware_app" / "runners" / "splash.bin").unlink()  # an update to restart with
    failed = "Job for tableside.service failed because the control process exited with error code."
    systemctl = (
        f'echo "systemctl $*" >>"$LOG"; [ "$1" = restart ] || exit 0; echo "{failed}" >&2; exit 1\n'
    )
    path = stand_in_path(tmp_path / "failing", systemctl=systemctl)
    result = install(checkout, pi_root, "--force", path=path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [failed]
    assert result.stdout.splitlines()[-1] == "    running: systemctl restart tableside.service"
    assert notes(result.stdout) == []
