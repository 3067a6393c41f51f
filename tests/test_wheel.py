"""What a Raspberry Pi installs: the wheel, and ``tableside`` run from an environment of its own.

``systemd/install.sh`` copies the shipped files (``install_helpers.SHIPPED``) to a temporary
folder and pip-installs that copy. Here the same copy is built into a wheel, once for the
module, and the wheel must hold every module and data file of the packages' folders. It is
then installed into a fresh virtual environment that sees the third-party libraries (Pillow,
gpiozero, luma.oled, pyserial) through a ``.pth`` line naming this suite's site-packages,
but not the source tree: no ``PYTHONPATH``, a working folder outside the checkout, and
neither the editable install's finder nor the checkout on ``sys.path``. From there the
command line runs as on a Pi: its help, a self-played game, the catalogue check, the daemon's
first frame on the fake drivers and the home screen in Polish.

The build uses this environment's setuptools (``--no-build-isolation``, nothing fetched)
when it is the one ``[build-system]`` asks for and can make wheels; otherwise pip builds in
an isolated environment, as ``pip install`` of a checkout does.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from install_helpers import PACKAGES, REPO, shipped_files
from test_daemon import FAKE

pytestmark = pytest.mark.unmutated  # builds the wheel from the code's files (docs/testing.md)

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PROJECT["project"]["version"]
DIST_INFO = f"tableside-{VERSION}.dist-info"


def clean_environ(home: Path) -> dict[str, str]:
    """The environment of a command on the Pi: nothing of this suite's Python settings."""
    environ = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "TABLESIDE_"))
        and key not in ("VIRTUAL_ENV", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")
    }
    state = home / ".local" / "state"
    environ |= {"HOME": str(home), "XDG_STATE_HOME": str(state), "PYTHONNOUSERSITE": "1"}
    environ |= {"TABLESIDE_STATE_DIR": str(state / "tableside"), "LC_ALL": "C.UTF-8"}
    return environ


def backend_builds_offline() -> bool:
    """Whether this environment has the build backend ``[build-system]`` names, able to make
    a wheel by itself: setuptools from 70.1 on, or an older one with the wheel package."""
    from packaging.requirements import Requirement
    from packaging.version import Version

    for text in PROJECT["build-system"]["requires"]:
        requirement = Requirement(text)
        try:
            have = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if not requirement.specifier.contains(have, prereleases=True):
            return False
    setuptools = Version(importlib.metadata.version("setuptools"))
    return setuptools >= Version("70.1") or importlib.util.find_spec("wheel") is not None


def build_leftovers() -> dict[str, int]:
    """What an in-place build writes into the checkout, with when it was last written."""
    found = [REPO / "build", *REPO.glob("*.egg-info")]
    return {path.name: path.stat().st_mtime_ns for path in found if path.exists()}


@dataclass(frozen=True)
class Built:
    wheel: Path
    source: list[str]  # the files it was built from, as install.sh finds them
    leftovers: tuple[dict[str, int], dict[str, int]]  # build/ and *.egg-info: before, after


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    folder = tmp_path_factory.mktemp("wheel")
    before = build_leftovers()
    # A copy, as install.sh makes: pip builds in the tree it is given, leaving build/ and
    # tableside.egg-info behind, which must not land in the checkout.
    source = shipped_files()
    for name in source:
        (folder / "source" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, folder / "source" / name)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check"]
    if backend_builds_offline():
        command += ["--no-build-isolation", "--no-index"]
    command += ["-w", str(folder / "dist"), str(folder / "source")]
    done = subprocess.run(
        command,
        cwd=folder,
        env=clean_environ(folder),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    (wheel,) = (folder / "dist").glob("tableside-*.whl")
    return Built(wheel, source, (before, build_leftovers()))


@dataclass(frozen=True)
class Pi:
    venv: Path
    site: Path
    folder: Path  # the working folder of every command, outside the checkout
    environ: dict[str, str]

    def run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.venv / "bin" / args[0]), *args[1:]],
            cwd=self.folder,
            env=self.environ,
            capture_output=True,
            text=True,
            timeout=timeout,
        )


def library_folders() -> list[str]:
    """Where this suite's Python finds the project's dependencies (its site-packages)."""
    paths = sysconfig.get_paths()
    folders = [paths["purelib"], paths["platlib"]]
    for text in PROJECT["project"]["dependencies"]:
        name = re.match(r"[A-Za-z0-9._-]+", text).group()
        folders.append(str(importlib.metadata.distribution(name).locate_file("")))
    return list(dict.fromkeys(str(Path(folder).resolve()) for folder in folders))


