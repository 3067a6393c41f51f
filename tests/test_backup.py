"""Backup then restore gives the same state, on this box or on one that has never run; a
refused restore changes nothing."""

import hashlib
import json
import os
import pwd
import sqlite3
import sys
import zlib
from datetime import UTC, datetime

import pytest
from backup_helpers import TAUGHT, state, teach
from stats_helpers import known_games
from test_journal import VERSION_1

from firmware_app.cli.main import main
from firmware_app.store import catalogue_files
from firmware_app.store.bounds import PACKED_LIMIT
from firmware_app.store.journal import Journal
from firmware_app.store.swap import finish_restore
from firmware_app.transfer.box_backup import (
    ASIDE,
    CATALOGUE,
    JOURNAL,
    MANIFEST,
    POPIEL,
    BackupError,
    Held,
    check_backup,
    make_backup,
    open_backup,
    restore,
    snapshot,
)

NOW = 1_800_000_000.0


@pytest.fixture
def box(tmp_path):
    """A state folder with known games, a game in play, settings, tags and both owner's files."""
    folder = tmp_path / "state"
    folder.mkdir()
    with Journal(folder / JOURNAL) as journal:
        known_games(journal)
        game = journal.unfinished()
        journal.append(game, "draw")
        journal.set_setting("language", "pl")
        journal.set_setting("tags", {"04a1b2c3": "becky"})
    teach(folder / CATALOGUE)
    return folder


def test_a_backup_holds_every_owners_file_and_counts_every_game(box, tmp_path):
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    manifest = json.loads((made / MANIFEST).read_text())
    assert manifest["version"] == 2
    assert sorted(manifest["files"]) == sorted([CATALOGUE, POPIEL, JOURNAL])
    held = check_backup(made, box).held
    assert held == Held(finished=5, abandoned=1, unfinished=1)
    assert str(held) == "7 games: 5 finished, 1 abandoned, 1 unfinished"


def test_backup_then_restore_gives_the_same_state(box, tmp_path):
    before = state(box)
    assert before["taught"] == TAUGHT
    make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    with Journal(box / JOURNAL) as journal:  # the box moves on after the backup
        journal.set_setting("tags", {})
        journal.abandon(journal.unfinished(), now=NOW)
    catalogue_files.save_owner_card(box / CATALOGUE, {"id": "becky", "family": {"points": 9}})
    (box / POPIEL).unlink()  # its tower forgotten: the next game would ask again
    changed = state(box)
    assert changed["taught"]["becky"] == 9 and None in changed["taught"]["windows"].values()

    with open_backup(tmp_path / "stick") as found:
        backup = check_backup(found, box)
    aside = restore(backup, box / JOURNAL, box / CATALOGUE, NOW + 60)

    assert state(box) == before
    assert aside.name.startswith(ASIDE)  # kept, never deleted
    assert sorted(p.name for p in aside.iterdir()) == [CATALOGUE, JOURNAL]
    assert (aside / CATALOGUE).read_bytes() == changed["owner's files"][CATALOGUE]
    with Journal(box / JOURNAL) as journal:
        assert journal.get_setting("tags") == {"04a1b2c3": "becky"}
        assert journal.record(journal.unfinished())["actions"] == ["draw"]
        assert journal.check() == []


def test_a_restore_onto_a_box_that_has_never_run_makes_its_state_folder(box, tmp_path):
    before = state(box)
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    fresh = tmp_path / "new" / "state"
    assert restore(check_backup(made, box), fresh / JOURNAL, fresh / CATALOGUE, NOW) is None
    assert state(fresh) == before
    assert sorted(p.name for p in fresh.iterdir()) == sorted([CATALOGUE, POPIEL, JOURNAL])


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
    assert not (box / POPIEL).exists()
    kept = next(box.glob(ASIDE + "*"))
    assert sorted(p.name for p in kept.iterdir()) == sorted([CATALOGUE, POPIEL, JOURNAL])


