"""Usable CPUs: the process's affinity mask, as taskset or a container's cpuset sets it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from memdir_nb.machine import usable_cpus


def test_usable_cpus_is_the_affinity_mask_not_the_machine() -> None:
    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no affinity mask on this platform")
    assert usable_cpus() == len(os.sched_getaffinity(0)) >= 1


def test_a_process_pinned_to_one_cpu_may_use_one() -> None:
    taskset = shutil.which("taskset")
    if taskset is None or not hasattr(os, "sched_getaffinity"):
        pytest.skip("taskset pins a process on Linux only")
    cpu = min(os.sched_getaffinity(0))
    code = "from memdir_nb.machine import usable_cpus; print(usable_cpus())"
    out = subprocess.run(
        [taskset, "-c", str(cpu), sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert out.stdout.strip() == "1"
