"""formats.index_edits: an entry line put in place or appended, entry lines taken out."""

from __future__ import annotations

from memdir_nb.formats.index_edits import (
    COMMENT_CLOSE,
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
