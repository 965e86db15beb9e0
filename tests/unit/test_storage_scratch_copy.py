"""memdir_nb.storage.scratch_copy: a notebook's working copy of a dir holding odd entries."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from memdir_nb.spec.constants import (
    MEMORY_DIR_MAX_DEPTH,
    SCRATCH_COPY_OTHER_FILE_MAX_BYTES,
    STORE_READ_MAX_BYTES,
)
from memdir_nb.storage.daily_log import append_daily_log
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.storage.scratch_copy import (
    SCRATCH_WARNING_MAX_NAMES,
    SET_ASIDE_SUFFIX,
    ScratchCopyWarning,
    copy_memory_dir,
    set_aside_what_writes_refuse,
)
from memdir_nb.storage.store import MemoryStore
from tests.support import make_nested, nested_folders
from tests.support.unix_socket import unix_socket_at


def _odd_dir(root: Path) -> Path:
    """A memory dir with a topic file, a subfolder, a symlink, a named pipe and a socket."""
    memory = root / "memory"
    (memory / "notes").mkdir(parents=True)
    (memory / "MEMORY.md").write_text("- [Deploys](project_deploys.md) — how we ship\n", "utf-8")
    (memory / "project_deploys.md").write_text(
        "---\nname: Deploys\ndescription: how we ship\ntype: project\n---\n\nbody\n", "utf-8"
    )
    (memory / "notes" / "reference_wiki.md").write_text("# Wiki\n", "utf-8")
    os.symlink("/etc/hostname", memory / "user_linked.md")
    os.mkfifo(memory / "project_pipe.md")
    return memory


def test_pipes_stay_pipes_symlinks_stay_links_and_sockets_are_left_out(tmp_path: Path) -> None:
    source = _odd_dir(tmp_path)
    with unix_socket_at(source / "project_socket.md"):  # shutil.copytree alone raises on a socket
        copy = copy_memory_dir(source, tmp_path / "scratch" / "memory")

    assert copy == tmp_path / "scratch" / "memory"
    assert stat.S_ISFIFO((copy / "project_pipe.md").lstat().st_mode)
    assert os.readlink(copy / "user_linked.md") == "/etc/hostname"
    assert not (copy / "project_socket.md").exists()
    assert (copy / "notes" / "reference_wiki.md").read_text("utf-8") == "# Wiki\n"
    names = [h.filename for h in scan_memory_dir(copy).headers]
    assert names == [h.filename for h in scan_memory_dir(source).headers]


def test_the_copy_is_separate_from_the_source(tmp_path: Path) -> None:
    source = _odd_dir(tmp_path)
    copy = copy_memory_dir(source, tmp_path / "copy")

    (copy / "project_deploys.md").write_text("changed\n", "utf-8")

    assert "name: Deploys" in (source / "project_deploys.md").read_text("utf-8")
    assert (source / "project_deploys.md").stat().st_ino != (
        copy / "project_deploys.md"
    ).stat().st_ino


def test_strict_copy_fails_on_a_socket_and_still_recreates_pipes(tmp_path: Path) -> None:
    source = _odd_dir(tmp_path)
    assert stat.S_ISFIFO(
        (copy_memory_dir(source, tmp_path / "piped", strict=True) / "project_pipe.md")
        .lstat()
        .st_mode
    )
    with (
        unix_socket_at(source / "project_socket.md"),
        pytest.raises(shutil.Error, match="project_socket.md"),
    ):
        copy_memory_dir(source, tmp_path / "strict", strict=True)


_COPY_AND_SAY = """
import sys, warnings
from memdir_nb.spec.constants import MEMORY_DIR_MAX_DEPTH, SCRATCH_COPY_OTHER_FILE_MAX_BYTES
from memdir_nb.storage.scratch_copy import (
    SCRATCH_WARNING_MAX_NAMES,
    ScratchCopyWarning,
    copy_memory_dir,
)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    copy = copy_memory_dir(sys.argv[1], sys.argv[2])
print(sorted(str(p.relative_to(copy)) for p in copy.rglob("*")))
print(" | ".join(str(w.message) for w in caught))  # as printed, not repr'd
"""


def _copy_without_read_override(source: Path, dest: Path) -> subprocess.CompletedProcess[str]:
    """copy_memory_dir(source, dest) in a subprocess that cannot read past file modes: root
    reads any file, so as root it runs without the capabilities that let it (setpriv)."""
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: every file and folder can be read")
    prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
    args = [sys.executable, "-c", _COPY_AND_SAY, str(source), str(dest)]
    return subprocess.run(
        [*(prefix if os.geteuid() == 0 else []), *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )


def test_a_file_or_folder_that_cannot_be_read_is_left_out_and_named(tmp_path: Path) -> None:
    # A memory dir with one file its owner made unreadable took notebooks 01, 02, 05, 06 and 07
    # down with shutil.Error. root reads any file, so the copy runs without the capabilities
    # that let it (one subprocess); a user's own run needs none of that.
    source = _odd_dir(tmp_path)
    os.unlink(source / "project_pipe.md")
    (source / "user_locked.md").write_text("x\n", "utf-8")
    (source / "locked").mkdir()
    (source / "locked" / "inside.md").write_text("x\n", "utf-8")
    for path in (source / "user_locked.md", source / "locked"):
        path.chmod(0)
    done = _copy_without_read_override(source, tmp_path / "copy")
    for path in (source / "user_locked.md", source / "locked"):
        path.chmod(0o755)
    assert done.returncode == 0, done.stderr
    listed, said = done.stdout.splitlines()
    assert listed == str(
        ["MEMORY.md", "notes", "notes/reference_wiki.md", "project_deploys.md", "user_linked.md"]
    )
    assert "locked, user_locked.md" in said and "cannot be read" in said


def test_a_folder_that_can_be_listed_but_not_entered_is_left_out_and_named(
    tmp_path: Path,
) -> None:
    # mode 0600: its names can be listed, but no file in it can be stat'ed or opened, so the
    # copy failed whole (shutil.Error on notes/reference_wiki.md) instead of leaving it out
    source = _odd_dir(tmp_path)
    os.unlink(source / "project_pipe.md")
    (source / "notes").chmod(0o600)
    done = _copy_without_read_override(source, tmp_path / "copy")
    (source / "notes").chmod(0o755)
    assert done.returncode == 0, done.stderr
    listed, said = done.stdout.splitlines()
    assert listed == str(["MEMORY.md", "project_deploys.md", "user_linked.md"])
    assert "cannot be read: notes (" in said


def test_a_left_out_name_holding_an_escape_sequence_is_named_escaped(tmp_path: Path) -> None:
    # the warning is printed under a notebook cell: a file name is someone else's text
    source = _odd_dir(tmp_path)
    os.unlink(source / "project_pipe.md")
    locked = source / "user_\x1b]0;owned\x07x.md"
    locked.write_text("x\n", "utf-8")
    locked.chmod(0)
    done = _copy_without_read_override(source, tmp_path / "copy")
    locked.chmod(0o644)
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()[1]
    assert "\x1b" not in said and "\x07" not in said
    assert "user_\\x1b]0;owned\\x07x.md" in said


def test_folders_nested_past_the_depth_any_route_goes_are_left_out_and_named(
    tmp_path: Path,
) -> None:
    # shutil.copytree recurses once a folder: 1,000 nested folders (2,000 bytes of path, well
    # within PATH_MAX) raised RecursionError out of notebooks 01, 02, 05, 06 and 07
    source = _odd_dir(tmp_path)
    os.unlink(source / "project_pipe.md")
    with nested_folders(source / "deep", 1000) as far, pytest.warns(ScratchCopyWarning) as caught:
        (far / "user_far.md").write_text("x\n", "utf-8")
        with nested_folders(source / "near", MEMORY_DIR_MAX_DEPTH - 1) as near:
            (near / "user_near.md").write_text("x\n", "utf-8")
            copy = copy_memory_dir(source, tmp_path / "copy")
            with pytest.raises(shutil.Error, match="folders deep, past the"):
                copy_memory_dir(source, tmp_path / "strict", strict=True)
    said = str(caught[0].message)
    kept = "deep" + "/a" * (MEMORY_DIR_MAX_DEPTH - 1)  # MEMORY_DIR_MAX_DEPTH folders deep
    assert f"past the {MEMORY_DIR_MAX_DEPTH} folders any memory route goes into: {kept}/a (" in said
    assert (copy / kept).is_dir() and not (copy / kept / "a").exists()
    assert (copy / "near" / ("a/" * (MEMORY_DIR_MAX_DEPTH - 1)) / "user_near.md").is_file()


def test_a_warning_names_at_most_a_few_entries_and_counts_the_rest(tmp_path: Path) -> None:
    # one line under a notebook cell, whatever the dir holds: 30 deep folders, 20 named
    source = _odd_dir(tmp_path)
    os.unlink(source / "project_pipe.md")
    for i in range(30):
        make_nested(source / f"deep{i:03}", MEMORY_DIR_MAX_DEPTH)  # 65 deep: rmtree copes
    with pytest.warns(ScratchCopyWarning) as caught:
        copy_memory_dir(source, tmp_path / "copy")
    said = str(caught[0].message)
    assert f"and {30 - SCRATCH_WARNING_MAX_NAMES} more" in said
    assert said.count("deep") == SCRATCH_WARNING_MAX_NAMES


def _sparse(path: Path, size: int) -> Path:
    """A real file of size bytes that holds no data blocks (all a hole), so any size is cheap."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        f.truncate(size)
    return path


