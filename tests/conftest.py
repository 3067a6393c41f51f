"""Fixtures shared by the whole suite."""

import logging

import pytest
from pins import mock_pins

from firmware_app.store.catalogue_files import load


def pytest_configure(config):
    config.addinivalue_line("markers", "guarded: the test makes the guard catch errors")


@pytest.fixture(autouse=True)
def bugs_still_fail(request):
    """The guard keeps the box running past a bug (``firmware_app/guard.py``); in the suite a
    bug must still fail its test, so a test in which the guard caught one fails, unless it is
    marked ``guarded`` (it is about the guard)."""
    caught: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = caught.append
    logger = logging.getLogger("tableside.guard")
    logger.addHandler(handler)
    yield
    logger.removeHandler(handler)
    if caught and request.node.get_closest_marker("guarded") is None:
        pytest.fail("\n".join(map(logging.Formatter().format, caught)))


@pytest.fixture(scope="session")
def demo():
    """The shipped printed data completed by the demo overlay (made-up values)."""
    return load([], demo=True)


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory as the default pin factory, for one test."""
    with mock_pins() as factory:
        yield factory
