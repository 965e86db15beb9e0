"""storage/lock_file: the lock a write takes first, made with the store's one file mode."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from memdir_nb.storage import fsutil
from memdir_nb.storage.containment import PathTraversalError
from memdir_nb.storage.lock_file import lock_at


def _folder_fd(path: Path) -> int:
    return os.open(path, os.O_RDONLY | os.O_DIRECTORY)


@pytest.mark.parametrize(("umask", "expected"), [(0o000, 0o644), (0o022, 0o644), (0o077, 0o600)])
def test_a_new_lock_file_has_the_stores_file_mode_less_the_umask(
    tmp_path: Path, umask: int, expected: int
) -> None:
    # it spelled 0o644 itself; the store's one file mode is fsutil.FILE_MODE
    dfd = _folder_fd(tmp_path)
    old = os.umask(umask)
    try:
        fd = lock_at(dfd, ".memdir.lock", 1.0)
    finally:
        os.umask(old)
        os.close(dfd)
    os.close(fd)
    mode = stat.S_IMODE((tmp_path / ".memdir.lock").stat().st_mode)
    assert mode == expected == fsutil.FILE_MODE & ~umask


def test_a_lock_held_elsewhere_times_out_naming_the_file_and_the_fix(tmp_path: Path) -> None:
    dfd = _folder_fd(tmp_path)
    try:
        held = lock_at(dfd, ".memdir.lock", 1.0)  # flock is per open file: a second open waits
        try:
            with pytest.raises(TimeoutError, match=r"held \.memdir\.lock .*delete that lock file"):
                lock_at(dfd, ".memdir.lock", 0.05)
        finally:
            os.close(held)
        os.close(lock_at(dfd, ".memdir.lock", 1.0))  # let go: the next one takes it at once
    finally:
        os.close(dfd)


def test_a_symlink_at_the_lock_name_is_refused_and_its_target_left_alone(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("mine\n")
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / ".memdir.lock").symlink_to(elsewhere)
    dfd = _folder_fd(memory)
    try:
        with pytest.raises(PathTraversalError, match="is a symlink; remove it"):
            lock_at(dfd, ".memdir.lock", 1.0)
    finally:
        os.close(dfd)
    assert elsewhere.read_text() == "mine\n"


@pytest.mark.parametrize("name", [".memdir.lock", ".daily-log.lock", ".consolidate-lock.guard"])
def test_a_lock_file_that_is_a_hard_link_is_refused_and_the_other_name_left_alone(
    tmp_path: Path, name: str
) -> None:
    # thirty-second session: a lock file that is a second name of a memory took its lock on
    # the memory's inode; the dream's guard (then through filelock < 3.20.1, O_TRUNC) emptied it
    memory = tmp_path / "feedback_testing.md"
    memory.write_text("never mock the DB\n")
    os.link(memory, tmp_path / name)
    dfd = _folder_fd(tmp_path)
    try:
        with pytest.raises(PathTraversalError, match=r"is a hard link \(one file under 2 names\)"):
            lock_at(dfd, name, 1.0)
    finally:
        os.close(dfd)
    assert memory.read_text() == "never mock the DB\n"


def test_a_fifo_at_the_lock_name_is_refused_naming_it(tmp_path: Path) -> None:
    # a FIFO opens for reading and writing without an error, so the open's errno never named it
    os.mkfifo(tmp_path / ".memdir.lock")
    dfd = _folder_fd(tmp_path)
    try:
        with pytest.raises(OSError, match=r"\.memdir\.lock in .* is a FIFO, not a file"):
            lock_at(dfd, ".memdir.lock", 1.0)
    finally:
        os.close(dfd)
