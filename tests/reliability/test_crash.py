"""A saver killed with SIGKILL at random moments never leaves a partial memory behind.

Each saver is a real process forked from the test (already warm, so the kill lands inside
saves rather than during interpreter start-up) and killed with SIGKILL after a random delay.
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.security.secret_scan import scan_for_secrets
from memdir_nb.storage.headers import parse_memory_file
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.storage.store import MemoryStore
from tests.support import BODY_END, check_consistent

RUNS = 60


def save_forever(memory_dir: Path, run: int, done: Callable[[], None] = lambda: None) -> None:
    """Save, update and forget memories until killed; done() after each save's round."""
    store = MemoryStore(memory_dir)
    j = 0
    while True:
        scope = "team" if j % 2 else "private"
        name = f"Run {run} memory {j}"
        body = f"First line of {name}.\n" + ("a longer paragraph of filler text. " * 40 + "\n") * (
            j % 5
        )
        path = store.save(
            name, f"Reference {j} from run {run}", "reference", body + BODY_END, scope=scope
        )
        rel = ("team/" if scope == "team" else "") + path.name
        if j % 3 == 2:
            store.update(rel, body="rewritten\n" + BODY_END)
        if j % 4 == 3:
            store.forget(rel)
        done()
        j += 1


def kill_while_saving(memory_dir: Path, run: int, rounds: int, delay_s: float) -> None:
    """Let the saver finish `rounds` rounds (so saves land however loaded the machine is: the
    fortieth session's CI saw 7 of 60 runs save anything), then kill it delay_s later."""
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never returns into pytest
        try:
            os.close(ready_r)
            os.write(ready_w, b"r")  # the saver is running: from here on any instant is fair

            def done() -> None:
                os.write(ready_w, b"s")

            save_forever(memory_dir, run, done)
        finally:
            os._exit(3)
    os.close(ready_w)
    try:
        assert os.read(ready_r, 1) == b"r", "the saver died before it started"
        for _ in range(rounds):
            assert os.read(ready_r, 1) == b"s", "the saver died before its rounds were done"
        time.sleep(delay_s)  # not a wait for the child: delay_s is the random kill point
    finally:
        os.kill(pid, signal.SIGKILL)  # killed before its pipe closes, and also on a failure
        os.close(ready_r)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
        "the saver died on its own before it was killed"
    )


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_sigkill_at_random_points_leaves_complete_files_and_a_rebuildable_index(
    tmp_path: Path,
) -> None:
    scan_for_secrets({"body": "warm the detectors up before forking"})
    rng = random.Random(20260305)
    memory_dir = tmp_path / "memory"
    for run in range(RUNS):
        kill_while_saving(memory_dir, run, rng.randint(0, 2), rng.uniform(0.0, 0.12))
        report = scan_memory_dir(memory_dir, limit=None)
        for h in report.headers:  # every topic file is complete or absent
            fm, body = parse_memory_file(h.file_path)
            assert not fm.malformed and fm.name, h.filename
            assert body.rstrip().endswith(BODY_END), f"run {run}: partial file {h.filename}"
        # Temp files (dot-prefixed, never *.md) may remain, but scan never reads them.
        assert not any(Path(h.filename).name.startswith(".") for h in report.headers)
        assert report.skipped == []
    leftovers = [p for p in memory_dir.rglob(".*") if p.is_file() and p.suffix == ".md"]
    assert leftovers == [], "temp files must never end in .md"
    saved = scan_memory_dir(memory_dir, limit=None).headers
    assert len(saved) >= RUNS // 4, "too few saves landed before the kills to exercise anything"

    MemoryStore(memory_dir).rebuild_indexes()
    assert check_consistent(memory_dir) == []


# --- kill -9 at every named point inside a multi-file step ------------------------------------
#
# Each step runs once with a recording hook to learn its named points (journal written, backup
# taken, renamed, committed...). Then, for every point, a fresh copy of the dir is handed to a
# forked child that runs the step with a hook that SIGKILLs it exactly there. The parent runs
# the next store operation and asserts the dir is exactly as before the step (or, once the
# step committed, exactly as after it): nothing lost, nothing duplicated, no leftovers.

STEP_NOW_MS = 1_772_700_000_000.0


def build_step_dir(root: Path) -> Path:
    """A memory dir where promote, demote, save, dream apply and restore all have work to do."""
    from memdir_nb.dream import apply_plan, plan_consolidation

    store = MemoryStore(root, now_ms=STEP_NOW_MS)
    store.save("Testing policy", "integration tests use a real db", "feedback", "Real db.\n")
    store.save("Deploy", "deploys go through CI", "reference", "CI deploys.\n", scope="team")
    store.save("Freeze", "merge freeze", "project", "Freeze starts tomorrow, decided yesterday.\n")
    store.save("Owner", "who owns CI", "project", "Ana owns CI since last week.\n", scope="team")
    # an applied dream, so restore has a batch to undo
    apply_plan(plan_consolidation(root, now_ms=STEP_NOW_MS))
    store.save("Retro", "retro notes", "project", "Retro was yesterday.\n")
    return root


