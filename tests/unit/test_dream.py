"""autoDream: the consolidation lock (real processes), the three gates, and the plan/apply/restore cycle."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from memdir_nb.dream import (
    HOLDER_STALE_MS,
    LOCK_NAME,
    ConsolidationLock,
    LockFileCorruptError,
    SessionScanThrottle,
    count_sessions_since,
    dream_gates,
    is_process_running,
)

REPO = Path(__file__).resolve().parents[2]
HOUR_MS = 3_600_000.0
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


@pytest.fixture()
def memdir(tmp_path: Path) -> Path:
    d = tmp_path / "project" / "memory"
    d.mkdir(parents=True)
    return d


def _set_mtime_ms(path: Path, ms: float) -> None:
    ns = int(ms * 1e6)
    os.utime(path, ns=(ns, ns))


def _mtime_ms(path: Path) -> float:
    return os.stat(path).st_mtime_ns / 1e6


_HOLDER = textwrap.dedent(
    """
    import sys, time
    from memdir_nb.dream import ConsolidationLock
    lock = ConsolidationLock(sys.argv[1])
    print("acquired" if lock.try_acquire() else "refused", flush=True)
    time.sleep(120)
    """
)


def _spawn_holder(tmp_path: Path, memdir: Path) -> subprocess.Popen[str]:
    script = tmp_path / "holder.py"
    script.write_text(_HOLDER, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script), str(memdir)], stdout=subprocess.PIPE, text=True, env=ENV)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "acquired"
    return proc


# --------------------------------------------------------------------------- lock


def test_lock_path_is_consolidate_lock_in_memory_dir(memdir: Path) -> None:
    assert ConsolidationLock(memdir).path == memdir / ".consolidate-lock" == memdir / LOCK_NAME


def test_acquire_writes_pid_and_release_keeps_mtime_as_last_consolidated(memdir: Path) -> None:
    lock = ConsolidationLock(memdir)
    before = time.time() * 1000
    assert lock.try_acquire()
    assert lock.path.read_text().strip() == str(os.getpid())
    lock.release()
    assert lock.path.read_text() == ""
    assert lock.last_consolidated_at() >= before - 1000
    assert ConsolidationLock(memdir).holder_status() == "free"


def test_live_holder_process_blocks_then_killed_holder_lock_is_reclaimed(memdir: Path, tmp_path: Path) -> None:
    proc = _spawn_holder(tmp_path, memdir)
    try:
        lock = ConsolidationLock(memdir)
        assert lock.holder_status() == "held"
        assert lock.try_acquire() is False
        assert lock.path.read_text().strip() == str(proc.pid)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert not is_process_running(proc.pid)
    assert lock.holder_status() == "dead"
    assert lock.try_acquire() is True
    assert lock.path.read_text().strip() == str(os.getpid())
    lock.release()


def test_unreaped_zombie_holder_counts_as_dead(memdir: Path, tmp_path: Path) -> None:
    proc = _spawn_holder(tmp_path, memdir)
    os.kill(proc.pid, signal.SIGKILL)
    deadline = time.time() + 10
    while is_process_running(proc.pid) and time.time() < deadline:
        time.sleep(0.05)
    try:
        assert ConsolidationLock(memdir).try_acquire() is True  # zombie not yet reaped
    finally:
        proc.wait(timeout=30)


def test_lock_older_than_an_hour_is_reclaimed_even_with_live_holder(memdir: Path, tmp_path: Path) -> None:
    proc = _spawn_holder(tmp_path, memdir)
    try:
        lock = ConsolidationLock(memdir)
        _set_mtime_ms(lock.path, time.time() * 1000 - HOLDER_STALE_MS - 60_000)
        assert lock.holder_status() == "stale"
        assert lock.try_acquire() is True
        assert lock.path.read_text().strip() == str(os.getpid())
    finally:
        proc.kill()
        proc.wait(timeout=30)


_RACER = textwrap.dedent(
    """
    import os, sys, time
    from memdir_nb.dream import ConsolidationLock
    memdir, go = sys.argv[1], sys.argv[2]
    while not os.path.exists(go):
        time.sleep(0.001)
    lock = ConsolidationLock(memdir)
    won = lock.try_acquire()
    print("won" if won else "lost", flush=True)
    sys.stdin.read()  # hold until the parent has looked
    """
)


@pytest.mark.parametrize("start", ["no lock file", "dead holder"])
def test_racing_processes_exactly_one_wins(memdir: Path, tmp_path: Path, start: str) -> None:
    if start == "dead holder":
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait()
        (memdir / LOCK_NAME).write_text(str(dead.pid))
    script = tmp_path / "racer.py"
    script.write_text(_RACER, encoding="utf-8")
    go = tmp_path / "go"
    procs = [
        subprocess.Popen([sys.executable, str(script), str(memdir), str(go)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=ENV)
        for _ in range(4)
    ]
    time.sleep(0.5)  # let them all import and spin on the start flag
    go.write_text("go")
    results = []
    for p in procs:
        assert p.stdout is not None
        results.append(p.stdout.readline().strip())
    winner_pids = [p.pid for p, r in zip(procs, results) if r == "won"]
    holder = (memdir / LOCK_NAME).read_text().strip()
    for p in procs:
        p.communicate("", timeout=30)
    assert sorted(results) == ["lost", "lost", "lost", "won"]
    assert holder == str(winner_pids[0])


def test_rollback_restores_the_mtime_from_before_acquire(memdir: Path) -> None:
    lock = ConsolidationLock(memdir)
    lock.path.write_text("")
    old = time.time() * 1000 - 30 * HOUR_MS
    _set_mtime_ms(lock.path, old)
    assert lock.try_acquire()
    assert _mtime_ms(lock.path) > old + HOUR_MS
    lock.rollback()
    assert _mtime_ms(lock.path) == pytest.approx(old, abs=1)
    assert lock.path.read_text() == ""
    assert not lock.held


def test_rollback_of_a_first_ever_lock_removes_the_file(memdir: Path) -> None:
    lock = ConsolidationLock(memdir)
    assert lock.try_acquire()
    lock.rollback()
    assert not lock.path.exists()
    assert lock.last_consolidated_at() == 0.0


def test_hold_context_rolls_back_when_the_dream_fails(memdir: Path) -> None:
    lock = ConsolidationLock(memdir)
    lock.path.write_text("")
    old = time.time() * 1000 - 48 * HOUR_MS
    _set_mtime_ms(lock.path, old)
    with pytest.raises(RuntimeError, match="model failed"):
        with lock.hold() as got:
            assert got
            raise RuntimeError("model failed")
    assert _mtime_ms(lock.path) == pytest.approx(old, abs=1)


def test_release_refuses_when_another_process_reclaimed_the_lock(memdir: Path) -> None:
    lock = ConsolidationLock(memdir)
    assert lock.try_acquire()
    lock.path.write_text("424242")
    with pytest.raises(RuntimeError, match="another process reclaimed it"):
        lock.release()
    assert lock.path.read_text() == "424242"


@pytest.mark.parametrize("body", [b"not a pid", b"12abc", b"\xff\xfe\x00", b"-5", b"0"])
def test_corrupt_lock_file_is_a_clear_error_and_is_left_untouched(memdir: Path, body: bytes) -> None:
    lock = ConsolidationLock(memdir)
    lock.path.write_bytes(body)
    old = time.time() * 1000 - 30 * HOUR_MS
    _set_mtime_ms(lock.path, old)
    with pytest.raises(LockFileCorruptError, match="should hold a process id or be empty"):
        lock.try_acquire()
    assert lock.path.read_bytes() == body
    assert _mtime_ms(lock.path) == pytest.approx(old, abs=1)


def test_lock_path_that_is_a_directory_is_a_clear_error(memdir: Path) -> None:
    (memdir / LOCK_NAME).mkdir()
    with pytest.raises(LockFileCorruptError, match="not a regular file"):
        ConsolidationLock(memdir).try_acquire()


# --------------------------------------------------------------------------- gates


def _sessions(memdir: Path, n: int, mtime_ms: float, *, prefix: str = "s") -> list[Path]:
    out = []
    for i in range(n):
        p = memdir.parent / f"{prefix}{i}.jsonl"
        p.write_text('{"type":"user"}\n')
        _set_mtime_ms(p, mtime_ms)
        out.append(p)
    return out


def test_time_gate_closed_under_24_hours_since_lock_mtime(memdir: Path) -> None:
    now = time.time() * 1000
    lock = memdir / LOCK_NAME
    lock.write_text("")
    _set_mtime_ms(lock, now - 23 * HOUR_MS)
    _sessions(memdir, 10, now - HOUR_MS)
    result = dream_gates(memdir, now_ms=now)
    assert (result.open, result.gate) == (False, "time")
    assert result.session_count is None  # the sessions scan was never paid for
    assert result.throttle == SessionScanThrottle()


def test_sessions_gate_counts_newer_transcripts_excluding_current(memdir: Path) -> None:
    now = time.time() * 1000
    lock = memdir / LOCK_NAME
    lock.write_text("")
    _set_mtime_ms(lock, now - 48 * HOUR_MS)
    _sessions(memdir, 3, now - 72 * HOUR_MS, prefix="old")  # before the last consolidation
    _sessions(memdir, 5, now - HOUR_MS, prefix="new")
    (memdir.parent / "notes.txt").write_text("not a transcript")
    assert count_sessions_since(memdir.parent, now - 48 * HOUR_MS) == 5
    result = dream_gates(memdir, current_session="new0", now_ms=now, acquire=False)
    assert (result.open, result.gate, result.session_count) == (False, "sessions", 4)
    result = dream_gates(memdir, current_session="someone-else", now_ms=now + 11 * 60_000, acquire=False,
                         throttle=result.throttle)
    assert (result.open, result.session_count) == (True, 5)


def test_sessions_scan_is_throttled_to_one_per_ten_minutes(memdir: Path) -> None:
    now = time.time() * 1000
    first = dream_gates(memdir, now_ms=now)
    assert (first.gate, first.session_count) == ("sessions", 0)
    assert first.throttle.last_scan_ms == now
    _sessions(memdir, 6, now)
    second = dream_gates(memdir, now_ms=now + 9 * 60_000, throttle=first.throttle)
    assert (second.open, second.gate, second.session_count) == (False, "sessions", None)
    assert "throttled" in second.reason
    third = dream_gates(memdir, now_ms=now + 10 * 60_000, throttle=second.throttle)
    assert third.open and third.lock is not None and third.lock.held
    third.lock.rollback()
    assert not (memdir / LOCK_NAME).exists()


def test_live_holder_closes_the_time_gate_and_the_lock_gate_when_time_is_waived(memdir: Path, tmp_path: Path) -> None:
    now = time.time() * 1000
    _sessions(memdir, 5, now - HOUR_MS)
    proc = _spawn_holder(tmp_path, memdir)
    try:
        # Taking the lock set its mtime to now, so the time gate closes first for everyone.
        assert dream_gates(memdir, now_ms=now).gate == "time"
        # A manual dream that waives the time gate still meets the live holder at the lock gate.
        _sessions(memdir, 5, time.time() * 1000 + 60_000, prefix="later")
        result = dream_gates(memdir, now_ms=time.time() * 1000 + 120_000, min_hours=0)
        assert (result.open, result.gate) == (False, "lock")
        assert result.session_count == 5
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_corrupt_lock_closes_the_lock_gate_with_the_reason(memdir: Path) -> None:
    now = time.time() * 1000
    lock = memdir / LOCK_NAME
    lock.write_text("garbage")
    _set_mtime_ms(lock, now - 30 * HOUR_MS)
    _sessions(memdir, 5, now - HOUR_MS)
    result = dream_gates(memdir, now_ms=now)
    assert (result.open, result.gate) == (False, "lock")
    assert "should hold a process id" in result.reason
    assert lock.read_text() == "garbage"
