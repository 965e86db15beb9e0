"""Where memory lives for a project, and every memory dir under a Claude home.

`where` answers "where is my memory for this project, and why there": it runs the real
resolution chain (paths.resolve_auto_mem_path) and the enable chains (paths.*_decision) on a
MemdirConfig read the way Claude Code reads its environment, settings env blocks included,
and reports each step with its source. `list_memory_dirs` finds every project and agent
memory dir under a Claude home with counts, ages and index use against the caps.
Nothing here writes.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memdir_nb.formats.index import truncate_entrypoint_content
from memdir_nb.formats.jsonio import loads_bounded
from memdir_nb.home.config import (
    ALL_LAYERS,
    REPO_ENV_ALLOWED,
    TRACKED_ENV_VARS,
    TRUSTED_LAYERS,
    MemdirConfig,
)
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
from memdir_nb.lint import read_scope_indexes
from memdir_nb.spec.constants import (
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    TEAM_DIRNAME,
    TRANSCRIPT_LINE_MAX_BYTES,
)
from memdir_nb.spec.freshness import memory_age_days
from memdir_nb.spec.text import plural
from memdir_nb.storage.access import read_regular_file
from memdir_nb.storage.scan import scan_memory_dir

AGENT_MEMORY_DIRNAME = "agent-memory"
AGENT_MEMORY_LOCAL_DIRNAME = "agent-memory-local"
PROJECTS_DIRNAME = "projects"
UNTYPED = "untyped"  # the count of memories with no (or an unknown) type
# Guessing a project's path from its key walks real folders; this bounds the folders listed.
MAX_GUESS_LISTINGS = 64
# How much of a session transcript is read when looking for the project's cwd.
TRANSCRIPT_PEEK_BYTES = 64 * 1024


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
    settings_files: tuple[SettingsFile, ...]
    problems: tuple[str, ...] = ()
    ignored_env: tuple[str, ...] = ()  # "ignored: project settings may not set X (file)"
    git_pointer_problem: str | None = None  # a .git pointer that was not followed, and why

    @property
    def team_dir(self) -> str:
        """The team memory dir (the memory dir's team/ folder)."""
        return os.path.join(self.memory_dir, TEAM_DIRNAME) + os.sep

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the --json output)."""
        out = asdict(self)
        out["team_dir"] = self.team_dir
        return out


_MEMORY_KEYS = ("autoMemoryDirectory", "autoMemoryEnabled")


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
    git_root = find_canonical_git_root(config.cwd, git=git)
    checkout = find_checkout_root(config.cwd, git=git) if git_root is not None else None
    key_root = resolution.key_root
    key = resolution.key
    if key is None:  # the dir came from an override; say what the default key would have been
        key_root = os.fspath(git_root) if git_root else os.path.realpath(config.cwd)
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
        settings_files=_settings_files(config),
        problems=tuple(config.settings_problems),
        ignored_env=tuple(i.describe() for i in config.ignored_env),
        git_pointer_problem=pointer[1] if (pointer := git_pointer_problem(config.cwd)) else None,
    )


def _on(decision: GateDecision) -> str:
    return "on " if decision.enabled else "off"


def format_where(report: WhereReport) -> str:
    """The report as text for the terminal: the dir first, then each step and decision."""
    lines = [
        f"memory dir: {report.memory_dir}" + ("" if report.exists else "  (does not exist yet)"),
        f"  chosen by: {report.source}",
        f"project:    {report.cwd}",
    ]
    if report.git_root:
        lines.append(f"git root:   {report.git_root} (canonical: shared by every worktree)")
        if report.is_worktree:
            lines.append(f"worktree:   {report.checkout_root} (a linked worktree of the git root)")
    else:
        lines.append("git root:   none (not in a git repository; the project folder is the key)")
    if report.git_pointer_problem:
        lines.append(
            "            (a .git pointer here was not followed, so this folder is its own root: "
            f"{report.git_pointer_problem})"
        )
    lines.append(f"key:        {report.key}  (from {report.key_root})")
    lines.append(f"Claude home: {report.claude_home} (from {report.claude_home_source})")
    lines.append("")
    lines.append("resolution chain (first match wins):")
    for n, step in enumerate(report.steps, 1):
        value = f" = {step.value!r}" if step.value is not None else ""
        detail = f": {step.detail}" if step.detail else ""
        lines.append(f"  {n}. {step.rule}{value} in {step.source} -> {step.outcome}{detail}")
    lines.append("")
    lines.append("enabled (five levels: disable env, bare mode, remote, settings, default):")
    for label, d in (
        ("auto memory", report.auto_memory),
        ("team memory", report.team_memory),
        ("KAIROS", report.kairos),
    ):
        lines.append(f"  {label:<12} {_on(d)}  level {d.level}: {d.reason} (from {d.source})")
    if report.ignored_env:
        lines.append("")
        lines.append(
            "repository settings (a project's settings env block may set only "
            f"{', '.join(sorted(REPO_ENV_ALLOWED))}, and only to 1/true, to switch memory off):"
        )
        lines += [f"  - {text}" for text in report.ignored_env]
    if report.problems:
        lines.append("")
        lines.append("settings problems:")
        lines += [f"  - {p}" for p in report.problems]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- list


@dataclass(frozen=True)
class IndexUse:
    """One MEMORY.md against its caps."""

    scope: str
    exists: bool
    lines: int
    bytes: int
    truncated: bool
    problem: str | None = None  # the index is not a regular file (FIFO, folder, ...): not read
    line_cap: int = MAX_ENTRYPOINT_LINES
    byte_cap: int = MAX_ENTRYPOINT_BYTES


@dataclass(frozen=True)
class MemoryDirInfo:
    """One memory dir under a Claude home, with its headline figures."""

    path: str
    kind: str  # "project" | "agent:user" | "agent:project" | "agent:local"
    key: str  # the folder name under projects/ (or the agent type)
    project_path: str | None  # the project the dir belongs to, where it can be told
    memories: int
    by_type: dict[str, int] = field(default_factory=dict)
    by_scope: dict[str, int] = field(default_factory=dict)
    newest_age_days: int | None = None
    oldest_age_days: int | None = None
    indexes: tuple[IndexUse, ...] = ()
    skipped: int = 0

    @property
    def truncated(self) -> bool:
        """Whether any of its indexes is cut when loaded."""
        return any(ix.truncated for ix in self.indexes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out = asdict(self)
        out["truncated"] = self.truncated
        return out


@dataclass(frozen=True)
class DirContents:
    """What one read of a memory dir found: every header, both indexes, what was skipped."""

    headers: list[Any]
    indexes: list[Any]  # lint.ScopeIndex, one per MEMORY.md
    uses: list[IndexUse]
    skipped: int


def read_dir_contents(memory_dir: str | os.PathLike[str]) -> DirContents:
    """Scan every memory header (no cap) and read both indexes against their caps."""

    report = scan_memory_dir(memory_dir, limit=None)
    indexes = read_scope_indexes(memory_dir)
    uses = []
    for ix in indexes:
        t = truncate_entrypoint_content(ix.text)
        uses.append(
            IndexUse(
                ix.scope,
                ix.exists,
                t.line_count,
                t.byte_count,
                t.was_line_truncated or t.was_byte_truncated,
                ix.problem,
            )
        )
    return DirContents(list(report.headers), indexes, uses, len(report.skipped))


@dataclass(frozen=True)
class FoundDir:
    """A memory dir found under a Claude home, before it is read."""

    path: Path
    kind: str
    key: str
    project_path: str | None


def describe_dir(
    found: FoundDir, contents: DirContents, *, now_ms: float | None = None
) -> MemoryDirInfo:
    """Counts by type and scope, ages and index use of one memory dir."""

    headers = contents.headers
    ages = [memory_age_days(h.mtime_ms, now_ms) for h in headers]
    return MemoryDirInfo(
        path=os.fspath(found.path),
        kind=found.kind,
        key=found.key,
        project_path=found.project_path,
        memories=len(headers),
        by_type=dict(sorted(Counter(h.type.value if h.type else UNTYPED for h in headers).items())),
        by_scope=dict(sorted(Counter(h.scope for h in headers).items())),
        newest_age_days=min(ages) if ages else None,
        oldest_age_days=max(ages) if ages else None,
        indexes=tuple(contents.uses),
        skipped=contents.skipped,
    )


def _cwd_from_transcripts(project_dir: Path) -> str | None:
    """The cwd recorded in the project's newest session transcript (first 64 KB), if any."""
    try:
        transcripts = sorted(
            (p for p in project_dir.glob("*.jsonl") if p.is_file() and not p.is_symlink()),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return None
    for path in transcripts[:3]:
        try:
            head = read_regular_file(path, TRANSCRIPT_PEEK_BYTES).data
        except OSError:
            continue
        for line in head.decode("utf-8", errors="replace").splitlines():
            try:
                record = loads_bounded(
                    line, max_bytes=TRANSCRIPT_LINE_MAX_BYTES, what="a transcript line"
                )
            except ValueError:  # bad JSON, or over the size or depth cap (JSONLimitError)
                continue
            if isinstance(record, dict) and isinstance(record.get("cwd"), str):
                return str(record["cwd"])
    return None


def guess_project_path(
    key: str, *, root: str = os.sep, listings: dict[str, list[tuple[str, str]]] | None = None
) -> str | None:
    """An existing folder whose sanitised path is ``key``, found by walking real folders.

    ``listings`` caches folder listings across calls (one `list` run looks up many keys that
    share their first folders); only listings this call makes count against its budget.
    """
    budget = [MAX_GUESS_LISTINGS]
    cache: dict[str, list[tuple[str, str]]] = {} if listings is None else listings

    def walk(folder: str, rest: str) -> str | None:
        if rest == "":
            return folder
        if budget[0] <= 0 or not rest.startswith("-"):
            return None
        names = cache.get(folder)
        if names is None:
            budget[0] -= 1
            try:
                names = [("-" + sanitize_path(n), n) for n in sorted(os.listdir(folder))]
            except OSError:
                names = []
            cache[folder] = names
        for piece, name in names:
            if rest == piece or rest.startswith(piece + "-"):
                child = os.path.join(folder, name)
                if os.path.isdir(child) and not os.path.islink(child):
                    found = walk(child, rest[len(piece) :])
                    if found is not None:
                        return found
        return None

    return walk(root, key)


def project_path_for_key(
    project_dir: Path, *, listings: dict[str, list[tuple[str, str]]] | None = None
) -> str | None:
    """The project a projects/<key> folder belongs to: from transcripts, else the filesystem."""
    key = project_dir.name
    seen = _cwd_from_transcripts(project_dir)
    if seen is not None:
        for folder in (Path(seen), *Path(seen).parents):
            if sanitize_path(os.fspath(folder)) == key:
                return os.fspath(folder)
    return guess_project_path(key, listings=listings)


def _agent_dirs(base: Path) -> list[Path]:
    if not base.is_dir() or base.is_symlink():
        return []
    return [
        d
        for d in sorted(base.iterdir())
        if d.is_dir() and not d.is_symlink() and not d.name.startswith(".")
    ]


def find_memory_dirs(claude_home: str | os.PathLike[str]) -> list[FoundDir]:
    """Every project memory dir and agent memory dir under a Claude home (nothing read yet)."""
    home = Path(claude_home)
    if not home.is_dir():
        raise ValueError(
            f"{home} is not a directory; pass a Claude home (the folder holding projects/), "
            "such as ~/.claude"
        )
    found: list[FoundDir] = []
    projects = home / PROJECTS_DIRNAME
    project_paths: list[str] = []
    listings: dict[str, list[tuple[str, str]]] = {}
    if projects.is_dir() and not projects.is_symlink():
        for project in sorted(projects.iterdir()):
            memory = project / "memory"
            # A symlinked project or memory folder could lead anywhere: only real folders count.
            if project.is_symlink() or memory.is_symlink() or not memory.is_dir():
                continue
            path = project_path_for_key(project, listings=listings)
            if path:
                project_paths.append(path)
            found.append(FoundDir(memory, "project", project.name, path))
    for d in _agent_dirs(home / AGENT_MEMORY_DIRNAME):
        found.append(FoundDir(d, "agent:user", d.name, None))
    for project_path in sorted(set(project_paths)):
        claude = Path(project_path) / ".claude"
        for sub, kind in (
            (AGENT_MEMORY_DIRNAME, "agent:project"),
            (AGENT_MEMORY_LOCAL_DIRNAME, "agent:local"),
        ):
            for d in _agent_dirs(claude / sub):
                found.append(FoundDir(d, kind, d.name, project_path))
    return found


def list_memory_dirs(
    claude_home: str | os.PathLike[str], *, now_ms: float | None = None
) -> list[MemoryDirInfo]:
    """Every project and agent memory dir under a Claude home, with counts, ages and index use."""
    return [
        describe_dir(found, read_dir_contents(found.path), now_ms=now_ms)
        for found in find_memory_dirs(claude_home)
    ]


def format_list(infos: list[MemoryDirInfo]) -> str:
    """One block per dir: where, whose, counts, ages, index use; then a total line."""
    lines = []
    for info in infos:
        lines.append(f"{info.path}  [{info.kind}]")
        lines.append(
            f"  project: {info.project_path or '(cannot be told from the key ' + info.key + ')'}"
        )
        types = ", ".join(f"{k} {v}" for k, v in info.by_type.items()) or "none"
        scopes = ", ".join(f"{k} {v}" for k, v in info.by_scope.items()) or "none"
        lines.append(f"  {plural(info.memories, 'memory')}: {types}; scope: {scopes}")
        if info.newest_age_days is not None:
            lines.append(
                f"  newest {plural(info.newest_age_days, 'day')} old, "
                f"oldest {plural(info.oldest_age_days or 0, 'day')} old"
            )
        for ix in info.indexes:
            if ix.problem:
                lines.append(f"  {ix.scope} index: {ix.problem}")
                continue
            if not ix.exists:
                lines.append(f"  {ix.scope} index: no MEMORY.md")
                continue
            state = "TRUNCATED when loaded" if ix.truncated else "fits"
            lines.append(
                f"  {ix.scope} index: {ix.lines}/{ix.line_cap} lines, "
                f"{ix.bytes:,}/{ix.byte_cap:,} bytes, {state}"
            )
    lines.append(f"{plural(len(infos), 'memory dir')} found.")
    return "\n".join(lines)
