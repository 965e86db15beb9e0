"""Runtime configuration: environment variables, feature flags and the clock, with the settings
files' layers (home.settings_files) read into one MemdirConfig.

This is the only module in memdir_nb that reads ``os.environ``. Everything else receives a
:class:`MemdirConfig` (or explicit arguments), so tests can build any situation without
touching the real environment or the developer's real ``~/.claude``.
"""

from __future__ import annotations

import dataclasses
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memdir_nb.clock import resolve_now_ms as resolve_now_ms  # re-exported: config users ask it
from memdir_nb.clock import system_clock_ms
from memdir_nb.home.env_blocks import (  # re-exported: where, doctor and tests use them here
    CONFIG_ENV_VARS as CONFIG_ENV_VARS,
)
from memdir_nb.home.env_blocks import ENV_BLOCK_ORDER as ENV_BLOCK_ORDER
from memdir_nb.home.env_blocks import FLAG_ENV_VARS as FLAG_ENV_VARS
from memdir_nb.home.env_blocks import MEMORY_DIR_ENV_VARS as MEMORY_DIR_ENV_VARS
from memdir_nb.home.env_blocks import PROCESS_ENV_SOURCE as PROCESS_ENV_SOURCE
from memdir_nb.home.env_blocks import REPO_ENV_ALLOWED as REPO_ENV_ALLOWED
from memdir_nb.home.env_blocks import REPO_ENV_LAYERS as REPO_ENV_LAYERS
from memdir_nb.home.env_blocks import SHELL_ONLY_ENV_VARS as SHELL_ONLY_ENV_VARS
from memdir_nb.home.env_blocks import TRACKED_ENV_VARS as TRACKED_ENV_VARS
from memdir_nb.home.env_blocks import EffectiveEnvironment as EffectiveEnvironment
from memdir_nb.home.env_blocks import EnvValue as EnvValue
from memdir_nb.home.env_blocks import IgnoredEnvVar as IgnoredEnvVar
from memdir_nb.home.env_blocks import effective_environment as effective_environment
from memdir_nb.home.env_blocks import tracked_env
from memdir_nb.home.passwd import HomeNotFoundError as HomeNotFoundError  # re-exported
from memdir_nb.home.passwd import home_from_passwd as home_from_passwd
from memdir_nb.home.path_rules import cache_folder_problem, configured_dirs, under_home
from memdir_nb.home.settings_files import ALL_LAYERS, SettingsLayers, read_settings_layers
from memdir_nb.home.settings_keys import MEMORY_SETTINGS_KEYS as MEMORY_SETTINGS_KEYS  # re-exported
from memdir_nb.home.warn_once import WarnedOnce
from memdir_nb.security.log_lines import OneLineRecords
from memdir_nb.spec.constants import SELECTOR_NAMES as SELECTOR_NAMES  # re-exported

logger = logging.getLogger(__name__)
logger.addFilter(WarnedOnce())  # each layer builds a config; each problem is told once
logger.addFilter(OneLineRecords())  # on one line, whatever path it names (attack round 26)

TRUTHY_VALUES = frozenset({"1", "true", "yes", "on"})
FALSY_VALUES = frozenset({"0", "false", "no", "off"})


def environment_names() -> tuple[str, ...]:
    """The names set in this process's environment. home.git_root asks which GIT_ variables
    are set, because a child git inherits them and some move its search for a repository."""
    return tuple(os.environ)


def is_env_truthy(value: str | None) -> bool:
    """True for 1/true/yes/on (any case, surrounding spaces ignored); False otherwise."""
    return value is not None and value.strip().lower() in TRUTHY_VALUES


def is_env_falsy(value: str | None) -> bool:
    """True for an explicit 0/false/no/off (any case); False when unset or anything else."""
    return value is not None and value.strip().lower() in FALSY_VALUES


