"""Where memory lives: the memory dir resolution chain, the team dir, agent memory dirs.

Finding the git root that keys a project lives in memdir_nb.home.git_root, the path rules
(validation, the project key) in memdir_nb.home.path_rules and the enable chains in
memdir_nb.home.gates; their public names are re-exported here, where callers have always
found them.

The auto-memory directory is resolved in the spec's priority order (first match wins):

1. ``CLAUDE_COWORK_MEMORY_PATH_OVERRIDE`` (validated, no ``~`` expansion);
2. ``autoMemoryDirectory`` from trusted settings, policy > flag > local > user (``~/`` expanded,
   validated; an invalid value is skipped and the next source is tried). Project settings
   (``<repo>/.claude/settings.json``) are never consulted: a cloned repo must not be able to
   aim memory writes at ``~/.ssh``;
3. ``{memoryBase}/projects/{sanitize_path(canonical git root)}/memory/`` with memoryBase
   ``CLAUDE_CODE_REMOTE_MEMORY_DIR`` or ``~/.claude``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.formats.names import component_problem, folder_problem
from memdir_nb.home.config import MemdirConfig
from memdir_nb.home.gates import (
    ENABLE_LEVELS,
    GateDecision,
    auto_memory_decision,
    auto_memory_status,
    is_auto_memory_enabled,
    is_extract_mode_active,
    is_team_memory_enabled,
    kairos_decision,
    team_memory_decision,
)
from memdir_nb.home.git_root import (
    find_canonical_git_root,
    find_checkout_root,
    project_key_root_of,
)
from memdir_nb.home.path_rules import (
    MAX_SANITIZED_LENGTH,
    cache_folder_problem,
    memory_path_problem,
    rewritten_note,
    sanitize_path,
    validate_memory_path,
)
from memdir_nb.home.settings_files import ALL_LAYERS, TRUSTED_LAYERS
from memdir_nb.security.log_lines import OneLineRecords
from memdir_nb.spec.constants import (
    AGENT_MEMORY_DIRNAME,
    AGENT_MEMORY_LOCAL_DIRNAME,
    PROJECT_MEMORY_DIRNAME,
    PROJECTS_DIRNAME,
    TEAM_DIRNAME,
)
from memdir_nb.spec.text import terminal_safe
from memdir_nb.storage.containment import PathTraversalError, validate_project_path
from memdir_nb.storage.folder_blocker import make_memory_dir
from memdir_nb.storage.name_twins import twin_spelling

__all__ = [
    "AGENT_MEMORY_SCOPES",
    "ENABLE_LEVELS",
    "MAX_SANITIZED_LENGTH",
    "AutoMemPathResolution",
    "GateDecision",
    "ResolutionStep",
    "auto_memory_decision",
    "auto_memory_status",
    "derived_output_problem",
    "ensure_memory_dir_exists",
    "find_canonical_git_root",
    "find_checkout_root",
    "get_agent_memory_dir",
    "get_auto_mem_path",
    "get_memory_base_dir",
    "get_team_mem_path",
    "is_auto_memory_enabled",
    "is_extract_mode_active",
    "is_team_memory_enabled",
    "kairos_decision",
    "memory_path_problem",
    "project_key_root",
    "resolve_auto_mem_path",
    "sanitize_agent_type_for_path",
    "sanitize_path",
    "team_memory_decision",
    "validate_memory_path",
]

logger = logging.getLogger(__name__)
logger.addFilter(OneLineRecords())  # a warning is one line, whatever it names

AGENT_MEMORY_SCOPES: tuple[str, ...] = ("user", "project", "local")


# --------------------------------------------------------------------------- resolution


@dataclass(frozen=True)
class ResolutionStep:
    """One candidate of the memory dir chain: the rule, where its value came from, what happened."""

    rule: str  # "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE" | "autoMemoryDirectory" | "default"
    source: str  # "the environment", "user settings (/home/me/.claude/settings.json)", ...
    value: str | None
    outcome: str  # "used" | "not set" | "rejected" | "ignored" | "shadowed"
    detail: str = ""


@dataclass(frozen=True)
class AutoMemPathResolution:
    """The resolved memory dir, which rule chose it, and every candidate with its outcome."""

    path: str
    source: str  # "cowork-override" | "settings:<layer>" | "default"
    skipped: tuple[str, ...] = ()
    steps: tuple[ResolutionStep, ...] = ()
    key_root: str | None = None  # the folder whose sanitised path is the key (default rule only)
    key: str | None = None  # the sanitised key (default rule only)
    memory_base: str | None = None  # the folder holding projects/ (default rule only)


def get_memory_base_dir(config: MemdirConfig) -> Path:
    """CLAUDE_CODE_REMOTE_MEMORY_DIR when set (must be absolute), else ~/.claude."""
    if config.remote_memory_dir is None:
        return config.claude_home
    valid, problem = memory_path_problem(config.remote_memory_dir, False, home=config.home)
    if valid is None:
        raise ValueError(
            f"CLAUDE_CODE_REMOTE_MEMORY_DIR={config.remote_memory_dir!r} {problem}; "
            "set it to an absolute directory path or unset it."
        )
    return Path(valid)


def project_key_root(config: MemdirConfig, *, git: str | None = "git") -> Path:
    """The folder whose sanitised path names the project's memory: git root, else cwd."""
    return project_key_root_of(config.cwd, git=git)


