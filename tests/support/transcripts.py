"""Transcript messages built in memory for the extractor's tests."""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path
from typing import Any

from memdir_nb.extract import TranscriptMessage, parse_transcript_lines
from memdir_nb.ui.demo.session_records import RecordWriter


def numbered_messages(n: int, start: int = 0) -> list[TranscriptMessage]:
    """n alternating user/assistant messages with uuids u<start>.. and text 'message <i>'."""
    lines = [
        json.dumps(
            {
                "type": "user" if i % 2 == 0 else "assistant",
                "uuid": f"u{i}",
                "message": {
                    "role": "user" if i % 2 == 0 else "assistant",
                    "content": f"message {i}",
                },
            }
        )
        for i in range(start, start + n)
    ]
    return parse_transcript_lines(lines).messages


def append_copy(w: RecordWriter, start: int, *, split: bool = False) -> None:
    """Append records w.lines[start:] again as newer CLIs do after a finished turn: fresh uuids,
    the original timestamps and tool_use ids, the first one without a parent; with `split`, a
    prompt of several blocks is written as one record per block."""
    parent = None
    for line in list(w.lines[start:]):
        record = json.loads(line)
        content = record["message"]["content"]
        parts = [[b] for b in content] if split and isinstance(content, list) else [content]
        for part in parts:
            record["message"]["content"] = part
            record["parentUuid"], record["uuid"] = parent, w.uid("copy")
            parent = record["uuid"]
            w.emit(record)
    w.last = parent


def api_error_reply(w: RecordWriter, text: str, *, retries: int = 0) -> None:
    """What the CLI writes when the API call fails: `retries` system/api_error records, then
    an assistant record the harness made (model '<synthetic>', isApiErrorMessage) whose text
    is what the user saw."""
    for attempt in range(1, retries + 1):
        error = {"type": "error", "error": {"type": "api_error", "message": "Overloaded"}}
        w.system(
            "api_error", level="error", error={"status": 529, "error": error}, retryAttempt=attempt
        )
    w.response([{"type": "text", "text": text}], model="<synthetic>")
    record = json.loads(w.lines[-1])
    record["isApiErrorMessage"], record["message"]["stop_reason"] = True, "stop_sequence"
    w.lines[-1] = json.dumps(record)


def fork_of(w: RecordWriter, fork_id: str) -> None:
    """Turn w's transcript into the start of a forked session as `/fork` writes one (2.1.2x):
    every record so far copied with its uuid, timestamp and parent kept, the fork's sessionId,
    and `forkedFrom` naming the parent session and the record's own uuid. Records w writes
    next belong to the fork alone (no forkedFrom)."""
    parent_id = w.session_id
    for i, line in enumerate(w.lines):
        record = json.loads(line)
        record["sessionId"] = fork_id
        if isinstance(record.get("uuid"), str):
            record["forkedFrom"] = {"sessionId": parent_id, "messageUuid": record["uuid"]}
        w.lines[i] = json.dumps(record)
    w.session_id = fork_id


def refused_answer(
    w: RecordWriter,
    blocks: list[dict[str, Any]],
    *,
    prompt_uuid: str,
    fallback: str | None = "claude-opus-4-8",
) -> list[str]:
    """A partial answer the model's safeguards stopped, and the CLI's record of it (2.1.19x and
    later): with `fallback`, system/model_refusal_fallback naming the partial's records in
    retractedMessageUuids (the retry then comes from that model); without, the CLI's
    model_refusal_no_fallback record (naming the refused request only) and its API error
    reply. Returns the partial's record uuids."""
    first = len(w.lines)
    w.response(blocks, model="claude-fable-5")
    partial = [json.loads(line) for line in w.lines[first:]]
    fields: dict[str, Any] = {
        "level": "warning",
        "originalModel": "claude-fable-5",
        "apiRefusalCategory": "cyber",
        "refusedUserMessageUuid": prompt_uuid,
        "requestId": partial[0]["requestId"],
    }
    if fallback is None:
        w.system("model_refusal_no_fallback", content="", **fields)
        api_error_reply(w, "API Error: Fable 5's safeguards flagged this message.")
    else:
        fields.update(trigger="refusal", direction="retry", scope="session")
        fields["retractedMessageUuids"] = [r["uuid"] for r in partial]
        w.system("model_refusal_fallback", fallbackModel=fallback, **fields)
    return [r["uuid"] for r in partial]


