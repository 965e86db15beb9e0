"""Building a Session from records in the orders and shapes real transcripts write them."""

from __future__ import annotations

import json
from typing import Any

from memdir_nb.formats import session_model
from memdir_nb.formats.session_builder import SessionBuilder, build_session
from memdir_nb.formats.session_model import Session
from memdir_nb.formats.session_queue import MAX_QUEUED
from memdir_nb.formats.session_results import MAX_EARLY_RESULTS
from memdir_nb.spec.constants import SESSION_PROMPT_MAX_CHARS
from memdir_nb.ui.demo.session_records import RecordWriter
from tests.support.transcripts import (
    api_error_reply,
    append_copy,
    cli_recalled,
    compact_by_command,
    fork_of,
    fork_worker,
    refused_answer,
    rewritten_on_resume,
    superseding,
    write_again,
)

MEM = "/home/ana/.claude/projects/-home-ana-app/memory"


def _writer(*, prompt_ids: bool = True) -> RecordWriter:
    start = "2026-05-01T10:00:00.000Z"
    return RecordWriter("s1", "/home/ana/app", start, seed="b", prompt_ids=prompt_ids)


def session_of(lines: list[str], path: str = "") -> Session:
    """The session the lines make, after checking that a count-only read of them (what a
    listing of sessions reads) finds the same turns and facts."""
    records = [(i, json.loads(line)) for i, line in enumerate(lines, start=1)]
    session = build_session(records, path)
    counter = SessionBuilder(path, count_only=True)
    for line_no, record in records:
        counter.feed(record, line_no)
    counted = counter.finish()
    assert counter.turn_count == len(session.turns)
    assert counted.kind == session.kind and counted.forked_from == session.forked_from
    assert counted.session_id == session.session_id
    assert counted.first_timestamp == session.first_timestamp
    assert counted.problems == session.problems
    assert counted.title == session.title  # a listing shows the title a replay would
    return session


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


NOTE = (
    "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>"
)


def _queue(w: RecordWriter, operation: str, content: str | None = None) -> None:
    fields = (
        {"operation": operation}
        if content is None
        else {"operation": operation, "content": content}
    )
    w.bookkeeping("queue-operation", **fields)


def _finished(w: RecordWriter, text: str = "done") -> None:
    """A final answer whose last record says the turn ended (stop_reason end_turn)."""
    w.response([{"type": "text", "text": text}])
    record = json.loads(w.lines[-1])
    record["message"]["stop_reason"] = "end_turn"
    w.lines[-1] = json.dumps(record)


def _working(w: RecordWriter) -> dict[str, Any]:
    """The agent calls a tool and has not had its result yet."""
    call = w.tool_use("Bash", {"command": "make test"})
    w.response([call])
    return call


def test_a_prompt_enqueued_and_dequeued_before_any_turn_is_not_queued() -> None:
    w = _writer(prompt_ids=False)
    _queue(w, "enqueue", "fix the build")
    _queue(w, "dequeue")
    w.prompt("fix the build")
    s = session_of(w.lines)
    assert [t.queued for t in s.turns] == [False] and not s.turns[0].has_queued_prompt


def test_a_prompt_enqueued_after_the_turn_ended_is_not_queued() -> None:
    w = _writer(prompt_ids=False)
    w.prompt("fix the build")
    _finished(w)
    _queue(w, "enqueue", "now the docs")
    _queue(w, "dequeue")
    w.prompt("now the docs")
    w.prompt("and the changelog")
    w.system("turn_duration", durationMs=900)  # the other end-of-turn mark
    _queue(w, "enqueue", "thanks")
    _queue(w, "dequeue")
    w.prompt("thanks")
    assert [t.queued for t in session_of(w.lines).turns] == [False, False, False, False]


def test_a_prompt_typed_while_a_turn_ran_is_queued() -> None:
    w = _writer(prompt_ids=False)
    w.prompt("fix the build")
    call = _working(w)
    _queue(w, "enqueue", "and the docs")
    w.result(call, "ok")
    _finished(w)
    _queue(w, "dequeue")
    w.prompt("and the docs")
    assert [t.queued for t in session_of(w.lines).turns] == [False, True]


def test_a_dequeue_that_releases_a_task_notification_does_not_flag_a_later_prompt() -> None:
    w = _writer(prompt_ids=False)
    w.prompt("start the server in the background")
    call = _working(w)
    _queue(w, "enqueue", NOTE)
    w.result(call, "started")
    _queue(w, "dequeue")
    w.user_text(NOTE)
    _finished(w, "the server stopped")
    w.prompt("restart it")
    s = session_of(w.lines)
    assert [t.queued for t in s.turns] == [False, False]
    assert s.turns[0].notifications == 1 and s.turns[0].queued_prompts == []


def test_a_dequeue_releases_the_notification_that_follows_not_an_older_typed_prompt() -> None:
    w = _writer(prompt_ids=False)
    w.prompt("run the tests in the background")
    call = _working(w)
    _queue(w, "enqueue", "are they still running?")
    _queue(w, "enqueue", NOTE)
    w.result(call, "started")
    _queue(w, "dequeue")
    w.user_text(NOTE)  # what that dequeue released: the notification, not the older prompt
    _queue(w, "remove")  # the typed prompt, absorbed into the running turn
    _finished(w)
    w.prompt("thanks")
    s = session_of(w.lines)
    assert s.turns[0].queued_prompts == ["are they still running?"]
    assert s.turns[0].notifications == 1 and [t.queued for t in s.turns] == [False, False]


def test_task_notifications_absorbed_into_a_turn_count_as_notifications() -> None:
    w = _writer(prompt_ids=False)
    w.prompt("watch the deploy")
    call = _working(w)
    _queue(w, "enqueue", NOTE)
    _queue(w, "remove")  # 2.1.1xx: no content on the remove
    w.result(call, "ok")
    w.bookkeeping("attachment", attachment={"type": "queued_command", "prompt": NOTE})
    _queue(w, "enqueue", "and tell me when it is done")
    _queue(w, "remove", "and tell me when it is done")
    (turn,) = session_of(w.lines).turns
    assert turn.notifications == 1 and turn.queued_prompts == ["and tell me when it is done"]


def test_a_prompt_queued_with_no_turn_after_it_is_unanswered_and_the_last_typed() -> None:
    # sessions45: a `-p` run that stopped after its queue records (52 of 89 files of a public
    # home) held the prompt in its enqueue alone, and no reader took it
    w = _writer(prompt_ids=False)
    _queue(w, "enqueue", "summarise the nightly logs")
    _queue(w, "dequeue")
    s = session_of(w.lines)
    assert s.turns == [] and s.unanswered == ["summarise the nightly logs"]
    assert s.last_typed == "summarise the nightly logs"


