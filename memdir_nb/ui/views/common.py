"""What several view-models share: the stale threshold, the progress callback, an index's title, the demo check.

The clock is `memdir_nb.clock.resolve_now_ms` and a file's scope is its header's `scope`
(or `memdir_nb.spec.taxonomy.scope_of_path`); neither is worked out again here.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from memdir_nb.spec.constants import ENTRYPOINT_NAME, TEAM_DIRNAME
from memdir_nb.spec.freshness import STALE_AFTER_DAYS
from memdir_nb.spec.taxonomy import Scope
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.ui.demo import MARKER_NAME

__all__ = ["STALE_AFTER_DAYS", "ProgressFn", "index_title", "is_demo_dir"]

ProgressFn = Callable[[int, int], None]


def index_title(scope: Scope | str) -> str:
    """A scope's index as the views name it, relative to the memory dir ('team/MEMORY.md')."""
    return f"{TEAM_DIRNAME}/{ENTRYPOINT_NAME}" if scope == "team" else ENTRYPOINT_NAME


def is_demo_dir(memory_dir: str | os.PathLike[str]) -> bool:
    """True when the dir was built by memdir_nb.ui.demo (it holds the demo marker file)."""

    marker = absolute_dir(memory_dir) / MARKER_NAME
    return marker.is_file() and not marker.is_symlink()
