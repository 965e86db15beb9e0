"""Settings `env` blocks: which variables they may set, from which file, and what was refused.

Claude Code puts the variables of a settings file's `env` block into its own environment,
over the shell's. memdir_nb reads them the same way, with one wall: the settings files that
come with the project folder (a clone, a download) may set only REPO_ENV_ALLOWED. Pure: the
caller (home.config, the only reader of os.environ) passes the environment and the parsed
settings in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from memdir_nb.home.settings_keys import setting_in_env_block

FLAG_ENV_VARS: dict[str, str] = {
    "team_memory": "MEMDIR_NB_TEAM_MEMORY",
    "extract_mode": "MEMDIR_NB_EXTRACT_MODE",
    "extract_non_interactive": "MEMDIR_NB_EXTRACT_NON_INTERACTIVE",
    "search_past_context": "MEMDIR_NB_SEARCH_PAST_CONTEXT",
    "skip_index": "MEMDIR_NB_SKIP_INDEX",
    "kairos": "MEMDIR_NB_KAIROS",
}

# Settings files may carry an `env` block whose variables Claude Code puts into its own
# environment, over the shell's. They are applied least trusted first, so a more trusted
# layer's value wins: user < project < local < flag < policy.
ENV_BLOCK_ORDER: tuple[str, ...] = ("user", "project", "local", "flag", "policy")
# Variables that decide where memory lives (doctor names them when a repository tries them).
MEMORY_DIR_ENV_VARS: frozenset[str] = frozenset(
    {"CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", "CLAUDE_CODE_REMOTE_MEMORY_DIR"}
)
# Read from the shell only: they locate the settings files, so a settings file cannot move them.
SHELL_ONLY_ENV_VARS: frozenset[str] = frozenset({"HOME", "CLAUDE_CONFIG_DIR"})
# The settings files that come with the project folder itself (a clone, a download):
# .claude/settings.json and .claude/settings.local.json. Whoever wrote the folder wrote them.
REPO_ENV_LAYERS: tuple[str, ...] = ("project", "local")
# THE allow-list: the only variables a repository's settings env block may set, and only to a
# truthy value (1/true/yes/on), which switches memory off: the safe direction, as for a
# project's autoMemoryEnabled: false. Any other value is refused too, since
# CLAUDE_CODE_DISABLE_AUTO_MEMORY=0 forces memory on over the user's own choice, and a falsy
# CLAUDE_CODE_SIMPLE / CLAUDE_CODE_SAFE_MODE would undo the user's. Everything else is dropped:
# the memory dir overrides and CLAUDE_CODE_PROJECT_DIR_NAME, the cache, data and notebook dirs
# (MEMDIR_NB_DIR, MEMDIR_NB_CACHE_DIR, XDG_CACHE_HOME), the API key, the selector, the flags.
REPO_ENV_ALLOWED: frozenset[str] = frozenset(
    {"CLAUDE_CODE_DISABLE_AUTO_MEMORY", "CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE"}
)
_SWITCH_ON_VALUES = frozenset({"1", "true", "yes", "on"})
PROCESS_ENV_SOURCE = "environment"
# The variables whose origin a config records (for `where` and `doctor`); never the API key.
TRACKED_ENV_VARS: tuple[str, ...] = (
    "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
    "CLAUDE_CODE_REMOTE_MEMORY_DIR",
    "CLAUDE_CODE_DISABLE_AUTO_MEMORY",
    "CLAUDE_CODE_SAFE_MODE",
    "CLAUDE_CODE_PROJECT_DIR_NAME",
    "CLAUDE_CODE_SIMPLE",
    "CLAUDE_CODE_REMOTE",
    "MEMDIR_NB_NON_INTERACTIVE",
    "MEMDIR_NB_SELECTOR",
    "MEMDIR_NB_DIR",
    *FLAG_ENV_VARS.values(),
)
# Every variable MemdirConfig reads. A repository's attempt to set one of these off the
# allow-list is reported; other names change nothing memdir_nb does and are dropped quietly.
CONFIG_ENV_VARS: frozenset[str] = frozenset(
    {
        *TRACKED_ENV_VARS,
        *SHELL_ONLY_ENV_VARS,
        "ANTHROPIC_API_KEY",
        "MEMDIR_NB_CACHE_DIR",
        "XDG_CACHE_HOME",
    }
)


class LayeredSettings(Protocol):
    """What effective_environment needs of config.SettingsLayers."""

    @property
    def paths(self) -> dict[str, Any]:
        """layer -> the settings file it was read from."""
        ...

    def layer(self, name: str) -> dict[str, Any]:
        """The parsed object of one layer."""
        ...


@dataclass(frozen=True)
class EnvValue:
    """One environment variable as memdir_nb sees it, and where its value came from."""

    name: str
    value: str
    source: str  # "environment", or the settings layer whose env block set it ("user", ...)
    path: str | None = None  # the settings file, when it came from an env block

    def describe(self) -> str:
        """'the environment' or 'the env block of user settings (/home/me/.claude/settings.json)'."""
        if self.source == PROCESS_ENV_SOURCE:
            return "the environment"
        return f"the env block of {self.source} settings ({self.path})"


def _env_text(value: object) -> str | None:
    """A settings env value as the string the process would see; None for lists and objects."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


