"""autoDream: the consolidation lock (real processes), the three gates, and the plan/apply/restore cycle."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import anthropic
import pytest

from memdir_nb.dream import (
    HOLDER_STALE_MS,
    LOCK_NAME,
    ConsolidationLock,
    LockFileCorruptError,
    PlanStaleError,
    SessionScanThrottle,
    apply_plan,
    build_consolidation_prompt,
    count_sessions_since,
    dream_gates,
    is_process_running,
    list_dreams,
    plan_consolidation_with_claude,
    restore,
)
from tests.support import snapshot, write_memory
from tests.support.messages_api import MessagesAPIServer, Reply, message_body, text_reply

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
    import sys
    from memdir_nb.dream import ConsolidationLock
    lock = ConsolidationLock(sys.argv[1])
    print("acquired" if lock.try_acquire() else "refused", flush=True)
    sys.stdin.read()  # hold the lock until the parent kills us or closes stdin
    """
)


def _spawn_holder(tmp_path: Path, memdir: Path) -> subprocess.Popen[str]:
    script = tmp_path / "holder.py"
    script.write_text(_HOLDER, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script), str(memdir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=ENV,
    )
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


def test_live_holder_process_blocks_then_killed_holder_lock_is_reclaimed(
    memdir: Path, tmp_path: Path
) -> None:
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


