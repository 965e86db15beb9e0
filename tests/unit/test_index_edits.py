"""formats.index_edits: an entry line put in place or appended, entry lines taken out."""

from __future__ import annotations

from memdir_nb.formats.index_edits import (
    COMMENT_CLOSE,
    append_entry_lines,
    entry_lines_for,
    in_place_of,
    remove_index_entry,
    split_keep_end,
    upsert_index_entry,
)


def test_lines_are_split_with_whether_the_text_ended_in_a_line_end() -> None:
    assert split_keep_end("a\r\nb\r\n") == (["a", "b"], True)
    assert split_keep_end("a\rb") == (["a", "b"], False)
    assert split_keep_end("") == ([], False)


def test_an_entry_replacing_a_nested_or_numbered_line_keeps_its_indent_and_marker() -> None:
    entry = "- [A](a.md) — new"
    assert in_place_of("    * [A](a.md) — old", entry) == "    * [A](a.md) — new"
    assert in_place_of("3. [A](a.md) — old", entry) == "3. [A](a.md) — new"
    assert in_place_of("| [A](a.md) | old |", entry) == entry


def test_an_entry_appended_after_a_comment_left_open_closes_it_first() -> None:
    text = "- [B](b.md) — b\n<!-- an example\n"
    out = upsert_index_entry(text, "- [A](a.md) — a", "a.md")
    assert out.splitlines()[-2:] == [COMMENT_CLOSE, "- [A](a.md) — a"]


def test_a_commented_out_copy_of_an_entry_is_kept_when_the_entry_is_taken_out() -> None:
    text = "- [A](a.md) — a\r\n<!-- - [A](a.md) — old -->\r\n- [B](b.md) — b\r\n"
    assert remove_index_entry(text, "a.md") == "<!-- - [A](a.md) — old -->\r\n- [B](b.md) — b\r\n"


def test_the_entry_lines_for_a_memory_are_the_lines_removing_it_drops_as_written() -> None:
    text = (
        "  * [A](a.md) — a (source: the log)\r\n<!-- - [A](a.md) — old -->\r\n- `a.md` — again\r\n"
    )
    assert entry_lines_for(text, "a.md") == [
        "  * [A](a.md) — a (source: the log)",
        "- `a.md` — again",
    ]
    assert entry_lines_for(text, "b.md") == []
    assert remove_index_entry(text, "a.md") == "<!-- - [A](a.md) — old -->\r\n"


def test_appended_entry_lines_stay_as_written_in_the_files_line_ends() -> None:
    kept = ["  * [A](a.md) — a [^1]", "- `a.md` — again"]
    assert append_entry_lines("- [B](b.md) — b\r\n", kept) == (
        "- [B](b.md) — b\r\n  * [A](a.md) — a [^1]\r\n- `a.md` — again\r\n"
    )
    assert append_entry_lines("", kept[:1]) == "  * [A](a.md) — a [^1]\n"
    out = append_entry_lines("- [B](b.md) — b\n<!-- an example", kept[:1])
    assert out.splitlines()[-2:] == [COMMENT_CLOSE, kept[0]]
