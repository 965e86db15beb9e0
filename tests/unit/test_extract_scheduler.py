"""extract/scheduler: when the extractor runs, throttling and coalescing."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from pathlib import Path

import pytest

from memdir_nb.extract import (
    ExtractionRequest,
    ExtractionScheduler,
    SchedulerDecision,
    memory_writes,
    parse_transcript_lines,
    read_transcript,
)
from memdir_nb.formats.session_model import Turn
from memdir_nb.home.sessions import read_session
from memdir_nb.spec.constants import TRANSCRIPT_READ_MAX_BYTES
from memdir_nb.ui.demo.session_records import RecordWriter
from tests.conftest import (
    build_moved_home_session,
    build_moved_subfolder_session,
    write_long_transcript,
)
from tests.support.transcripts import api_error_reply, append_copy, numbered_messages

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample_transcript.jsonl"
SAMPLE_MEMDIR = "/home/dev/.claude/projects/-home-dev-shop/memory"


# --------------------------------------------------------------------------- scheduler


def _in_progress(sched: ExtractionScheduler) -> bool:
    """The flag read through a call, so a type checker does not assume it kept its last value."""
    return sched.in_progress


def test_scheduler_skips_and_advances_cursor_when_main_agent_wrote_memory() -> None:
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(SAMPLE_MEMDIR, calls.append)
    messages = read_transcript(SAMPLE).messages
    decision = sched.on_turn_end(messages)
    assert decision.action == "skipped_main_agent_wrote"
    assert "reference_sandbox_gateway.md" in decision.detail
    assert calls == [] and sched.cursor == messages[-1].uuid
    more = messages + numbered_messages(2, 100)
    decision = sched.on_turn_end(more)
    assert decision.action == "ran"
    assert [m.uuid for m in calls[0].new_messages] == ["u100", "u101"]
    assert sched.cursor == "u101"


def test_scheduler_runs_on_new_messages_and_has_nothing_to_do_twice(memdir: Path) -> None:
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append)
    msgs = numbered_messages(4)
    assert sched.on_turn_end(msgs).action == "ran"
    assert sched.on_turn_end(msgs).action == "nothing_new"
    assert len(calls) == 1 and len(calls[0].new_messages) == 4


def test_turn_throttling_runs_every_nth_turn_with_all_messages_since_cursor(memdir: Path) -> None:
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append, turns_between=3)
    msgs = numbered_messages(2)
    actions = []
    for turn in range(6):
        msgs = msgs + numbered_messages(2, 10 + 2 * turn)
        actions.append(sched.on_turn_end(msgs).action)
    assert actions == ["throttled", "throttled", "ran", "throttled", "throttled", "ran"]
    assert len(calls[0].new_messages) == 8  # the first 2 + three turns of 2
    assert len(calls[1].new_messages) == 6


def test_bad_turns_between_is_refused(memdir: Path) -> None:
    with pytest.raises(ValueError, match="turns_between"):
        ExtractionScheduler(memdir, lambda r: None, turns_between=0)


def test_requests_during_a_run_coalesce_into_one_trailing_run_with_the_latest(memdir: Path) -> None:
    started, release = threading.Event(), threading.Event()
    seen: list[ExtractionRequest] = []

    def slow_extract(request: ExtractionRequest) -> None:
        seen.append(request)
        if len(seen) == 1:
            started.set()
            assert release.wait(10)

    sched = ExtractionScheduler(memdir, slow_extract)
    first = numbered_messages(2)
    worker = threading.Thread(target=sched.on_turn_end, args=(first,))
    worker.start()
    assert started.wait(10)
    assert sched.in_progress
    second, third = first + numbered_messages(2, 2), first + numbered_messages(4, 2)
    assert sched.on_turn_end(second).action == "queued"
    queued = sched.on_turn_end(third)
    assert queued.action == "queued" and "replaced" in queued.detail
    release.set()
    worker.join(10)
    assert not _in_progress(sched)  # read again: the worker thread changed it
    assert len(seen) == 2  # the first run and one trailing run; the middle request was overwritten
    assert seen[1].is_trailing
    assert [m.uuid for m in seen[1].new_messages] == ["u2", "u3", "u4", "u5"]
    assert sched.cursor == "u5"


def test_failed_run_keeps_the_cursor_so_the_next_turn_retries(memdir: Path) -> None:
    attempts: list[int] = []

    def flaky(request: ExtractionRequest) -> None:
        attempts.append(len(request.new_messages))
        if len(attempts) == 1:
            raise ConnectionError("API unreachable")

    sched = ExtractionScheduler(memdir, flaky)
    decision = sched.on_turn_end(numbered_messages(2))
    assert decision.action == "failed" and "API unreachable" in decision.detail
    assert sched.cursor is None and not sched.in_progress
    assert sched.on_turn_end(numbered_messages(3)).action == "ran"
    assert attempts == [2, 3]


def test_scheduler_reads_a_transcript_with_a_broken_line_and_reports_it(
    memdir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "session.jsonl"
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    lines.insert(3, '{"type": "user", "message": ')  # a torn write
    path.write_text("\n".join(lines), encoding="utf-8")
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append)
    assert sched.on_transcript(path).action == "ran"
    assert [p.line_no for p in sched.problems] == [4]
    assert len(calls[0].new_messages) == 24


# --------------------------------------------------------------------------- sessions

SHAPES = Path(__file__).resolve().parents[1] / "data" / "sessions"
SUBAGENT_FILE = (
    SHAPES
    / "c_subagent"
    / "d41e9b07-2c6f-4a85-9e13-7b0c58f2a6d3"
    / "subagents"
    / "agent-a3f9c21d7e0b54a18.jsonl"
)
TIDEPOOL_MEMDIR = "/home/dana/.claude/projects/-home-dana-src-tidepool/memory"


def test_the_end_of_session_flush_extracts_the_throttled_last_turns(memdir: Path) -> None:
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append, turns_between=3)
    msgs = numbered_messages(2)
    for turn in range(4):
        msgs = msgs + numbered_messages(2, 10 + 2 * turn)
        sched.on_turn_end(msgs)
    assert [d.action for d in sched.history] == ["throttled", "throttled", "ran", "throttled"]
    flush = sched.on_session_end(msgs)
    assert flush.action == "ran" and "end-of-session flush" in flush.detail
    assert [m.uuid for m in calls[-1].new_messages] == ["u16", "u17"]
    assert sched.on_session_end(msgs).action == "nothing_new"  # nothing is extracted twice


def test_the_flush_does_nothing_when_the_last_turn_was_extracted(memdir: Path) -> None:
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append)
    msgs = numbered_messages(4)
    sched.on_turn_end(msgs)
    assert sched.on_session_end(msgs + numbered_messages(1, 50)).action == "nothing_new"
    assert len(calls) == 1


def test_a_subagent_transcript_is_never_extracted_nor_taken_as_the_main_agent_writing() -> None:
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(TIDEPOOL_MEMDIR, calls.append)
    messages = read_transcript(SUBAGENT_FILE).messages
    assert messages and all(m.is_sidechain for m in messages)
    assert sched.on_turn_end(messages).action == "skipped_subagent"
    assert sched.on_session_end(messages).action == "skipped_subagent"
    assert calls == []


def test_inline_subagent_writes_to_memory_are_not_the_main_agents() -> None:
    lines = [
        json.dumps({"type": "user", "uuid": "p", "message": {"role": "user", "content": "go"}}),
        json.dumps(
            {
                "type": "assistant",
                "uuid": "a",
                "isSidechain": True,
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": "t",
                            "name": "Write",
                            "input": {"file_path": f"{TIDEPOOL_MEMDIR}/x.md", "content": "x"},
                        }
                    ],
                },
            }
        ),
    ]
    messages = parse_transcript_lines(lines).messages
    assert memory_writes(messages, TIDEPOOL_MEMDIR) == []
    calls: list[ExtractionRequest] = []
    assert ExtractionScheduler(TIDEPOOL_MEMDIR, calls.append).on_turn_end(messages).action == "ran"


def test_replaying_a_session_takes_its_turns_from_the_session_model() -> None:
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(TIDEPOOL_MEMDIR, calls.append)
    decisions = sched.replay_session(SHAPES / "e_bash_mode_and_local_commands.jsonl")
    # one real turn (the /release-notes command); /clear, `!git log` and /exit are not turns
    assert [d.action for _, d in decisions] == ["ran", "nothing_new"]
    assert decisions[0][0] is not None and decisions[0][0].prompt.startswith("/release-notes")
    assert decisions[-1][0] is None


def test_a_replay_past_the_whole_read_cap_gives_every_turn_its_messages(tmp_path: Path) -> None:
    # lefts37b: replay_session read the messages with read_transcript (64 MiB), while its turns
    # come from the session model (1 GiB): past the cap the later turns had no message, and
    # the extractor did "nothing new" on them
    path = tmp_path / "long.jsonl"
    uuids = write_long_transcript(path, TRANSCRIPT_READ_MAX_BYTES + 100_000)
    seen: list[tuple[str, ...]] = []

    def extract(request: ExtractionRequest) -> None:  # what a real run is sent, content too
        assert all(m.content == "x" * 16_000 for m in request.new_messages)
        seen.append(tuple(m.uuid for m in request.new_messages))

    sched = ExtractionScheduler(SAMPLE_MEMDIR, extract)
    decisions = sched.replay_session(path)
    assert len(decisions) == len(uuids) // 2 + len(uuids) % 2 + 1
    assert [d.action for _, d in decisions[:-1]] == ["ran"] * (len(decisions) - 1)
    assert [u for run in seen for u in run] == uuids  # each message sent once, the last too
    assert sched.problems == []  # no "later records were not read"


def _replayed(
    tmp_path: Path, w: RecordWriter
) -> tuple[list[tuple[Turn | None, SchedulerDecision]], list[ExtractionRequest]]:
    """The scheduler's decisions over the transcript w wrote, and the extraction requests made."""
    path = tmp_path / "s.jsonl"
    path.write_text(w.text(), encoding="utf-8")
    calls: list[ExtractionRequest] = []
    return ExtractionScheduler(TIDEPOOL_MEMDIR, calls.append).replay_session(path), calls


