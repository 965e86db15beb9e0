from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.formats.index import MAX_ENTRYPOINT_LINES
from memdir_nb.home.config import MemdirConfig
from memdir_nb.storage.index_files import read_entrypoint
from memdir_nb.ui.widgets import IndexInspector
from tests.support import NOW


def part(inspector: IndexInspector, scope: str, css: str) -> Any:
    """The one control of a scope's panel that carries a DOM class."""
    (found,) = [c for c in inspector.panels[scope].children if css in c._dom_classes]
    return found


def test_gauges_show_both_budgets_for_both_scopes(mem: Path, config: MemdirConfig) -> None:
    i = IndexInspector(mem, now_ms=NOW, config=config)
    team = i.budgets["team"]
    assert team.line_count > MAX_ENTRYPOINT_LINES and team.byte_count > 25_000
    gauge_lines = part(i, "team", "memdir-inspector-lines")
    gauge_bytes = part(i, "team", "memdir-inspector-bytes")
    assert "memdir-inspector-lines" in gauge_lines._dom_classes
    assert (gauge_lines.value, gauge_lines.max, gauge_lines.bar_style) == (200, 200, "danger")
    assert (gauge_bytes.max, gauge_bytes.bar_style) == (25_000, "danger")
    private_lines = part(i, "private", "memdir-inspector-lines")
    assert private_lines.value == i.budgets["private"].line_count < 200
    assert private_lines.bar_style == "success"


def test_dropped_lines_are_exactly_those_truncation_cuts(mem: Path, config: MemdirConfig) -> None:
    i = IndexInspector(mem, now_ms=NOW, config=config)
    assert i.dropped_lines["private"] == [] and i.warnings["private"] == ""
    dropped = i.dropped_lines["team"]
    file_lines = read_entrypoint(mem / "team").split("\n")
    kept = i.budgets["team"].kept_line_count
    assert [d.line_no for d in dropped] == list(range(kept + 1, i.budgets["team"].line_count + 1))
    assert all(file_lines[d.line_no - 1] == d.text for d in dropped)
    assert {d.reason for d in dropped if d.line_no > 200} == {"line cap"}
    assert {d.reason for d in dropped if d.line_no <= 200} == {"byte cap"}
    html = part(i, "team", "memdir-inspector-dropped").value
    assert html.count("<mark") == len(dropped)


def test_warning_that_would_be_appended_is_shown(mem: Path, config: MemdirConfig) -> None:
    i = IndexInspector(mem, now_ms=NOW, config=config)
    assert i.warnings["team"].startswith("> WARNING: MEMORY.md is ")
    assert "200 lines" in i.warnings["team"]
    assert part(i, "team", "memdir-inspector-warning").value.count("WARNING") == 1


def test_rebuild_adds_missing_entries_through_the_store_and_keeps_every_line(
    mem: Path, config: MemdirConfig
) -> None:
    i = IndexInspector(mem, now_ms=NOW, config=config)
    predicted = i.rebuild_preview["team"]
    before = {"private": read_entrypoint(mem), "team": read_entrypoint(mem / "team")}
    i.rebuild_button.click()
    text = read_entrypoint(mem / "team")
    assert text.startswith(before["team"]) and "Keiko:" in text  # the pasted notes stay
    assert (i.budgets["team"].line_count, i.budgets["team"].byte_count) == predicted[:2]
    private = read_entrypoint(mem)
    assert private.startswith(before["private"])
    assert "user_colour_vision.md" in private  # the unindexed memory is listed now
    assert "user_old_laptop.md" in private  # a dangling line goes only when asked
    assert i.status_text.startswith("Rebuilt MEMORY.md") and ".trash/" in i.status_text


