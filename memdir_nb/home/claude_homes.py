"""Which folders are Claude homes: ~/.claude, CLAUDE_CONFIG_DIR's, and the XDG one.

Claude Code keeps its home in ``~/.claude``, or in the absolute ``CLAUDE_CONFIG_DIR``
(home.config). For a few 1.0.x releases in June 2025 (1.0.28 to about 1.0.31) it kept it in
``$XDG_CONFIG_HOME/claude`` instead when ``XDG_CONFIG_HOME`` was set, then went back to
``~/.claude`` without moving what it had written there (anthropics/claude-code#2360, #2302;
usage tools such as ccusage still look in both). Today's CLI reads ``~/.config/claude`` only
when ``CLAUDE_CONFIG_DIR`` names it, which its maintainers suggest for an XDG layout
(anthropics/claude-code#67853, 2026-08). So such a folder is a Claude home to list and read
(`claude_homes_in`, `discovered_homes`), never the one a project's memory resolves to unless
the variable says so; doctor notes the memory dirs it holds (reports.doctor).
"""

from __future__ import annotations

import os
from pathlib import Path

from memdir_nb.home.config import MemdirConfig
from memdir_nb.spec.constants import AGENT_MEMORY_DIRNAME, PROJECTS_DIRNAME
from memdir_nb.storage.containment import same_real_path
from memdir_nb.storage.fsutil import is_folder

# What Claude Code keeps in a Claude home from its first start; one of them marks the folder.
CLAUDE_HOME_MARKERS = (
    PROJECTS_DIRNAME,
    AGENT_MEMORY_DIRNAME,
    "settings.json",
    "settings.local.json",
)


def is_claude_home(path: Path) -> bool:
    """Whether path is a Claude home: named .claude, or holding what Claude Code keeps there."""
    return is_folder(path) and (
        path.name == ".claude" or any(os.path.lexists(path / m) for m in CLAUDE_HOME_MARKERS)
    )


def no_claude_home(path: Path) -> str:
    """Why path is no Claude home to read, with the fix: the one wording of `list`, `sessions`,
    `export --parquet` and the API behind them.

    A machine where Claude Code has never run (or runs as another user) has no ~/.claude, and
    "~/.claude is not a directory; pass a Claude home such as ~/.claude" told such a newcomer
    to pass the folder that was just looked for (fresh32).
    """
    if not os.path.lexists(path):
        return (
            f"there is no Claude home at {path} (Claude Code has not run as this user, or keeps "
            "its home elsewhere, as CLAUDE_CONFIG_DIR says); pass the Claude home to read "
            "(--home on the command line)"
        )
    return (
        f"{path} is not a directory; pass a Claude home (the folder holding projects/), "
        "such as ~/.claude"
    )


def xdg_claude_home(config: MemdirConfig) -> Path:
    """$XDG_CONFIG_HOME/claude (an absolute XDG_CONFIG_HOME only), else ~/.config/claude."""
    xdg = config.xdg_config_home
    base = Path(xdg) if xdg is not None and os.path.isabs(xdg) else config.home / ".config"
    return base / "claude"


def _holds_projects(path: Path) -> bool:
    return is_folder(path / PROJECTS_DIRNAME, follow=False)  # a symlinked projects/ leads anywhere


def _same(a: Path, b: Path) -> bool:
    try:
        return same_real_path(a, b)
    except OSError:  # a path that keeps changing while it is resolved: not known to be one
        return False


def claude_homes_in(folder: Path) -> list[Path]:
    """The Claude homes a folder names: itself when it is one; else its .claude and its
    .config/claude (when that holds projects), those that exist; else the folder itself."""
    if is_claude_home(folder):
        return [folder]
    found = [folder / ".claude"] if is_folder(folder / ".claude") else []
    xdg = folder / ".config" / "claude"
    if _holds_projects(xdg) and not any(_same(xdg, h) for h in found):
        found.append(xdg)
    return found or [folder]


def claude_homes_of(folders: list[Path]) -> list[Path]:
    """The Claude homes each folder names (claude_homes_in), each folder once: a home named
    twice, or under a second name (a symlink; a second config dir that is the same tree, as a
    fleet of config roots may hold), is read once, under the name it was first given."""
    homes: list[Path] = []
    for folder in folders:
        for home in claude_homes_in(folder):
            if not any(home == h or _same(home, h) for h in homes):
                homes.append(home)
    return homes


def discovered_homes(config: MemdirConfig) -> list[Path]:
    """The config's Claude home, then the XDG one when it holds projects and is another folder."""
    xdg = xdg_claude_home(config)
    if _holds_projects(xdg) and not _same(xdg, config.claude_home):
        return [config.claude_home, xdg]
    return [config.claude_home]


def unread_xdg_home(config: MemdirConfig) -> Path | None:
    """The XDG Claude home when it holds projects that the config's Claude home is not: what
    today's Claude Code never reads unless CLAUDE_CONFIG_DIR names it."""
    homes = discovered_homes(config)
    return homes[1] if len(homes) > 1 else None
