"""Pausing Python's cyclic garbage collector for one whole-dir pass (lint, dream planning), and
setting a command's loaded program aside from it (`freeze_what_is_loaded`).

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

__all__ = ["collector_paused", "freeze_what_is_loaded"]


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


def freeze_what_is_loaded() -> None:
    """Move every object the collector tracks into its permanent generation (`gc.freeze`).

    For a command-line process only, once its imports are done and its arguments parsed: what
    exists then (modules, classes, functions, compiled regexes, the parser) lives until the
    process exits, so no collection needs to look at it again. That spares the command's
    collections and the full ones Python runs at exit from walking the ~12,000 objects of the
    imports: 14 M instructions of the 286 M of a `memdir-nb scan` of 200 files
    (docs/performance.md, thirtieth session). Objects made afterwards are collected as before;
    reference counting still frees every acyclic object, frozen or not. Not for a process that
    goes on to other work (a test run, a kernel): a frozen object that later becomes part of
    a reference cycle is never collected.
    """
    gc.freeze()
