"""A Claude home, or its projects/ folder, passed where one memory dir is wanted (fresh34).

A newcomer's first guess at "my memory dir" is often `~/.claude` or `~/.claude/projects`. Both
hold memory dirs at `projects/<key>/memory/` (`<key>/memory/` under projects/), and neither is
one: read as one dir, every project's memories were scanned and linted together, and
`rebuild-index` offered to write a MEMORY.md that nothing loads. `storage.listing`'s
folder_of_memory_dirs asks this module before it looks for agent memory dirs.
"""

from __future__ import annotations

import os

from memdir_nb.spec.constants import PROJECT_MEMORY_DIRNAME, PROJECTS_DIRNAME

# How many projects' folders are looked into: a home of thousands of projects is named by its
# first ones (the message names a few and one example), and the look stays cheap.
MAX_PROJECTS_LOOKED_AT = 1000


def home_memory_dirs(root: str) -> tuple[str, ...]:
    """The memory dirs under root, relative to it, when root is a Claude home (it holds
    projects/) or its projects/ folder: `projects/<key>/memory` (or `<key>/memory`), sorted;
    empty when root is neither, or holds no project memory dir."""
    if os.path.basename(os.path.normpath(root)) == PROJECTS_DIRNAME:
        projects, prefix = root, ""
    elif os.path.isdir(os.path.join(root, PROJECTS_DIRNAME)):
        projects, prefix = os.path.join(root, PROJECTS_DIRNAME), f"{PROJECTS_DIRNAME}/"
    else:
        return ()
    found = []
    try:
        with os.scandir(projects) as it:
            for n, entry in enumerate(it):
                if n >= MAX_PROJECTS_LOOKED_AT:
                    break
                memory = os.path.join(entry.path, PROJECT_MEMORY_DIRNAME)
                if entry.is_dir(follow_symlinks=False) and os.path.isdir(memory):
                    found.append(f"{prefix}{entry.name}/{PROJECT_MEMORY_DIRNAME}")
    except OSError:
        return ()
    return tuple(sorted(found))