def superseding(w: RecordWriter, blocks: list[dict[str, Any]], uuids: list[str]) -> None:
    """The retry's answer on the fallback model, its first record naming the records it
    replaces in supersedesUuids."""
    first = len(w.lines)
    w.response(blocks, model="claude-opus-4-8")
    record = json.loads(w.lines[first])
    record["supersedesUuids"] = uuids
    w.lines[first] = json.dumps(record)


FORK_RULES = (
    "<fork-boilerplate>\nYou work for the agent that forked you. Do one task.\n</fork-boilerplate>"
)


def fork_worker(w: RecordWriter, directive: str, *, launched: str = "Agent") -> dict[str, Any]:
    """Open a fork subagent's file as 2.1.20x writes it (w: sidechain, with an agent id): a
    `fork-context-ref` line naming the parent's context, the parent's `launched` call copied
    as the file's first record (no parent uuid), then one user record holding that call's
    "started in the background" result and the task, the CLI's fixed rules in
    `<fork-boilerplate>` tags followed by the directive. Returns the copied call."""
    w.bookkeeping("fork-context-ref", agentId=w.agent_id, parentSessionId=w.session_id)
    call = w.tool_use(launched, {"subagent_type": "fork", "prompt": directive})
    w.last = None
    w.response([call])
    started = {"type": "tool_result", "tool_use_id": call["id"], "content": "Fork started"}
    task = {"type": "text", "text": f"{FORK_RULES}\n\nYour directive: {directive}"}
    w.prompt([started, task])
    return call


def compact_by_command(w: RecordWriter) -> None:
    """A typed `/compact` as 2.1.2xx writes it: the echo, the boundary, the summary (marked
    isCompactSummary) and the command wrapper."""
    w.prompt("/compact")
    w.system("compact_boundary", compactMetadata={"trigger": "manual", "preTokens": 9000})
    w.user_text(
        "This session is being continued from a previous conversation. Summary: ...",
        isCompactSummary=True,
    )
    w.user_text("<command-name>/compact</command-name>\n<command-message>compact</command-message>")


def write_again(w: RecordWriter, start: int, end: int) -> None:
    """Append w.lines[start:end] again unchanged (uuids, parents and times kept): what a second
    `/compact` in one CLI process writes before its boundary (anthropics/claude-code#92089,
    2.1.2xx), the history the process held since it began or resumed, up to the part the first
    compaction kept."""
    w.lines.extend(w.lines[start:end])


def pane_teammate(session: str, cwd: str, timestamp: str) -> RecordWriter:
    """A teammate run as a process of its own (a tmux or iTerm2 pane): its own top-level file,
    whose records carry agentName beside teamName, with one task from the lead and one reply."""
    w = RecordWriter(session, cwd, timestamp)
    w.bookkeeping("agent-setting", agentSetting="parser-surveyor", sessionId=session)
    w.user_text(
        '<teammate-message teammate_id="team-lead">\nsurvey the parser\n</teammate-message>',
        agentName="parser-surveyor",
        teamName="lexing",
    )
    w.response([{"type": "text", "text": "surveyed"}])
    return w


def long_session(folder: Path, turns: int) -> Path:
    """A main session's transcript of `turns` turns of the shape real ones have, written into
    `folder` under its session id: each turn a prompt and an answer, every fifth one a Read
    call (its own record, as the CLI writes one per content block) and its result; turns ten
    seconds apart. About 1.4 KB a turn."""
    session = "0b2c4d6e-1111-4222-8333-444455556666"
    start = _dt.datetime(2026, 5, 1, tzinfo=_dt.UTC)
    path = folder / f"{session}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for first in range(0, turns, 100):
            stamp = (start + _dt.timedelta(seconds=10 * first)).isoformat()
            w = RecordWriter(session, "/home/ana/app", stamp, seed=f"t{first}")
            for n in range(first, min(first + 100, turns)):
                w.prompt(f"turn {n}: fix route {n % 500}")
                if n % 5 == 0:
                    call = w.tool_use("Read", {"file_path": f"/home/ana/app/src/h{n % 40}.py"})
                    w.response([{"type": "text", "text": "Reading."}, call])
                    w.result(call, "def handler(): pass")
                w.response([{"type": "text", "text": f"Turn {n} done."}])
            out.write(w.text())
    return path