def test_a_restore_cut_mid_swap_is_finished_at_the_next_start_with_every_owners_file(box, tmp_path):
    before = state(box)
    backup = check_backup(make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW), box)
    with Journal(box / JOURNAL) as journal:
        journal.set_setting("tags", {})
    catalogue_files.save_owner_card(box / CATALOGUE, {"id": "becky", "family": {"points": 9}})
    catalogue_files.save_popiel_owner(box / POPIEL, "windows", {"A": 5})
    pid = os.fork()
    if pid == 0:  # the child: cut at the first rename of the swap, the journal's

        def cut(event, args):
            if event == "os.rename" and str(args[0]).endswith(".restoring"):
                os._exit(0)

        sys.addaudithook(cut)
        try:
            restore(backup, box / JOURNAL, box / CATALOGUE, NOW)
        finally:
            os._exit(1)  # not cut: the test fails below
    assert os.waitpid(pid, 0)[1] == 0
    assert finish_restore(box / JOURNAL, box / CATALOGUE) is None  # the plan is trusted
    assert state(box) == before  # finished: all three files from the backup


def as_version_1(made) -> None:
    """The backup as an earlier version wrote it: no Król Popiel file, version 1."""
    manifest = json.loads((made / MANIFEST).read_text())
    del manifest["files"][POPIEL]
    (made / POPIEL).unlink()
    (made / MANIFEST).write_text(json.dumps(manifest | {"version": 1}))


def without_popiel(found: dict) -> dict:
    """``state`` without the Król Popiel file and what the box reads from it."""
    files = {k: v for k, v in found["owner's files"].items() if k != POPIEL}
    becky = found["taught"]["becky"]
    return found | {"owner's files": files, "taught": becky}


def test_a_version_1_backup_is_restored_and_leaves_the_krol_popiel_file(box, tmp_path):
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    as_version_1(made)
    before = state(box)
    with Journal(box / JOURNAL) as journal:
        journal.set_setting("tags", {})
    catalogue_files.save_owner_card(box / CATALOGUE, {"id": "becky", "family": {"points": 9}})
    catalogue_files.save_popiel_owner(box / POPIEL, "windows", {"A": 5})
    taught_since = (box / POPIEL).read_bytes()
    restore(check_backup(made, box), box / JOURNAL, box / CATALOGUE, NOW)
    assert without_popiel(state(box)) == without_popiel(before)  # the rest as backed up
    assert (box / POPIEL).read_bytes() == taught_since  # the backup knew nothing of it


def rewrite(made, name: str, data: bytes) -> None:
    """A backup's file replaced by ``data``, the manifest made to match it."""
    (made / name).write_bytes(data)
    manifest = json.loads((made / MANIFEST).read_text())
    manifest["files"][name] = {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
    (made / MANIFEST).write_text(json.dumps(manifest))


def damage_checksum(made):
    data = bytearray((made / JOURNAL).read_bytes())
    data[-1] ^= 1
    (made / JOURNAL).write_bytes(bytes(data))


def damage_pages(made):
    """A journal whose checksum matches but whose pages SQLite finds broken."""
    data = bytearray((made / JOURNAL).read_bytes())
    data[4096 + 8 : 4096 + 64] = b"\xff" * 56  # a b-tree page's header and cells
    rewrite(made, JOURNAL, bytes(data))


def not_a_journal(made):
    other = sqlite3.connect(":memory:")
    other.execute("CREATE TABLE t (x)")
    rewrite(made, JOURNAL, other.serialize())
    other.close()


def unknown_language(made):
    """A journal the box would never write: its settings name a language it does not know."""
    copy = made.parent / "copy.sqlite"
    copy.write_bytes((made / JOURNAL).read_bytes())
    with Journal(copy) as journal:
        journal.set_setting("language", "xx")
    rewrite(made, JOURNAL, snapshot(copy))


def a_card_refused(made):
    rewrite(made, CATALOGUE, b'[[figurant]]\nid = "becky"\nfamily.points = -4\n')


def grown_past_its_size(made):
    """A file larger than the manifest says: never read past that size."""
    with (made / POPIEL).open("ab") as file:
        file.write(b"# more\n")


def manifest_of(text: str, name: str | None = None):
    def damage(made):
        (made / MANIFEST).write_text(text)

    # A test's id of printable ASCII (no backslash) is the same in every run in one process.
    damage.__name__ = name or f"manifest {text[:30]!r}"
    return damage


def manifest_with(**changes):
    def damage(made):
        manifest = json.loads((made / MANIFEST).read_text()) | changes
        (made / MANIFEST).write_text(json.dumps(manifest))

    damage.__name__ = f"manifest with {sorted(changes)}"
    return damage


def listing(name: str, entry):
    def damage(made):
        manifest = json.loads((made / MANIFEST).read_text())
        manifest["files"][name] = entry
        (made / MANIFEST).write_text(json.dumps(manifest))

    damage.__name__ = f"{name} listed as {entry!r}"
    return damage


JOURNAL_ENTRY = {"sha256": "0" * 64, "bytes": 10}
DAMAGES = [
    damage_checksum, damage_pages, not_a_journal, unknown_language, a_card_refused,
    grown_past_its_size,
    manifest_of("[" * 30_000), manifest_of('{"format": "tableside-backup", "made": NaN}'),
    manifest_of("\xff\xfe not JSON", "manifest of y-diaeresis, thorn, not JSON"), manifest_of("[]"),
    manifest_with(format="another"), manifest_with(version=3), manifest_with(version=True),
    manifest_with(version="2"), manifest_with(made=1e300), manifest_with(made=-1),
    manifest_with(made="yesterday"), manifest_with(files=[]), manifest_with(files={}),
    listing("../../etc/passwd", JOURNAL_ENTRY), listing("config.toml", JOURNAL_ENTRY),
    listing(JOURNAL, {"sha256": "0" * 64, "bytes": 10**12}),
    listing(JOURNAL, {"sha256": "0" * 64, "bytes": -1}),
    listing(JOURNAL, {"sha256": "not hex", "bytes": 10}),
    listing(JOURNAL, {"sha256": "0" * 64, "bytes": 10, "run": "rm"}), listing(JOURNAL, None),
]  # fmt: skip


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda damage: damage.__name__)
def test_a_backup_that_fails_its_checks_changes_nothing(box, tmp_path, damage):
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    damage(made)
    before = state(box)
    with pytest.raises(BackupError):
        check_backup(made, box)
    assert state(box) == before
    assert sorted(p.name for p in box.iterdir()) == sorted([CATALOGUE, POPIEL, JOURNAL])


