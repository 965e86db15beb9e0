"""The wall clock, below every layer: the one place that asks the system for "now".

Every function whose answer depends on the time takes ``now_ms`` and resolves it here, so a
test, a notebook or a replay can pin the date. Rules in :mod:`memdir_nb.spec` never read the
time themselves; they take it from the caller and fall back to this module when given none.
"""

from __future__ import annotations

import time
from typing import Protocol


class HasClock(Protocol):
    """Anything that carries an injected clock (``MemdirConfig`` does)."""

    def now_ms(self) -> float:
        """The current time in milliseconds since the epoch."""
        ...


def system_clock_ms() -> float:
    """The wall clock in milliseconds since the epoch."""
    return time.time() * 1000.0


def resolve_now_ms(now_ms: float | None = None, config: HasClock | None = None) -> float:
    """The one rule for "now": an explicit now_ms, else the config's clock, else the wall clock."""
    if now_ms is not None:
        return float(now_ms)
    if config is not None:
        return config.now_ms()
    return system_clock_ms()
