"""One home for checking that work grows linearly, measured so any machine gives the same answer.

A test that asserted "under 0.5 s of CPU" held on the machine it was written on and failed on a
slower or busier one (0.51 s in a full run here). The ratio of the CPU time of one input to that
of an input k times smaller is about k for linear work and k*k for quadratic work, whatever the
machine's speed.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def cpu_seconds(work: Callable[[], object], repeat: int = 3) -> float:
    """The least process CPU time of `repeat` runs of work (the least is the least disturbed)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def growth_ratio(
    work_of_size: Callable[[int], Callable[[], object]], small: int, large: int
) -> float:
    """CPU time of work_of_size(large) over that of work_of_size(small)."""
    return cpu_seconds(work_of_size(large)) / max(cpu_seconds(work_of_size(small)), 1e-6)
