"""Where memory lives: directory resolution, path validation, enable gates, agent and log dirs.

Finding the git root that keys a project lives in memdir_nb.home.git_root (re-exported here).

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

import logging
import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.formats.names import component_problem
from memdir_nb.home.config import (
    ALL_LAYERS,
    FLAG_ENV_VARS,
    TRUSTED_LAYERS,
    MemdirConfig,
    home_from_passwd,
)
from memdir_nb.home.git_root import (
    find_canonical_git_root as find_canonical_git_root,  # re-exported
)
from memdir_nb.home.git_root import find_checkout_root as find_checkout_root  # re-exported
from memdir_nb.spec.constants import TEAM_DIRNAME

logger = logging.getLogger(__name__)

MAX_SANITIZED_LENGTH = 200
AGENT_MEMORY_SCOPES: tuple[str, ...] = ("user", "project", "local")


# --------------------------------------------------------------------------- sanitising


def _djb2_base36(text: str) -> str:
    """Claude Code's fallback string hash: 32-bit djb2 over UTF-16 units, abs, base 36."""
    h = 0
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        unit = data[i] | (data[i + 1] << 8)
        h = ((h << 5) - h + unit) & 0xFFFFFFFF
    if h >= 0x80000000:
        h -= 0x100000000
    h = abs(h)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if h == 0:
        return "0"
    out = []
    while h:
        h, r = divmod(h, 36)
        out.append(digits[r])
    return "".join(reversed(out))


def sanitize_path(p: str | os.PathLike[str]) -> str:
    """Turn a path into one safe folder name: non-[a-zA-Z0-9] -> '-', long names get a hash."""
    text = os.fspath(p)
    # JavaScript counts UTF-16 units, so a character outside the BMP becomes two dashes.
    pieces = []
    for ch in text:
        if ch.isascii() and ch.isalnum():
            pieces.append(ch)
        else:
            pieces.append("--" if ord(ch) > 0xFFFF else "-")
    sanitized = "".join(pieces)
    if len(sanitized) <= MAX_SANITIZED_LENGTH:
        return sanitized
    return f"{sanitized[:MAX_SANITIZED_LENGTH]}-{_djb2_base36(text)}"


# --------------------------------------------------------------------------- validation


def _default_home(home: str | os.PathLike[str] | None) -> str:
    return os.fspath(home) if home is not None else os.fspath(home_from_passwd())


def memory_path_problem(
    raw: object, expand_tilde: bool, *, home: str | os.PathLike[str] | None = None
) -> tuple[str | None, str | None]:
    """Validate a memory dir setting (any JSON value a settings file holds); returns (normalised path, None) or (None, reason)."""
    if raw is None or raw == "":
        return None, "empty"
    if not isinstance(raw, str):
        return None, f"not a string (got {type(raw).__name__})"
    if "\0" in raw:
        return None, "contains a null byte"
    candidate = raw
    if expand_tilde and (candidate.startswith("~/") or candidate.startswith("~\\")):
        rest = candidate[2:]
        rest_norm = os.path.normpath(rest.replace("\\", "/") or ".")
        first = rest_norm.split("/", 1)[0]
        if rest_norm == "." or first == "..":
            return None, "expands to the home directory or one of its ancestors"
        candidate = os.path.join(_default_home(home), rest)
    if candidate.startswith("\\\\") or candidate.startswith("//"):
        return None, "is a UNC / network path"
    normalized = os.path.normpath(candidate).rstrip("/\\")
    if normalized == "":
        return None, "is the filesystem root (too short)"
    if (
        len(normalized) == 2
        and normalized[1] == ":"
        and normalized[0].isascii()
        and normalized[0].isalpha()
    ):
        return None, "is a Windows drive root"
    if normalized.startswith("\\\\") or normalized.startswith("//"):
        return None, "is a UNC / network path"
    if not os.path.isabs(normalized):
        if raw.startswith("~"):
            return None, "is relative ('~' is only expanded in settings files, as '~/...')"
        return None, "is not an absolute path"
    if len(normalized) < 3:
        return None, "is too short (a filesystem root or near it)"
    return unicodedata.normalize("NFC", normalized + os.sep), None


def validate_memory_path(
    raw: str | None, expand_tilde: bool, *, home: str | os.PathLike[str] | None = None
) -> str | None:
    """Normalise a configured memory dir (one trailing sep, NFC), or None if it is unsafe."""
    return memory_path_problem(raw, expand_tilde, home=home)[0]


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
    root = find_canonical_git_root(config.cwd, git=git)
    if root is not None:
        return root
    return Path(unicodedata.normalize("NFC", os.path.realpath(config.cwd)))


def _settings_source(config: MemdirConfig, layer: str) -> str:
    path = config.settings.paths.get(layer)
    return f"{layer} settings ({path})" if path else f"{layer} settings"


