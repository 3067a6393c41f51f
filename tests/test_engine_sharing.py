"""What the engines share between states and steps to keep a step cheap.

A state's ``copy`` names its fields one by one (faster than a loop over the slots), so
a field added to ``__slots__`` and forgotten there would be lost by every step: these
tests give every slot a value of its own and check the copy has each. ``listed``
actions are made once and shared: equal to a new ``Action``, and the same object.
"""

import pytest

from rules.actions import Action, listed
from rules.pingwiny.advanced_state import AdvancedState
from rules.pingwiny.state import State


@pytest.mark.parametrize("kind", [State, AdvancedState])
def test_a_copy_keeps_every_slot(kind):
    state = kind.__new__(kind)
    values = {name: object() for name in kind.__slots__}
    for name, value in values.items():
        setattr(state, name, value)
    copied = state.copy()
    assert copied is not state
    assert {name: getattr(copied, name) for name in kind.__slots__} == values


def test_a_listed_action_is_the_action_made_once():
    first = listed("move", "chimp")
    assert first == Action("move", "chimp") and type(first) is Action
    assert listed("move", "chimp") is first
    assert str(listed("visit", "hq", "becky", "grey=yellow")) == "visit hq becky grey=yellow"
