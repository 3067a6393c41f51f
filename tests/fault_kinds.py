"""The damage registry of the journal fault tests: each kind of damage done to a copy of
the played state folder (``KINDS``, by class), and the functions that do it.

``tests/test_journal_faults.py`` starts the box on each damaged copy and counts.
"""

import os
import random
import shutil
import sqlite3
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware_app.store.catalogue_files import save_owner_card
from firmware_app.store.journal import Journal
from firmware_app.store.statistics import Stats, cache_of

FILES = ("journal.sqlite", "journal.sqlite-wal")
OWNER = "catalogue.toml"


def _flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def _sql(folder: Path, *statements: str, name: str = FILES[0]) -> None:
    """Statements committed, then the files copied as a power cut leaves them (a clean close
    would copy the log into the main file and remove it)."""
    path = folder / name
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    cut = {
        suffix: Path(f"{path}{suffix}").read_bytes()
        for suffix in ("", "-wal")
        if Path(f"{path}{suffix}").exists()
    }
    db.close()
    Path(f"{path}-shm").unlink(missing_ok=True)
    for suffix, data in cut.items():
        Path(f"{path}{suffix}").write_bytes(data)


def _wal_frame(index: int, within: int) -> int:
    """The offset of byte ``within`` of frame ``index``'s page in the log."""
    return 32 + index * (24 + 4096) + 24 + within


def _stopped(folder: Path) -> Path:
    """The journal as a clean stop leaves it: the log copied into the main file."""
    db = sqlite3.connect(folder / FILES[0])
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    (folder / "journal.sqlite.running").unlink()
    assert not (folder / FILES[1]).exists()
    return folder / FILES[0]


def _last_page(path: Path, names: str) -> int:
    db = sqlite3.connect(path)
    (page,) = db.execute(f"SELECT max(pageno) FROM dbstat WHERE name IN ({names})").fetchone()
    db.close()
    return page


def _flip_last_page(path: Path, names: str = "'actions'") -> None:
    """A byte of the b-tree page header of the last page of ``names`` in the file."""
    _flip(path, (_last_page(path, names) - 1) * 4096 + 3)


def _foreign_page(folder: Path) -> None:
    """The last page of actions replaced by a page of another box's database."""
    path = _stopped(folder)
    page = _last_page(path, "'actions'")
    other = (folder.parent / "foreign.sqlite").read_bytes()
    data = bytearray(path.read_bytes())
    data[(page - 1) * 4096 : page * 4096] = other[4096:8192]
    path.write_bytes(bytes(data))


def _flip_notation(path: Path) -> None:
    """One letter of a live action of the game in play, wherever its row lies in the file.

    The file also holds dead copies of rows (freed cells), so the occurrences of
    "visit" are tried from the end until a flip changes what the table reads.
    """
    live = _notations(path)
    data = path.read_bytes()
    at = len(data)
    while (at := data.rindex(b"visit", 0, at)) >= 0:
        _flip(path, at + 2)
        if _notations(path) != live:
            return
        _flip(path, at + 2)


_LIVE_IN_PLAY = """SELECT notation FROM actions WHERE NOT undone
    AND game_id = (SELECT id FROM games WHERE outcome IS NULL)"""


def _notations(path: Path) -> list[str]:
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    try:
        return [row[0] for row in db.execute(_LIVE_IN_PLAY)]
    finally:
        db.close()


def _cut(path: Path, share: float) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * share) + 7])


def _zero(path: Path) -> None:
    path.write_bytes(bytes(path.stat().st_size))


def _random(path: Path, size: int | None = None) -> None:
    path.write_bytes(random.Random(7).randbytes(size or path.stat().st_size))


def _delete(folder: Path) -> None:
    for name in FILES:
        (folder / name).unlink()


def _replace(path: Path, how: str, target: Path | None = None) -> None:
    """A FIFO, a folder or a symbolic link where the file ``path`` belongs."""
    path.unlink(missing_ok=True)
    if how == "fifo":
        os.mkfifo(path)
    elif how == "folder":
        path.mkdir()
        (path / "inside").write_text("a folder where a file belongs")
    else:
        path.symlink_to(target or path.with_name("nowhere-" + path.name))


