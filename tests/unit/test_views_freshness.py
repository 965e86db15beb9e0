"""The freshness view-model: age bins per type and the stale list."""

from __future__ import annotations

import os
from pathlib import Path

from memdir_nb.ui.views import browser as rows_view
from memdir_nb.ui.views import freshness as view

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
