"""Build the bundled demo memory dir: one engineer's lived-in memory at a weather-API startup.

The demo is the embedded default that notebooks, the dashboard and the Binder demo open when
no real memory dir is named. Its company (Isobar Labs, a small forecast and climate-data API
startup) and people are fictional. Every date and file time derives from `now_ms`, so
"47 days ago" reads the same on every run and the same `now_ms` gives byte-identical files.

It carries a few deliberate imperfections (see `DEMO_QUIRKS`) for the lint and consolidation
demos, plus an oversized team index that trips both MEMORY.md caps.

The package: `model` (marker, errors, DemoMemory/DemoQuirk, DEMO_QUIRKS, DEMO_QUERIES, the
clock), `memories` (the memory texts), `render` (file and index texts, the daily log entries),
`build` (the demo memory dir and the notebooks' dir choice) and `homes` (a demo Claude home and
a demo fleet for doctor, where and notebooks 09/10).
"""

from memdir_nb.ui.demo.build import (
    DemoBuild,
    build_demo,
    build_demo_memory_dir,
    notebook_memory_dir,
)
from memdir_nb.ui.demo.homes import (
    DEMO_FLEET_PROJECTS,
    DEMO_HOME_SETTINGS,
    DemoClaudeHome,
    build_demo_claude_home,
    build_demo_fleet,
)
from memdir_nb.ui.demo.memories import demo_memories
from memdir_nb.ui.demo.model import (
    DANGLING_INDEX_AFTER,
    DANGLING_INDEX_TARGET,
    DAY_MS,
    DEMO_NOW_MS,
    DEMO_QUERIES,
    DEMO_QUIRKS,
    MARKER_NAME,
    MARKER_TEXT,
    MTIME_OFFSET_MS,
    TEAM_NOTES_AGE_DAYS,
    DemoDirError,
    DemoDirExistsError,
    DemoMemory,
    DemoQuirk,
    mtime_for_age,
)
from memdir_nb.ui.demo.render import daily_log_date, daily_log_relpath

__all__ = [
    "DANGLING_INDEX_AFTER",
    "DANGLING_INDEX_TARGET",
    "DAY_MS",
    "DEMO_FLEET_PROJECTS",
    "DEMO_HOME_SETTINGS",
    "DEMO_NOW_MS",
    "DEMO_QUERIES",
    "DEMO_QUIRKS",
    "MARKER_NAME",
    "MARKER_TEXT",
    "MTIME_OFFSET_MS",
    "TEAM_NOTES_AGE_DAYS",
    "DemoBuild",
    "DemoClaudeHome",
    "DemoDirError",
    "DemoDirExistsError",
    "DemoMemory",
    "DemoQuirk",
    "build_demo",
    "build_demo_claude_home",
    "build_demo_fleet",
    "build_demo_memory_dir",
    "daily_log_date",
    "daily_log_relpath",
    "demo_memories",
    "mtime_for_age",
    "notebook_memory_dir",
]
