"""session_blocks: a message's blocks give each call once, its results, its text and thinking."""

from __future__ import annotations

from typing import Any

from memdir_nb.formats.session_blocks import read_blocks, read_results
from memdir_nb.formats.session_calls import ToolCallBook
from memdir_nb.formats.session_model import AssistantResponse, Turn
from memdir_nb.formats.transcript_records import INTERRUPT_MARKERS
from memdir_nb.spec.constants import SESSION_TOOL_RESULT_MAX_CHARS

RECORD: dict[str, Any] = {"type": "assistant", "timestamp": "2026-05-01T10:00:00.000Z"}


def _use(call_id: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "Read", "input": {"file_path": "/x"}}


def _result(call_id: str, text: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": text}


def test_each_call_counts_once_where_first_seen_and_text_and_thinking_go_on_the_response() -> None:
    book, response = ToolCallBook(), AssistantResponse("msg_1", "claude", 3)
    content = [
        {"type": "thinking", "thinking": "hm"},
        _use("toolu_1"),
        {"type": "text", "text": "reading it"},
        {"type": "redacted_thinking", "data": "x"},
        {"type": "text", "text": "done"},
    ]
    calls = read_blocks(book, content, response, RECORD, 3, False)
    assert [c.id for c in calls] == ["toolu_1"] and calls[0].line_no == 3
    assert response.text == "reading it\ndone" and response.thinking_blocks == 2
    again = read_blocks(book, [_use("toolu_1"), _use("toolu_2")], response, RECORD, 9, False)
    assert [c.id for c in again] == ["toolu_2"]  # the same call written again is not new


def test_a_responses_text_is_capped() -> None:
    response = AssistantResponse("msg_1", None, 1)
    long = {"type": "text", "text": "ok " * (SESSION_TOOL_RESULT_MAX_CHARS // 3 + 20)}
    read_blocks(ToolCallBook(), [long, long], response, RECORD, 1, False)
    assert response.text.endswith(" [...]")
    assert SESSION_TOOL_RESULT_MAX_CHARS <= len(response.text) < SESSION_TOOL_RESULT_MAX_CHARS + 50


def test_a_sidechain_message_gives_its_calls_only() -> None:
    calls = read_blocks(ToolCallBook(), [_use("toolu_9"), {"type": "text", "text": "t"}], None,
                        RECORD, 5, True)  # fmt: skip
    assert [(c.id, c.is_sidechain) for c in calls] == [("toolu_9", True)]


def test_results_meet_their_calls_and_an_interrupted_one_marks_the_turn() -> None:
    book, turn = ToolCallBook(), Turn(index=0, prompt="go", kind="prompt", line_no=1)
    (call,) = read_blocks(book, [_use("toolu_1")], None, RECORD, 2, False)
    read_results(book, {"toolUseResult": {"type": "text"}}, [_result("toolu_1", "ok")], turn)
    assert call.has_result and call.result_type == "text" and not turn.interrupted
    (other,) = read_blocks(book, [_use("toolu_2")], None, RECORD, 4, False)
    read_results(book, {}, [_result("toolu_2", INTERRUPT_MARKERS[1])], turn)
    assert other.has_result and turn.interrupted
