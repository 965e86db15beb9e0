"""Scratch folders: removed when their process exits, or by the next process if it was killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from memdir_nb.storage.scratch_folder import (
    SCRATCH_LOCK_NAME,
    SWEEP_MIN_AGE_S,
    remove_scratch_folders,
    scratch_folder,
    sweep_dead_scratch_folders,
)

# A process that makes a scratch folder holding a memory, a symlink to a real dir and a pipe,
# prints the folder, then does what argv[2] says: exit, fork a child that exits, or wait to be
# killed.
_MAKER = """
import os, sys, time
from pathlib import Path
from memdir_nb.storage.scratch_folder import scratch_folder
outside = Path(sys.argv[1])
folder = scratch_folder("test")
(folder / "memory").mkdir()
(folder / "memory" / "user_note.md").write_text("kept only while the process runs")
os.symlink(outside, folder / "memory" / "linked")
os.mkfifo(folder / "memory" / "pipe")
if sys.argv[2] == "fork":
    child = os.fork()
    if child == 0:
        sys.exit(0)  # a normal exit: the child runs the atexit hooks it inherited
    os.waitpid(child, 0)
    print("after child:", folder.is_dir())
print(folder, flush=True)
if sys.argv[2] == "wait":
    time.sleep(600)
"""


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(tmp)}


def _run_maker(tmp: Path, outside: Path, mode: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", _MAKER, str(outside), mode],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env=_env(tmp),
    )
    return out.stdout.splitlines()


def _start_waiting_maker(tmp: Path, outside: Path) -> tuple[subprocess.Popen[str], Path]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _MAKER, str(outside), "wait"],
        stdout=subprocess.PIPE,
        text=True,
        env=_env(tmp),
    )
    assert proc.stdout is not None
    return proc, Path(proc.stdout.readline().strip())


def _age(folder: Path) -> None:
    """Make a folder's lock file look older than the sweep's minimum age."""
    old = os.stat(folder / SCRATCH_LOCK_NAME).st_mtime - SWEEP_MIN_AGE_S - 5
    os.utime(folder / SCRATCH_LOCK_NAME, (old, old))


def _real_dir(tmp_path: Path) -> Path:
    outside = tmp_path / "real_dir"
    outside.mkdir()
    (outside / "user_role.md").write_text("a real memory the sandbox links to")
    return outside


def test_scratch_folder_is_removed_at_exit_without_following_links(tmp_path: Path) -> None:
    temp, outside = tmp_path / "temp", _real_dir(tmp_path)
    temp.mkdir()
    folder = Path(_run_maker(temp, outside, "exit")[-1])
    assert folder.parent == temp and folder.name.startswith("memdir-nb-test-")
    assert not folder.exists()
    assert (outside / "user_role.md").read_text() == "a real memory the sandbox links to"


def test_a_forked_child_that_exits_leaves_the_parents_scratch_folder(tmp_path: Path) -> None:
    temp, outside = tmp_path / "temp", _real_dir(tmp_path)
    temp.mkdir()
    lines = _run_maker(temp, outside, "fork")
    assert lines[0] == "after child: True"
    assert not Path(lines[-1]).exists()


def test_a_killed_process_folder_is_swept_by_the_next_one(tmp_path: Path) -> None:
    temp, outside = tmp_path / "temp", _real_dir(tmp_path)
    temp.mkdir()
    proc, folder = _start_waiting_maker(temp, outside)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert folder.is_dir()  # SIGKILL runs no exit hook
    _age(folder)
    _run_maker(temp, outside, "exit")  # the next process's first scratch_folder sweeps
    assert not folder.exists()
    assert (outside / "user_role.md").is_file()


def test_a_live_process_folder_is_never_swept_however_old(tmp_path: Path) -> None:
    temp, outside = tmp_path / "temp", _real_dir(tmp_path)
    temp.mkdir()
    proc, folder = _start_waiting_maker(temp, outside)
    try:
        _age(folder)
        assert sweep_dead_scratch_folders(temp) == []
        assert (folder / "memory" / "user_note.md").is_file()
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert sweep_dead_scratch_folders(temp) == [folder]


def test_a_young_folder_is_left_for_its_maker_to_lock(tmp_path: Path) -> None:
    unlocked = tmp_path / "memdir-nb-demo-abc"
    unlocked.mkdir()
    (unlocked / SCRATCH_LOCK_NAME).touch()  # made a moment ago, its maker not yet holding it
    assert sweep_dead_scratch_folders(tmp_path) == []
    _age(unlocked)
    assert sweep_dead_scratch_folders(tmp_path) == [unlocked]


def test_the_sweep_touches_only_real_scratch_folders(tmp_path: Path) -> None:
    old = SWEEP_MIN_AGE_S + 5
    no_lock = tmp_path / "memdir-nb-replay-abc"  # another memdir folder, with no lock file
    no_lock.mkdir()
    other = tmp_path / "someone-else"  # a folder without the prefix, lock file and all
    other.mkdir()
    (other / SCRATCH_LOCK_NAME).touch()
    target = tmp_path / "target"  # a symlink with the prefix, to a folder with a lock file
    target.mkdir()
    (target / SCRATCH_LOCK_NAME).touch()
    (tmp_path / "memdir-nb-link-abc").symlink_to(target)
    linked_lock = tmp_path / "memdir-nb-lock-link"  # its lock file is a symlink
    linked_lock.mkdir()
    (linked_lock / SCRATCH_LOCK_NAME).symlink_to(other / SCRATCH_LOCK_NAME)
    for lock in (other / SCRATCH_LOCK_NAME, target / SCRATCH_LOCK_NAME):
        stamp = os.stat(lock).st_mtime - old
        os.utime(lock, (stamp, stamp))
    assert sweep_dead_scratch_folders(tmp_path) == []
    assert no_lock.is_dir() and other.is_dir() and target.is_dir() and linked_lock.is_dir()


def test_scratch_folder_holds_its_lock_until_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() reads TMPDIR again
    folder = scratch_folder("unit")
    _age(folder)
    assert folder.parent == tmp_path
    assert sweep_dead_scratch_folders(tmp_path) == []  # this process holds the lock
    remove_scratch_folders()
    assert not folder.exists()


@pytest.mark.parametrize("purpose", ["../escape", "a/b", "", "bad\x1b[31m"])
def test_a_purpose_that_is_not_one_name_is_refused_before_anything_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, purpose: str
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    with pytest.raises(ValueError, match="scratch folder purpose"):
        scratch_folder(purpose)
    assert list(tmp_path.iterdir()) == []
