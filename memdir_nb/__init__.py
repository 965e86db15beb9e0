"""memdir_nb: Claude Code's memory directory, re-implemented in Python.

The public names are re-exported lazily, so `import memdir_nb` stays cheap (the CLI starts
fast) and heavy dependencies such as anthropic or pandas load only when a name needs them.
"""

from __future__ import annotations

import importlib

# typing stays unimported at run time (about 12 M instructions of every `memdir-nb scan`
# process, docs/performance.md, forty-second session); mypy reads the blocks below
TYPE_CHECKING = False

__version__ = "0.1.0"

# public name -> submodule that defines it
_EXPORTS: dict[str, str] = {
    # constants
    "ENTRYPOINT_NAME": "spec.constants",
    "MAX_ENTRYPOINT_LINES": "spec.constants",
    "MAX_ENTRYPOINT_BYTES": "spec.constants",
    "MAX_MEMORY_FILES": "spec.constants",
    "FRONTMATTER_MAX_LINES": "spec.constants",
    "TEAM_DIRNAME": "spec.constants",
    "TRASH_DIRNAME": "spec.constants",
    "LOGS_DIRNAME": "spec.constants",
    # types
    "MemoryType": "spec.taxonomy",
    "TYPE_GUIDANCE": "spec.taxonomy",
    "parse_memory_type": "spec.taxonomy",
    "InvalidMemoryTypeError": "spec.taxonomy",
    "Scope": "spec.taxonomy",
    "scope_violation": "spec.taxonomy",
    "scope_of_path": "spec.taxonomy",
    # dates
    "find_relative_dates": "spec.dates",
    "resolve_relative_date": "spec.dates",
    "convert_relative_dates": "spec.dates",
    "RelativeDate": "spec.dates",
    "DateResolution": "spec.dates",
    # draft validation
    "validate_draft": "storage.draft",
    "DraftVerdict": "storage.draft",
    "DraftProblem": "storage.draft",
    # config
    "MemdirConfig": "home.config",
    "resolve_now_ms": "clock",
    # index
    "EntrypointTruncation": "formats.index_caps",
    "IndexCapVerdict": "formats.index_caps",
    "ImportReport": "storage.import_report",
    "export_archive": "reports.fleet",
    "import_archive": "storage.archive",
    "index_cap_verdict": "formats.index_caps",
    "truncate_entrypoint_content": "formats.index_caps",
    "rebuild_index": "storage.rebuild",
    # scan
    "MemoryHeader": "formats.manifest",
    "scan_memory_files": "storage.scan",
    "format_memory_manifest": "formats.manifest",
    "scan_memory_dir": "storage.scan",
    "ScanCache": "storage.scan",
    # freshness
    "memory_age_days": "spec.freshness",
    "memory_age": "spec.freshness",
    "memory_freshness_text": "spec.freshness",
    "memory_freshness_note": "spec.freshness",
    "memory_header": "spec.freshness",
    # store
    "MemoryStore": "storage.store",
    "MemoryValidationError": "storage.store_checks",
    "MemoryNotFoundError": "storage.store_checks",
    # paths
    "get_auto_mem_path": "home.paths",
    "is_auto_memory_enabled": "home.paths",
    "validate_memory_path": "home.paths",
    "sanitize_path": "home.paths",
    "ensure_memory_dir_exists": "home.paths",
    "find_canonical_git_root": "home.paths",
    # where, doctor, fleet
    "list_memory_dirs": "reports.memory_dirs",
    "diagnose": "reports.doctor",
    "export_parquet": "reports.fleet",
    # team paths and security
    "PathTraversalError": "storage.containment",
    "sanitize_path_key": "storage.containment",
    "validate_team_mem_key": "storage.containment",
    "validate_team_mem_write_path": "storage.containment",
    "realpath_deepest_existing": "storage.containment",
    "validate_memory_write_path": "storage.containment",
    "scan_for_secrets": "security.secret_scan",
    "SecretFinding": "security.secret_scan",
    "SecretInTeamMemoryError": "security.secret_scan",
    # prompts
    "build_memory_lines": "prompts.build",
    "build_memory_prompt": "prompts.build",
    "build_combined_memory_prompt": "prompts.build",
    "build_assistant_daily_log_prompt": "prompts.daily_log",
    "SearchPastContext": "prompts.build",
    "load_memory_prompt": "prompts.build",
    "build_agent_memory_prompt": "prompts.build",
    # recall
    "RelevantMemory": "recall",
    "find_relevant_memories": "recall",
    "recall_memories": "recall",
    "RecallRequest": "recall",
    "Selector": "recall",
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
    "build_demo_memory_dir": "ui.demo",
    "DEMO_QUIRKS": "ui.demo",
    "DEMO_QUERIES": "ui.demo",
    # analysis and lint
    "to_dataframe": "reports.analysis",
    "to_dataframe_many": "reports.analysis",
    "discover_memory_dirs": "reports.analysis",
    "lint_memory_dir": "lint",
    "Finding": "lint",
    "audit_description": "lint",
    "DescriptionAudit": "lint",
    # lifecycle
    "append_daily_log": "storage.daily_log",
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
    # the Claude API's memory tool, served from a memory dir (loads anthropic on first use)
    "MemdirMemoryTool": "toolloop.memory_tool",
    "AsyncMemdirMemoryTool": "toolloop.memory_tool",
    "build_memory_tool_prompt": "prompts.memory_tool",
    # sessions
    "read_session": "home.sessions",
    "list_sessions": "home.sessions",
    "SessionFile": "home.sessions",
    "Session": "formats.session_model",
    "Turn": "formats.session_model",
    "ToolCall": "formats.session_model",
    "replay_session": "reports.replay",
    "SessionReplay": "reports.replay",
    "TurnReplay": "reports.replay",
}