@pytest.fixture(scope="module")
def pi(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Pi:
    folder = tmp_path_factory.mktemp("pi")
    assert not folder.resolve().is_relative_to(REPO)
    environ = clean_environ(folder)
    venv = folder / "venv"

    def call(*command: str | Path) -> str:
        done = subprocess.run(
            [str(part) for part in command],
            cwd=folder,
            env=environ,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
        return done.stdout

    # Without pip of its own (this suite's pip installs into it): saves seconds, same result.
    call(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--python", python]
    call(*pip, "install", "--no-deps", "--no-index", "--no-compile", built.wheel)
    site = Path(
        call(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip()
    )
    # The libraries from this suite's site-packages: a plain path line, which adds the folder
    # but runs none of its own .pth files (the editable install's finder among them).
    folders = library_folders()
    assert str(REPO) not in folders
    (site / "suite-libraries.pth").write_text("\n".join(folders) + "\n", encoding="utf-8")
    return Pi(venv, site, folder, environ)


# --- the wheel -------------------------------------------------------------------------


def test_the_wheel_holds_every_module_and_data_file_and_nothing_else(built: Built) -> None:
    with zipfile.ZipFile(built.wheel) as wheel:
        names = set(wheel.namelist())
        entry_points = wheel.read(f"{DIST_INFO}/entry_points.txt").decode()
    packaged = {name for name in built.source if name.split("/")[0] in PACKAGES}
    assert {"firmware_app/runners/splash.bin", "rules/data/pingwiny.toml"} <= packaged
    assert sorted(packaged - names) == []
    # Nothing else: no tests, benchmarks or examples, no bytecode, no stale build output.
    assert sorted(names - packaged) == sorted(n for n in names if n.startswith(f"{DIST_INFO}/"))
    assert re.search(r"^tableside = firmware_app\.cli\.main:main$", entry_points, re.MULTILINE)


def test_what_git_tracks_is_in_the_copy_the_wheel_is_built_from(built: Built) -> None:
    git = shutil.which("git")
    if git is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        [git, "-C", str(REPO), "ls-files", "-z", "--", *PACKAGES],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.split("\0")
    tracked = {name for name in listed if name and (REPO / name).exists()}
    assert len(tracked) > 100
    assert sorted(tracked - set(built.source)) == []


def test_building_writes_nothing_into_the_checkout(built: Built) -> None:
    before, after = built.leftovers
    assert after == before


# --- installed on its own --------------------------------------------------------------

WHERE = """\
import json, sys
import firmware_app, hw, rules, PIL, gpiozero, luma.oled, serial
from importlib import resources
print(json.dumps({
    "packages": [m.__file__ for m in (firmware_app, hw, rules)],
    "data": str(resources.files("rules") / "data" / "pingwiny.toml"),
    "libraries": [m.__file__ for m in (PIL, gpiozero, luma.oled, serial)],
    "finders": [type(f).__module__ + "." + type(f).__qualname__ for f in sys.meta_path],
    "path": sys.path,
}))
"""


def test_the_installed_packages_are_the_wheels_not_the_checkouts(pi: Pi) -> None:
    done = pi.run("python", "-c", WHERE)
    assert done.returncode == 0, done.stderr
    where = json.loads(done.stdout)
    for file in [*where["packages"], where["data"]]:
        assert Path(file).resolve().is_relative_to(pi.site.resolve()), file
    folders = [Path(folder) for folder in library_folders()]
    for file in where["libraries"]:
        assert any(Path(file).resolve().is_relative_to(folder) for folder in folders), file
    assert [finder for finder in where["finders"] if "editable" in finder.lower()] == []
    # "" is the working folder, outside the checkout.
    assert REPO not in [Path(entry or pi.folder).resolve() for entry in where["path"]]


def test_help(pi: Pi) -> None:
    done = pi.run("tableside", "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: tableside ")
    for command in ("run", "sim", "catalogue", "selfplay", "replay"):
        assert re.search(rf"^    {command}\b", done.stdout, re.MULTILINE), command


def test_selfplay_plays_a_whole_game_that_replays(pi: Pi) -> None:
    record = pi.folder / "selfplay.json"
    done = pi.run("tableside", "selfplay", "--short", "--players", "2", "--out", str(record))
    assert done.returncode == 0, done.stderr
    game = json.loads(record.read_text(encoding="utf-8"))
    assert (game["format"], game["game"], game["options"]["players"]) == (
        "tableside-game-record",
        "pingwiny",
        2,
    )
    assert len(game["actions"]) > 20
    replayed = pi.run("tableside", "replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.startswith(f"{record}: {len(game['actions'])} actions, game finished\n")
    assert re.search(r"^Winner: ", replayed.stdout, re.MULTILINE), replayed.stdout


def test_catalogue_check_reads_the_shipped_card_data(pi: Pi) -> None:
    done = pi.run("tableside", "catalogue", "check")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["ok", "still unknown (the panel asks for each when a game needs it):"]
    assert any(line.startswith("  Skipper (penguin): ") for line in lines)


def test_the_daemon_starts_to_its_home_menu_on_the_fake_drivers(pi: Pi) -> None:
    """The whole start a Pi makes: splash, journal opened and checked, the home menu shown."""
    config = pi.folder / "tableside.toml"
    config.write_text(FAKE.format(state=pi.folder / "state"), encoding="utf-8")
    done = pi.run("tableside", "run", "--config", str(config), "--home")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.rsplit(" ", 1)[0] for line in lines] == [
        "first frame shown at",
        "home menu shown at",
    ], done.stdout
    assert "journal: new" in done.stderr and (pi.folder / "state" / "journal.sqlite").exists()


def test_the_home_screen_in_polish(pi: Pi) -> None:
    script = pi.folder / "home.txt"
    script.write_text('expect "Nowa gra"\n', encoding="utf-8")
    state = pi.folder / "sim-state"
    done = pi.run(
        "tableside", "sim", "--headless", "--script", str(script), "--state-dir", str(state),
        "--language", "pl",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[:2] == ["[Tableside]", "> Nowa gra"]
