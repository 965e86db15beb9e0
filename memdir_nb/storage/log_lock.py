"""The daily-log lock: `logs/.daily-log.lock`, taken by every append and by a store step that
touches a daily log.

A daily-log append (storage.daily_log) writes in place, with O_APPEND, under this lock only: it
does not wait for the store lock, so a KAIROS entry is never held up by a dream or an import.
A store step replaces a file by a new one: a hard link to a backup, then a rename. An append
that came between the two was refused ("a hard link"), one that came after the rename went into
the new file, which a rollback of the step then replaced, and one that came between the step's
last check and its backup link went into the old file only. So a step takes this lock too, the
first time it names a path under logs/, and holds it until it ends (`StoreTransaction.close`):
the append waits for the step, then lands in whatever the step left. The repair of a killed step
(storage.journal.recover_journal) takes it too when its journal names a daily log, and lets it go
once the repair is done (lefts38). Lock order: the store lock,
then this one; an append takes only this one, so neither waits for the other in a circle.
"""

from __future__ import annotations

import contextlib
import os

from memdir_nb.spec.constants import DAILY_LOG_LOCK_NAME, LOGS_DIRNAME
from memdir_nb.storage import fsutil
from memdir_nb.storage.lock_file import lock_at

LOCK_TIMEOUT_S = 30.0


def take_logs_lock(
    root_fd: int, real_root: str, *, folder: str = LOGS_DIRNAME, create: bool = True
) -> int:
    """Take the daily-log lock of the memory dir open at root_fd; returns its descriptor (the
    flock is released when it is closed). folder: the logs folder's real name in the dir (a
    `logs` link to a folder inside is resolved by the caller; no link is followed here).
    create=False: FileNotFoundError when there is no such folder."""
    logs_fd = fsutil.open_dir_nofollow(root_fd, (folder,), create=create)
    try:
        return lock_at(
            logs_fd, DAILY_LOG_LOCK_NAME, LOCK_TIMEOUT_S, os.path.join(real_root, folder)
        )
    finally:
        os.close(logs_fd)


class StepLogsLock:
    """The daily-log lock as one store step holds it: taken once, at the first path it names
    under logs/ (`hold_for`), kept until `release`. real_root None: never taken (a read-only
    view, which takes no lock and may not be able to create one)."""

    def __init__(self, real_root: str | None) -> None:
        self.real_root = real_root
        self.fd: int | None = None

    def hold_for(self, root_fd: int, parts: tuple[str, ...]) -> None:
        """Take the lock if parts (a target's path in the dir) is under logs/ and it is not
        held yet; a dir with no logs/ folder has no append to wait for."""
        if self.real_root is None or self.fd is not None:
            return
        if len(parts) > 1 and parts[0] == LOGS_DIRNAME:
            with contextlib.suppress(FileNotFoundError):
                self.fd = take_logs_lock(root_fd, self.real_root, create=False)

    def release(self) -> None:
        """Let appends go on (idempotent)."""
        fd, self.fd = self.fd, None
        if fd is not None:
            os.close(fd)
