"""extract/transcript_tail: reading a transcript from the extractor's cursor."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir_nb.extract.transcript import read_transcript
from memdir_nb.extract.transcript_tail import FileCursor, read_since
from memdir_nb.storage.access import ReadRefused

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample_transcript.jsonl"


def test_a_first_read_has_read_transcripts_messages_and_problems(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    lines.insert(3, '{"type": "user", "message": ')  # a torn write
    path.write_text("\n".join(lines), encoding="utf-8")
    chunk = read_since(path, None, None, max_bytes=1 << 20)
    whole = read_transcript(path)
    assert chunk.transcript.messages == whole.messages
    assert chunk.transcript.problems == whole.problems
    assert chunk.restart is None and chunk.start == 0 and chunk.end == path.stat().st_size


def test_a_read_stops_before_the_line_that_would_pass_the_cap_and_goes_on_from_there(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(SAMPLE.read_bytes())
    first = read_since(path, None, None, max_bytes=4096)
    assert 0 < first.end <= 4096 and first.remaining == path.stat().st_size - first.end
    last = first.transcript.messages[-1]
    cursor = FileCursor(str(path), first.device, first.inode, first.spans[last.uuid])
    rest = read_since(path, cursor, last.uuid, max_bytes=1 << 20)
    assert rest.restart is None and rest.start == cursor.span.end
    both = first.transcript.messages + rest.transcript.messages
    assert both == read_transcript(path).messages
    assert rest.transcript.messages[0].line_no == cursor.span.line_no + 1


def test_a_fifo_named_like_a_transcript_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "s.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(ReadRefused, match="not a regular file"):
        read_since(fifo, None, None, max_bytes=1024)
