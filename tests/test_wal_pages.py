"""The log walked as SQLite reads it, at both ends of the page sizes SQLite allows.

SQLite's pages are 512 to 65,536 bytes (its ``page_size`` pragma); a log of either size,
made by SQLite itself, is read through without a word, and the same log cut inside its
last frame is said to end in a frame cut short.
"""

import shutil
import sqlite3

import pytest

from firmware_app.store.wal import wal_problems


@pytest.mark.parametrize("page_size", [512, 65536])
def test_a_log_of_the_smallest_and_largest_pages_is_read_through(tmp_path, page_size):
    path = tmp_path / "pages.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA page_size = {page_size}")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    db.execute("CREATE TABLE t (x)")
    for n in range(3):
        db.execute("INSERT INTO t VALUES (?)", (n,))
    assert db.execute("PRAGMA page_size").fetchone() == (page_size,)
    log = tmp_path / "copy.sqlite-wal"
    shutil.copyfile(f"{path}-wal", log)  # as a power cut would leave it: not checkpointed
    db.close()
    assert log.stat().st_size > 32 + 24 + page_size  # the header and frames of these pages
    assert wal_problems(log) == []
    with log.open("r+b") as file:
        file.truncate(log.stat().st_size - 1)
    assert wal_problems(log) == ["the log copy.sqlite-wal ends in a frame cut short"]


def test_damage_inside_a_transaction_that_never_committed_loses_no_commit(tmp_path):
    """A power cut while a transaction's frames were written: its commit frame never came.
    Damage among those frames loses nothing that was committed, so nothing is said; the
    same damage with the commit frame there loses that commit."""
    path = tmp_path / "torn.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA page_size = 512")
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    db.execute("CREATE TABLE t (x)")
    before = (tmp_path / "torn.sqlite-wal").stat().st_size
    db.execute("INSERT INTO t VALUES (zeroblob(3000))")  # one transaction, several pages
    log = tmp_path / "copy.sqlite-wal"
    shutil.copyfile(f"{path}-wal", log)
    db.close()
    frame = 24 + 512
    assert (log.stat().st_size - before) // frame >= 4
    with log.open("r+b") as file:
        file.seek(before + 24 + 100)  # inside the transaction's first page
        file.write(b"\xff")
    damaged = (before - 32) // frame + 1  # the log's header is 32 bytes
    said = f"the log copy.sqlite-wal is damaged at frame {damaged}; commits follow it"
    assert wal_problems(log) == [said]
    with log.open("r+b") as file:
        file.truncate(log.stat().st_size - frame)  # the commit frame never written
    assert wal_problems(log) == []
