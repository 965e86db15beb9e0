"""Rules of memdir_nb.formats.index: MEMORY.md caps and warning, entry lines, edits, rebuild."""

from __future__ import annotations

import array
import os
import stat
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memdir_nb.dream import apply_plan, list_dreams, plan_consolidation, restore
from memdir_nb.dream.apply import list_trash_batches
from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.formats.index import (
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    MAX_HOOK_CHARS,
    REBUILD_HEADING,
    cap_units,
    counted_line_numbers,
    counted_text,
    entries_past_caps,
    entrypoint_size,
    format_index_entry,
    format_size,
    heading_hook,
    index_cap_verdict,
    index_mentions,
    merge_index,
    parse_index,
    remove_index_entry,
    strip_entrypoint_extras,
    truncate_entrypoint_content,
    upsert_index_entry,
)
from memdir_nb.formats.index_batch import IndexText
from memdir_nb.formats.index_caps import index_file_lines
from memdir_nb.formats.index_lines import retarget_entry_line
from memdir_nb.formats.index_mentions import line_mentions
from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.formats.moved_files import MovedFiles
from memdir_nb.lint import lint_memory_dir
from memdir_nb.storage.index_files import (
    IndexTargets,
    entrypoint_path,
    nested_index_lines,
    read_entrypoint,
)
from memdir_nb.storage.index_rebuild import (
    agent_index_dirs,
    plan_agent_index_rebuild,
    plan_index_rebuild,
)
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.storage.store import MemoryStore
from memdir_nb.ui.demo import build_demo_memory_dir
from tests.conftest import CITED_INDEX_LINES, MOVED_CITED_LINE
from tests.support.time_zone import in_zone

WARNING_START = "> WARNING: MEMORY.md is "


def moved_target(target: str, scope_files: list[str]) -> str | None:
    """MovedFiles' answer for one target."""
    return MovedFiles(scope_files).find(target)


def resolve_index_target(scope_dir: Path, target: str) -> str | None:
    """The path IndexTargets gives a target (None for a URL or an anchor)."""
    found = IndexTargets(scope_dir).locate(target)
    return None if found is None else found.path


def entry_lines(n: int, width: int = 40) -> list[str]:
    """n distinct index lines, each exactly `width` ASCII characters (so width bytes)."""
    return [f"- [m{i}](m{i}.md) - ".ljust(width, "x") for i in range(n)]


def kept_part(content: str) -> str:
    return content.split("\n\n" + WARNING_START)[0]


# ---------------------------------------------------------------- truncation


def test_under_both_caps_is_unchanged_apart_from_trimming() -> None:
    raw = "\n\n" + "\n".join(entry_lines(10)) + "\n\n"
    result = truncate_entrypoint_content(raw)
    assert result.content == raw.strip()
    assert result.warning == ""
    assert not result.was_line_truncated and not result.was_byte_truncated
    assert result.line_count == result.kept_line_count == 10


def test_exactly_200_lines_is_not_truncated() -> None:
    result = truncate_entrypoint_content("\n".join(entry_lines(MAX_ENTRYPOINT_LINES)))
    assert not result.was_line_truncated and result.warning == ""


def test_line_cap_keeps_first_200_lines() -> None:
    lines = entry_lines(287)
    result = truncate_entrypoint_content("\n".join(lines) + "\n")
    assert result.was_line_truncated and not result.was_byte_truncated
    assert kept_part(result.content) == "\n".join(lines[:MAX_ENTRYPOINT_LINES])
    assert result.line_count == 287 and result.kept_line_count == 200
    assert result.content.endswith("\n\n" + result.warning)


def test_line_warning_names_the_cap_and_counts() -> None:
    warning = truncate_entrypoint_content("\n".join(entry_lines(287))).warning
    assert warning.startswith(WARNING_START + "287 lines (limit: 200)")
    assert "only part of it was loaded" in warning
    assert "KB" not in warning
    assert "one short line" in warning and "topic files" in warning


def test_byte_cap_cuts_at_last_newline() -> None:
    lines = entry_lines(150, width=300)  # 150 lines, ~45 KB
    raw = "\n".join(lines)
    result = truncate_entrypoint_content(raw)
    assert result.was_byte_truncated and not result.was_line_truncated
    kept = kept_part(result.content)
    assert len(kept.encode()) <= MAX_ENTRYPOINT_BYTES
    assert kept.split("\n") == lines[: len(kept.split("\n"))]  # whole lines only
    assert (
        len(kept.encode()) + 1 + len(lines[len(kept.split("\n"))]) > MAX_ENTRYPOINT_BYTES
    )  # the next line would not fit
    assert result.kept_line_count == len(kept.split("\n")) == 83


def test_byte_warning_names_the_size_and_says_entries_are_too_long() -> None:
    raw = "\n".join(entry_lines(104, width=299))  # 104*300 - 1 = 31,199 bytes
    result = truncate_entrypoint_content(raw)
    assert result.byte_count == 31_199
    assert result.warning.startswith(
        WARNING_START + "31.2 KB (limit: 25 KB) because index entries are too long"
    )
    assert "lines" not in result.warning.split(",")[0]


def test_the_byte_cap_counts_utf16_code_units_as_claude_code_does() -> None:
    # Claude Code's byteCount is the trimmed text's JavaScript String.length, so an index in
    # Cyrillic, CJK or with an em-dash on every line is held to 25,000 UTF-16 code units, not
    # to 25,000 UTF-8 bytes (measured on 2.1.238: a CJK index of 61,600 bytes cut where an
    # ASCII one of 25,200 did). 100 lines of 126 characters: 12,699 code units, 25,299 bytes.
    lines = ["- " + "é" * 124 for _ in range(100)]
    raw = "\n".join(lines)
    assert len(raw) < MAX_ENTRYPOINT_BYTES < len(raw.encode())
    result = truncate_entrypoint_content(raw)
    assert not result.was_byte_truncated and result.warning == ""
    assert result.byte_count == len(raw) == cap_units(raw)
    assert entrypoint_size(raw) == (100, len(raw))
    # A Russian index with the em-dash hooks Claude Code writes: 150 lines, 29 KB in UTF-8,
    # 17,000 code units. It loads whole, and a write leaving it so hears nothing.
    russian = "\n".join(
        f"- [Заметка {i:03}](заметка_{i:03}.md) — " + "правило сборки и проверки " * 3
        for i in range(150)
    )
    assert len(russian.encode()) > MAX_ENTRYPOINT_BYTES > cap_units(russian)
    loaded = truncate_entrypoint_content(russian)
    assert loaded.warning == "" and loaded.content == russian.strip()
    verdict = index_cap_verdict(russian)
    assert verdict.message is None and verdict.bytes == cap_units(russian.strip())


def test_a_character_past_the_basic_plane_counts_two_units_and_is_never_split() -> None:
    assert cap_units("😀") == 2 and cap_units("€") == 1 and cap_units("a") == 1
    raw = "😀" * 13_000  # 26,000 code units (52,000 UTF-8 bytes), no newline: cut whole
    result = truncate_entrypoint_content(raw)
    assert result.was_byte_truncated and result.byte_count == 26_000
    kept = kept_part(result.content)
    assert kept == "😀" * (MAX_ENTRYPOINT_BYTES // 2)
    assert result.kept_line_count == 1
    # 10,000 euro signs are 30,000 UTF-8 bytes but 10,000 units: under the cap.
    assert not truncate_entrypoint_content("€" * 10_000).was_byte_truncated


def test_the_caps_count_what_javascripts_trim_leaves_not_what_pythons_strip_leaves() -> None:
    # attack round 23: Claude Code counts content.trim(), and JavaScript's trim and Python's
    # str.strip disagree at the ends: U+001C..U+001F and U+0085 are whitespace to Python only,
    # U+FEFF to JavaScript only. An index ending in 30,000 U+001C was "loaded whole" here
    # (17 units) where the CLI counts 30,017 and cuts; one ending in 30,000 U+FEFF was "over
    # its read limit" here where the CLI trims them and loads it whole.
    line = "- [A](user_a.md) — a"
    for tail in ("\x1c", "\x1d", "\x1e", "\x1f", "\x85"):
        raw = line + "\n" + tail * 30_000
        assert entrypoint_size(raw) == (2, len(line) + 1 + 30_000)
        result = truncate_entrypoint_content(raw)
        assert result.was_byte_truncated and kept_part(result.content) == line
        assert index_cap_verdict(raw).over
    raw = line + "\n" + "\ufeff" * 30_000
    assert entrypoint_size(raw) == (1, len(line))
    assert truncate_entrypoint_content(raw).warning == "" and not index_cap_verdict(raw).over
    # what both call whitespace is trimmed as before
    assert entrypoint_size("\t\u3000" + line + "\u2028\xa0\n \n") == (1, len(line))


@pytest.mark.parametrize(
    ("lead", "first_cut"), [("\x1c\n", "e200.md"), ("\n\ufeff\n", "e201.md")], ids=["fs", "bom"]
)
def test_lines_past_the_caps_are_counted_from_where_javascripts_trim_starts(
    lead: str, first_cut: str
) -> None:
    # attack round 24: round 23 made the caps count content.trim(), but the entries past the
    # caps were mapped back to the file past Python's lstrip: a U+001C line first (kept by
    # JavaScript) or a U+FEFF line first (trimmed by it) put every cut line one line off.
    body = "".join(f"- [E{i}](e{i}.md) \u2014 e\n" for i in range(1, 251))
    raw = lead + body
    assert entries_past_caps(raw)[0].target == first_cut
    numbers = counted_line_numbers(raw)
    assert len(numbers) == entrypoint_size(raw)[0]
    assert raw.split("\n")[numbers[0] - 1].strip(" \t\ufeff") == counted_text(raw).split("\n")[0]


def test_the_unit_cap_cuts_at_the_last_newline_at_or_before_it() -> None:
    # Lines of emoji: each line 2 * 99 + 1 units with its newline. The cut keeps every line
    # that ends at or before unit 25,000, and a newline standing at unit 25,000 itself counts.
    line = "😀" * 99
    raw = "\n".join([line] * 130)  # 199 units a line: 25,869 units in all
    kept = kept_part(truncate_entrypoint_content(raw).content)
    assert kept == "\n".join([line] * 125) and cap_units(kept) <= MAX_ENTRYPOINT_BYTES
    exact = "a" * 24_999 + "\n" + "b" * 100  # the newline is unit 24,999: kept before it
    assert kept_part(truncate_entrypoint_content(exact).content) == "a" * 24_999
    at_cap = "a" * 25_000 + "\n" + "b"  # a newline at unit 25,000 is still found
    assert kept_part(truncate_entrypoint_content(at_cap).content) == "a" * 25_000


def test_single_huge_line_after_some_short_ones_cuts_at_the_newline() -> None:
    raw = "- [a](a.md) — short\n- [b](b.md) — " + "z" * 200_000
    result = truncate_entrypoint_content(raw)
    assert kept_part(result.content) == "- [a](a.md) — short"
    assert result.warning.startswith(WARNING_START + "200.1 KB (limit: 25 KB)")


def test_both_caps_named_when_both_fire() -> None:
    lines = entry_lines(300, width=200)  # 60,299 bytes
    result = truncate_entrypoint_content("\n".join(lines))
    assert result.was_line_truncated and result.was_byte_truncated
    assert result.warning.startswith(
        WARNING_START + "300 lines and 60.3 KB (limits: 200 lines, 25 KB)"
    )
    kept = kept_part(result.content)
    assert len(kept.encode()) <= MAX_ENTRYPOINT_BYTES
    assert kept.split("\n") == lines[: result.kept_line_count]


def test_line_cap_that_brings_bytes_under_limit_reports_lines_only() -> None:
    lines = entry_lines(300, width=110)  # 33 KB in total, 22 KB in the first 200 lines
    result = truncate_entrypoint_content("\n".join(lines))
    assert result.was_line_truncated and not result.was_byte_truncated
    assert result.warning.startswith(WARNING_START + "300 lines (limit: 200),")


def test_empty_index() -> None:
    result = truncate_entrypoint_content("  \n\n ")
    assert result.content == "" and result.line_count == 0 and result.warning == ""


@pytest.mark.parametrize(
    "n, text",
    [
        (0, "0 bytes"),
        (999, "999 bytes"),
        (1000, "1.0 KB"),
        (25_001, "25.1 KB"),
        (31_200, "31.2 KB"),
        (1_500_000, "1.5 MB"),
    ],
)
def test_format_size(n: int, text: str) -> None:
    assert format_size(n) == text


# What String.prototype.trim removes, from ECMA-262: WhiteSpace (TAB, VT, FF, ZWNBSP and every
# Zs space) and LineTerminator (LF, CR, LS, PS).
_ECMA_WHITESPACE = "\t\v\f\ufeff\n\r\u2028\u2029" + "".join(
    chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Zs"
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(
            alphabet=st.characters(codec="utf-8", blacklist_characters="\n\r"),
            max_size=400,
        ),
        max_size=300,
    )
)
def test_truncation_always_respects_both_caps_on_whole_lines(lines: list[str]) -> None:
    raw = "\n".join(lines)
    result = truncate_entrypoint_content(raw)
    kept = kept_part(result.content) if result.warning else result.content
    assert cap_units(kept) <= MAX_ENTRYPOINT_BYTES
    assert (kept.count("\n") + 1 if kept else 0) <= MAX_ENTRYPOINT_LINES
    trimmed = raw.strip(_ECMA_WHITESPACE)
    assert trimmed.startswith(kept)
    if "\n" in trimmed[: len(kept) + 1] and result.was_byte_truncated:
        assert trimmed[len(kept)] == "\n"