# A type checker sees every export through these imports (names in __all__ are re-exported);
# at run time each name is imported on first use by __getattr__ below.
if TYPE_CHECKING:
    from memdir_nb.clock import resolve_now_ms
    from memdir_nb.dream import (
        ConsolidationLock,
        ConsolidationPlan,
        apply_plan,
        dream_gates,
        plan_consolidation,
        plan_consolidation_with_claude,
        restore,
    )
    from memdir_nb.extract import (
        ExtractionScheduler,
        ToolVerdict,
        can_use_tool,
        has_memory_writes_since,
    )
    from memdir_nb.formats.index_caps import (
        EntrypointTruncation,
        IndexCapVerdict,
        index_cap_verdict,
        truncate_entrypoint_content,
    )
    from memdir_nb.formats.manifest import MemoryHeader, format_memory_manifest
    from memdir_nb.formats.session_model import Session, ToolCall, Turn
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.home.paths import (
        ensure_memory_dir_exists,
        find_canonical_git_root,
        get_auto_mem_path,
        is_auto_memory_enabled,
        sanitize_path,
        validate_memory_path,
    )
    from memdir_nb.home.sessions import SessionFile, list_sessions, read_session
    from memdir_nb.lint import DescriptionAudit, Finding, audit_description, lint_memory_dir
    from memdir_nb.prompts.build import (
        SearchPastContext,
        build_agent_memory_prompt,
        build_combined_memory_prompt,
        build_memory_lines,
        build_memory_prompt,
        load_memory_prompt,
    )
    from memdir_nb.prompts.daily_log import build_assistant_daily_log_prompt
    from memdir_nb.prompts.memory_tool import build_memory_tool_prompt
    from memdir_nb.recall import (
        AnthropicSelector,
        InjectedMemory,
        LexicalSelector,
        MemoryPrefetch,
        RecallRequest,
        RecallSession,
        RelevantMemory,
        Selector,
        SelectorConfigError,
        SemanticSelector,
        default_selector,
        find_relevant_memories,
        recall_memories,
        render_recall,
        start_relevant_memory_prefetch,
    )
    from memdir_nb.reports.analysis import discover_memory_dirs, to_dataframe, to_dataframe_many
    from memdir_nb.reports.doctor import diagnose
    from memdir_nb.reports.fleet import export_archive, export_parquet
    from memdir_nb.reports.memory_dirs import list_memory_dirs
    from memdir_nb.reports.replay import SessionReplay, TurnReplay, replay_session
    from memdir_nb.security.secret_scan import (
        SecretFinding,
        SecretInTeamMemoryError,
        scan_for_secrets,
    )
    from memdir_nb.spec.constants import (
        ENTRYPOINT_NAME,
        FRONTMATTER_MAX_LINES,
        LOGS_DIRNAME,
        MAX_ENTRYPOINT_BYTES,
        MAX_ENTRYPOINT_LINES,
        MAX_MEMORY_FILES,
        TEAM_DIRNAME,
        TRASH_DIRNAME,
    )
    from memdir_nb.spec.dates import (
        DateResolution,
        RelativeDate,
        convert_relative_dates,
        find_relative_dates,
        resolve_relative_date,
    )
    from memdir_nb.spec.freshness import (
        memory_age,
        memory_age_days,
        memory_freshness_note,
        memory_freshness_text,
        memory_header,
    )
    from memdir_nb.spec.taxonomy import (
        TYPE_GUIDANCE,
        InvalidMemoryTypeError,
        MemoryType,
        Scope,
        parse_memory_type,
        scope_of_path,
        scope_violation,
    )
    from memdir_nb.storage.archive import import_archive
    from memdir_nb.storage.containment import (
        PathTraversalError,
        realpath_deepest_existing,
        sanitize_path_key,
        validate_memory_write_path,
        validate_team_mem_key,
        validate_team_mem_write_path,
    )
    from memdir_nb.storage.daily_log import append_daily_log
    from memdir_nb.storage.draft import DraftProblem, DraftVerdict, validate_draft
    from memdir_nb.storage.import_report import ImportReport
    from memdir_nb.storage.rebuild import rebuild_index
    from memdir_nb.storage.scan import ScanCache, scan_memory_dir, scan_memory_files
    from memdir_nb.storage.store import MemoryStore
    from memdir_nb.storage.store_checks import MemoryNotFoundError, MemoryValidationError
    from memdir_nb.toolloop.memory_tool import AsyncMemdirMemoryTool, MemdirMemoryTool
    from memdir_nb.ui.demo import DEMO_QUERIES, DEMO_QUIRKS, build_demo_memory_dir