def test_lock_older_than_an_hour_is_reclaimed_even_with_live_holder(
    memdir: Path, tmp_path: Path
) -> None:
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
    print("ready", flush=True)
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
        subprocess.Popen(
            [sys.executable, str(script), str(memdir), str(go)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        for _ in range(4)
    ]
    for p in procs:  # each racer says when it has imported and is spinning on the start flag
        assert p.stdout is not None
        assert p.stdout.readline().strip() == "ready"
    go.write_text("go")
    results = []
    for p in procs:
        assert p.stdout is not None
        results.append(p.stdout.readline().strip())
    winner_pids = [p.pid for p, r in zip(procs, results, strict=False) if r == "won"]
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
    with pytest.raises(RuntimeError, match="model failed"), lock.hold() as got:
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
def test_corrupt_lock_file_is_a_clear_error_and_is_left_untouched(
    memdir: Path, body: bytes
) -> None:
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
    result = dream_gates(
        memdir,
        current_session="someone-else",
        now_ms=now + 11 * 60_000,
        acquire=False,
        throttle=result.throttle,
    )
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


def test_live_holder_closes_the_time_gate_and_the_lock_gate_when_time_is_waived(
    memdir: Path, tmp_path: Path
) -> None:
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


# --------------------------------------------------------------------------- plan / apply / restore

import datetime as dt  # noqa: E402

from memdir_nb.dream import (  # noqa: E402
    PlanError,
    RestoreError,
    convert_relative_dates,
    plan_consolidation,
)

PLAN_NOW = dt.datetime(2026, 3, 28, 12, 0).timestamp() * 1000
DAY = 86_400_000.0


def _tree(memdir: Path) -> dict[str, tuple[Any, ...]]:
    """The memories themselves: everything outside the dot-folders (trash, locks)."""
    return snapshot(memdir, ignore=(), skip_dot_paths=True)


@pytest.fixture()
def messy(memdir: Path) -> Path:
    write_memory(
        memdir,
        "feedback_testing.md",
        name="Integration tests hit a real database",
        description="integration tests must use a real database, not mocks",
        type="feedback",
        body="Integration tests must hit a real database, not mocks.\nWhy: mocked tests passed while the migration failed.",
        age_days=1,
        now_ms=PLAN_NOW,
    )
    write_memory(
        memdir,
        "feedback_testing_db.md",
        name="Integration tests hit a real database",
        description="integration tests must use a real database, not mocks",
        type="feedback",
        body="Integration tests must hit a real database, not mocks.\nHow to apply: use the docker compose db.",
        age_days=20,
        now_ms=PLAN_NOW,
    )
    write_memory(
        memdir,
        "project_freeze.md",
        name="Merge freeze",
        description="mobile release freeze",
        type="project",
        body="Merge freeze starts next Thursday; decided yesterday.\n```\necho yesterday\n```",
        age_days=0,
        now_ms=PLAN_NOW,
    )
    write_memory(
        memdir,
        "user_role.md",
        name="User role",
        description="data scientist new to the frontend",
        type="user",
        body="Ten years of Python, first week with React.",
        age_days=3,
        now_ms=PLAN_NOW,
    )
    write_memory(
        memdir,
        "reference_dashboard.md",
        name="Grafana board",
        description="where the latency dashboard lives",
        type="reference",
        body="grafana.internal/d/api-latency is what on-call watches.",
        age_days=5,
        now_ms=PLAN_NOW,
    )
    long_hook = "the mobile team freezes merges for the release; " * 6
    (memdir / "MEMORY.md").write_text(
        "- [Integration tests hit a real database](feedback_testing.md) — real db, no mocks\n"
        "- [Integration tests hit a real database](feedback_testing_db.md) — real db, no mocks\n"
        f"- [Merge freeze](project_freeze.md) — {long_hook}\n"
        "- [Grafana board](reference_dashboard.md) — latency dashboard\n"
        "- [Old deploy notes](project_deploy_old.md) — deleted long ago\n",
        encoding="utf-8",
    )
    return memdir


def test_relative_dates_become_absolute_against_the_file_date_outside_code() -> None:
    base = dt.date(2026, 3, 28)  # a Saturday
    text, changes = convert_relative_dates(
        "Decided yesterday; ship in 3 days, review last week, freeze next Thursday, `today` stays.\n```\ntoday\n```",
        base,
    )
    assert text.startswith(
        "Decided 2026-03-27; ship 2026-03-31, review the week of 2026-03-16, freeze 2026-04-02,"
    )
    assert "`today` stays" in text and text.endswith("```\ntoday\n```")
    assert len(changes) == 4


def test_plan_is_a_dry_run_listing_every_kind_of_fix(messy: Path) -> None:
    before = _tree(messy)
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    assert _tree(messy) == before and not (messy / ".trash").exists()
    kinds = {a.kind: a for a in plan.actions}
    assert set(kinds) >= {
        "merge_duplicates",
        "absolute_dates",
        "drop_dangling_index_line",
        "add_missing_index_line",
        "shorten_index_line",
    }
    merge = kinds["merge_duplicates"]
    assert merge.files[:2] == (
        "feedback_testing.md",
        "feedback_testing_db.md",
    )  # the newest absorbs the older
    assert "project_freeze.md" in kinds["absolute_dates"].files
    assert "project_deploy_old.md" in kinds["drop_dangling_index_line"].summary
    assert kinds["add_missing_index_line"].files == ("MEMORY.md", "user_role.md")
    diff = plan.diff()
    assert "--- a/feedback_testing_db.md\n+++ /dev/null" in diff
    assert "+Merge freeze starts 2026-04-02; decided 2026-03-27." in diff
    assert "-- [Old deploy notes](project_deploy_old.md)" in diff
    assert "+- [User role](user_role.md)" in diff
    assert "+How to apply: use the docker compose db." in diff


def test_apply_all_then_restore_brings_every_file_back(messy: Path) -> None:
    before = _tree(messy)
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    expected = plan.result()
    result = apply_plan(plan)
    assert result.trashed == ("feedback_testing_db.md",)
    assert not (messy / "feedback_testing_db.md").exists()
    trashed = messy / ".trash" / result.batch / "feedback_testing_db.md"
    assert trashed.read_bytes() == before["feedback_testing_db.md"][1]
    for rel, text in expected.items():
        assert (
            (messy / rel).read_text(encoding="utf-8") == text
            if text is not None
            else not (messy / rel).exists()
        )
    index_text = (messy / "MEMORY.md").read_text(encoding="utf-8")
    assert "project_deploy_old.md" not in index_text and "feedback_testing_db.md" not in index_text
    assert all(len(line) <= 200 for line in index_text.split("\n"))
    assert list_dreams(messy) == [result.batch]
    restored = restore(messy, result.batch)
    assert set(restored) == set(expected)
    assert _tree(messy) == before
    with pytest.raises(RestoreError, match="already restored"):
        restore(messy, result.batch)


def test_apply_changes_only_the_approved_actions(messy: Path) -> None:
    before = _tree(messy)
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    dates = next(a for a in plan.actions if a.kind == "absolute_dates")
    result = apply_plan(plan, approve=[dates.id])
    after = _tree(messy)
    assert result.changed == ("project_freeze.md",) and result.trashed == ()
    assert {k for k in before if before[k] != after.get(k)} == {"project_freeze.md"}
    assert "2026-03-27" in after["project_freeze.md"][1].decode()


def test_plan_applied_twice_is_refused(messy: Path) -> None:
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    apply_plan(plan)
    snapshot = _tree(messy)
    with pytest.raises(PlanError, match="already applied"):
        apply_plan(plan)
    plan.applied = False  # even a copy that forgot it was applied is caught by the hashes
    with pytest.raises(PlanStaleError, match="changed since the plan was made"):
        apply_plan(plan)
    assert _tree(messy) == snapshot


def test_plan_refused_when_a_file_changed_underneath_and_names_it(messy: Path) -> None:
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    before = _tree(messy)
    (messy / "feedback_testing_db.md").write_text("edited by the user meanwhile\n")
    (messy / "MEMORY.md").unlink()
    with pytest.raises(PlanStaleError) as err:
        apply_plan(plan)
    assert "feedback_testing_db.md (modified)" in str(err.value) and "MEMORY.md (deleted)" in str(
        err.value
    )
    after = _tree(messy)
    assert after["feedback_testing.md"] == before["feedback_testing.md"]
    assert not (messy / ".trash").exists()


def test_unknown_approved_action_is_refused_and_nothing_changes(messy: Path) -> None:
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    before = _tree(messy)
    with pytest.raises(PlanError, match="not in this plan"):
        apply_plan(plan, approve=["merge:nope.md"])
    assert _tree(messy) == before


def test_contradicting_memories_are_flagged_not_changed(memdir: Path) -> None:
    write_memory(
        memdir,
        "feedback_tabs.md",
        name="Indent Go with tabs",
        description="use tabs to indent Go code",
        type="feedback",
        body="Use tabs to indent Go code in this repo.",
        now_ms=PLAN_NOW,
    )
    write_memory(
        memdir,
        "feedback_spaces.md",
        name="Go indentation",
        description="never use tabs to indent Go code",
        type="feedback",
        body="Never use tabs to indent Go code here; spaces only.",
        now_ms=PLAN_NOW,
    )
    plan = plan_consolidation(memdir, now_ms=PLAN_NOW)
    flags = [a for a in plan.actions if a.kind == "flag_contradiction"]
    assert len(flags) == 1 and set(flags[0].files) == {"feedback_tabs.md", "feedback_spaces.md"}
    assert flags[0].ops == ()
    assert not any(a.kind == "merge_duplicates" for a in plan.actions)


def test_index_over_both_caps_is_brought_back_under_them(memdir: Path) -> None:
    import random

    rng = random.Random(7)
    vocab = [
        f"{a}{b}"
        for a in ("ka", "lo", "mi", "nu", "pe", "ro", "su", "ti", "va", "ze")
        for b in ("bar", "cor", "dun", "fel", "gim", "hox", "jup", "kel", "mor", "nix")
    ]
    lines = []
    for i in range(230):
        words = rng.sample(vocab, 8)
        write_memory(
            memdir,
            f"project_note_{i:03d}.md",
            name=" ".join(words[:3]),
            description=" ".join(words[3:6]),
            type="project",
            body=" ".join(rng.sample(vocab, 12)),
            age_days=i,
            now_ms=PLAN_NOW,
        )
        lines.append(f"- [Note {i}](project_note_{i:03d}.md) — topic number {i} " + "q" * 120)
    (memdir / "MEMORY.md").write_text("\n".join(lines) + "\n")
    plan = plan_consolidation(memdir, now_ms=PLAN_NOW)
    assert any(a.kind == "fit_index_caps" for a in plan.actions)
    apply_plan(plan)
    text = (memdir / "MEMORY.md").read_text(encoding="utf-8")
    assert len(text.rstrip("\n").split("\n")) <= 200 and len(text.encode()) <= 25_000
    assert (
        "project_note_000.md" in text and "project_note_229.md" not in text
    )  # the oldest pointers go
    assert (memdir / "project_note_229.md").exists()  # files are never removed by fitting


def test_restore_single_file_and_refuse_when_it_was_edited_after(messy: Path) -> None:
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    original = (messy / "feedback_testing_db.md").read_bytes()
    apply_plan(plan)
    assert restore(messy, "feedback_testing_db.md") == ["feedback_testing_db.md"]
    assert (messy / "feedback_testing_db.md").read_bytes() == original
    (messy / "project_freeze.md").write_text("user edit after the dream\n")
    with pytest.raises(RestoreError, match="project_freeze.md changed after the dream"):
        restore(messy, "project_freeze.md")
    assert (messy / "project_freeze.md").read_text() == "user edit after the dream\n"
    with pytest.raises(RestoreError, match="nothing named"):
        restore(messy, "never_existed.md")


def test_plan_of_missing_dir_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match="does not exist"):
        plan_consolidation(tmp_path / "nope")