def cli_recalled(w: RecordWriter, *paths: str) -> None:
    """The CLI's own recall on the running turn: a `relevant_memories` attachment naming each
    memory it surfaced with the body it showed (2.1.26x with per-turn recall on)."""
    note = w.envelope("attachment")
    note["attachment"] = {
        "type": "relevant_memories",
        "memories": [{"path": p, "content": "body", "mtimeMs": 1} for p in paths],
    }
    note["uuid"], note["timestamp"] = w.uid("att"), w.stamp()
    w.emit(note)


def many_cli_picks(memory: Path, records: int) -> Path:
    """A one-turn session beside `memory` in which the CLI's own recall wrote `records`
    records of five picks each (f<record>_<pick>.md, none of them on disk); its path."""
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="many")
    w.prompt("when does the morning ferry leave")
    for i in range(records):
        cli_recalled(w, *(str(memory / f"f{i}_{j}.md") for j in range(5)))
    w.response([{"type": "text", "text": "at seven"}])
    path = memory.parent / "s.jsonl"
    path.write_text(w.text())
    return path


def long_results_session(folder: Path, turns: int, result_kb: int) -> Path:
    """A main session's transcript of `turns` turns in `folder`, each a prompt, a Read call,
    its result of `result_kb` KB of code and an answer: the shape of a session that reads
    large files, whose bytes are mostly tool results. Its path."""
    session = "0b2c4d6e-1111-4222-8333-444455556666"
    body = "    return handler(request)  # route\n" * (result_kb * 1024 // 38)
    path = folder / f"{session}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for first in range(0, turns, 100):
            stamp = _dt.datetime(2026, 5, 1, tzinfo=_dt.UTC) + _dt.timedelta(seconds=first)
            w = RecordWriter(session, "/home/ana/app", stamp.isoformat(), seed=f"r{first}")
            for n in range(first, min(first + 100, turns)):
                w.prompt(f"turn {n}: fix route {n % 500}")
                call = w.tool_use("Read", {"file_path": f"/home/ana/app/src/h{n % 40}.py"})
                w.response([{"type": "text", "text": "Reading."}, call])
                w.result(call, body)
                w.response([{"type": "text", "text": f"Turn {n} done."}])
            out.write(w.text())
    return path


def rewritten_on_resume(w: RecordWriter, start: int = 0, *, no_response: bool = False) -> str:
    """Append the conversation from w.lines[start] again as the VS Code extension 2.0.x writes
    it on a resume (docs/sessions.md, real37 and resume37): every user/assistant record at one
    new time, the resume's, with a fresh uuid and no requestId, the first without a parent; a
    prompt whose IDE context shared its record written as two (the context, then the rest);
    answers keep their message.id, calls and results their tool_use ids. With `no_response`
    the copy ends with the harness's "No response requested." (a new id), as after a turn the
    user interrupted. Returns the copy's time; a prompt written next lands 4 ms after it, as
    the prompt the user resumed with does."""
    stamp = w.stamp(3600.0)
    parent = None
    for line in list(w.lines[start:]):
        record = json.loads(line)
        if record.get("type") not in ("user", "assistant"):
            continue
        record.pop("requestId", None)
        content = record["message"]["content"]
        parts = [content]
        if isinstance(content, list) and str(content[0].get("text", "")).startswith("<ide_"):
            parts = [content[:1], content[1:]] if len(content) > 1 else parts
        for part in parts:
            record["message"]["content"] = part
            record["parentUuid"], record["uuid"] = parent, w.uid("resume")
            record["timestamp"] = stamp
            parent = record["uuid"]
            w.emit(dict(record))
    if no_response:
        reply = w.envelope("assistant", parent=parent)
        reply["message"] = {
            "id": str(w.uid("reply")),
            "model": "<synthetic>",
            "role": "assistant",
            "type": "message",
            "stop_reason": "stop_sequence",
            "content": [{"type": "text", "text": "No response requested."}],
        }
        reply["uuid"], reply["timestamp"] = w.uid("resume"), stamp
        parent = w.emit(reply)["uuid"]
    w.last = parent
    w.time += _dt.timedelta(milliseconds=4) - _dt.timedelta(seconds=20)  # w.prompt steps 20 s
    return stamp
