"""The memory tool's routes out of a memory dir, each tried for real and refused.

Prefix lookalikes, '..' (plain and encoded), absolute paths, symlinked files and folders,
symlinks swapped in while a write is under way, FIFOs, a huge file, a permissive umask and
concurrent store writers. Real files, links, FIFOs and threads; no mocks.
"""

from __future__ import annotations

import json
import os
import stat
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError

from memdir_nb import MemdirMemoryTool, MemoryStore
from memdir_nb.formats.index import parse_index
from memdir_nb.toolloop.memory_view import LISTING_MAX_ENTRIES, VIEW_MAX_BYTES
from tests.conftest import DeepFolders
from tests.support.cpu_growth import growth_ratio

NOW = 1_780_000_000_000.0
USER = "---\nname: Coffee\ndescription: the user drinks coffee\ntype: user\n---\n\nCoffee.\n"


def answer(tool: MemdirMemoryTool, **command: Any) -> str:
    try:
        return str(tool.call(command))
    except ToolError as exc:
        return "ERROR: " + str(exc)


def path_commands(path: str) -> list[dict[str, Any]]:
    """Every memory tool command that takes one path, aimed at path."""
    return [
        {"command": "create", "path": path, "file_text": USER},
        {"command": "view", "path": path},
        {"command": "str_replace", "path": path, "old_str": "a", "new_str": "b"},
        {"command": "insert", "path": path, "insert_line": 0, "insert_text": "x"},
        {"command": "delete", "path": path},
    ]


@pytest.fixture
def tool(tmp_path: Path) -> MemdirMemoryTool:
    return MemdirMemoryTool(tmp_path / "mem", now_ms=NOW)


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.md").write_text("outside secret\n")
    return folder


def files_in(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize(
    "command",
    [
        {"command": "create", "path": "/memoriesX/user_a.md", "file_text": USER},
        {"command": "view", "path": "/memoriesX"},
        {"command": "view", "path": "/memories_old/user_a.md"},
        {"command": "delete", "path": "/memoriesX/user_a.md"},
        {
            "command": "rename",
            "old_path": "/memories/user_a.md",
            "new_path": "/memoriesX/user_a.md",
        },
    ],
)
def test_a_prefix_lookalike_is_not_the_memory_dir(
    tool: MemdirMemoryTool, command: dict[str, Any]
) -> None:
    got = answer(tool, **command)
    assert got.startswith("ERROR: Path must start with /memories/, got: /memories")
    assert not any(p.name == "X" for p in Path(tool.memory_dir).rglob("*"))


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (
            "/memories/../user_a.md",
            "ERROR: Path /memories/../user_a.md would escape /memories directory",
        ),
        (
            "/memories/team/../../x.md",
            "ERROR: Path /memories/team/../../x.md would escape /memories directory",
        ),
        ("/memories/team/../user_a.md", "ERROR: Path /memories/team/../user_a.md has a '..' step"),
        (
            "/memories/%2e%2e/user_a.md",
            "ERROR: Path /memories/%2e%2e/user_a.md is refused: URL-encoded traversal",
        ),
        ("/memories/..\\user_a.md", "ERROR: Path /memories/..\\user_a.md is refused: Backslash"),
        ("/etc/passwd", "ERROR: Path must start with /memories, got: /etc/passwd"),
        ("memories/user_a.md", "ERROR: Path must start with /memories, got: memories/user_a.md"),
    ],
)
def test_dot_dot_and_absolute_paths_are_refused_for_every_command(
    tool: MemdirMemoryTool, tmp_path: Path, path: str, expected: str
) -> None:
    for command in path_commands(path):
        assert answer(tool, **command).startswith(expected), command
    assert not (tmp_path / "user_a.md").exists() and not (tmp_path / "x.md").exists()