def test_a_prompt_typed_after_the_last_turn_began_and_never_sent_is_the_last_typed() -> None:
    w = _writer(prompt_ids=False)
    w.prompt("fix the build")
    call = _working(w)
    _queue(w, "enqueue", "and the docs, please")  # the session closed before it went
    w.result(call, "ok")
    s = session_of(w.lines)
    assert s.unanswered == ["and the docs, please"] and s.last_typed == "and the docs, please"


def test_a_prompt_taken_into_the_running_turn_is_the_last_typed() -> None:
    w = _writer(prompt_ids=False)
    w.prompt("fix the build")
    call = _working(w)
    _queue(w, "enqueue", "use the release flags")
    w.result(call, "ok")
    _queue(w, "remove")
    w.bookkeeping(
        "attachment", attachment={"type": "queued_command", "prompt": "use the release flags"}
    )
    _queue(w, "enqueue", NOTE)  # a notification after it is nobody's typing
    _queue(w, "remove")
    s = session_of(w.lines)
    assert s.turns[0].queued_prompts == ["use the release flags"]
    assert s.last_typed == "use the release flags" and s.unanswered == []


def test_a_prompt_pulled_back_or_sent_later_and_a_notification_are_not_unanswered() -> None:
    w = _writer(prompt_ids=False)
    w.prompt("fix the build")
    call = _working(w)
    _queue(w, "enqueue", "never mind")
    _queue(w, "popAll")  # pulled back into the input box: not sent
    _queue(w, "enqueue", "then the changelog")
    w.result(call, "ok")
    _finished(w)
    _queue(w, "dequeue")
    w.prompt("then the changelog")
    _queue(w, "enqueue", NOTE)
    s = session_of(w.lines)
    assert s.unanswered == [] and s.last_typed == "then the changelog"


def test_the_queue_holds_a_long_text_cut_and_still_matches_it_when_sent() -> None:
    # sessions45: 64 waiting items of up to 8 MB each were held whole
    long = "deploy " * 20_000
    w = _writer(prompt_ids=False)
    w.prompt("fix the build")
    call = _working(w)
    _queue(w, "enqueue", long)
    w.result(call, "ok")
    _finished(w)
    _queue(w, "dequeue")
    w.prompt(long)
    _queue(w, "enqueue", long + "again")
    s = session_of(w.lines)
    assert [t.queued for t in s.turns] == [False, True]
    (waiting,) = s.unanswered
    assert len(waiting) <= SESSION_PROMPT_MAX_CHARS + 10


def test_prompts_queued_past_what_the_queue_keeps_are_still_counted() -> None:
    # sessions45: a stuck 2.1.16 session queued 1,199 mail pings typed by an orchestrator;
    # the queue keeps the last MAX_QUEUED, and the rest are counted, not named
    w = _writer(prompt_ids=False)
    for i in range(MAX_QUEUED + 6):
        _queue(w, "enqueue", f"ping {i}")
        _queue(w, "dequeue")
    s = session_of(w.lines)
    assert len(s.unanswered) == MAX_QUEUED and s.unanswered_more == 6
    assert s.unanswered[0] == "ping 6" and s.last_typed == f"ping {MAX_QUEUED + 5}"
    _queue(w, "popAll")  # takes back all that waited, the dropped ones too
    _queue(w, "enqueue", "one more ping")
    s = session_of(w.lines)
    assert s.unanswered == ["one more ping"] and s.unanswered_more == 0


def test_a_record_holding_only_ide_context_does_not_start_a_turn() -> None:
    w = _writer(prompt_ids=False)
    w.prompt([{"type": "text", "text": "<ide_opened_file>The user opened a.py</ide_opened_file>"}])
    w.prompt("rename the parser")
    w.response([{"type": "text", "text": "renamed"}])
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["rename the parser"]


def test_a_summary_naming_no_record_of_this_file_is_neither_a_title_nor_a_compaction() -> None:
    w = _writer()
    w.bookkeeping("summary", summary="Another session's work", leafUuid="0000-not-in-this-file")
    w.bookkeeping("summary", summary="This session, named before its record", leafUuid=None)
    first = len(w.lines)
    w.prompt("fix the parser")
    w.response([{"type": "text", "text": "fixed"}])
    leaf = json.loads(w.lines[-1])["uuid"]
    w.bookkeeping("summary", summary="Parser fix", leafUuid=leaf)
    w.lines.insert(first, json.dumps({"type": "summary", "summary": "Early", "leafUuid": leaf}))
    s = session_of(w.lines)
    assert s.titles == ["This session, named before its record", "Early", "Parser fix"]
    assert [c.text for c in s.compactions] == s.titles


def test_ai_title_records_are_titles_each_once() -> None:
    w = _writer()
    w.prompt("fix the parser")
    w.bookkeeping("ai-title", aiTitle="Fix the parser", sessionId="s1")
    w.response([{"type": "text", "text": "fixed"}])
    w.bookkeeping("ai-title", aiTitle="Fix the parser", sessionId="s1")
    w.bookkeeping("ai-title", aiTitle="Fix the parser and its tests", sessionId="s1")
    s = session_of(w.lines)
    assert s.titles == ["Fix the parser", "Fix the parser and its tests"]
    assert s.compactions == []


def test_a_remove_without_text_takes_the_oldest_typed_prompt_not_an_older_notification() -> None:
    w = _writer(prompt_ids=False)
    w.prompt("implement the epic")
    call = _working(w)
    w.result(call, "running in the background")
    _queue(w, "enqueue", NOTE)
    _queue(w, "enqueue", "new tasks were added, tackle them too")
    _queue(w, "remove")  # no content: the typed prompt went into the running turn
    _finished(w, "tackling the new tasks too")
    w.user_text(NOTE)  # the notification arrives on its own record later
    (turn,) = session_of(w.lines).turns
    assert turn.queued_prompts == ["new tasks were added, tackle them too"]
    assert turn.notifications == 1


def test_a_turn_the_api_answered_with_errors_only_is_marked_with_the_error_texts() -> None:
    w = _writer()
    w.prompt("help me apply for the grant")
    api_error_reply(w, "Credit balance is too low", retries=2)
    w.prompt("and now?")
    api_error_reply(w, "Not logged in · Please run /login")
    first, second = session_of(w.lines).turns
    assert first.api_error_only and first.api_errors == ["Overloaded", "Credit balance is too low"]
    assert second.api_error_only and second.flags == ["api_error"]


def test_a_turn_answered_after_a_retried_api_error_is_not_api_error_only() -> None:
    w = _writer()
    w.prompt("fix the build")
    w.system("api_error", level="error", error={"status": 529, "message": "Overloaded"})
    _finished(w, "fixed")
    (turn,) = session_of(w.lines).turns
    assert turn.api_errors == ["Overloaded"] and not turn.api_error_only
    assert "api_error" not in turn.flags


