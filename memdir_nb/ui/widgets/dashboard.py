"""Dashboard: every memdir view in tabs, for Voila.

DOM classes: memdir-dashboard (the view), memdir-dashboard-tabs; each tab keeps its own
view's classes. A change one tab makes on disk (save, forget, promote, rebuild, a dream applied
or restored) bumps that view's `disk_revision` trait; the dashboard observes it and refreshes
the other tabs.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from memdir_nb.home.config import MemdirConfig
from memdir_nb.ui.widgets._common import MemdirView, classed, esc
from memdir_nb.ui.widgets.browser import MemoryBrowser
from memdir_nb.ui.widgets.dream_planner import DreamPlanner
from memdir_nb.ui.widgets.editor import MemoryEditor
from memdir_nb.ui.widgets.freshness import FreshnessView
from memdir_nb.ui.widgets.inspector import IndexInspector
from memdir_nb.ui.widgets.recall import RecallPlayground
from memdir_nb.ui.widgets.replay import ReplayView
from memdir_nb.ui.widgets.security import PathSecurityLab
from memdir_nb.ui.widgets.team import TeamScopeView

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig


class Dashboard(MemdirView):
    """All the views over one memory dir, in tabs."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
        **kwargs: Any,
    ) -> None:
        if config is None:
            config = MemdirConfig.from_environment()
        super().__init__(memory_dir, now_ms=now_ms, config=config, **kwargs)
        self.add_class("memdir-dashboard")
        self.browser = MemoryBrowser(self.memory_dir, now_ms=now_ms, config=config)
        self.editor = MemoryEditor(self.memory_dir, now_ms=now_ms, config=config)
        self.inspector = IndexInspector(self.memory_dir, now_ms=now_ms, config=config)
        self.playground = RecallPlayground(self.memory_dir, now_ms=now_ms, config=config)
        self.freshness = FreshnessView(self.memory_dir, now_ms=now_ms, config=config)
        self.team = TeamScopeView(self.memory_dir, now_ms=now_ms, config=config)
        self.lab = PathSecurityLab(self.memory_dir, now_ms=now_ms, config=config)
        self.dream = DreamPlanner(self.memory_dir, now_ms=now_ms, config=config)
        self.sessions = ReplayView(self.memory_dir, now_ms=now_ms, config=config)
        self.views: dict[str, MemdirView] = {
            "Memories": self.browser,
            "Save": self.editor,
            "Index": self.inspector,
            "Recall": self.playground,
            "Freshness": self.freshness,
            "Team": self.team,
            "Path security": self.lab,
            "Dream": self.dream,
            "Sessions": self.sessions,
        }
        for view in self.views.values():
            view.observe(lambda _change, source=view: self._refresh_others(source), "disk_revision")
        self.tabs = classed(
            widgets.Tab(children=list(self.views.values())), "memdir-dashboard-tabs"
        )
        self.tabs.titles = tuple(self.views)
        self.children = [
            widgets.HTML(f"<h3>memdir: <code>{esc(self.memory_dir)}</code></h3>"),
            self.tabs,
        ]

    def _refresh_others(self, source: MemdirView) -> None:
        for view in self.views.values():
            if view is not source:
                view.refresh()

    def refresh(self) -> None:
        """Re-read the memory dir in every tab."""
        for view in self.views.values():
            view.refresh()
