"""Reading and linting every memory of a dir, on a second core where that pays.

Each memory file is read once and its per-memory rules (content.lint_memory) read that memory
and nothing else, so a dir's files can be read and linted in two halves at once. On a dir of
2,000 files this per-file work is nearly all of a lint; a forked worker that takes every second
file cuts the wall time by about a third on two free cores (docs/performance.md, "Lint on two
cores").

The second core is used only where it is safe and pays (second_core_pays):
- at least PARALLEL_MIN_FILES files: below that, starting the worker and sending its results
  back (about 25-30 ms here) costs more than it saves;
- at least two CPUs usable by this process;
- Linux, where forking is the platform's own cheap way to share the listing;
- a process with one thread. Forking a process that runs other threads (a notebook kernel, a
  recall prefetch) can copy a lock another thread holds, and the child could wait on it for
  ever. Such a process reads and lints on one core.

The result is the same either way: each file is read and linted by the same function, and the
halves are put back in the listing's order. If the worker cannot be started (no process slots,
no memory) or dies, its half is done here, so the answer never depends on the pool.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.lint.content import lint_memory
from memdir_nb.lint.findings import Finding, MemoryText
from memdir_nb.lint.reading import read_listed
from memdir_nb.machine import usable_cpus
from memdir_nb.storage.access import ContainedReader
from memdir_nb.storage.listing import ListedFile, SkippedFile

PARALLEL_MIN_FILES = 600  # measured break-even: about 400 files (docs/performance.md)

Linted = tuple[MemoryText, MemoryHeader, list[Finding]]
Step = Callable[[int], object]  # told how many files were just done (a progress bar's update)


def second_core_pays(n_files: int) -> bool:
    """Whether reading and linting n_files in two processes is both safe and faster here."""
    return (
        n_files >= PARALLEL_MIN_FILES
        and sys.platform.startswith("linux")
        and usable_cpus() >= 2
        and threading.active_count() == 1
    )


def read_and_lint_files(
    root: str,
    real_root: str,
    files: Sequence[ListedFile],
    now_ms: float | None,
    step: Step | None = None,
    weight: int = 1,
) -> list[Linted | SkippedFile]:
    """Each listed file read once and linted, in order; step(weight) after each one."""
    out: list[Linted | SkippedFile] = []
    with ContainedReader(root, real_root=real_root, check_before_open=False) as reader:
        # The walk has just lstat'ed every file, so the reader skips its own pre-open lstat;
        # the no-follow open and the fstat after it still refuse anything swapped in since.
        for listed in files:
            got = read_listed(reader, listed)
            if isinstance(got, SkippedFile):
                out.append(got)
            else:
                out.append((got[0], got[1], lint_memory(got[0], now_ms=now_ms)))
            if step is not None:
                step(weight)
    return out


def read_and_lint(
    root: str,
    real_root: str,
    files: Sequence[ListedFile],
    now_ms: float | None,
    *,
    workers: int | None = None,
    step: Step | None = None,
) -> list[Linted | SkippedFile]:
    """Every listed file read and linted, in the order of files.

    workers: 2 uses a second core, 1 only this one, None the second core when
    second_core_pays(len(files)).
    """
    if workers is not None and workers not in (1, 2):
        raise ValueError(f"workers must be 1, 2 or None (automatic), not {workers!r}")
    two = second_core_pays(len(files)) if workers is None else workers == 2
    if not two or len(files) < 2:
        return read_and_lint_files(root, real_root, files, now_ms, step)
    return _in_two(root, real_root, list(files), now_ms, step)


def _capped(step: Step | None, total: int) -> Step | None:
    """step, told at most total files in all."""
    if step is None:
        return None
    left = total

    def told(n: int) -> None:
        nonlocal left
        n = min(n, left)
        left -= n
        step(n)

    return told


def _in_two(
    root: str, real_root: str, files: list[ListedFile], now_ms: float | None, step: Step | None
) -> list[Linted | SkippedFile]:
    """A forked worker does every second file while this process does the others."""
    # Deferred: multiprocessing costs about 15 ms to import, and only large dirs need it.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # Alternate files, not halves: neighbours in name order are alike (same type, same
    # scope), so each side gets the same mix of work.
    ours_in, theirs_in = files[0::2], files[1::2]
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        try:
            pending = pool.submit(read_and_lint_files, root, real_root, theirs_in, now_ms)
        except (OSError, BrokenProcessPool):  # no process could be started: one core
            return read_and_lint_files(root, real_root, files, now_ms, step)
        # Each of our files stands for about two, as the worker does one meanwhile; the count
        # stops at the number of files (ours are one more when that number is odd).
        ours = read_and_lint_files(root, real_root, ours_in, now_ms, _capped(step, len(files)), 2)
        try:
            theirs = pending.result()
        except BrokenProcessPool:  # the worker died (killed, out of memory): its half here
            theirs = read_and_lint_files(root, real_root, theirs_in, now_ms)
    merged: list[Linted | SkippedFile] = [*ours, *theirs]
    merged[0::2], merged[1::2] = ours, theirs
    return merged
