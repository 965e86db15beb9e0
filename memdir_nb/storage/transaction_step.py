"""One locked step over a memory dir: its lock, the repair of an interrupted step, its journal,
commit or rollback, and its contained reads (storage.transaction adds the writes, moves and copies).

- **Lock.** The store lock (`constants.STORE_LOCK_NAME`, an `flock`) is opened relative to
  the memory dir's descriptor with O_NOFOLLOW; a step naming a daily log holds the appends' lock
  too (storage.log_lock), so an append never lands in a file the step is replacing.
- **Settled reads.** A file a step reads is read once it stands still, and a rename whose
  replaced file was written into since is undone (storage.step_reads: an editor saving in place).
- **Journal.** Before a step changes a file it appends a record to `.memdir.journal` and
  fsyncs it; an overwritten file is first hard-linked to a backup name. A failure rolls the
  step back from the records; a crash (kill -9) leaves the journal, and the next transaction
  (or `MemoryStore.recover()`) rolls the unfinished step back, or finishes a committed one.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import secrets
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from memdir_nb.spec import constants
from memdir_nb.storage import folder_blocker, fsutil
from memdir_nb.storage.journal import finish_records, recover_journal, undo_records
from memdir_nb.storage.lock_file import lock_at
from memdir_nb.storage.log_lock import StepLogsLock
from memdir_nb.storage.settled_read import Sightings
from memdir_nb.storage.step_reads import Published, read_settled_at
from memdir_nb.storage.targets import Target, resolve_target
from memdir_nb.storage.write_errors import TransactionError, require_utf8

CrashHook = Callable[[str], None]


class TransactionStep:
    """A step's life (begin, commit, rollback, close), its journal and its contained reads;
    `StoreTransaction` (storage.transaction) is this with the changes a step makes."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        crash_hook: CrashHook | None = None,
        lock_timeout_s: float = constants.STORE_LOCK_TIMEOUT_S,
        owner_only: bool = False,
    ) -> None:
        self.memory_dir = Path(os.path.abspath(os.fspath(memory_dir)))
        self.crash_hook = crash_hook
        # owner_only: every file written is 0600 and every folder created 0700, whatever the umask
        self.owner_only = owner_only
        self.lock_timeout_s = lock_timeout_s
        self.recovered: list[str] = []  # what the journal of an interrupted step repaired
        self._root_fd: int | None = None
        self._lock_fd: int | None = None
        self._logs_lock = StepLogsLock(str(self.memory_dir))  # taken at the first daily log
        self._journal_fd: int | None = None
        self._records: list[dict[str, Any]] = []
        self._made_dirs: list[tuple[str, ...]] = []  # folders this step created, for a rollback
        self._txid = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._seqs = itertools.count(1)  # side files' sequence numbers in this step
        self._published = Published()  # files steps renamed into place (step_reads)
        self._sightings = Sightings()  # empty files this step saw, and when (settled_read)

    # -- life cycle

    def begin(self) -> None:
        """Take the lock, then repair whatever an interrupted step left (see recover_journal)."""
        if self._root_fd is not None:
            raise TransactionError("this transaction is already open; do not nest transactions")
        folder_blocker.make_memory_dir(self.memory_dir)
        real_root, self._root_fd = fsutil.open_real_dir(self.memory_dir)
        try:
            self._lock_fd = lock_at(
                self._root_fd, constants.STORE_LOCK_NAME, self.lock_timeout_s, real_root
            )
            self.recovered = recover_journal(self._root_fd, real_root)  # with the logs' lock
            self._published.fd = self._lock_fd
        except BaseException:
            self.close()
            raise

    def commit(self) -> None:
        """Mark the step done in the journal, drop the backups, then the journal."""
        self._made_dirs = []
        if self._journal_fd is None:
            return
        self._log({"op": "commit"})
        self._hook("commit:journaled")
        finish_records(self._need_root(), self._records)
        self._hook("commit:cleaned")
        self._drop_journal()
        self._published.save()

    def rollback(self) -> list[str]:
        """Undo every change of this step, newest first; return what could not be undone.

        Then the folders the step created are removed again when empty, deepest first.
        """
        failed, kept = (
            ([], []) if self._journal_fd is None else undo_records(self._need_root(), self._records)
        )
        if self._journal_fd is not None and not failed:
            self._drop_journal()  # else keep it: the next transaction retries the repair
        self._remove_made_dirs()
        return failed + kept

    def _remove_made_dirs(self) -> None:
        made, self._made_dirs = self._made_dirs, []
        for parts in sorted(made, key=len, reverse=True):
            with contextlib.suppress(OSError):  # not empty, or already gone: left as it is
                pfd = fsutil.open_dir_nofollow(self._need_root(), parts[:-1], create=False)
                try:
                    os.rmdir(parts[-1], dir_fd=pfd)
                finally:
                    os.close(pfd)

    def close(self) -> None:
        """Release the locks and every descriptor (idempotent)."""
        self._logs_lock.release()
        for name in ("_journal_fd", "_lock_fd", "_root_fd"):
            fd = getattr(self, name)
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
                setattr(self, name, None)

    # -- reading (contained, non-blocking, bounded)

    def resolve(self, path: str | os.PathLike[str], *, follow_final: bool = True) -> Target:
        """Check a target now (containment, symlinks, team rules); paths are relative to the memory dir or absolute."""
        t = resolve_target(self.memory_dir, path, follow_final=follow_final)
        self._logs_lock.hold_for(self._need_root(), t.parts)  # before it is read or changed
        return t

    def read_bytes(
        self,
        path: str | os.PathLike[str],
        *,
        max_bytes: int = constants.STORE_READ_MAX_BYTES,
        settled: bool = True,
    ) -> bytes | None:
        """A regular file's bytes (None when absent); refuses symlinked folders, FIFOs and files over
        max_bytes. Read once the file stands still (step_reads); settled=False: as it is now."""
        t = self.resolve(path)
        try:
            dfd = fsutil.open_dir_nofollow(self._need_root(), t.parts[:-1], create=False)
        except FileNotFoundError:
            return None
        try:
            if not settled:
                return fsutil.read_at(dfd, t.parts[-1], max_bytes)
            return read_settled_at(
                dfd, t.parts[-1], max_bytes, t.rel, self._published, sightings=self._sightings
            )
        except FileNotFoundError:
            return None
        finally:
            os.close(dfd)

    def look_ahead(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        """Note the empty files among paths (relative to the memory dir), as they are now,
        before a step reads them one by one: a read of an old empty file then waits only what
        is left of SETTLE_S since this look, so the step pauses once for all of them
        (step_reads, §68), not once for each. Only a hint, matched by identity (device, inode,
        size, times) at the read, which stays the contained one: a path that cannot be looked
        at is passed over, and one reached through a link notes that file, which only a read of
        the same file, unchanged, matches."""
        root = self._need_root()
        for path in paths:
            with contextlib.suppress(OSError, ValueError):  # absent, too long, a NUL in it
                st = os.stat(path, dir_fd=root, follow_symlinks=False)
                if stat.S_ISREG(st.st_mode):
                    self._sightings.note(st)

    def read_text(
        self, path: str | os.PathLike[str], *, max_bytes: int = constants.STORE_READ_MAX_BYTES
    ) -> str | None:
        """read_bytes decoded as UTF-8; a file that is not UTF-8 raises NotUTF8Error.

        Text read here is about to be rewritten: replacing bad bytes would lose what a person
        wrote, so the step is refused instead (and rolled back).
        """
        data = self.read_bytes(path, max_bytes=max_bytes)
        if data is None:
            return None
        return require_utf8(self.resolve(path).rel, data)

    def exists(self, path: str | os.PathLike[str]) -> bool:
        """True when the target exists (a symlink counts)."""
        t = self.resolve(path)
        try:
            dfd = fsutil.open_dir_nofollow(self._need_root(), t.parts[:-1], create=False)
        except FileNotFoundError:
            return False
        try:
            return fsutil.exists_at(dfd, t.parts[-1])
        finally:
            os.close(dfd)

    # -- internals

    @property
    def _dir_mode(self) -> int | None:
        return fsutil.OWNER_FOLDER_MODE if self.owner_only else None

    def _need_root(self) -> int:
        if self._root_fd is None:
            raise TransactionError(
                "the transaction is not open; use `with store.transaction() as tx:`"
            )
        return self._root_fd

    def _hook(self, point: str) -> None:
        if self.crash_hook is not None:
            self.crash_hook(point)

    def _log(self, record: dict[str, Any]) -> None:
        root = self._need_root()
        if self._journal_fd is None:
            self._journal_fd = os.open(
                constants.STORE_JOURNAL_NAME,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC,
                fsutil.FILE_MODE,
                dir_fd=root,
            )  # the first record's fsync makes the new entry durable too (ext4, xfs)
        if record["op"] != "commit":
            self._records.append(record)
        line = (json.dumps(record) + "\n").encode("utf-8")
        os.write(self._journal_fd, line)
        os.fsync(self._journal_fd)

    def _drop_journal(self) -> None:
        root = self._need_root()
        if self._journal_fd is not None:
            os.close(self._journal_fd)
            self._journal_fd = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(constants.STORE_JOURNAL_NAME, dir_fd=root)
        # no fsync: a committed journal that reappears after a power cut is only finished again
        self._records = []