# --------------------------------------------------------------------------- Claude-driven plan

CLAUDE_NOW = 1_774_700_000_000.0


def _calls(*calls: tuple[str, str, dict]) -> Reply:
    blocks = [
        {"type": "tool_use", "id": cid, "name": name, "input": inp} for cid, name, inp in calls
    ]
    return Reply(200, message_body(blocks, stop_reason="tool_use"))


def _all_files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture()
def claude_dir(tmp_path: Path) -> Path:
    mem = tmp_path / "project" / "memory"
    mem.mkdir(parents=True)
    write_memory(
        mem,
        "feedback_tests.md",
        name="Real services in tests",
        description="integration tests hit the sandbox",
        type="feedback",
        body="Use the sandbox gateway.\n**Why:** mocks hid a failed migration.",
        now_ms=CLAUDE_NOW,
    )
    write_memory(
        mem,
        "feedback_tests_2.md",
        name="No mocks",
        description="no mocked payment tests",
        type="feedback",
        body="Never mock the payment gateway.",
        now_ms=CLAUDE_NOW,
        age_days=3,
    )
    (mem / "MEMORY.md").write_text(
        "- [Real services in tests](feedback_tests.md) — integration tests hit the sandbox\n"
        "- [No mocks](feedback_tests_2.md) — no mocked payment tests\n",
        encoding="utf-8",
    )
    (mem / "logs" / "2026" / "03").mkdir(parents=True)
    (mem / "logs" / "2026" / "03" / "2026-03-27.md").write_text(
        "# Daily log 2026-03-27\n\n## 10:00:00\n\nDana owns the gateway.\n"
    )
    return mem


