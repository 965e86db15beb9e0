"""What a replay says about a session before its first turn: a refusal's turn is named with
what the CLI took back, and a session with nothing unusual gets no note."""

from __future__ import annotations

from pathlib import Path

from memdir_nb.home.sessions import read_session
from memdir_nb.reports.replay_session_notes import (
    refusal_notes,
    session_notes,
    unanswered_notes,
)
from memdir_nb.ui.demo.session_records import RecordWriter
from tests.support.transcripts import refused_answer, superseding


def _write(tmp_path: Path, w: RecordWriter) -> Path:
    path = tmp_path / "s.jsonl"
    path.write_text(w.text(), encoding="utf-8")
    return path


def test_a_turn_a_model_refused_is_named_with_what_the_cli_took_back(tmp_path: Path) -> None:
    w = RecordWriter("s", "/home/ana/app", "2026-10-02T09:00:00.000Z", seed="refusal")
    asked = w.prompt("load-test the login rate limiter")
    unrun = w.tool_use("Write", {"file_path": "/tmp/x.md", "content": "partial"})
    taken = refused_answer(w, [unrun], prompt_uuid=asked)
    superseding(w, [{"type": "text", "text": "Use k6 against staging."}], taken)
    session = read_session(_write(tmp_path, w))

    assert refusal_notes(session) == [
        "turn 1: claude-fable-5 refused (cyber); answered by claude-opus-4-8; the CLI took back "
        "1 partial answer, 1 tool call that never ran"
    ]
    assert refusal_notes(session)[0] in session_notes(session)


def test_a_plain_session_gets_no_note(tmp_path: Path) -> None:
    w = RecordWriter("s", "/home/ana/app", "2026-10-02T09:00:00.000Z", seed="plain")
    w.prompt("what is the deploy command")
    w.response([{"type": "text", "text": "make deploy"}])
    assert session_notes(read_session(_write(tmp_path, w))) == []


def test_prompts_queued_that_no_turn_began_for_are_named_three_then_counted(
    tmp_path: Path,
) -> None:
    # sessions45: a `-p` run that stopped after its queue records held its prompt there alone
    w = RecordWriter("s", "/home/ana/app", "2026-12-02T09:00:00.000Z", seed="unanswered")
    for text in ("check the kiln log", "and the glaze notes, too", "then the photos", "thanks"):
        w.bookkeeping("queue-operation", operation="enqueue", content=text)
    session = read_session(_write(tmp_path, w))
    assert unanswered_notes(session) == [
        "4 prompts typed and queued that no turn began for (the transcript ends first): "
        '"check the kiln log", "and the glaze notes, too", "then the photos" and 1 more'
    ]
    assert session_notes(session)[-1] == unanswered_notes(session)[0]