# ---------------------------------------------------------------- entry lines


def test_entry_line_format() -> None:
    assert format_index_entry("Testing policy", "feedback_testing.md", "Real DB, no mocks") == (
        "- [Testing policy](feedback_testing.md) — Real DB, no mocks"
    )


def test_long_hook_is_cut_on_a_word_boundary_with_ellipsis() -> None:
    hook = " ".join(["word"] * 60)
    line = format_index_entry("T", "t.md", hook)
    shown = line.split(" — ", 1)[1]
    assert len(shown) <= MAX_HOOK_CHARS
    assert shown.endswith("word…")
    assert len(shown) > MAX_HOOK_CHARS - 10


def test_hook_of_exactly_150_chars_is_kept_whole() -> None:
    hook = "a" * MAX_HOOK_CHARS
    assert format_index_entry("T", "t.md", hook).endswith(" — " + hook)


def test_hook_without_spaces_is_cut_hard() -> None:
    shown = format_index_entry("T", "t.md", "x" * 400).split(" — ", 1)[1]
    assert shown == "x" * (MAX_HOOK_CHARS - 1) + "…"


def test_title_brackets_and_newlines_are_sanitised() -> None:
    line = format_index_entry("Odd [title]\nsecond line", "odd.md", "hook\nmore")
    assert line == "- [Odd (title) second line](odd.md) — hook more"
    (entry,) = parse_index(line)
    assert entry.title == "Odd (title) second line" and entry.target == "odd.md"


@pytest.mark.parametrize("title", ["e\\", "C:\\temp\\", "\\", "odd \\\\\\"])
def test_a_title_ending_in_a_backslash_is_written_as_a_link_that_parses_back(title: str) -> None:
    # its last backslash escaped the closing `]`: the line was no link (security.md §39)
    line = format_index_entry(title, "user_e.md", "hook")
    (entry,) = parse_index(line)
    assert entry.target == "user_e.md"
    assert format_index_entry("a\\b", "a.md", "h") == "- [a\\b](a.md) — h"  # not at the end


def test_rebuilding_twice_lists_a_memory_titled_with_a_trailing_backslash_once(
    tmp_path: Path,
) -> None:
    (tmp_path / "user_e.md").write_text(
        render_memory_file("e\\", "a path like C:\\", "user", "body")
    )
    for _ in range(3):
        rebuild_index(tmp_path, write=True)
    text = (tmp_path / "MEMORY.md").read_text(encoding="utf-8")
    assert text.count("user_e.md") == 1, text
    assert [e.target for e in parse_index(text)] == ["user_e.md"]


def test_target_with_spaces_uses_angle_brackets_and_parses_back() -> None:
    line = format_index_entry("T", "my notes (v2).md", "h")
    assert line == "- [T](<my notes (v2).md>) — h"
    assert parse_index(line)[0].target == "my notes (v2).md"


def test_bad_target_is_refused() -> None:
    with pytest.raises(ValueError, match="relative to the index"):
        format_index_entry("T", "a\nb.md", "h")


def test_parse_index_ignores_non_entry_lines() -> None:
    text = "# Memory index\n\nSome prose.\n- [A](a.md) — first\n* [B](./team/b.md) – second\n- not a link\n- [C](c.md)\n"
    entries = parse_index(text)
    assert [(e.line_no, e.title, e.target, e.hook) for e in entries] == [
        (4, "A", "a.md", "first"),
        (5, "B", "team/b.md", "second"),
        (7, "C", "c.md", ""),
    ]
    assert entries[0].raw == "- [A](a.md) — first"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- [A](a.md) \u2014 hook", "- [A](ops/a.md) \u2014 hook"),
        ("* **[A](<./a.md>)** | my hook |", "* **[A](ops/a.md)** | my hook |"),
        ("- `a.md` \u2014 named in backticks", "- `ops/a.md` \u2014 named in backticks"),
        (
            '1. See [A](a.md "title"), then [B](b.md)',
            '1. See [A](ops/a.md "title"), then [B](b.md)',
        ),
        ("just prose", None),
    ],
)
def test_retarget_changes_only_the_entrys_target(line: str, expected: str | None) -> None:
    assert retarget_entry_line(line, "ops/a.md") == expected


def test_retarget_writes_a_target_with_spaces_in_angle_brackets() -> None:
    assert (
        retarget_entry_line("- [A](a.md) \u2014 h", "my notes/a.md")
        == "- [A](<my notes/a.md>) \u2014 h"
    )


def test_moved_target_is_the_one_file_of_that_name_elsewhere() -> None:
    assert moved_target("cache.md", ["ops/cache.md", "notes.md"]) == "ops/cache.md"
    assert moved_target("old/cache.md", ["ops/cache.md"]) == "ops/cache.md"
    assert moved_target("cache.md", ["ops/cache.md", "dev/cache.md"]) is None  # which one?
    assert moved_target("cache.md", ["notes.md"]) is None


def test_upsert_replaces_the_line_for_the_same_target() -> None:
    text = "# Index\n- [A](a.md) — old\n- [B](b.md) — b\n"
    new = upsert_index_entry(text, format_index_entry("A2", "a.md", "new"), "a.md")
    assert new == "# Index\n- [A2](a.md) — new\n- [B](b.md) — b\n"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("  - [B](b.md) — beta", "  - [B2](b.md) — changed"),
        ("\t* [B](b.md) — beta", "\t* [B2](b.md) — changed"),
        ("3. [B](b.md) — beta", "3. [B2](b.md) — changed"),
        ("    + `b.md` — beta", "    + [B2](b.md) — changed"),
        ("- [B](b.md) — beta", "- [B2](b.md) — changed"),
    ],
    ids=["nested", "tab-star", "numbered", "ticked-plus", "flat"],
)
def test_upsert_keeps_the_indent_and_list_marker_of_the_line_it_replaces(
    old: str, new: str
) -> None:
    # a person nested their entries under a heading bullet, or numbered them: an update of one
    # memory moved its line to the top level as "- [..]" and broke their list (fresh30)
    text = f"# Index\n- Deploys\n{old}\n- [C](c.md) — c\n"
    line = format_index_entry("B2", "b.md", "changed")
    want = f"# Index\n- Deploys\n{new}\n- [C](c.md) — c\n"
    assert upsert_index_entry(text, line, "b.md") == want
    doc = IndexText(text)  # the dream's batch editor, the same rule
    doc.upsert(line, "b.md")
    assert doc.text() == want


def test_upsert_appends_when_target_is_new_and_keeps_other_lines() -> None:
    text = "# Index\n\nprose line\n- [B](b.md) — b"
    new = upsert_index_entry(text, "- [A](a.md) — a", "a.md")
    assert new == "# Index\n\nprose line\n- [B](b.md) — b\n- [A](a.md) — a\n"
    assert upsert_index_entry("", "- [A](a.md) — a", "a.md") == "- [A](a.md) — a\n"


def test_upsert_preserves_missing_trailing_newline_on_replace() -> None:
    assert upsert_index_entry("- [A](a.md) — x", "- [A](a.md) — y", "a.md") == "- [A](a.md) — y"


def test_upsert_drops_duplicate_lines_for_the_target() -> None:
    text = "- [A](a.md) — 1\n- [B](b.md) — b\n- [A again](./a.md) — 2\n"
    assert (
        upsert_index_entry(text, "- [A](a.md) — 3", "a.md") == "- [A](a.md) — 3\n- [B](b.md) — b\n"
    )


def test_upsert_refuses_multi_line_entries() -> None:
    with pytest.raises(ValueError, match="single line"):
        upsert_index_entry("", "- [A](a.md) — x\n- [B](b.md) — y", "a.md")


def test_remove_deletes_only_the_target_line() -> None:
    text = "# Index\n- [A](a.md) — a\n- [B](b.md) — b\n"
    assert remove_index_entry(text, "a.md") == "# Index\n- [B](b.md) — b\n"
    assert remove_index_entry(text, "zzz.md") == text
    assert remove_index_entry("- [A](a.md) — a\n", "a.md") == ""


# ---------------------------------------------------------------- files and rebuild


def memory(root: Path, rel: str, name: str | None, description: str, type_: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_memory_file(name or "x", description, type_, "body"))
    if name is None:  # a hand-written file without a name
        path.write_text(f"---\ndescription: {description}\ntype: {type_}\n---\nbody\n")
    return path