def _claude_script(mem: Path, outside: Path) -> list[Reply]:
    merged = (
        "---\nname: Real services in tests\ndescription: payment tests hit the sandbox gateway, never mocks\n"
        "type: feedback\n---\n\nUse the sandbox gateway; never mock it.\n**Why:** mocks hid a failed migration.\n"
    )
    return [
        _calls(
            ("r1", "Read", {"file_path": str(mem / "MEMORY.md")}),
            ("r2", "Bash", {"command": f"ls {mem}"}),
            ("r3", "Bash", {"command": f"rm -rf {mem}"}),
            ("r4", "Bash", {"command": f"cat {mem}/MEMORY.md > {outside}"}),
            ("r5", "Write", {"file_path": str(outside), "content": "pwned"}),
        ),
        _calls(
            ("w1", "Write", {"file_path": str(mem / "feedback_tests.md"), "content": merged}),
            ("w2", "Write", {"file_path": str(mem / "feedback_tests_2.md"), "content": ""}),
            (
                "w3",
                "Edit",
                {
                    "file_path": str(mem / "MEMORY.md"),
                    "old_string": "- [No mocks](feedback_tests_2.md) — no mocked payment tests\n",
                    "new_string": "",
                },
            ),
            (
                "w4",
                "Write",
                {
                    "file_path": str(mem / "reference_gateway.md"),
                    "content": "---\nname: Gateway owner\ndescription: Dana owns the sandbox gateway\n"
                    "type: reference\n---\n\nDana owns it.\n",
                },
            ),
            ("w5", "Write", {"file_path": str(mem / ".trash" / "x.md"), "content": "x"}),
            (
                "w6",
                "Edit",
                {"file_path": str(mem / "MEMORY.md"), "old_string": "not there", "new_string": "y"},
            ),
        ),
        _calls(("c1", "Read", {"file_path": str(mem / "feedback_tests.md")})),
        text_reply("Merged the two testing memories and recorded the gateway owner."),
    ]