def test_a_symlinked_file_pointing_out_is_neither_read_nor_written_nor_deleted(
    tool: MemdirMemoryTool, outside: Path
) -> None:
    link = Path(tool.memory_dir) / "user_link.md"
    link.symlink_to(outside / "secret.md")
    escape = "ERROR: Path /memories/user_link.md would escape /memories directory"
    assert answer(tool, command="view", path="/memories/user_link.md") == escape
    assert (
        answer(
            tool,
            command="str_replace",
            path="/memories/user_link.md",
            old_str="outside",
            new_str="x",
        )
        == escape
    )
    assert (
        answer(
            tool, command="insert", path="/memories/user_link.md", insert_line=0, insert_text="x"
        )
        == escape
    )
    assert answer(tool, command="delete", path="/memories/user_link.md") == escape
    assert (
        answer(
            tool,
            command="rename",
            old_path="/memories/user_link.md",
            new_path="/memories/user_b.md",
        )
        == escape
    )
    assert "user_link" not in answer(tool, command="view", path="/memories")
    assert files_in(outside) == {"secret.md": b"outside secret\n"}


def test_a_symlinked_file_pointing_inside_acts_on_its_target_as_the_sdk_does(
    tool: MemdirMemoryTool,
) -> None:
    root = Path(tool.memory_dir)
    answer(tool, command="create", path="/memories/user_real.md", file_text=USER)
    (root / "user_alias.md").symlink_to(root / "user_real.md")
    assert "Coffee." in answer(tool, command="view", path="/memories/user_alias.md")
    answer(
        tool,
        command="str_replace",
        path="/memories/user_alias.md",
        old_str="Coffee.",
        new_str="Tea.",
    )
    assert (root / "user_real.md").read_text().endswith("Tea.\n")
    assert (root / "user_alias.md").is_symlink()


def test_a_symlinked_parent_folder_pointing_out_is_refused(
    tool: MemdirMemoryTool, outside: Path
) -> None:
    (Path(tool.memory_dir) / "team").symlink_to(outside, target_is_directory=True)
    for command in (
        {"command": "create", "path": "/memories/team/user_x.md", "file_text": USER},
        {"command": "view", "path": "/memories/team"},
        {"command": "view", "path": "/memories/team/secret.md"},
        {"command": "delete", "path": "/memories/team"},
        {
            "command": "rename",
            "old_path": "/memories/team/secret.md",
            "new_path": "/memories/user_s.md",
        },
    ):
        assert "would escape /memories directory" in answer(tool, **command), command
    assert "team" not in answer(tool, command="view", path="/memories")
    assert files_in(outside) == {"secret.md": b"outside secret\n"}


def test_a_symlink_swapped_in_for_the_file_during_a_write_never_leads_the_write_out(
    tool: MemdirMemoryTool, outside: Path
) -> None:
    root = Path(tool.memory_dir)
    answer(tool, command="create", path="/memories/user_a.md", file_text=USER)
    fired: list[str] = []

    def swap(point: str) -> None:
        if point == "checked:user_a.md":
            fired.append(point)
            (root / "user_a.md").unlink()
            (root / "user_a.md").symlink_to(outside / "secret.md")

    tool.store.crash_hook = swap
    got = answer(
        tool, command="str_replace", path="/memories/user_a.md", old_str="Coffee.", new_str="Tea."
    )
    assert files_in(outside) == {"secret.md": b"outside secret\n"}
    # the file no longer holds what the edit was made from: nothing is written, through the link
    # or over it (since the twenty-third session; before, the rename replaced the link itself)
    assert got.startswith("ERROR: ") and "changed by another program" in got
    assert (root / "user_a.md").is_symlink()


def test_a_symlink_swapped_in_for_a_folder_during_a_write_is_refused(
    tool: MemdirMemoryTool, outside: Path
) -> None:
    root = Path(tool.memory_dir)
    (root / "sub").mkdir()

    def swap(point: str) -> None:
        if point == "checked:sub/user_b.md":
            (root / "sub").rmdir()
            (root / "sub").symlink_to(outside, target_is_directory=True)

    tool.store.crash_hook = swap
    got = answer(tool, command="create", path="/memories/sub/user_b.md", file_text=USER)
    assert (
        got.startswith("ERROR: /memories/sub/user_b.md could not be written") and "symlink" in got
    )
    assert files_in(outside) == {"secret.md": b"outside secret\n"}


