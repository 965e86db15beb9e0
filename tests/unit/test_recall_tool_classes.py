"""recall/tool_classes: the recent-tools rule's classes, kept by header text per set of tools."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.recall import tool_classes as tool_classes_module
from memdir_nb.recall.lexical import classify_for_tools, tool_key
from memdir_nb.recall.tool_classes import tool_classes
from memdir_nb.storage.scan import scan_memory_files
from tests.support import write_memory


def test_tool_classes_are_remembered_by_each_headers_text_per_set_of_tools(tmp_path: Path) -> None:
    # a warm recall classifies every candidate for its recent tools; the answers are kept by
    # the header's texts and the tools, so a rewritten header is judged again from its new text
    # and another set of tools is judged on its own
    def rewrite(step: int, name: str, description: str, type_: str) -> list[MemoryHeader]:
        write_memory(
            tmp_path, "team_notes.md", name=name, description=description, type=type_,
            now_ms=1_700_000_000_000 + step * 100_000,
        )  # fmt: skip
        write_memory(
            tmp_path, "lunch.md", name="Lunch rota", description="who orders lunch", now_ms=1.6e12
        )
        return sorted(scan_memory_files(tmp_path), key=lambda h: h.filename)

    grep, bash = [tool_key("Grep")], [tool_key("Grep"), tool_key("Bash")]
    headers = rewrite(0, "Grep gotcha", "grep misses generated files", "feedback")
    assert tool_classes(headers, grep) == [None, "warning"]
    assert tool_classes(headers, []) == [None, None]
    headers = rewrite(1, "Grep usage", "how to call the grep tool", "reference")
    assert tool_classes(headers, grep) == [None, "usage"]
    headers = rewrite(2, "Bash gotcha", "bash quoting eats the dollar signs", "feedback")
    assert tool_classes(headers, grep) == [None, None]
    assert tool_classes(headers, bash) == [None, "warning"]
    assert tool_classes(headers, bash) == [classify_for_tools(h, bash) for h in headers]


def test_the_kept_classes_stay_within_their_byte_bound(tmp_path: Path) -> None:
    # Header texts hold descriptions of up to 8 KiB: kept by entries alone (65,536 texts for
    # each of 64 sets of tools), a long-lived kernel's answers could reach gigabytes
    write_memory(
        tmp_path, "grep_notes.md", name="Grep gotcha", description="grep misses", now_ms=1.7e12
    )
    (header,) = scan_memory_files(tmp_path)
    keys = [tool_key("Grep")]
    long_headers = [replace(header, description=f"{i} " + "x" * 8_000) for i in range(400)]
    assert tool_classes(long_headers, keys) == [classify_for_tools(h, keys) for h in long_headers]
    kept = tool_classes_module._classes_by_text(tuple(keys))
    assert 0 < len(kept) < 400
    assert kept.bytes_held <= tool_classes_module._TOOL_SET_MAX_BYTES


def test_the_kept_sets_of_tools_count_the_bytes_of_their_names(tmp_path: Path) -> None:
    # A replayed transcript's tool names are the recent tools: a turn of crafted long names is
    # one set, and the 16 sets kept held their keys uncounted (16 turns of a long transcript)
    write_memory(
        tmp_path, "grep_notes.md", name="Grep gotcha", description="grep misses", now_ms=1.7e12
    )
    (header,) = scan_memory_files(tmp_path)
    tool_classes_module._classes_by_text.cache_clear()
    for i in range(3):
        tool_classes([header], [tool_key(f"mcp__s{i}__" + "ab_" * 30_000)])  # 90 KB each
    kept = tool_classes_module._classes_by_text.cache
    assert kept.bytes_held > 3 * 90_000 and kept.bytes_held <= kept.max_bytes
