"""What this machine gives the process, below every layer: CPUs, and a second process.

Work that can use more than one core (encoding batches, linting or planning a large dir,
scoring many pairs) asks here how many it may use, so the rule is the same everywhere: the
CPUs in the process's affinity mask (what `taskset`, a container's cpuset or a batch scheduler
allows), not every CPU the machine has.

Work split over two processes goes through `fork_pays` and `in_two_processes` (or
`beside_this_process`, for one task run in a child while this process does another), the one
home of the rules for when forking is safe and how a worker's failure is absorbed.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar, cast

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


def in_two_processes(
    work: Callable[[list[T]], list[R]],
    items: Sequence[T],
    *,
    here: Callable[[list[T]], list[R]] | None = None,
) -> list[R]:
    """work over items, one result per item in items' order: a forked worker runs work on every
    second item while this process runs here (work by default) on the others.

    Items alternate rather than split in halves: neighbours are often alike, so each side gets
    the same mix. work must be picklable (a module-level function or a partial of one). If the
    worker cannot be started (no process slots, no memory), or dies (killed, out of memory),
    its items are done here with work, so the answer never depends on the worker.
    """
    # Deferred: multiprocessing costs about 15 ms to import, and only large jobs need it.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    ours_in, theirs_in = list(items[0::2]), list(items[1::2])
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
    merged[0::2], merged[1::2] = ours, theirs
    return merged


# The task a child forked by beside_this_process runs: set for as long as its pool lives, so the
# child finds it in the memory it inherits whenever the pool forks it (a closure and its data
# are never pickled).
_INHERITED: list[Callable[[], object]] = []


def _run_inherited() -> object:
    return _INHERITED[-1]()


@contextmanager
def beside_this_process(work: Callable[[], R]) -> Iterator[Callable[[], R]]:
    """work() in a forked child while the with-block runs here; yields a function that waits for
    work's result and returns it.

    The child inherits this process's memory at the fork, so work may read anything built so
    far without it being pickled; only its result is sent back, so it should be small. As in
    in_two_processes, a child that cannot be started or dies leaves work to be done here, when
    the result is asked for; an exception work raises in the child is raised here. Use it only
    where fork_pays says forking is safe.
    """
    # Deferred, as in in_two_processes.
    import multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    _INHERITED.append(work)
    try:
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
            pending: Future[object] | None
            try:
                pending = pool.submit(_run_inherited)
            except (OSError, BrokenProcessPool):  # no process could be started: work runs here
                pending = None

            def result() -> R:
                if pending is not None:
                    try:
                        return cast(R, pending.result())
                    except BrokenProcessPool:  # the child died (killed, out of memory)
                        pass
                return work()

            yield result
    finally:
        _INHERITED.pop()
