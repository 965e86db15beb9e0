"""The memory instructions a model gets: prompt sections, their assembly, and the daily-log variant."""

from memdir_nb.prompts.build import (
    SearchPastContext,
    build_agent_memory_prompt,
    build_combined_memory_prompt,
    build_memory_lines,
    build_memory_prompt,
    load_memory_prompt,
)
from memdir_nb.prompts.daily_log import build_assistant_daily_log_prompt

__all__ = [
    "SearchPastContext",
    "build_agent_memory_prompt",
    "build_assistant_daily_log_prompt",
    "build_combined_memory_prompt",
    "build_memory_lines",
    "build_memory_prompt",
    "load_memory_prompt",
]
