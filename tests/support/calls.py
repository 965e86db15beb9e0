"""One home for counting the calls a test expects a cached or shortened path to skip: the
attribute is wrapped for the test only (pytest's monkeypatch undoes it), each call still runs
the real function, and the list grows by one per call."""

from __future__ import annotations

from typing import Any

import pytest


def count_calls(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    """Wrap owner.name so each call is counted; returns the list that grows by one per call."""
    real = getattr(owner, name)
    calls: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls
