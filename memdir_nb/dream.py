"""autoDream: when to consolidate (three gates and a PID lock), and what to change (a plan).

The filesystem is the only clock. The lock file `<memory_dir>/.consolidate-lock` holds the
PID of the process consolidating, and its mtime is lastConsolidatedAt: taking the lock sets
it to now, and a failed or aborted dream rolls it back, so the time gate opens again.

Consolidation itself is a dry run first: `plan_consolidation` reads the directory and
returns a `ConsolidationPlan` (actions plus a unified diff); `apply_plan` changes only the
approved actions, moves every file it deletes or rewrites into `.trash/`, and `restore`
puts a dream's files back.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import difflib
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Collection, Iterable, Iterator

from filelock import FileLock

LOCK_NAME = ".consolidate-lock"
LOCK_GUARD_SUFFIX = ".guard"
HOLDER_STALE_MS = 60 * 60 * 1000          # a lock older than this is reclaimed whatever its PID
MIN_HOURS = 24                             # time gate
MIN_SESSIONS = 5                           # sessions gate
SESSION_SCAN_INTERVAL_MS = 10 * 60 * 1000  # sessions gate scan throttle
TRASH_DIR = ".trash"
STORE_LOCK_NAME = ".memdir.lock"           # the store's lock: plans apply under it too


def _now_ms(now_ms: float | None) -> float:
    return time.time() * 1000 if now_ms is None else float(now_ms)


# --------------------------------------------------------------------------- lock


class LockFileCorruptError(ValueError):
    """The consolidation lock file holds something other than a PID; nothing was changed."""


def is_process_running(pid: int) -> bool:
    """True when `pid` names a live process (a zombie counts as dead)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
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
    mtime_ms: float          # lastConsolidatedAt; 0.0 when the file is absent
    mtime_ns: int | None
    holder_pid: int | None   # None when absent or empty (released)


class ConsolidationLock:
    """The PID lock whose mtime is lastConsolidatedAt (`<memory_dir>/.consolidate-lock`)."""

    def __init__(self, memory_dir: str | os.PathLike[str], *, pid: int | None = None) -> None:
        self.memory_dir = Path(memory_dir)
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
            st = os.stat(self.path)
        except FileNotFoundError:
            return LockState(False, 0.0, None, None)
        if not os.path.isfile(self.path):
            raise LockFileCorruptError(
                f"{self.path} is not a regular file; remove it so the consolidation lock can be recreated"
            )
        raw = self.path.read_bytes()
        try:
            text = raw.decode("ascii").strip()
        except UnicodeDecodeError:
            text = None
        if text is None or (text and not re.fullmatch(r"[0-9]{1,10}", text)) or (text and int(text) <= 0):
            shown = raw[:40].decode("utf-8", "replace")
            raise LockFileCorruptError(
                f"{self.path} should hold a process id or be empty, but holds {shown!r}; "
                "if no dream is running, empty or delete the file (its mtime is the last "
                "consolidation time, so emptying it keeps that)"
            )
        return LockState(True, st.st_mtime_ns / 1e6, st.st_mtime_ns, int(text) if text else None)

    def last_consolidated_at(self) -> float:
        """lastConsolidatedAt in ms (the lock file's mtime), 0.0 if never consolidated."""
        try:
            return os.stat(self.path).st_mtime_ns / 1e6
        except FileNotFoundError:
            return 0.0

    def holder_status(self, *, now_ms: float | None = None) -> str:
        """'free', 'held' (live holder, fresh lock), 'stale' (older than an hour) or 'dead' (holder gone)."""
        state = self.read_state()
        if not state.exists or state.holder_pid is None:
            return "free"
        if _now_ms(now_ms) - state.mtime_ms >= HOLDER_STALE_MS:
            return "stale"
        return "held" if is_process_running(state.holder_pid) else "dead"

    def try_acquire(self, *, now_ms: float | None = None) -> bool:
        """Take the lock for this PID; False if a live process holds a fresh lock or we lost a race."""
        if self._held:
            raise RuntimeError(f"{self.path} is already held by this ConsolidationLock; release it first")
        self.memory_dir.mkdir(parents=True, exist_ok=True)
        # The guard makes check-and-write atomic among memdir_nb processes; write-then-verify
        # below still catches another writer that does not use the guard.
        with FileLock(str(self.path) + LOCK_GUARD_SUFFIX, timeout=30):
            state = self.read_state()
            if state.exists and state.holder_pid is not None and state.holder_pid != self.pid:
                fresh = _now_ms(now_ms) - state.mtime_ms < HOLDER_STALE_MS
                if fresh and is_process_running(state.holder_pid):
                    return False
            self._write_body(str(self.pid))
            if self._read_pid() != self.pid:
                return False
        self._prior_mtime_ns = state.mtime_ns
        self._held = True
        return True

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
            self._write_body("")
            os.utime(self.path, ns=(self._prior_mtime_ns, self._prior_mtime_ns))
        self._held = False

    def _require_held(self, what: str) -> None:
        if not self._held:
            raise RuntimeError(f"cannot {what} {self.path}: this ConsolidationLock does not hold it")
        pid = self._read_pid()
        if pid != self.pid:
            self._held = False
            raise RuntimeError(
                f"cannot {what} {self.path}: it now names PID {pid}, not ours ({self.pid}); "
                "another process reclaimed it, so it is left alone"
            )

    def _read_pid(self) -> int | None:
        try:
            text = self.path.read_text(encoding="ascii", errors="replace").strip()
        except FileNotFoundError:
            return None
        return int(text) if text.isdigit() else None

    def _write_body(self, body: str) -> None:
        tmp = self.path.with_name(f"{LOCK_NAME}.{self.pid}.tmp")
        tmp.write_text(body, encoding="ascii")
        os.replace(tmp, self.path)

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