def test_an_unfinished_backup_is_not_found(box, tmp_path):
    made = make_backup(box / JOURNAL, None, tmp_path / "stick", NOW)
    newer = make_backup(box / JOURNAL, None, tmp_path / "stick", NOW)  # same second
    assert newer.name.endswith("-2")
    (newer / MANIFEST).unlink()  # the stick was pulled before the manifest
    with open_backup(tmp_path / "stick") as found:
        assert found.path == made
    with open_backup(made) as found:  # a backup named itself
        assert found.path == made
    assert open_backup(tmp_path / "elsewhere") is None


def test_the_command_line_backs_up_and_restores(box, tmp_path, capsys):
    before = state(box)
    assert main(["backup", "--state-dir", str(box), "--to", str(tmp_path / "stick")]) == 0
    out = capsys.readouterr().out
    assert "7 games: 5 finished, 1 abandoned, 1 unfinished" in out
    assert f"the owner's {CATALOGUE} and {POPIEL}" in out
    with Journal(box / JOURNAL) as journal:
        journal.set_setting("tags", {})
    changed = every_byte(box)
    refused = main(["restore", "--state-dir", str(box), "--from", str(tmp_path / "stick")])
    err = capsys.readouterr().err
    assert refused == 1 and "--yes" in err and str(box / POPIEL) in err
    # the backup named by when it was made, in UTC, to the minute, as its manifest says
    manifest = json.loads(next((tmp_path / "stick").rglob(MANIFEST)).read_text())
    made = datetime.fromtimestamp(manifest["made"], UTC).isoformat(" ", "minutes")
    assert f"(made {made.removesuffix('+00:00')} UTC, " in err
    assert every_byte(box) == changed  # unchanged by the refusal
    restored = ["restore", "--state-dir", str(box), "--from", str(tmp_path / "stick"), "--yes"]
    assert main(restored) == 0
    out = capsys.readouterr().out
    assert ASIDE in out and "7 games: 5 finished, 1 abandoned, 1 unfinished" in out
    assert state(box) == before