def _override_step(config: MemdirConfig) -> tuple[ResolutionStep, str | None]:
    """Rule 1, the cowork override: its step, and the validated path when it wins."""
    name = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
    raw = config.cowork_memory_override
    origin = config.env_source(name)
    source = origin.describe() if origin else "the environment"
    if raw is None:
        return ResolutionStep(name, source, None, "not set"), None
    valid, problem = memory_path_problem(raw, False, home=config.home)
    if valid is None:
        return ResolutionStep(name, source, raw, "rejected", str(problem)), None
    return ResolutionStep(name, source, raw, "used"), valid


def _setting_steps(config: MemdirConfig, decided: bool) -> tuple[list[ResolutionStep], str | None]:
    """Rule 2 over every settings layer; the path of the first valid trusted value, if any."""
    steps: list[ResolutionStep] = []
    chosen: str | None = None
    for layer in ALL_LAYERS:
        value = config.settings.layer(layer).get("autoMemoryDirectory")
        source = _settings_source(config, layer)
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
            steps.append(ResolutionStep("autoMemoryDirectory", source, shown, "used"))
            chosen = valid
    return steps, chosen


def _base_source(config: MemdirConfig) -> str:
    origin = config.env_source("CLAUDE_CODE_REMOTE_MEMORY_DIR")
    if config.remote_memory_dir is not None:
        where = origin.describe() if origin else "the environment"
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
    source = _env_origin(config, name)
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
    path = os.path.join(os.fspath(base), "projects", key, "memory") + os.sep
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


def get_team_mem_path(config: MemdirConfig) -> str:
    """The team memory dir: the auto-memory dir's ``team`` subfolder, one trailing separator."""
    return os.path.join(get_auto_mem_path(config), TEAM_DIRNAME) + os.sep


def ensure_memory_dir_exists(path: str | os.PathLike[str]) -> bool:
    """mkdir -p the memory dir; True if it exists afterwards. Logs and returns False on error."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        logger.warning(
            "cannot create memory dir %s: %s: %s", os.fspath(path), type(exc).__name__, exc
        )
        return False
    if not os.path.isdir(path):
        logger.warning("memory dir %s exists but is not a directory", os.fspath(path))
        return False
    return True


# --------------------------------------------------------------------------- gates


ENABLE_LEVELS: tuple[str, ...] = (
    "CLAUDE_CODE_DISABLE_AUTO_MEMORY",
    "CLAUDE_CODE_SIMPLE (bare mode)",
    "CLAUDE_CODE_REMOTE without a memory dir",
    "autoMemoryEnabled in settings",
    "default",
)


@dataclass(frozen=True)
class GateDecision:
    """Whether a memory feature is on, which level of its chain decided, and where that came from."""

    enabled: bool
    level: int  # 1-5: the level of the auto-memory enable chain (ENABLE_LEVELS) that decided
    reason: str
    source: str  # "the environment", "the env block of user settings (...)", a settings file, ...
    setting: str | None = None  # the variable or settings key responsible, when there is one


def _env_origin(config: MemdirConfig, name: str) -> str:
    origin = config.env_source(name)
    return origin.describe() if origin else "the environment"


def auto_memory_decision(config: MemdirConfig) -> GateDecision:
    """The five-level chain for auto memory, with the level and the source that decided.

    Current Claude Code adds two variables at level 1: safe mode (CLAUDE_CODE_SAFE_MODE) turns
    memory off before anything else, and CLAUDE_CODE_DISABLE_AUTO_MEMORY=0 forces it on over
    bare mode and settings (a remote session without a memory dir still has nowhere to keep it).
    """
    if config.safe_mode:
        name = "CLAUDE_CODE_SAFE_MODE"
        reason = "safe mode is on (CLAUDE_CODE_SAFE_MODE), which turns auto memory off"
        return GateDecision(False, 1, reason, _env_origin(config, name), name)
    if config.disable_auto_memory:
        name = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
        return GateDecision(False, 1, f"{name} is set", _env_origin(config, name), name)
    remote = _remote_decision(config)
    if remote is not None:
        return remote
    if config.force_auto_memory:
        name = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
        reason = f"{name}=0 forces auto memory on, over bare mode and settings"
        return GateDecision(True, 1, reason, _env_origin(config, name), name)
    if config.simple_mode:
        name = "CLAUDE_CODE_SIMPLE"
        reason = "CLAUDE_CODE_SIMPLE (bare mode) is set"
        return GateDecision(False, 2, reason, _env_origin(config, name), name)
    # Trust order for the switch: policy > flag > local > project > user, but a project file
    # may only turn memory OFF (the safe direction); it can never turn on what a user disabled.
    s = config.settings
    for layer in ("policy", "flag", "local", "project", "user"):
        value = s.layer(layer).get("autoMemoryEnabled")
        if type(value) is not bool:
            continue
        if layer == "project" and value:
            continue
        reason = f"autoMemoryEnabled={str(value).lower()} in {layer} settings"
        return GateDecision(value, 4, reason, _settings_source(config, layer), "autoMemoryEnabled")
    return GateDecision(True, 5, "enabled by default", "nothing set: the default")


def _remote_decision(config: MemdirConfig) -> GateDecision | None:
    """Level 3: a remote session without a usable memory dir has auto memory off."""
    if config.remote_mode and config.remote_memory_dir is None:
        name = "CLAUDE_CODE_REMOTE"
        reason = "CLAUDE_CODE_REMOTE is set without CLAUDE_CODE_REMOTE_MEMORY_DIR"
        return GateDecision(False, 3, reason, _env_origin(config, name), name)
    if config.remote_memory_dir is not None:
        name = "CLAUDE_CODE_REMOTE_MEMORY_DIR"
        _, problem = memory_path_problem(config.remote_memory_dir, False, home=config.home)
        if problem is not None:
            return GateDecision(False, 3, f"{name} {problem}", _env_origin(config, name), name)
    return None


def auto_memory_status(config: MemdirConfig) -> tuple[bool, str]:
    """Whether auto memory is on, and the rule that decided it (for UIs and logs)."""
    decision = auto_memory_decision(config)
    return decision.enabled, decision.reason


def _flag_decision(
    config: MemdirConfig, flag: str, plain: str, codename: str | None = None
) -> GateDecision:
    """A feature that needs auto memory and one flag: auto memory's decision when it is off.

    The reason names the switch in plain words; Claude Code's internal codename, when it has
    one, follows only as a parenthetical for readers who know it.
    """
    var = FLAG_ENV_VARS[flag]
    auto = auto_memory_decision(config)
    if not auto.enabled:
        return GateDecision(
            False, auto.level, f"auto memory is off ({auto.reason})", auto.source, auto.setting
        )
    on = bool(getattr(config.flags, flag))
    state = "set" if on else "not set"
    source = _env_origin(config, var) if on else "nothing set: flags are off by default"
    aside = f" (Claude Code's internal flag: {codename})" if codename else ""
    reason = f"the {plain} switch {var} is {state}{aside}"
    return GateDecision(on, auto.level, reason, source, var)


def team_memory_decision(config: MemdirConfig) -> GateDecision:
    """Team memory: auto memory on, then the team-memory switch."""
    return _flag_decision(config, "team_memory", "team memory", "tengu_herring_clock")


def kairos_decision(config: MemdirConfig) -> GateDecision:
    """KAIROS daily-log mode: auto memory on, then the KAIROS flag."""
    return _flag_decision(config, "kairos", "daily-log (KAIROS)")


def is_auto_memory_enabled(config: MemdirConfig) -> bool:
    """The spec's gate chain: disable env, bare mode, remote without dir, settings, default on."""
    return auto_memory_status(config)[0]