def test_a_fifo_is_never_opened_for_reading_and_not_written_through(tool: MemdirMemoryTool) -> None:
    fifo = Path(tool.memory_dir) / "user_pipe.md"
    os.mkfifo(fifo)
    assert (
        answer(tool, command="view", path="/memories/user_pipe.md")
        == "ERROR: Unsupported file type for /memories/user_pipe.md"
    )
    assert (
        answer(tool, command="str_replace", path="/memories/user_pipe.md", old_str="a", new_str="b")
        == "ERROR: The path /memories/user_pipe.md is not a file."
    )
    assert (
        answer(tool, command="create", path="/memories/user_pipe.md", file_text="x")
        == "ERROR: File /memories/user_pipe.md already exists"
    )
    assert "user_pipe" not in answer(tool, command="view", path="/memories")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_viewing_a_huge_file_reads_a_bounded_prefix(tool: MemdirMemoryTool) -> None:
    huge = Path(tool.memory_dir) / "user_huge.md"
    line = "x" * 99 + "\n"
    with huge.open("w") as f:
        for _ in range(200):
            f.write(line * 1000)  # 20 MB
    tracemalloc.start()
    try:
        got = answer(tool, command="view", path="/memories/user_huge.md")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got.startswith("Here's the content of /memories/user_huge.md with line numbers:")
    assert "is 20,000,000 bytes; only the first" in got
    assert len(got) < 2 * VIEW_MAX_BYTES
    assert peak < 16 * VIEW_MAX_BYTES