@dataclass(frozen=True)
class IgnoredEnvVar:
    """A variable a repository's settings env block tried to set and was not allowed to."""

    name: str
    layer: str  # "project" or "local"
    path: str | None

    def describe(self) -> str:
        """'ignored: project settings may not set MEMDIR_NB_DIR (/repo/.claude/settings.json)'."""
        return f"ignored: {self.layer} settings may not set {self.name} ({self.path})"


@dataclass(frozen=True)
class EffectiveEnvironment:
    """The environment memdir_nb acts on, where its tracked variables came from, and what was refused."""

    env: dict[str, str]
    sources: dict[str, EnvValue]
    notes: list[str]  # settings problems (a block or value of the wrong type, a shell-only name)
    ignored: list[IgnoredEnvVar]  # variables a repository's settings may not set


def repo_may_set(name: str, value: str) -> bool:
    """Whether a repository's settings env block may set name=value: allowed, and switching off."""
    return name in REPO_ENV_ALLOWED and value.strip().lower() in _SWITCH_ON_VALUES


def effective_environment(
    env: Mapping[str, str], settings: LayeredSettings
) -> EffectiveEnvironment:
    """The shell's env with every settings env block applied, repository blocks through the allow-list."""
    merged = dict(env)
    sources = tracked_env(env)
    notes: list[str] = []
    ignored: list[IgnoredEnvVar] = []
    for layer in ENV_BLOCK_ORDER:
        block = settings.layer(layer).get("env")
        path = settings.paths.get(layer)
        if block is None:
            continue
        if not isinstance(block, dict):
            notes.append(
                f"{layer} settings {path}: env must be an object of NAME: value pairs, "
                f"got {type(block).__name__}; ignored."
            )
            continue
        for name, raw in block.items():
            text = _env_text(raw)
            misplaced = None if text is None else setting_in_env_block(layer, path, name, text)
            if misplaced is not None:
                notes.append(misplaced)  # a setting, not a variable: nothing reads it here
                continue
            if text is None:
                notes.append(
                    f"{layer} settings {path}: env {name} must be a string, got "
                    f"{type(raw).__name__}; ignored."
                )
                continue
            if name in SHELL_ONLY_ENV_VARS:
                notes.append(
                    f"{layer} settings {path}: env {name} cannot move the settings it is read "
                    "from; ignored. Set it in the shell instead."
                )
                continue
            if layer in REPO_ENV_LAYERS and not repo_may_set(name, text):
                if name in CONFIG_ENV_VARS:
                    ignored.append(IgnoredEnvVar(name, layer, path))
                continue
            merged[name] = text
            if name in TRACKED_ENV_VARS:
                sources[name] = EnvValue(name, text, layer, path)
    return EffectiveEnvironment(merged, sources, notes, ignored)


def tracked_env(env: Mapping[str, str]) -> dict[str, EnvValue]:
    """The tracked variables of a process environment, each marked as coming from it."""
    return {k: EnvValue(k, env[k], PROCESS_ENV_SOURCE) for k in TRACKED_ENV_VARS if k in env}
