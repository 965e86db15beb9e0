"""Streaming a JSONL file line by line, each line bounded, never holding the whole file.

Used for session transcripts, which can run to hundreds of megabytes. The file must be a
regular file (opened non-blocking, so a FIFO named like a transcript is refused, never waited
on). A line longer than the line cap is passed over in chunks and reported, not read.
"""

from __future__ import annotations

import errno
import os
import stat as _stat
from collections.abc import Iterator
from dataclasses import dataclass

from memdir_nb.storage.access import MissingFile, ReadRefused, file_kind

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_BUFFER = 1024 * 1024


@dataclass(frozen=True)
class Line:
    """One line: its 1-based number, its bytes (None when over the cap) and its full size."""

    line_no: int
    data: bytes | None
    size: int


def open_regular(path: str | os.PathLike[str]) -> tuple[int, os.stat_result]:
    """(fd, fstat) of a regular file opened for reading; ReadRefused says why not."""
    text = os.fspath(path)
    try:
        fd = os.open(text, _FLAGS)
    except FileNotFoundError as exc:
        raise MissingFile("missing", text, "no such file") from exc
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise ReadRefused("not-regular", text, "a socket, not a regular file") from exc
        raise ReadRefused("unreadable", text, exc.strerror or str(exc), exc.errno or 0) from exc
    st = os.fstat(fd)
    if not _stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise ReadRefused("not-regular", text, f"{file_kind(st.st_mode)}, not a regular file")
    return fd, st


def iter_lines(
    path: str | os.PathLike[str], *, max_line_bytes: int, max_total_bytes: int | None = None
) -> Iterator[Line]:
    """Each line of a regular file (without its newline); blank lines are yielded too.

    Stops after max_total_bytes (the line under way is finished first). Raises ReadRefused
    before the first line when the path is not a readable regular file.
    """
    fd, _ = open_regular(path)
    try:
        yield from iter_fd_lines(fd, max_line_bytes=max_line_bytes, max_total_bytes=max_total_bytes)
    finally:
        os.close(fd)


def iter_fd_lines(
    fd: int,
    *,
    max_line_bytes: int,
    max_total_bytes: int | None = None,
    start: int = 0,
    first_line_no: int = 1,
) -> Iterator[Line]:
    """iter_lines on an open file (left open), from byte `start`, whose first line is numbered
    `first_line_no`: how a reader that keeps a cursor reads only what was appended after it."""
    total = 0
    with os.fdopen(fd, "rb", buffering=_BUFFER, closefd=False) as handle:
        handle.seek(start)
        line_no = first_line_no - 1
        while max_total_bytes is None or total < max_total_bytes:
            chunk = handle.readline(max_line_bytes + 1)
            if not chunk:
                return
            line_no += 1
            size = len(chunk)
            if chunk.endswith(b"\n") or size <= max_line_bytes:
                total += size
                yield Line(line_no, chunk.rstrip(b"\r\n"), size)
                continue
            while chunk and not chunk.endswith(b"\n"):  # pass over the rest, chunk by chunk
                chunk = handle.readline(_BUFFER)
                size += len(chunk)
            total += size
            yield Line(line_no, None, size)
