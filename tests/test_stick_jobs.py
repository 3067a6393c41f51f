"""The stick's work beside the main loop (``firmware_app/transfer/stick.py``), one job at a
time: what it writes, what it finds, what it logs, and that it never holds the box up."""

import logging
import subprocess
import sys
import time

import pytest
from stick_helpers import box_with_games

import firmware_app.store.journal
from firmware_app.transfer import stick
from firmware_app.transfer.box_backup import SHELF, BackupError
from firmware_app.transfer.stick_port import StickPort


@pytest.fixture
def box(tmp_path):
    sim = box_with_games(tmp_path / "state")
    yield sim
    sim.close()


@pytest.fixture
def port(tmp_path):
    port = StickPort(tmp_path / "run")
    port.mount.mkdir(parents=True)
    return port


def test_a_visit_writes_every_ended_game_and_says_so_in_the_log(box, port, caplog):
    caplog.set_level(logging.INFO, "tableside.stick")
    visit = stick.visit(box.journal.path, port)
    records = sorted(p.name for p in port.folder.glob("game-*"))
    assert visit.written == len(records) > 0
    assert [r.getMessage() for r in caplog.records] == [
        f"{visit.written} game(s) and the statistics written to {port.folder}"
    ]


def test_a_stick_without_a_folder_of_backups_holds_none(box, port):
    assert stick.visit(box.journal.path, port) == stick.Visit(len(_records(port)), False, None)


def test_an_empty_folder_of_backups_is_found_with_no_newest(box, port):
    (port.folder / SHELF).mkdir(parents=True)
    visit = stick.visit(box.journal.path, port)
    assert (visit.backups, visit.newest) == (True, None)


def test_a_backup_goes_only_into_a_folder_the_stick_already_has(box, port):
    """Backing up is offered for a stick that holds a folder of backups: the job makes none."""
    with pytest.raises(FileNotFoundError):
        stick.back_up(box.journal.path, None, port, 0.0)
    assert not port.folder.exists()


def test_the_stick_reads_the_journal_read_only(box, port, monkeypatch):
    """The main loop alone writes the journal; the stick's thread opens its own connection,
    and a read-only one cannot take the write lock from under the loop."""
    opened = []
    journal_class = firmware_app.store.journal.Journal

    class Watched(journal_class):
        def __init__(self, path, **options) -> None:
            opened.append(options.get("read_only", False))
            super().__init__(path, **options)

    monkeypatch.setattr(firmware_app.store.journal, "Journal", Watched)
    stick.write_stick_results(box.journal.path, port.folder)
    assert opened == [True]


def test_a_jobs_expected_failure_is_logged_in_one_line(caplog):
    job = stick.Job(lambda: _raise(OSError(28, "No space left on device")))
    _wait(job)
    assert isinstance(job.error, OSError) and job.result is None
    [record] = caplog.records
    assert record.levelno == logging.ERROR
    assert logging.Formatter().format(record) == "USB stick: [Errno 28] No space left on device"


@pytest.mark.parametrize("error", [OSError(5, "I/O error"), BackupError("not a backup")])
def test_every_failure_of_the_stick_itself_is_one_line(error, caplog):
    _wait(stick.Job(lambda: _raise(error)))
    assert [logging.Formatter().format(r) for r in caplog.records] == [f"USB stick: {error}"]


def test_a_bug_in_a_job_is_logged_with_its_traceback(caplog):
    job = stick.Job(lambda: _raise(KeyError("bug")))
    _wait(job)
    [record] = caplog.records
    text = logging.Formatter().format(record)
    assert text.startswith("USB stick: 'bug'\nTraceback") and text.endswith("KeyError: 'bug'")


def test_a_job_that_succeeds_keeps_its_result_and_logs_nothing(caplog):
    job = stick.Job(lambda: 42)
    _wait(job)
    assert (job.result, job.error, caplog.records) == (42, None, [])


def test_a_job_never_holds_up_the_daemons_exit():
    """A stick that stops answering leaves its job waiting: the daemon still stops."""
    code = (
        "import threading\n"
        "from firmware_app.transfer.stick import Job\n"
        "job = Job(threading.Event().wait)\n"
        "print('left', job.done)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout) == (0, "left False\n")


def test_a_jobs_thread_is_one_the_interpreter_does_not_wait_for():
    """The promise above, in this process (where the mapping of tests to code sees it): the
    job's thread is a daemon thread, which the interpreter leaves behind at exit."""
    import threading

    before, release = set(threading.enumerate()), threading.Event()
    job = stick.Job(release.wait)
    [thread] = [t for t in set(threading.enumerate()) - before if t.name == "stick"]
    assert thread.daemon and not job.done
    release.set()
    thread.join(5)
    assert job.done and job.error is None


def _records(port):
    return sorted(port.folder.glob("game-*"))


def _raise(error: Exception):
    raise error


def _wait(job: stick.Job) -> None:
    while not job.done:
        time.sleep(0.01)
