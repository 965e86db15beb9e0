"""The consolidation lock: a PID file whose mtime is lastConsolidatedAt, rolled back when a dream fails."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from memdir_nb.clock import resolve_now_ms
from memdir_nb.spec.constants import CONSOLIDATION_LOCK_NAME as LOCK_NAME
from memdir_nb.spec.constants import LOCK_READ_MAX_BYTES
from memdir_nb.storage.access import MissingFile, ReadRefused, read_contained
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.fsutil import replace_file

LOCK_GUARD_SUFFIX = ".guard"
HOLDER_STALE_MS = 60 * 60 * 1000  # a lock older than this is reclaimed whatever its PID


class LockFileCorruptError(ValueError):
    """The consolidation lock file holds something other than a PID; nothing was changed."""


def is_process_running(pid: int) -> bool:
    """True when `pid` names a live process (a zombie counts as dead)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        # OverflowError: past what a pid_t holds (a lock saying 2147483648), so no process's
        # (attack round 14: it escaped from the gates and the planner widget)
        return False
    except PermissionError:
        return True  # alive, owned by someone else
    stat = Path(f"/proc/{pid}/stat")
    with contextlib.suppress(OSError):
        # state is the field after the parenthesised command name
        if stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
            return False
    return True


@dataclass(frozen=True)
class LockState:
    """What the lock file says right now."""

    exists: bool
    mtime_ms: float  # lastConsolidatedAt; 0.0 when the file is absent
    mtime_ns: int | None
    holder_pid: int | None  # None when absent or empty (released)