def test_a_permissive_umask_still_gives_0600_files_and_0700_folders(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        tool = MemdirMemoryTool(tmp_path / "fresh" / "mem", now_ms=NOW)
        answer(tool, command="create", path="/memories/team/a/b/user_x.md", file_text=USER)
        answer(
            tool,
            command="insert",
            path="/memories/team/a/b/user_x.md",
            insert_line=0,
            insert_text="x",
        )
        answer(tool, command="create", path="/memories/user_gone.md", file_text=USER)
        answer(tool, command="delete", path="/memories/user_gone.md")
    finally:
        os.umask(old)
    root = tmp_path / "fresh" / "mem"
    for folder in (
        tmp_path / "fresh",
        root,
        root / "team",
        root / "team" / "a",
        root / "team" / "a" / "b",
    ):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700, folder
    assert stat.S_IMODE(os.stat(root / "team" / "a" / "b" / "user_x.md").st_mode) == 0o600
    for p in (root / ".trash").rglob("*"):
        assert stat.S_IMODE(os.stat(p).st_mode) == (0o700 if p.is_dir() else 0o600), p


def test_concurrent_store_saves_while_the_tool_writes_lose_nothing(tool: MemdirMemoryTool) -> None:
    root = Path(tool.memory_dir)
    answer(tool, command="create", path="/memories/MEMORY.md", file_text="# Index\n")
    errors: list[BaseException] = []

    def saver(worker: int) -> None:
        store = MemoryStore(root, now_ms=NOW)
        try:
            for i in range(8):
                store.save(
                    f"Saved {worker}-{i}",
                    f"saved by store worker {worker}",
                    "user",
                    "Body.\n",
                    filename=f"user_s{worker}_{i}.md",
                )
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def tool_writer() -> None:
        try:
            for i in range(8):
                got = answer(tool, command="create", path=f"/memories/user_t{i}.md", file_text=USER)
                assert got.startswith("File created"), got
                got = answer(
                    tool,
                    command="insert",
                    path="/memories/MEMORY.md",
                    insert_line=1,
                    insert_text=f"- [T{i}](user_t{i}.md) — tool {i}",
                )
                assert got.startswith("The file"), got
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=saver, args=(w,)) for w in range(3)] + [
        threading.Thread(target=tool_writer)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    targets = {e.target for e in parse_index((root / "MEMORY.md").read_text())}
    expected = {f"user_s{w}_{i}.md" for w in range(3) for i in range(8)} | {
        f"user_t{i}.md" for i in range(8)
    }
    assert targets == expected
    assert all((root / name).is_file() for name in expected)


def test_a_folder_view_lists_a_bounded_number_of_entries(tool: MemdirMemoryTool) -> None:
    crowded = Path(tool.memory_dir) / "crowded"
    crowded.mkdir()
    for i in range(LISTING_MAX_ENTRIES + 50):
        (crowded / f"user_{i:05d}.md").write_text("x")
    got = answer(tool, command="view", path="/memories")
    assert (
        got.count("\n") == LISTING_MAX_ENTRIES + 3
    )  # header, the folder itself, the note's blank line
    assert got.endswith("only the first are listed. View a subfolder to see the rest.")


def test_a_name_too_long_for_the_filesystem_is_a_tool_error_for_every_command(
    tool: MemdirMemoryTool,
) -> None:
    long_file = "/memories/user_" + "a" * 300 + ".md"
    long_folder = "/memories/" + "f" * 300 + "/user_a.md"
    long_path = "/memories/" + "f/" * 2100 + "user_a.md"  # every name short, the whole too long
    answer(tool, command="create", path="/memories/user_a.md", file_text=USER)
    for path, why in ((long_file, "bytes long"), (long_folder, "bytes long"), (long_path, "4095")):
        for command in (
            *path_commands(path),
            {"command": "rename", "old_path": "/memories/user_a.md", "new_path": path},
            {"command": "rename", "old_path": path, "new_path": "/memories/user_b.md"},
        ):
            got = answer(tool, **command)
            assert got.startswith("ERROR: ") and why in got, (command, got[:200])
    assert sorted(os.listdir(tool.memory_dir)) == [".memdir.lock", "user_a.md"]


def _folder_step(tool: MemdirMemoryTool, command: str, folder: str, renamed_to: str) -> str:
    """The tool's answer to one step over a whole folder: delete it, rename it, or clear all."""
    if command == "delete":
        return answer(tool, command="delete", path=f"/memories/{folder}")
    if command == "rename":
        old, new = f"/memories/{folder}", f"/memories/{renamed_to}"
        return answer(tool, command="rename", old_path=old, new_path=new)
    try:
        return tool.clear_all_memory()
    except ToolError as exc:
        return "ERROR: " + str(exc)


@pytest.mark.parametrize("command", ["delete", "rename", "clear_all"])
def test_a_folder_step_refused_by_a_fifo_inside_leaves_no_trace(
    tool: MemdirMemoryTool, command: str
) -> None:
    """The FIFO stops the whole step; the files moved before it come back, no folder is left."""
    root = Path(tool.memory_dir)
    answer(tool, command="create", path="/memories/sub/user_a.md", file_text=USER)
    (root / "sub" / "notes.txt").write_text("kept by hand\n")  # sorted before the FIFO: moved first
    os.mkfifo(root / "sub" / "pipe.md")
    before = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    got = _folder_step(tool, command, "sub", "sub2")
    assert got.startswith("ERROR: ") and "sub/pipe.md" in got
    assert "FIFO" in got and "move it aside" in got
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*")) == before
    assert (root / "sub" / "notes.txt").read_text() == "kept by hand\n"


def test_a_file_where_a_folder_is_expected_is_named_as_a_file_not_a_symlink(
    tool: MemdirMemoryTool,
) -> None:
    answer(tool, command="create", path="/memories/user_a.md", file_text=USER)
    got = answer(tool, command="create", path="/memories/user_a.md/user_b.md", file_text=USER)
    assert got.startswith("ERROR: ") and "'user_a.md' is a regular file, not a folder" in got
    assert "symlink" not in got
    assert sorted(os.listdir(tool.memory_dir)) == [".memdir.lock", "user_a.md"]


def test_a_write_the_tool_could_not_edit_back_is_refused_and_nothing_is_written(
    tool: MemdirMemoryTool,
) -> None:
    # attack round 11: create, str_replace and insert wrote files of any size, which the tool
    # then refused to edit (over its read cap); a private 50 MB file also took a minute of
    # secret scanning for the answer's notes
    root = Path(tool.memory_dir)
    big = USER + "word " * 400_000  # 2 MB
    answer(tool, command="create", path="/memories/user_a.md", file_text=USER)
    for command in (
        {"command": "create", "path": "/memories/user_big.md", "file_text": big},
        {
            "command": "create",
            "path": "/memories/MEMORY.md",
            "file_text": "- [a](a.md)\n" * 200_000,
        },
        {
            "command": "str_replace",
            "path": "/memories/user_a.md",
            "old_str": "Coffee.",
            "new_str": big,
        },
        {"command": "insert", "path": "/memories/user_a.md", "insert_line": 1, "insert_text": big},
    ):
        got = answer(tool, **command)
        assert got.startswith("ERROR: ") and "over the 1,048,576-byte limit" in got, got[:200]
        assert "nothing was written" in got and "split it" in got
    assert sorted(os.listdir(root)) == [".memdir.lock", "user_a.md"]
    assert (root / "user_a.md").read_text() == USER
    fits = USER + "word " * 100_000  # 500 KB: written, and can be edited again
    assert not answer(
        tool, command="create", path="/memories/user_b.md", file_text=fits
    ).startswith("ERROR")
    got = answer(
        tool, command="str_replace", path="/memories/user_b.md", old_str="Coffee.", new_str="Tea."
    )
    assert not got.startswith("ERROR")


def test_a_str_replace_matching_everywhere_is_refused_at_once_with_a_bounded_answer(
    tool: MemdirMemoryTool,
) -> None:
    # attack round 14: the refusal listed the line of every occurrence, each counted from the
    # file's start again: quadratic under the store lock (200 KB of one letter: 10 s; 1 MiB:
    # minutes) and an answer of megabytes. The lines are counted in one pass, 100 listed: the
    # refusal over 200 KB took 1.4 times the CPU of the one over 25 KB here; every occurrence
    # listed, each counted from the start, about 60 times.
    root = Path(tool.memory_dir)

    def refusal_over(n: int) -> Callable[[], str]:
        path = f"/memories/user_{n}.md"
        answer(tool, command="create", path=path, file_text=USER + "a" * n + "\n")
        return lambda: answer(tool, command="str_replace", path=path, old_str="a", new_str="b")

    assert growth_ratio(refusal_over, 25_000, 200_000) < 20
    body = USER + "a" * 200_000 + "\n"
    got = answer(
        tool, command="str_replace", path="/memories/user_200000.md", old_str="a", new_str="b"
    )
    assert got.startswith("ERROR: No replacement was performed. Multiple occurrences of old_str")
    assert (
        "in lines: 2, 8, 8, 8," in got
        and "8, and more (at least 200,001 occurrences in all)" in got
    )
    assert len(got) < 1_000 and (root / "user_200000.md").read_text() == body


@pytest.mark.parametrize("depth", [100, 1_000])
@pytest.mark.parametrize("command", ["delete", "rename", "clear_all"])
def test_a_folder_step_over_a_tree_it_cannot_take_whole_changes_nothing(
    tool: MemdirMemoryTool, deep_folders: DeepFolders, command: str, depth: int
) -> None:
    # attack round 11: the folder walk skipped what it could not list (folders nested past the
    # path limit), so `delete` moved the files it reached, left the rest and answered
    # "Successfully deleted", and `rename` split the tree in two; deeper still, os.walk raised
    # RecursionError. A tree past MEMORY_DIR_MAX_DEPTH is now refused whole
    root = Path(tool.memory_dir)
    answer(tool, command="create", path="/memories/deep/user_a.md", file_text=USER)
    deep_folders(root / "deep", depth, name="dddd", file="user_deep.md")
    got = _folder_step(tool, command, "deep", "d2")
    assert got.startswith("ERROR: ") and "nested 65 folders deep" in got
    assert "the folder was left as it is" in got
    assert (root / "deep" / "user_a.md").read_text() == USER
    assert not (root / "d2").exists() and not (root / ".trash").exists()


def test_the_tool_never_puts_a_file_deeper_than_it_can_read_back(tool: MemdirMemoryTool) -> None:
    # attack round 13: `create` wrote a file 70 folders down that `view` then refused ("nested
    # 70 folders deep") and scan skipped; a folder `rename` carried a tree past the same depth
    root = Path(tool.memory_dir)
    got = answer(
        tool, command="create", path="/memories/" + "a/" * 65 + "user_x.md", file_text=USER
    )
    assert got.startswith("ERROR: ") and "nested 65 folders deep" in got
    assert not (root / "a").exists()
    deep = "/memories/" + "a/" * 60 + "user_x.md"
    assert not answer(tool, command="create", path=deep, file_text=USER).startswith("ERROR")
    got = answer(tool, command="rename", old_path="/memories/a", new_path="/memories/b/b/b/b/b/a")
    assert got.startswith("ERROR: ") and "nested 65 folders deep" in got
    assert "nothing was moved" in got and not (root / "b").exists()
    assert answer(tool, command="view", path=deep).count("Coffee.") == 1
    got = answer(tool, command="rename", old_path="/memories/a", new_path="/memories/" + "b/" * 65)
    assert got.startswith("ERROR: ") and "not a usable folder" in got


def test_a_view_range_json_reads_as_infinity_is_refused_in_the_tools_words(
    tool: MemdirMemoryTool,
) -> None:
    """The SDK builds commands unchecked, and JSON's 1e400 is infinity to Python. Failed before
    the fix (attack round 29): int(inf) raised OverflowError out of the tool, which the SDK's
    runner logs with a traceback and answers in Python's words ("cannot convert float
    infinity to integer"). A long value is quoted cut, not echoed whole."""
    answer(tool, command="create", path="/memories/user_coffee.md", file_text=USER)
    for view_range in (json.loads("[1e400, 3]"), json.loads("[1, -1e400]")):
        got = answer(tool, command="view", path="/memories/user_coffee.md", view_range=view_range)
        assert got.startswith("ERROR: view_range must be two line numbers"), got
    huge = ["9" * 1_000_000, 1]
    got = answer(tool, command="view", path="/memories/user_coffee.md", view_range=huge)
    assert got.startswith("ERROR: view_range must be two line numbers") and len(got) < 400, got[
        :200
    ]


# attack38: a value the model sent, quoted back in a refusal, is cut (spec/quoted.shown_input)
HUGE = "x" * 1_000_000
TWICE = "q" * 2_000  # held twice by the file: the "Multiple occurrences" refusal quotes it


@pytest.mark.parametrize(
    "command",
    [
        {"command": "view", "path": "/etc/" + HUGE},
        {"command": "view", "path": ["a"] * 100_000},
        {"command": "create", "path": {"a": HUGE}, "file_text": USER},
        {"command": "str_replace", "path": "/memories/user_a.md", "old_str": HUGE, "new_str": "y"},
        {"command": "str_replace", "path": "/memories/user_a.md", "old_str": TWICE, "new_str": "y"},
        {
            "command": "insert",
            "path": "/memories/user_a.md",
            "insert_line": HUGE,
            "insert_text": "x",
        },
        {"command": "rename", "old_path": "/tmp/" + HUGE, "new_path": "/memories/b.md"},
    ],
    ids=["path", "path-list", "path-object", "old_str", "old_str-twice", "insert_line", "old_path"],
)
def test_a_refusal_quotes_what_the_model_sent_cut_never_whole(
    tool: MemdirMemoryTool, command: dict[str, Any]
) -> None:
    text = USER + f"{TWICE}\n{TWICE}\n"
    assert answer(tool, command="create", path="/memories/user_a.md", file_text=text)
    out = answer(tool, **command)
    assert out.startswith("ERROR: ") and len(out) < 1_000
    assert "characters left out" in out or "..." in out


def test_a_refusal_quotes_a_short_value_as_the_reference_does_with_controls_escaped(
    tool: MemdirMemoryTool,
) -> None:
    answer(tool, command="create", path="/memories/user_a.md", file_text=USER)
    out = answer(tool, command="view", path="/etc/passwd")
    assert out == "ERROR: Path must start with /memories, got: /etc/passwd"
    out = answer(
        tool, command="str_replace", path="/memories/user_a.md", old_str="a\x1b[2J", new_str="b"
    )
    assert "\x1b" not in out and "old_str `a\\x1b[2J`" in out


def test_a_refused_link_is_named_by_its_memories_path_not_its_place_on_disk(
    tool: MemdirMemoryTool,
) -> None:
    # api39 attack pass: a dangling link (here at the store's journal, which is not there)
    # and a link loop were refused "at '/home/<user>/.../memory/x.md'", telling the model
    # where the user's files are on disk
    root = Path(tool.memory_dir)
    (root / "reference_j.md").symlink_to(".memdir.journal")
    (root / "reference_loop.md").symlink_to("reference_loop.md")
    for name in ("reference_j.md", "reference_loop.md"):
        for command in path_commands(f"/memories/{name}"):
            got = answer(tool, **command)
            assert got.startswith("ERROR: "), (command, got)
            assert str(root) not in got and os.path.realpath(root) not in got, got
    got = answer(tool, command="view", path="/memories/reference_j.md")
    assert "at '/memories/reference_j.md'" in got


def test_hostile_ranges_and_special_files_past_the_read_get_bounded_answers(
    tool: MemdirMemoryTool,
) -> None:
    # api39 attack pass, by route: an 8 GiB sparse file (NULs, no newline), a FIFO and a
    # 2.9 MB log, each viewed with ranges a model or a hostile tool_use could send; every
    # answer stays within one view plus a short note, and nothing is written
    root = Path(tool.memory_dir)
    with (root / "reference_sparse.md").open("wb") as f:
        f.truncate(8 * 2**30)
    os.mkfifo(root / "reference_pipe.md")
    log = "".join(f"l{i} " + "x" * 90 + "\n" for i in range(30_000))
    (root / "reference_log.md").write_text(log)
    ranges: list[Any] = [None, [1, 1], [2, 2], [1, -1], [10**4000, -1], [2**63, 2**64]]
    ranges += [[-(10**18), 10**18], list(range(1_000))]
    tracemalloc.start()
    try:
        for name in ("reference_sparse.md", "reference_pipe.md", "reference_log.md"):
            for view_range in ranges:
                command: dict[str, Any] = {"command": "view", "path": f"/memories/{name}"}
                if view_range is not None:
                    command["view_range"] = view_range
                got = answer(tool, **command)
                assert len(got.encode()) < VIEW_MAX_BYTES + 1_000, (name, view_range)
                if got.startswith("ERROR: "):
                    assert len(got) < 600, got
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 24 * VIEW_MAX_BYTES
    far = answer(tool, command="view", path="/memories/reference_log.md", view_range=[10**4000, -1])
    assert far.startswith("ERROR: Lines from 1000000") and "...000" in far
    assert (root / "reference_log.md").read_text() == log
    assert os.stat(root / "reference_sparse.md").st_size == 8 * 2**30
