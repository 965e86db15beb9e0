"""The dir at each turn's start, kept as the first turn's dir and what each turn changed."""

from __future__ import annotations

import pytest

from memdir_nb.formats.timeline_states import TurnStates


def test_each_turn_is_made_from_the_changes_in_any_order_and_read_as_a_copy() -> None:
    states = TurnStates({"a": 1}, [{"b": 2}, {"a": None}, {"b": 3, "c": 4}])
    assert len(states) == 4
    assert states[3] == {"b": 3, "c": 4} and states[-1] == states[3]
    assert states[1] == {"a": 1, "b": 2}  # backwards: made again from the first
    assert states[2] == {"b": 2} and states[0] == {"a": 1}
    states[0]["x"] = 9  # a copy: the turns are not changed through it
    assert states[0] == {"a": 1} and states[1:3] == [{"a": 1, "b": 2}, {"b": 2}]
    with pytest.raises(IndexError):
        states[4]
    assert len(TurnStates.empty()) == 0 and list(TurnStates.empty()) == []
