"""A message's content blocks, read into its session: calls, results, text and thinking.

An assistant message's tool_use blocks become tool calls (each id once, where first seen:
the CLI writes history again with the ids kept), its text blocks the response's text
(joined, capped) and its thinking blocks a count. A user message's tool_result blocks meet
their calls by id (formats.session_calls.ToolCallBook); an interrupted one marks the turn.
An inline subagent's (1.0.x sidechain) blocks give calls and results only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memdir_nb.formats import transcript_records as tr
from memdir_nb.formats.session_calls import ToolCallBook, tool_call
from memdir_nb.formats.session_model import AssistantResponse, ToolCall, Turn
from memdir_nb.formats.session_results import result_of
from memdir_nb.spec.constants import SESSION_TOOL_RESULT_MAX_CHARS
from memdir_nb.spec.text import cap_text


def read_blocks(
    book: ToolCallBook,
    content: object,
    response: AssistantResponse | None,
    record: Mapping[str, Any],
    line_no: int,
    sidechain: bool,
) -> list[ToolCall]:
    """The new tool calls of a message's content, added to book; its text and thinking blocks
    go on response (None: a sidechain message, whose calls alone are kept)."""
    calls: list[ToolCall] = []
    for block in tr.content_blocks(content):
        kind = block.get("type")
        if kind == "tool_use":
            if book.seen(str(block.get("id"))):
                continue  # the same call written again: counted once, where first seen
            call = tool_call(block, record, line_no, sidechain, len(calls))
            book.add(call)
            calls.append(call)
        elif response is None:
            continue
        elif kind == "text":
            text = tr.block_text(block)
            if text and len(response.text) < SESSION_TOOL_RESULT_MAX_CHARS:
                joined = f"{response.text}\n{text}" if response.text else text
                response.text = cap_text(joined, SESSION_TOOL_RESULT_MAX_CHARS)
        elif kind in ("thinking", "redacted_thinking"):
            response.thinking_blocks += 1
    return calls


def read_results(
    book: ToolCallBook, record: Mapping[str, Any], content: object, turn: Turn
) -> None:
    """A user message's tool_result blocks, each paired with its call in book (the record's
    toolUseResult detail goes with a lone result); an interrupted result marks turn."""
    detail = record.get("toolUseResult")
    blocks = [b for b in tr.content_blocks(content) if b.get("type") == "tool_result"]
    for block in blocks:
        text = tr.block_text(block)
        if tr.is_interrupt_result(text):
            turn.interrupted = True
        book.result(result_of(block, text, detail if len(blocks) == 1 else None))
