"""Demo Claude homes for doctor, where and the fleet views (notebooks 09 and 10)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from memdir_nb.formats.index import format_index_entry
from memdir_nb.home.paths import sanitize_path
from memdir_nb.spec.constants import ENTRYPOINT_NAME, TEAM_DIRNAME
from memdir_nb.storage.containment import real_path
from memdir_nb.ui.demo.build import build_demo_memory_dir, write_file
from memdir_nb.ui.demo.memories import demo_memories
from memdir_nb.ui.demo.model import DemoDirError, demo_clock, mtime_for_age
from memdir_nb.ui.demo.render import render_file

# ---------------------------------------------------------------------------- a demo Claude home

# Problems seeded into the demo Claude home, for `memdir-nb doctor` and notebook 10.
DEMO_HOME_SETTINGS: Mapping[str, Mapping[str, object]] = MappingProxyType(
    {
        # Another tool "helpfully" switched auto memory off through the user settings' env block.
        "user": {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}, "theme": "dark"},
        # The repository tries to choose the memory dir; project settings are never trusted for it.
        "project": {"autoMemoryDirectory": "~/team-memory"},
    }
)


@dataclass(frozen=True)
class DemoClaudeHome:
    """Where the demo Claude home's parts are."""

    home: Path  # the fake $HOME
    claude_home: Path  # home/.claude
    project: Path  # the project folder (not a git repository)
    memory_dir: Path  # home/.claude/projects/<key>/memory, holding the demo memory dir
    policy_settings: Path  # where policy settings would be (absent)

    @property
    def user_settings(self) -> Path:
        """home/.claude/settings.json (holds the seeded env block)."""
        return self.claude_home / "settings.json"


def build_demo_claude_home(
    target: str | os.PathLike[str], *, now_ms: float | None = None
) -> DemoClaudeHome:
    """A fake home with a project, its demo memory dir, and the settings in DEMO_HOME_SETTINGS."""
    import json

    root = Path(os.path.abspath(os.fspath(target)))
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise DemoDirError(f"{root} is not an empty directory; choose a new or empty one")
    home, project = root / "home", root / "project"
    claude_home = home / ".claude"
    paths = {
        "user": claude_home / "settings.json",
        "project": project / ".claude" / "settings.json",
    }
    for layer, data in DEMO_HOME_SETTINGS.items():
        paths[layer].parent.mkdir(parents=True, exist_ok=True)
        paths[layer].write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    key = sanitize_path(real_path(project))
    memory_dir = build_demo_memory_dir(claude_home / "projects" / key / "memory", now_ms=now_ms)
    return DemoClaudeHome(home, claude_home, project, memory_dir, root / "managed-settings.json")


# ---------------------------------------------------------------------------- a demo fleet

DEMO_FLEET_PROJECTS: tuple[str, ...] = (
    "forecast-api",
    "billing-svc",
    "ingest-workers",
    "docs-site",
    "sdk-python",
    "ops-runbooks",
)


def build_demo_fleet(target: str | os.PathLike[str], *, now_ms: float | None = None) -> Path:
    """A Claude home whose projects/ holds one memory dir per DEMO_FLEET_PROJECTS entry.

    The first project gets the whole demo memory dir; the others get deterministic slices of
    it, older by 60 days per project, and the last one an index padded past the line cap.
    Returns the Claude home (target/home/.claude); the project folders live in target/src/.
    """

    now = demo_clock(now_ms)
    root = Path(os.path.abspath(os.fspath(target)))
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise DemoDirError(f"{root} is not an empty directory; choose a new or empty one")
    claude_home = root / "home" / ".claude"
    memories = demo_memories(now)
    for n, name in enumerate(DEMO_FLEET_PROJECTS):
        project = root / "src" / name
        project.mkdir(parents=True)
        memory_dir = claude_home / "projects" / sanitize_path(os.fspath(project)) / "memory"
        if n == 0:
            build_demo_memory_dir(memory_dir, now_ms=now)
            continue
        chosen = [m for i, m in enumerate(memories) if (i + n) % (n + 1) == 0]
        shift = 60 * n
        index: dict[str, list[str]] = {"private": [], "team": []}
        for mem in chosen:
            write_file(
                memory_dir / mem.path, render_file(mem), mtime_for_age(mem.age_days + shift, now)
            )
            index[mem.scope].append(format_index_entry(mem.name, mem.filename, mem.description))
        if n == len(DEMO_FLEET_PROJECTS) - 1:
            index["private"] += [
                f"- note {i}: paste from a chat, never cleaned up" for i in range(230)
            ]
        for scope, lines in index.items():
            if lines:
                folder = memory_dir / TEAM_DIRNAME if scope == "team" else memory_dir
                write_file(
                    folder / ENTRYPOINT_NAME, "\n".join(lines) + "\n", mtime_for_age(shift, now)
                )
    return claude_home
