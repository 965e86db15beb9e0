"""dream/gates: the time, sessions and lock gates."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memdir_nb.dream import (
    LOCK_NAME,
    SessionScanThrottle,
    count_sessions_since,
    dream_gates,
)
from tests.support.lock_holder import set_mtime_ms, spawn_holder

HOUR_MS = 3_600_000.0


# --------------------------------------------------------------------------- gates


def _sessions(project_memdir: Path, n: int, mtime_ms: float, *, prefix: str = "s") -> list[Path]:
    out = []
    for i in range(n):
        p = project_memdir.parent / f"{prefix}{i}.jsonl"
        p.write_text('{"type":"user"}\n')
        set_mtime_ms(p, mtime_ms)
        out.append(p)
    return out


def test_time_gate_closed_under_24_hours_since_lock_mtime(project_memdir: Path) -> None:
    now = time.time() * 1000
    lock = project_memdir / LOCK_NAME
    lock.write_text("")
    set_mtime_ms(lock, now - 23 * HOUR_MS)
    _sessions(project_memdir, 10, now - HOUR_MS)
    result = dream_gates(project_memdir, now_ms=now)
    assert (result.open, result.gate) == (False, "time")
    assert result.session_count is None  # the sessions scan was never paid for
    assert result.throttle == SessionScanThrottle()


def test_sessions_gate_counts_newer_transcripts_excluding_current(project_memdir: Path) -> None:
    now = time.time() * 1000
    lock = project_memdir / LOCK_NAME
    lock.write_text("")
    set_mtime_ms(lock, now - 48 * HOUR_MS)
    _sessions(project_memdir, 3, now - 72 * HOUR_MS, prefix="old")  # before the last consolidation
    _sessions(project_memdir, 5, now - HOUR_MS, prefix="new")
    (project_memdir.parent / "notes.txt").write_text("not a transcript")
    assert count_sessions_since(project_memdir.parent, now - 48 * HOUR_MS) == 5
    result = dream_gates(project_memdir, current_session="new0", now_ms=now, acquire=False)
    assert (result.open, result.gate, result.session_count) == (False, "sessions", 4)
    result = dream_gates(
        project_memdir,
        current_session="someone-else",
        now_ms=now + 11 * 60_000,
        acquire=False,
        throttle=result.throttle,
    )
    assert (result.open, result.session_count) == (True, 5)


def test_sessions_scan_is_throttled_to_one_per_ten_minutes(project_memdir: Path) -> None:
    now = time.time() * 1000
    first = dream_gates(project_memdir, now_ms=now)
    assert (first.gate, first.session_count) == ("sessions", 0)
    assert first.throttle.last_scan_ms == now
    _sessions(project_memdir, 6, now)
    second = dream_gates(project_memdir, now_ms=now + 9 * 60_000, throttle=first.throttle)
    assert (second.open, second.gate, second.session_count) == (False, "sessions", None)
    assert "throttled" in second.reason
    third = dream_gates(project_memdir, now_ms=now + 10 * 60_000, throttle=second.throttle)
    assert third.open and third.lock is not None and third.lock.held
    third.lock.rollback()
    assert not (project_memdir / LOCK_NAME).exists()


def test_live_holder_closes_the_time_gate_and_the_lock_gate_when_time_is_waived(
    project_memdir: Path, tmp_path: Path
) -> None:
    now = time.time() * 1000
    _sessions(project_memdir, 5, now - HOUR_MS)
    proc = spawn_holder(tmp_path, project_memdir)
    try:
        # Taking the lock set its mtime to now, so the time gate closes first for everyone.
        assert dream_gates(project_memdir, now_ms=now).gate == "time"
        # A manual dream that waives the time gate still meets the live holder at the lock gate.
        _sessions(project_memdir, 5, time.time() * 1000 + 60_000, prefix="later")
        result = dream_gates(project_memdir, now_ms=time.time() * 1000 + 120_000, min_hours=0)
        assert (result.open, result.gate) == (False, "lock")
        assert result.session_count == 5
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_corrupt_lock_closes_the_lock_gate_with_the_reason(project_memdir: Path) -> None:
    now = time.time() * 1000
    lock = project_memdir / LOCK_NAME
    lock.write_text("garbage")
    set_mtime_ms(lock, now - 30 * HOUR_MS)
    _sessions(project_memdir, 5, now - HOUR_MS)
    result = dream_gates(project_memdir, now_ms=now)
    assert (result.open, result.gate) == (False, "lock")
    assert "should hold a process id" in result.reason
    assert lock.read_text() == "garbage"


@pytest.mark.parametrize("kind", ["loop", "fifo", "folder", "link out of the dir"])
def test_a_lock_that_is_not_a_plain_file_closes_the_lock_gate_naming_it(
    project_memdir: Path, tmp_path: Path, kind: str
) -> None:
    # attack round 30: the time gate stat()ed the lock following links: a symlink loop let
    # OSError (ELOOP) out of dream_gates, and a link to /dev/zero or a folder gave their time
    lock = project_memdir / LOCK_NAME
    if kind == "loop":
        lock.symlink_to(lock)
    elif kind == "fifo":
        os.mkfifo(lock)
    elif kind == "folder":
        lock.mkdir()
    else:
        (tmp_path / "elsewhere").write_text("")
        lock.symlink_to(tmp_path / "elsewhere")
    now = time.time() * 1000
    _sessions(project_memdir, 5, now - HOUR_MS)
    result = dream_gates(project_memdir, now_ms=now)
    assert (result.open, result.gate, result.last_consolidated_ms) == (False, "lock", 0.0)
    assert LOCK_NAME in result.reason and "remove it" in result.reason
    assert os.path.lexists(lock)


def test_a_lock_dated_past_the_clock_skew_opens_the_time_gate_and_is_redated(
    project_memdir: Path,
) -> None:
    # thirty-second session: a lock dated 2500 closed the time gate for ever ("last
    # consolidation -3676743.2 h ago, under 24 h") and counted no session as newer
    now = time.time() * 1000
    lock = project_memdir / LOCK_NAME
    lock.write_text("")
    set_mtime_ms(lock, 16_725_225_600_000.0)  # 2500-01-01
    _sessions(project_memdir, 5, now - HOUR_MS)
    result = dream_gates(project_memdir, now_ms=now)
    assert (result.open, result.session_count, result.last_consolidated_ms) == (True, 5, 0.0)
    assert result.lock is not None
    result.lock.release()
    assert abs(lock.stat().st_mtime_ns / 1e6 - time.time() * 1000) < HOUR_MS


def test_a_lock_slightly_ahead_of_the_clock_says_so_in_the_time_gate(
    project_memdir: Path,
) -> None:
    now = time.time() * 1000
    lock = project_memdir / LOCK_NAME
    lock.write_text("")
    set_mtime_ms(lock, now + HOUR_MS / 2)
    result = dream_gates(project_memdir, now_ms=now)
    assert (result.open, result.gate) == (False, "time")
    assert "dated 0.5 h ahead of this clock" in result.reason and "-0.5" not in result.reason
