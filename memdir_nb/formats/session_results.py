"""A tool_result as the session model keeps it, and pairing it with its tool_use."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memdir_nb.formats.session_model import ToolCall, mentions_memory
from memdir_nb.spec.constants import SESSION_TOOL_INPUT_MAX_CHARS, SESSION_TOOL_RESULT_MAX_CHARS
from memdir_nb.spec.text import cap_text


def whole_read(file: Mapping[str, Any]) -> bool:
    """Whether a Read result holds the whole file (not one page of it)."""
    total, lines = file.get("totalLines"), file.get("numLines")
    start = file.get("startLine", 1)
    return total is None or (start in (None, 1) and lines == total)


# Results whose tool_use has not been seen yet, kept at most (see SessionBuilder._results).
MAX_EARLY_RESULTS = 64


@dataclass
class ResultSeen:
    """What the model keeps of one tool_result block, before or after it meets its call."""

    tool_use_id: str
    text: str
    is_error: bool
    result_type: str | None = None
    original: str | None = None  # the file's text before the call, when recorded and short


def result_of(block: Mapping[str, Any], text: str, detail: object) -> ResultSeen:
    """One tool_result block; `detail` is the record's toolUseResult when it has one block."""
    result = ResultSeen(
        str(block.get("tool_use_id")),
        cap_text(text, SESSION_TOOL_RESULT_MAX_CHARS),
        bool(block.get("is_error")),
    )
    if isinstance(detail, dict):
        kind = detail.get("type")
        result.result_type = kind if isinstance(kind, str) else None
        original = detail.get("originalFile", detail.get("originalFileContents"))
        read = detail.get("file")
        if original is None and isinstance(read, dict) and whole_read(read):
            original = read.get("content")  # a Read of a whole file: its text then
        if isinstance(original, str) and len(original) <= SESSION_TOOL_INPUT_MAX_CHARS:
            result.original = original
    elif isinstance(detail, str) and detail.startswith("Error"):
        result.is_error = True
    return result


def pair(call: ToolCall, result: ResultSeen) -> None:
    call.has_result = True
    call.result = result.text
    call.is_error = result.is_error
    call.result_type = result.result_type
    if result.original is not None and mentions_memory(call.name, call.input):
        call.original_file = result.original