def test_retries_of_one_failed_call_are_one_error_text_though_each_has_its_own_request_id() -> None:
    w = _writer()
    w.prompt("tidy the checkout page")
    for attempt in (1, 2, 3):
        raw = f'529 {{"type":"error","error":{{"message":"Overloaded"}},"request_id":"req_{attempt}"}}'
        error = {"message": raw, "status": 529, "formatted": "529 Overloaded"}
        w.system("api_error", level="error", error=error, retryAttempt=attempt)
    _finished(w, "tidied")
    (turn,) = session_of(w.lines).turns
    assert turn.api_errors == ["529 Overloaded"] and not turn.api_error_only


def test_a_command_typed_after_the_turn_ended_is_a_new_turn_though_it_keeps_the_prompt_id() -> None:
    w = _writer()
    w.prompt("look at the open stories")
    _finished(w, "three are open")
    w.system("turn_duration", durationMs=4000)
    w.user_text(
        "<command-message>make-story</command-message>\n<command-name>/make-story</command-name>"
    )
    record = json.loads(w.lines[-1])
    record["promptId"] = w.prompt_id  # 2.1.8x: the finished turn's id, written again
    w.lines[-1] = json.dumps(record)
    _finished(w, "story written")
    first, second = session_of(w.lines).turns
    assert first.queued_prompts == [] and second.kind == "slash_command"
    assert second.prompt == "/make-story" and not second.queued


def test_a_name_the_user_gave_the_session_is_its_first_title() -> None:
    w = _writer()
    w.prompt("add a dark theme")
    w.bookkeeping("ai-title", aiTitle="Add a dark theme", sessionId="s1")
    _finished(w, "added")
    w.bookkeeping("custom-title", customTitle="theme work", sessionId="s1")
    w.bookkeeping("custom-title", customTitle="theme work", sessionId="s1")
    s = session_of(w.lines)
    assert s.custom_titles == ["theme work"]
    assert s.titles == ["theme work", "Add a dark theme"]


def test_the_title_shown_is_the_latest_name_the_user_gave_before_any_ai_title() -> None:
    w = _writer()
    w.prompt("add a dark theme")
    w.bookkeeping("custom-title", customTitle="theme work", sessionId="s1")
    w.bookkeeping("custom-title", customTitle="dark mode", sessionId="s1")
    _finished(w, "added")
    w.bookkeeping("ai-title", aiTitle="Add a dark theme to the settings page", sessionId="s1")
    assert session_of(w.lines).title == "dark mode"


def test_the_title_shown_is_the_latest_ai_title_though_it_was_written_before() -> None:
    # the CLI writes the title again as it changes, and may go back to an earlier one: the
    # list of distinct titles keeps the first place of each, the title shown is the last written
    w = _writer()
    w.prompt("fix the parser")
    w.bookkeeping("ai-title", aiTitle="Fix the parser", sessionId="s1")
    w.bookkeeping("ai-title", aiTitle="Fix the parser and its tests", sessionId="s1")
    _finished(w, "fixed")
    w.bookkeeping("ai-title", aiTitle="Fix the parser", sessionId="s1")
    s = session_of(w.lines)
    assert s.titles == ["Fix the parser", "Fix the parser and its tests"]
    assert s.title == "Fix the parser"


def test_with_no_other_title_a_listing_shows_the_last_summary_title_that_is_its_own() -> None:
    # a count-only read (session_of checks it gives the same title) keeps no compaction point
    w = _writer()
    w.bookkeeping("summary", summary="Early", leafUuid=None)
    w.prompt("fix the parser")
    w.response([{"type": "text", "text": "fixed"}])
    leaf = json.loads(w.lines[-1])["uuid"]
    w.bookkeeping("summary", summary="Parser fix", leafUuid=leaf)
    w.bookkeeping("summary", summary="Another session's work", leafUuid="0000-not-in-this-file")
    w.bookkeeping("summary", summary="   ", leafUuid=leaf)  # a blank one is no title
    assert session_of(w.lines).title == "Parser fix"
    assert session_of(w.lines[:1]).title == "Early"


PEER = '<agent-message from="review">\nVERDICT: REVISE\n</agent-message>'
IDLE_PEER = (
    'Another Claude session sent a message:\n<teammate-message teammate_id="review">\n'
    '{"type":"idle_notification","from":"review"}\n</teammate-message>'
)


def test_messages_from_other_agents_are_notifications_neither_turns_nor_queued_prompts() -> None:
    w = _writer()
    w.prompt("have a reviewer check the plan")
    _working(w)
    _queue(w, "enqueue", PEER)
    _queue(w, "remove", PEER)
    w.bookkeeping("attachment", attachment={"type": "queued_command", "prompt": PEER})
    w.user_text(IDLE_PEER)  # written with the running turn's promptId
    _finished(w, "the reviewer wants changes")
    w.system("turn_duration", durationMs=9000)
    w.prompt_id = "woken-by-the-reviewer"  # 2.1.23x: a new prompt id, nothing typed
    w.user_text(IDLE_PEER)
    _finished(w, "waiting for you")
    w.prompt("approved")
    _finished(w, "merging")
    first, second = session_of(w.lines).turns
    assert first.queued_prompts == [] and not first.has_queued_prompt
    assert first.notifications == 3 and second.prompt == "approved"


def test_each_task_the_team_lead_hands_a_teammate_is_a_turn_of_its_file() -> None:
    w = RecordWriter(
        "s1", "/home/ana/app", "2026-09-16T14:00:00.000Z", sidechain=True, agent_id="aparser-1f"
    )
    w.user_text(
        '<teammate-message teammate_id="team-lead">\nsurvey the parser\n</teammate-message>'
    )
    _memory_write(w)
    _finished(w, "sent my findings to team-lead")
    w.user_text('<teammate-message teammate_id="team-lead">\nnow the lexer\n</teammate-message>')
    _finished(w, "lexer surveyed")
    s = session_of(w.lines)
    assert s.is_sidechain and [t.kind for t in s.turns] == ["prompt", "prompt"]
    assert "survey the parser" in s.turns[0].prompt and "now the lexer" in s.turns[1].prompt
    assert len(s.turns[0].tool_calls) == 1 and s.turns[1].notifications == 0