def _client(api: MessagesAPIServer) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="test-key", base_url=api.base_url, max_retries=0)


def test_claude_plan_captures_writes_and_writes_nothing_until_apply(
    claude_dir: Path, tmp_path: Path
) -> None:
    mem = claude_dir
    outside = tmp_path / "outside.txt"
    before = _all_files(tmp_path)
    with MessagesAPIServer(_claude_script(mem, outside)) as api:
        plan = plan_consolidation_with_claude(mem, client=_client(api), now_ms=CLAUDE_NOW)
        bodies = [r.body for r in api.requests]
    assert _all_files(tmp_path) == before  # nothing written, nothing deleted, no lock, no trash
    assert not outside.exists() and not (mem / ".trash").exists()

    assert plan.source == "claude"
    kinds = {a.id: a.kind for a in plan.actions}
    assert kinds == {
        "claude:MEMORY.md": "claude_rewrite",
        "claude:feedback_tests.md": "claude_rewrite",
        "claude:feedback_tests_2.md": "claude_retire",
        "claude:reference_gateway.md": "claude_create",
    }
    diff = plan.diff()
    assert (
        "-- [No mocks](feedback_tests_2.md)" in diff
        and "+++ /dev/null" in diff
        and "never mock it" in diff
    )

    # the sandbox refused the dangerous calls and told the model so
    refused = [n for n in plan.notes if n.startswith("refused")]
    assert len(refused) == 4
    results = {
        b["tool_use_id"]: b
        for req in bodies[1:]
        for b in req["messages"][-1]["content"]
        if isinstance(b, dict) and b.get("type") == "tool_result"
    }
    for cid in ("r3", "r4", "r5", "w5"):
        assert results[cid]["is_error"] is True and "Permission denied" in results[cid]["content"]
    assert results["r1"]["is_error"] is False and "feedback_tests_2.md" in results["r1"]["content"]
    assert results["r2"]["is_error"] is False and "feedback_tests.md" in results["r2"]["content"]
    assert results["w6"]["is_error"] is True and "not found" in results["w6"]["content"]
    assert "Recorded the proposed Write" in results["w1"]["content"]
    # a Read after a captured Write shows the proposal, not the disk
    assert "never mock it" in results["c1"]["content"]
    assert (
        plan.notes[-1] == "Claude: Merged the two testing memories and recorded the gateway owner."
    )

    # the prompt: four phases, the daily log, the manifest
    system = bodies[0]["system"]
    for phase in ("Orient", "Gather recent signal", "Consolidate", "Prune and index"):
        assert phase in system
    assert "logs/2026/03/2026-03-27.md" in system and "feedback_tests_2.md" in system

    # approve a subset: only those change, retired files go to .trash, restore undoes it
    result = apply_plan(plan, ["claude:feedback_tests_2.md", "claude:MEMORY.md"])
    assert result.trashed == ("feedback_tests_2.md",) and result.changed == ("MEMORY.md",)
    assert not (mem / "feedback_tests_2.md").exists()
    assert "Use the sandbox gateway.\n" in (mem / "feedback_tests.md").read_text()  # not approved
    assert not (mem / "reference_gateway.md").exists()
    batch = list_dreams(mem)[-1]
    assert (mem / ".trash" / batch / "feedback_tests_2.md").is_file()
    restore(mem, batch)
    # every memory is back; only the bookkeeping (lock file, trash batch) remains
    assert {
        k: v
        for k, v in _all_files(tmp_path).items()
        if not any(p.startswith(".") for p in k.split("/"))
    } == before