def run_step(step: str, memory_dir: Path, hook: Callable[[str], None]) -> None:
    """Run one multi-file step with `hook` as the store's crash hook."""
    from memdir_nb.dream import apply_plan, list_dreams, plan_consolidation, restore

    store = MemoryStore(memory_dir, now_ms=STEP_NOW_MS, crash_hook=hook)
    if step == "promote":
        store.promote("feedback_testing_policy.md")
    elif step == "demote":
        store.demote("team/reference_deploy.md")
    elif step == "save":
        store.save("New", "a new memory", "project", "Body.\n", scope="team")
    elif step == "dream-apply":
        plan = plan_consolidation(memory_dir, now_ms=STEP_NOW_MS)
        assert plan.result(), "the dream has nothing to do: the test would not exercise apply"
        apply_plan(plan, store=store)
    elif step == "restore":
        restore(memory_dir, list_dreams(memory_dir)[0], store=store)
    elif step == "forget":
        store.forget("feedback_testing_policy.md")
    elif step == "update":
        store.update("feedback_testing_policy.md", body="Real db, in CI too.\n")
    elif step.startswith("memory-tool-"):
        _memory_tool_step(step.removeprefix("memory-tool-"), memory_dir, hook)
    else:  # pragma: no cover
        raise ValueError(step)


def _memory_tool_step(command: str, memory_dir: Path, hook: Callable[[str], None]) -> None:
    """One memory-tool command, its store transaction given the crash hook (fresh31: the tool's
    writes were killed only by hand before)."""
    from memdir_nb.toolloop.memory_commands import MemoryDirBackend

    backend = MemoryDirBackend(memory_dir, now_ms=STEP_NOW_MS)
    backend.store.crash_hook = hook
    policy = "/memories/feedback_testing_policy.md"
    if command == "str_replace":
        backend.str_replace(policy, "Real db.", "Real db, in CI too.")
    elif command == "rename":  # into team/: the secret guard reads it on the way
        backend.rename(policy, "/memories/team/feedback_testing_policy.md")
    elif command == "delete":  # into a trash batch with its manifest
        backend.delete(policy)
    else:  # pragma: no cover
        raise ValueError(command)


def visible(memory_dir: Path) -> dict[str, bytes]:
    """Every file a scan or a user would see (no dot component), with its bytes."""
    return {
        str(p.relative_to(memory_dir)): p.read_bytes()
        for p in memory_dir.rglob("*")
        if p.is_file() and not any(s.startswith(".") for s in p.relative_to(memory_dir).parts)
    }


def leftovers(memory_dir: Path) -> list[str]:
    """Journal, backups and temp files that a finished or repaired step must not leave."""
    return sorted(
        str(p.relative_to(memory_dir))
        for p in memory_dir.rglob(".*")
        if p.name == ".memdir.journal" or p.suffix in (".bak", ".tmp", ".part")
    )


def kill_at(step: str, memory_dir: Path, point: str, nth: int | None = None) -> None:
    """Run the step in a forked child and SIGKILL it at `point` (or at the nth point reached:
    dream batch names hold a time stamp, so their points are matched by position)."""
    reached_count = [0]

    def hook(reached: str) -> None:
        hit = reached == point if nth is None else reached_count[0] == nth
        reached_count[0] += 1
        if hit:
            os.kill(os.getpid(), signal.SIGKILL)

    pid = os.fork()
    if pid == 0:  # child: never returns into pytest
        try:
            run_step(step, memory_dir, hook)
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
        f"{step}: the child was not killed at {point!r} (exit status {status})"
    )


@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    "step",
    [
        "promote",
        "demote",
        "save",
        "dream-apply",
        "restore",
        "forget",
        "update",
        "memory-tool-str_replace",
        "memory-tool-rename",
        "memory-tool-delete",
    ],
)
def test_sigkill_at_every_point_inside_a_step_is_repaired_by_the_next_operation(
    tmp_path: Path, step: str
) -> None:
    import shutil

    scan_for_secrets({"body": "warm the detectors up before forking"})
    template = build_step_dir(tmp_path / "template")
    before = visible(template)
    reference = tmp_path / "reference"
    shutil.copytree(template, reference, symlinks=True)
    points: list[str] = []
    run_step(step, reference, points.append)
    after = visible(reference)
    assert after != before and leftovers(reference) == []
    inside = [p for p in points if not p.startswith("commit:")]
    assert len(inside) >= 4, f"{step}: too few named points inside the step: {points}"
    assert points[-2:] == ["commit:journaled", "commit:cleaned"]

    for n, point in enumerate(points):
        work = tmp_path / f"run{n}"
        shutil.copytree(template, work, symlinks=True)
        kill_at(step, work, point, nth=n)
        # the next store operation repairs whatever the kill left
        later = MemoryStore(work, now_ms=STEP_NOW_MS).save(
            "Later", "after the kill", "project", "x"
        )
        seen = visible(work)
        seen.pop(later.name)
        seen["MEMORY.md"] = b"".join(
            line
            for line in seen["MEMORY.md"].splitlines(keepends=True)
            if b"(" + later.name.encode() + b")" not in line
        )
        expected = after if point.startswith("commit:") else before
        assert seen == expected, (
            f"{step} killed at {point!r}: the dir is neither rolled back nor finished"
        )
        assert leftovers(work) == [], f"{step} killed at {point!r}: leftovers {leftovers(work)}"


def test_recover_reports_a_rolled_back_step_and_a_torn_last_record_is_ignored(
    tmp_path: Path,
) -> None:
    from memdir_nb.storage.transaction import journal_problem

    mem = build_step_dir(tmp_path / "m")
    before = visible(mem)
    kill_at("promote", mem, "move:feedback_testing_policy.md:done")
    problem = journal_problem(mem)
    assert problem is not None and "MemoryStore(...).recover()" in problem
    with open(mem / ".memdir.journal", "a", encoding="utf-8") as fh:
        fh.write('{"op": "write", "pa')  # a record torn by the kill
    done = MemoryStore(mem).recover()
    assert done and "rolled back an interrupted step" in done[0]
    assert "team/feedback_testing_policy.md" in done[0]
    assert visible(mem) == before and leftovers(mem) == [] and journal_problem(mem) is None
    assert MemoryStore(mem).recover() == []