def test_read_entrypoint_missing_is_empty(tmp_path: Path) -> None:
    assert read_entrypoint(tmp_path) == ""
    assert entrypoint_path(tmp_path) == tmp_path / "MEMORY.md"


def test_rebuild_private_index_from_frontmatter(tmp_path: Path) -> None:
    memory(
        tmp_path,
        "reference_linear.md",
        "Bug tracker",
        "Pipeline bugs in Linear INGEST",
        "reference",
    )
    memory(tmp_path, "user_role.md", "User role", "Backend engineer, new to Rust", "user")
    memory(tmp_path, "feedback_tests.md", "Testing", "Real DB in tests", "feedback")
    memory(
        tmp_path, "topics/project_freeze.md", "Merge freeze", "Freeze from 2026-03-05", "project"
    )
    memory(tmp_path, "team/project_shared.md", "Shared", "team only", "project")
    memory(tmp_path, "logs/2026/03/2026-03-28.md", "Log", "daily log", "project")
    memory(tmp_path, ".trash/feedback_old.md", "Old", "forgotten", "feedback")
    (tmp_path / "MEMORY.md").write_text("- [Stale](gone.md) — pointer to a deleted file\n")
    kept = rebuild_index(tmp_path, write=False)  # a dangling line stays unless asked
    assert kept.startswith("- [Stale](gone.md) — pointer to a deleted file\n\n## Added by")
    text = rebuild_index(tmp_path, drop_dangling=True)
    assert text == (
        "- [User role](user_role.md) — Backend engineer, new to Rust\n"
        "- [Testing](feedback_tests.md) — Real DB in tests\n"
        "- [Merge freeze](topics/project_freeze.md) — Freeze from 2026-03-05\n"
        "- [Bug tracker](reference_linear.md) — Pipeline bugs in Linear INGEST\n"
    )
    assert (tmp_path / "MEMORY.md").read_text() == text


def test_rebuild_team_index_uses_paths_relative_to_team(tmp_path: Path) -> None:
    memory(tmp_path, "user_role.md", "User role", "private", "user")
    memory(tmp_path, "team/reference_grafana.md", "Grafana", "api-latency board", "reference")
    memory(tmp_path, "team/project_freeze.md", "Freeze", "Mobile release", "project")
    text = rebuild_index(tmp_path / "team")
    assert (
        text
        == "- [Freeze](project_freeze.md) — Mobile release\n- [Grafana](reference_grafana.md) — api-latency board\n"
    )
    assert read_entrypoint(tmp_path / "team") == text


def test_rebuild_uses_stem_and_placeholder_when_fields_missing(tmp_path: Path) -> None:
    (tmp_path / "loose_note.md").write_text("no frontmatter at all\n")
    memory(tmp_path, "feedback_x.md", None, "", "feedback")
    text = rebuild_index(tmp_path)
    assert text == (
        "- [feedback_x](feedback_x.md) — (no description)\n"
        "- [loose_note](loose_note.md) — (no description)\n"
    )


def test_rebuild_hooks_a_file_without_description_with_its_opening_heading(
    real_dir: Callable[[str], Path],
) -> None:
    mem = real_dir("repo-root-targets")
    (mem / "MEMORY.md").unlink()
    text = rebuild_index(mem, write=False)
    assert "- [SOUL](SOUL.md) — Jin — Identity & *Soul*\n" in text
    assert "- [JOE](JOE.md) — Joe — Profile\n" in text  # bold and closing hashes go
    assert "- [NOTES](NOTES.md) — (no description)\n" in text  # opens with prose, not a heading


@pytest.mark.parametrize(
    ("body", "hook"),
    [
        ("# Title\n\ntext", "Title"),
        ("\n\n   ### `cfg` and [the docs](https://x.io) ###  \n", "cfg and the docs"),
        ("#Hashtag, not a heading\n", ""),
        ("prose\n# Later\n", ""),
        ("", ""),
        ("#   \n", ""),
        ("# Bell\x07 and \u202ebidi\n", "Bell and bidi"),
    ],
)
def test_heading_hook_is_the_opening_heading_as_plain_text(body: str, hook: str) -> None:
    assert heading_hook(body) == hook


def test_heading_hook_is_cut_to_the_hook_cap() -> None:
    hook = heading_hook("# " + "word " * 100)
    assert len(hook) <= MAX_HOOK_CHARS and hook.endswith("\u2026")


def test_a_target_written_from_the_repository_root_names_the_file_in_the_dir(
    real_dir: Callable[[str], Path],
) -> None:
    mem = real_dir("repo-root-targets")
    assert resolve_index_target(mem, "memory/SOUL.md") == str(mem / "SOUL.md")
    assert resolve_index_target(mem, "./memory/JOE.md#profile") == str(mem / "JOE.md")
    assert resolve_index_target(mem, "memory/GONE.md") == str(mem / "memory" / "GONE.md")
    assert resolve_index_target(mem, "other/SOUL.md") == str(mem / "other" / "SOUL.md")
    assert resolve_index_target(mem, "https://x.io/memory/SOUL.md") is None