def test_the_command_line_restores_onto_a_box_that_has_never_run(box, tmp_path, capsys):
    before = state(box)
    assert main(["backup", "--state-dir", str(box), "--to", str(tmp_path / "stick")]) == 0
    fresh = tmp_path / "new" / "state"
    restored = ["restore", "--state-dir", str(fresh), "--from", str(tmp_path / "stick")]
    assert main(restored) == 1 and "would make" in capsys.readouterr().err
    assert not fresh.exists()  # a refusal makes nothing
    assert main([*restored, "--yes"]) == 0
    assert "nothing was there before" in capsys.readouterr().out
    assert state(fresh) == before
    assert before["taught"] == TAUGHT


def test_the_command_line_says_when_there_is_no_backup(box, tmp_path, capsys):
    assert main(["restore", "--state-dir", str(box), "--from", str(tmp_path), "--yes"]) == 1
    assert "no finished backup" in capsys.readouterr().err
    assert main(["backup", "--state-dir", str(tmp_path / "none"), "--to", str(tmp_path)]) == 1
    assert "no journal there, nothing to back up" in capsys.readouterr().err


def test_the_command_line_refuses_a_backup_whose_journal_is_a_link(box, tmp_path, capsys):
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    other = tmp_path / "other.sqlite"
    os.replace(made / JOURNAL, other)
    (made / JOURNAL).symlink_to(other)  # the same bytes, through a link: refused
    before = state(box)
    restored = ["restore", "--state-dir", str(box), "--from", str(made), "--yes"]
    assert main(restored) == 1
    err = capsys.readouterr().err
    assert "is not a plain file" in err and "nothing was changed" in err
    assert state(box) == before


@pytest.mark.skipif(os.geteuid() != 0, reason="giving files to another user needs root")
def test_a_restore_run_as_root_leaves_the_files_to_the_journals_owner(box, tmp_path):
    nobody = pwd.getpwnam("nobody")
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    os.chown(box / JOURNAL, nobody.pw_uid, nobody.pw_gid)
    aside = restore(check_backup(made, box), box / JOURNAL, box / CATALOGUE, NOW)
    for path in (aside, aside / JOURNAL, aside / CATALOGUE, box / CATALOGUE, box / JOURNAL):
        assert path.stat().st_uid == nobody.pw_uid, path
    assert (box / POPIEL).stat().st_uid == nobody.pw_uid


# ------------------------------------------------- what a hostile journal holds


def in_journal(made, *statements) -> None:
    """The backup's journal changed by SQL (a statement, or one with its parameters), the
    manifest made to match: a backup only the check can refuse."""
    copy = made.parent / "hostile.sqlite"
    copy.write_bytes((made / JOURNAL).read_bytes())
    db = sqlite3.connect(copy)
    with db:
        for statement in statements:
            db.execute(*((statement,) if isinstance(statement, str) else statement))
    db.close()
    rewrite(made, JOURNAL, copy.read_bytes())
    copy.unlink()


def every_byte(folder) -> dict:
    """Every file under ``folder`` and its bytes: a refused restore changes none, adds none."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def restore_refused(box, made, capsys) -> list[str]:
    """``tableside restore --yes`` of ``made``: refused (exit 1), nothing changed in the
    state folder; what it told, a line a problem, without the backup's name."""
    before = every_byte(box)
    argv = ["restore", "--state-dir", str(box), "--from", str(made), "--yes"]
    assert main(argv) == 1
    assert every_byte(box) == before
    told = capsys.readouterr().err.splitlines()
    assert told[-1].endswith("; nothing was changed")
    prefix = f"tableside: {made}: "
    assert all(line.startswith(prefix) for line in told), told
    return [line.removeprefix(prefix).removesuffix("; nothing was changed") for line in told]


SLOW = """WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000000)
    SELECT count(*) FROM c"""