def test_claude_plan_goes_stale_when_a_file_changes_before_apply(
    claude_dir: Path, tmp_path: Path
) -> None:
    mem = claude_dir
    with MessagesAPIServer(_claude_script(mem, tmp_path / "o.txt")) as api:
        plan = plan_consolidation_with_claude(mem, client=_client(api), now_ms=CLAUDE_NOW)
    (mem / "feedback_tests.md").write_text("edited by hand meanwhile\n")
    with pytest.raises(PlanStaleError, match="feedback_tests.md"):
        apply_plan(plan)
    assert (mem / "feedback_tests_2.md").exists() and not (mem / ".trash").exists()


def test_claude_plan_without_key_or_dir_is_refused_before_any_request(
    claude_dir: Path, tmp_path: Path
) -> None:
    from memdir_nb.config import MemdirConfig
    from memdir_nb.dream import PlanError
    from memdir_nb.extract import MissingAPIKeyError

    cfg = MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path, anthropic_api_key=None)
    with MessagesAPIServer() as api:
        with pytest.raises(MissingAPIKeyError, match="ANTHROPIC_API_KEY"):
            plan_consolidation_with_claude(
                claude_dir, config=cfg, client_options={"base_url": api.base_url}
            )
        with pytest.raises(PlanError, match="does not exist"):
            plan_consolidation_with_claude(tmp_path / "absent", client=_client(api))
        assert api.request_count == 0


def test_claude_plan_stops_at_the_turn_cap_and_says_so(claude_dir: Path) -> None:
    looping = _calls(("g", "Glob", {"pattern": "*.md", "path": str(claude_dir)}))
    with MessagesAPIServer(default=looping) as api:
        plan = plan_consolidation_with_claude(claude_dir, client=_client(api), max_turns=3)
        assert api.request_count == 3
    assert plan.actions == [] and any("3-turn cap" in n for n in plan.notes)


def test_consolidation_prompt_lists_no_logs_when_there_are_none(tmp_path: Path) -> None:
    text = build_consolidation_prompt(tmp_path, now_ms=CLAUDE_NOW)
    assert "Daily logs waiting to be folded in:\n(none)" in text
    assert "Never read transcripts end to end" in text


def test_a_plan_applies_with_its_own_clock(messy: Path) -> None:
    fixed = dt.datetime(2026, 3, 30, 9, 0, 0).timestamp() * 1000
    plan = plan_consolidation(messy, now_ms=PLAN_NOW, clock=lambda: fixed)
    result = apply_plan(plan)
    assert result.batch.startswith("dream-20260330T090000-")
    manifest = json.loads((messy / ".trash" / result.batch / "manifest.json").read_text())
    assert manifest["created_ms"] == fixed


def test_two_plans_on_one_fixed_clock_get_distinct_batches(messy: Path) -> None:
    clock = lambda: PLAN_NOW  # noqa: E731
    first = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW, clock=clock))
    (messy / "project_extra.md").write_text(
        "---\nname: Extra\ndescription: An extra note about the freeze\ntype: project\n---\n\nShip yesterday.\n"
    )
    second = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW, clock=clock))
    assert first.batch != second.batch


# --------------------------------------------------------------------------- scaling (issue 10)

import importlib.util  # noqa: E402

from rapidfuzz import fuzz  # noqa: E402

from memdir_nb.dream import (  # noqa: E402
    CONTRADICTION_THRESHOLD,
    DUPLICATE_BODY_THRESHOLD,
    DUPLICATE_HEAD_THRESHOLD,
)
from memdir_nb.dream.actions import _split_front  # noqa: E402
from memdir_nb.dream.plan import _NEGATION  # noqa: E402
from memdir_nb.frontmatter import parse_frontmatter  # noqa: E402


