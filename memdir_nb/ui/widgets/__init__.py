"""ipywidgets views over a memory dir; each calls the core and holds no logic of its own.

Importing this package imports ipywidgets (install the [notebook] extra); `import memdir_nb`
does not import it.
"""

from memdir_nb.ui.widgets.browser import MemoryBrowser
from memdir_nb.ui.widgets.dashboard import Dashboard
from memdir_nb.ui.widgets.dream_planner import DreamPlanner
from memdir_nb.ui.widgets.editor import MemoryEditor
from memdir_nb.ui.widgets.freshness import FreshnessView
from memdir_nb.ui.widgets.inspector import IndexInspector
from memdir_nb.ui.widgets.recall import RecallPlayground
from memdir_nb.ui.widgets.replay import ReplayView
from memdir_nb.ui.widgets.security import PathSecurityLab
from memdir_nb.ui.widgets.team import TeamScopeView

__all__ = [
    "Dashboard",
    "DreamPlanner",
    "FreshnessView",
    "IndexInspector",
    "MemoryBrowser",
    "MemoryEditor",
    "PathSecurityLab",
    "RecallPlayground",
    "ReplayView",
    "TeamScopeView",
]
