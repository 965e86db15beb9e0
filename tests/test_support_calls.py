"""The call counter: every call is counted and still runs the real function, and the wrap ends
with the test."""

from __future__ import annotations

import types

import pytest

from tests.support.calls import count_calls


def test_each_call_is_counted_and_runs_the_real_function(monkeypatch: pytest.MonkeyPatch) -> None:
    owner = types.SimpleNamespace(double=lambda x, *, by=2: x * by)
    calls = count_calls(monkeypatch, owner, "double")

    assert owner.double(3) == 6 and owner.double(3, by=3) == 9
    assert calls == [1, 1]
    monkeypatch.undo()
    owner.double(1)
    assert calls == [1, 1]