def test_history_the_cli_wrote_again_is_not_new_messages_for_the_extractor(
    tmp_path: Path,
) -> None:
    w = RecordWriter("s1", "/home/dana/src/tidepool", "2026-05-01T10:00:00.000Z", prompt_ids=False)
    w.prompt("remember that the tide tables come from the harbour office")
    call = w.tool_use("Write", {"file_path": f"{TIDEPOOL_MEMDIR}/tides.md", "content": "x"})
    w.response([call])
    w.result(call, "File created successfully", detail={"type": "create"})
    append_copy(w, 0)
    w.prompt("what is the next high tide?")
    w.response([{"type": "text", "text": "at 14:05"}])
    decisions, calls = _replayed(tmp_path, w)
    actions = [d.action for _, d in decisions]
    assert actions == ["skipped_main_agent_wrote", "ran", "nothing_new"]
    assert [m.uuid for m in calls[0].new_messages] == [json.loads(x)["uuid"] for x in w.lines[-2:]]


def test_a_turn_the_api_answered_with_errors_only_is_not_extracted_and_keeps_the_cursor(
    tmp_path: Path,
) -> None:
    w = RecordWriter("s1", "/home/dana/src/tidepool", "2026-05-01T10:00:00.000Z", prompt_ids=False)
    w.prompt("remember that the tide tables come from the harbour office")
    api_error_reply(w, "Credit balance is too low")
    w.prompt("remember that the tide tables come from the harbour office")
    w.response([{"type": "text", "text": "noted"}])
    decisions, calls = _replayed(tmp_path, w)
    assert [d.action for _, d in decisions] == ["skipped_no_model_reply", "ran", "nothing_new"]
    assert "Credit balance is too low" in decisions[0][1].detail
    assert len(calls[0].new_messages) == 4  # the failed turn's messages reach the next run


