"""Where memory lives for a project, and why there: the `where` report.

`where` answers "where is my memory for this project, and why there": it runs the real
resolution chain (paths.resolve_auto_mem_path) and the enable chains (gates.*_decision) on a
MemdirConfig read the way Claude Code reads its environment, settings env blocks included,
and reports each step with its source. The list of every memory dir under a Claude home
(`list_memory_dirs`) lives in memdir_nb.reports.memory_dirs; its public names are
re-exported here. Nothing here writes.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from typing import Any

from memdir_nb.home.config import (
    MEMORY_SETTINGS_KEYS,
    REPO_ENV_ALLOWED,
    TRACKED_ENV_VARS,
    MemdirConfig,
)
from memdir_nb.home.gates import AutoDreamDecision, auto_dream_decision
from memdir_nb.home.git_root import git_pointer_problem
from memdir_nb.home.paths import (
    AutoMemPathResolution,
    GateDecision,
    ResolutionStep,
    auto_memory_decision,
    find_canonical_git_root,
    find_checkout_root,
    kairos_decision,
    resolve_auto_mem_path,
    sanitize_path,
    team_memory_decision,
)
from memdir_nb.home.settings_files import ALL_LAYERS, TRUSTED_LAYERS
from memdir_nb.reports.memory_dirs import (
    AGENT_MEMORY_DIRNAME,
    AGENT_MEMORY_LOCAL_DIRNAME,
    PROJECTS_DIRNAME,
    UNTYPED,
    DirContents,
    FoundDir,
    IndexUse,
    MemoryDirInfo,
    describe_dir,
    find_memory_dirs,
    format_list,
    guess_project_path,
    list_memory_dirs,
    project_path_for_key,
    read_dir_contents,
)
from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.spec.text import terminal_line
from memdir_nb.storage.containment import real_path
from memdir_nb.storage.folder_blocker import folder_blocker

__all__ = [
    "AGENT_MEMORY_DIRNAME",
    "AGENT_MEMORY_LOCAL_DIRNAME",
    "PROJECTS_DIRNAME",
    "UNTYPED",
    "DirContents",
    "FoundDir",
    "IndexUse",
    "MemoryDirInfo",
    "SettingsFile",
    "WhereReport",
    "config_tracked_names",
    "describe_dir",
    "find_memory_dirs",
    "format_list",
    "format_where",
    "guess_project_path",
    "list_memory_dirs",
    "project_path_for_key",
    "read_dir_contents",
    "where",
]


# ---------------------------------------------------------------------------- where


@dataclass(frozen=True)
class SettingsFile:
    """One settings layer: its file, whether it exists, and whether it may choose the dir."""

    layer: str
    path: str | None
    exists: bool
    trusted_for_dir: bool
    sets: tuple[str, ...]  # the memory-related keys it sets ("autoMemoryDirectory", "env.X", ...)


@dataclass(frozen=True)
class WhereReport:
    """The memory dir the real system would use for a project, and how it got there."""

    cwd: str
    claude_home: str
    claude_home_source: str
    memory_dir: str
    source: str  # "cowork-override" | "settings:<layer>" | "default"
    exists: bool
    steps: tuple[ResolutionStep, ...]
    git_root: str | None
    checkout_root: str | None
    is_worktree: bool
    key_root: str | None
    key: str | None
    auto_memory: GateDecision
    team_memory: GateDecision
    kairos: GateDecision
    auto_dream: AutoDreamDecision
    settings_files: tuple[SettingsFile, ...]
    problems: tuple[str, ...] = ()
    ignored_env: tuple[str, ...] = ()  # "ignored: project settings may not set X (file)"
    git_pointer_problem: str | None = None  # a .git pointer that was not followed, and why
    # the memory dir itself or a folder above it is something else, so the dir can never be
    # made there: (that path, its kind such as "a FIFO"), None when nothing is in the way
    blocked_by: tuple[str, str] | None = None

    @property
    def team_dir(self) -> str:
        """The team memory dir (the memory dir's team/ folder)."""
        return os.path.join(self.memory_dir, TEAM_DIRNAME) + os.sep

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the --json output)."""
        out = asdict(self)
        out["team_dir"] = self.team_dir
        return out


_MEMORY_KEYS = MEMORY_SETTINGS_KEYS


def _settings_files(config: MemdirConfig) -> tuple[SettingsFile, ...]:
    out = []
    for layer in ALL_LAYERS:
        path = config.settings.paths.get(layer)
        data = config.settings.layer(layer)
        sets = [k for k in _MEMORY_KEYS if k in data]
        env = data.get("env")
        if isinstance(env, dict):
            sets += [f"env.{k}" for k in env if k in config_tracked_names()]
        out.append(
            SettingsFile(
                layer,
                path,
                path is not None and os.path.isfile(path),
                layer in TRUSTED_LAYERS,
                tuple(sets),
            )
        )
    return tuple(out)


def config_tracked_names() -> frozenset[str]:
    """The environment variables whose origin `where` reports."""

    return frozenset(TRACKED_ENV_VARS)


def where(config: MemdirConfig, *, git: str | None = "git") -> WhereReport:
    """Resolve the memory dir for config.cwd and record every step and decision on the way."""
    try:
        resolution = resolve_auto_mem_path(config, git=git)
    except ValueError as exc:  # CLAUDE_CODE_REMOTE_MEMORY_DIR is unusable: there is no dir
        broken = ResolutionStep(
            "default", "CLAUDE_CODE_REMOTE_MEMORY_DIR", None, "rejected", str(exc)
        )
        resolution = AutoMemPathResolution("", "none", (str(exc),), (broken,))
    # resolving the dir above already warned of an unfollowed .git pointer (and the report
    # names it): this second look must not log it again
    git_root = find_canonical_git_root(config.cwd, git=git, warn=False)
    checkout = find_checkout_root(config.cwd, git=git) if git_root is not None else None
    key_root = resolution.key_root
    key = resolution.key
    if key is None:  # the dir came from an override; say what the default key would have been
        key_root = os.fspath(git_root) if git_root else real_path(config.cwd)
        key = sanitize_path(key_root)
    default_home = config.home / ".claude"
    home_source = "HOME/.claude" if config.claude_home == default_home else "CLAUDE_CONFIG_DIR"
    return WhereReport(
        cwd=os.fspath(config.cwd),
        claude_home=os.fspath(config.claude_home),
        claude_home_source=home_source,
        memory_dir=resolution.path,
        source=resolution.source,
        exists=bool(resolution.path) and os.path.isdir(resolution.path),
        steps=resolution.steps,
        git_root=os.fspath(git_root) if git_root else None,
        checkout_root=os.fspath(checkout) if checkout else None,
        is_worktree=bool(git_root and checkout and os.fspath(checkout) != os.fspath(git_root)),
        key_root=key_root,
        key=key,
        auto_memory=auto_memory_decision(config),
        team_memory=team_memory_decision(config),
        kairos=kairos_decision(config),
        auto_dream=auto_dream_decision(config),
        settings_files=_settings_files(config),
        problems=tuple(config.settings_problems),
        ignored_env=tuple(i.describe() for i in config.ignored_env),
        git_pointer_problem=pointer[1] if (pointer := git_pointer_problem(config.cwd)) else None,
        blocked_by=folder_blocker(resolution.path) if resolution.path else None,
    )


def _dir_state(report: WhereReport) -> str:
    """What follows the dir on where's first line: nothing, or why it is not there."""
    if report.blocked_by:
        where, kind = report.blocked_by
        return f"  (cannot be made: {terminal_line(where)} is {kind}; see memdir-nb doctor)"
    return "" if report.exists else "  (does not exist yet)"


