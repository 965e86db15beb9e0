"""A transcript's head: the records of its first SESSION_HEAD_READ_MAX_BYTES, for a listing or
a scheduler that tells something from the start of a file without reading it whole.

The one rule for that read (head_kind in home.sessions, head_cwd in home.moved_home): the file
is opened as storage.line_reader.open_regular opens a transcript (non-blocking, a regular file
only: a FIFO or a socket named like one is refused, never waited on), at most one byte past the
cap is read (that byte tells whether the file goes on), and the line the cap cuts is never
parsed: only whole lines are, each by formats.transcript_records.parse_record_line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from memdir_nb.formats.transcript_records import parse_record_line
from memdir_nb.spec.constants import SESSION_HEAD_READ_MAX_BYTES
from memdir_nb.storage.line_reader import open_regular

__all__ = ["TranscriptHead", "read_transcript_head"]


@dataclass(frozen=True, slots=True)
class TranscriptHead:
    """Up to SESSION_HEAD_READ_MAX_BYTES + 1 bytes from the start of a transcript."""

    data: bytes

    @property
    def ended(self) -> bool:
        """Whether the head holds the whole file (no byte past the cap was there)."""
        return len(self.data) <= SESSION_HEAD_READ_MAX_BYTES

    def records(self) -> Iterator[dict[str, Any]]:
        """The records of the head's whole lines, in file order, parsed one line at a time as
        the caller asks for them; a bad line gives none. The last line is left out when the
        file goes on past the cap: the cap cut it (or it is the byte that says the file goes
        on), so what it would parse to is not what the file holds."""
        lines = self.data.split(b"\n")
        for line in lines if self.ended else lines[:-1]:
            records, _ = parse_record_line(line, max_bytes=SESSION_HEAD_READ_MAX_BYTES)
            yield from records


def read_transcript_head(path: str | os.PathLike[str]) -> TranscriptHead:
    """The head of the transcript at path. Raises ReadRefused (an OSError) as open_regular
    does for a path that is not a readable regular file, and OSError for a failed read."""
    fd, _ = open_regular(path)
    try:
        chunks, left = [], SESSION_HEAD_READ_MAX_BYTES + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    return TranscriptHead(b"".join(chunks))
