"""Building a Session from records in the orders and shapes real transcripts write them."""

from __future__ import annotations

import json
from typing import Any

from memdir_nb.formats.session_builder import MAX_EARLY_RESULTS, build_session
from memdir_nb.formats.session_model import Session
from memdir_nb.ui.demo.session_records import RecordWriter
from tests.support.transcripts import append_copy

MEM = "/home/ana/.claude/projects/-home-ana-app/memory"


def _writer(*, prompt_ids: bool = True) -> RecordWriter:
    start = "2026-05-01T10:00:00.000Z"
    return RecordWriter("s1", "/home/ana/app", start, seed="b", prompt_ids=prompt_ids)


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


def _one_turn(w: RecordWriter, prompt: object) -> dict[str, Any]:
    w.prompt(prompt)
    call = w.tool_use("Read", {"file_path": "/home/ana/app/plan.md"})
    w.response([call])
    w.result(call, "the plan")
    w.response([{"type": "text", "text": "read it"}])
    return call


def test_a_finished_turn_appended_again_as_a_copy_is_not_a_second_turn() -> None:
    w = _writer(prompt_ids=False)  # 2.1.1x-2.1.2x: no promptId
    _one_turn(w, "read the plan")
    append_copy(w, 0)
    w.prompt("now the roadmap")
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["read the plan", "now the roadmap"]
    assert len(s.tool_calls) == 1 and s.tool_calls[0].succeeded
    assert [len(t.responses) for t in s.turns] == [2, 0] and s.copied_records == 4


def test_a_copy_that_splits_the_prompt_into_one_record_per_block_is_still_a_copy() -> None:
    w = _writer(prompt_ids=False)  # 2.1.1x-2.1.2x: no promptId
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA"}}
    ide = {"type": "text", "text": "<ide_opened_file>The user opened a.py</ide_opened_file>"}
    _one_turn(w, [ide, image, {"type": "text", "text": "what is this?"}])
    append_copy(w, 0, split=True)
    w.prompt("thanks")
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["what is this?", "thanks"]
    assert s.images == 1 and len(s.tool_calls) == 1


def test_a_tool_use_id_seen_before_is_not_counted_again() -> None:
    w = _writer()
    call = _one_turn(w, "read the plan")
    w.prompt("and again?")
    w.response([call, {"type": "text", "text": "same call written twice"}])
    s = session_of(w.lines)
    assert [len(t.tool_calls) for t in s.turns] == [1, 0] and len(s.tool_calls) == 1


def test_the_same_prompt_typed_again_later_is_a_new_turn() -> None:
    w = _writer(prompt_ids=False)  # 2.1.1x-2.1.2x: no promptId
    _one_turn(w, "run the tests")
    _one_turn(w, "run the tests")
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["run the tests", "run the tests"]
    assert len(s.tool_calls) == 2 and s.copied_records == 0


def test_records_newer_than_the_copied_history_end_the_copy() -> None:
    w = _writer(prompt_ids=False)  # 2.1.1x-2.1.2x: no promptId
    _one_turn(w, "read the plan")
    append_copy(w, 0)
    w.user_text("<bash-input>git status</bash-input>")
    w.prompt("commit it")
    s = session_of(w.lines)
    assert len(s.turns) == 2 and s.turns[1].bash_commands == ["git status"]