def _foreign_log(folder: Path) -> None:
    """The log of another database beside the journal (its salts are not the journal's)."""
    other = folder.parent / "other"
    other.mkdir()
    db = sqlite3.connect(other / "x.sqlite")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    db.execute("CREATE TABLE t (a)")
    db.executemany("INSERT INTO t VALUES (?)", [(b"x" * 900,)] * 40)
    db.commit()
    shutil.copyfile(other / "x.sqlite-wal", folder / FILES[1])
    db.close()


def _backup_of(folder: Path, which: int) -> Path:
    return sorted((folder / "backups").glob("journal-*.sqlite"))[which]


def _foreign_box(folder: Path) -> None:
    """The journal cut short, and a newer snapshot in backups/ that another box took."""
    _cut(folder / FILES[0], 0.5)
    foreign = folder.parent / "foreign.sqlite"
    shutil.copyfile(foreign, folder / "backups" / "journal-20271231-000000-000.sqlite")


def _future_backup(folder: Path) -> None:
    """The clock ran ahead once: the oldest snapshot bears a name from 2099."""
    old = _backup_of(folder, 0)
    old.rename(old.with_name("journal-20990101-000000-000.sqlite"))
    _cut(folder / FILES[0], 0.5)


def _installing(folder: Path, text: bytes) -> None:
    (folder / "journal.sqlite.installing").write_bytes(text)


def _rebuilt_elsewhere(folder: Path) -> None:
    """A ``.rebuilt`` that is an empty journal and the marker that says to install it."""
    Journal(folder / "journal.sqlite.rebuilt").close()
    _installing(folder, b"journal.sqlite.rebuilt")


def _owner_file(folder: Path, data: bytes | None = None) -> None:
    """An owner's file with a taught card, then ``data`` in its place (if given)."""
    save_owner_card(folder / OWNER, {"id": "becky", "family": {"points": 4, "type": "enemy"}})
    if data is not None:
        (folder / OWNER).write_bytes(data)