def test_a_replay_of_n_turns_copies_the_messages_a_bounded_number_of_times_not_once_a_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # attack round 22: each turn end took the transcript up to it as a new list and a new
    # tuple, so a replay cost the square of its length (64,000 records: 23 s)
    import memdir_nb.extract.scheduler as scheduler_module

    n = 300
    lines = [
        json.dumps(
            {
                "type": "user" if i % 2 == 0 else "assistant",
                "uuid": f"u{i}",
                "parentUuid": f"u{i - 1}" if i else None,
                "sessionId": "s",
                "message": {
                    "role": "user" if i % 2 == 0 else "assistant",
                    "content": f"message {i}",
                },
            }
        )
        for i in range(2 * n)
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    copied = [0]

    class CountingTuple(tuple):  # type: ignore[type-arg]  # tuple() of anything, counted
        def __new__(cls, items: Iterable[object] = ()) -> CountingTuple:
            made = super().__new__(cls, items)
            copied[0] += len(made)
            return made

    monkeypatch.setattr(scheduler_module, "tuple", CountingTuple, raising=False)
    calls: list[ExtractionRequest] = []
    decisions = ExtractionScheduler(SAMPLE_MEMDIR, calls.append).replay_session(path)
    assert [d.action for _t, d in decisions[:-1]] == ["ran"] * n
    assert [len(c.messages) for c in calls] == [2 * i + 2 for i in range(n)]
    assert calls[-1].messages[-1].uuid == f"u{2 * n - 1}"
    assert copied[0] <= 8 * n  # each turn's new messages, and the whole list a few times


# ------------------------------------------------------------- reading from the cursor


def _write_turns(path: Path, first: int, count: int, *, pad: int = 0) -> None:
    """Append `count` turns (a prompt and an answer each, the answer `pad` bytes longer)."""
    w = RecordWriter("s1", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed=f"t{first}")
    for n in range(first, first + count):
        w.prompt(f"turn {n}: what next")
        w.response([{"type": "text", "text": f"answer {n} " + "x" * pad}])
    with path.open("a", encoding="utf-8") as out:
        out.write(w.text())


def _prompts(request: ExtractionRequest) -> list[str]:
    return [m.content for m in request.new_messages if isinstance(m.content, str)]


def _thread_rchar() -> int:
    """Bytes this thread has read through read(2) and the like (/proc/thread-self/io)."""
    text = Path("/proc/thread-self/io").read_text(encoding="ascii")
    return int(
        next(v for k, _, v in (ln.partition(": ") for ln in text.splitlines()) if k == "rchar")
    )


def test_a_run_on_an_appended_session_reads_only_the_bytes_after_the_cursor(
    memdir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "s1.jsonl"
    _write_turns(path, 0, 400, pad=12_000)  # about 5 MB
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append)
    assert sched.on_transcript(path).action == "ran"
    before = path.stat().st_size
    _write_turns(path, 400, 3)
    appended = path.stat().st_size - before
    read_from = _thread_rchar()
    assert sched.on_transcript(path).action == "ran"
    read = _thread_rchar() - read_from
    assert _prompts(calls[1]) == [f"turn {n}: what next" for n in range(400, 403)]
    assert len(calls[1].new_messages) == 6
    # the appended bytes, the cursor's own line (checked unchanged) and the reader's buffer
    assert read < appended + 12_500 + 1024 * 1024, f"read {read:,} bytes for {appended:,} new"
    assert before > 4 * 1024 * 1024 and sched.notes == []


def test_a_session_longer_than_one_read_is_extracted_run_by_run_each_turn_once(
    memdir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "s1.jsonl"
    _write_turns(path, 0, 60, pad=2_000)  # about 140 KB, read 32 KB a run
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append, max_read_bytes=32 * 1024)
    runs = 0
    while sched.on_transcript(path).action == "ran" and runs < 20:
        runs += 1
    assert runs >= 4 and sched.on_transcript(path).action == "nothing_new"
    prompts = [p for c in calls for p in _prompts(c)]
    assert prompts == [f"turn {n}: what next" for n in range(60)]
    assert "left for the next run" in sched.notes[0]
    assert all(c.messages == c.new_messages for c in calls)


def test_a_throttled_turn_is_read_again_by_the_run_that_follows_it(
    memdir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "s1.jsonl"
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append, turns_between=2)
    starts = []
    for n in range(4):
        _write_turns(path, n, 1)
        sched.on_transcript(path)
        assert sched.last_chunk is not None
        starts.append(sched.last_chunk.start)
    assert starts[0] == starts[1] == 0 and starts[2] == starts[3] > 0  # from the last run's cursor
    assert [_prompts(c) for c in calls] == [
        ["turn 0: what next", "turn 1: what next"],
        ["turn 2: what next", "turn 3: what next"],
    ]


@pytest.mark.parametrize(
    ("change", "why", "new"),
    [
        ("cut", "cut to", [f"turn {n}: what next" for n in range(0, 3)]),
        ("rewritten", "no longer what it was", [f"turn {n}: what next" for n in range(0, 3)]),
        ("replaced", "replaced (another inode)", ["turn 5: what next"]),
    ],
)
def test_a_session_cut_rewritten_or_replaced_since_the_cursor_is_read_again_with_a_note(
    memdir: Path, tmp_path: Path, change: str, why: str, new: list[str]
) -> None:
    path = tmp_path / "s1.jsonl"
    _write_turns(path, 0, 5)
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append)
    assert sched.on_transcript(path).action == "ran"
    if change == "cut":  # a shorter file: its last turn's messages are not the cursor's
        lines = path.read_bytes().splitlines(keepends=True)
        path.write_bytes(b"".join(lines[:6]))
    elif change == "rewritten":  # as long, but other records (the cursor's message is gone)
        path.write_text("")
        _write_turns(path, 0, 3)
        _write_turns(path, 100, 3)
    else:  # the same records in a new file, and one more turn
        copy = tmp_path / "copy.jsonl"
        copy.write_bytes(path.read_bytes())
        _write_turns(copy, 5, 1)
        copy.replace(path)
    sched.on_transcript(path)
    assert len(sched.notes) == 1 and why in sched.notes[0]
    assert sched.problems[-1].reason == sched.notes[0]
    if change == "replaced":
        assert "only the messages after it are new" in sched.notes[0]
        assert _prompts(calls[1]) == new
    else:
        assert "every message counts as new" in sched.notes[0]
        assert _prompts(calls[1])[: len(new)] == new


