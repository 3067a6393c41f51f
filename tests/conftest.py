"""Fixtures shared by the whole suite."""

import logging
import os
import tempfile
import threading
from pathlib import Path
from string import Formatter

import pytest
from calls import noted_calls
from log_lines import LEVELS, documented
from pins import mock_pins

from firmware_app.app import App
from firmware_app.store.catalogue_files import load
from firmware_app.words.i18n import Translator, translations
from rules.errors import RulesError
from rules.messages import MESSAGES

# Files whose tests the workers of a parallel run share out one by one: long files of whole
# games, each test on its own files (tmp_path) and holding nothing at the module's level.
SPREAD = {
    "test_advanced_app.py",
    "test_demo_names.py",
    "test_game_end_counts.py",
    "test_plain_words.py",
    "test_printed_box_cards.py",
    "test_printed_box_screens.py",
    "test_screens_fit.py",
    "test_teaching.py",
    "test_virtual_app.py",
}
# The states a virtual player's move spends in the app's tests: a few. Their strength is
# measured with the levels' budgets by benchmarks/players.py; the tests marked
# ``full_thinking`` have those budgets too.
BRIEF_THINKING = 40
# Files whose one long module fixture starts the run, on the first worker, while the other
# works through the rest: ``test_power_cut.py`` kills the daemon 200 times (about a minute).
FIRST = ("tests/test_power_cut.py",)
# Linux's memory file system: what the tests write goes there (``_files_in_memory``).
MEMORY = Path("/dev/shm")


def pytest_configure(config):
    _files_in_memory(config)
    config.addinivalue_line("markers", "guarded: the test makes the guard catch errors")
    config.addinivalue_line("markers", "unmutated: the test reads the code, not only runs it")
    config.addinivalue_line(
        "markers", "full_thinking: virtual players think for their levels' budgets"
    )
    config.addinivalue_line(
        "markers", "whole_game: plays whole games or cuts the power; a quick sample leaves it out"
    )


def _files_in_memory(config) -> None:
    """The files the tests write (``tmp_path``, the temporary files of the code and of the
    processes a test starts) go to the memory file system ``MEMORY`` where the machine has
    one, unless ``TMPDIR`` or ``--basetemp`` names a place. A test's journal commits hundreds
    of times, and on a disk each commit waits for its sync; no test can see whether a sync
    reached the disk (a kill leaves the kernel's pages whole; the power cuts' docstring says
    which half is tested where). The workers of a parallel run inherit the setting."""
    if hasattr(config, "workerinput") or config.option.basetemp or "TMPDIR" in os.environ:
        return
    if os.access(MEMORY, os.W_OK | os.X_OK):
        os.environ["TMPDIR"] = str(MEMORY)
        tempfile.tempdir = None  # read TMPDIR again


