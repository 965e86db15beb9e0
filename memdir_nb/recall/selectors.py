"""Choosing a selector: the model-backed one when a key is present, else the offline semantic one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memdir_nb.home.config import SELECTOR_NAMES, MemdirConfig
from memdir_nb.recall.anthropic_selector import AnthropicSelector
from memdir_nb.recall.base import Selector
from memdir_nb.recall.lexical import LexicalSelector
from memdir_nb.recall.semantic import SemanticSelector
from memdir_nb.spec.constants import SELECTOR_TIMEOUT_S

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig

SELECTOR_CHOICES = SELECTOR_NAMES
OFFLINE_DEFAULT = "semantic"


class SelectorConfigError(ValueError):
    """The requested selector cannot be built from this configuration."""


def make_selector(
    name: str,
    config: MemdirConfig | None = None,
    *,
    chosen_with: str = "MEMDIR_NB_SELECTOR=",
    timeout_s: float = SELECTOR_TIMEOUT_S,
    timeout_with: str = "timeout_s= to make_selector",
) -> Selector:
    """Build a selector by name ('semantic', 'lexical' or 'anthropic'); key and cache come from config.

    chosen_with: how the caller's user picks a selector, for the refusal without a key (the
    CLI's `--selector `: its users were told to set MEMDIR_NB_SELECTOR, fresh38). timeout_s:
    how long the anthropic selector's call may take, retries included; timeout_with: how the
    caller's user sets it, for the error of a call that took longer (the CLI's `--timeout`)."""
    choice = name.strip().lower()
    if choice == "semantic":
        return SemanticSelector(config=config)
    if choice == "lexical":
        return LexicalSelector()
    if choice == "anthropic":
        if config is None:
            config = MemdirConfig.from_environment()
        if not config.anthropic_api_key:
            raise SelectorConfigError(
                "the 'anthropic' selector needs an API key, but ANTHROPIC_API_KEY is not set; "
                f"set ANTHROPIC_API_KEY, or use {chosen_with}{OFFLINE_DEFAULT} for the "
                "offline selector"
            )

        return AnthropicSelector(
            api_key=config.anthropic_api_key,
            timeout=timeout_s,
            how_to_raise=f"pass a larger {timeout_with} to wait longer",
        )
    raise SelectorConfigError(
        f"unknown selector {name!r}; choose one of: {', '.join(SELECTOR_CHOICES)}"
    )


def default_selector(
    config: MemdirConfig | None = None,
    *,
    timeout_s: float = SELECTOR_TIMEOUT_S,
    timeout_with: str = "timeout_s= to default_selector",
) -> Selector:
    """AnthropicSelector when an API key is set, else SemanticSelector (config.selector overrides).

    timeout_s and timeout_with: make_selector's, for the anthropic selector."""
    if config is None:
        config = MemdirConfig.from_environment()
    name = config.selector or ("anthropic" if config.anthropic_api_key else OFFLINE_DEFAULT)
    return make_selector(name, config, timeout_s=timeout_s, timeout_with=timeout_with)
