"""Reading a transcript from the extractor's cursor: only what was appended since the last run.

Claude Code's extractor holds the conversation in memory and walks it with a cursor, the uuid
of the last message already considered (seeds: "only process new messages since cursor"). A
scheduler fed from the transcript file keeps that uuid and, beside it, where the cursor's
message sits in the file (a FileCursor): the next run seeks past it and reads at most
`max_bytes` of whole lines, so a run's read does not grow with the session, and a session
longer than one read is taken up where the last run stopped.

The file is read from the cursor only when it is the same file (device and inode) and was only
appended to: it is at least as long as the cursor's end, and the cursor message's own line is
still there, byte for byte (its length and BLAKE2 digest). Otherwise the read starts over and
says why (`TranscriptChunk.restart`): the cursor's message is looked for from the start (a
line holding its uuid), and the chunk begins after it; when the message is gone, every message
counts as new, and the note says earlier runs may have seen some of them.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from memdir_nb.extract.transcript import (
    LINE_MAX_UTF8_BYTES,
    MESSAGE_TYPES,
    Transcript,
    TranscriptMessage,
    message_of,
)
from memdir_nb.formats.transcript_records import TranscriptProblem, parse_record_line
from memdir_nb.spec.constants import TRANSCRIPT_LINE_MAX_BYTES
from memdir_nb.storage.line_reader import iter_fd_lines, open_regular

_DIGEST_BYTES = 16


@dataclass(frozen=True)
class LineSpan:
    """Where one message's line is in its file: bytes [start, end) and its line number."""

    start: int
    end: int
    line_no: int
    digest: bytes  # BLAKE2b of the line's bytes (without its newline)


@dataclass(frozen=True)
class FileCursor:
    """The extractor's cursor in a transcript file: the cursor message's line, in which file."""

    path: str
    device: int
    inode: int
    span: LineSpan


@dataclass
class TranscriptChunk:
    """What one run read: the messages after the cursor, with the line each came from."""

    transcript: Transcript
    spans: dict[str, LineSpan]  # message uuid -> its line
    path: str
    device: int
    inode: int
    start: int  # the byte the read began at
    end: int  # the byte after the last line read
    size: int  # the file's size when it was opened
    restart: str | None = None  # why the read did not begin at the cursor (None: it did)
    bytes_read: int = 0
    # the last whole line read (a cursor when the run read no message): never a last line
    # without its newline, which may be a record the CLI is still writing
    last_line: LineSpan | None = None

    @property
    def remaining(self) -> int:
        """Bytes of the file after this read, left for the next run."""
        return max(0, self.size - self.end)


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=_DIGEST_BYTES).digest()


def read_since(
    path: str | os.PathLike[str],
    cursor: FileCursor | None,
    cursor_uuid: str | None,
    *,
    max_bytes: int,
) -> TranscriptChunk:
    """The messages of a transcript after the extractor's cursor, at most max_bytes of whole
    lines (one line more when the first is longer). See the module doc for when the read starts
    over. A path that is not a readable regular file raises ReadRefused (an OSError)."""
    text = os.fspath(path)
    fd, st = open_regular(text)
    try:
        restart = None if cursor is None else _changed(fd, st, text, cursor)
        if cursor is not None and restart is None:
            start, line_no = cursor.span.end, cursor.span.line_no + 1
        else:
            start, line_no, found = 0, 1, None
            if cursor_uuid is not None:
                found = _find_message(fd, cursor_uuid)
                if found is not None:
                    start, line_no = found.end, found.line_no + 1
            restart = _restart_note(restart, cursor_uuid, found)
        chunk = TranscriptChunk(
            Transcript([], [], 0), {}, text, st.st_dev, st.st_ino, start, start, st.st_size, restart
        )
        _read_lines(fd, chunk, start, line_no, max_bytes)
    finally:
        os.close(fd)
    return chunk