# --------------------------------------------------------------------------- gates


@dataclass(frozen=True)
class SessionScanThrottle:
    """Throttle state for the sessions gate; pass the one a GateResult returns into the next call."""

    last_scan_ms: float | None = None


@dataclass(frozen=True)
class GateResult:
    """Outcome of `dream_gates`: which gate closed (or 'open'), why, and the new throttle state."""

    open: bool
    gate: str                       # "time" | "sessions" | "lock" | "open"
    reason: str
    last_consolidated_ms: float
    session_count: int | None
    throttle: SessionScanThrottle
    lock: ConsolidationLock | None = None  # held when open; release() or rollback() it


def count_sessions_since(
    project_dir: str | os.PathLike[str], since_ms: float, *, exclude_session: str | None = None
) -> int:
    """Count `*.jsonl` transcripts in `project_dir` modified after `since_ms`, minus the current one."""
    count = 0
    try:
        it = os.scandir(project_dir)
    except FileNotFoundError:
        return 0
    with it:
        for entry in it:
            if not entry.name.endswith(".jsonl") or not entry.is_file(follow_symlinks=False):
                continue
            if exclude_session is not None and entry.name[: -len(".jsonl")] == exclude_session:
                continue
            if entry.stat(follow_symlinks=False).st_mtime_ns / 1e6 > since_ms:
                count += 1
    return count


def dream_gates(
    memory_dir: str | os.PathLike[str],
    *,
    current_session: str | None = None,
    throttle: SessionScanThrottle | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    now_ms: float | None = None,
    min_hours: float = MIN_HOURS,
    min_sessions: int = MIN_SESSIONS,
    scan_interval_ms: float = SESSION_SCAN_INTERVAL_MS,
    acquire: bool = True,
) -> GateResult:
    """Check time, sessions and lock gates, cheapest first; when all pass the lock is held."""
    now = _now_ms(now_ms)
    throttle = throttle or SessionScanThrottle()
    lock = ConsolidationLock(memory_dir)
    last = lock.last_consolidated_at()
    hours = (now - last) / 3_600_000
    if last and hours < min_hours:
        return GateResult(False, "time", f"last consolidation {hours:.1f} h ago, under {min_hours:g} h",
                          last, None, throttle)
    if throttle.last_scan_ms is not None and now - throttle.last_scan_ms < scan_interval_ms:
        mins = (now - throttle.last_scan_ms) / 60_000
        return GateResult(False, "sessions", f"sessions scanned {mins:.1f} min ago; scans are throttled to "
                          f"one per {scan_interval_ms / 60_000:g} min", last, None, throttle)
    throttle = SessionScanThrottle(last_scan_ms=now)
    pdir = Path(project_dir) if project_dir is not None else Path(memory_dir).parent
    sessions = count_sessions_since(pdir, last, exclude_session=current_session)
    if sessions < min_sessions:
        return GateResult(False, "sessions", f"{sessions} session(s) since the last consolidation, "
                          f"need {min_sessions}", last, sessions, throttle)
    if not acquire:
        return GateResult(True, "open", "time and sessions gates open (lock not taken)", last, sessions, throttle)
    try:
        got = lock.try_acquire(now_ms=now)
    except LockFileCorruptError as exc:
        return GateResult(False, "lock", str(exc), last, sessions, throttle)
    if not got:
        return GateResult(False, "lock", f"another process holds {lock.path}", last, sessions, throttle)
    return GateResult(True, "open", f"{sessions} sessions since the last consolidation; lock taken",
                      last, sessions, throttle, lock)