def test_a_pane_teammates_own_top_level_file_has_each_task_from_the_lead_as_a_turn() -> None:
    # Agent teams with the tmux or iTerm2 backend run each teammate as a process of its own: its
    # transcript is a top-level <session>.jsonl (not a sidechain), opening with an
    # agent-setting line, and every record of it names the teammate (agentName) and its team
    # (teamName). The lead's tasks reach it through its inbox as <teammate-message> records,
    # as an in-process teammate's do; in the lead's file (teamName but no agentName) a
    # teammate's message stays a notification.
    w = RecordWriter("t1", "/home/ana/app", "2026-09-16T14:00:00.000Z")
    w.bookkeeping("agent-setting", agentSetting="parser-surveyor", sessionId="t1")
    own = {"agentName": "parser-surveyor", "teamName": "lexing"}
    w.user_text(
        '<teammate-message teammate_id="team-lead" summary="survey">\nsurvey the parser\n'
        "</teammate-message>",
        **own,
    )
    _memory_write(w)
    _finished(w, "sent my findings to team-lead")
    w.user_text(
        '<teammate-message teammate_id="team-lead">\nnow the lexer\n</teammate-message>', **own
    )
    _finished(w, "lexer surveyed")
    s = session_of(w.lines)
    assert not s.is_sidechain and [t.kind for t in s.turns] == ["prompt", "prompt"]
    assert s.kind == "teammate"
    assert "survey the parser" in s.turns[0].prompt and "now the lexer" in s.turns[1].prompt
    assert len(s.turns[0].tool_calls) == 1
    lead = RecordWriter("l1", "/home/ana/app", "2026-09-16T14:00:00.000Z")
    lead.prompt("build a team to survey the code", teamName="lexing")
    _finished(lead, "team started")
    lead.user_text(
        '<teammate-message teammate_id="parser-surveyor">\nparser done\n</teammate-message>',
        teamName="lexing",
    )
    assert [t.kind for t in session_of(lead.lines).turns] == ["prompt"]
    assert session_of(lead.lines).kind == "main"


SHELL_DONE = (
    "<bash-notification>\n<shell-id>b5eda54</shell-id>\n<status>completed</status>\n"
    "<summary>Background command finished</summary>\n</bash-notification>"
)


def test_a_background_shells_notification_is_neither_a_turn_nor_a_queued_prompt() -> None:
    # 2.0.7x tells the agent a background shell finished with <bash-notification>, queued
    # while a turn runs, then written as a user record when the agent is free
    w = _writer(prompt_ids=False)
    w.prompt("start the server in the background and test it")
    _working(w)
    _queue(w, "enqueue", SHELL_DONE)
    _queue(w, "remove", SHELL_DONE)
    _finished(w, "tested")
    _queue(w, "enqueue", SHELL_DONE)
    _queue(w, "dequeue")
    w.user_text(SHELL_DONE)
    _finished(w, "the server stopped")
    (turn,) = session_of(w.lines).turns
    assert turn.queued_prompts == [] and turn.notifications == 2


def test_the_typed_compact_2_1_23x_writes_is_a_command_not_a_turn() -> None:
    w = _writer()
    w.prompt("finish task one")
    _finished(w, "done")
    w.system("turn_duration", durationMs=3000)
    w.prompt("/compact")
    w.system("compact_boundary", compactMetadata={"trigger": "manual", "preTokens": 9000})
    w.user_text("This session is being continued from a previous conversation. Summary: ...")
    w.user_text("<command-name>/compact</command-name>\n<command-message>compact</command-message>")
    w.prompt("proceed")
    _finished(w, "on task two")
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["finish task one", "proceed"]
    assert s.turns[1].local_commands == ["/compact"]
    assert [c.before_turn for c in s.compactions] == [1, 1]


def test_a_bash_command_the_model_answers_is_a_turn_of_its_own() -> None:
    w = _writer()
    w.prompt("what changed on the branch?")
    _finished(w, "two files")
    w.system("turn_duration", durationMs=3000)
    w.prompt_id = "bash-command"  # 2.1.23x gives the `!` command a prompt id of its own
    w.user_text("<bash-input>git push --tags</bash-input>")
    w.user_text("<bash-stdout>* [new tag] v1.0</bash-stdout><bash-stderr></bash-stderr>")
    call = w.tool_use("Read", {"file_path": f"{MEM}/release.md"})
    w.response([call])
    w.result(call, "release steps")
    _finished(w, "tag pushed; notes next")
    first, second = session_of(w.lines).turns
    assert first.tool_calls == [] and first.bash_commands == []
    assert second.kind == "bash" and second.prompt == "! git push --tags"
    assert [c.id for c in second.tool_calls] == [call["id"]]
    assert second.bash_commands == ["git push --tags"] and "bash" in second.flags


def test_a_bash_command_without_a_prompt_id_still_waits_for_the_next_prompt() -> None:
    w = _writer(prompt_ids=False)
    w.prompt("hello")
    _finished(w, "hi")
    w.user_text("<bash-input>ls</bash-input>")
    w.user_text("<bash-stdout>a b</bash-stdout>")
    w.prompt("read a")
    _finished(w, "read it")
    _, second = session_of(w.lines).turns
    assert second.kind == "prompt" and second.bash_commands == ["ls"]


def test_a_reply_to_a_notification_after_an_unanswered_bash_command_is_no_bash_turn() -> None:
    w = _writer()
    w.prompt("start the build in the background")
    _finished(w, "started")
    w.system("turn_duration", durationMs=2000)
    w.prompt_id = "bash-command"
    w.user_text("<bash-input>ls</bash-input>")
    w.user_text("<bash-stdout>a b</bash-stdout>")
    w.user_text(NOTE)
    _finished(w, "the build finished")
    (turn,) = session_of(w.lines).turns
    assert turn.notifications == 1 and turn.bash_commands == ["ls"]


def test_an_unknown_slash_command_is_listed_on_the_next_turn_and_starts_no_turn() -> None:
    w = _writer(prompt_ids=False)
    _one_turn(w, "read the plan")
    w.meta(
        "<local-command-caveat>Caveat: The messages below were generated by the user while "
        "running local commands.</local-command-caveat>"
    )
    w.user_text("Unknown skill: btw")  # what the CLI wrote for `/btw is the emulator still up?`
    w.prompt("adb devices still lists the old emulator")
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == [
        "read the plan",
        "adb devices still lists the old emulator",
    ]
    assert s.turns[1].local_commands == ["/btw"] and s.turns[1].local_command


def test_a_forks_copy_of_its_parents_history_is_not_its_turns() -> None:
    w = _writer()
    _one_turn(w, "review the diff")
    w.prompt("remember the review rules")
    _memory_write(w)
    w.response([{"type": "text", "text": "saved"}])
    fork_of(w, "s2")  # `/fork`: the parent's records copied, each with forkedFrom
    w.prompt("what does fork do?")
    w.response([{"type": "text", "text": "it copies the conversation"}])
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["what does fork do?"]
    assert s.session_id == "s2" and s.forked_from == "s1"
    assert s.tool_calls == []  # the parent's memory write is the parent's
    assert s.copied_records == 8 and len(s.copied_uuids) == 8


def test_a_record_whose_fork_names_its_own_session_is_read_as_usual() -> None:
    w = _writer()
    _one_turn(w, "review the diff")
    fork_of(w, "s1")  # a forkedFrom naming the file's own session copies nothing
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["review the diff"]
    assert s.forked_from is None and s.copied_records == 0


def _with_prompt_id(w: RecordWriter, prompt_id: str | None) -> None:
    record = json.loads(w.lines[-1])
    record["promptId"] = prompt_id
    w.lines[-1] = json.dumps(record)