def _changed(fd: int, st: os.stat_result, path: str, cursor: FileCursor) -> str | None:
    """Why the file is not the cursor's file, only appended to; None when it is."""
    if os.path.abspath(path) != os.path.abspath(cursor.path):
        return f"the cursor was in {cursor.path}, not this file"
    if (st.st_dev, st.st_ino) != (cursor.device, cursor.inode):
        return "the file was replaced (another inode) since the last run"
    span = cursor.span
    if st.st_size < span.end:
        return (
            f"the file was cut to {st.st_size:,} bytes, shorter than the cursor at byte "
            f"{span.end:,}"
        )
    line = os.pread(fd, span.end - span.start, span.start)
    if _digest(line.rstrip(b"\r\n")) != span.digest:
        return f"line {span.line_no}, the cursor's message, is no longer what it was"
    return None


def _restart_note(why: str | None, cursor_uuid: str | None, found: LineSpan | None) -> str | None:
    """The note a read that started over carries (None: a first read, with no cursor)."""
    if cursor_uuid is None and why is None:
        return None
    reason = why or "the cursor's place in this file is not known"
    if found is not None:
        return (
            f"{reason}; read again from the start: the cursor's message {cursor_uuid} is at line "
            f"{found.line_no}, so only the messages after it are new"
        )
    return (
        f"{reason}; read again from the start: the cursor's message {cursor_uuid} is not in it, "
        "so every message counts as new (earlier runs may have seen some of them)"
    )


def _find_message(fd: int, uuid: str) -> LineSpan | None:
    """The line of the message with this uuid, looked for from the start of the file: only a
    line holding the uuid's text is parsed. The first one, where without_copies keeps a record
    written twice: starting after a later copy could pass over messages never extracted."""
    needle, at = uuid.encode(), 0
    for line in iter_fd_lines(fd, max_line_bytes=LINE_MAX_UTF8_BYTES):
        if line.data is not None and needle in line.data:
            for message in _messages(line.data, line.line_no, [])[0]:
                if message.uuid == uuid:
                    return LineSpan(at, at + line.size, line.line_no, _digest(line.data))
        at += line.size
    return None


def _read_lines(fd: int, chunk: TranscriptChunk, start: int, line_no: int, max_bytes: int) -> None:
    """Whole lines from `start` into the chunk, up to max_bytes (at least one line)."""
    at, other = start, 0
    messages: list[TranscriptMessage] = []
    problems: list[TranscriptProblem] = []
    for line in iter_fd_lines(
        fd, max_line_bytes=LINE_MAX_UTF8_BYTES, start=start, first_line_no=line_no
    ):
        if at > start and at - start + line.size > max_bytes:
            break  # this line is the next run's
        chunk.bytes_read += line.size
        if line.data is None:
            problems.append(TranscriptProblem(line.line_no, f"line of {line.size:,} bytes skipped"))
        elif line.data.strip():
            found, others = _messages(line.data, line.line_no, problems)
            other += others
            for message in found:
                messages.append(message)
                chunk.spans[message.uuid] = LineSpan(
                    at, at + line.size, line.line_no, _digest(line.data)
                )
        if line.data is not None and line.size > len(line.data):  # a whole line, newline and all
            chunk.last_line = LineSpan(at, at + line.size, line.line_no, _digest(line.data))
        at += line.size
    chunk.end = at
    chunk.transcript = Transcript(messages, problems, other)


def _messages(
    data: bytes, line_no: int, problems: list[TranscriptProblem]
) -> tuple[list[TranscriptMessage], int]:
    """The messages of one line, decoded as read_transcript decodes its text, and the count of
    its other records."""
    records, problem = parse_record_line(
        data.decode("utf-8", "replace"), max_bytes=TRANSCRIPT_LINE_MAX_BYTES
    )
    if problem is not None:
        problems.append(TranscriptProblem(line_no, problem))
    found = [m for r in records if (m := message_of(r, line_no, problems)) is not None]
    others = sum(1 for r in records if r.get("type") not in MESSAGE_TYPES)
    return found, others
