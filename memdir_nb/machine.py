"""What this machine gives the process, below every layer: the one place that asks for CPUs.

Work that can use more than one core (encoding batches, linting a large dir, scoring many
pairs) asks here how many it may use, so the rule is the same everywhere: the CPUs in the
process's affinity mask (what `taskset`, a container's cpuset or a batch scheduler allows),
not every CPU the machine has.
"""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """How many CPUs this process may run on: its affinity mask where the OS has one."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1  # macOS and Windows have no affinity mask