def test_a_prompt_typed_after_an_answer_ended_the_turn_is_a_new_turn_though_it_keeps_the_id() -> (
    None
):
    w = _writer()
    w.prompt("pull today's customer data")
    first_id = w.prompt_id
    _finished(w, "the Chrome debug port is closed")  # end_turn, and no turn_duration record
    w.prompt("it says chrome.exe was not found")
    _with_prompt_id(w, first_id)  # the VS Code extension (2.1.12x-2.1.14x) keeps the first id
    _finished(w, "use the full path")
    w.user_text(
        "<command-message>implement</command-message>\n<command-name>/implement</command-name>"
    )
    _with_prompt_id(w, first_id)  # 2.1.92: a skill command after a finished turn, too
    _finished(w, "what should I build?")
    turns = session_of(w.lines).turns
    assert [t.prompt for t in turns] == [
        "pull today's customer data",
        "it says chrome.exe was not found",
        "/implement",
    ]
    assert all(t.queued_prompts == [] for t in turns)


def test_a_prompt_with_the_running_turns_id_while_it_works_joins_that_turn() -> None:
    w = _writer()
    w.prompt("scrape every conversation")
    first_id = w.prompt_id
    _working(w)  # a tool call and its result: the turn is still running
    w.prompt("and the attachments too")
    _with_prompt_id(w, first_id)
    _finished(w, "done, with attachments")
    (turn,) = session_of(w.lines).turns
    assert turn.queued_prompts == ["and the attachments too"]


def _agent_writer(agent_id: str) -> RecordWriter:
    start = "2026-03-31T01:23:20.000Z"
    return RecordWriter("s1", "/home/ana/app", start, seed="c", sidechain=True, agent_id=agent_id)


def _handed_conversation(w: RecordWriter) -> None:
    """What 2.1.8x writes first into the file of an agent the CLI hands the conversation: the
    parent's turns, marked as the agent's (isSidechain, agentId)."""
    _one_turn(w, "fix the parser")
    w.system("compact_boundary", compactMetadata={"trigger": "auto", "preTokens": 9000})
    w.prompt("and add the tests")
    w.response([{"type": "text", "text": "added"}])


def test_a_compaction_agent_given_the_conversation_has_one_turn_its_instruction() -> None:
    w = _agent_writer("acompact-8d29248259aa9c0e")
    _handed_conversation(w)
    running_id = w.prompt_id
    w.prompt("Your task is to create a detailed summary of the conversation so far.")
    _with_prompt_id(w, running_id)
    w.response([{"type": "text", "text": "<summary>parser fixed</summary>"}])
    s = session_of(w.lines)
    assert s.kind == "compaction"
    (turn,) = s.turns
    assert turn.index == 0 and turn.prompt.startswith("Your task is to create a detailed summary")
    assert s.tool_calls == [] and s.compactions == []  # the parent's
    assert s.copied_records == 6


def test_a_side_question_agent_given_the_conversation_shows_the_side_question() -> None:
    w = _agent_writer("aside_question-7a81e4850e48fc1e")
    _handed_conversation(w)
    running_id = w.prompt_id
    w.prompt("<system-reminder>This is a side question from the user.</system-reminder>\nis it up?")
    _with_prompt_id(w, running_id)  # the agent's own prompt keeps the parent's last id
    w.response([{"type": "text", "text": "yes"}])
    s = session_of(w.lines)
    assert s.kind == "subagent"
    assert [t.prompt for t in s.turns] == [
        "<system-reminder>This is a side question from the user.</system-reminder>\nis it up?"
    ]


def test_a_subagent_the_lead_writes_to_again_keeps_every_turn() -> None:
    w = _agent_writer("a4be9d337750c67bc")
    _one_turn(w, "survey the vault")
    w.prompt("now the archive folder")
    w.response([{"type": "text", "text": "surveyed"}])
    assert [t.prompt for t in session_of(w.lines).turns] == [
        "survey the vault",
        "now the archive folder",
    ]


def test_a_main_session_that_opens_with_the_clis_warmup_sidechain_is_a_main_session() -> None:
    start = "2025-10-17T01:33:38.000Z"
    warm = RecordWriter("s1", "/home/ana", start, seed="w", sidechain=True, prompt_ids=False)
    warm.prompt("Warmup")  # 2.0.x: the CLI's own exchange, isSidechain true and no agentId
    warm.response([{"type": "text", "text": "I'm Claude Code, ready to help."}])
    w = RecordWriter("s1", "/home/ana", "2025-10-17T01:34:00.000Z", seed="m", prompt_ids=False)
    _one_turn(w, "config")
    s = session_of(warm.lines + w.lines)
    assert s.kind == "main" and not s.is_sidechain
    assert [t.prompt for t in s.turns] == ["config"] and len(s.tool_calls) == 1
    assert s.sidechain_records == 2


def test_a_scheduled_prompt_that_fired_is_a_turn_of_its_own_though_marked_meta() -> None:
    # 2.1.28x: /loop and CronCreate send the prompt the user set up when the schedule fires: a
    # system/scheduled_task_fire note, then the prompt as an isMeta user record with a new
    # promptId, turnOrigin "scheduled" and the task's id (the self-paced /loop's wakeups
    # carry only turnOrigin)
    w = _writer()
    w.prompt("/loop 15m look at the nightly import log")
    _finished(w, "scheduled")
    w.system("turn_duration", durationMs=3000)
    for task in ("c41a07e2", None):
        w.system("scheduled_task_fire", content="Running scheduled task (Oct 6 9:15am)")
        w.prompt_id = f"fire-{task}"
        ids = {"scheduledTaskId": task} if task else {}
        w.user_text(
            "look at the nightly import log",
            isMeta=True,
            promptSource="system",
            turnOrigin="scheduled",
            **ids,
        )
        _memory_write(w)
        _finished(w, "two rows were rejected")
    typed, *fired = session_of(w.lines).turns
    assert [t.kind for t in fired] == ["scheduled", "scheduled"]
    assert all(t.prompt == "look at the nightly import log" for t in fired)
    assert [len(t.tool_calls) for t in fired] == [1, 1] and typed.tool_calls == []
    assert fired[0].flags == ["scheduled"] and not fired[0].has_queued_prompt


def test_a_fork_sessions_copy_of_its_parent_is_not_its_turns_though_nothing_marks_it() -> None:
    # `--resume <id> --fork-session` (2.1.27x): the new file opens with the queue records of
    # the fork's own prompt, then the parent's conversation with its uuids and times kept and
    # the fork's sessionId, and no forkedFrom; the fork's own prompt comes after it
    w = _writer()
    w.prompt("remember that the staging db is read-only on weekends")
    _memory_write(w)
    _finished(w, "saved")
    parent = list(w.lines)
    _queue(w, "enqueue", "does the note still hold?")
    _queue(w, "dequeue")
    opening = w.lines[len(parent) :]
    w.lines = [*opening, *parent]
    w.prompt("does the note still hold?")
    _finished(w, "yes")
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["does the note still hold?"]
    assert s.tool_calls == [] and s.copied_records == len(parent)


