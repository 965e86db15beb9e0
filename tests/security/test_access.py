"""Attacks on the contained reader (memdir_nb/access.py): every one is refused or bounded, promptly."""

from __future__ import annotations

import errno
import os
import tracemalloc
from pathlib import Path

import pytest

from memdir_nb.storage.access import (
    MissingFile,
    ReadRefused,
    ReadResult,
    read_contained,
    try_read_contained,
)
from tests.support.unix_socket import unix_socket_at


@pytest.fixture()
def mem(tmp_path: Path) -> Path:
    """A memory dir with a team/ folder and an outside folder next to it."""
    memory = tmp_path / "memory"
    (memory / "team").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.md").write_text("outside secret\n")
    (memory / "note.md").write_text("---\nname: note\n---\nbody\n")
    return memory


def test_regular_file_inside_is_read_whole(mem: Path) -> None:
    res = read_contained(mem, mem / "note.md", 1000)
    assert isinstance(res, ReadResult)
    assert res.text.startswith("---\nname: note")
    assert (res.rel, res.truncated, res.valid_utf8) == ("note.md", False, True)
    assert res.bytes_read == res.total_size == len(res.data)
    assert res.cut_note() == ""


def test_relative_path_is_taken_relative_to_the_memory_dir(
    mem: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a relative path must not be resolved against the process cwd (restored after the test:
    # later tests start `python -m memdir_nb.cli` from the cwd)
    monkeypatch.chdir(tmp_path)
    assert read_contained(mem, "note.md", 100).rel == "note.md"


@pytest.mark.timeout(10)
def test_fifo_as_memory_md_is_refused_without_blocking(mem: Path) -> None:
    os.mkfifo(mem / "MEMORY.md")
    with pytest.raises(ReadRefused) as info:
        read_contained(mem, mem / "MEMORY.md", 1000)
    assert info.value.kind == "not-regular"
    assert str(info.value) == "MEMORY.md is a FIFO, not a regular file"


@pytest.mark.timeout(10)
def test_fifo_as_team_memory_md_is_refused_without_blocking(mem: Path) -> None:
    os.mkfifo(mem / "team" / "MEMORY.md")
    refusal = try_read_contained(mem, mem / "team" / "MEMORY.md", 1000)
    assert isinstance(refusal, ReadRefused)
    assert refusal.reason == "team/MEMORY.md is a FIFO, not a regular file"


@pytest.mark.timeout(10)
def test_symlink_to_a_fifo_inside_is_refused(mem: Path) -> None:
    os.mkfifo(mem / "pipe")
    os.symlink("pipe", mem / "topic.md")
    with pytest.raises(ReadRefused, match="FIFO"):
        read_contained(mem, mem / "topic.md", 1000)


def test_symlink_to_dev_zero_is_refused_as_outside(mem: Path) -> None:
    os.symlink("/dev/zero", mem / "zero.md")
    with pytest.raises(ReadRefused) as info:
        read_contained(mem, mem / "zero.md", 1000)
    assert info.value.kind == "outside"
    assert str(info.value) == "zero.md is a symlink to a file outside the memory dir"


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a device needs root")
def test_character_device_inside_is_refused_before_open(mem: Path) -> None:
    os.mknod(mem / "dev.md", 0o600 | 0o020000, os.makedev(1, 5))  # a copy of /dev/zero
    with pytest.raises(ReadRefused, match="dev.md is a character device, not a regular file"):
        read_contained(mem, mem / "dev.md", 1000)


@pytest.mark.timeout(10)
def test_unix_socket_is_refused(mem: Path) -> None:
    path = mem / "sock.md"
    with (
        unix_socket_at(path),
        pytest.raises(ReadRefused, match="sock.md is a socket, not a regular file"),
    ):
        read_contained(mem, path, 1000)


def test_directory_is_refused(mem: Path) -> None:
    with pytest.raises(ReadRefused, match="team is a directory"):
        read_contained(mem, mem / "team", 1000)
    with pytest.raises(ReadRefused, match="directory"):
        read_contained(mem, mem, 1000)


def test_index_symlinked_outside_is_refused_with_the_reason(mem: Path, tmp_path: Path) -> None:
    os.symlink(tmp_path / "outside" / "secret.md", mem / "MEMORY.md")
    refusal = try_read_contained(mem, mem / "MEMORY.md", 1000)
    assert isinstance(refusal, ReadRefused)
    assert refusal.kind == "outside"
    assert refusal.reason == "MEMORY.md is a symlink to a file outside the memory dir"


def test_relative_dotdot_symlink_escape_is_refused(mem: Path) -> None:
    os.symlink("../../outside/secret.md", mem / "team" / "up.md")
    with pytest.raises(ReadRefused, match="outside the memory dir"):
        read_contained(mem, mem / "team" / "up.md", 1000)


def test_file_under_a_team_folder_symlinked_outside_is_refused(mem: Path, tmp_path: Path) -> None:
    (mem / "team").rmdir()
    os.symlink(tmp_path / "outside", mem / "team")
    with pytest.raises(ReadRefused) as info:
        read_contained(mem, mem / "team" / "secret.md", 1000)
    assert info.value.kind == "outside"
    assert "team/secret.md" in str(info.value)


def test_dotdot_in_the_asked_path_is_refused(mem: Path) -> None:
    with pytest.raises(ReadRefused, match="outside the memory dir"):
        read_contained(mem, mem / ".." / "outside" / "secret.md", 1000)


def test_symlink_inside_the_dir_is_followed(mem: Path) -> None:
    os.symlink("note.md", mem / "alias.md")
    res = read_contained(mem, mem / "alias.md", 1000)
    assert res.rel == "note.md" and "body" in res.text


def test_memory_dir_reached_through_a_symlink_reads_normally(mem: Path, tmp_path: Path) -> None:
    os.symlink(mem, tmp_path / "link")
    assert read_contained(tmp_path / "link", tmp_path / "link" / "note.md", 100).rel == "note.md"


def test_symlink_loop_and_dangling_link_are_refused_with_reasons(mem: Path) -> None:
    os.symlink("b.md", mem / "a.md")
    os.symlink("a.md", mem / "b.md")
    os.symlink("nowhere.md", mem / "dangling.md")
    with pytest.raises(ReadRefused, match="symlink loop"):
        read_contained(mem, mem / "a.md", 100)
    with pytest.raises(MissingFile, match="dangling.md is a dangling symlink"):
        read_contained(mem, mem / "dangling.md", 100)


def test_missing_file_is_a_file_not_found_error(mem: Path) -> None:
    with pytest.raises(FileNotFoundError) as info:
        read_contained(mem, mem / "absent.md", 100)
    assert isinstance(info.value, MissingFile)
    assert info.value.kind == "missing" and str(info.value) == "absent.md does not exist"


def test_huge_sparse_file_is_read_within_the_cap_and_memory_stays_bounded(mem: Path) -> None:
    path = mem / "huge.md"
    with open(path, "wb") as fh:
        fh.truncate(1 << 30)  # 1 GB, sparse
    tracemalloc.start()
    try:
        res = read_contained(mem, path, 64 * 1024)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert res.bytes_read == 64 * 1024 and res.truncated
    assert res.total_size == 1 << 30
    assert peak < 1024 * 1024
    assert "huge.md is 1073741824 bytes; only the first 65536 bytes were read" in res.cut_note()


def test_file_of_exactly_the_cap_is_not_truncated(mem: Path) -> None:
    (mem / "exact.md").write_bytes(b"x" * 100)
    res = read_contained(mem, mem / "exact.md", 100)
    assert (res.bytes_read, res.truncated) == (100, False)


def test_invalid_utf8_is_reported_and_a_character_cut_by_the_cap_is_not(mem: Path) -> None:
    (mem / "bad.md").write_bytes(b"ok \xff\xfe end\n")
    assert read_contained(mem, mem / "bad.md", 100).valid_utf8 is False
    (mem / "cut.md").write_bytes("ab\u00e9cd".encode())  # é is two bytes: cap 3 cuts it
    res = read_contained(mem, mem / "cut.md", 3)
    assert (res.text, res.valid_utf8, res.truncated) == ("ab", True, True)


def test_file_swapped_after_the_check_is_refused(
    mem: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A swap between lstat and open is caught by comparing (st_dev, st_ino)."""

    real_open = os.open

    def swapping_open(path, flags, mode=0o777, *, dir_fd=None):  # type: ignore[no-untyped-def]
        if path == "note.md":
            os.replace(mem / "other.md", mem / "note.md")
        return real_open(path, flags, mode, dir_fd=dir_fd)

    (mem / "other.md").write_text("swapped in\n")
    monkeypatch.setattr(os, "open", swapping_open)
    with pytest.raises(ReadRefused) as info:
        read_contained(mem, mem / "note.md", 100)
    assert info.value.kind == "changed"


def test_file_swapped_for_a_symlink_after_the_check_is_not_followed(
    mem: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    real_open = os.open

    def swapping_open(path, flags, mode=0o777, *, dir_fd=None):  # type: ignore[no-untyped-def]
        if path == "note.md" and not os.path.islink(mem / "note.md"):
            os.unlink(mem / "note.md")
            os.symlink(tmp_path / "outside" / "secret.md", mem / "note.md")
        return real_open(path, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "open", swapping_open)
    refusal = try_read_contained(mem, mem / "note.md", 100)
    assert isinstance(refusal, ReadRefused)
    assert "outside" not in getattr(refusal, "data", b"").decode()
    assert refusal.kind in {"changed", "outside"}


def test_folder_swapped_for_a_symlink_is_not_followed(mem: Path, tmp_path: Path) -> None:
    """Opening goes component by component with O_NOFOLLOW from the dir's real path."""
    (mem / "team" / "secret.md").write_text("team\n")
    os.rename(mem / "team", mem / "team.old")
    os.symlink(tmp_path / "outside", mem / "team")
    refusal = try_read_contained(mem, mem / "team" / "secret.md", 100)
    assert isinstance(refusal, ReadRefused) and refusal.kind == "outside"


def test_negative_cap_is_a_clear_error(mem: Path) -> None:
    with pytest.raises(ValueError, match="cap must be 0 or more bytes"):
        read_contained(mem, mem / "note.md", -1)


@pytest.mark.timeout(10)
def test_holds_exactly_compares_without_reading_past_the_expected_bytes(mem: Path) -> None:
    from memdir_nb.storage.access import holds_exactly

    body = (mem / "note.md").read_bytes()
    assert holds_exactly(mem, mem / "note.md", body)
    assert not holds_exactly(mem, mem / "note.md", body[:-1])
    assert not holds_exactly(mem, mem / "absent.md", body)
    os.mkfifo(mem / "pipe.md")
    assert not holds_exactly(mem, mem / "pipe.md", b"")


def test_a_batch_reader_keeps_folders_open_and_closes_them_after(mem: Path) -> None:
    from memdir_nb.storage.access import ContainedReader

    for i in range(5):
        (mem / "team" / f"t{i}.md").write_text(f"team {i}\n")
    before = len(os.listdir("/proc/self/fd"))
    with ContainedReader(mem) as reader:
        texts = [reader.read(mem / "team" / f"t{i}.md", 100).text for i in range(5)]
        during = len(os.listdir("/proc/self/fd"))
    assert texts == [f"team {i}\n" for i in range(5)]
    assert during - before == 2  # the root and team/, shared by the five reads
    assert len(os.listdir("/proc/self/fd")) == before


def test_follow_symlinks_false_refuses_any_link(mem: Path) -> None:
    os.symlink("note.md", mem / "alias.md")
    with pytest.raises(ReadRefused) as info:
        read_contained(mem, mem / "alias.md", 100, follow_symlinks=False)
    assert info.value.kind == "symlink" and info.value.errno == errno.ELOOP


def test_a_path_past_the_depth_cap_is_refused_as_too_deep_with_the_cap_and_the_fix(
    mem: Path,
) -> None:
    # its folders are never opened; the refusal was a plain "unreadable" OSError that a
    # scan's skip list showed as "unreadable: OSError" (polish31b)
    deep = mem.joinpath(*["d"] * 65)
    deep.mkdir(parents=True)
    (deep / "user_deep.md").write_text("deep\n")
    rel = "/".join(["d"] * 65) + "/user_deep.md"
    res = try_read_contained(mem, deep / "user_deep.md", 1024)
    assert isinstance(res, ReadRefused)
    assert res.kind == "too-deep" and res.errno == errno.ENAMETOOLONG and res.path == rel
    assert str(res) == (
        f"{rel} is in a folder that is nested 65 folders deep, past the 64 any memory route "
        "goes into; move what is in it up"
    )
    (deep.parent / "user_64.md").write_text("at the cap\n")  # 64 folders: still read
    assert read_contained(mem, deep.parent / "user_64.md", 1024).data == b"at the cap\n"