def is_team_memory_enabled(config: MemdirConfig) -> bool:
    """Team memory needs auto memory on and the team flag on."""
    return config.flags.team_memory and is_auto_memory_enabled(config)


def is_extract_mode_active(config: MemdirConfig) -> bool:
    """Extraction runs when its flag is on, in interactive sessions or with the non-interactive flag."""
    return config.flags.extract_mode and (
        not config.non_interactive or config.flags.extract_non_interactive
    )


# --------------------------------------------------------------------------- agent memory


def sanitize_agent_type_for_path(agent_type: str) -> str:
    """Make an agent type one safe path segment: ':' '/' '\\' NUL and leading dots become '-'."""
    if not isinstance(agent_type, str) or not agent_type.strip():
        raise ValueError(
            f"agent type must be a non-empty name such as 'code-reviewer', got {agent_type!r}"
        )
    out = []
    for ch in agent_type:
        out.append("-" if ch in ":/\\\0" or ord(ch) < 0x20 or ch == "\x7f" else ch)
    text = "".join(out)
    stripped = text.lstrip(".")
    return "-" * (len(text) - len(stripped)) + stripped


def get_agent_memory_dir(agent_type: str, scope: str, config: MemdirConfig) -> Path:
    """An agent's memory dir for scope user (~/.claude), project or local (project root)."""
    name = sanitize_agent_type_for_path(agent_type)
    if scope == "user":
        return get_memory_base_dir(config) / "agent-memory" / name
    if scope == "project":
        return config.cwd / ".claude" / "agent-memory" / name
    if scope == "local":
        return config.cwd / ".claude" / "agent-memory-local" / name
    raise ValueError(
        f"unknown agent memory scope {scope!r}; use one of {', '.join(AGENT_MEMORY_SCOPES)}"
    )


# --------------------------------------------------------------------------- daily logs