PARENT_ID = "0b5e2c1a-7d44-4f0e-9a51-3c8e6f2d9a10"
FORK_ID = "7f3d9e20-1c6b-4a8f-b2d4-5e9a0c7b1f33"


def _session_file(lines: list[str], session_id: str) -> Session:
    return session_of(lines, f"/home/ana/.claude/projects/-home-ana-app/{session_id}.jsonl")


def test_a_desktop_fork_that_keeps_the_parents_session_id_on_its_copy_has_only_its_own_turns() -> (
    None
):
    # Claude Desktop (2.1.17x) opens a fork's file with the parent's records written again
    # unchanged, queue records and the parent's sessionId included; the fork's own records,
    # under the id its file is named by, follow
    w = RecordWriter(PARENT_ID, "/home/ana/app", "2026-06-12T06:56:00.000Z", seed="d")
    _queue(w, "enqueue", "remember that the staging db is read-only on weekends")
    _queue(w, "dequeue")
    w.prompt("remember that the staging db is read-only on weekends")
    _memory_write(w)
    _finished(w, "saved")
    w.prompt("and the backups?")
    _finished(w, "nightly")
    copied = sum(json.loads(line)["type"] in ("user", "assistant") for line in w.lines)
    w.session_id = FORK_ID
    _queue(w, "enqueue", "try again")
    _queue(w, "dequeue")
    w.prompt("try again")
    _finished(w, "done")
    s = _session_file(w.lines, FORK_ID)
    assert [t.prompt for t in s.turns] == ["try again"] and s.turns[0].index == 0
    assert s.tool_calls == [] and s.copied_records == copied
    assert (s.session_id, s.forked_from) == (FORK_ID, PARENT_ID)
    assert len(s.copied_uuids) == copied
    # the same records in a file named by the parent's id are that session's own
    assert len(_session_file(w.lines, PARENT_ID).turns) == 3


def test_a_plan_implemented_in_a_new_file_after_the_planning_sessions_interrupt_is_its_own() -> (
    None
):
    # 2.1.5x-2.1.6x: "clear context and implement the plan" opens a new file with the planning
    # session's last record, its interrupt notice under its id; the file's own records follow.
    # The session was named by the planning session's id and began with a turn of nothing.
    w = RecordWriter(PARENT_ID, "/home/ana/app", "2026-03-02T09:11:00.000Z", seed="p")
    w.interrupt(for_tool=True)
    w.session_id = FORK_ID
    w.prompt("Implement the following plan: move the kiln schedule into its own page")
    _memory_write(w)
    _finished(w, "moved")
    w.prompt("now the glaze page")
    _finished(w, "done")
    s = _session_file(w.lines, FORK_ID)
    assert s.session_id == FORK_ID and s.forked_from == PARENT_ID
    assert [t.prompt for t in s.turns] == [
        "Implement the following plan: move the kiln schedule into its own page",
        "now the glaze page",
    ]
    assert s.copied_records == 1 and len(s.tool_calls) == 1


def test_prompts_written_under_the_cleared_session_after_a_clear_stay_turns() -> None:
    # 2.1.19 after /clear: the user's prompts keep the cleared session's id for a while, the
    # answers carry the file's own; no answer under another id, so no copy
    w = RecordWriter(PARENT_ID, "/home/ana/app", "2026-01-24T11:48:00.000Z", seed="c")
    w.prompt("clone my repo")
    w.session_id = FORK_ID
    _memory_write(w)
    _finished(w, "cloned")
    w.session_id = PARENT_ID
    w.prompt("save the username first")
    w.session_id = FORK_ID
    _finished(w, "saved")
    s = _session_file(w.lines, FORK_ID)
    assert [t.prompt for t in s.turns] == ["clone my repo", "save the username first"]
    assert s.copied_records == 0 and s.forked_from is None and len(s.tool_calls) == 1


def test_a_turn_whose_answer_carries_the_files_own_id_is_never_a_copy() -> None:
    # the 2.1.19 /clear shape after a stray answer under the cleared id: the first answer under
    # the file's own id answers the prompt before it, so that turn is the file's own; it was
    # left out as the copied prefix (every turn of the file lost to replay and extraction)
    w = RecordWriter(PARENT_ID, "/home/ana/app", "2026-01-24T11:48:00.000Z", seed="s")
    w.prompt("clone my repo")
    _finished(w, "cloned")
    w.lines = w.lines[1:]  # the cleared session's last answer, without its prompt
    w.prompt("save the username first")
    w.session_id = FORK_ID
    _finished(w, "saved")
    s = _session_file(w.lines, FORK_ID)
    assert [t.prompt for t in s.turns] == ["save the username first"]
    assert s.turns[0].responses[0].text == "saved" and s.turns[0].uuid not in s.copied_uuids
    assert s.copied_records == 1  # the stray answer, an answer under another id


def test_a_first_prompt_written_just_after_its_own_dequeue_is_not_a_copy() -> None:
    # Claude Desktop and the VS Code extension queue even the first prompt; the extension
    # writes a command typed before it (/model) after its queue records, with older times
    w = _writer()
    w.user_text("<command-name>/model</command-name>\n<command-args>opus</command-args>")
    w.user_text("<local-command-stdout>Set model to opus</local-command-stdout>")
    command = w.lines[:]
    _queue(w, "enqueue", "why is the build red?")
    _queue(w, "dequeue")
    w.lines = [*w.lines[len(command) :], *command]
    w.prompt("why is the build red?")
    _memory_write(w)
    _finished(w, "a flaky test")
    s = session_of(w.lines)
    assert len(s.turns) == 1 and s.copied_records == 0 and len(s.tool_calls) == 1
    assert s.turns[0].local_commands == ["/model opus"]


def _from_the_coordinator(w: RecordWriter, text: str, prompt_id: str) -> None:
    w.prompt_id = prompt_id
    w.user_text(
        f"The coordinator sent a message while you were working:\n{text}",
        isMeta=True,
        origin={"kind": "coordinator"},
    )


def test_the_coordinators_message_after_a_subagent_finished_is_its_next_task() -> None:
    # 2.1.2xx subagent files: SendMessage to a subagent that has answered (a response without
    # tool calls, with or without stop_reason end_turn) resumes it with a new task, minutes or
    # hours later, under any promptId; sent between its tool calls, the same words are a note
    w = _agent_writer("a5c01d9e7b3f2a816")
    w.prompt("Implement task 3 of the plan")
    _working(w)
    _from_the_coordinator(w, "the plan's constraints changed, re-read them", w.prompt_id or "")
    _finished(w, "Status: DONE")
    _from_the_coordinator(w, "comments in source must be English: translate yours", "p-2")
    _memory_write(w)
    w.response([{"type": "text", "text": "Status: DONE"}])  # no stop_reason on its last block
    _from_the_coordinator(w, "fix round 2: two defects", "p-2")  # the same promptId, too
    _finished(w, "fixed")
    first, second, third = session_of(w.lines).turns
    assert first.notifications == 1 and second.kind == third.kind == "prompt"
    assert second.prompt.endswith("translate yours") and len(second.tool_calls) == 1
    assert third.prompt.endswith("two defects") and second.notifications == 0


