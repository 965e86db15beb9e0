"""Building a Session from records in the orders and shapes real transcripts write them."""

from __future__ import annotations

import json
from typing import Any

from memdir_nb.formats.session_builder import MAX_EARLY_RESULTS, build_session
from memdir_nb.formats.session_model import Session
from memdir_nb.ui.demo.session_records import RecordWriter

MEM = "/home/ana/.claude/projects/-home-ana-app/memory"


def _writer() -> RecordWriter:
    return RecordWriter("s1", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="b")


def session_of(lines: list[str]) -> Session:
    return build_session((i, json.loads(line)) for i, line in enumerate(lines, start=1))


def _swap_last_two(w: RecordWriter) -> None:
    """The last record written first: the order some writers (Claude Desktop) flush in."""
    w.lines[-2], w.lines[-1] = w.lines[-1], w.lines[-2]


def _memory_write(w: RecordWriter, name: str = "note.md") -> dict[str, Any]:
    call = w.tool_use("Write", {"file_path": f"{MEM}/{name}", "content": "deploy on fridays"})
    w.response([call])
    w.result(call, "File created successfully at: x", detail={"type": "create"})
    return call


def test_a_result_written_before_its_call_is_paired_with_it() -> None:
    w = _writer()
    w.prompt("remember the deploy day")
    call = _memory_write(w)
    _swap_last_two(w)
    w.response([{"type": "text", "text": "saved"}])
    w.prompt("when do we deploy?")
    s = session_of(w.lines)
    (found,) = s.tool_calls
    assert found.id == call["id"] and found.has_result and found.succeeded
    assert found.result_type == "create" and found.result.startswith("File created")
    assert [len(t.tool_calls) for t in s.turns] == [1, 0]


def test_an_early_error_result_marks_its_call_failed_when_the_call_arrives() -> None:
    w = _writer()
    w.prompt("fix the note")
    call = w.tool_use("Edit", {"file_path": f"{MEM}/a.md", "old_string": "x", "new_string": "y"})
    w.response([call])
    w.result(call, "String to replace not found", is_error=True)
    _swap_last_two(w)
    (found,) = session_of(w.lines).tool_calls
    assert found.has_result and found.is_error and not found.succeeded


def test_results_waiting_for_their_call_are_capped_oldest_dropped_first() -> None:
    w = _writer()
    w.prompt("go")
    orphans = [w.tool_use("Read", {"file_path": "/x"}) for _ in range(MAX_EARLY_RESULTS + 5)]
    for call in orphans:
        w.result(call, "text")
    w.response(orphans[:1] + orphans[-1:])  # the oldest was dropped, the newest kept
    first, last = session_of(w.lines).tool_calls
    assert not first.has_result and last.has_result
