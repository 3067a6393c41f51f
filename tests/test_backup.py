"""Backup then restore gives the same state; a refused restore changes nothing."""

import hashlib
import json
import os
import pwd
import sqlite3

import pytest
from stats_helpers import known_games

from firmware_app.cli.main import main
from firmware_app.store.journal import Journal
from firmware_app.transfer.box_backup import (
    ASIDE,
    CATALOGUE,
    JOURNAL,
    MANIFEST,
    BackupError,
    check_backup,
    find_backup,
    make_backup,
    restore,
)

NOW = 1_800_000_000.0


def state(folder) -> dict:
    """Everything a restore must bring back: games, actions, settings (tags too), the catalogue."""
    db = sqlite3.connect(folder / JOURNAL)
    try:
        tables = {
            table: db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("games", "actions", "settings")
        }
    finally:
        db.close()
    catalogue = folder / CATALOGUE
    return tables | {"catalogue": catalogue.read_bytes() if catalogue.exists() else None}


@pytest.fixture
def box(tmp_path):
    """A state folder with known games, a game in play, settings, tags and an owner's file."""
    folder = tmp_path / "state"
    folder.mkdir()
    with Journal(folder / JOURNAL) as journal:
        known_games(journal)
        game = journal.unfinished()
        journal.append(game, "draw")
        journal.set_setting("language", "pl")
        journal.set_setting("tags", {"04a1b2c3": "penguin:rico"})
    (folder / CATALOGUE).write_text('[cards]\nnote = "owner"\n', encoding="utf-8")
    return folder


def test_backup_then_restore_gives_the_same_state(box, tmp_path):
    before = state(box)
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    assert check_backup(made, box).games == 6  # five finished, one abandoned
    with Journal(box / JOURNAL) as journal:  # the box moves on after the backup
        journal.set_setting("tags", {})
        journal.abandon(journal.unfinished(), now=NOW)
    (box / CATALOGUE).write_text("changed = true\n", encoding="utf-8")
    changed = state(box)

    backup = check_backup(find_backup(tmp_path / "stick"), box)
    aside = restore(backup, box / JOURNAL, box / CATALOGUE, NOW + 60)

    assert state(box) == before
    assert aside.name.startswith(ASIDE) and state(aside) == changed  # kept, never deleted
    with Journal(box / JOURNAL) as journal:
        assert journal.get_setting("tags") == {"04a1b2c3": "penguin:rico"}
        assert journal.record(journal.unfinished())["actions"] == ["draw"]
        assert journal.check() == []


def test_a_restore_into_an_open_journal_is_seen_by_it(box, tmp_path):
    """The daemon's journal is opened again on the restored file: it reads the new state
    at once, takes writes, and does not take the swap for a journal replaced under it."""
    made = make_backup(box / JOURNAL, None, tmp_path / "stick", NOW)
    with Journal(box / JOURNAL) as journal:
        journal.set_setting("language", "en")
        restore(check_backup(made, box), box / JOURNAL, box / CATALOGUE, NOW, live=journal)
        assert journal.get_setting("language") == "pl"
        journal.set_setting("contrast", 9)  # and it can still write
        assert not journal.replaced()
    assert not (box / CATALOGUE).exists()  # the backup had no owner's file: kept aside only
    assert (next(box.glob(ASIDE + "*")) / CATALOGUE).exists()


def rewrite(made, data: bytes) -> None:
    """The backup's journal replaced by ``data``, the manifest made to match it."""
    (made / JOURNAL).write_bytes(data)
    manifest = json.loads((made / MANIFEST).read_text())
    manifest["files"][JOURNAL] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    (made / MANIFEST).write_text(json.dumps(manifest))


def damage_checksum(made):
    data = bytearray((made / JOURNAL).read_bytes())
    data[-1] ^= 1
    (made / JOURNAL).write_bytes(bytes(data))


def damage_pages(made):
    """A journal whose checksum matches but whose pages SQLite finds broken."""
    data = bytearray((made / JOURNAL).read_bytes())
    data[4096 + 8 : 4096 + 64] = b"\xff" * 56  # a b-tree page's header and cells
    rewrite(made, bytes(data))


def not_a_journal(made):
    other = sqlite3.connect(":memory:")
    other.execute("CREATE TABLE t (x)")
    rewrite(made, other.serialize())
    other.close()


@pytest.mark.parametrize("damage", [damage_checksum, damage_pages, not_a_journal])
def test_a_backup_that_fails_its_checks_changes_nothing(box, tmp_path, damage):
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    damage(made)
    before = state(box)
    with pytest.raises(BackupError):
        check_backup(made, box)
    assert state(box) == before
    assert sorted(p.name for p in box.iterdir()) == [CATALOGUE, JOURNAL]  # no leftovers


def test_an_unfinished_backup_is_not_found(box, tmp_path):
    made = make_backup(box / JOURNAL, None, tmp_path / "stick", NOW)
    newer = make_backup(box / JOURNAL, None, tmp_path / "stick", NOW)  # same second
    assert newer.name.endswith("-2")
    (newer / MANIFEST).unlink()  # the stick was pulled before the manifest
    assert find_backup(tmp_path / "stick") == made
    assert find_backup(tmp_path / "elsewhere") is None


def test_the_command_line_backs_up_and_restores(box, tmp_path, capsys):
    before = state(box)
    assert main(["backup", "--state-dir", str(box), "--to", str(tmp_path / "stick")]) == 0
    assert "6 game(s)" in capsys.readouterr().out
    with Journal(box / JOURNAL) as journal:
        journal.set_setting("tags", {})
    refused = main(["restore", "--state-dir", str(box), "--from", str(tmp_path / "stick")])
    assert refused == 1 and "--yes" in capsys.readouterr().err
    assert state(box)["settings"] != before["settings"]  # unchanged by the refusal
    restored = ["restore", "--state-dir", str(box), "--from", str(tmp_path / "stick"), "--yes"]
    assert main(restored) == 0
    out = capsys.readouterr().out
    assert ASIDE in out and state(box) == before


def test_the_command_line_says_when_there_is_no_backup(box, tmp_path, capsys):
    assert main(["restore", "--state-dir", str(box), "--from", str(tmp_path), "--yes"]) == 1
    assert "no finished backup" in capsys.readouterr().err


@pytest.mark.skipif(os.geteuid() != 0, reason="giving files to another user needs root")
def test_a_restore_run_as_root_leaves_the_files_to_the_journals_owner(box, tmp_path):
    nobody = pwd.getpwnam("nobody")
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    os.chown(box / JOURNAL, nobody.pw_uid, nobody.pw_gid)
    aside = restore(check_backup(made, box), box / JOURNAL, box / CATALOGUE, NOW)
    for path in (aside, aside / JOURNAL, aside / CATALOGUE, box / CATALOGUE, box / JOURNAL):
        assert path.stat().st_uid == nobody.pw_uid, path