def user_home(env: Mapping[str, str] | None = None) -> Path:
    """The folder `~` stands for: $HOME when set and not empty, else the password database's.

    ``env`` defaults to os.environ. MemdirConfig.from_environment takes its home from here;
    this reads nothing else (no settings file), for callers that only expand `~` in a path.
    """
    env = os.environ if env is None else env
    return Path(_nonempty(env.get("HOME")) or home_from_passwd()).expanduser()


def expand_user(raw: str | os.PathLike[str], home: Path) -> Path:
    """Expand a leading `~` (alone or as `~/...`) against home, never the process environment."""
    text = os.fspath(raw)
    if text == "~" or text.startswith("~/"):  # `~//x` is home/x, as a shell has it
        return Path(under_home(home, text[2:]))
    return Path(text)


@dataclass(frozen=True)
class FeatureFlags:
    """The spec's feature gates, as plain booleans (all off by default, as in the spec)."""

    team_memory: bool = False  # tengu_herring_clock
    extract_mode: bool = False  # tengu_passport_quail
    extract_non_interactive: bool = False  # tengu_slate_thimble
    search_past_context: bool = False  # tengu_coral_fern
    skip_index: bool = False  # tengu_moth_copse
    kairos: bool = False  # KAIROS

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> FeatureFlags:
        """Read every flag from its MEMDIR_NB_* variable in ``env``."""
        return cls(**{name: is_env_truthy(env.get(var)) for name, var in FLAG_ENV_VARS.items()})


def _nonempty(value: str | None) -> str | None:
    return value if value else None