def test_a_run_that_read_records_but_no_message_starts_after_them_next_time(
    memdir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "s1.jsonl"
    _write_turns(path, 0, 1)
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append, max_read_bytes=8 * 1024)
    assert sched.on_transcript(path).action == "ran"
    progress = {"type": "progress", "uuid": "p", "data": {"output": "x" * 1000}}
    with path.open("a", encoding="utf-8") as out:
        out.writelines(json.dumps({**progress, "uuid": f"p{i}"}) + "\n" for i in range(40))
    _write_turns(path, 1, 1)
    actions = [sched.on_transcript(path).action for _ in range(8)]
    assert "ran" in actions, actions  # 40 KB of progress records, read 8 KB a run, then the turn
    assert _prompts(calls[-1]) == ["turn 1: what next"]


def test_a_record_still_being_written_is_read_whole_by_a_later_run(
    memdir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "s1.jsonl"
    _write_turns(path, 0, 1)
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append)
    assert sched.on_transcript(path).action == "ran"
    turn = tmp_path / "turn.jsonl"
    _write_turns(turn, 1, 1)
    text = turn.read_bytes()
    with path.open("ab") as out:
        out.write(text[:40])  # the CLI's write of the next prompt, cut short
    sched.on_transcript(path)
    with path.open("ab") as out:
        out.write(text[40:])
    assert sched.on_transcript(path).action == "ran"
    assert _prompts(calls[-1]) == ["turn 1: what next"]