BOMB = zlib.compress(b'["' + b"a" * (PACKED_LIMIT + 1) + b'"]', 9)  # a few kilobytes
# Each kind of hostile journal: what is done to it, and the lines the restore tells.
HOSTILE = {
    "a trigger deleting the history at the next game": (
        ["CREATE TRIGGER wipe AFTER INSERT ON games BEGIN DELETE FROM games; END"],
        ["journal.sqlite: holds a trigger 'wipe' the box never makes"],
    ),
    "a trigger counting to three billion at each new game": (
        [f"CREATE TRIGGER slow BEFORE INSERT ON games BEGIN {SLOW}; END"],
        ["journal.sqlite: holds a trigger 'slow' the box never makes"],
    ),
    "triggers refusing every setting": (
        [
            "CREATE TRIGGER no BEFORE INSERT ON settings BEGIN SELECT RAISE(ABORT, 'no'); END",
            "CREATE TRIGGER nor BEFORE UPDATE ON settings BEGIN SELECT RAISE(ABORT, 'no'); END",
        ],
        [
            "journal.sqlite: holds a trigger 'no' the box never makes",
            "journal.sqlite: holds a trigger 'nor' the box never makes",
        ],
    ),
    "a table of its own, filled": (
        ["CREATE TABLE evil (x)", "INSERT INTO evil VALUES (zeroblob(100000))"],
        ["journal.sqlite: holds a table 'evil' the box never makes"],
    ),
    "a view and an index of its own": (
        ["CREATE VIEW v AS SELECT 1", "CREATE INDEX slow ON actions (notation)"],
        [
            "journal.sqlite: holds a view 'v' the box never makes",
            "journal.sqlite: holds an index 'slow' the box never makes",
        ],
    ),
    "the games table made otherwise, an index of the box's gone": (
        ["ALTER TABLE games ADD COLUMN evil", "DROP INDEX games_unsealed"],
        [
            "journal.sqlite: its table 'games' is not the one the box makes",
            "journal.sqlite: lacks the index 'games_unsealed' the box makes",
        ],
    ),
    "the query planner's statistics": (
        ["ANALYZE"],
        ["journal.sqlite: holds a table 'sqlite_stat1' the box never makes"],
    ),
    "a catalogue of malformed JSON": (
        ["UPDATE catalogues SET body = '{\"a\":' WHERE hash = (SELECT min(hash) FROM catalogues)"],
        ["catalogue {}: not JSON: line 1 column 6: Expecting value"],
    ),
    "a catalogue nested 2,500 deep": (
        [
            """UPDATE catalogues SET body = '{"a":' || replace(hex(zeroblob(2500)), '00', '[')
                || replace(hex(zeroblob(2500)), '00', ']') || '}'
            WHERE hash = (SELECT min(hash) FROM catalogues)"""
        ],
        ["catalogue {}: nested 2,501 levels deep; at most 32 are read"],
    ),
    "a catalogue not under its SHA-256": (
        ["UPDATE catalogues SET body = '{}' WHERE hash = (SELECT min(hash) FROM catalogues)"],
        ["catalogue {}: not kept under the SHA-256 of its text"],
    ),
    "a header's catalogue 500 deep": (
        [
            """UPDATE games SET header = json_set(header, '$.catalogue', json('{"meta":'
                || replace(hex(zeroblob(500)), '00', '[') || replace(hex(zeroblob(500)), '00', ']')
                || '}')) WHERE id = 7"""
        ],
        ["game 7: its header: nested 502 levels deep; at most 32 are read"],
    ),
    "a header's catalogue holding 1e999": (
        ["""UPDATE games SET header = json_set(header, '$.catalogue', json('{"x": 1e999}'))
            WHERE id = 7"""],
        ["game 7: its header: inf is not a number the box takes (only finite ones)"],
    ),
    "an action of an escape and 4 KB": (
        ["UPDATE actions SET notation = char(27) || '[2J' || hex(zeroblob(2000))"],
        ["game 7: action 1: an action is one line of at most 200 printable characters, "
         f"not {chr(27) + '[2J' + '0' * 4000!r:.40}"],
    ),
    "packed actions that unpack to megabytes": (
        [("UPDATE games SET packed = ? WHERE id = 1", (BOMB,))],
        [f"game 1: its packed actions: more than the {PACKED_LIMIT:,} bytes a game's actions "
         "take, or cut short"],
    ),
    "another program's SQLite file": (
        ["PRAGMA application_id = 1179210568"],
        ["journal.sqlite: an SQLite file, but not a Tableside journal"],
    ),
    "a schema from a later version": (
        ["PRAGMA user_version = 99"],
        ["journal.sqlite: journal schema 99; this version reads 1 to 3"],  # docs/journal.md
    ),
    "thirty actions out of bounds": (
        [f"INSERT INTO actions VALUES (7, {seq}, '{chr(7)}', 0)" for seq in range(2, 32)],
        [f"game 7: action {seq}: an action is one line of at most 200 printable characters, "
         "not '\\x07'" for seq in range(2, 22)] + ["and 10 more problems"],  # the first 20
    ),
}  # fmt: skip


