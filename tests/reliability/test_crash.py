"""A saver killed with SIGKILL at random moments never leaves a partial memory behind.

Each saver is a real process forked from the test (already warm, so the kill lands inside
saves rather than during interpreter start-up) and killed with SIGKILL after a random delay.
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest

from memdir_nb.frontmatter import parse_memory_file
from memdir_nb.scan import scan_memory_dir
from memdir_nb.secret_scan import scan_for_secrets
from memdir_nb.store import MemoryStore
from tests.support import BODY_END, check_consistent

RUNS = 60


def save_forever(memory_dir: Path, run: int) -> None:
    """Save, update and forget memories until killed."""
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
        j += 1


def kill_while_saving(memory_dir: Path, run: int, delay_s: float) -> None:
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never returns into pytest
        try:
            os.close(ready_r)
            os.write(ready_w, b"r")  # the saver is running: from here on any instant is fair
            save_forever(memory_dir, run)
        finally:
            os._exit(3)
    os.close(ready_w)
    try:
        assert os.read(ready_r, 1) == b"r", "the saver died before it started"
    finally:
        os.close(ready_r)
    time.sleep(delay_s)  # not a wait for the child: delay_s is the random kill point
    os.kill(pid, signal.SIGKILL)
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
        kill_while_saving(memory_dir, run, rng.uniform(0.0, 0.12))
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
