"""Fixtures shared by the whole suite."""

import pytest
from pins import mock_pins

from firmware_app.store.catalogue_files import load


@pytest.fixture(scope="session")
def demo():
    """The shipped printed data completed by the demo overlay (made-up values)."""
    return load([], demo=True)


@pytest.fixture
def mock_factory():
    """gpiozero's MockFactory as the default pin factory, for one test."""
    with mock_pins() as factory:
        yield factory