@pytest.mark.parametrize("kind", HOSTILE)
def test_a_hostile_journal_is_refused_a_line_a_problem_and_changes_nothing(
    box, tmp_path, capsys, kind
):
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    first = sqlite3.connect(made / JOURNAL).execute("SELECT min(hash) FROM catalogues")
    catalogue = ascii(first.fetchone()[0][:12])
    statements, lines = HOSTILE[kind]
    in_journal(made, *statements)
    assert restore_refused(box, made, capsys) == [line.replace("{}", catalogue) for line in lines]


def test_a_backup_that_passes_every_check_is_still_restored(box, tmp_path, capsys):
    before = state(box)
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    with Journal(box / JOURNAL) as journal:
        journal.set_setting("tags", {})
    assert main(["restore", "--state-dir", str(box), "--from", str(made), "--yes"]) == 0
    assert state(box) == before
    assert not list(box.glob(".restore-*"))  # the check's scratch files are gone


# ------------------------------------------------------------ an older journal


def as_schema_1(made) -> None:
    """The backup's journal as Tableside kept it at schema 1: its first tables, each game's
    header holding its catalogue, its actions one a row."""
    current = made.parent / "current.sqlite"
    current.write_bytes((made / JOURNAL).read_bytes())
    older = made.parent / "schema-1.sqlite"
    db = sqlite3.connect(older)
    db.executescript(VERSION_1)
    with Journal(current) as journal, db:
        rows = journal.row  # every column of a game, as stored
        for game in range(1, journal.newest_id() + 1):
            record, row = journal.record(game), rows(game)
            actions = record.pop("actions")
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)",
                (game, json.dumps(record), row["started"], row["ended"], row["outcome"],
                 row["summary"]),
            )  # fmt: skip
            db.executemany(
                "INSERT INTO actions VALUES (?, ?, ?, 0)",
                [(game, seq, action) for seq, action in enumerate(actions, start=1)],
            )
        db.executemany("INSERT INTO settings VALUES (?, ?)", journal.setting_texts().items())
    db.close()
    rewrite(made, JOURNAL, older.read_bytes())


def games_of(folder) -> dict:
    with Journal(folder / JOURNAL) as journal:
        games = range(1, journal.newest_id() + 1)
        return {
            "records": [journal.record(game) for game in games],
            "ended": [(game.id, game.outcome, game.summary) for game in journal.ended_games()],
            "unfinished": [game.id for game in journal.unfinished_games()],
            "settings": journal.setting_texts(),
            "schema": journal.storage()["schema"],
        }


def test_a_backup_of_an_older_schema_is_migrated_checked_and_restored(box, tmp_path, capsys):
    before = games_of(box)
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    as_schema_1(made)
    with Journal(box / JOURNAL) as journal:
        journal.abandon(journal.unfinished(), now=NOW)
    fresh = tmp_path / "new"
    for state_dir in (box, fresh):  # onto this box, and onto one that has never run
        argv = ["restore", "--state-dir", str(state_dir), "--from", str(made), "--yes"]
        assert main(argv) == 0
        assert "7 games: 5 finished, 1 abandoned, 1 unfinished" in capsys.readouterr().out
        assert games_of(state_dir) == before
    assert before["schema"] == 3


@pytest.mark.parametrize(
    ("statement", "line"),
    [
        # had the migration run first, its update would have run this: "cannot write: ran"
        ("CREATE TRIGGER ran BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'ran'); END",
         "journal.sqlite: holds a trigger 'ran' the box never makes"),
        ("ALTER TABLE games ADD COLUMN played REAL",
         "journal.sqlite: cannot write: duplicate column name: played"),
        ("CREATE TABLE evil (x)", "journal.sqlite: holds a table 'evil' the box never makes"),
    ],
)  # fmt: skip
def test_an_older_journal_with_more_than_its_schema_is_refused(box, tmp_path, capsys, statement,
                                                               line):  # fmt: skip
    """A trigger is refused before the migration, which writes, could run it; the rest of the
    schema once migrated, compared whole."""
    made = make_backup(box / JOURNAL, box / CATALOGUE, tmp_path / "stick", NOW)
    as_schema_1(made)
    in_journal(made, statement)
    assert restore_refused(box, made, capsys) == [line]
