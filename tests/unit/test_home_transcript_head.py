"""home/transcript_head: the one read of a transcript's first SESSION_HEAD_READ_MAX_BYTES."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir_nb.home.moved_home import head_cwd
from memdir_nb.home.sessions import UNKNOWN_KIND, head_kind
from memdir_nb.home.transcript_head import read_transcript_head
from memdir_nb.spec.constants import SESSION_HEAD_READ_MAX_BYTES
from memdir_nb.storage.access import MissingFile, ReadRefused
from memdir_nb.storage.line_reader import open_regular
from tests.conftest import write_cut_head_transcript

CAP = SESSION_HEAD_READ_MAX_BYTES


def _refusal(path: Path) -> tuple[type[BaseException], str]:
    with pytest.raises(ReadRefused) as caught:
        open_regular(path)
    return type(caught.value), caught.value.kind


def test_the_line_the_cap_cuts_is_never_parsed_even_when_its_cut_reads_as_a_record(
    tmp_path: Path,
) -> None:
    path = write_cut_head_transcript(tmp_path / "s.jsonl", CAP)
    head = read_transcript_head(path)
    assert not head.ended
    assert [r.get("type") for r in head.records()] == ["summary"]
    # the callers ask the head alone: neither takes the cut record's cwd or kind
    assert head_cwd(path) is None
    assert head_kind(path) == UNKNOWN_KIND


def test_a_head_that_reached_the_end_of_the_file_says_so_and_parses_its_last_line(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"type":"summary","summary":"k"}\n{"type":"user","cwd":"/no/newline"}')
    head = read_transcript_head(path)
    assert head.ended
    assert [r.get("cwd") for r in head.records()] == [None, "/no/newline"]


def test_a_file_of_exactly_the_cap_ended_and_one_byte_more_did_not(tmp_path: Path) -> None:
    line = b'{"type":"summary","summary":"' + b"s" * (CAP - 32) + b'"}\n'
    assert len(line) == CAP
    exact = tmp_path / "exact.jsonl"
    exact.write_bytes(line)
    assert read_transcript_head(exact).ended
    assert [r.get("type") for r in read_transcript_head(exact).records()] == ["summary"]
    longer = tmp_path / "longer.jsonl"
    longer.write_bytes(line + b"{")
    head = read_transcript_head(longer)
    assert not head.ended and len(head.data) == CAP + 1  # one byte past the cap, no more
    assert [r.get("type") for r in head.records()] == ["summary"]


def test_a_bad_or_blank_line_gives_no_record_and_no_error(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'not json\n\n[1]\n{"type":"user"}{"type":"assistant"}\n')
    assert [r["type"] for r in read_transcript_head(path).records()] == ["user", "assistant"]


def test_a_fifo_is_refused_as_open_regular_refuses_it_never_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "s.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(ReadRefused) as caught:
        read_transcript_head(fifo)
    assert (type(caught.value), caught.value.kind) == _refusal(fifo) == (ReadRefused, "not-regular")


def test_a_symlink_out_is_read_or_refused_as_open_regular_does_it(tmp_path: Path) -> None:
    # open_regular follows a link (the listing leaves linked transcripts out before this read):
    # the head refuses what the link names when open_regular would, and no more
    outside = tmp_path / "outside"
    outside.mkdir()
    os.mkfifo(outside / "pipe")
    folder = tmp_path / "projects" / "-k"
    folder.mkdir(parents=True)
    to_fifo = folder / "to_fifo.jsonl"
    to_fifo.symlink_to(outside / "pipe")
    with pytest.raises(ReadRefused) as caught:
        read_transcript_head(to_fifo)
    assert (type(caught.value), caught.value.kind) == _refusal(to_fifo)
    dangling = folder / "dangling.jsonl"
    dangling.symlink_to(outside / "gone.jsonl")
    with pytest.raises(MissingFile):
        read_transcript_head(dangling)
    assert _refusal(dangling)[0] is MissingFile
    (outside / "real.jsonl").write_text('{"type":"user","cwd":"/out"}\n')
    to_file = folder / "to_file.jsonl"
    to_file.symlink_to(outside / "real.jsonl")
    assert [r["cwd"] for r in read_transcript_head(to_file).records()] == ["/out"]


def test_records_are_parsed_only_as_far_as_the_caller_reads(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"type":"user","cwd":"/first"}\n' * 3)
    records = read_transcript_head(path).records()
    assert next(records)["cwd"] == "/first"  # a generator: the caller stops where it found
