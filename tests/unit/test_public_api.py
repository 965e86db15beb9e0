"""The package's public names: every one resolves, and importing the package stays light."""

from __future__ import annotations

import subprocess
import sys

import memdir_nb

DESIGN_NAMES = [
    "ENTRYPOINT_NAME",
    "MAX_ENTRYPOINT_LINES",
    "MAX_ENTRYPOINT_BYTES",
    "MAX_MEMORY_FILES",
    "FRONTMATTER_MAX_LINES",
    "MemoryType",
    "MemoryHeader",
    "RelevantMemory",
    "EntrypointTruncation",
    "PathTraversalError",
    "MemdirConfig",
    "MemoryStore",
    "truncate_entrypoint_content",
    "scan_memory_files",
    "format_memory_manifest",
    "memory_age_days",
    "memory_age",
    "memory_freshness_text",
    "memory_freshness_note",
    "find_relevant_memories",
    "LexicalSelector",
    "AnthropicSelector",
    "validate_memory_path",
    "sanitize_path_key",
    "validate_team_mem_key",
    "get_auto_mem_path",
    "build_memory_prompt",
    "build_combined_memory_prompt",
    "load_memory_prompt",
]


def test_every_exported_name_resolves() -> None:
    missing = [name for name in memdir_nb.__all__ if not hasattr(memdir_nb, name)]
    assert missing == []


def test_design_names_are_all_exported() -> None:
    assert set(DESIGN_NAMES) <= set(memdir_nb.__all__)


def test_constants_have_the_spec_values() -> None:
    assert memdir_nb.ENTRYPOINT_NAME == "MEMORY.md"
    assert memdir_nb.MAX_ENTRYPOINT_LINES == 200
    assert memdir_nb.MAX_ENTRYPOINT_BYTES == 25_000
    assert memdir_nb.MAX_MEMORY_FILES == 200
    assert memdir_nb.FRONTMATTER_MAX_LINES == 30


def test_unknown_name_is_an_attribute_error() -> None:
    try:
        memdir_nb.no_such_thing  # noqa: B018
    except AttributeError as exc:
        assert "no_such_thing" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("expected AttributeError")


def test_import_does_not_load_heavy_dependencies() -> None:
    code = (
        "import sys, memdir_nb, memdir_nb.cli, memdir_nb.store, memdir_nb.scan, memdir_nb.prompts;"
        "heavy = {'anthropic', 'pandas', 'ipywidgets', 'numpy', 'bm25s', 'detect_secrets',"
        " 'rapidfuzz', 'httpx'};"
        "print(sorted(heavy & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
