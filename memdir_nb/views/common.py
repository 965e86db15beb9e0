"""What several view-models share: the stale threshold, the clock, a file's scope, the demo check."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from memdir_nb.constants import TEAM_DIRNAME
from memdir_nb.types import Scope

STALE_AFTER_DAYS = 90  # the views' default "worth checking" age; the widgets let users move it
ProgressFn = Callable[[int, int], None]


def now_or_wall_clock(now_ms: float | None) -> float:
    """now_ms when given, else the wall clock, in milliseconds since the epoch."""
    return time.time() * 1000.0 if now_ms is None else float(now_ms)


def scope_of(filename: str) -> Scope:
    """'team' for a filename under team/ (relative to the memory dir), else 'private'."""
    return "team" if filename.startswith(TEAM_DIRNAME + "/") else "private"


def is_demo_dir(memory_dir: str | os.PathLike[str]) -> bool:
    """True when the dir was built by memdir_nb.demo (it holds the demo marker file)."""
    from memdir_nb.demo import MARKER_NAME

    marker = Path(memory_dir) / MARKER_NAME
    return marker.is_file() and not marker.is_symlink()
