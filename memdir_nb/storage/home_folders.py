"""A Claude home, its projects/ folder or the home folder holding it, passed where one memory
dir is wanted (fresh34; the home folder, fresh36).

A newcomer's first guess at "my memory dir" is often `~/.claude` or `~/.claude/projects`. Both
hold memory dirs at `projects/<key>/memory/` (`<key>/memory/` under projects/), and neither is
one: read as one dir, every project's memories were scanned and linted together, and
`rebuild-index` offered to write a MEMORY.md that nothing loads. `storage.listing`'s
folder_of_memory_dirs asks this module before it looks for agent memory dirs. `~` itself
(the home folder, its Claude home in `.claude/`) said "0 memories listed" and linted clean,
since a dot folder is never walked (fresh36). An empty folder given as the memory dir gets a
note too (`empty_dir_note`).
"""

from __future__ import annotations

import os

from memdir_nb.spec.constants import CLAUDE_DIRNAME, PROJECT_MEMORY_DIRNAME, PROJECTS_DIRNAME
from memdir_nb.spec.text import terminal_line

# How many projects' folders are looked into: a home of thousands of projects is named by its
# first ones (the message names a few and one example), and the look stays cheap.
MAX_PROJECTS_LOOKED_AT = 1000


def home_memory_dirs(root: str) -> tuple[str, ...]:
    """The memory dirs under root, relative to it, when root is a Claude home (it holds
    projects/), its projects/ folder or a home folder whose .claude/ is one:
    `projects/<key>/memory` (`<key>/memory`, `.claude/projects/<key>/memory`), sorted; empty
    when root is none of these, or holds no project memory dir."""
    in_home = os.path.join(CLAUDE_DIRNAME, PROJECTS_DIRNAME)
    if os.path.basename(os.path.normpath(root)) == PROJECTS_DIRNAME:
        projects, prefix = root, ""
    elif os.path.isdir(os.path.join(root, PROJECTS_DIRNAME)):
        projects, prefix = os.path.join(root, PROJECTS_DIRNAME), f"{PROJECTS_DIRNAME}/"
    elif os.path.isdir(os.path.join(root, in_home)):
        projects, prefix = os.path.join(root, in_home), f"{in_home}/"
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


def empty_dir_note(root: str) -> str | None:
    """A note for a memory dir argument that holds nothing visible (an empty folder, or one of
    hidden files only), naming the likely mistake and the fix; None for any other folder.

    Claude Code makes a project's memory dir before its first memory, so an empty one is
    legitimate; but a mistyped or guessed path is empty too, and scan's "0 memories listed",
    lint's "0 errors, 0 warnings" and recall's "no memory clearly helps" read as a healthy dir
    (fresh36). An unreadable folder gets None: its commands name that problem themselves.
    """
    try:
        with os.scandir(root) as it:
            if any(not entry.name.startswith(".") for entry in it):
                return None
    except OSError:
        return None
    return (
        f"{terminal_line(root)} is empty (no MEMORY.md, no memory file), so nothing from it "
        "is loaded; if it is not the memory dir you meant, `memdir-nb where`, run in the "
        "project, names that project's (Claude Code keeps each in "
        "~/.claude/projects/<key>/memory/)"
    )