def _override_step(config: MemdirConfig) -> tuple[ResolutionStep, str | None]:
    """Rule 1, the cowork override: its step, and the validated path when it wins."""
    name = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
    raw = config.cowork_memory_override
    source = config.describe_env_source(name)
    if raw is None:
        return ResolutionStep(name, source, None, "not set"), None
    valid, problem = memory_path_problem(raw, False, home=config.home)
    if valid is None:
        return ResolutionStep(name, source, raw, "rejected", str(problem)), None
    return ResolutionStep(name, source, raw, "used", rewritten_note(raw)), valid


def _setting_steps(config: MemdirConfig, decided: bool) -> tuple[list[ResolutionStep], str | None]:
    """Rule 2 over every settings layer; the path of the first valid trusted value, if any."""
    steps: list[ResolutionStep] = []
    chosen: str | None = None
    for layer in ALL_LAYERS:
        value = config.settings.layer(layer).get("autoMemoryDirectory")
        source = config.settings.describe(layer)
        shown = value if isinstance(value, str) or value is None else repr(value)
        if value is None:
            steps.append(ResolutionStep("autoMemoryDirectory", source, None, "not set"))
            continue
        if layer not in TRUSTED_LAYERS:
            steps.append(
                ResolutionStep(
                    "autoMemoryDirectory",
                    source,
                    shown,
                    "ignored",
                    "a repository's settings are never trusted to choose the memory dir",
                )
            )
            continue
        valid: str | None
        problem: str | None
        if not isinstance(value, str):
            valid, problem = None, f"is not a string (got {type(value).__name__})"
        else:
            valid, problem = memory_path_problem(value, True, home=config.home)
        if valid is None:
            steps.append(
                ResolutionStep("autoMemoryDirectory", source, shown, "rejected", str(problem))
            )
        elif decided or chosen is not None:
            steps.append(
                ResolutionStep(
                    "autoMemoryDirectory", source, shown, "shadowed", "an earlier rule already won"
                )
            )
        else:
            note = rewritten_note(value)
            steps.append(ResolutionStep("autoMemoryDirectory", source, shown, "used", note))
            chosen = valid
    return steps, chosen


def _base_source(config: MemdirConfig) -> str:
    if config.remote_memory_dir is not None:
        where = config.describe_env_source("CLAUDE_CODE_REMOTE_MEMORY_DIR")
        return f"CLAUDE_CODE_REMOTE_MEMORY_DIR from {where}"
    return "the Claude home"


