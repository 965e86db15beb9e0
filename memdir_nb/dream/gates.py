"""When to dream: the time gate, the sessions gate (scan throttled) and the lock."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.clock import resolve_now_ms
from memdir_nb.dream.lock import ConsolidationLock, LockFileCorruptError, dated_ahead

MIN_HOURS = 24  # time gate
MIN_SESSIONS = 5  # sessions gate
SESSION_SCAN_INTERVAL_MS = 10 * 60 * 1000  # sessions gate scan throttle


@dataclass(frozen=True)
class SessionScanThrottle:
    """Throttle state for the sessions gate; pass the one a GateResult returns into the next call."""

    last_scan_ms: float | None = None


@dataclass(frozen=True)
class GateResult:
    """Outcome of `dream_gates`: which gate closed (or 'open'), why, and the new throttle state."""

    open: bool
    gate: str  # "time" | "sessions" | "lock" | "open"
    reason: str
    last_consolidated_ms: float
    session_count: int | None
    throttle: SessionScanThrottle
    lock: ConsolidationLock | None = None  # held when open; release() or rollback() it


def since_text(last_ms: float, now_ms: float) -> str:
    """'5.0 h ago', or 'dated 0.5 h ahead of this clock' for a lock within the clock skew."""
    hours = (now_ms - last_ms) / 3_600_000
    return f"{hours:.1f} h ago" if hours >= 0 else f"dated {-hours:.1f} h ahead of this clock"


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
    now = resolve_now_ms(now_ms)
    throttle = throttle or SessionScanThrottle()
    lock = ConsolidationLock(memory_dir)
    try:
        last = lock.last_consolidated_at()
    except LockFileCorruptError as exc:  # no time to read: the lock gate is what is closed
        return GateResult(False, "lock", str(exc), 0.0, None, throttle)
    if dated_ahead(last, now):  # no clock of ours wrote it: no consolidation is known
        last = 0.0
    hours = (now - last) / 3_600_000
    if last and hours < min_hours:
        return GateResult(
            False,
            "time",
            f"last consolidation {since_text(last, now)}, under {min_hours:g} h",
            last,
            None,
            throttle,
        )
    if throttle.last_scan_ms is not None and now - throttle.last_scan_ms < scan_interval_ms:
        mins = (now - throttle.last_scan_ms) / 60_000
        return GateResult(
            False,
            "sessions",
            f"sessions scanned {mins:.1f} min ago; scans are throttled to "
            f"one per {scan_interval_ms / 60_000:g} min",
            last,
            None,
            throttle,
        )
    throttle = SessionScanThrottle(last_scan_ms=now)
    pdir = Path(project_dir) if project_dir is not None else Path(memory_dir).parent
    sessions = count_sessions_since(pdir, last, exclude_session=current_session)
    if sessions < min_sessions:
        return GateResult(
            False,
            "sessions",
            f"{sessions} session(s) since the last consolidation, need {min_sessions}",
            last,
            sessions,
            throttle,
        )
    if not acquire:
        return GateResult(
            True, "open", "time and sessions gates open (lock not taken)", last, sessions, throttle
        )
    try:
        got = lock.try_acquire(now_ms=now)
    except LockFileCorruptError as exc:
        return GateResult(False, "lock", str(exc), last, sessions, throttle)
    if not got:
        return GateResult(
            False, "lock", f"another process holds {lock.path}", last, sessions, throttle
        )
    return GateResult(
        True,
        "open",
        f"{sessions} sessions since the last consolidation; lock taken",
        last,
        sessions,
        throttle,
        lock,
    )
