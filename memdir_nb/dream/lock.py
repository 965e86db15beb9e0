"""The consolidation lock: a PID file whose mtime is lastConsolidatedAt, rolled back when a dream fails."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.clock import resolve_now_ms, system_clock_ms
from memdir_nb.spec.constants import CONSOLIDATION_LOCK_NAME as LOCK_NAME
from memdir_nb.spec.constants import LOCK_READ_MAX_BYTES
from memdir_nb.storage.access import MissingFile, ReadRefused, ReadResult, read_contained
from memdir_nb.storage.containment import PathTraversalError, absolute_dir
from memdir_nb.storage.folder_blocker import make_memory_dir
from memdir_nb.storage.fsutil import open_real_dir, replace_file
from memdir_nb.storage.lock_file import lock_at

LOCK_GUARD_SUFFIX = ".guard"
GUARD_TIMEOUT_S = 30.0  # the guard is held only for a read and a write of the lock
HOLDER_STALE_MS = 60 * 60 * 1000  # a lock older than this is reclaimed whatever its PID
# A lock dated further ahead of this clock than this was not written by a clock that agrees
# with ours (a copied dir, a bad clock, `touch -d 2500`): it is stale, and names no last
# consolidation. Within it, a lock ahead of us is clock skew and is taken at its word.
FUTURE_SKEW_MS = HOLDER_STALE_MS


class LockFileCorruptError(ValueError):
    """The consolidation lock file holds something other than a PID; nothing was changed."""


def dated_ahead(mtime_ms: float, now_ms: float) -> bool:
    """Whether a lock time is further ahead than clock skew explains (FUTURE_SKEW_MS), both of
    the "now" in use and of the system clock that stamps the files.

    The one home of the rule for a lock dated in the future (thirty-second session): such a
    lock is stale whatever its PID says (`holder_status`, `try_acquire`), and the time gate
    reads it as no consolidation yet. Without it a lock dated 2500 and naming a live PID was
    held for ever and the time gate never opened ("last consolidation -3676743.2 h ago").
    The system clock counts too because a pinned "now" (the demo's, a notebook's) may lie
    behind the files this machine writes today; those are not dated ahead.
    """
    return mtime_ms - max(now_ms, system_clock_ms()) > FUTURE_SKEW_MS


def _stale(mtime_ms: float, now_ms: float) -> bool:
    """Older than HOLDER_STALE_MS (the reference's rule) or dated_ahead."""
    return now_ms - mtime_ms >= HOLDER_STALE_MS or dated_ahead(mtime_ms, now_ms)


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

    def _read(self) -> ReadResult | None:
        """The lock file's first bytes and stat; None when absent; LockFileCorruptError naming
        it when it is not a regular file of its own reached without a link.

        The one read of the lock (read_state, last_consolidated_at, _read_pid). A symlink,
        even to a memory inside the dir, or a hard link (a second name of a memory) made that
        memory's text the holder's PID: a memory holding "1" kept the lock held (thirty-second
        session). Nothing is read through a link now, so nothing another file holds is a PID.
        """
        try:
            res = read_contained(
                self.memory_dir, self.path, LOCK_READ_MAX_BYTES, follow_symlinks=False
            )
        except MissingFile:
            return None
        except ReadRefused as exc:
            why = (
                f"{self.path} is a symlink, and the consolidation lock must be a plain file of "
                "its own (its text would be read as the holder's process id)"
                if exc.kind == "symlink"
                else str(exc)
            )
            raise LockFileCorruptError(
                f"{why}; remove it so the consolidation lock can be recreated"
            ) from exc
        if res.stat.st_nlink > 1:
            raise LockFileCorruptError(
                f"{self.path} is a hard link (one file under {res.stat.st_nlink} names), and the "
                "consolidation lock must be a plain file of its own (its text would be read as "
                "the holder's process id); remove that name so the lock can be recreated"
            )
        return res

    def read_state(self) -> LockState:
        """Stat and read the lock file; raise LockFileCorruptError if its body is not a PID."""
        res = self._read()
        if res is None:
            return LockState(False, 0.0, None, None)
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
        res = self._read()
        return 0.0 if res is None else res.stat.st_mtime_ns / 1e6

    def holder_status(self, *, now_ms: float | None = None) -> str:
        """'free', 'held' (live holder, fresh lock), 'stale' (older than an hour, or dated_ahead) or 'dead' (holder gone)."""
        state = self.read_state()
        if not state.exists or state.holder_pid is None:
            return "free"
        if _stale(state.mtime_ms, resolve_now_ms(now_ms)):
            return "stale"
        return "held" if is_process_running(state.holder_pid) else "dead"

    def try_acquire(self, *, now_ms: float | None = None) -> bool:
        """Take the lock for this PID; False if a live process holds a fresh lock or we lost a race."""
        if self._held:
            raise RuntimeError(
                f"{self.path} is already held by this ConsolidationLock; release it first"
            )
        make_memory_dir(self.memory_dir)  # a FIFO or a dead link above it is named
        # The guard makes check-and-write atomic among memdir_nb processes; write-then-verify
        # below still catches another writer that does not use the guard.
        with self._guarded():
            state = self.read_state()
            if state.exists and state.holder_pid is not None and state.holder_pid != self.pid:
                fresh = not _stale(state.mtime_ms, resolve_now_ms(now_ms))
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
        """Hold the guard file's flock, taken as every lock file of the dir is (storage.lock_file:
        never through a link, never truncated). A guard that is not a plain file of its own is
        a LockFileCorruptError naming it, not a bare OSError.

        It went through filelock, which before 3.20.1 (the project allows 3.13) opened the
        guard with O_TRUNC and followed a symlink: a guard linked to a memory (hard or
        symbolic) emptied that memory when a dream started (thirty-second session).
        """
        name = LOCK_NAME + LOCK_GUARD_SUFFIX
        real_root, root_fd = open_real_dir(self.memory_dir)
        try:
            fd = lock_at(root_fd, name, GUARD_TIMEOUT_S, real_root)
        except TimeoutError:
            raise  # another process holds it: that is no fault of the file
        except (OSError, PathTraversalError) as exc:
            raise LockFileCorruptError(
                f"{self.memory_dir / name} cannot be used as the consolidation lock's guard: "
                f"{exc} (if no dream is running, delete it)"
            ) from exc
        finally:
            os.close(root_fd)
        try:
            yield
        finally:
            os.close(fd)  # closing the descriptor releases the flock

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
        res = self._read()
        if res is None:
            return None
        text = res.data.decode("ascii", errors="replace").strip()
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
