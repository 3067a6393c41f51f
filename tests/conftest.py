"""Fixtures shared by the whole suite."""

import pytest

from firmware_app.catalogue_files import load


@pytest.fixture(scope="session")
def demo():
    """The shipped printed data completed by the demo overlay (made-up values)."""
    return load([], demo=True)
