"""The wall clock, below every layer: the one place that asks the system for "now".

Every function whose answer depends on the time takes ``now_ms`` and resolves it here, so a
test, a notebook or a replay can pin the date. Rules in :mod:`memdir_nb.spec` never read the
time themselves; they take it from the caller and fall back to this module when given none.
"""

from __future__ import annotations

import math
import time

TYPE_CHECKING = False  # typing stays unimported at run time; mypy reads the block below

# The latest time a file can be given (its time in nanoseconds is a signed 64-bit integer:
# 2262-04-11); a pinned "now" past it could not date the files it writes, and Python's dates
# end soon after (year 9999).
LATEST_NOW_MS = (2**63 - 1) // 1_000_000


if TYPE_CHECKING:  # a type only: importing typing would cost every `memdir-nb scan` process
    from typing import Protocol

    class HasClock(Protocol):
        """Anything that carries an injected clock (``MemdirConfig`` does)."""

        def now_ms(self) -> float:
            """The current time in milliseconds since the epoch."""
            ...


def system_clock_ms() -> float:
    """The wall clock in milliseconds since the epoch."""
    return time.time() * 1000.0


def now_ms_problem(now_ms: object) -> str | None:
    """Why a value cannot be a pinned "now" (epoch milliseconds, 1970 to 2262), else None.

    The one rule of the doors where a person pins "now": the CLI's --now-ms and the demo's clock
    (whose files are dated from it).
    """
    if isinstance(now_ms, bool) or not isinstance(now_ms, (int, float)):
        return f"{now_ms!r} is not a number of milliseconds since the epoch"
    if not math.isfinite(now_ms):
        return f"{now_ms!r} is not a finite number"
    if not 0 <= now_ms <= LATEST_NOW_MS:
        return (
            f"{now_ms!r} is not between 0 (1970-01-01) and {LATEST_NOW_MS} (2262-04-11), the "
            "times a file can be given; pass milliseconds since the epoch, such as "
            "time.time() * 1000 (1790000000000 is 2026-09-21)"
        )
    return None


def resolve_now_ms(now_ms: float | None = None, config: HasClock | None = None) -> float:
    """The one rule for "now": an explicit now_ms, else the config's clock, else the wall clock.

    An explicit now_ms is taken as it is: a replay's "now" is each turn's time, whatever year a
    transcript says. The doors where a person pins "now" for files to be written (the CLI's
    --now-ms, the demo's clock) check it with now_ms_problem first.
    """
    if now_ms is not None:
        return float(now_ms)
    if config is not None:
        return config.now_ms()
    return system_clock_ms()
