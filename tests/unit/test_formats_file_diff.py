"""formats/file_diff: the one diff a command shows of a file it rewrites, bounded for bytes."""

from __future__ import annotations

from memdir_nb.formats.file_diff import (
    DIFF_MAX_BYTES,
    DIFF_SHOWN_LINE_CHARS,
    bounded_file_diff,
    unified_file_diff,
)


def test_a_diff_splits_lines_where_the_loader_does_and_ends_every_line() -> None:
    # a form feed stays inside its line; a last line without an end still ends the diff's line
    diff = unified_file_diff("a\fb\nc", "a\fb\nd", "MEMORY.md")
    assert diff.splitlines(keepends=False)[-2:] == ["-c", "+d"] and diff.endswith("+d\n")
    assert " a\fb\n" in diff and unified_file_diff("x\n", "x\n", "MEMORY.md") == ""


def test_bytes_that_are_not_text_are_named_binary_not_diffed() -> None:
    assert (
        bounded_file_diff(b"\xff\xfe", b"text\n", "n.md")
        == "Binary files a/n.md and b/n.md differ\n"
    )
    assert bounded_file_diff(b"a\0b", b"a\n", "n.md").startswith("Binary files")
    assert bounded_file_diff(b"same", b"same", "n.md") == ""


def test_a_file_past_the_diff_size_gives_its_sizes_and_a_long_line_is_cut() -> None:
    big = b"x\n" * (DIFF_MAX_BYTES // 2 + 1)
    assert "no diff is shown" in bounded_file_diff(b"small\n", big, "n.md")
    long = "y" * (DIFF_SHOWN_LINE_CHARS + 50)
    diff = bounded_file_diff(b"a\n", f"{long}\n".encode(), "n.md")
    assert f"+{'y' * (DIFF_SHOWN_LINE_CHARS - 1)}… (51 more characters)\n" in diff


def test_a_side_with_no_file_is_dev_null_as_a_dream_plan_shows_a_created_or_trashed_file() -> None:
    created = unified_file_diff(None, "new\n", "team/a.md")
    assert created.startswith("--- /dev/null\n+++ b/team/a.md\n") and created.endswith("+new\n")
    removed = unified_file_diff("old\n", None, "a.md")
    assert removed.startswith("--- a/a.md\n+++ /dev/null\n") and removed.endswith("-old\n")
    assert unified_file_diff("", "", "a.md") == unified_file_diff(None, "", "a.md") == ""