__all__ = [  # literal, so type checkers and linters read it; a test keeps it equal to _EXPORTS
    "DEMO_QUERIES",
    "DEMO_QUIRKS",
    "ENTRYPOINT_NAME",
    "FRONTMATTER_MAX_LINES",
    "LOGS_DIRNAME",
    "MAX_ENTRYPOINT_BYTES",
    "MAX_ENTRYPOINT_LINES",
    "MAX_MEMORY_FILES",
    "TEAM_DIRNAME",
    "TRASH_DIRNAME",
    "TYPE_GUIDANCE",
    "AnthropicSelector",
    "AsyncMemdirMemoryTool",
    "ConsolidationLock",
    "ConsolidationPlan",
    "DateResolution",
    "DescriptionAudit",
    "DraftProblem",
    "DraftVerdict",
    "EntrypointTruncation",
    "ExtractionScheduler",
    "Finding",
    "ImportReport",
    "IndexCapVerdict",
    "InjectedMemory",
    "InvalidMemoryTypeError",
    "LexicalSelector",
    "MemdirConfig",
    "MemdirMemoryTool",
    "MemoryHeader",
    "MemoryNotFoundError",
    "MemoryPrefetch",
    "MemoryStore",
    "MemoryType",
    "MemoryValidationError",
    "PathTraversalError",
    "RecallRequest",
    "RecallSession",
    "RelativeDate",
    "RelevantMemory",
    "ScanCache",
    "Scope",
    "SearchPastContext",
    "SecretFinding",
    "SecretInTeamMemoryError",
    "Selector",
    "SelectorConfigError",
    "SemanticSelector",
    "Session",
    "SessionFile",
    "SessionReplay",
    "ToolCall",
    "ToolVerdict",
    "Turn",
    "TurnReplay",
    "__version__",
    "append_daily_log",
    "apply_plan",
    "audit_description",
    "build_agent_memory_prompt",
    "build_assistant_daily_log_prompt",
    "build_combined_memory_prompt",
    "build_demo_memory_dir",
    "build_memory_lines",
    "build_memory_prompt",
    "build_memory_tool_prompt",
    "can_use_tool",
    "convert_relative_dates",
    "default_selector",
    "diagnose",
    "discover_memory_dirs",
    "dream_gates",
    "ensure_memory_dir_exists",
    "export_archive",
    "export_parquet",
    "find_canonical_git_root",
    "find_relative_dates",
    "find_relevant_memories",
    "format_memory_manifest",
    "get_auto_mem_path",
    "has_memory_writes_since",
    "import_archive",
    "index_cap_verdict",
    "is_auto_memory_enabled",
    "lint_memory_dir",
    "list_memory_dirs",
    "list_sessions",
    "load_memory_prompt",
    "memory_age",
    "memory_age_days",
    "memory_freshness_note",
    "memory_freshness_text",
    "memory_header",
    "parse_memory_type",
    "plan_consolidation",
    "plan_consolidation_with_claude",
    "read_session",
    "realpath_deepest_existing",
    "rebuild_index",
    "recall_memories",
    "render_recall",
    "replay_session",
    "resolve_now_ms",
    "resolve_relative_date",
    "restore",
    "sanitize_path",
    "sanitize_path_key",
    "scan_for_secrets",
    "scan_memory_dir",
    "scan_memory_files",
    "scope_of_path",
    "scope_violation",
    "start_relevant_memory_prefetch",
    "to_dataframe",
    "to_dataframe_many",
    "truncate_entrypoint_content",
    "validate_draft",
    "validate_memory_path",
    "validate_memory_write_path",
    "validate_team_mem_key",
    "validate_team_mem_write_path",
]


def __getattr__(name: str) -> object:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'memdir_nb' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"memdir_nb.{module_name}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
