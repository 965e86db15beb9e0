"""extract/scheduler: when the extractor runs, throttling and coalescing."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from memdir_nb.extract import (
    ExtractionRequest,
    ExtractionScheduler,
    read_transcript,
)
from tests.support.transcripts import numbered_messages

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