@pytest.mark.timeout(60)
def test_a_big_file_that_is_no_memory_is_left_out_and_named_with_the_cap(tmp_path: Path) -> None:
    # a 4 GiB video kept beside the memories was copied whole into the notebooks' scratch copy;
    # a file that is no memory nor index is now copied up to the most any memory route reads
    # of such a file (the journal's cap), and past it left out, named with that cap
    cap = SCRATCH_COPY_OTHER_FILE_MAX_BYTES
    source = _odd_dir(tmp_path)
    os.unlink(source / "project_pipe.md")
    video = _sparse(source / "demo.mp4", 4 * 2**30)
    _sparse(source / ".trash" / "dream-1" / "blob.bin", cap + 1)
    _sparse(source / "notes" / "at_the_cap.bin", cap)
    _sparse(source / "user_huge.md", cap + 1)  # a memory: copied whatever its size
    assert video.stat().st_blocks == 0  # really sparse: nothing here reads 4 GiB
    with pytest.warns(ScratchCopyWarning) as caught:
        copy = copy_memory_dir(source, tmp_path / "copy")
    said = str(caught[0].message)
    assert (
        f"no memory and over the {cap:,} bytes the copy takes of such a file: "
        ".trash/dream-1/blob.bin, demo.mp4 (" in said
    )
    assert not (copy / "demo.mp4").exists() and not (copy / ".trash/dream-1/blob.bin").exists()
    assert (copy / ".trash" / "dream-1").is_dir()
    assert (copy / "notes" / "at_the_cap.bin").stat().st_size == cap
    assert (copy / "user_huge.md").stat().st_size == cap + 1
    assert (copy / "project_deploys.md").read_text("utf-8").endswith("body\n")
    with pytest.raises(shutil.Error, match=r"demo\.mp4 is over 16,777,216 bytes"):
        copy_memory_dir(source, tmp_path / "strict", strict=True)


