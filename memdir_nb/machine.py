"""What this machine gives the process, below every layer: CPUs, and a second process.

Work that can use more than one core (encoding batches, linting or planning a large dir,
scoring many pairs) asks here how many it may use, so the rule is the same everywhere: the
CPUs in the process's affinity mask (what `taskset`, a container's cpuset or a batch scheduler
allows), not every CPU the machine has.

Work split over two processes goes through `fork_pays` and `in_two_processes`, the one home of
the rules for when forking is safe and how a worker's failure is absorbed.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def usable_cpus() -> int:
    """How many CPUs this process may run on: its affinity mask where the OS has one."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1  # macOS and Windows have no affinity mask


def fork_pays(n_items: int, min_items: int) -> bool:
    """Whether splitting n_items of work over a forked second process is safe and pays here.

    - at least min_items (the caller's measured break-even: starting a worker and sending its
      results back costs tens of ms);
    - at least two usable CPUs;
    - Linux, where forking is the platform's own cheap way to share what was read;
    - one Python thread in this process. Forking a process that runs other threads (a notebook
      kernel, a recall prefetch, a progress bar's monitor) can copy a lock another thread
      holds, and the child could then wait on it for ever.
    """
    return (
        n_items >= min_items
        and sys.platform.startswith("linux")
        and usable_cpus() >= 2
        and threading.active_count() == 1
    )


def split_for_worker(n_items: int, worker_percent: int = 50) -> tuple[list[int], list[int]]:
    """(this process's, the worker's) item positions: the worker's about worker_percent of
    n_items, spread evenly (at 50, every second item, starting with the second).

    Spread rather than cut in halves: neighbours are often alike, so each side gets the same mix.
    """
    if not 0 <= worker_percent <= 100:
        raise ValueError(f"worker_percent must be between 0 and 100, not {worker_percent}")
    ours: list[int] = []
    theirs: list[int] = []
    for i in range(n_items):
        # item i is the worker's when the worker's running count steps up at it
        is_theirs = (i + 1) * worker_percent // 100 > i * worker_percent // 100
        (theirs if is_theirs else ours).append(i)
    return ours, theirs


def in_two_processes(
    work: Callable[[list[T]], list[R]],
    items: Sequence[T],
    *,
    here: Callable[[list[T]], list[R]] | None = None,
    worker_percent: int = 50,
) -> list[R]:
    """work over items, one result per item in items' order: a forked worker runs work on about
    worker_percent of the items (split_for_worker) while this process runs here (work by
    default) on the others.

    A caller whose worker is measured to finish later than this process (it starts by forking,
    and its results come back pickled) gives it a little less than half. work must be
    picklable (a module-level function or a partial of one). If the
    worker cannot be started (no process slots, no memory), or dies (killed, out of memory),
    its items are done here with work, so the answer never depends on the worker.
    """
    # Deferred: multiprocessing costs about 15 ms to import, and only large jobs need it.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    ours_at, theirs_at = split_for_worker(len(items), worker_percent)
    ours_in, theirs_in = [items[i] for i in ours_at], [items[i] for i in theirs_at]
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        try:
            pending = pool.submit(work, theirs_in)
        except (OSError, BrokenProcessPool):  # no process could be started: all here
            return work(list(items))
        ours = (here or work)(ours_in)
        try:
            theirs = pending.result()
        except BrokenProcessPool:
            theirs = work(theirs_in)
    if len(ours) != len(ours_in) or len(theirs) != len(theirs_in):
        raise ValueError("in_two_processes: work must give one result per item")
    merged: list[R] = [*ours, *theirs]
    for at, result in zip([*ours_at, *theirs_at], [*ours, *theirs], strict=True):
        merged[at] = result
    return merged