def test_a_message_through_a_channel_is_a_turn_of_its_own_though_marked_meta() -> None:
    # 2.1.2xx: a person writing to the session through an MCP channel (a Telegram bridge)
    # reaches it as an isMeta user record with origin kind "channel"; the agent answers it
    w = _writer()
    w.prompt("keep an eye on the import while I am out")
    _finished(w, "will do")
    w.system("turn_duration", durationMs=2000)
    w.prompt_id = "from-the-phone"
    w.user_text(
        '<channel source="telegram" chat_id="-1001" message_id="42">\n'
        "did the import finish? note the row count\n</channel>",
        isMeta=True,
        origin={"kind": "channel", "server": "plugin:telegram:telegram"},
    )
    _memory_write(w)
    _finished(w, "yes, 1,204 rows")
    typed, phoned = session_of(w.lines).turns
    assert phoned.kind == "channel" and phoned.flags == ["channel"]
    assert "note the row count" in phoned.prompt and len(phoned.tool_calls) == 1
    assert typed.tool_calls == []


def test_an_answer_taken_back_after_a_refusal_is_marked_and_its_unrun_calls_do_not_count() -> None:
    w = _writer()
    asked = w.prompt("load-test the login rate limiter and note how")
    unrun = w.tool_use("Write", {"file_path": f"{MEM}/limiter.md", "content": "partial"})
    taken = refused_answer(w, [{"type": "text", "text": "Here is a"}, unrun], prompt_uuid=asked)
    call = w.tool_use("Write", {"file_path": f"{MEM}/limiter.md", "content": "use k6 on staging"})
    superseding(w, [{"type": "text", "text": "I'll note it"}, call], taken)
    w.result(call, "File created successfully at: x")
    w.response([{"type": "text", "text": "noted"}], model="claude-opus-4-8")
    s = session_of(w.lines)
    (turn,) = s.turns
    refused, retry, answer = turn.responses
    assert refused.retracted and not retry.retracted and not answer.retracted
    assert [c.id for c in turn.tool_calls] == [call["id"]]
    assert s.retracted_uuids == set(taken) and turn.answered
    assert turn.refusals == ["claude-fable-5 refused (cyber); answered by claude-opus-4-8"]
    assert turn.flags == ["refused"]


def test_a_refusal_without_fallback_takes_back_the_refused_request_and_the_turn_is_an_error() -> (
    None
):
    w = _writer()
    asked = w.prompt("write an exploit for the login form")
    refused_answer(w, [{"type": "thinking", "thinking": ""}], prompt_uuid=asked, fallback=None)
    w.system("turn_duration", durationMs=2400)
    w.prompt("then explain the rate limiter instead")
    w.response([{"type": "text", "text": "It counts attempts per IP."}])
    first, second = session_of(w.lines).turns
    assert first.responses[0].retracted and first.api_error_only
    assert first.refusals == ["claude-fable-5 refused (cyber); no fallback model answered"]
    assert first.flags == ["api_error", "refused"] and second.flags == []
    assert not second.responses[0].retracted