def test_a_file_at_the_written_path_wins_over_the_root_relative_reading(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    (mem / "memory").mkdir(parents=True)
    (mem / "SOUL.md").write_text("# outer\n")
    (mem / "memory" / "SOUL.md").write_text("# inner\n")
    assert resolve_index_target(mem, "memory/SOUL.md") == str(mem / "memory" / "SOUL.md")


def test_rebuild_adds_no_second_pointer_for_a_root_relative_target(
    real_dir: Callable[[str], Path],
) -> None:
    mem = real_dir("repo-root-targets")
    r = plan_index_rebuild(mem)
    assert r.merged.added == ("NOTES.md",)
    assert r.merged.dangling == ("memory/GONE.md",)


def test_rebuild_refuses_a_folder_of_agent_memory_dirs_and_writes_nothing(
    real_dir: Callable[[str], Path],
) -> None:
    parent = real_dir("agent-memory-parent")
    before = sorted(p.relative_to(parent) for p in parent.rglob("*"))
    for rebuild in (
        lambda: plan_index_rebuild(parent),
        lambda: rebuild_index(parent),
        lambda: MemoryStore(parent).rebuild_index_files(),
    ):
        with pytest.raises(ValueError, match="reviewer/, tester/") as exc:
            rebuild()
        assert "pass agent-memory/<name>" in str(exc.value)
    assert sorted(p.relative_to(parent) for p in parent.rglob("*")) == before
    assert plan_index_rebuild(parent / "reviewer").merged.added == ()  # each agent's dir works


def test_rebuild_adds_no_line_for_a_file_an_agent_folder_indexes_itself(
    real_dir: Callable[[str], Path],
) -> None:
    # lint counts planner/'s file as indexed by planner/MEMORY.md; the rebuild agrees (a
    # published agent-memory/ would have had 20 such files copied into its outer index)
    parent = real_dir("agent-beside-index")
    r = plan_index_rebuild(parent)
    assert r.merged.added == () and "planner/" not in r.text
    # lefts38b: builder/'s file belongs in builder/MEMORY.md (below), never the root's line
    assert r.merged.repointed == () and "builder/" not in r.text


def test_the_roots_rebuild_gives_an_agent_folder_without_an_index_its_own_keeping_the_roots(
    real_dir: Callable[[str], Path],
) -> None:
    # real38 (an agent's index written one level too high, at the root; its folder has none):
    # the rebuild re-pointed the root's line at the agent's file, a line no agent loads
    parent = real_dir("agent-beside-index")
    root_before = (parent / "MEMORY.md").read_text()
    assert plan_index_rebuild(parent).text == root_before  # the person's line kept as written
    assert list(agent_index_dirs(parent)) == ["builder", "planner"]
    builder = plan_agent_index_rebuild(parent / "builder", "builder")
    assert not builder.existed and builder.carried == ("reference_cache_host.md",)
    assert not (parent / "builder" / "MEMORY.md").exists()  # a plan writes nothing
    result = MemoryStore(parent).rebuild_index_files()
    assert (parent / "MEMORY.md").read_text() == root_before
    text = (parent / "builder" / "MEMORY.md").read_text()
    assert text.startswith("- [Cache host](reference_cache_host.md) \u2014 ")
    assert result.batch is not None
    restore(parent, Path(result.batch).name)  # the index the rebuild created goes again
    assert not (parent / "builder" / "MEMORY.md").exists()


def test_the_agents_new_index_carries_the_persons_line_from_the_root_not_a_generated_one(
    real_dir: Callable[[str], Path],
) -> None:
    # lefts38c: the agent's created index got a line generated from the file's description,
    # and the person's title and hook stayed only in the root's line, which no agent loads
    parent = real_dir("agent-beside-index")
    (parent / "builder" / "project_runner_os.md").write_text(
        render_memory_file("Runner OS", "runners run Debian", "project", "b")
    )
    root = "# Builder notes\n\n* **[Cache, our way](builder/reference_cache_host.md)** - pool\n"
    (parent / "MEMORY.md").write_text(root)
    carried = "* **[Cache, our way](reference_cache_host.md)** - pool\n"
    planned = plan_agent_index_rebuild(parent / "builder", "builder")
    assert planned.text.startswith(carried)  # the dry run's preview is what is written
    assert planned.carried == ("reference_cache_host.md",)
    assert planned.merged.added == ("project_runner_os.md",)
    MemoryStore(parent).rebuild_index_files(drop_dangling=True)
    text = (parent / "builder" / "MEMORY.md").read_text()
    assert text == planned.text and "The build cache lives" not in text
    assert "[Runner OS](project_runner_os.md)" in text  # a file with no line: generated


def test_an_agents_index_that_is_a_link_out_is_never_written_by_the_roots_rebuild(
    real_dir: Callable[[str], Path], tmp_path: Path
) -> None:
    # fix35a guard: the root's rebuild completes each agent's own index; one that is a link
    # leading out of the dir is no index it may write, so the rebuild goes on as before
    parent = real_dir("agent-root-unlisted")
    agent_index = parent / "planner" / "MEMORY.md"
    outside = tmp_path / "outside.md"
    outside.write_text(agent_index.read_text())
    agent_index.unlink()
    agent_index.symlink_to(outside)
    before = outside.read_text()
    result = MemoryStore(parent).rebuild_index_files()
    assert [r.label for r in result.rebuilds] == ["MEMORY.md"]
    assert outside.read_text() == before and agent_index.is_symlink()


def test_rebuild_points_a_dangling_line_at_where_its_file_moved_keeping_its_words(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "memory"
    (mem / "ops").mkdir(parents=True)
    (mem / "ops" / "project_deploys.md").write_text(render_memory_file("D", "d", "project", "b"))
    (mem / "project_other.md").write_text(render_memory_file("O", "o", "project", "b"))
    line = "* **[Deploys, our way](project_deploys.md)** — read before any release"
    (mem / "MEMORY.md").write_text(f"# Index\n\n{line}\n- [Other](project_other.md) — x\n")
    r = plan_index_rebuild(mem)
    assert r.merged.repointed == (("project_deploys.md", "ops/project_deploys.md"),)
    assert line.replace("(project_deploys.md)", "(ops/project_deploys.md)") in r.text
    assert r.merged.added == () and r.merged.dangling == ()


def test_a_moved_file_another_line_already_lists_leaves_the_dangling_line_as_it_is(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "memory"
    (mem / "ops").mkdir(parents=True)
    (mem / "ops" / "project_deploys.md").write_text(render_memory_file("D", "d", "project", "b"))
    old = "- [Deploys](project_deploys.md) — old\n- [Deploys](ops/project_deploys.md) — new\n"
    (mem / "MEMORY.md").write_text(old)
    r = plan_index_rebuild(mem)
    assert r.merged.repointed == () and r.merged.dangling == ("project_deploys.md",)
    assert r.text == old


def test_rebuild_adds_no_line_for_a_file_the_index_names_besides_an_entry(
    real_dir: Callable[[str], Path],
) -> None:
    mem = real_dir("names-besides-entries")
    before = (mem / "MEMORY.md").read_text(encoding="utf-8")
    assert plan_index_rebuild(mem).merged.added == ()
    assert rebuild_index(mem, write=False) == before


def test_rebuild_of_a_crlf_index_adds_its_lines_with_crlf_too(tmp_path: Path) -> None:
    # A published index converted to Windows line ends: the rebuild appended LF lines to it.
    memory(tmp_path, "user_role.md", "User role", "Backend engineer", "user")
    memory(tmp_path, "feedback_tests.md", "Testing", "Real DB in tests", "feedback")
    old = "# Index\r\n\r\n- [User role](user_role.md) \u2014 Backend engineer\r\n"
    (tmp_path / "MEMORY.md").write_bytes(old.encode())
    rebuild_index(tmp_path)
    new = (tmp_path / "MEMORY.md").read_bytes()
    assert new.startswith(old.encode()) and b"feedback_tests.md" in new
    assert new.count(b"\n") == new.count(b"\r\n")
    (tmp_path / "MEMORY.md").write_bytes(b"- [Gone](gone.md) \xe2\x80\x94 deleted\r\n")
    text = rebuild_index(tmp_path, write=False, drop_dangling=True)  # only dropped lines left
    assert text.count("\n") == text.count("\r\n") > 0


def test_a_line_mentions_every_md_name_besides_its_entry() -> None:
    line = "- [Desktop](desktop.md) \u2014 wrapped: [kbd](kbd.md), see `mouse.md` and https://x.io/a.md"
    assert line_mentions(line) == ["kbd.md", "mouse.md"]
    assert line_mentions("- See `./sse.md` for the investigation") == ["sse.md"]
    assert line_mentions("| Deploy | `deploy.md` |") == ["deploy.md"]
    assert line_mentions("- [Only](only.md) \u2014 one pointer") == []
    assert line_mentions("plain prose, no names") == []


def test_an_agent_folder_index_naming_a_file_in_prose_indexes_it(tmp_path: Path) -> None:
    memory(tmp_path, "scout/report.md", "Scout report", "the workspace map", "reference")
    (tmp_path / "scout" / "MEMORY.md").write_text("See `report.md` for the full scout report.\n")
    found = nested_index_lines(tmp_path, ["scout/report.md"])
    assert found == {"scout/report.md": "See `report.md` for the full scout report."}


def test_an_agent_folder_index_with_cr_only_line_ends_is_read_line_by_line(
    tmp_path: Path,
) -> None:
    memory(tmp_path, "scout/report.md", "Scout report", "the workspace map", "reference")
    memory(tmp_path, "scout/map.md", "Map", "the map", "reference")
    text = "- [Map](map.md) \u2014 the map\rSee `report.md` for the full scout report.\r"
    (tmp_path / "scout" / "MEMORY.md").write_bytes(text.encode())
    found = nested_index_lines(tmp_path, ["scout/report.md", "scout/map.md"])
    assert found == {
        "scout/map.md": "- [Map](map.md) \u2014 the map",
        "scout/report.md": "See `report.md` for the full scout report.",
    }


def test_rebuild_without_write_leaves_disk_alone(tmp_path: Path) -> None:
    memory(tmp_path, "user_a.md", "A", "a", "user")
    assert rebuild_index(tmp_path, write=False).startswith("- [A](user_a.md)")
    assert not (tmp_path / "MEMORY.md").exists()


def test_rebuild_is_atomic_and_leaves_no_temp_files(tmp_path: Path) -> None:
    memory(tmp_path, "user_a.md", "A", "a", "user")
    index = tmp_path / "MEMORY.md"
    index.write_text("old\n")
    index.chmod(0o640)
    inode_before = index.stat().st_ino
    rebuild_index(tmp_path)
    assert index.stat().st_ino != inode_before  # replaced, not rewritten in place
    assert stat.S_IMODE(index.stat().st_mode) == 0o640
    # the store transaction's lock stays (as after any store write); no temp file, no journal;
    # the old index is kept in the trash
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".memdir.lock",
        ".trash",
        "MEMORY.md",
        "user_a.md",
    ]
    (kept,) = (tmp_path / ".trash").glob("rebuild-index-*/MEMORY.md")
    assert kept.read_text() == "old\n"


def test_rebuild_of_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="is not a folder"):
        rebuild_index(tmp_path / "nope")
    assert not (tmp_path / "nope").exists()


def test_rebuild_skips_symlinks_that_leave_the_dir(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    memory(mem, "user_a.md", "A", "a", "user")
    outside = memory(tmp_path, "secret.md", "SECRET", "s", "user")
    os.symlink(outside, mem / "planted.md")
    assert "SECRET" not in rebuild_index(mem)


def test_rebuild_scope_can_be_given_explicitly(tmp_path: Path) -> None:
    shared = tmp_path / "shared_memories"
    memory(shared, "team/project_nested.md", "Nested", "kept for a team scope", "project")
    memory(shared, "logs/reference_log.md", "Log notes", "kept for a team scope", "reference")
    team_text = rebuild_index(shared, write=False, scope="team")
    assert "team/project_nested.md" in team_text and "logs/reference_log.md" in team_text
    assert rebuild_index(shared, write=False) == ""  # inferred private: team/ and logs/ left out
    with pytest.raises(ValueError, match="'private' or 'team'"):
        rebuild_index(shared, write=False, scope="shared")  # type: ignore[arg-type]


# ---- a rebuild keeps what a person wrote

HAND_WRITTEN = """# Project memory

Notes the team keeps by hand. Read the *deploy* ones first.

## Deploys
- [How we ship (read me)](project_ship.md) \u2014 tags, never Friday; ask #ops
* `reference_dash.md` \u2014 the board <!-- moved in March -->

## People
| who | note |
|-----|------|
| [Ann's role](user_role.md) | backend, new to Rust |

<!-- - [Example](example.md) - a template line, not a memory -->
Links elsewhere: [handbook](https://example.invalid/handbook.md)
- [Old plan](project_old_plan.md) \u2014 the file was deleted
"""


def hand_dir(root: Path) -> Path:
    memory(root, "project_ship.md", "Release process", "from the frontmatter", "project")
    memory(root, "reference_dash.md", "Grafana", "api board", "reference")
    memory(root, "user_role.md", "User role", "Backend engineer", "user")
    memory(root, "feedback_db.md", "Real database", "No mocks in SQL tests", "feedback")
    memory(root, "project_new.md", "New freeze", "Freeze from Monday", "project")
    (root / "MEMORY.md").write_text(HAND_WRITTEN, encoding="utf-8")
    return root


ADDED = (
    "\n## Added by rebuild-index\n\n"
    "- [Real database](feedback_db.md) \u2014 No mocks in SQL tests\n"
    "- [New freeze](project_new.md) \u2014 Freeze from Monday\n"
)


def test_a_rebuild_keeps_a_hand_written_index_byte_for_byte_and_adds_a_section(
    tmp_path: Path,
) -> None:
    mem = hand_dir(tmp_path)
    assert rebuild_index(mem) == HAND_WRITTEN + ADDED
    assert (mem / "MEMORY.md").read_text(encoding="utf-8") == HAND_WRITTEN + ADDED


def test_a_second_rebuild_adds_to_its_own_section_and_a_complete_index_is_left_alone(
    tmp_path: Path,
) -> None:
    mem = hand_dir(tmp_path)
    rebuild_index(mem)
    memory(mem, "user_tz.md", "Time zone", "Works from Lisbon", "user")
    text = rebuild_index(mem)
    assert text == HAND_WRITTEN + ADDED + "- [Time zone](user_tz.md) \u2014 Works from Lisbon\n"
    batches = sorted((mem / ".trash").glob("rebuild-index-*"))
    assert len(batches) == 2
    assert rebuild_index(mem) == text  # nothing missing: nothing written, no new trash batch
    assert len(sorted((mem / ".trash").glob("rebuild-index-*"))) == 2


def test_dangling_lines_go_only_when_asked(tmp_path: Path) -> None:
    mem = hand_dir(tmp_path)
    assert "project_old_plan.md" in rebuild_index(mem, write=False)
    dropped = rebuild_index(mem, drop_dangling=True)
    assert (
        dropped
        == HAND_WRITTEN.replace(
            "- [Old plan](project_old_plan.md) \u2014 the file was deleted\n", ""
        )
        + ADDED
    )


PROSE_NAMING_FILES = """# Memory

- [Old plan](project_old_plan.md) — the file was deleted
**Reference docs (in ~/.claude/references/):**
- `shopify-reference.md` — theme notes kept outside this dir
## Next steps
1. Read `docs/SPEC.md`
2. Write the parser
### [Venue list](venues.md)
**Description**: the venues we scraped (a block under its heading)
"""


def test_drop_dangling_removes_link_lines_only_never_prose_or_a_heading_block(
    tmp_path: Path,
) -> None:
    memory(tmp_path, "project_ship.md", "Release process", "tags, never Friday", "project")
    (tmp_path / "MEMORY.md").write_text(PROSE_NAMING_FILES, encoding="utf-8")
    r = plan_index_rebuild(tmp_path, scope="private", drop_dangling=True)
    assert r.merged.dropped == ("project_old_plan.md",)
    assert r.merged.kept == ("shopify-reference.md", "docs/SPEC.md", "venues.md")
    kept = PROSE_NAMING_FILES.replace(
        "- [Old plan](project_old_plan.md) — the file was deleted\n", ""
    )
    assert r.text.startswith(kept)


def test_the_old_index_is_kept_in_the_trash_and_restorable(tmp_path: Path) -> None:
    mem = hand_dir(tmp_path)
    rebuild_index(mem, drop_dangling=True)
    (batch,) = (mem / ".trash").glob("rebuild-index-*")
    assert (batch / "MEMORY.md").read_text(encoding="utf-8") == HAND_WRITTEN
    assert list_trash_batches(mem) == [batch.name] and list_dreams(mem) == []
    assert restore(mem, batch.name) == ["MEMORY.md"]
    assert (mem / "MEMORY.md").read_text(encoding="utf-8") == HAND_WRITTEN


SECOND_INDEX = "second hand-written index\n"
REBUILT_MS = 1_796_000_000_000.0  # 2026-11-30T00:53:20Z


def _rebuild_twice(tmp_path: Path, first_zone: str, second_zone: str) -> Path:
    """A hand-written dir whose index is rebuilt in first_zone, written again by hand, and
    rebuilt an hour later in second_zone: two batches in its trash."""
    mem = hand_dir(tmp_path)
    with in_zone(first_zone):
        MemoryStore(mem, now_ms=REBUILT_MS).rebuild_indexes()
    (mem / "MEMORY.md").write_text(SECOND_INDEX, encoding="utf-8")
    with in_zone(second_zone):
        MemoryStore(mem, now_ms=REBUILT_MS + 3_600_000).rebuild_indexes()
    return mem


def test_restoring_the_index_takes_the_newest_batch_after_a_change_of_zone(
    tmp_path: Path,
) -> None:
    # Batches were named in local time: one made at UTC+14 sorted after one made an hour later
    # in UTC, so restoring MEMORY.md picked the older batch and refused ("changed after").
    mem = _rebuild_twice(tmp_path, "Pacific/Kiritimati", "UTC")
    _older, newer = list_trash_batches(mem)
    assert (mem / ".trash" / newer / "MEMORY.md").read_text(encoding="utf-8") == SECOND_INDEX
    assert restore(mem, "MEMORY.md", now_ms=REBUILT_MS + 7_200_000) == ["MEMORY.md"]
    assert (mem / "MEMORY.md").read_text(encoding="utf-8") == SECOND_INDEX


def test_batches_named_in_local_time_by_an_older_version_sort_among_utc_ones_by_moment(
    tmp_path: Path,
) -> None:
    # Before the twenty-sixth session a batch's stamp was local time, with no Z; compared as
    # text, a dir's old batch made at UTC+14 sorted after one this version made later in UTC
    mem = _rebuild_twice(tmp_path, "UTC", "UTC")
    with in_zone("Pacific/Kiritimati"):
        old, new = list_trash_batches(mem)
        local = old.replace("20261130T005320Z", "20261130T145320")  # as the old version named it
        assert local != old
        (mem / ".trash" / old).rename(mem / ".trash" / local)
        assert list_trash_batches(mem) == [local, new]
        assert restore(mem, "MEMORY.md", now_ms=REBUILT_MS + 7_200_000) == ["MEMORY.md"]
    assert (mem / "MEMORY.md").read_text(encoding="utf-8") == SECOND_INDEX


def test_merge_keeps_crlf_lines_and_a_missing_final_newline() -> None:
    def points_at(target: str) -> str | None:
        return target if target == "a.md" else ""

    old = "# Index\r\n- [A, as I call it](a.md) \u2014 mine\r\nprose without newline"
    header = MemoryHeader("b.md", "/x/b.md", 0.0, "B", "about b", None)
    merged = merge_index(old, [header], points_at)
    # every line kept as written; the added ones take the index's CRLF line ends
    assert merged.text.startswith(old + "\r\n\r\n## Added by rebuild-index\r\n\r\n- [B](b.md)")
    assert merged.added == ("b.md",) and merged.dangling == ()


def test_the_demo_team_index_keeps_every_line(tmp_path: Path) -> None:
    mem = build_demo_memory_dir(tmp_path / "demo", now_ms=1_767_225_600_000)
    before = {
        scope: (mem / scope / "MEMORY.md").read_text(encoding="utf-8") for scope in ("", "team")
    }
    written = MemoryStore(mem).rebuild_indexes()
    for scope, old in before.items():
        new = (mem / scope / "MEMORY.md").read_text(encoding="utf-8")
        assert new.startswith(old), scope  # every line kept, in place; only additions follow
        assert len(new.splitlines()) >= len(old.splitlines()) > 0
    assert set(written) <= {"private", "team"}


# ---- realdirs: index lines are recognised by the .md file they point at


def test_index_lines_in_every_real_form_point_at_their_files(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("index-variants")
    entries = parse_index((root / "MEMORY.md").read_text(encoding="utf-8"))
    assert [e.target for e in entries] == [
        "see_link.md",
        "see_backtick.md",
        "dot_slash.md",
        "numbered.md",
        "under_heading.md",
        "table_row.md",
        "team/shared_runbook.md",
    ]
    by_target = {e.target: e for e in entries}
    assert by_target["see_backtick.md"].hook == "a backticked file name"
    assert by_target["numbered.md"].hook == "numbered list"
    assert by_target["table_row.md"].hook == "in a table"


def test_an_entry_s_target_alone_is_the_target_the_full_parse_gives(
    real_dir: Callable[[str], Path],
) -> None:
    # IndexText looks lines up by target with entry_target, which skips the title and the
    # hook: every line, entry or not, must give parse_entry_line's target (or None).
    from memdir_nb.formats.index_lines import entry_target, parse_entry_line

    lines = (real_dir("index-variants") / "MEMORY.md").read_text(encoding="utf-8").split("\n")
    lines += [
        "- [Site](https://example.com/a.md) — web",
        "- see `code.py`",
        "Read `design.md` and follow it",
        "`lead.md` — a backticked lead",
        "- [A \\] b](<with space.md>) — angle brackets",
        "- [x](./a.md) and [y](b.md)",
        "| [t](t.md) | cell |",
        "- [Key](../id_rsa) — no",
        "- [Up](../up.md) — outside",
        "- [Notes](Notes.MD)",
        "plain prose",
        "",
    ]
    found = 0
    for no, line in enumerate(lines, start=1):
        entry = parse_entry_line(line, no)
        assert entry_target(line) == (entry.target if entry else None), line
        found += entry is not None
    assert found >= 10


def test_links_to_urls_and_non_markdown_files_are_not_entries() -> None:
    text = "- [Site](https://example.com/a.md) — web\n- [Key](../id_rsa) — no\n- see `code.py`\n"
    assert parse_index(text) == []


def test_an_example_entry_inside_an_html_comment_is_not_an_entry() -> None:
    assert parse_index("<!--\n- [Example](example.md) — hook\n-->\n<!-- [X](x.md) -->\n") == []


def test_remove_keeps_a_copy_of_the_entry_a_person_commented_out() -> None:
    # never lose what a person wrote: only the live entry goes (polish31; remove_index_entry
    # dropped the commented-out copies too, each line of a block comment and a one-line one)
    kept = "<!--\n- [Old A](a.md) \u2014 kept for later\n-->\n<!-- - [A](a.md) \u2014 x -->\n"
    text = "# Index\n" + kept + "- [A](a.md) \u2014 live\n- [B](b.md) \u2014 other\n"
    assert remove_index_entry(text, "a.md") == "# Index\n" + kept + "- [B](b.md) \u2014 other\n"


def test_upsert_replaces_a_see_style_line_for_the_same_file() -> None:
    text = "- See [a.md](a.md) — old\n"
    assert upsert_index_entry(text, "- [A](a.md) — new", "a.md") == "- [A](a.md) — new\n"


# --------------------------------------------------------------------------- reading MEMORY.md (branch doctor)


def test_an_invalid_utf8_index_is_reported_not_hidden(tmp_path: Path) -> None:
    from memdir_nb.storage.index_files import read_entrypoint_checked

    (tmp_path / "MEMORY.md").write_bytes(b"- [Caf\xe9](a.md) \xe2\x80\x94 hook\n")
    read = read_entrypoint_checked(tmp_path)
    assert read.exists and not read.valid_utf8 and "\ufffd" in read.text


def test_a_fifo_index_is_not_read_and_does_not_block(tmp_path: Path) -> None:
    import os

    from memdir_nb.storage.index_files import read_entrypoint, read_entrypoint_checked

    os.mkfifo(tmp_path / "MEMORY.md")
    read = read_entrypoint_checked(tmp_path)
    # the contained reader's rule: a FIFO index counts as missing, and says why
    assert not read.exists and read.text == "" and "FIFO" in read.problem
    assert read_entrypoint(tmp_path) == ""


def test_a_missing_index_reads_as_empty(tmp_path: Path) -> None:
    from memdir_nb.storage.index_files import read_entrypoint_checked

    read = read_entrypoint_checked(tmp_path)
    assert (read.exists, read.text, read.valid_utf8, read.problem) == (False, "", True, "")


def test_index_over_the_read_cap_is_refused_for_edits_not_cut(tmp_path: Path) -> None:
    from memdir_nb.spec.constants import INDEX_READ_MAX_BYTES
    from memdir_nb.storage.index_files import (
        IndexTooLargeError,
        load_entrypoint,
        read_entrypoint_whole,
    )

    line = "- [Note](note.md) — a hook\n"
    (tmp_path / "MEMORY.md").write_text(line * (INDEX_READ_MAX_BYTES // len(line) + 10))
    loaded = load_entrypoint(tmp_path)
    assert loaded.exists and loaded.truncated and "only the first" in loaded.note()
    with pytest.raises(IndexTooLargeError, match="rebuild_index"):
        read_entrypoint_whole(tmp_path)


def test_missing_index_has_no_problem_but_a_dangling_link_does(tmp_path: Path) -> None:
    from memdir_nb.storage.index_files import load_entrypoint

    assert (load_entrypoint(tmp_path).exists, load_entrypoint(tmp_path).problem) == (False, "")
    os.symlink("gone.md", tmp_path / "MEMORY.md")
    assert load_entrypoint(tmp_path).problem == "MEMORY.md is a dangling symlink"


# --- the cap verdict given to writers (index_cap_verdict) ---------------------------------


def _index_lines(n: int, width: int = 30) -> str:
    return "".join(f"- [M{i}](m{i}.md) — {'h' * width}\n" for i in range(n))


def test_cap_verdict_is_silent_well_inside_both_caps() -> None:
    from memdir_nb.formats.index import index_cap_verdict

    v = index_cap_verdict(_index_lines(10))
    assert (v.over, v.near, v.message, v.lines) == (False, False, None, 10)


def test_cap_verdict_counts_as_the_loader_counts() -> None:
    from memdir_nb.formats.index import index_cap_verdict

    text = "\n\n" + _index_lines(150) + "\n\n"
    loaded = truncate_entrypoint_content(text)
    v = index_cap_verdict(text)
    assert (v.lines, v.bytes) == (loaded.line_count, loaded.byte_count)


def test_cap_verdict_over_the_line_cap_asks_for_a_rewrite_to_seventy_percent() -> None:
    from memdir_nb.formats.index import index_cap_verdict

    v = index_cap_verdict(_index_lines(201))
    assert v.over and not v.near
    assert v.message is not None and v.message.startswith("Error: MEMORY.md is over its read limit")
    assert "about 70% of the cap (about 140 lines and 17,500 bytes)" in v.message


def test_cap_verdict_over_the_byte_cap_alone_is_over() -> None:
    from memdir_nb.formats.index import index_cap_verdict

    v = index_cap_verdict(_index_lines(100, width=260))
    assert v.lines == 100 and v.bytes > 25_000 and v.over


def test_cap_verdict_names_only_the_cap_the_index_passed() -> None:
    # fresh36: "it is 230 lines and 8,869 bytes, over its cap of 200 lines and 25,000 bytes"
    # (notebook 12) read as if the bytes were over too
    from memdir_nb.formats.index import index_cap_verdict

    lines = index_cap_verdict(_index_lines(230)).message or ""
    assert "bytes, over its cap of 200 lines, and only that much is loaded" in lines
    size = index_cap_verdict(_index_lines(100, width=260)).message or ""
    assert "100 lines and" in size and "over its cap of 25,000 bytes, and only" in size
    both = index_cap_verdict(_index_lines(230, width=260)).message or ""
    assert "over its cap of 200 lines and 25,000 bytes, and only" in both


@pytest.mark.parametrize(("n", "near"), [(159, False), (160, True), (200, True)])
def test_cap_verdict_reminds_from_eighty_percent_of_the_line_cap(n: int, near: bool) -> None:
    from memdir_nb.formats.index import index_cap_verdict

    v = index_cap_verdict(_index_lines(n, width=5))
    assert (v.near, v.over) == (near, False)
    assert (v.message or "").startswith("Reminder: MEMORY.md is" if near else "")


# ---- what the caps count (Claude Code 2.1.211+): frontmatter and block comments are stripped


def _entries(n: int, start: int = 0) -> str:
    return "".join(f"- [e{i}](e{i}.md) — hook {i}\n" for i in range(start, start + n))


def test_frontmatter_and_block_comments_neither_load_nor_count() -> None:
    front = "---\ntitle: my index\nowner: noor\n---\n"
    comment = "<!--\n" + "a long note to myself\n" * 30 + "-->\n"
    text = front + comment + _entries(200)
    cut = truncate_entrypoint_content(text)
    assert not cut.was_line_truncated and cut.line_count == 200
    assert "owner: noor" not in cut.content and "note to myself" not in cut.content
    assert cut.stripped_frontmatter == front.rstrip("\n") and len(cut.stripped_comments) == 1
    assert cut.stripped_anything
    assert entries_past_caps(text) == []


def test_the_frontmatter_ends_at_the_first_dash_run_as_claude_code_reads_it() -> None:
    # Claude Code strips MEMORY.md's frontmatter with /^---\s*\n([\s\S]*?)---\s*\n?/ (read out
    # of 2.1.233 by a public index-budget tool): the first '---' after the opening line ends it,
    # even inside a line, and what follows it on that line is loaded.
    inside = "---\nowner: noor\nnote: split --- kept\nmore: x\n---\n" + _entries(3)
    stripped = strip_entrypoint_extras(inside)
    assert stripped.text.startswith("kept\nmore: x\n---\n- [e0](e0.md)")
    assert stripped.frontmatter == "---\nowner: noor\nnote: split ---"
    assert stripped.line_map[0] == 3  # the rest of line 3 is the first line loaded
    # an index opening with a '---' rule and no closing line: stripped up to the first '---'
    rule = "---\n" + _entries(2) + "- [e2](e2.md) — see --- below\n" + _entries(2, 3)
    cut = truncate_entrypoint_content(rule)
    assert cut.content.startswith("below\n- [e3](e3.md)") and cut.line_count == 3
    # the entry before the dashes on that line is frontmatter, not a loaded entry
    assert strip_entrypoint_extras(rule).entry_lines == {5, 6, 7}  # 7: the last, empty line
    # no '---' after the opening line at all: nothing is frontmatter
    assert strip_entrypoint_extras("---\n" + _entries(2)).frontmatter == ""


def test_an_inline_comment_and_one_in_a_code_block_stay() -> None:
    text = "- [a](a.md) — keep <!-- inline --> this\n```\n<!-- in code -->\n```\n"
    stripped = strip_entrypoint_extras(text)
    assert "<!-- inline -->" in stripped.text and "<!-- in code -->" in stripped.text
    assert stripped.comments == ()


def test_an_indented_one_line_comment_goes_and_the_line_numbers_follow_the_file() -> None:
    text = "  <!-- hidden -->\n" + _entries(201)
    stripped = strip_entrypoint_extras(text)
    assert stripped.comments == ("  <!-- hidden -->",) and stripped.line_map[0] == 2
    assert [e.target for e in entries_past_caps(text)] == ["e200.md"]


def test_an_unclosed_comment_runs_to_the_end() -> None:
    stripped = strip_entrypoint_extras(_entries(2) + "<!-- never closed\n" + _entries(3, 2))
    assert stripped.text.strip() == _entries(2).strip() and len(stripped.comments) == 1


# ---- the write-time verdict (Claude Code 2.1.210+; near-cap reminder 2.1.186)


def test_a_small_index_gets_no_message() -> None:
    v = index_cap_verdict(_entries(10))
    assert (v.over, v.near, v.message, v.lines) == (False, False, None, 10)


def test_near_the_cap_the_agent_is_reminded() -> None:
    v = index_cap_verdict(_entries(180))
    assert v.near and not v.over and v.message is not None
    assert v.message.startswith("Reminder: MEMORY.md is 180 lines")


def test_the_reminder_starts_at_eighty_percent_of_the_byte_cap_in_code_units() -> None:
    # Claude Code 2.1.212+ reminds from 0.8 of the worse cap: 20,000 of 25,000 code units.
    assert index_cap_verdict("x" * 19_999).message is None
    near = index_cap_verdict("x" * 20_000)
    assert near.near and not near.over and near.bytes == 20_000
    # 20,000 UTF-8 bytes of Cyrillic are 10,000 code units: no reminder
    assert index_cap_verdict("я" * 10_000).message is None


def test_over_the_cap_the_agent_is_told_to_rewrite_to_seventy_percent() -> None:
    v = index_cap_verdict(_entries(201))
    assert v.over and not v.near and v.message is not None
    assert "over its cap" in v.message and "about 70% of the cap" in v.message
    assert "about 140 lines and 17,500 bytes" in v.message


def test_the_byte_cap_counts_too_and_stripped_text_does_not() -> None:
    long = "- [x](x.md) — " + "y" * (MAX_ENTRYPOINT_BYTES + 10) + "\n"
    assert index_cap_verdict(long).over
    hidden = "<!--\n" + "z" * (MAX_ENTRYPOINT_BYTES + 10) + "\n-->\n" + _entries(3)
    assert index_cap_verdict(hidden).message is None


def test_unloaded_lines_are_those_past_the_line_or_byte_cap() -> None:
    assert truncate_entrypoint_content("\n".join(entry_lines(12))).unloaded_line_count == 0
    over = truncate_entrypoint_content("\n".join(entry_lines(MAX_ENTRYPOINT_LINES + 7)))
    assert over.unloaded_line_count == 7
    wide = truncate_entrypoint_content("\n".join(["x" * 500] * 80))  # 40 KB in 80 lines
    assert wide.unloaded_line_count == 80 - wide.kept_line_count > 0


@pytest.mark.parametrize("rel", ["notes#1.md", "a#b/user_x.md", "q#.md"])
def test_a_hash_inside_a_memory_name_is_part_of_its_link_not_an_anchor(
    tmp_path: Path, rel: str
) -> None:
    # attack round 8: '#' passes the name gate; the rebuild linked the file as written, every
    # reader took the '#' for an anchor, so each rebuild added the same line again
    (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / rel).write_text(render_memory_file("N", "a name with a hash", "user", "body"))
    for _ in range(3):
        rebuild_index(tmp_path)
    assert entrypoint_path(tmp_path).read_text().count(f"]({rel})") == 1
    found = IndexTargets(tmp_path).locate(rel)
    assert found is not None and found.is_file
    anchored = IndexTargets(tmp_path).locate(f"{rel}#setup")  # an anchor after the name
    assert anchored is not None and anchored.is_file


# (U+2028 and U+2029 were here too; since attack round 22 the name gate refuses them, as a
# browser breaks a line at them: tests/unit/test_formats_names.py)
WIDE_SPACES = {
    "no-break space": "\u00a0",
    "ideographic space": "\u3000",
    "en quad": "\u2000",
}


@pytest.mark.parametrize("space", WIDE_SPACES.values(), ids=WIDE_SPACES.keys())
def test_a_name_holding_any_whitespace_is_linked_in_angle_brackets_and_read_back(
    tmp_path: Path, space: str
) -> None:
    # attack round 11: the link reader stops a bare target at any Unicode whitespace, the
    # writer bracketed only a space or a tab: each rebuild added the same line again and lint
    # reported the file as not indexed
    name = f"user_a{space}b.md"
    (tmp_path / name).write_text(render_memory_file("N", "a name with a wide space", "user", "b"))
    for _ in range(3):
        rebuild_index(tmp_path)
    text = entrypoint_path(tmp_path).read_text(encoding="utf-8")
    assert text.count(f"](<{name}>)") == 1
    assert [e.target for e in parse_index(text)] == [name]
    found = IndexTargets(tmp_path).locate(name)
    assert found is not None and found.is_file


@pytest.mark.timeout(10)  # a hang guard: the old lookup passed over every file of the name
def test_a_name_many_files_share_has_no_moved_target_and_costs_no_pass_over_them() -> None:
    # attack round 8: 10,000 folders each holding notes.md and an index of 50,000 dangling
    # notes.md lines (within the 1 MiB read cap) took seconds per pass, 0.07 s now
    moved = MovedFiles([f"d{i}/notes.md" for i in range(10_000)] + ["a/two.md", "b/two.md"])
    assert all(moved.find(f"gone{i}/notes.md") is None for i in range(50_000))
    assert moved.find("a/two.md") == "b/two.md" and moved.find("c/two.md") is None


@pytest.mark.parametrize("target", ["x.md#setup", "<x.md>", "./x.md"])
def test_a_moved_target_is_found_however_the_link_is_written(target: str) -> None:
    # attack round 8: an anchored line was dropped (its title and hook with it) and a new line
    # added, where the plain line is re-pointed
    assert MovedFiles(["sub/x.md", "y.md"]).find(target) == "sub/x.md"


@pytest.mark.parametrize(
    "head",
    [
        "<!-- notes to self\n",
        "- [A](user_a.md) — a\n<!-- old entries\n- [B](user_b.md) — b\n",
        "```\n<!-- inside a fence, so loaded\n```\n- [A](user_a.md) — a\n",
        "    <!-- four spaces in: code, so loaded\n- [A](user_a.md) — a\n",
    ],
    ids=["open-comment", "open-comment-after-entries", "comment-in-fence", "indented"],
)
def test_the_rebuild_reads_comments_as_the_loader_does_and_adds_lines_it_loads(
    tmp_path: Path, head: str
) -> None:
    # attack round 8: the merge kept its own comment rule; an unclosed '<!--' swallowed the
    # lines it added (never loaded), a '<!--' the loader keeps hid the entries below it, and
    # each rebuild added the same lines again
    for name in ("user_a.md", "user_b.md"):
        (tmp_path / name).write_text(render_memory_file(name, f"about {name}", "user", "b"))
    entrypoint_path(tmp_path).write_text(head)
    for _ in range(3):
        rebuild_index(tmp_path)
    text = entrypoint_path(tmp_path).read_text()
    assert text.startswith(head)
    loaded = strip_entrypoint_extras(text).text
    for name in ("user_a.md", "user_b.md"):
        assert loaded.count(f"]({name})") == 1, text


def _add_tabs_and_vim_by(route: str, tmp_path: Path) -> None:
    """Two memories' index lines added by one route: two saves, or two files and two runs of
    the rebuild or of the dream's plan and apply (the second run must add nothing)."""
    if route == "store save":
        MemoryStore(tmp_path).save("Tabs", "the user prefers tabs over spaces", "user", "b")
        MemoryStore(tmp_path).save("Vim", "the user edits in vim with its own keys", "user", "b")
    else:
        for name in ("user_tabs.md", "user_vim.md"):
            (tmp_path / name).write_text(render_memory_file(name, f"about {name}", "user", "b"))
        for _ in range(2):
            if route == "rebuild":
                rebuild_index(tmp_path)
            else:
                apply_plan(plan_consolidation(tmp_path))


@pytest.mark.parametrize("route", ["store save", "dream apply", "rebuild"])
def test_a_line_added_after_a_comment_left_open_is_loaded_by_every_route(
    tmp_path: Path, route: str
) -> None:
    # attack round 8: the loader drops everything from an unclosed '<!--' on; the store's save,
    # the dream's added line and the rebuild appended after it, so the memory was never loaded
    entrypoint_path(tmp_path).write_text("# Index\n<!-- drafts, to tidy later\n")
    _add_tabs_and_vim_by(route, tmp_path)
    text = entrypoint_path(tmp_path).read_text()
    assert text.startswith("# Index\n<!-- drafts, to tidy later\n-->\n")
    loaded = strip_entrypoint_extras(text).text
    assert loaded.count("(user_tabs.md)") == 1 and loaded.count("(user_vim.md)") == 1, text


@pytest.mark.parametrize(
    "head",
    [
        "# Index\n```\nLink related memory with [[other-slug]]\n```\n",
        "# Index\n~~~md\n- [Example](user_example.md) — the form of a line\n~~~\n",
        "# Index\n  - a list item:\n\n    ```\n    - [Old](user_old.md) — code\n    ```\n",
    ],
    ids=["wiki-in-backticks", "link-in-tildes", "fence-in-a-list-item"],
)
def test_a_line_in_a_fenced_code_block_is_no_entry_for_any_reader(
    tmp_path: Path, head: str
) -> None:
    # §43: a `[[x]]` or a link in a fence (a template's example) was an entry: lint called it
    # dangling and the rebuild counted its file as listed
    assert parse_index(head) == [] and index_mentions(head) == []
    (tmp_path / "user_example.md").write_text(render_memory_file("E", "an example", "user", "b"))
    entrypoint_path(tmp_path).write_text(head)
    rebuild_index(tmp_path)
    text = entrypoint_path(tmp_path).read_text()
    assert text.startswith(head) and [e.target for e in parse_index(text)] == ["user_example.md"]
    assert not [
        f for f in lint_memory_dir(tmp_path) if f.path == "MEMORY.md" and "dangling" in f.rule
    ]


@pytest.mark.parametrize("route", ["store save", "dream apply", "rebuild"])
@pytest.mark.parametrize("fence", ["```", "~~~~"])
def test_a_line_added_after_a_code_block_left_open_is_an_entry_by_every_route(
    tmp_path: Path, route: str, fence: str
) -> None:
    # §43: a fence left open runs to the end, so a line appended after it is code; each route
    # closes it first (as a comment left open, attack round 8), and a second run adds nothing
    head = f"# Index\n{fence}sh\nmake lint\n"
    entrypoint_path(tmp_path).write_text(head)
    _add_tabs_and_vim_by(route, tmp_path)
    text = entrypoint_path(tmp_path).read_text()
    assert text.startswith(head + fence + "\n"), text
    assert sorted(e.target for e in parse_index(text)) == ["user_tabs.md", "user_vim.md"], text


def test_the_rebuilds_heading_in_a_code_block_is_not_where_it_adds_lines(tmp_path: Path) -> None:
    head = f"# Index\n```\n{REBUILD_HEADING}\n# a comment in the code\n```\n"
    (tmp_path / "user_a.md").write_text(render_memory_file("A", "about a", "user", "b"))
    entrypoint_path(tmp_path).write_text(head)
    for _ in range(2):
        rebuild_index(tmp_path)
    text = entrypoint_path(tmp_path).read_text()
    assert text.startswith(head) and [e.target for e in parse_index(text)] == ["user_a.md"], text


def test_an_entry_below_a_comment_opener_the_loader_keeps_is_an_entry() -> None:
    # '<!--' inside a code fence, or four spaces in, is text the loader loads, not a comment
    for text in ("```\n<!-- x\n```\n- [A](a.md) — a\n", "    <!-- x\n- [A](a.md) — a\n"):
        assert [e.target for e in parse_index(text)] == ["a.md"]
    assert parse_index("<!-- x\n- [A](a.md) — a\n-->\n- [B](b.md) — b\n")[0].target == "b.md"


def test_the_bracketing_search_matches_parentheses_and_every_character_isspace_accepts() -> None:
    # _format_target brackets a target on one regex search; \s must be exactly str.isspace().
    from memdir_nb.formats import index_lines

    every = array.array("I", range(0x110000)).tobytes().decode("utf-32-le", "surrogatepass")
    want = sorted({"(", ")", *filter(str.isspace, every)})  # in code point order
    assert index_lines._BRACKETED.findall(every) == want
    assert index_lines._format_target("a\u3000b.md") == "<a\u3000b.md>"
    assert index_lines._format_target("a\u200bb.md") == "a\u200bb.md"  # zero width: not a space


@pytest.mark.parametrize("breaker", ["\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"])
def test_index_file_lines_end_where_the_loader_ends_a_line_not_at_other_unicode_breaks(
    breaker: str,
) -> None:
    raw = f"# Head\r\n- [a](user_a.md) \u2014 one{breaker}two\rlast"
    assert index_file_lines(raw) == [
        "# Head\r\n",
        f"- [a](user_a.md) \u2014 one{breaker}two\r",
        "last",
    ]
    assert len(index_file_lines(raw)) == entrypoint_size(raw)[0] == 3
    assert "".join(index_file_lines(raw)) == raw
    assert index_file_lines("") == [] and index_file_lines("\n\n") == ["\n", "\n"]


def test_a_rebuild_merges_a_cr_only_index_line_by_line_and_keeps_its_cr_ends() -> None:
    """A classic-Mac index was one line to the merge: it kept it and added LF lines after it."""
    old = "# Index\r\r- [A](user_a.md) \u2014 a desc\r"
    headers = [
        MemoryHeader("user_a.md", "/x/user_a.md", 0.0, "A", "a desc", None),
        MemoryHeader("user_b.md", "/x/user_b.md", 0.0, "B", "b desc", None),
    ]
    merged = merge_index(old, headers, lambda t: t if t in ("user_a.md", "user_b.md") else "")
    assert merged.added == ("user_b.md",)
    assert "\n" not in merged.text and merged.text.startswith(old)
    assert "- [B](user_b.md) \u2014 b desc\r" in merged.text
    unchanged = merge_index(old, headers[:1], lambda t: t if t == "user_a.md" else "")
    assert unchanged.text == old and unchanged.added == ()


@given(
    st.lists(
        st.sampled_from(["<!-- c -->", "<!--", "-->", "---", "a: b", "- [a](a.md)", "", "```"]),
        max_size=8,
    ),
    st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_the_loaded_lines_pair_one_to_one_with_their_file_line_numbers(
    parts: list[str], final_newline: bool
) -> None:
    """StrippedEntrypoint.lines has one line per line_map entry, none when nothing is loaded
    (attack round 29: an index that was only a block comment or only frontmatter, with no
    final newline, gave line_map () beside text.split('\\n') == [''], and lint's strict zip
    of the two ended the whole lint)."""
    text = "\n".join(parts) + ("\n" if final_newline else "")
    stripped = strip_entrypoint_extras(text)
    assert len(stripped.lines) == len(stripped.line_map)
    assert "\n".join(stripped.lines) == stripped.text


@pytest.mark.parametrize(
    ("line", "target", "hook"),
    [
        (
            "- feedback_clay_wedging.md: wedge reclaimed clay fifty turns",
            "feedback_clay_wedging.md",
            "wedge reclaimed clay fifty turns",
        ),
        ("- user_profile.md \u2014 owner, Tuesdays", "user_profile.md", "owner, Tuesdays"),
        (
            "1. project_kiln_rewire.md - new elements in March",
            "project_kiln_rewire.md",
            "new elements in March",
        ),
        ("* ops/deploys.md", "ops/deploys.md", ""),
        ("| kiln.md | project | rewire |", "kiln.md", "project | rewire"),
    ],
)
def test_a_plain_file_name_opening_a_line_is_an_entry_as_a_backticked_one_is(
    line: str, target: str, hook: str
) -> None:
    # realdata33: agents told to keep `- file.md: hook` lines write whole indexes of them;
    # read as prose, every file was not-in-index and the rebuild and the dream added a second
    # line for each (a 400-file index would have doubled)
    (entry,) = parse_index(line)
    assert (entry.target, entry.hook, entry.linked) == (target, hook, False)
    assert entry.naming == "as a plain name" and not entry.removable
    assert retarget_entry_line(line, "moved/" + target) == line.replace(
        target, "moved/" + target, 1
    )


@pytest.mark.parametrize(
    ("line", "target", "title", "hook", "moved"),
    [
        (
            "- [[kiln-days]] \u2014 bisque Monday, glaze Thursday",
            "kiln-days.md",
            "kiln-days",
            "bisque Monday, glaze Thursday",
            "- [[ops/kiln-days]] \u2014 bisque Monday, glaze Thursday",
        ),
        (
            "- [[kiln-days|Kiln days]] - bisque Monday",
            "kiln-days.md",
            "Kiln days",
            "bisque Monday",
            "- [[ops/kiln-days|Kiln days]] - bisque Monday",
        ),
        (
            "* [[feedback_no_friday_firing]]",
            "feedback_no_friday_firing.md",
            "feedback_no_friday_firing",
            "",
            "* [[ops/kiln-days]]",
        ),
        (
            "| [[kiln-days]] | project | rewire |",
            "kiln-days.md",
            "kiln-days",
            "project | rewire",
            "| [[ops/kiln-days]] | project | rewire |",
        ),
        (
            "- Rent goes by shelves \u2192 see [[shelf-rent]]",
            "shelf-rent.md",
            "shelf-rent",
            "",
            "- Rent goes by shelves \u2192 see [[ops/kiln-days]]",
        ),
        (
            "- [[kiln-days.md]] \u2014 written with its file name",
            "kiln-days.md",
            "kiln-days",
            "written with its file name",
            "- [[ops/kiln-days.md]] \u2014 written with its file name",
        ),
    ],
)
def test_a_wikilink_on_an_index_line_is_an_entry_for_the_memory_file_of_that_stem(
    line: str, target: str, title: str, hook: str, moved: str
) -> None:
    # realdata34: real indexes are written as `- [[slug]] — hook` lines, the late-2026 prompt's
    # link form; read as prose, every line was index-not-pointer, every memory not-in-index,
    # and the rebuild and the dream added a second line for each
    (entry,) = parse_index(line)
    assert (entry.target, entry.title, entry.hook) == (target, title, hook)
    assert entry.wiki and not entry.linked and not entry.removable
    assert entry.naming == "as a [[name]] link"
    assert retarget_entry_line(line, "ops/kiln-days.md") == moved


@pytest.mark.parametrize(
    "line",
    [
        "- run `[[ -f kiln.lock ]]` before a firing",
        "- the guard is [[ -n $FREEZE ]] in the deploy script",
        "- see [[#glaze days]] below",
        "- [[]] \u2014 nothing",
    ],
)
def test_a_shell_test_a_code_span_or_a_heading_link_on_an_index_line_is_no_entry(
    line: str,
) -> None:
    assert parse_index(line) == []


def test_an_index_of_wikilinks_gets_no_second_line_from_the_rebuild_or_the_dream(
    real_dir: Callable[[str], Path],
) -> None:
    mem = real_dir("wikilink-index")
    text = (mem / "MEMORY.md").read_text(encoding="utf-8")
    r = plan_index_rebuild(mem, drop_dangling=True)
    # only the one memory the index leaves out is added; the link to a memory not written yet
    # is a person's call, never dropped
    assert r.merged.added == ("clay-supplier.md",) and "[[glaze-recipes]]" in r.text
    assert r.text.startswith(text)
    plan = plan_consolidation(mem)
    adds = [a for a in plan.actions if a.kind == "add_missing_index_line"]
    assert [f for a in adds for f in a.files if f != "MEMORY.md"] == ["clay-supplier.md"]


def test_an_index_linking_memories_by_name_gets_no_second_line_from_the_rebuild_or_the_dream(
    real_dir: Callable[[str], Path],
) -> None:
    # fresh34: a `[[name]]` line finds the memory whose name: it is, as a body link does; the
    # rebuild added a generated line for each such memory and called the person's lines dangling
    mem = real_dir("wikilink-index-by-name")
    for folder in (mem, mem / "team"):
        text = (folder / "MEMORY.md").read_text(encoding="utf-8")
        r = plan_index_rebuild(folder, drop_dangling=True)  # team/ is read as the team scope
        assert r.merged.added == () and r.text == text
    assert plan_index_rebuild(mem).merged.dangling == ("ingest-retries.md",)
    plan = plan_consolidation(mem)  # the dream reads the lines the same way
    assert not [a for a in plan.actions if a.kind == "add_missing_index_line"]


def test_an_index_of_plain_names_gets_no_second_line_from_the_rebuild_or_the_dream(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "memory"
    mem.mkdir()
    names = ("feedback_clay_wedging", "project_kiln_rewire", "user_profile")
    for stem in names:
        kind = stem.split("_")[0]
        (mem / f"{stem}.md").write_text(render_memory_file(stem, f"about {stem}", kind, "b"))
    text = "".join(f"- {stem}.md: about {stem}\n" for stem in names) + "- gone.md: removed\n"
    (mem / "MEMORY.md").write_text(text)
    r = plan_index_rebuild(mem, drop_dangling=True)
    assert r.merged.added == () and r.text == text  # the dangling plain name is a person's call
    plan = plan_consolidation(mem)
    assert not [a for a in plan.actions if a.kind == "add_missing_index_line"]


def test_files_an_index_links_by_a_path_with_blanks_are_listed_and_not_added_again(
    real_dir: Callable[[str], Path],
) -> None:
    # real36: `- [Tech Lead](roles/Tech Team/x.md)` lines (no angle brackets) were read as no
    # link: the dry run offered every such file a second line, lint called them unlisted.
    root = real_dir("spaced-folders")
    before = (root / "MEMORY.md").read_text(encoding="utf-8")
    assert rebuild_index(root, write=False) == before
    rules = {(f.rule, f.path) for f in lint_memory_dir(root)}
    assert not any(rule == "not-in-index" for rule, _ in rules)
    assert ("index-dangling-entry", "MEMORY.md") in rules  # the folder no longer there
    dropped = rebuild_index(root, write=False, drop_dangling=True)
    assert "Sales Desk" not in dropped and dropped.count("](roles/") == 2


def test_a_bold_file_name_after_a_list_number_is_an_entry_as_after_a_list_marker(
    real_dir: Callable[[str], Path],
) -> None:
    # real37: an explorer agent's index heads each reference file `### 1. **NAME.md** \u2014 hook`.
    # `- **NAME.md** \u2014 hook` was read as the file's line, but after a list number the bold
    # was not: lint called three files the index heads not-in-index, and the dry run would have
    # added each a second line. A file named only inside a reading step stays prose.
    root = real_dir("numbered-bold-index")
    entries = [(e.target, e.hook) for e in parse_index((root / "MEMORY.md").read_text())]
    assert entries == [
        ("KILN-LOG.md", "every firing since March"),
        ("GLAZE-TABLE.md", "tested glazes by cone"),
        ("CLAY-BODIES.md", "the three bodies in use"),
    ]
    unlisted = sorted(f.path for f in lint_memory_dir(root) if f.rule == "not-in-index")
    assert unlisted == ["FIRING-STEPS.md", "SHELF-MAP.md"]
    added = rebuild_index(root, write=False)
    assert added.count("KILN-LOG.md") == 1 and added.count("SHELF-MAP.md") == 1


def test_a_file_name_in_underscore_emphasis_is_an_entry_as_in_asterisk_emphasis(
    tmp_path: Path,
) -> None:
    # lefts38: `- **NAME.md** \u2014 hook` was read as the file's line, `- __NAME.md__ \u2014 hook`
    # and `- _NAME.md_ \u2014 hook` (the same emphasis in Markdown) were not: lint called the
    # files not-in-index and a rebuild would have added each a second line. A name that only
    # starts with an underscore keeps it.
    for rel in ("feedback_tone.md", "project_kiln.md", "_drafts.md", "user_role.md"):
        (tmp_path / rel).write_text(
            render_memory_file(rel[:-3], f"about {rel}", "user", "Text.\n"), encoding="utf-8"
        )
    index = (
        "- __feedback_tone.md__ \u2014 how to answer\n"
        "- _project_kiln.md_: the firing schedule\n"
        "- _drafts.md \u2014 half-done notes\n"
        "- **user_role.md** \u2014 who I am\n"
    )
    (tmp_path / "MEMORY.md").write_text(index, encoding="utf-8")
    entries = [(e.target, e.hook, e.linked) for e in parse_index(index)]
    assert entries == [
        ("feedback_tone.md", "how to answer", False),
        ("project_kiln.md", "the firing schedule", False),
        ("_drafts.md", "half-done notes", False),
        ("user_role.md", "who I am", False),
    ]
    assert not [f for f in lint_memory_dir(tmp_path) if f.rule == "not-in-index"]
    assert rebuild_index(tmp_path, write=False) == index
    moved = retarget_entry_line("- __feedback_tone.md__ \u2014 how to answer", "team/x.md")
    assert moved == "- __team/x.md__ \u2014 how to answer"


def test_neither_the_rebuild_nor_the_dream_adds_an_index_line_for_a_binary_file(
    real_dir: Callable[[str], Path],
) -> None:
    # fresh37: both added `- [photo](photo.md) — (no description)` for a file lint calls
    # not-text; a line loading it would load no memory (spec.text.is_not_text, one rule)
    mem = real_dir("binary-beside")
    r = plan_index_rebuild(mem)
    assert r.merged.added == ("project_kiln.md",) and "photo.md" not in r.text
    plan = plan_consolidation(mem)
    adds = [a for a in plan.actions if a.kind == "add_missing_index_line"]
    assert [f for a in adds for f in a.files if f != "MEMORY.md"] == ["project_kiln.md"]
    found = lint_memory_dir(mem)  # lint asks for no line either; its not-text stands
    assert not any(f.path == "photo.md" and f.rule == "not-in-index" for f in found)
    assert any(f.path == "photo.md" and f.rule == "not-text" for f in found)


def test_the_dream_adds_missing_index_lines_where_the_rebuild_does_never_in_a_person_s_section(
    real_dir: Callable[[str], Path],
) -> None:
    # fresh37: the dream appended them at the very end, so they landed under the person's
    # `## TODO`, right after their table; rebuild-index put the same lines under its heading
    mem = real_dir("person-sections")
    old = (mem / "MEMORY.md").read_text(encoding="utf-8")
    plan = plan_consolidation(mem)
    adds = [a.id for a in plan.actions if a.kind == "add_missing_index_line"]
    assert len(adds) == 2
    rebuilt = plan_index_rebuild(mem).text
    assert plan.result(adds)["MEMORY.md"] == rebuilt  # one rule for where added lines go
    assert rebuilt.startswith(old + "\n## Added by rebuild-index\n\n- [")
    apply_plan(plan, adds[:1])  # one approved: the heading and its one line
    after = (mem / "MEMORY.md").read_text(encoding="utf-8")
    assert after.startswith(old) and after.count("## Added by rebuild-index") == 1
    again = plan_consolidation(mem)  # the other one later goes under the same heading
    assert again.result()["MEMORY.md"] == plan_index_rebuild(mem).text
    assert plan_index_rebuild(mem).text.count("## Added by rebuild-index") == 1


def test_a_rebuild_keeps_each_cited_line_byte_for_byte_even_dangling_with_drop_dangling(
    real_dir: Callable[[str], Path],
) -> None:
    """real44: a hand-kept index cites a source after each hook; one cited line points at a
    memory since deleted. The rebuild adds the unlisted memory and keeps every cited line as
    written; --drop-dangling leaves the dangling cited line to a person (kept), as it does
    prose; a cited line whose memory moved into a folder follows it (its target alone
    changes); the footnote under the lines stays too."""
    root = real_dir("cited-notes")
    old = (root / "MEMORY.md").read_text(encoding="utf-8")
    r = plan_index_rebuild(root, scope="private", drop_dangling=True)
    assert r.merged.dropped == () and r.merged.kept == ("project_old_kiln.md",)
    assert r.merged.added == ("user_potter.md",)
    moved = MOVED_CITED_LINE.replace("](reference", "](charts/reference")
    assert r.merged.repointed == (("reference_cone_chart.md", "charts/reference_cone_chart.md"),)
    assert r.text.startswith(old.replace(MOVED_CITED_LINE, moved))  # only its target changed
    text = rebuild_index(root, drop_dangling=True)
    lines = text.split("\n")
    assert all(line in lines for line in (*CITED_INDEX_LINES, moved))
    assert "[^1]: the March glaze test" in lines
