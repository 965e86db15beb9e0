from __future__ import annotations

import os
import re
import warnings
from pathlib import Path

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.home.config import MemdirConfig
from memdir_nb.ui.widgets import FreshnessView
from tests.support import NOW


def test_histogram_counts_every_memory_by_type_and_age(mem: Path, config: MemdirConfig) -> None:
    f = FreshnessView(mem, now_ms=NOW, config=config)
    data = f.data
    assert data is not None
    assert sum(sum(c) for c in data.counts.values()) == 40
    assert data is not None
    assert data.counts["user"][data.bins.index("yesterday")] == 1  # user_colour_vision.md
    assert data is not None
    assert data.counts["project"][data.bins.index("over a year")] == 1  # the availability OKR


def test_stale_memories_are_marked_and_listed(mem: Path, config: MemdirConfig) -> None:
    f = FreshnessView(mem, now_ms=NOW, config=config)
    assert "team/project_availability_okr.md" in f.stale
    assert all(r.age_days >= 90 for r in f.rows if r.filename in f.stale)
    assert len(f.stale) == sum(r.age_days >= 90 for r in f.rows)
    assert "team/project_availability_okr.md" in f.stale_box.value
    assert "stale (90+ days)" in f.timeline_svg


def test_threshold_slider_changes_what_counts_as_stale(mem: Path, config: MemdirConfig) -> None:
    f = FreshnessView(mem, now_ms=NOW, config=config)
    f.threshold.value = 400
    assert set(f.stale) == {r.filename for r in f.rows if r.age_days >= 400}
    assert "stale (400+ days)" in f.timeline_svg


def test_charts_are_inline_svg_and_deterministic(mem: Path, config: MemdirConfig) -> None:
    a = FreshnessView(mem, now_ms=NOW, config=config)
    b = FreshnessView(mem, now_ms=NOW, config=config)
    assert a.histogram.value.startswith("<svg") and a.timeline.value.startswith("<svg")
    assert a.histogram_svg == b.histogram_svg and a.timeline_svg == b.timeline_svg
    for svg in (a.histogram_svg, a.timeline_svg):
        assert "http://" not in svg.replace("http://www.w3.org", "").replace(
            "http://purl.org", ""
        ).replace("http://creativecommons.org", "")
        assert "<dc:date>" not in svg


def test_a_dir_with_only_an_index_draws_both_charts_without_a_warning(
    tmp_path: Path, config: MemdirConfig
) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "MEMORY.md").write_text("# Project notes live in .claude/memory\n", "utf-8")

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns when a legend has nothing to name
        f = FreshnessView(memory, now_ms=NOW, config=config)

    assert f.rows == []
    assert f.histogram.value.startswith("<svg") and f.timeline.value.startswith("<svg")


def test_the_timeline_of_a_dir_of_one_age_labels_its_axis_in_plain_days(
    tmp_path: Path, config: MemdirConfig
) -> None:
    # a cloned dir: git gave every file the same time, here 99 days ago
    d = tmp_path / "cloned"
    d.mkdir()
    for n in range(6):
        f = d / f"project_note_{n}.md"
        f.write_text(render_memory_file(f"Note {n}", f"note {n}", "project", "Body.\n"))
        then = NOW / 1000 - 99 * 86_400
        os.utime(f, (then, then))
    svg = FreshnessView(d, now_ms=NOW, config=config).timeline_svg
    ticks = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert {"1", "10", "100"} <= set(ticks), ticks
    assert not any("times" in t or "×" in t for t in ticks), ticks
