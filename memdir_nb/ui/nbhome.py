"""The Claude homes a notebook's folder names, for its pickers: memory dirs and sessions.

A notebook's parameters (MEMORY_DIR, CLAUDE_HOME) or MEMDIR_NB_DIR may name a Claude home or the
home folder holding one. Which folders are Claude homes is one rule, home.claude_homes:
the folder itself when it is one, else its ``.claude`` and its XDG ``.config/claude`` (where
some Claude Code releases kept it, and where CLAUDE_CONFIG_DIR points on an XDG layout).
The notebooks ask here, so a user whose home is ``~/.config/claude`` sees their dirs and
sessions as one whose home is ``~/.claude`` does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.home.claude_homes import claude_homes_in, discovered_homes, is_claude_home
from memdir_nb.home.config import MemdirConfig
from memdir_nb.home.sessions import SessionFile, described, iter_session_files, list_sessions
from memdir_nb.reports.memory_dirs import find_memory_dirs, project_path_for_key
from memdir_nb.spec.constants import PROJECT_MEMORY_DIRNAME, PROJECTS_DIRNAME
from memdir_nb.spec.text import terminal_line
from memdir_nb.ui.views.common import is_demo_dir

__all__ = [
    "ProjectSessions",
    "claude_homes_named",
    "home_with_sessions",
    "key_naming_no_folder",
    "memory_dirs_named",
    "project_of_memory_dir",
    "sessions_beside_memory_dir",
    "why_the_sample",
]


def claude_homes_named(
    folder: str | os.PathLike[str], *, config: MemdirConfig | None = None
) -> list[Path]:
    """The Claude homes folder names, [] when none. The user's own home folder (``~``) names
    the homes Claude Code and `memdir-nb list` find for this user (home.claude_homes.discovered_homes:
    CLAUDE_CONFIG_DIR's, else ~/.claude, then the XDG one holding projects); any other folder
    names itself when it is one, else its .claude and its .config/claude that exist
    (claude_homes_in)."""
    config = config or MemdirConfig.from_environment()
    path = config.expand_user(folder)
    homes = discovered_homes(config) if _same_folder(path, config.home) else claude_homes_in(path)
    return [home for home in homes if is_claude_home(home)]


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them is missing: not the same folder
        return False


def memory_dirs_named(
    folder: str | os.PathLike[str], *, config: MemdirConfig | None = None
) -> list[Path]:
    """The memory dirs under the Claude homes folder names, home by home ([] when none); a
    home that cannot be listed gives none."""
    dirs: list[Path] = []
    for home in claude_homes_named(folder, config=config):
        try:
            dirs.extend(found.path for found in find_memory_dirs(home))
        except (OSError, ValueError):
            continue
    return dirs


def home_with_sessions(
    folder: str | os.PathLike[str], *, config: MemdirConfig | None = None
) -> Path | None:
    """The first Claude home folder names that holds a main session with a prompt (what the
    replay notebook shows), else None."""
    for home in claude_homes_named(folder, config=config):
        try:
            sessions = list_sessions(home)
        except OSError:
            continue
        if any(s.turns for s in sessions if not s.is_subagent):
            return home
    return None


@dataclass(frozen=True)
class ProjectSessions:
    """The sessions of one project folder of a Claude home (`<home>/projects/<key>`)."""

    home: Path  # the Claude home (the folder holding projects/)
    project: Path  # <home>/projects/<key>, beside its memory dir
    sessions: list[SessionFile]  # its transcripts, main sessions and subagents, read


def _project_folder(named: str | os.PathLike[str], config: MemdirConfig) -> Path | None:
    """The `<home>/projects/<key>` folder holding a memory dir at `.../projects/<key>/memory`,
    None when the dir is not so placed."""
    memory = Path(os.path.abspath(config.expand_user(named)))
    project = memory.parent
    if memory.name != PROJECT_MEMORY_DIRNAME or project.parent.name != PROJECTS_DIRNAME:
        return None
    return project


def project_of_memory_dir(
    chosen: str | os.PathLike[str] | None = None, *, config: MemdirConfig | None = None
) -> Path | None:
    """The project folder whose memory dir chosen (else MEMDIR_NB_DIR) is, when it sits at
    `<home>/projects/<key>/memory`: the cwd its transcripts ran in, else the folder its key
    names on this machine (as `memdir-nb list` tells it); None when it cannot be told.

    The where-and-doctor notebook asks here (fresh36): run from lab/ with MEMDIR_NB_DIR set,
    it explained the memdir_nb checkout's own memory dir and noted the one asked about as
    "another dir".
    """
    config = config or MemdirConfig.from_environment()
    named = chosen or config.demo_dir
    folder = _project_folder(named, config) if named else None
    if folder is None:
        return None
    found = project_path_for_key(folder)
    return Path(found) if found and os.path.isdir(found) else None


def key_naming_no_folder(
    chosen: str | os.PathLike[str] | None = None, *, config: MemdirConfig | None = None
) -> str | None:
    """The key of a memory dir at `<home>/projects/<key>/memory` (chosen, else MEMDIR_NB_DIR)
    whose project is no folder on this machine (moved, deleted, or the dir copied from
    elsewhere); None when the dir is not so placed or its project is found. The where-and-doctor
    notebook says so instead of explaining the working folder's project (lefts40)."""
    config = config or MemdirConfig.from_environment()
    named = chosen or config.demo_dir
    folder = _project_folder(named, config) if named else None
    if folder is None or project_of_memory_dir(named, config=config) is not None:
        return None
    return folder.name


def sessions_beside_memory_dir(
    chosen: str | os.PathLike[str] | None = None, *, config: MemdirConfig | None = None
) -> ProjectSessions | None:
    """The sessions beside a memory dir at `<home>/projects/<key>/memory` (chosen, else
    MEMDIR_NB_DIR): the project's own transcripts, which Claude Code keeps in the folder
    holding that dir. None when the dir is not so placed or no main session there has a
    prompt: the replay notebook then shows its bundled sample (keep35; it ignored
    MEMDIR_NB_DIR, so `make lab` on a real dir replayed the sample's sessions)."""
    config = config or MemdirConfig.from_environment()
    named = chosen or config.demo_dir
    project = _project_folder(named, config) if named else None
    if project is None:
        return None
    home = project.parent.parent
    sessions = [
        described(info)
        for info in iter_session_files(home, heads=False)
        if info.project == project.name
    ]
    if not any(s.turns for s in sessions if not s.is_subagent):
        return None
    return ProjectSessions(home, project, sessions)


def why_the_sample(
    chosen: str | os.PathLike[str] | None = None, *, config: MemdirConfig | None = None
) -> str | None:
    """Why the replay notebook shows its bundled sample though a memory dir was named (chosen,
    else MEMDIR_NB_DIR); None when none was, or it is the demo dir (no sessions of its own).

    fresh38: pointed at a memory dir outside any Claude home, the notebook printed `Claude
    home: claude` and replayed the sample's sessions without a word about the dir it was given.
    """
    config = config or MemdirConfig.from_environment()
    named = chosen or config.demo_dir
    if not named or is_demo_dir(config.expand_user(named)):
        return None
    shown = terminal_line(os.fspath(named))
    project = _project_folder(named, config)
    if project is None:
        where = (
            f"{shown} is not a project's memory dir in a Claude home "
            f"(<home>/{PROJECTS_DIRNAME}/<key>/{PROJECT_MEMORY_DIRNAME}), so no session "
            "transcripts are kept beside it"
        )
    else:
        where = (
            f"no session with a prompt is kept beside {shown} (in {terminal_line(str(project))})"
        )
    return f"{where}: the bundled sample is replayed instead (set CLAUDE_HOME above to pick a home)"