def test_missing_team_folder_is_reported_not_an_error(tmp_path: Path, config: MemdirConfig) -> None:
    from memdir_nb.storage.store import MemoryStore

    d = tmp_path / "solo"
    MemoryStore(d, now_ms=NOW).save("Tea", "User drinks green tea", "user", "Green tea.")
    i = IndexInspector(d, now_ms=NOW, config=config)
    assert not i.budgets["team"].exists and i.rebuild_preview["team"] is None
    assert "(missing)" in i.panels["team"].children[0].value


def test_the_two_panels_share_the_row_equally(mem: Path, config: MemdirConfig) -> None:
    # the team index holds long lines; the private panel must not be squeezed by them
    i = IndexInspector(mem, now_ms=NOW, config=config)
    for scope in ("private", "team"):
        layout = i.panels[scope].layout
        assert (layout.flex, layout.min_width, layout.width) == ("1 1 0%", "0", "50%")
    assert "overflow-wrap:anywhere" in part(i, "team", "memdir-inspector-dropped").value


def test_a_fifo_as_memory_md_shows_the_readers_reason(tmp_path: Path, config: MemdirConfig) -> None:
    from memdir_nb.storage.store import MemoryStore

    d = tmp_path / "m"
    MemoryStore(d, now_ms=NOW).save("Tea", "User drinks green tea", "user", "Green tea.")
    (d / "MEMORY.md").unlink()
    os.mkfifo(d / "MEMORY.md")
    i = IndexInspector(d, now_ms=NOW, config=config)  # returns: the FIFO is never opened
    reason = i.budgets["private"].problem
    assert "is a FIFO, not a regular file" in reason
    assert i.problems["private"] == reason and i.problems["team"] == ""
    shown = part(i, "private", "memdir-inspector-problem").value
    assert "Not read" in shown and html.escape(reason) in shown
    assert "(treated as missing)" in i.panels["private"].children[0].value
    assert part(i, "team", "memdir-inspector-problem").value == ""


def test_a_team_index_linking_out_of_the_dir_shows_the_readers_reason(
    mem: Path, tmp_path: Path, config: MemdirConfig
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("- [Stolen](x.md) - not ours\n")
    (mem / "team" / "MEMORY.md").unlink()
    (mem / "team" / "MEMORY.md").symlink_to(outside)
    i = IndexInspector(mem, now_ms=NOW, config=config)
    reason = i.problems["team"]
    assert reason and not i.budgets["team"].exists
    assert html.escape(reason) in part(i, "team", "memdir-inspector-problem").value
    assert i.budgets["team"].line_count == 0  # nothing outside the dir was read
    assert i.problems["private"] == ""


def test_the_panel_shows_what_was_stripped_before_counting(mem: Path, config: MemdirConfig) -> None:
    index = mem / "MEMORY.md"
    index.write_text("<!-- written by hand: sorted by topic -->\n" + read_entrypoint(mem))
    i = IndexInspector(mem, now_ms=NOW, config=config)
    shown = part(i, "private", "memdir-inspector-stripped").value
    assert "1 block stripped before counting" in shown
    assert html.escape("<!-- written by hand: sorted by topic -->") in shown
    assert part(i, "team", "memdir-inspector-stripped").value == ""


def test_the_preview_says_when_a_rebuild_would_first_take_the_index_past_its_caps(
    tmp_path: Path, config: MemdirConfig
) -> None:
    # a short hand-kept index over a dir of many memories it does not list (a tree of indexes)
    d = tmp_path / "tree"
    d.mkdir()
    (d / "MEMORY.md").write_text("<!-- each line opens a category index -->\n- [Infra](infra.md)\n")
    for n in range(MAX_ENTRYPOINT_LINES + 30):
        (d / f"rule_{n:03d}.md").write_text(
            render_memory_file(f"Rule {n}", f"house rule number {n}", "feedback", "Body.\n")
        )
    i = IndexInspector(d, now_ms=NOW, config=config)
    note = part(i, "private", "memdir-inspector-rebuild-preview").value
    assert "over a cap" in note and "still" not in note and "would never load" in note