class ConsolidationLock:
    """The PID lock whose mtime is lastConsolidatedAt (`<memory_dir>/.consolidate-lock`)."""

    def __init__(self, memory_dir: str | os.PathLike[str], *, pid: int | None = None) -> None:
        self.memory_dir = absolute_dir(memory_dir)
        self.path = self.memory_dir / LOCK_NAME
        self.pid = os.getpid() if pid is None else int(pid)
        self._prior_mtime_ns: int | None = None  # mtime before we took it; None = file was absent
        self._held = False

    @property
    def held(self) -> bool:
        """True between a successful try_acquire and release/rollback."""
        return self._held

    def read_state(self) -> LockState:
        """Stat and read the lock file; raise LockFileCorruptError if its body is not a PID."""
        try:
            res = read_contained(self.memory_dir, self.path, LOCK_READ_MAX_BYTES)
        except MissingFile:
            return LockState(False, 0.0, None, None)
        except ReadRefused as exc:
            raise LockFileCorruptError(
                f"{exc}; remove it so the consolidation lock can be recreated"
            ) from exc
        st, raw = res.stat, res.data
        try:
            text = None if res.truncated else raw.decode("ascii").strip()
        except UnicodeDecodeError:
            text = None
        if (
            text is None
            or (text and not re.fullmatch(r"[0-9]{1,10}", text))
            or (text and int(text) <= 0)
        ):
            shown = raw[:40].decode("utf-8", "replace")
            raise LockFileCorruptError(
                f"{self.path} should hold a process id or be empty, but holds {shown!r}; "
                "if no dream is running, empty or delete the file (its mtime is the last "
                "consolidation time, so emptying it keeps that)"
            )
        return LockState(True, st.st_mtime_ns / 1e6, st.st_mtime_ns, int(text) if text else None)

    def last_consolidated_at(self) -> float:
        """lastConsolidatedAt in ms (the lock file's mtime), 0.0 if never consolidated.

        The file is looked at as read_state looks at it (its body aside): a lock that is a
        symlink loop, a folder, a FIFO or a link out of the dir is a LockFileCorruptError
        naming it. A bare stat followed the link (`/dev/zero`'s time became the last
        consolidation) and let ELOOP out of the gates as an OSError (attack round 30).
        """
        try:
            res = read_contained(self.memory_dir, self.path, LOCK_READ_MAX_BYTES)
        except MissingFile:
            return 0.0
        except ReadRefused as exc:
            raise LockFileCorruptError(
                f"{exc}; remove it so the consolidation lock can be recreated"
            ) from exc
        return res.stat.st_mtime_ns / 1e6

    def holder_status(self, *, now_ms: float | None = None) -> str:
        """'free', 'held' (live holder, fresh lock), 'stale' (older than an hour) or 'dead' (holder gone)."""
        state = self.read_state()
        if not state.exists or state.holder_pid is None:
            return "free"
        if resolve_now_ms(now_ms) - state.mtime_ms >= HOLDER_STALE_MS:
            return "stale"
        return "held" if is_process_running(state.holder_pid) else "dead"

    def try_acquire(self, *, now_ms: float | None = None) -> bool:
        """Take the lock for this PID; False if a live process holds a fresh lock or we lost a race."""
        if self._held:
            raise RuntimeError(
                f"{self.path} is already held by this ConsolidationLock; release it first"
            )
        self.memory_dir.mkdir(parents=True, exist_ok=True)
        # The guard makes check-and-write atomic among memdir_nb processes; write-then-verify
        # below still catches another writer that does not use the guard.
        with self._guarded():
            state = self.read_state()
            if state.exists and state.holder_pid is not None and state.holder_pid != self.pid:
                fresh = resolve_now_ms(now_ms) - state.mtime_ms < HOLDER_STALE_MS
                if fresh and is_process_running(state.holder_pid):
                    return False
            self._write_body(str(self.pid))
            if self._read_pid() != self.pid:
                return False
        self._prior_mtime_ns = state.mtime_ns
        self._held = True
        return True

    @contextlib.contextmanager
    def _guarded(self) -> Iterator[None]:
        """Hold the guard file's lock; a guard that cannot be opened as a plain file (a planted
        symlink, a folder) is a LockFileCorruptError that names it, not a bare OSError."""
        guard = FileLock(str(self.path) + LOCK_GUARD_SUFFIX, timeout=30)
        try:
            guard.acquire()
        except Timeout:
            raise  # another process holds it: that is no fault of the file
        except OSError as exc:
            raise LockFileCorruptError(
                f"{guard.lock_file} cannot be opened as the consolidation lock's guard "
                f"({exc.strerror or exc}); it should be a plain file or absent: if no dream is "
                "running, delete it"
            ) from exc
        try:
            yield
        finally:
            guard.release()

    def release(self) -> None:
        """Finish a successful dream: clear the PID and keep mtime = now as lastConsolidatedAt."""
        self._require_held("release")
        self._write_body("")
        self._held = False

    def rollback(self) -> None:
        """Undo an acquisition after a failure or abort: restore the previous mtime (or remove the file)."""
        self._require_held("rollback")
        if self._prior_mtime_ns is None:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
        else:
            # the old time is set on the new file before it takes the lock's name: a time set
            # by path afterwards dated whatever was there by then (a symlink's target)
            self._write_body("", mtime_ns=self._prior_mtime_ns)
        self._held = False

    def _require_held(self, what: str) -> None:
        if not self._held:
            raise RuntimeError(
                f"cannot {what} {self.path}: this ConsolidationLock does not hold it"
            )
        pid = self._read_pid()
        if pid != self.pid:
            self._held = False
            raise RuntimeError(
                f"cannot {what} {self.path}: it now names PID {pid}, not ours ({self.pid}); "
                "another process reclaimed it, so it is left alone"
            )

    def _read_pid(self) -> int | None:
        try:
            raw = read_contained(self.memory_dir, self.path, LOCK_READ_MAX_BYTES).data
        except MissingFile:
            return None
        except ReadRefused as exc:
            raise LockFileCorruptError(
                f"{exc}; remove it so the consolidation lock can be recreated"
            ) from exc
        text = raw.decode("ascii", errors="replace").strip()
        return int(text) if text.isdigit() else None

    def _write_body(self, body: str, *, mtime_ns: int | None = None) -> None:
        replace_file(
            self.path,
            body.encode("ascii"),
            tmp_name=f"{LOCK_NAME}.{self.pid}.tmp",
            mtime_ns=mtime_ns,
        )

    @contextlib.contextmanager
    def hold(self, *, now_ms: float | None = None) -> Iterator[bool]:
        """Context manager: yields whether the lock was taken; releases on success, rolls back on error."""
        got = self.try_acquire(now_ms=now_ms)
        try:
            yield got
        except BaseException:
            if got and self._held:
                self.rollback()
            raise
        if got and self._held:
            self.release()
