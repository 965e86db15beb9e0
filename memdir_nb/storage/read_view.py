"""A read-only look at a memory dir through the store's own contained reads, without its lock.

Listing or previewing (which batches `restore` could put back, what a dry run would do) reads
files and writes none, so it must work on a dir this user cannot write to, where the store's
lock file cannot be created. The view resolves and reads exactly as a transaction does
(containment, no symlinked folders, no FIFOs, bounded reads); it takes no lock and repairs no
interrupted step, and every write method refuses. What it reads is a preview: the step that
writes takes the lock and checks everything again.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from memdir_nb.storage import fsutil
from memdir_nb.storage.log_lock import StepLogsLock
from memdir_nb.storage.transaction import StoreTransaction, TransactionError

_READ_ONLY = (
    "this is a read-only view of the memory dir (used to list and preview); "
    "open a store transaction to write"
)


class ReadOnlyView(StoreTransaction):
    """A StoreTransaction that only reads: no lock, no journal recovery, no writes."""

    def begin(self) -> None:
        """Open the memory dir (which must exist); no lock is taken and nothing is created."""
        if self._root_fd is not None:
            raise TransactionError("this view is already open")
        self._root_fd = fsutil.open_real_dir(self.memory_dir)[1]
        self._logs_lock = StepLogsLock(None)  # nor the daily-log lock: an append never waits

    def write(self, *_args: object, **_kwargs: object) -> Path:
        raise TransactionError(_READ_ONLY)

    def move(self, *_args: object, **_kwargs: object) -> Path:
        raise TransactionError(_READ_ONLY)

    def keep_copy(self, *_args: object, **_kwargs: object) -> Path:
        raise TransactionError(_READ_ONLY)


@contextlib.contextmanager
def open_read_only(memory_dir: str | os.PathLike[str]) -> Iterator[StoreTransaction]:
    """A read-only view of memory_dir for one block; its folder descriptor is closed after."""
    view = ReadOnlyView(memory_dir)
    view.begin()
    try:
        yield view
    finally:
        view.close()
