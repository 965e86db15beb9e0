"""fsutil: the no-follow, descriptor-relative primitives every write is built on."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from memdir_nb.storage import fsutil
from memdir_nb.storage.daily_log import append_daily_log
from tests.support.durability import record_fsyncs_and_renames
from tests.support.file_size_limit import file_size_limit


@pytest.fixture
def root_fd(tmp_path: Path) -> Iterator[int]:
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    yield fd
    os.close(fd)


def test_walk_creates_missing_folders_and_never_follows_a_symlink(
    tmp_path: Path, root_fd: int
) -> None:
    fd = fsutil.open_dir_nofollow(root_fd, ["a", "b"], create=True)
    os.close(fd)
    assert (tmp_path / "a" / "b").is_dir()
    outside = tmp_path.parent / (tmp_path.name + "-outside")
    outside.mkdir()
    (tmp_path / "link").symlink_to(outside, target_is_directory=True)
    with pytest.raises(fsutil.SymlinkSwapError, match="'link'.*symlink"):
        fsutil.open_dir_nofollow(root_fd, ["link", "c"], create=True)
    assert list(outside.iterdir()) == []


def test_walk_refuses_dot_dot_and_a_file_in_the_way(tmp_path: Path, root_fd: int) -> None:
    with pytest.raises(fsutil.SymlinkSwapError):
        fsutil.open_dir_nofollow(root_fd, [".."], create=False)
    (tmp_path / "f").write_text("x")
    with pytest.raises(fsutil.SymlinkSwapError, match="not a folder"):
        fsutil.open_dir_nofollow(root_fd, ["f"], create=True)


def test_write_new_at_never_replaces_or_follows_an_existing_name(
    tmp_path: Path, root_fd: int
) -> None:
    (tmp_path / "victim").write_text("keep")
    (tmp_path / "tmp").symlink_to(tmp_path / "victim")
    with pytest.raises(FileExistsError):
        fsutil.write_new_at(root_fd, "tmp", [b"pwned"])
    assert (tmp_path / "victim").read_text() == "keep"
    fsutil.write_new_at(root_fd, "new", [b"a", b"b"], mode=0o600)
    assert (tmp_path / "new").read_bytes() == b"ab"
    assert (tmp_path / "new").stat().st_mode & 0o777 == 0o600


@pytest.mark.timeout(10)
def test_read_at_refuses_fifos_without_blocking_and_files_over_the_cap(
    tmp_path: Path, root_fd: int
) -> None:
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(OSError, match="not a regular file"):
        fsutil.read_at(root_fd, "pipe", 100)
    (tmp_path / "big").write_bytes(b"x" * 101)
    with pytest.raises(OSError, match="over the 100-byte limit"):
        fsutil.read_at(root_fd, "big", 100)
    assert fsutil.read_at(root_fd, "big", 101) == b"x" * 101
    (tmp_path / "ln").symlink_to(tmp_path / "big")
    with pytest.raises(OSError):  # the final name is not followed either
        fsutil.read_at(root_fd, "ln", 1000)


def test_open_real_dir_gives_the_real_path_and_a_descriptor_on_it(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.md").write_text("x\n")
    (tmp_path / "alias").symlink_to("real", target_is_directory=True)
    real, fd = fsutil.open_real_dir(tmp_path / "alias")
    try:
        assert real == str((tmp_path / "real").resolve())
        assert fsutil.exists_at(fd, "a.md")
    finally:
        os.close(fd)


def test_open_real_dir_refuses_a_file(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("x\n")
    with pytest.raises(NotADirectoryError):
        fsutil.open_real_dir(tmp_path / "a.md")


def test_a_file_in_the_way_is_named_by_its_path_with_a_fix_a_person_can_apply(
    tmp_path: Path,
) -> None:
    # attack round 13: a daily log under a file `logs/2026` was refused as "'2026' is a regular
    # file… choose a path whose folders are folders" (the log's path is not the person's to
    # choose); rebuild-index under a file `.trash` the same way
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "2026").write_text("x")
    with pytest.raises(
        fsutil.SymlinkSwapError, match="'logs/2026' is a regular file.*move it aside"
    ):
        append_daily_log(tmp_path, "a note", now_ms=1_796_000_000_000)
    assert (tmp_path / "logs" / "2026").read_text() == "x"


def test_a_folder_that_cannot_be_looked_at_is_no_folder_and_raises_nothing(
    tmp_path: Path,
) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "file").write_text("x")
    assert fsutil.is_folder(tmp_path / "real") and fsutil.is_folder(tmp_path / "link")
    assert not fsutil.is_folder(tmp_path / "link", follow=False)
    for odd in ("x" * 300, "file/sub", "missing", "nul\0"):
        assert not fsutil.is_folder(tmp_path / odd)


def test_a_regular_file_that_cannot_be_looked_at_is_none(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "file")
    os.mkfifo(tmp_path / "fifo")
    assert fsutil.is_regular_file(tmp_path / "file") and fsutil.is_regular_file(tmp_path / "link")
    assert not fsutil.is_regular_file(tmp_path / "link", follow=False)
    for odd in ("x" * 300, "file/sub", "missing", "nul\0", "fifo", "."):
        assert not fsutil.is_regular_file(tmp_path / odd)


def test_a_side_name_keeps_at_most_180_bytes_of_the_name_and_never_half_a_character() -> None:
    assert fsutil.side_stem("notes.md") == ".notes.md"
    assert fsutil.side_stem("a" * 250) == "." + "a" * 180
    cjk = fsutil.side_stem("記" * 80)  # 3 bytes each: 60 fit
    assert cjk == "." + "記" * 60 and len(cjk.encode()) == 181
    mixed = fsutil.side_stem("a" + "\U0001f600" * 60)  # 1 + 4 * 44 = 177 bytes fit, not 181
    assert mixed == ".a" + "\U0001f600" * 44


def test_replace_file_cut_short_by_a_full_disk_keeps_the_old_file_and_leaves_no_temp_file(
    tmp_path: Path,
) -> None:
    """The atomic writer of caches, the dream lock and the demo: a write the disk refuses
    part-way (here the file-size limit) leaves the old file whole and no temp file beside it."""
    target = tmp_path / "vectors.json"
    target.write_bytes(b"old, whole\n")
    with file_size_limit(64), pytest.raises(OSError) as caught:
        fsutil.replace_file(target, b"n" * 1000, tmp_name=".vectors.json.tmp")
    assert caught.value.errno == errno.EFBIG
    assert target.read_bytes() == b"old, whole\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vectors.json"]


def test_replace_file_makes_its_bytes_durable_before_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fsync of the temp file comes before the rename: a power cut after the rename must not
    leave an empty file where the old one was."""
    steps = record_fsyncs_and_renames(monkeypatch)
    fsutil.replace_file(tmp_path / "cache.json", b"{}", tmp_name=".cache.json.tmp")
    assert steps == ["fsync-file", "rename", "fsync-dir"]
    assert (tmp_path / "cache.json").read_bytes() == b"{}"


def test_a_unique_temp_name_is_hidden_names_its_file_and_process_and_never_repeats() -> None:
    names = {fsutil.unique_tmp_name("record.json") for _ in range(1000)}
    assert len(names) == 1000
    assert all(n.startswith(f".record.json.{os.getpid()}.") and n.endswith(".tmp") for n in names)