def _project_name_step(config: MemdirConfig) -> tuple[ResolutionStep | None, str | None]:
    """CLAUDE_CODE_PROJECT_DIR_NAME: its step, and the folder name when it pins the key.

    Current Claude Code honours it only together with CLAUDE_CONFIG_DIR; it must be one plain
    folder name (the name gate's component rule), never a path.
    """
    name = "CLAUDE_CODE_PROJECT_DIR_NAME"
    raw = config.project_dir_name
    if raw is None:
        return None, None
    source = config.describe_env_source(name)
    if not config.config_dir_set:
        detail = (
            "honoured only together with CLAUDE_CONFIG_DIR (an absolute path), which is not set"
        )
        return ResolutionStep(name, source, raw, "ignored", detail), None
    problem = component_problem(raw) or (
        "starts with a dot, so the project folder would be hidden" if raw.startswith(".") else None
    )
    if problem is not None:
        return ResolutionStep(
            name, source, raw, "rejected", f"{problem}; use one folder name"
        ), None
    detail = "with CLAUDE_CONFIG_DIR set, this names the project folder instead of the path key"
    return ResolutionStep(name, source, raw, "used", detail), raw


def resolve_auto_mem_path(
    config: MemdirConfig, *, git: str | None = "git"
) -> AutoMemPathResolution:
    """Resolve the auto-memory dir and say why (which source won, what was skipped or ignored)."""
    override_step, override = _override_step(config)
    setting_steps, setting = _setting_steps(config, decided=override is not None)
    steps = (override_step, *setting_steps)
    skipped = tuple(
        f"{st.rule}={st.value!r} {st.detail}"
        if st.rule != "autoMemoryDirectory"
        else f"{st.source.split(' (')[0]} autoMemoryDirectory={st.value!r} {st.detail}"
        for st in steps
        if st.outcome == "rejected"
    )
    for note in skipped:
        logger.warning("ignoring %s", note)
    if override is not None:
        return AutoMemPathResolution(override, "cowork-override", skipped, steps)
    if setting is not None:
        layer = next(st.source.split(" ")[0] for st in setting_steps if st.outcome == "used")
        return AutoMemPathResolution(setting, f"settings:{layer}", skipped, steps)
    base = get_memory_base_dir(config)
    root = project_key_root(config, git=git)
    name_step, pinned = _project_name_step(config)
    key = pinned if pinned is not None else sanitize_path(root)
    path = os.path.join(os.fspath(base), PROJECTS_DIRNAME, key, PROJECT_MEMORY_DIRNAME) + os.sep
    default = ResolutionStep(
        "default", _base_source(config), "{memoryBase}/projects/{key}/memory/", "used"
    )
    return AutoMemPathResolution(
        unicodedata.normalize("NFC", path),
        "default",
        skipped,
        (*steps, *((name_step,) if name_step else ()), default),
        key_root=os.fspath(root),
        key=key,
        memory_base=os.fspath(base),
    )


def get_auto_mem_path(config: MemdirConfig) -> str:
    """The auto-memory directory for this config, with exactly one trailing separator."""
    return resolve_auto_mem_path(config).path


def derived_output_problem(
    where: str | os.PathLike[str],
    config: MemdirConfig | None = None,
    *,
    claude_homes: Iterable[str | os.PathLike[str]] = (),
    memory_dirs: Iterable[str | os.PathLike[str]] = (),
    notes: bool = True,
) -> str | None:
    """Why a file memdir_nb derives from memories (a cache, an export, an archive) cannot be
    written at where (a folder, or a file's path), else None: `cache_folder_problem` asked for
    the config's Claude home and each of claude_homes, with the config's memory dirs (its
    variables and the project's auto-memory dir) and memory_dirs (the dir the file is made
    from). An explicit argument goes through here, as MEMDIR_NB_CACHE_DIR does (bounds37)."""
    config = config or MemdirConfig.from_environment()
    dirs = [os.fspath(d) for d in memory_dirs]
    dirs += [d for d in (config.cowork_memory_override, config.remote_memory_dir) if d]
    with contextlib.suppress(OSError, ValueError):  # no auto-memory dir: none to refuse
        dirs.append(get_auto_mem_path(config))
    folder = os.path.abspath(os.fspath(config.expand_user(where)))
    for home in (config.claude_home, *claude_homes):
        why = cache_folder_problem(
            folder,
            os.path.abspath(home),
            os.fspath(config.cwd),
            tuple(dirs),
            notes=notes,
            home=config.home,
        )
        if why:
            return why
    return None


