from __future__ import annotations

from pathlib import Path

from memdir_nb.home.config import MemdirConfig
from memdir_nb.storage.index_files import read_entrypoint
from memdir_nb.ui.views.inspector import index_budget
from memdir_nb.ui.widgets import (
    Dashboard,
    DreamPlanner,
    FreshnessView,
    IndexInspector,
    MemoryBrowser,
    MemoryEditor,
    PathSecurityLab,
    RecallPlayground,
    ReplayView,
    TeamScopeView,
)
from tests.support import NOW


def test_dashboard_has_every_view_in_tabs(mem: Path, config: MemdirConfig) -> None:
    d = Dashboard(mem, now_ms=NOW, config=config)
    kinds = [type(c) for c in d.tabs.children]
    assert kinds == [
        MemoryBrowser,
        MemoryEditor,
        IndexInspector,
        RecallPlayground,
        FreshnessView,
        TeamScopeView,
        PathSecurityLab,
        DreamPlanner,
        ReplayView,
    ]
    assert d.tabs.titles == (
        "Memories",
        "Save",
        "Index",
        "Recall",
        "Freshness",
        "Team",
        "Path security",
        "Dream",
        "Sessions",
    )
    assert repr(d) == "Dashboard(VBox, memory_dir='mem')"


def test_a_save_in_the_editor_refreshes_the_other_tabs(mem: Path, config: MemdirConfig) -> None:
    d = Dashboard(mem, now_ms=NOW, config=config)
    d.editor.fill(
        type="reference",
        name="SLO board",
        description="Error budget board",
        body="Grafana slo-budget.",
    )
    d.editor.save_button.click()
    assert "team/reference_slo_board.md" in [r.filename for r in d.browser.rows]
    assert "team/reference_slo_board.md" in [r.filename for r in d.team.team_rows]
    assert len(d.freshness.rows) == 41


def test_a_promotion_refreshes_browser_and_inspector(mem: Path, config: MemdirConfig) -> None:
    d = Dashboard(mem, now_ms=NOW, config=config)
    before = d.inspector.budgets["private"].line_count
    d.team.promote("feedback_small_prs.md")
    assert "team/feedback_small_prs.md" in [r.filename for r in d.browser.rows]
    assert d.inspector.budgets["private"].line_count == before - 1


def test_a_dream_applied_in_its_tab_refreshes_the_index_and_browser(
    mem: Path, config: MemdirConfig
) -> None:
    d = Dashboard(mem, now_ms=NOW, config=config)
    before = len(d.inspector.dropped_lines["team"])  # the demo's team index is over its caps
    d.dream.make_plan()
    d.dream.apply()
    assert d.dream.disk_revision == 1
    assert d.inspector.dropped_lines["team"] == index_budget(mem, "team").dropped_lines
    assert len(d.inspector.dropped_lines["team"]) < before
    assert "user_colour_vision.md" in read_entrypoint(mem)
    assert next(r for r in d.browser.rows if r.filename == "user_colour_vision.md").index_line


def test_a_dream_restore_refreshes_the_other_tabs_again(mem: Path, config: MemdirConfig) -> None:
    d = Dashboard(mem, now_ms=NOW, config=config)
    before = len(d.inspector.dropped_lines["team"])
    d.dream.make_plan()
    d.dream.apply()
    d.dream.restore()
    assert d.dream.disk_revision == 2
    assert len(d.inspector.dropped_lines["team"]) == before  # back as it was


def test_every_widget_takes_the_dir_first_and_is_deterministic(
    mem: Path, config: MemdirConfig
) -> None:
    for cls in (
        MemoryBrowser,
        MemoryEditor,
        IndexInspector,
        RecallPlayground,
        FreshnessView,
        TeamScopeView,
        PathSecurityLab,
        DreamPlanner,
        ReplayView,
    ):
        a, b = cls(mem, now_ms=NOW, config=config), cls(mem, now_ms=NOW, config=config)
        assert repr(a) == repr(b) == f"{cls.__name__}(VBox, memory_dir='mem')"
        assert "memdir-view" in a._dom_classes