def _corpus_module():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "whole_dir_corpus.py"
    spec = importlib.util.spec_from_file_location("whole_dir_corpus", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _all_pairs_reference(root: Path) -> tuple[set[frozenset[str]], set[tuple[str, str]]]:
    """Near-duplicate groups and contradiction pairs by comparing every pair (the old loop)."""
    mems = []
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if rel.endswith("MEMORY.md"):
            continue
        text = path.read_text(encoding="utf-8")
        fm, _ = parse_frontmatter(text)
        mems.append(
            (
                rel,
                fm.name or path.stem,
                fm.description or "",
                str(fm.type or ""),
                _split_front(text)[1],
            )
        )
    parent: dict[str, str] = {m[0]: m[0] for m in mems}

    def find(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    for i, a in enumerate(mems):
        for b in mems[i + 1 :]:
            if a[0].startswith("team/") != b[0].startswith("team/") or a[3] != b[3]:
                continue
            if bool(_NEGATION.search(a[2])) != bool(_NEGATION.search(b[2])):
                continue
            head = fuzz.token_sort_ratio(f"{a[1]} {a[2]}".lower(), f"{b[1]} {b[2]}".lower())
            if (
                head >= DUPLICATE_HEAD_THRESHOLD
                and fuzz.token_set_ratio(a[4].lower(), b[4].lower()) >= DUPLICATE_BODY_THRESHOLD
            ):
                parent[find(a[0])] = find(b[0])
    groups: dict[str, set[str]] = {}
    for rel in parent:
        groups.setdefault(find(rel), set()).add(rel)
    dup_groups = {frozenset(g) for g in groups.values() if len(g) > 1}
    merged = set().union(*dup_groups) if dup_groups else set()
    flags = set()
    for i, a in enumerate(mems):
        for b in mems[i + 1 :]:
            if (a[0] in merged and b[0] in merged) or a[3] != b[3]:
                continue
            ta, tb = f"{a[2]} {a[4]}", f"{b[2]} {b[4]}"
            if bool(_NEGATION.search(ta)) == bool(_NEGATION.search(tb)):
                continue
            sa, sb = _NEGATION.sub(" ", ta).lower(), _NEGATION.sub(" ", tb).lower()
            if fuzz.token_set_ratio(sa, sb) >= CONTRADICTION_THRESHOLD:
                flags.add(tuple(sorted((a[0], b[0]))))
    return dup_groups, flags


def test_blocked_planning_finds_what_comparing_every_pair_finds(tmp_path: Path) -> None:
    corpus = _corpus_module()
    root = tmp_path / "memory"
    root.mkdir()
    corpus.build_dir(root, 400, seed=5)
    plan = plan_consolidation(root, now_ms=corpus.NOW_MS)
    groups = {frozenset(a.files[:-1]) for a in plan.actions if a.kind == "merge_duplicates"}
    flags = {tuple(sorted(a.files)) for a in plan.actions if a.kind == "flag_contradiction"}
    want_groups, want_flags = _all_pairs_reference(root)
    assert want_groups and want_flags  # the corpus has both kinds
    assert groups == want_groups
    assert flags == want_flags


def test_merge_groups_come_in_the_order_of_their_first_file(tmp_path: Path) -> None:
    corpus = _corpus_module()
    root = tmp_path / "memory"
    root.mkdir()
    corpus.build_dir(root, 300, seed=9)
    first = [plan_consolidation(root, now_ms=corpus.NOW_MS).actions for _ in range(2)]
    assert [a.id for a in first[0]] == [a.id for a in first[1]]


def test_a_plan_action_refuses_an_untyped_operation() -> None:
    from memdir_nb.dream import PlanAction, WriteFile

    with pytest.raises(PlanError, match="ops must be WriteFile"):
        PlanAction("x", "write", "rewrite", ("a.md",), (("write", "a.md", "text"),))  # type: ignore[arg-type]
    assert PlanAction("x", "write", "rewrite", ("a.md",), (WriteFile("a.md", "t"),)).ops
