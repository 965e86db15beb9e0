"""Whether memory features are on: the auto-memory enable chain and the flags built on it.

Auto memory is decided by a five-level chain (ENABLE_LEVELS), first match wins; team memory
and KAIROS daily logs need auto memory on and then their own switch. Each decision says
which level decided, why, and where the deciding value came from.
"""

from __future__ import annotations

from dataclasses import dataclass

from memdir_nb.home.config import FLAG_ENV_VARS, MemdirConfig
from memdir_nb.home.path_rules import memory_path_problem

__all__ = [
    "DREAM_ROLLOUT_FLAG",
    "ENABLE_LEVELS",
    "AutoDreamDecision",
    "GateDecision",
    "auto_dream_decision",
    "auto_memory_decision",
    "auto_memory_status",
    "is_auto_memory_enabled",
    "is_extract_mode_active",
    "is_team_memory_enabled",
    "kairos_decision",
    "team_memory_decision",
]


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


def auto_memory_decision(config: MemdirConfig) -> GateDecision:
    """The five-level chain for auto memory, with the level and the source that decided.

    Current Claude Code adds two variables at level 1: safe mode (CLAUDE_CODE_SAFE_MODE) turns
    memory off before anything else, and CLAUDE_CODE_DISABLE_AUTO_MEMORY=0 forces it on over
    bare mode and settings (a remote session without a memory dir still has nowhere to keep it).
    """
    if config.safe_mode:
        name = "CLAUDE_CODE_SAFE_MODE"
        reason = "safe mode is on (CLAUDE_CODE_SAFE_MODE), which turns auto memory off"
        return GateDecision(False, 1, reason, config.describe_env_source(name), name)
    if config.disable_auto_memory:
        name = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
        return GateDecision(False, 1, f"{name} is set", config.describe_env_source(name), name)
    remote = _remote_decision(config)
    if remote is not None:
        return remote
    if config.force_auto_memory:
        name = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
        reason = f"{name}=0 forces auto memory on, over bare mode and settings"
        return GateDecision(True, 1, reason, config.describe_env_source(name), name)
    if config.simple_mode:
        name = "CLAUDE_CODE_SIMPLE"
        reason = "CLAUDE_CODE_SIMPLE (bare mode) is set"
        return GateDecision(False, 2, reason, config.describe_env_source(name), name)
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
        return GateDecision(value, 4, reason, config.settings.describe(layer), "autoMemoryEnabled")
    return GateDecision(True, 5, "enabled by default", "nothing set: the default")


def _remote_decision(config: MemdirConfig) -> GateDecision | None:
    """Level 3: a remote session without a usable memory dir has auto memory off."""
    if config.remote_mode and config.remote_memory_dir is None:
        name = "CLAUDE_CODE_REMOTE"
        reason = "CLAUDE_CODE_REMOTE is set without CLAUDE_CODE_REMOTE_MEMORY_DIR"
        return GateDecision(False, 3, reason, config.describe_env_source(name), name)
    if config.remote_memory_dir is not None:
        name = "CLAUDE_CODE_REMOTE_MEMORY_DIR"
        _, problem = memory_path_problem(config.remote_memory_dir, False, home=config.home)
        if problem is not None:
            return GateDecision(
                False, 3, f"{name} {problem}", config.describe_env_source(name), name
            )
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
    source = config.describe_env_source(var) if on else "nothing set: flags are off by default"
    aside = f" (Claude Code's internal flag: {codename})" if codename else ""
    reason = f"the {plain} switch {var} is {state}{aside}"
    return GateDecision(on, auto.level, reason, source, var)


def team_memory_decision(config: MemdirConfig) -> GateDecision:
    """Team memory: auto memory on, then the team-memory switch."""
    return _flag_decision(config, "team_memory", "team memory", "tengu_herring_clock")


def kairos_decision(config: MemdirConfig) -> GateDecision:
    """KAIROS daily-log mode: auto memory on, then the KAIROS flag."""
    return _flag_decision(config, "kairos", "daily-log (KAIROS)")


# Claude Code's server-side switch for background consolidation; memdir_nb cannot read it.
DREAM_ROLLOUT_FLAG = "tengu_onyx_plover"


@dataclass(frozen=True)
class AutoDreamDecision:
    """Whether Claude Code would consolidate this memory dir in the background (autoDream).

    ``enabled`` is None when no setting decides and Anthropic's rollout flag does, which only
    the CLI can read; True means the settings ask for it (the CLI still checks the rollout).
    """

    enabled: bool | None
    reason: str
    source: str
    setting: str | None = None


def auto_dream_decision(config: MemdirConfig) -> AutoDreamDecision:
    """Claude Code's gate for background consolidation, as far as files and variables tell.

    The CLI dreams only with auto memory on, outside daily-log (KAIROS) mode and outside a
    remote session; then an explicit ``autoDreamEnabled`` in the merged settings decides, and
    without one its rollout flag does. The settings are read in the trust order of
    ``autoMemoryEnabled`` (a project file may only switch it off). Real settings hold it in
    user settings, true or false, and setup tools write false to keep the CLI's consolidation
    away from memory they manage themselves.
    """
    auto = auto_memory_decision(config)
    if not auto.enabled:
        return AutoDreamDecision(
            False, f"auto memory is off ({auto.reason})", auto.source, auto.setting
        )
    kairos = kairos_decision(config)
    if kairos.enabled:
        reason = "daily-log (KAIROS) mode consolidates with /dream, not in the background"
        return AutoDreamDecision(False, reason, kairos.source, kairos.setting)
    if config.remote_mode:
        name = "CLAUDE_CODE_REMOTE"
        reason = f"{name} is set: a remote session never consolidates in the background"
        return AutoDreamDecision(False, reason, config.describe_env_source(name), name)
    s = config.settings
    for layer in ("policy", "flag", "local", "project", "user"):
        value = s.layer(layer).get("autoDreamEnabled")
        if type(value) is not bool or (layer == "project" and value):
            continue
        reason = f"autoDreamEnabled={str(value).lower()} in {layer} settings"
        if value:
            reason += (
                f" (Claude Code still needs its rollout flag {DREAM_ROLLOUT_FLAG} to allow it)"
            )
        return AutoDreamDecision(value, reason, s.describe(layer), "autoDreamEnabled")
    reason = f"autoDreamEnabled is not set: Claude Code's rollout flag {DREAM_ROLLOUT_FLAG} decides"
    return AutoDreamDecision(
        None, reason, "nothing set: the rollout flag, which memdir_nb cannot read"
    )


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