def _on(decision: GateDecision) -> str:
    return "on " if decision.enabled else "off"


def format_where(report: WhereReport) -> str:
    """The report as text for the terminal: the dir first, then each step and decision."""
    # a path may hold a newline (a trusted setting can name one): each shows on its own line
    lines = [
        f"memory dir: {terminal_line(report.memory_dir)}" + _dir_state(report),
        f"  chosen by: {report.source}",
        f"project:    {terminal_line(report.cwd)}",
    ]
    if report.git_root:
        lines.append(
            f"git root:   {terminal_line(report.git_root)} (canonical: shared by every worktree)"
        )
        if report.is_worktree:
            lines.append(
                f"worktree:   {terminal_line(report.checkout_root)} (a linked worktree of the git root)"
            )
    else:
        lines.append("git root:   none (not in a git repository; the project folder is the key)")
    if report.git_pointer_problem:
        lines.append(
            "            (a .git pointer here was not followed, so this folder is its own root: "
            f"{terminal_line(report.git_pointer_problem)})"
        )
    lines.append(
        f"key:        {terminal_line(report.key)}  (from {terminal_line(report.key_root)})"
    )
    lines.append(
        f"Claude home: {terminal_line(report.claude_home)} (from {report.claude_home_source})"
    )
    lines.append("")
    lines.append("resolution chain (first match wins):")
    for n, step in enumerate(report.steps, 1):
        value = f" = {step.value!r}" if step.value is not None else ""
        detail = f": {step.detail}" if step.detail else ""
        # a step's source names a settings file under the project folder, whatever its name
        lines.append(
            terminal_line(f"  {n}. {step.rule}{value} in {step.source} -> {step.outcome}{detail}")
        )
    lines.append("")
    lines.append("enabled (five levels: disable env, bare mode, remote, settings, default):")
    for label, d in (
        ("auto memory", report.auto_memory),
        ("team memory", report.team_memory),
        ("KAIROS", report.kairos),
    ):
        lines.append(
            terminal_line(f"  {label:<12} {_on(d)}  level {d.level}: {d.reason} (from {d.source})")
        )
    dream = report.auto_dream
    state = {True: "on ", False: "off", None: "?  "}[dream.enabled]
    lines.append(
        terminal_line(f"  {'auto dream':<12} {state}  {dream.reason} (from {dream.source})")
    )
    if report.ignored_env:
        lines.append("")
        lines.append(
            "repository settings (a project's settings env block may set only "
            f"{', '.join(sorted(REPO_ENV_ALLOWED))}, and only to 1/true, to switch memory off):"
        )
        lines += [f"  - {terminal_line(text)}" for text in report.ignored_env]
    if report.problems:
        lines.append("")
        lines.append("settings problems:")
        lines += [f"  - {terminal_line(p)}" for p in report.problems]
    return "\n".join(lines)
