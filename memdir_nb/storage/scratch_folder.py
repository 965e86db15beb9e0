"""Scratch folders: temporary folders that notebooks build in, which never pile up in the temp dir.

Notebooks build demos, copies and sandboxes in folders of their own. A folder from
`tempfile.mkdtemp` outlives its kernel, so every run of the notebooks left five to ten folders
behind (893 on one test machine, 200 MB). A scratch folder is removed:

* when the process that made it exits normally (an `atexit` hook; a Jupyter kernel that is shut
  down or restarted exits normally);
* otherwise by the next process that makes one. A kernel that is killed (nbval stops kernels
  with SIGKILL) cannot clean up. Each folder holds a lock file whose `flock` its process keeps
  until it ends; the kernel drops that lock when the process dies, however it dies. The sweep
  removes a folder only when it can take the lock itself, so a folder whose process is alive is
  never touched, whatever its PID namespace.

Removal is `shutil.rmtree`, which deletes a symlink found inside and never follows it, so a
sandbox that links to a real memory dir never changes that dir. A sweep looks only at folders in
the temp dir that carry the scratch prefix, belong to this user, are not symlinks, and hold the
lock file; it skips any whose lock file is younger than SWEEP_MIN_AGE_S (a folder whose maker
has not yet taken its lock).
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import shutil
import stat
import tempfile
from pathlib import Path

from memdir_nb.clock import system_clock_ms
from memdir_nb.formats.names import component_problem
from memdir_nb.storage import fsutil

SCRATCH_PREFIX = "memdir-nb-"
SCRATCH_LOCK_NAME = ".memdir-nb-scratch.lock"
SWEEP_MIN_AGE_S = 60.0

_HELD: list[tuple[int, Path, int]] = []  # (pid that made it, folder, descriptor holding its lock)
_swept_by: int | None = None  # the pid whose first scratch_folder call swept the temp dir


def scratch_folder(purpose: str) -> Path:
    """A new empty folder `<temp dir>/memdir-nb-<purpose>-<random>`, removed when this process ends.

    The first call in a process also removes the folders of earlier processes that died
    without cleaning up (see the module docstring).
    """
    global _swept_by
    problem = component_problem(purpose)
    if problem is not None:
        raise ValueError(f"scratch folder purpose {purpose!r} {problem}; use one word like 'demo'")
    if _swept_by != os.getpid():
        _swept_by = os.getpid()
        sweep_dead_scratch_folders()
    path = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{purpose}-"))
    try:
        fd = os.open(
            path / SCRATCH_LOCK_NAME,
            os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
            fsutil.OWNER_FILE_MODE,
        )
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        shutil.rmtree(path, ignore_errors=True)
        raise
    if not _HELD:
        atexit.register(remove_scratch_folders)
    _HELD.append((os.getpid(), path, fd))
    return path


def remove_scratch_folders() -> None:
    """Remove every folder this process made with scratch_folder (run at exit; safe to repeat).

    A forked child that exits leaves its parent's folders alone: only the maker removes them.
    """
    while _HELD:
        pid, path, fd = _HELD.pop()
        if pid == os.getpid():
            shutil.rmtree(path, ignore_errors=True)
            os.close(fd)


def sweep_dead_scratch_folders(root: str | os.PathLike[str] | None = None) -> list[Path]:
    """Remove the scratch folders under root (default: the temp dir) whose process has ended.

    Returns the folders removed. Anything that cannot be read, locked or removed is left as it
    is: a sweep never fails the caller.
    """
    base = Path(root) if root is not None else Path(tempfile.gettempdir())
    removed: list[Path] = []
    try:
        with os.scandir(base) as entries:
            candidates = [e for e in entries if e.name.startswith(SCRATCH_PREFIX)]
    except OSError:
        return removed
    for entry in candidates:
        with contextlib.suppress(OSError):
            if _remove_if_dead(entry):
                removed.append(Path(entry.path))
    return removed


def _remove_if_dead(entry: os.DirEntry[str]) -> bool:
    """Remove one candidate folder if it is ours, old enough and its lock is free; whether it was."""
    if entry.is_symlink() or not entry.is_dir(follow_symlinks=False):
        return False
    if entry.stat(follow_symlinks=False).st_uid != os.getuid():
        return False
    dir_fd = os.open(entry.path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        try:
            fd = os.open(
                SCRATCH_LOCK_NAME, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd
            )
        except FileNotFoundError:
            return False  # not a scratch folder (or one whose maker has not yet made its lock)
    finally:
        os.close(dir_fd)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or system_clock_ms() / 1000 - st.st_mtime < SWEEP_MIN_AGE_S:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # its process is alive
        shutil.rmtree(entry.path, ignore_errors=True)
        return True
    finally:
        os.close(fd)