@dataclass(frozen=True)
class MemdirConfig:
    """Everything memdir_nb needs from the outside world, read once and passed around."""

    home: Path
    cwd: Path
    claude_home: Path
    cowork_memory_override: str | None = None
    remote_memory_dir: str | None = None
    disable_auto_memory: bool = False
    # CLAUDE_CODE_DISABLE_AUTO_MEMORY=0 (2026): forces auto memory on, over bare mode and settings
    force_auto_memory: bool = False
    # CLAUDE_CODE_SAFE_MODE (2026): safe mode turns auto memory off
    safe_mode: bool = False
    # CLAUDE_CODE_PROJECT_DIR_NAME (2026): pins the project folder's name, but only together
    # with CLAUDE_CONFIG_DIR (config_dir_set)
    project_dir_name: str | None = None
    config_dir_set: bool = False
    simple_mode: bool = False
    remote_mode: bool = False
    non_interactive: bool = False
    settings: SettingsLayers = field(default_factory=SettingsLayers)
    flags: FeatureFlags = field(default_factory=FeatureFlags)
    anthropic_api_key: str | None = field(default=None, repr=False)
    selector: str | None = None
    demo_dir: str | None = None
    cache_dir: str | None = None  # MEMDIR_NB_CACHE_DIR; None means cache_root()'s default
    xdg_config_home: str | None = None  # XDG_CONFIG_HOME (home.claude_homes.xdg_claude_home)
    clock: Callable[[], float] = field(default=system_clock_ms, repr=False, compare=False)
    settings_problems: tuple[str, ...] = ()
    ignored_env: tuple[IgnoredEnvVar, ...] = ()  # refused by the repository allow-list
    env_sources: Mapping[str, EnvValue] = field(default_factory=dict, compare=False, repr=False)

    def env_source(self, name: str) -> EnvValue | None:
        """Where the variable ``name`` got the value this config holds (None when unset)."""
        found = self.env_sources.get(name)
        if found is not None:
            return found
        value = {
            "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": self.cowork_memory_override,
            "CLAUDE_CODE_REMOTE_MEMORY_DIR": self.remote_memory_dir,
        }.get(name)
        return EnvValue(name, value, PROCESS_ENV_SOURCE) if value is not None else None

    def describe_env_source(self, name: str) -> str:
        """Where the variable ``name`` came from, in words ('the environment' when unknown)."""
        origin = self.env_source(name)
        return origin.describe() if origin else "the environment"

    def now_ms(self) -> float:
        """The current time in milliseconds, from the injected clock."""
        return float(self.clock())

    def cache_root(self) -> Path:
        """Where memdir_nb keeps caches (never inside a memory dir): cache_dir or ~/.cache/memdir_nb."""
        if self.cache_dir:
            return self.expand_user(self.cache_dir)
        return self.home / ".cache" / "memdir_nb"

    def expand_user(self, raw: str | os.PathLike[str]) -> Path:
        """Expand a leading `~` against this config's home (never the process environment)."""
        return expand_user(raw, self.home)

    @classmethod
    def from_environment(
        cls,
        env: Mapping[str, str] | None = None,
        *,
        cwd: Path | str | None = None,
        home: Path | str | None = None,
        clock: Callable[[], float] | None = None,
        flag_settings_path: Path | str | None = None,
        policy_settings_path: Path | str | None = None,
        non_interactive: bool | None = None,
        apply_settings_env: bool = True,
    ) -> MemdirConfig:
        """Read env vars (``env`` defaults to os.environ) and the settings files into a config.

        With apply_settings_env (the default) the settings files' ``env`` blocks are applied
        over ``env`` as Claude Code applies them, and each variable's origin is recorded.
        """
        env = os.environ if env is None else env
        xdg_config_home = _nonempty(env.get("XDG_CONFIG_HOME"))  # as the process started
        problems: list[str] = []

        home = user_home(env) if home is None else Path(home).expanduser()
        cwd = Path(os.getcwd() if cwd is None else cwd)

        claude_home, config_dir_set = _claude_home(env, home, problems)
        settings = read_settings_layers(
            cwd, claude_home, flag_settings_path, policy_settings_path, problems
        )
        ignored: list[IgnoredEnvVar] = []
        if apply_settings_env:
            effective = effective_environment(env, settings)
            env, env_sources, ignored = effective.env, effective.sources, effective.ignored
            for note in [*effective.notes, *(i.describe() for i in ignored)]:
                logger.warning(note)
            problems.extend(effective.notes)
        else:
            env_sources = tracked_env(env)

        selector = _selector_choice(env, problems)

        if non_interactive is None:
            non_interactive = is_env_truthy(env.get("MEMDIR_NB_NON_INTERACTIVE"))

        return cls(
            home=home,
            cwd=cwd,
            claude_home=claude_home,
            cowork_memory_override=_nonempty(env.get("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")),
            remote_memory_dir=_nonempty(env.get("CLAUDE_CODE_REMOTE_MEMORY_DIR")),
            disable_auto_memory=is_env_truthy(env.get("CLAUDE_CODE_DISABLE_AUTO_MEMORY")),
            force_auto_memory=is_env_falsy(env.get("CLAUDE_CODE_DISABLE_AUTO_MEMORY")),
            safe_mode=is_env_truthy(env.get("CLAUDE_CODE_SAFE_MODE")),
            project_dir_name=_nonempty(env.get("CLAUDE_CODE_PROJECT_DIR_NAME")),
            config_dir_set=config_dir_set,
            simple_mode=is_env_truthy(env.get("CLAUDE_CODE_SIMPLE")),
            remote_mode=is_env_truthy(env.get("CLAUDE_CODE_REMOTE")),
            non_interactive=bool(non_interactive),
            settings=settings,
            flags=FeatureFlags.from_env(env),
            anthropic_api_key=_nonempty(env.get("ANTHROPIC_API_KEY")),
            selector=selector,
            demo_dir=_nonempty(env.get("MEMDIR_NB_DIR")),
            cache_dir=_cache_dir(env, home, (claude_home, cwd), problems),
            xdg_config_home=xdg_config_home,
            clock=clock or system_clock_ms,
            settings_problems=tuple(problems),
            ignored_env=tuple(ignored),
            env_sources=env_sources,
        )

    @classmethod
    def for_tests(cls, *, home: Path | str, cwd: Path | str, **overrides: Any) -> MemdirConfig:
        """A config that reads nothing (no env, no files); any field can be overridden.

        Conveniences: ``settings`` may be a mapping of layer name -> dict, ``flags`` a mapping
        of flag name -> bool, and ``now_ms`` a number that fixes the clock.
        """
        names = {f.name for f in dataclasses.fields(cls)}
        now = overrides.pop("now_ms", None)
        unknown = sorted(set(overrides) - names)
        if unknown:
            raise TypeError(
                f"unknown MemdirConfig field(s) {', '.join(unknown)}; "
                f"valid fields are {', '.join(sorted(names | {'now_ms'}))}"
            )
        home = Path(home)
        settings = overrides.get("settings")
        if isinstance(settings, Mapping):
            bad = sorted(set(settings) - set(ALL_LAYERS))
            if bad:
                raise ValueError(
                    f"unknown settings layer(s) {', '.join(bad)}; use {', '.join(ALL_LAYERS)}"
                )
            overrides["settings"] = SettingsLayers(**{k: dict(v) for k, v in settings.items()})
        flags = overrides.get("flags")
        if isinstance(flags, Mapping):
            overrides["flags"] = FeatureFlags(**flags)
        if now is not None:
            fixed = float(now)
            overrides["clock"] = lambda: fixed
        overrides.setdefault("claude_home", home / ".claude")
        return cls(home=home, cwd=Path(cwd), **overrides)


