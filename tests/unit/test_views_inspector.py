"""The inspector view-model: each index against its caps, and the lines loading drops."""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir_nb.formats.index import MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES, format_index_entry
from memdir_nb.ui.views import inspector as view


def test_index_budget_maps_dropped_lines_back_to_file_lines(tmp_path: Path) -> None:
    d = tmp_path / "m"
    d.mkdir()
    lines = [
        format_index_entry(f"T{i}", f"f{i}.md", "hook") for i in range(MAX_ENTRYPOINT_LINES + 5)
    ]
    (d / "MEMORY.md").write_text("\n\n" + "\n".join(lines) + "\n")
    b = view.index_budget(d, "private")
    assert b.was_line_truncated and not b.was_byte_truncated
    assert [x.line_no for x in b.dropped_lines] == [
        203,
        204,
        205,
        206,
        207,
    ]  # two leading blank lines
    assert b.dropped_lines[0].text == lines[200] and {x.reason for x in b.dropped_lines} == {
        "line cap"
    }


def test_index_budget_marks_a_single_line_cut_mid_line(tmp_path: Path) -> None:
    d = tmp_path / "m"
    d.mkdir()
    (d / "MEMORY.md").write_text("x" * (MAX_ENTRYPOINT_BYTES + 10))
    b = view.index_budget(d)
    assert [(x.line_no, x.reason) for x in b.dropped_lines] == [(1, "byte cap (cut mid-line)")]
    assert b.byte_fraction > 1


@pytest.mark.parametrize(
    ("lead", "first_dropped", "n_dropped"),
    [("\x1c\n", 201, 51), ("\n\ufeff\n", 203, 50)],
    ids=["fs", "bom"],
)
def test_index_budget_trims_as_javascript_does_before_mapping_dropped_lines(
    tmp_path: Path, lead: str, first_dropped: int, n_dropped: int
) -> None:
    # attack round 24: the budget trimmed with Python's strip while the caps trim as
    # JavaScript does: a U+001C line first named E200 "byte cap (cut mid-line)"; a U+FEFF line
    # first listed E199, which is loaded, among 52 dropped lines.
    body = "".join(f"- [E{i}](user_e{i}.md) \u2014 e\n" for i in range(1, 251))
    (tmp_path / "MEMORY.md").write_text(lead + body, encoding="utf-8")
    budget = view.index_budget(tmp_path)
    assert [d.reason for d in budget.dropped_lines] == ["line cap"] * n_dropped
    assert budget.dropped_lines[0].line_no == first_dropped
    assert len(budget.dropped_lines) == budget.line_count - budget.kept_line_count


def test_index_budget_rejects_an_unknown_scope(demo_mem: Path) -> None:
    with pytest.raises(ValueError, match="scope must be"):
        view.index_budget(demo_mem, "shared")  # type: ignore[arg-type]


def test_index_budget_lists_what_is_stripped_and_maps_dropped_lines_past_it(tmp_path: Path) -> None:
    front = "---\nowner: noor\n---\n"
    comment = "<!-- keep entries short;\n     one line each -->\n"
    entries = "".join(format_index_entry(f"E{i}", f"e{i}.md", "hook") + "\n" for i in range(201))
    (tmp_path / "MEMORY.md").write_text(front + comment + entries)
    b = view.index_budget(tmp_path)
    assert [(s.kind, s.line_no) for s in b.stripped] == [("frontmatter", 1), ("HTML comment", 4)]
    assert b.stripped[1].text == comment.rstrip("\n")
    assert b.line_count == 201 and b.kept_line_count == 200
    assert [(d.line_no, d.reason) for d in b.dropped_lines] == [(206, "line cap")]
    assert "E200" in b.dropped_lines[0].text


def test_a_rebuild_that_first_takes_the_index_past_a_cap_never_says_still() -> None:
    assert view.rebuild_caps_note(0, 0) == " (within both caps)"
    first = view.rebuild_caps_note(145, 0)
    assert "still" not in first and "145 lines would never load" in first
    assert (
        view.rebuild_caps_note(30, 10) == " (still over a cap: 30 lines would never load, 10 now)"
    )
    assert view.rebuild_caps_note(10, 10) == " (still over a cap: 10 lines would never load)"


def test_a_stripped_comment_and_a_dropped_line_are_named_by_the_files_own_line_numbers(
    tmp_path: Path,
) -> None:
    """A lone CR in a file that has LFs ends a line for the loader, not for the file: the
    inspector numbers lines as lint and the editors do (spec.text.as_lf); it used to count the
    loader's lines, one too many past each lone CR (polish31)."""
    prose = "Notes kept by hand,\rwith a stray carriage return.\n"
    comment = "<!-- one line each -->\n"
    entries = "".join(format_index_entry(f"E{i}", f"e{i}.md", "hook") + "\n" for i in range(201))
    (tmp_path / "MEMORY.md").write_bytes((prose + comment + entries).encode())
    b = view.index_budget(tmp_path)
    assert [(s.kind, s.line_no) for s in b.stripped] == [("HTML comment", 2)]
    # the loader loads 203 lines (the prose is two to it), so E198 to E200 are past the cap
    assert [(d.line_no, d.reason) for d in b.dropped_lines] == [
        (201, "line cap"),
        (202, "line cap"),
        (203, "line cap"),
    ]
    assert "E198" in b.dropped_lines[0].text
