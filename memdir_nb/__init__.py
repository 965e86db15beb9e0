"""memdir_nb: Claude Code's memory directory, re-implemented in Python.

The public names are re-exported lazily, so `import memdir_nb` stays cheap (the CLI starts
fast) and heavy dependencies such as anthropic or pandas load only when a name needs them.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# public name -> submodule that defines it
_EXPORTS: dict[str, str] = {
    # constants
    "ENTRYPOINT_NAME": "index",
    "MAX_ENTRYPOINT_LINES": "index",
    "MAX_ENTRYPOINT_BYTES": "index",
    "MAX_MEMORY_FILES": "scan",
    "FRONTMATTER_MAX_LINES": "frontmatter",
    # types
    "MemoryType": "types",
    "TYPE_GUIDANCE": "types",
    "parse_memory_type": "types",
    "InvalidMemoryTypeError": "types",
    # config
    "MemdirConfig": "config",
    # index
    "EntrypointTruncation": "index",
    "truncate_entrypoint_content": "index",
    "rebuild_index": "index",
    # scan
    "MemoryHeader": "scan",
    "scan_memory_files": "scan",
    "format_memory_manifest": "scan",
    "scan_memory_dir": "scan",
    "ScanCache": "scan",
    # freshness
    "memory_age_days": "age",
    "memory_age": "age",
    "memory_freshness_text": "age",
    "memory_freshness_note": "age",
    "memory_header": "age",
    # store
    "MemoryStore": "store",
    "MemoryValidationError": "store",
    "MemoryNotFoundError": "store",
    # paths
    "get_auto_mem_path": "paths",
    "is_auto_memory_enabled": "paths",
    "validate_memory_path": "paths",
    "sanitize_path": "paths",
    "ensure_memory_dir_exists": "paths",
    "find_canonical_git_root": "paths",
    # team paths and security
    "PathTraversalError": "team_paths",
    "sanitize_path_key": "team_paths",
    "validate_team_mem_key": "team_paths",
    "validate_team_mem_write_path": "team_paths",
    "realpath_deepest_existing": "team_paths",
    "validate_memory_write_path": "team_paths",
    "scan_for_secrets": "secret_scan",
    "SecretFinding": "secret_scan",
    "SecretInTeamMemoryError": "secret_scan",
    # prompts
    "build_memory_lines": "prompts",
    "build_memory_prompt": "prompts",
    "build_combined_memory_prompt": "prompts",
    "build_assistant_daily_log_prompt": "kairos",
    "SearchPastContext": "prompts",
    "load_memory_prompt": "prompts",
    "build_agent_memory_prompt": "prompts",
    # recall
    "RelevantMemory": "recall",
    "find_relevant_memories": "recall",
    "LexicalSelector": "recall",
    "SemanticSelector": "recall",
    "AnthropicSelector": "recall",
    "default_selector": "recall",
    "RecallSession": "recall",
    "start_relevant_memory_prefetch": "recall",
    "SelectorConfigError": "recall",
    "InjectedMemory": "recall",
    "MemoryPrefetch": "recall",
    "render_recall": "recall",
    # demo
    "build_demo_memory_dir": "demo",
    "DEMO_QUIRKS": "demo",
    "DEMO_QUERIES": "demo",
    # analysis and lint
    "to_dataframe": "analysis",
    "to_dataframe_many": "analysis",
    "discover_memory_dirs": "analysis",
    "lint_memory_dir": "lint",
    "Finding": "lint",
    # lifecycle
    "append_daily_log": "kairos",
    "ConsolidationLock": "dream",
    "ConsolidationPlan": "dream",
    "dream_gates": "dream",
    "plan_consolidation": "dream",
    "apply_plan": "dream",
    "restore": "dream",
    "plan_consolidation_with_claude": "dream",
    "ExtractionScheduler": "extract",
    "has_memory_writes_since": "extract",
    "can_use_tool": "extract",
    "ToolVerdict": "extract",
}

__all__ = [*sorted(_EXPORTS), "__version__"]


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'memdir_nb' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"memdir_nb.{module_name}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
