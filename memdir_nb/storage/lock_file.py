"""The lock files a write takes before it changes anything: the store's `.memdir.lock` in the
memory dir (storage.transaction) and a daily log's lock in `logs/` (storage.daily_log).

A lock file is opened without following a symlink, made with the store's one file mode
(fsutil.FILE_MODE, the umask taking bits away), and held by flock: the kernel lets go of it when
the holder's process ends, however it ends, so a crash leaves no lock to clear by hand.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import time

from memdir_nb.storage import containment as team_paths
from memdir_nb.storage import fsutil

_LOCK_POLL_S = 0.02


_READ_ONLY_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})
# open(O_RDWR) of a folder, a socket, a device without a driver (attack round 14: the error said
# only "Is a directory (.memdir.lock)")
_NOT_A_FILE_ERRNOS = frozenset({errno.EISDIR, errno.ENXIO, errno.ENODEV})


def _kind_at(dir_fd: int, name: str) -> str:
    """What is at name, in words ('a folder', 'a socket', ...)."""
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except OSError:
        return "something other than a file"
    return _kind_at_mode(mode)


def _kind_at_mode(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISSOCK, "a socket"), (stat.S_ISFIFO, "a FIFO"))
    return next((word for test, word in kinds if test(mode)), "a device")


def _refuse_shared(fd: int, name: str, folder: str) -> None:
    """Close fd and refuse a lock file that is not a regular file with one name.

    A hard link makes the lock another file's second name (a memory's, one outside the dir):
    the lock would be shared with it, and a lock library that truncates its file on open (the
    consolidation lock's guard went through filelock, which did so before 3.20.1) emptied it.
    A FIFO opens for reading and writing without an error, so it is refused here by its kind.
    """
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode) and st.st_nlink <= 1:
        return
    os.close(fd)
    if not stat.S_ISREG(st.st_mode):
        raise OSError(
            errno.EINVAL,
            f"the lock file {name} in {folder} is {_kind_at_mode(st.st_mode)}, not a file, so no "
            "write can take the lock; nothing was written; move it aside (the lock file is "
            "recreated) and retry",
        )
    raise team_paths.PathTraversalError(
        "hard-link",
        f"the lock file {name} in {folder} is a hard link (one file under {st.st_nlink} names), "
        "so the lock would be taken on another file too; nothing was written; remove that name "
        "(the lock file is recreated) and retry",
    )


def lock_at(dir_fd: int, name: str, timeout_s: float, folder: str = "the memory dir") -> int:
    """Open a lock file in a folder without following a symlink and take its flock; returns the fd.

    A folder this user cannot write to (permissions, a read-only mount) is an OSError naming it
    and the fix: every write step takes its lock first, so nothing has been written then.
    """
    try:
        fd = os.open(
            name,
            os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
            fsutil.FILE_MODE,
            dir_fd=dir_fd,
        )
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise team_paths.PathTraversalError(
                "symlink-escape",
                f"the lock file {name} is a symlink; remove it (it is recreated) and retry",
            ) from exc
        if exc.errno in _NOT_A_FILE_ERRNOS:  # a folder, socket or device holds the name
            raise type(exc)(
                exc.errno,
                f"the lock file {name} in {folder} is {_kind_at(dir_fd, name)}, not a file, so "
                "no write can take the lock; nothing was written; move it aside (the lock file "
                "is recreated) and retry",
            ) from exc
        if exc.errno in _READ_ONLY_ERRNOS:
            raise type(exc)(
                exc.errno,
                f"cannot create the lock file {name} in {folder} ({exc.strerror}): this user "
                "cannot write there, so nothing was written; make the folder writable (or run "
                "as its owner) and retry",
            ) from exc
        raise
    _refuse_shared(fd, name, folder)
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise TimeoutError(
                    f"another process has held {name} for over {timeout_s:.0f}s; if no memdir "
                    "process is running, delete that lock file and retry"
                ) from None
            time.sleep(_LOCK_POLL_S)