@pytest.mark.timeout(60)
def test_a_memory_past_the_cap_keeps_its_size_and_first_bytes_but_is_not_copied_whole(
    tmp_path: Path,
) -> None:
    # attack round 23: a memory or index past the cap (a 2 GiB user_huge.md, all a hole) was
    # copied whole, 2.1 GB written in 16 s for one notebook cell; no route reads more than
    # the cap of it, so the copy takes that much and gives the file its size as a hole
    cap = SCRATCH_COPY_OTHER_FILE_MAX_BYTES
    source = _odd_dir(tmp_path)
    os.unlink(source / "project_pipe.md")
    head = b"---\nname: huge\ndescription: a memory past every read cap\ntype: user\n---\n"
    huge = _sparse(source / "user_huge.md", 4 * 2**30)
    with huge.open("r+b") as f:
        f.write(head)
    copy = copy_memory_dir(source, tmp_path / "copy")
    copied = copy / "user_huge.md"
    assert copied.stat().st_size == 4 * 2**30  # the readers see the same size
    assert copied.stat().st_blocks * 512 <= cap + 2**20  # at most the cap's worth written
    with copied.open("rb") as f:
        assert f.read(len(head)) == head
    seen = [(h.filename, h.description) for h in scan_memory_dir(copy).headers]
    assert seen == [(h.filename, h.description) for h in scan_memory_dir(source).headers]
    assert [s.reason for s in scan_memory_dir(copy).skipped] == [
        s.reason for s in scan_memory_dir(source).skipped
    ]