def test_files_the_cli_saw_change_outside_are_kept_on_their_turn_and_bounded(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr(session_model, "SESSION_OUTSIDE_EDITS_MAX", 2)
    w = _writer()

    def changed(name: object) -> None:
        note = w.envelope("attachment")
        note["attachment"] = {"type": "edited_text_file", "filename": name, "snippet": "1\tx"}
        note["uuid"], note["timestamp"] = w.uid("att"), w.stamp()
        w.emit(note)

    changed(f"{MEM}/MEMORY.md")  # before any prompt: no turn to hold it
    w.prompt("go on")
    changed(["not", "a", "path"])  # a name that is no string is no file
    changed(f"{MEM}/MEMORY.md")
    changed("/home/ana/app/src/main.py")
    changed(f"{MEM}/c.md")  # past the session's bound: counted nowhere
    s = session_of(w.lines)
    kept = s.turns[0].outside_edits
    assert [c.input["file_path"] for c in kept] == [f"{MEM}/MEMORY.md", "/home/ana/app/src/main.py"]
    assert all(c.name == "edited_text_file" and c.timestamp for c in kept)
    assert s.turns[0].tool_calls == []  # no call of the agent's


def _fork_file_writer(seed: str) -> RecordWriter:
    """A writer of one fork agent's own (sidechain) file, in a 2.1.20x session."""
    return RecordWriter(
        "s1",
        "/home/ana/app",
        "2026-07-08T06:58:00.000Z",
        sidechain=True,
        agent_id="a4f0c2d9e8b7a6f51",
        seed=seed,
    )


def test_a_fork_workers_file_has_its_directive_as_prompt_and_not_the_parents_launch() -> None:
    # 2.1.20x: a fork's file opens with the parent's Agent call copied (no parent uuid), then
    # one record holding that call's "started" result and the fork's task. The fork read as
    # one prompt-less continuation turn owning the parent's call, so replay recalled nothing.
    w = _fork_file_writer("fork")
    launch = fork_worker(w, "check which deploy day the notes give")
    read = w.tool_use("Read", {"file_path": f"{MEM}/deploy.md"})
    w.response([read])
    w.result(read, "deploy on fridays")
    w.response([{"type": "text", "text": "Fridays."}])
    s = session_of(w.lines)
    assert [(t.kind, t.prompt) for t in s.turns] == [
        ("prompt", "check which deploy day the notes give")
    ]
    assert [c.name for c in s.tool_calls] == ["Read"]
    assert s.copied_records == 1 and launch["id"] not in {c.id for c in s.tool_calls}
    assert json.loads(w.lines[1])["uuid"] in s.copied_uuids


def test_a_sidechain_file_opening_with_other_calls_keeps_them_as_its_own() -> None:
    # only a call whose result the fork's task carries is the parent's launch
    w = _fork_file_writer("fork2")
    w.last = None
    own = w.tool_use("Bash", {"command": "ls"})
    w.response([own])
    w.result(own, "deploy.md")
    fork_worker(w, "sort the notes")
    s = session_of(w.lines)
    assert [t.kind for t in s.turns] == ["continuation", "prompt"]
    assert s.copied_records == 0 and [c.name for c in s.turns[0].tool_calls][:1] == ["Bash"]


def _answered(w: RecordWriter, text: str, memory: str | None = None) -> None:
    w.prompt(text)
    if memory is not None:
        call = w.tool_use("Read", {"file_path": f"{MEM}/{memory}"})
        w.response([call])
        w.result(call, "notes")
    w.response([{"type": "text", "text": f"done: {text}"}])
    w.system("turn_duration", durationMs=1000)


def test_records_a_second_compact_writes_again_under_their_own_uuids_are_read_once() -> None:
    # anthropics/claude-code#92089: a second /compact in one process first appends again
    # every record the process held since it began (here: since the compaction it resumed
    # from), uuids and times kept. The copied boundary had counted as a fourth compaction, its
    # wrapper as a second /compact, and the originals' uuids were marked copied, so the
    # extractor left the turns out
    w = _writer()
    _answered(w, "zero")
    began = len(w.lines)
    compact_by_command(w)
    _answered(w, "one", "deploy.md")
    kept_from = len(w.lines)
    compact_by_command(w)
    _answered(w, "two")
    write_again(w, began, kept_from)
    w.system("stop_hook_summary")
    compact_by_command(w)
    _answered(w, "three")
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["zero", "one", "two", "three"]
    assert [c.name for c in s.tool_calls] == ["Read"]
    assert [c.before_turn for c in s.compactions] == [1, 1, 2, 2, 3, 3]
    assert [t.local_commands for t in s.turns] == [[], ["/compact"], ["/compact"], ["/compact"]]
    assert s.copied_records == 7 and s.copied_uuids == set()


def test_records_written_again_from_the_files_start_leave_the_originals_in_place() -> None:
    w = _writer()
    _answered(w, "one", "deploy.md")
    kept_from = len(w.lines)
    compact_by_command(w)
    _answered(w, "two")
    write_again(w, 0, kept_from)
    compact_by_command(w)
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["one", "two"] and len(s.tool_calls) == 1
    assert s.copied_records == 4 and s.copied_uuids == set()


def test_the_memories_the_clis_own_recall_surfaced_are_kept_on_their_turn_and_bounded(
    monkeypatch: Any,
) -> None:
    monkeypatch.setattr(session_model, "SESSION_CLI_RECALLS_MAX", 3)
    w = _writer()
    cli_recalled(w, f"{MEM}/early.md")  # before any prompt: no turn to hold it
    w.prompt("which ferry")
    cli_recalled(w, f"{MEM}/a.md", f"{MEM}/b.md")
    w.response([{"type": "text", "text": "the seven o'clock"}])
    w.prompt("and the tides")
    cli_recalled(w, f"{MEM}/c.md", f"{MEM}/c.md", f"{MEM}/d.md")  # d.md: past the bound
    first, second = session_of(w.lines).turns
    assert first.cli_recalled == [f"{MEM}/a.md", f"{MEM}/b.md"]
    assert second.cli_recalled == [f"{MEM}/c.md"]


# The VS Code extension 2.0.x writes the history again on a resume, at one new time
# (formats.session_rewrites; docs/sessions.md, resume37).
IDE = {
    "type": "text",
    "text": "<ide_opened_file>The user opened plan.md in the IDE.</ide_opened_file>",
}


def _vscode_writer() -> RecordWriter:
    start = "2026-05-01T10:00:00.000Z"
    return RecordWriter("s2", "/home/ana/app", start, seed="vs", prompt_ids=False, version="2.0.2")


def _plan_then_yes(w: RecordWriter) -> None:
    """Two typed turns: one with IDE context and a tool call, then a one-word answer."""
    _one_turn(w, [IDE, {"type": "text", "text": "read the plan"}])
    w.prompt("yes")
    w.response([{"type": "text", "text": "done"}])


def test_a_vscode_resume_that_writes_the_history_again_at_one_time_begins_no_turn() -> None:
    w = _vscode_writer()
    _plan_then_yes(w)
    written = len(w.lines)
    rewritten_on_resume(w)
    copy = [json.loads(line)["uuid"] for line in w.lines[written:]]
    w.prompt("now the roadmap")
    w.response([{"type": "text", "text": "here it is"}])
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["read the plan", "yes", "now the roadmap"]
    assert s.copied_records == len(copy) == 7 and s.copied_uuids == set(copy)
    assert len(s.tool_calls) == 1 and s.tool_calls[0].succeeded
    assert s.turns[1].end_timestamp == json.loads(w.lines[written - 1])["timestamp"]


def test_each_resume_of_a_vscode_session_is_left_out_and_what_was_typed_between_kept() -> None:
    w = _vscode_writer()
    _plan_then_yes(w)
    rewritten_on_resume(w)
    resumed = len(w.lines)
    w.prompt("now the roadmap")
    w.response([{"type": "text", "text": "here it is"}])
    rewritten_on_resume(w, resumed)  # the second copy holds what the last resume began
    w.prompt([IDE, {"type": "text", "text": "and the budget"}])
    w.response([{"type": "text", "text": "the budget"}])
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == [
        "read the plan",
        "yes",
        "now the roadmap",
        "and the budget",
    ]


def test_a_resume_after_an_interrupted_turn_leaves_out_the_copy_and_its_no_response_reply() -> None:
    w = _vscode_writer()
    w.prompt("run the tests")
    call = w.tool_use("Bash", {"command": "make test"})
    w.response([call])
    w.result(call, "The user doesn't want to proceed with this tool use.", is_error=True)
    w.interrupt(for_tool=True)
    rewritten_on_resume(w, no_response=True)
    w.prompt("run only the unit tests")
    w.response([{"type": "text", "text": "ok"}])
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["run the tests", "run only the unit tests"]
    assert s.turns[0].interrupted and s.copied_records == 5
    assert [r.text for r in s.turns[1].responses] == ["ok"]


def test_a_prompt_typed_again_right_after_a_vscode_resume_is_a_turn_of_its_own() -> None:
    w = _vscode_writer()
    _plan_then_yes(w)
    rewritten_on_resume(w)
    w.prompt("yes")  # 4 ms after the copy, answered by the API: typed
    w.response([{"type": "text", "text": "done again"}])
    w.prompt("yes")
    w.response([{"type": "text", "text": "and again"}])
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["read the plan", "yes", "yes", "yes"]
    assert s.copied_records == 7


def test_an_earlier_answer_written_again_under_another_prompt_is_read_as_written() -> None:
    # the block's first answer must repeat the turn whose prompt its own prompt repeats: an
    # answer of turn 1 under a prompt of other text, at that prompt's time, takes nothing back
    w = _vscode_writer()
    _one_turn(w, "read the plan")
    first_answer = json.loads(w.lines[1])
    w.prompt("something else")
    first_answer.pop("requestId")
    first_answer["timestamp"] = json.loads(w.lines[-1])["timestamp"]
    first_answer["uuid"] = w.uid("again")
    w.emit(first_answer)
    s = session_of(w.lines)
    assert [t.prompt for t in s.turns] == ["read the plan", "something else"]
    assert s.copied_records == 0
