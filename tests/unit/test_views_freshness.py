"""The freshness view-model: age bins per type and the stale list."""

from __future__ import annotations

import os
from pathlib import Path

from memdir_nb.ui.views import browser as rows_view
from memdir_nb.ui.views import freshness as view
from memdir_nb.ui.views.common import STALE_AFTER_DAYS

DAY = 86_400_000


def test_freshness_data_adds_a_row_for_untyped_memories(tmp_path: Path, demo_now_ms: float) -> None:
    d = tmp_path / "m"
    d.mkdir()
    (d / "loose.md").write_text("no frontmatter here\n")
    os.utime(d / "loose.md", ns=(int((demo_now_ms - 400 * DAY) * 1e6),) * 2)
    data = view.freshness_data(rows_view.memory_rows(d, now_ms=demo_now_ms))
    assert data.types[-1] == view.UNTYPED
    assert data.counts[view.UNTYPED][data.bins.index("over a year")] == 1
    assert data.stale == ["loose.md"]


def test_a_memory_at_the_stale_age_is_in_one_bin_that_is_all_stale(
    tmp_path: Path, demo_now_ms: float
) -> None:
    # The bins and the stale count share one boundary: a memory exactly STALE_AFTER_DAYS old is
    # stale, and the bin it falls in holds no memory younger than that (bins read as disjoint).
    d = tmp_path / "m"
    d.mkdir()
    for name, days in (("at_90.md", 90), ("at_89.md", 89)):
        (d / name).write_text("---\nname: x\ntype: user\ndescription: x\n---\nbody\n")
        os.utime(d / name, ns=(int((demo_now_ms - days * DAY - 3_600_000) * 1e6),) * 2)
    data = view.freshness_data(rows_view.memory_rows(d, now_ms=demo_now_ms))
    assert data.stale == ["at_90.md"]
    counts = data.counts["user"]
    stale_bins = [i for i, (_, lo, _) in enumerate(view.AGE_BINS) if lo >= data.stale_after_days]
    assert sum(counts[i] for i in stale_bins) == len(data.stale)
    assert sum(counts) == 2


def test_the_bins_meet_the_stale_age_at_a_bin_edge() -> None:
    edges = [lo for _, lo, _ in view.AGE_BINS]
    assert STALE_AFTER_DAYS in edges
    labels = [label for label, _, _ in view.AGE_BINS]
    assert f"{STALE_AFTER_DAYS - 1}" in labels[edges.index(STALE_AFTER_DAYS) - 1]
