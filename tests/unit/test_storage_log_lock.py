"""storage/log_lock: the daily-log lock, taken by every append and by a store step that
touches a daily log, held until the step ends."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from memdir_nb.storage import fsutil
from memdir_nb.storage.log_lock import StepLogsLock, take_logs_lock


def is_locked(lock_file: Path) -> bool:
    """Whether another open of the lock file cannot take its flock now."""
    fd = os.open(lock_file, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def held(step: StepLogsLock) -> bool:
    """Whether the step holds the lock now (a call, so mypy does not narrow across steps)."""
    return step.fd is not None


def test_a_step_takes_the_lock_at_its_first_daily_log_and_keeps_it_until_released(
    tmp_path: Path,
) -> None:
    (tmp_path / "logs").mkdir()
    real_root, root_fd = fsutil.open_real_dir(tmp_path)
    try:
        step = StepLogsLock(real_root)
        step.hold_for(root_fd, ("user_a.md",))
        step.hold_for(root_fd, ("team", "logs", "x.md"))
        assert not held(step)  # only a path under the dir's own logs/ folder
        step.hold_for(root_fd, ("logs", "2026", "12", "2026-12-02.md"))
        assert held(step) and is_locked(tmp_path / "logs" / ".daily-log.lock")
        step.hold_for(root_fd, ("logs", "2026", "12", "2026-12-03.md"))  # held once
        step.release()
        step.release()
        assert not held(step) and not is_locked(tmp_path / "logs" / ".daily-log.lock")
    finally:
        os.close(root_fd)


def test_a_dir_without_logs_gets_no_logs_folder_and_a_view_never_locks(tmp_path: Path) -> None:
    real_root, root_fd = fsutil.open_real_dir(tmp_path)
    try:
        step = StepLogsLock(real_root)
        step.hold_for(root_fd, ("logs", "2026", "12", "2026-12-02.md"))
        assert step.fd is None and not (tmp_path / "logs").exists()
        (tmp_path / "logs").mkdir()
        view = StepLogsLock(None)
        view.hold_for(root_fd, ("logs", "2026", "12", "2026-12-02.md"))
        assert view.fd is None and not (tmp_path / "logs" / ".daily-log.lock").exists()
    finally:
        os.close(root_fd)


def test_a_logs_folder_that_is_a_symlink_is_never_followed_for_the_lock(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    mem = tmp_path / "mem"
    mem.mkdir()
    (mem / "logs").symlink_to(outside, target_is_directory=True)
    real_root, root_fd = fsutil.open_real_dir(mem)
    try:
        with pytest.raises(fsutil.SymlinkSwapError):
            take_logs_lock(root_fd, real_root)
    finally:
        os.close(root_fd)
    assert list(outside.iterdir()) == []
