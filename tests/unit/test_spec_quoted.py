"""spec/quoted: values quoted back in a problem's text, cut and safe to print."""

from __future__ import annotations

from memdir_nb.spec.quoted import shown_input, shown_repr, shown_text, shown_value


def test_shown_value_cuts_a_long_string_and_a_long_list_but_keeps_escapes() -> None:
    assert shown_value("a\nb\x1b") == "'a\\nb\\x1b'"
    long = shown_value("y" * 1_000_000)
    assert long.startswith("'yyy") and "..." in long and len(long) <= 82
    assert shown_value(list(range(1000))) == "[0, 1, 2, 3, 4, 5, ...]"


def test_a_quoted_text_is_kept_as_written_within_its_limit_and_cut_in_the_middle_past_it() -> None:
    assert shown_text("old\ttext\nline two") == "old\ttext\nline two"  # as the reference
    long = "head" + "x" * 1_000_000 + "tail"
    cut = shown_text(long)
    assert len(cut) < 600 and cut.startswith("headxx") and cut.endswith("xxtail")
    assert "1,000,008" not in cut and "characters left out" in cut
    assert shown_text("a\x1b[2Jb") == "a\\x1b[2Jb"  # a control is an escape, never raw


def test_a_quoted_input_shows_a_string_as_written_and_any_other_value_cut() -> None:
    assert shown_input("/etc/passwd") == "/etc/passwd"
    assert shown_input(5) == "5" and shown_input(1.0) == "1.0"
    assert len(shown_input(["a"] * 100_000)) < 100
    assert len(shown_input({"a": "x" * 1_000_000})) < 200


def test_shown_repr_is_repr_within_the_limit_and_cut_past_it() -> None:
    assert shown_repr("/m/a\x1b.md") == repr("/m/a\x1b.md")
    long = "a" * 300 + "\x1b" + "b" * 4_000
    said = shown_repr(long)
    assert said.startswith("'" + "a" * 250) and said.endswith("b" * 250 + "'")
    assert "[3,801 characters left out]" in said and "\x1b" not in said