def pytest_collection_modifyitems(config, items):
    """A test that holds the code itself (its text for the linters and the extraction of the
    words, the files the wheel is built from, what a start imports) would read mutmut's
    rewritten copy in a mutation run: there it is skipped (``MUTANT_UNDER_TEST`` is set)."""
    if "MUTANT_UNDER_TEST" not in os.environ:
        return
    skip = pytest.mark.skip(reason="a mutation run rewrites the code this test reads")
    for item in items:
        if item.get_closest_marker("unmutated"):
            item.add_marker(skip)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """In parallel (``-n auto``), one worker runs each file's tests in order (a module-scoped
    fixture is built once, a module's tally sees every case), except the files of ``SPREAD``,
    whose tests go to whichever worker is free. The files of ``FIRST`` go first, then the
    files with the most tests."""
    if config.getvalue("dist") != "load":  # a ``--dist`` other than -n's own
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByFile(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return nodeid if path.rpartition("/")[2] in SPREAD else path

        def _assign_work_unit(self, node) -> None:
            for scope in reversed(FIRST):
                if scope in self.workqueue:
                    self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return ByFile(config, log)


@pytest.fixture(autouse=True, scope="session")
def temporary_folders_in_the_runs_own(tmp_path_factory):
    """What the code makes in the system's temporary folder (a read-only journal's copy, a
    headless run's state) lands in this run's folder, which pytest clears in later runs, not
    in /tmp. A test that needs a folder every user can pass through names /tmp itself."""
    before = tempfile.tempdir
    tempfile.tempdir = str(tmp_path_factory.mktemp("tempfile"))
    yield
    tempfile.tempdir = before


@pytest.fixture(autouse=True, scope="session")
def virtual_players_think_briefly():
    """``BRIEF_THINKING`` for every move, from the session's start: module fixtures that play
    whole games think briefly too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(App, "think_nodes", BRIEF_THINKING)
        yield


@pytest.fixture(autouse=True)
def full_thinking(request, monkeypatch):
    """The levels' own budgets in a test marked ``full_thinking``."""
    if request.node.get_closest_marker("full_thinking"):
        monkeypatch.setattr(App, "think_nodes", None)


@pytest.fixture(autouse=True)
def bugs_still_fail(request):
    """The guard keeps the box running past a bug (``firmware_app/guard.py``); in the suite a
    bug must still fail its test, so a test in which the guard caught one fails, unless it is
    marked ``guarded`` (it is about the guard). It fails there and then, with the bug's
    traceback: a test that played on would go round the guard's notice and the home menu for
    ever, a game begun again at each failure (pytest's ``Failed`` is no ``Exception``: the
    guard lets it through). Caught in a thread of the box, or in a process the test forked,
    it fails the test at its end, if at all: raised there, it would stop a thread or a child
    that the test waits for."""
    caught: list[logging.LogRecord] = []
    guarded = request.node.get_closest_marker("guarded") is not None
    test = os.getpid(), threading.main_thread()

    def emit(record: logging.LogRecord) -> None:
        caught.append(record)
        if not guarded and (os.getpid(), threading.current_thread()) == test:
            pytest.fail(logging.Formatter().format(record))

    handler = logging.Handler(logging.ERROR)
    handler.emit = emit
    logger = logging.getLogger("tableside.guard")
    logger.addHandler(handler)
    yield
    logger.removeHandler(handler)
    if caught and not guarded:
        pytest.fail("\n".join(map(logging.Formatter().format, caught)))


@pytest.fixture(autouse=True)
def every_refusal_has_its_words(monkeypatch):
    """Each refusal the engine raises in a test names a key that ``rules.messages`` words in
    both languages, and its values fill the words of both: a key without words would reach
    the panel as itself, a value missing as "None". A test that checks only the kind of a
    refusal checks its words this way too. "None" typed as the action itself (a verb, say)
    is what the player wrote, and the words repeat it."""
    raised = noted_calls(monkeypatch, RulesError, "__init__")
    yield
    wordless = sorted({c.first for c in raised if set(MESSAGES.get(c.first, ())) != {"en", "pl"}})
    assert wordless == [], f"refusal keys without words in English and Polish: {wordless}"
    for call in raised:
        typed = any(isinstance(v, str) and "None" in v for v in call.self.params.values())
        for language in ("en", "pl"):
            said = call.self.text(language)
            assert typed or "None" not in said, f"{call.first} {call.self.params}: {said}"


@pytest.fixture(autouse=True)
def every_text_shown_is_translated(monkeypatch):
    """Each text a screen asks the translator for, in a test, is in the Polish catalogue, and
    no value it is given shows as "None" or is left out (its ``{name}`` still showing): the
    check of the catalogue (``i18n_extract --check``) reads the literal texts of the code,
    this one the texts a running box asks for, looked up in tables or put together, and what
    they say once filled."""
    asked = noted_calls(monkeypatch, Translator, "__call__")
    counted = noted_calls(monkeypatch, Translator, "plural")
    yield
    polish = translations("pl")
    known = polish.catalogue.keys() | polish.plurals.keys()
    missing = sorted(
        {
            repr(c.first)
            for c in asked + counted
            if not isinstance(c.first, str) or c.first not in known
        }
    )
    assert missing == [], f"texts not in the Polish catalogue: {missing}"
    unfilled = sorted({c.result for c in asked + counted if "None" in c.result or _unfilled(c)})
    assert unfilled == [], f"texts showing a missing value: {unfilled}"


def _unfilled(call) -> bool:
    """A value the text names that its call did not give: ``{minutes}`` still in the text."""
    fields = (name for _, name, _, _ in Formatter().parse(call.first) if name)
    return any(f"{{{name}}}" in call.result for name in fields)


@pytest.fixture(autouse=True)
def every_log_line_is_documented(monkeypatch):
    """Each line a test makes the box write to its log, at any level, is one docs/log.md
    lists under its logger, and its values fill it (``%d`` given a number, each ``%s`` a
    value, none shown as "None"): the page is what an engineer reads the log by. Noted as
    the code asks, before the level is looked at."""
    calls = [noted_calls(monkeypatch, logging.Logger, level) for level in LEVELS]
    yield
    asked = [c for noted in calls for c in noted if c.self.name.startswith("tableside")]
    missing = sorted({(c.self.name, c.first) for c in asked} - documented())
    assert missing == [], f"log lines not in docs/log.md: {missing}"
    said = [_log_line(c) for c in asked]
    unfilled = [line for line in said if "None" in line]
    assert unfilled == [], f"log lines showing a missing value: {unfilled}"


def _log_line(call) -> str:
    """The line as the log shows it, its values put in as logging puts them; a ``%s`` given
    no value fails here (logging would write the line unfilled, or a traceback beside it)."""
    if not call.args:
        return call.first % ()
    return logging.LogRecord("", logging.INFO, "", 0, call.first, call.args, None).getMessage()


@pytest.fixture(scope="session")
def demo():
    """The shipped printed data completed by the demo overlay (made-up values)."""
    return load([], demo=True)


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory as the default pin factory, for one test."""
    with mock_pins() as factory:
        yield factory
