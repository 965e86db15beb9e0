"""storage/journal: the repair of an interrupted step takes the daily-log lock when the journal
names a daily log, as the step itself did, so an append never lands in a file being rolled back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from memdir_nb.spec.constants import DAILY_LOG_LOCK_NAME, STORE_JOURNAL_NAME
from memdir_nb.storage import fsutil
from memdir_nb.storage.journal import content_identity, recover_journal, side_name

HOLDER = r"""
import os, sys
from memdir_nb.storage import fsutil
from memdir_nb.storage.log_lock import take_logs_lock
real_root, root_fd = fsutil.open_real_dir(sys.argv[1])
lock_fd = take_logs_lock(root_fd, real_root, create=False)
print("held", flush=True)
sys.stdin.readline()  # hold the lock until the test says so
os.close(lock_fd)
"""

REPAIRER = r"""
import json, sys
from memdir_nb.storage.store import MemoryStore
store = MemoryStore(sys.argv[1])
print("start", flush=True)
print(json.dumps(store.recover()), flush=True)
"""


def interrupted_step(mem: Path, rel: str) -> Path:
    """A dir as a step killed after it replaced `rel` leaves it: the new bytes in place, the
    old version kept as the step's backup, the journal's unfinished write record."""
    path = mem / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"old\n")
    backup = side_name(path.name, "123-abcdef01", 1, ".bak")
    os.link(path, path.parent / backup)
    path.unlink()
    path.write_bytes(b"new\n")
    record = {"op": "write", "path": rel, "backup": backup, "tmp": None}
    record.update(content_identity(b"new\n"))
    (mem / STORE_JOURNAL_NAME).write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def start(code: str, mem: Path, ready: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(mem)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == ready, proc.stderr.read() if proc.stderr else line
    return proc


def test_a_repair_naming_a_daily_log_waits_for_an_append_holding_the_log_lock(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "memory"
    log = interrupted_step(mem, "logs/2026/12/2026-12-02.md")
    holder = start(HOLDER, mem, "held")
    try:
        repairer = start(REPAIRER, mem, "start")
        time.sleep(1.5)
        # while another process holds the appends' lock, the repair has not touched the log
        assert repairer.poll() is None, "the repair ran while an append held the log lock"
        assert log.read_bytes() == b"new\n" and (mem / STORE_JOURNAL_NAME).exists()
    finally:
        out, err = holder.communicate("release\n", timeout=30)
    assert holder.returncode == 0, err
    out, err = repairer.communicate(timeout=60)
    assert repairer.returncode == 0, err
    done = json.loads(out.strip().splitlines()[-1])
    assert done and "logs/2026/12/2026-12-02.md" in done[0]
    assert log.read_bytes() == b"old\n" and not (mem / STORE_JOURNAL_NAME).exists()


def test_a_repair_naming_no_daily_log_neither_waits_for_nor_creates_the_log_lock(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "memory"
    note = interrupted_step(mem, "user_role.md")
    real_root, root_fd = fsutil.open_real_dir(mem)
    try:
        assert recover_journal(root_fd, real_root)
    finally:
        os.close(root_fd)
    assert note.read_bytes() == b"old\n" and not (mem / "logs").exists()


def test_a_repair_releases_the_log_lock_when_it_is_done(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    log = interrupted_step(mem, "logs/2026/12/2026-12-02.md")
    real_root, root_fd = fsutil.open_real_dir(mem)
    try:
        assert recover_journal(root_fd, real_root)
    finally:
        os.close(root_fd)
    assert log.read_bytes() == b"old\n" and (log.parents[2] / DAILY_LOG_LOCK_NAME).exists()
    holder = start(HOLDER, mem, "held")  # another process takes it at once
    holder.communicate("release\n", timeout=30)
    assert holder.returncode == 0