# --------------------------------------------------------------------------- a moved home


def test_a_write_under_a_moved_homes_old_key_is_the_main_agent_writing_for_a_live_run(
    tmp_path: Path,
) -> None:
    # the memory dir beside the transcript is filed under the new key; the session's own
    # Write named the key its working folder had (home.moved_home.former_keys)
    path = build_moved_home_session(tmp_path)
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(path.parent / "memory", calls.append)
    decision = sched.on_transcript(path)
    assert decision.action == "skipped_main_agent_wrote", decision
    assert "-media-old-kiln/memory/project_kiln_limit.md" in decision.detail
    assert calls == [] and sched.moved_from == ("-media-old-kiln",)


def test_a_replay_of_a_moved_homes_session_skips_the_turn_whose_write_went_to_the_old_key(
    tmp_path: Path,
) -> None:
    path = build_moved_home_session(tmp_path)
    for source in (path, read_session(path)):
        calls: list[ExtractionRequest] = []
        sched = ExtractionScheduler(path.parent / "memory", calls.append)
        actions = [d.action for _, d in sched.replay_session(source)]
        assert actions == ["ran", "skipped_main_agent_wrote", "nothing_new"], source


def test_another_dir_given_for_a_moved_homes_session_takes_none_of_its_writes(
    tmp_path: Path,
) -> None:
    path = build_moved_home_session(tmp_path)
    other = tmp_path / "elsewhere" / "-srv-work-other" / "memory"
    other.mkdir(parents=True)
    sched = ExtractionScheduler(other, lambda request: None)
    assert sched.on_transcript(path).action == "ran"
    assert sched.moved_from == ()


def test_a_write_into_a_moved_projects_git_root_dir_from_a_subfolder_session_is_the_agents(
    tmp_path: Path,
) -> None:
    path = build_moved_subfolder_session(tmp_path)
    sched = ExtractionScheduler(path.parent.parent / "-srv-work-kiln" / "memory", print)
    assert sched.on_transcript(path).action == "skipped_main_agent_wrote"
    beside = ExtractionScheduler(path.parent / "memory", print)
    assert beside.on_transcript(path).action == "ran"