def get_team_mem_path(config: MemdirConfig) -> str:
    """The team memory dir: the auto-memory dir's ``team`` subfolder, one trailing separator."""
    return os.path.join(get_auto_mem_path(config), TEAM_DIRNAME) + os.sep


def ensure_memory_dir_exists(path: str | os.PathLike[str]) -> bool:
    """mkdir -p the memory dir; True if it exists afterwards. Logs and returns False on error."""
    try:
        make_memory_dir(path)  # what blocks it (a FIFO or a link above it) is named (attack40)
    except OSError as exc:
        logger.warning(
            "cannot create memory dir %s: %s: %s", os.fspath(path), type(exc).__name__, exc
        )
        return False
    if not os.path.isdir(path):
        logger.warning("memory dir %s exists but is not a directory", os.fspath(path))
        return False
    return True


# --------------------------------------------------------------------------- agent memory


def sanitize_agent_type_for_path(agent_type: str) -> str:
    """Make an agent type one safe path segment: ':' '/' '\\' NUL and leading dots become '-'.

    What is left must pass the name gate's folder rule, else ValueError says why.
    """
    if not isinstance(agent_type, str) or not agent_type.strip():
        raise ValueError(
            f"agent type must be a non-empty name such as 'code-reviewer', got {agent_type!r}"
        )
    out = []
    for ch in agent_type:
        out.append("-" if ch in ":/\\\0" or ord(ch) < 0x20 or ch == "\x7f" else ch)
    text = "".join(out)
    stripped = text.lstrip(".")
    name = "-" * (len(text) - len(stripped)) + stripped
    problem = folder_problem(name)  # the name gate's folder rule: bidi, C1, length, devices
    if problem is not None:
        raise ValueError(
            f"agent type {terminal_safe(repr(agent_type))} cannot name its memory folder: "
            f"{name!r} {problem}"
        )
    return name


def get_agent_memory_dir(agent_type: str, scope: str, config: MemdirConfig) -> Path:
    """An agent's memory dir for scope user (~/.claude), project or local (project root).

    The project and local dirs sit in the project's own tree, which a repository can fill
    with symlinks: such a dir must really stay inside the project folder, else
    PathTraversalError (a ValueError) names the link, so a repository never chooses where
    an agent's memory is read from and written to.

    An agent type spelled in another Unicode normal form than a folder already there (`café`
    decomposed, as macOS writes it, then composed, as it is typed) is that folder, as macOS
    opens it (storage.name_twins.twin_spelling, the memory tool's rule): it made a second
    folder, listed as a second identical line, whose memories the first agent never saw (§43).
    """
    name = sanitize_agent_type_for_path(agent_type)
    if scope == "user":
        root = get_memory_base_dir(config) / AGENT_MEMORY_DIRNAME
        return root / (twin_spelling(root, name) or name)
    folders = {"project": AGENT_MEMORY_DIRNAME, "local": AGENT_MEMORY_LOCAL_DIRNAME}
    if scope not in folders:
        raise ValueError(
            f"unknown agent memory scope {scope!r}; use one of {', '.join(AGENT_MEMORY_SCOPES)}"
        )
    root = config.cwd / ".claude" / folders[scope]
    path = root / (twin_spelling(root, name) or name)
    try:
        validate_project_path(path, config.cwd)
    except PathTraversalError as exc:
        raise PathTraversalError(
            exc.rule,
            f"the {scope}-scope memory of agent {name!r} would not be in the project: {exc} "
            "A project's .claude/ folder cannot choose where agent memory lives.",
        ) from exc
    return path