def _claude_home(env: Mapping[str, str], home: Path, problems: list[str]) -> tuple[Path, bool]:
    """The Claude home (~/.claude, or an absolute CLAUDE_CONFIG_DIR) and whether the variable set it."""
    claude_home = home / ".claude"
    found, said = configured_dirs(env, ("CLAUDE_CONFIG_DIR",), f"{claude_home}", tilde=False)
    for problem in said:
        logger.warning(problem)
    problems.extend(said)
    return (Path(found[1]), True) if found else (claude_home, False)


def _cache_dir(
    env: Mapping[str, str], home: Path, where: tuple[Path, Path], problems: list[str]
) -> str | None:
    """MEMDIR_NB_CACHE_DIR, else XDG_CACHE_HOME/memdir_nb: absolute (or ~/), in no memory dir."""
    names = ("MEMDIR_NB_CACHE_DIR", "XDG_CACHE_HOME")
    instead = f"{home / '.cache' / 'memdir_nb'}"
    found, said = configured_dirs(env, names, instead, tilde=True)
    chosen: str | None = None
    if found:
        xdg = found[0] == "XDG_CACHE_HOME"  # its memdir_nb folder, then
        chosen = str(Path(found[1]) / "memdir_nb") if xdg else found[1]
        memory_dirs = tuple(env[name] for name in sorted(MEMORY_DIR_ENV_VARS) if env.get(name))
        folder = str(expand_user(chosen, home))
        why = cache_folder_problem(folder, where[0], os.fspath(where[1]), memory_dirs, home=home)
        if why:
            said.append(
                f"{found[0]}={found[1]!r} {why}; using {instead} instead. The caches keep "
                "the text of memories recalled: set it to a folder outside every memory dir."
            )
            chosen = None
    for problem in said:
        logger.warning(problem)
    problems.extend(said)
    return chosen


def _selector_choice(env: Mapping[str, str], problems: list[str]) -> str | None:
    """MEMDIR_NB_SELECTOR as a known selector name, else None (an unknown name is a problem)."""
    selector = _nonempty(env.get("MEMDIR_NB_SELECTOR"))
    if selector is None:
        return None
    selector = selector.strip().lower()
    if selector in SELECTOR_NAMES:
        return selector
    problem = (
        f"MEMDIR_NB_SELECTOR={selector!r} is not a known selector; "
        f"use one of {', '.join(SELECTOR_NAMES)}. Ignored (default selector used)."
    )
    logger.warning(problem)
    problems.append(problem)
    return None
