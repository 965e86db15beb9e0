"""folder_blocker: why a configured folder can never be made; make_memory_dir's refusal."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir_nb.storage.folder_blocker import folder_blocker, make_memory_dir


def test_folder_blocker_names_the_first_existing_step_that_is_not_a_folder(tmp_path: Path) -> None:
    # attack round 26: where, doctor and the vector cache called a folder under a FIFO, a
    # file or a device "not there yet"; a link to a folder is a folder, as mkdir sees it
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "file").write_text("x", encoding="utf-8")
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "dir")
    assert folder_blocker(tmp_path / "fifo" / "a" / "b") == (str(tmp_path / "fifo"), "a FIFO")
    assert folder_blocker(tmp_path / "file") == (str(tmp_path / "file"), "a regular file")
    assert folder_blocker("/dev/null/x") == ("/dev/null", "a character device")
    assert folder_blocker(tmp_path / "link" / "new" / "deeper") is None
    assert folder_blocker(tmp_path / "missing\ud800") is None
    assert folder_blocker(tmp_path / "missing" / "deeper") is None


def test_a_symlink_that_leads_nowhere_blocks_the_folder_it_names_and_every_one_under_it(
    tmp_path: Path,
) -> None:
    # attack40: a loop (mkdir: ELOOP) and a link to a missing path (mkdir: EEXIST) were
    # "not there yet", so where and doctor said the dir would be made at the next session
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone" / "x")
    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / "f")
    (tmp_path / "via").symlink_to(tmp_path / "fifo" / "f" / "x")
    loop = (str(tmp_path / "loop"), "a symlink loop")
    assert folder_blocker(tmp_path / "loop") == loop
    assert folder_blocker(tmp_path / "loop" / "a" / "b") == loop
    dangling = (str(tmp_path / "dangling"), "a symlink to a path that does not exist")
    assert folder_blocker(tmp_path / "dangling") == dangling
    assert folder_blocker(tmp_path / "dangling" / "memory") == dangling
    assert folder_blocker(tmp_path / "via" / "m") == (
        str(tmp_path / "via"),
        "a symlink that cannot be followed (Not a directory)",
    )


def test_make_memory_dir_makes_a_missing_dir_and_names_what_blocks_one(tmp_path: Path) -> None:
    make_memory_dir(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b").is_dir()
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(NotADirectoryError, match="is a FIFO, not a folder, so nothing was written"):
        make_memory_dir(tmp_path / "fifo" / "memory")