def _owner_truncated(folder: Path) -> None:
    """The owner's file cut short, where the cut leaves TOML that does not parse."""
    _owner_file(folder)
    text = (folder / OWNER).read_bytes()
    for end in range(len(text) // 2, 0, -1):
        try:
            tomllib.loads(text[:end].decode("utf-8"))
        except (ValueError, tomllib.TOMLDecodeError):
            (folder / OWNER).write_bytes(text[:end])
            return
    raise AssertionError("no cut of the owner's file fails to parse")


def _stats_cache(folder: Path, data: bytes | None = None, version: int | None = None) -> None:
    """A statistics cache counted from the journal, then damaged; the journal as it was cut."""
    cut = {name: (folder / name).read_bytes() for name in FILES}
    with Journal(folder / FILES[0]) as journal, Stats(journal, cache_of(journal.path)) as stats:
        stats.refresh()
    Path(f"{folder / FILES[0]}-shm").unlink(missing_ok=True)
    for name, data in cut.items():
        (folder / name).write_bytes(data)
    cache = cache_of(folder / FILES[0])
    if version is not None:
        _sql(folder, f"PRAGMA user_version = {version}", name=cache.name)
    if data is not None:
        for suffix in ("-wal", "-shm"):
            Path(f"{cache}{suffix}").unlink(missing_ok=True)
        cache.write_bytes(data)


def _stats_folder(folder: Path) -> None:
    cache = cache_of(folder / FILES[0])
    cache.mkdir()
    (cache / "inside").write_text("a folder where the statistics cache belongs")


_BAD_ACTION = """UPDATE actions SET notation = '{notation}'
    WHERE seq = 40 AND game_id = (SELECT id FROM games WHERE outcome IS NULL)"""
_IN_PLAY = "(SELECT id FROM games WHERE outcome IS NULL)"
_ENDED = "(SELECT id FROM games WHERE outcome IS NOT NULL)"


def _setting(key: str, value: str) -> str:
    return f"INSERT OR REPLACE INTO settings VALUES ('{key}', '{value}')"


# ------------------------------------------------------------------ the running box


def _delete_journal(folder: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{folder / FILES[0]}{suffix}").unlink(missing_ok=True)


def _odd_snapshot(folder: Path, *statements: str) -> None:
    """The journal cut short, and a copy of the newest snapshot changed by ``statements``
    into a shape the box never writes, named as the newest of all."""
    _cut(folder / FILES[0], 0.5)
    odd = folder / "backups" / "journal-99999999-20991231-000000.sqlite"
    shutil.copyfile(_backup_of(folder, -1), odd)
    db = sqlite3.connect(odd)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def _delete_log(folder: Path) -> None:
    (folder / FILES[1]).unlink()


def _delete_folder(folder: Path) -> None:
    shutil.rmtree(folder)


@dataclass(frozen=True)
class Kind:
    """One kind of damage: its class, what it does to the copy of the folder, and what the
    start must show: ``says`` a message (True), the home menu (False), either (None);
    ``rebuilt``: the journal is rebuilt (True), not (False), either (None).
    ``running``: done to a box that runs (a child process, killed after it), then started."""

    cls: str
    damage: Callable[[Path], None] | None = None
    says: bool | None = True
    rebuilt: bool | None = True
    running: Callable[[Path], None] | None = None
    hangs: bool = False  # a FIFO: a start that blocks on it must not block the suite


KINDS = {
    # ---- the main file
    "main truncated": Kind("file", lambda f: _cut(f / FILES[0], 0.5)),
    "main zeroed": Kind("file", lambda f: _zero(f / FILES[0])),
    "main emptied": Kind("file", lambda f: (f / FILES[0]).write_bytes(b"")),
    "main random bytes": Kind("file", lambda f: _random(f / FILES[0])),
    "header magic flipped": Kind("file", lambda f: _flip(_stopped(f), 0)),
    "header application id flipped": Kind("file", lambda f: _flip(_stopped(f), 68)),
    "header page size flipped": Kind("file", lambda f: _flip(_stopped(f), 16)),
    "byte flipped in a page header": Kind("file", lambda f: _flip_last_page(_stopped(f))),
    "byte flipped in an action": Kind("file", lambda f: _flip_notation(_stopped(f))),
    "a page replaced by another database's page": Kind("file", _foreign_page),
    "user_version from the future": Kind(
        "file", lambda f: _sql(f, "PRAGMA user_version = 99"), rebuilt=None
    ),
    "application id of another program": Kind(
        "file", lambda f: _sql(f, "PRAGMA application_id = 1179210568"), rebuilt=None
    ),
    # ---- the write-ahead log
    "byte flipped in the log": Kind("log", lambda f: _flip(f / FILES[1], _wal_frame(3, 100))),
    "log header flipped": Kind("log", lambda f: _flip(f / FILES[1], 20)),
    "log random bytes": Kind("log", lambda f: _random(f / FILES[1])),
    "log deleted": Kind("log", lambda f: (f / FILES[1]).unlink()),
    "log torn": Kind("log", lambda f: _cut(f / FILES[1], 0.6)),
    "log of another database": Kind("log", _foreign_log),
    "log with garbage after its last frame": Kind(
        "log",
        lambda f: (f / FILES[1]).write_bytes((f / FILES[1]).read_bytes() + bytes(range(256)) * 9),
        says=None,
        rebuilt=None,
    ),
    "log index (-shm) garbage": Kind(
        "log", lambda f: _random(f / "journal.sqlite-shm", 32768), says=None, rebuilt=None
    ),
    # ---- the rows
    "action changed to bad notation": Kind(
        "records", lambda f: _sql(f, _BAD_ACTION.format(notation="visit nowhere nobody"))
    ),
    "action changed to nonsense": Kind(
        "records", lambda f: _sql(f, _BAD_ACTION.format(notation="%%%"))
    ),
    "game header not JSON": Kind(
        "records", lambda f: _sql(f, "UPDATE games SET header = '{' WHERE outcome IS NULL")
    ),
    "game header of the wrong shape": Kind(
        "records", lambda f: _sql(f, "UPDATE games SET header = '[1, 2]' WHERE outcome IS NULL")
    ),
    "undone flag flipped": Kind(
        "records",
        lambda f: _sql(f, f"UPDATE actions SET undone = 1 WHERE seq = 40 AND game_id = {_IN_PLAY}"),
    ),
    "finished game header of the wrong shape": Kind(
        "records",
        lambda f: _sql(f, f"UPDATE games SET header = '[]' WHERE id = {_ENDED}"),
        rebuilt=None,
    ),
    "finished game summary of the wrong shape": Kind(
        "records",
        lambda f: _sql(f, f"UPDATE games SET summary = '7' WHERE id = {_ENDED}"),
        rebuilt=None,
    ),
    "an action moved out of order": Kind(
        "records",
        lambda f: _sql(f, f"UPDATE actions SET seq = 1045 WHERE seq = 45 AND game_id = {_IN_PLAY}"),
    ),
    "an action of a game that does not exist": Kind(
        "records", lambda f: _sql(f, "INSERT INTO actions VALUES (999, 1, 'visit hq becky', 0)")
    ),
    "an index page damaged": Kind(
        "records",
        lambda f: _flip_last_page(
            _stopped(f), "SELECT name FROM sqlite_schema WHERE type = 'index'"
        ),
        rebuilt=None,
    ),
    "the place of the game in play not JSON": Kind(
        "records",
        lambda f: _sql(f, f"UPDATE games SET place = '{{' WHERE id = {_IN_PLAY}"),
        says=False,
        rebuilt=False,
    ),
    "the place of the game in play of the wrong shape": Kind(
        "records",
        lambda f: _sql(
            f, f"""UPDATE games SET place = '{{"players": "x"}}' WHERE id = {_IN_PLAY}"""
        ),
        says=False,
        rebuilt=False,
    ),
    "the date of the game in play a word": Kind(
        "records",
        lambda f: _sql(f, f"UPDATE games SET played = 'soon' WHERE id = {_IN_PLAY}"),
        says=False,
        rebuilt=False,
    ),
    # ---- the settings
    "setting not JSON": Kind(
        "settings",
        lambda f: _sql(f, "UPDATE settings SET value = '{broken' WHERE key = 'contrast'"),
    ),
    "language unknown": Kind(
        "settings", lambda f: _sql(f, _setting("language", '"xx"')), rebuilt=None
    ),
    "language not text": Kind(
        "settings", lambda f: _sql(f, _setting("language", '["en"]')), rebuilt=None
    ),
    "contrast 1e308": Kind(
        "settings", lambda f: _sql(f, _setting("contrast", "1e308")), rebuilt=None
    ),
    "contrast a word": Kind(
        "settings", lambda f: _sql(f, _setting("contrast", '"bright"')), rebuilt=None
    ),
    "tags of the wrong shape": Kind(
        "settings", lambda f: _sql(f, _setting("tags", "[1, 2]")), rebuilt=None
    ),
    "a setting row deleted": Kind(
        "settings",
        lambda f: _sql(f, "DELETE FROM settings WHERE key = 'contrast'"),
        says=False,
        rebuilt=False,
    ),
    "a setting of an unknown name": Kind(
        "settings", lambda f: _sql(f, _setting("wizard", "1")), says=False, rebuilt=False
    ),
    # ---- the backups (each with the journal damaged, so that a recovery reads them)
    "a backup from another box": Kind("backup", _foreign_box),
    "backups named in the future": Kind("backup", _future_backup),
    "the newest snapshot truncated": Kind(
        "backup", lambda f: (_cut(_backup_of(f, -1), 0.4), _cut(f / FILES[0], 0.5))
    ),
    "the archive damaged": Kind(
        "backup",
        lambda f: (_random(f / "backups" / "archive.sqlite"), _random(f / FILES[1])),
    ),
    "the backups folder a file": Kind(
        "backup",
        lambda f: (shutil.rmtree(f / "backups"), (f / "backups").write_text("x"), _delete_log(f)),
    ),
    "a snapshot numbered past any number written": Kind(
        "backup", lambda f: _odd_snapshot(f, "UPDATE backup SET seq = 9e999")
    ),
    "a snapshot with text where numbers belong": Kind(
        "backup",
        lambda f: _odd_snapshot(
            f, "UPDATE actions SET seq = 'x' || seq WHERE seq % 2", "UPDATE games SET header = 7"
        ),
    ),
    "a pipe where the archive's rollback journal goes": Kind(
        "backup",
        lambda f: (_cut(f / FILES[0], 0.5), os.mkfifo(f / "backups" / "archive.sqlite-journal")),
        hangs=True,
    ),
    "a snapshot that is a folder": Kind(
        "backup",
        lambda f: (
            (f / "backups" / "journal-20991231-000000-000.sqlite").mkdir(),
            _cut(f / FILES[0], 0.5),
        ),
    ),
    # ---- the markers
    "stale .installing, nothing to install": Kind(
        "marker", lambda f: _installing(f, b"journal.sqlite.rebuilt"), says=False, rebuilt=False
    ),
    ".installing naming another file": Kind(
        "marker",
        lambda f: ((f / "notes.txt").write_text("the owner's notes"), _installing(f, b"notes.txt")),
        says=None,
        rebuilt=None,
    ),
    ".installing naming a path elsewhere": Kind(
        "marker", lambda f: _installing(f, b"../elsewhere/journal.sqlite"), says=None, rebuilt=None
    ),
    ".installing not text": Kind(
        "marker", lambda f: _installing(f, b"\xff\xfe\x00garbage"), says=None, rebuilt=None
    ),
    ".rebuilt of nothing, with its .installing": Kind(
        "marker", _rebuilt_elsewhere, says=None, rebuilt=None
    ),
    "stale .rebuilt, garbage": Kind(
        "marker",
        lambda f: _random(f / "journal.sqlite.rebuilt", 8192),
        says=False,
        rebuilt=False,
    ),
    ".running marker a folder": Kind(
        "marker",
        lambda f: ((f / "journal.sqlite.running").unlink(), (f / "journal.sqlite.running").mkdir()),
        says=None,
        rebuilt=None,
    ),
    ".recheck marker a folder": Kind(
        "marker", lambda f: (f / "journal.sqlite.recheck").mkdir(), says=None, rebuilt=None
    ),
    # ---- the storage: something else where a file belongs
    "journal a FIFO": Kind("storage", lambda f: _replace(f / FILES[0], "fifo"), hangs=True),
    "journal a folder": Kind("storage", lambda f: _replace(f / FILES[0], "folder")),
    "journal a dangling symbolic link": Kind("storage", lambda f: _replace(f / FILES[0], "link")),
    "log a FIFO": Kind("storage", lambda f: _replace(f / FILES[1], "fifo"), hangs=True),
    "log a folder": Kind("storage", lambda f: _replace(f / FILES[1], "folder")),
    "a pipe where the journal's rollback journal goes": Kind(
        "storage", lambda f: os.mkfifo(f / "journal.sqlite-journal"), rebuilt=None, hangs=True
    ),
    "log a dangling symbolic link": Kind("storage", lambda f: _replace(f / FILES[1], "link")),
    "log index (-shm) a folder": Kind(
        "storage", lambda f: _replace(f / "journal.sqlite-shm", "folder"), rebuilt=None
    ),
    # ---- the owner's file of taught cards
    "owner's file truncated": Kind("owner file", _owner_truncated, rebuilt=False),
    "owner's file not UTF-8": Kind(
        "owner file", lambda f: _owner_file(f, b'[meta]\ngame = "\xff\xfe"\n'), rebuilt=False
    ),
    "owner's file out of bounds": Kind(
        "owner file",
        lambda f: _owner_file(
            f, b'[meta]\ngame = "pingwiny"\n\n[[figurant]]\nid = "becky"\nfamily.points = 1e308\n'
        ),
        says=None,
        rebuilt=False,
    ),
    "owner's file deeply nested": Kind(
        "owner file",
        lambda f: _owner_file(f, b"x = " + b"[" * 50_000 + b"]" * 50_000 + b"\n"),
        rebuilt=False,
    ),
    "owner's file a folder": Kind(
        "owner file", lambda f: (f / OWNER).mkdir(), says=None, rebuilt=False
    ),
    # ---- the statistics cache (derived data: rebuilt, a word on the panel optional)
    "statistics cache a folder": Kind("statistics", _stats_folder, says=None, rebuilt=False),
    "statistics cache random bytes": Kind(
        "statistics",
        lambda f: _stats_cache(f, data=random.Random(3).randbytes(9000)),
        says=None,
        rebuilt=False,
    ),
    "statistics cache from a newer version": Kind(
        "statistics", lambda f: _stats_cache(f, version=99), says=None, rebuilt=False
    ),
    # ---- done to a box that runs: it plays on, is killed, and starts again
    "journal deleted under a running box": Kind(
        "running box", running=_delete_journal, says=None, rebuilt=None
    ),
    "log deleted under a running box": Kind(
        "running box", running=_delete_log, says=None, rebuilt=None
    ),
    "state folder deleted under a running box": Kind(
        "running box", running=_delete_folder, says=None, rebuilt=None
    ),
}
