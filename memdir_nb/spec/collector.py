"""Pausing Python's cyclic garbage collector for one whole-dir pass (lint, dream planning).

A whole-dir pass keeps every file's text and what it parsed from it until it returns, and
makes no reference cycles. While those objects pile up, the collector's full passes re-scan
all of them each time they grow by a quarter: 11-16% of lint's time at 100,000 files and
about 30 ms of a 2,000-file dream plan (docs/performance.md). Reference counting still frees
every non-cyclic object as it goes, so memory use does not change, and a cycle made meanwhile
is collected once the collector is back on. See docs/decisions.md.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Turn the cyclic collector off for the block if it is on, and back on after it.

    Also when the block raises. A caller who had turned the collector off keeps it off. The
    pause is process-wide while it lasts (gc has no per-thread switch); two passes in two
    threads still end with the collector on, since each restores only what it found on.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