def test_the_copy_never_takes_more_disk_than_the_dir_a_hole_stays_a_hole(tmp_path: Path) -> None:
    # attack round 24: round 23 capped each file at the cap, but wrote its holes as zeros: 20
    # memories of 16 MiB that are all a hole (80 KB on disk) took 336 MB in the copy
    cap = SCRATCH_COPY_OTHER_FILE_MAX_BYTES
    source = tmp_path / "memory"
    head = b"---\nname: h\ndescription: a memory that is mostly a hole\ntype: user\n---\n"
    tail = b"the last words\n"
    for i in range(6):
        with _sparse(source / f"user_h{i}.md", cap).open("r+b") as f:
            f.write(head)
            f.seek(cap // 2)
            f.write(tail)  # data in the middle, after a hole
    _sparse(source / "notes.bin", cap // 2)  # no memory, within the cap: copied, as a hole
    on_disk = sum(p.stat().st_blocks for p in source.iterdir())
    if on_disk * 512 >= cap:
        pytest.skip("this file system keeps no holes")
    copy = copy_memory_dir(source, tmp_path / "copy")
    assert sum(p.stat().st_blocks for p in copy.iterdir()) <= on_disk
    for i in range(6):
        copied = (copy / f"user_h{i}.md").read_bytes()
        assert copied == (source / f"user_h{i}.md").read_bytes()
    assert (copy / "notes.bin").stat().st_size == cap // 2


def _dir_writes_refuse(root: Path) -> Path:
    """A dir whose index is past the store's read cap, whose team index is not text, and whose
    logs/ is a link to nowhere, beside one good memory."""
    memory = root / "memory"
    (memory / "team").mkdir(parents=True)
    (memory / "project_deploys.md").write_text(
        "---\nname: Deploys\ndescription: how we ship\ntype: project\n---\n\nbody\n", "utf-8"
    )
    line = "- [Deploys](project_deploys.md) — how we ship\n"
    (memory / "MEMORY.md").write_text(
        line * (STORE_READ_MAX_BYTES // len(line.encode()) + 10), "utf-8"
    )
    (memory / "team" / "MEMORY.md").write_bytes(b"\xff\xfe\x00 not text")
    os.symlink(root / "gone", memory / "logs")
    return memory


def test_what_a_store_write_refuses_is_set_aside_in_the_copy_and_the_writes_then_run(
    tmp_path: Path,
) -> None:
    source = _dir_writes_refuse(tmp_path)
    copy = copy_memory_dir(source, tmp_path / "copy")

    refused = set_aside_what_writes_refuse(copy)

    assert [rel for rel, _ in refused] == ["MEMORY.md", "team/MEMORY.md", "logs"]
    why = dict(refused)
    assert "over the 1,048,576-byte limit" in why["MEMORY.md"] and "[Errno" not in why["MEMORY.md"]
    assert "not valid UTF-8" in why["team/MEMORY.md"]
    assert "Dangling symlink" in why["logs"]
    for rel, _ in refused:
        assert os.path.lexists(copy / (rel + SET_ASIDE_SUFFIX)) and not os.path.lexists(copy / rel)
    store = MemoryStore(copy)
    store.save("Style", "Short answers", "feedback", "Lead with the command.")
    store.save("Bastion", "Staging is reached through the bastion", "reference", "x", scope="team")
    assert append_daily_log(copy, "a note", now_ms=1_770_000_000_000.0).is_file()
    assert (source / "team" / "MEMORY.md").read_bytes() == b"\xff\xfe\x00 not text"
    assert os.path.islink(source / "logs") and (source / "MEMORY.md").stat().st_size > 1 << 20


def test_a_copy_the_store_can_write_keeps_every_entry(tmp_path: Path) -> None:
    copy = copy_memory_dir(_odd_dir(tmp_path), tmp_path / "copy")
    (copy / "team").mkdir()
    (copy / "team" / "MEMORY.md").write_text("- [A](a.md) — a\n", "utf-8")
    (copy / "logs").mkdir()
    before = sorted(str(p.relative_to(copy)) for p in copy.rglob("*") if not p.name.startswith("."))

    assert set_aside_what_writes_refuse(copy) == []
    after = sorted(str(p.relative_to(copy)) for p in copy.rglob("*") if not p.name.startswith("."))
    assert after == before


_COPY_AND_SAVE = """
import sys
from memdir_nb.storage.scratch_copy import copy_memory_dir, set_aside_what_writes_refuse
from memdir_nb.storage.store import MemoryStore
copy = copy_memory_dir(sys.argv[1], sys.argv[2])
print(set_aside_what_writes_refuse(copy))
store = MemoryStore(copy)
print(store.save("Style", "Short answers", "feedback", "Lead with the command.").name)
print(store.save("Bastion", "Staging goes through the bastion", "reference", "x", scope="team").name)
"""


def test_a_read_only_dir_gives_a_copy_its_owner_can_write(tmp_path: Path) -> None:
    # `chmod -R a-w` on a memory dir (or a read-only checkout) gave a read-only scratch copy:
    # every save in notebooks 01, 05 and 07 raised PermissionError. root writes anywhere, so the
    # copy and saves run without the capabilities that let it (one subprocess, as above).
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: every file and folder can be written")
    source = _odd_dir(tmp_path)
    os.unlink(source / "project_pipe.md")
    (source / "team").mkdir()
    (source / "team" / "MEMORY.md").write_text("- [Wiki](reference_wiki.md) — the wiki\n", "utf-8")
    read_only = [p for p in (source, *source.rglob("*")) if not p.is_symlink()]
    for path in sorted(read_only, key=lambda p: -len(p.parts)):
        path.chmod(0o555 if path.is_dir() else 0o444)
    prefix = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]
    args = [sys.executable, "-c", _COPY_AND_SAVE, str(source), str(tmp_path / "copy")]
    try:
        done = subprocess.run(
            [*(prefix if os.geteuid() == 0 else []), *args],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=Path(__file__).resolve().parents[2],
        )
    finally:
        for path in read_only:
            path.chmod(0o755 if path.is_dir() else 0o644)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "feedback_style.md", "reference_bastion.md"]
    assert stat.S_IMODE((tmp_path / "copy" / "notes").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "copy" / "project_deploys.md").stat().st_mode) == 0o644
