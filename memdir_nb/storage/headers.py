"""Bounded reads of a memory file's head and whole text, parsed by formats.frontmatter."""

from __future__ import annotations

import os

from memdir_nb.formats.frontmatter import (
    Frontmatter,
    normalise_newlines,
    parse_frontmatter,
    with_problem,
)
from memdir_nb.spec.constants import (
    FRONTMATTER_MAX_BYTES,
    FRONTMATTER_MAX_LINES,
    HEADER_READ_MAX_BYTES,
    MEMORY_FILE_READ_MAX_BYTES,
)
from memdir_nb.spec.records import Record
from memdir_nb.spec.text import first_lines
from memdir_nb.spec.text import one_line as one_line  # re-exported
from memdir_nb.storage.access import ContainedReader, ReadResult, read_contained

TYPE_CHECKING = False  # typing stays unimported at run time; mypy reads the block below
if TYPE_CHECKING:  # re-exported for type checkers; at run time through __getattr__ below
    from memdir_nb.formats.frontmatter_render import (
        render_memory_file as render_memory_file,
    )
    from memdir_nb.formats.frontmatter_render import (
        render_updated_memory_file as render_updated_memory_file,
    )

# The writers this module re-exports (a public name since the split of formats.frontmatter);
# a reader of headers (every scan) does not load them until one is asked for.
_RENDERERS = frozenset({"render_memory_file", "render_updated_memory_file"})


def __getattr__(name: str) -> object:
    """A re-exported renderer, loaded on first use (PEP 562); any other name is missing."""
    if name in _RENDERERS:
        # local: the scan path reads headers and never writes one (polish31b)
        from memdir_nb.formats import frontmatter_render

        value: object = getattr(frontmatter_render, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class HeadRead(Record, frozen=True):
    """The result of one bounded read of a file's head.

    A record (spec.records), as formats.frontmatter_fast.PlainColon: a NamedTuple's class
    compiles each of its string annotations when it is made, on every scan's import path.
    """

    text: str
    stat: os.stat_result
    bytes_read: int
    invalid_utf8: bool
    hit_byte_limit: bool


def read_head_info(
    path: str | os.PathLike[str],
    *,
    max_lines: int = FRONTMATTER_MAX_LINES,
    max_bytes: int = FRONTMATTER_MAX_BYTES,
    nofollow: bool = False,
    root: str | os.PathLike[str] | None = None,
) -> HeadRead:
    """Read at most max_bytes of a file once, and return its first max_lines lines decoded.

    With nofollow=True the open fails (ELOOP) if the last path component is a symlink. root is
    the memory dir the file must stay inside, every folder on the way opened without following
    a link (default: the file's own folder).
    """
    if max_lines < 1 or max_bytes < 1:
        raise ValueError("max_lines and max_bytes must be at least 1")
    text, st, n_read, invalid = _read_bounded(path, max_lines, max_bytes, nofollow, root)
    return HeadRead(
        text=text,
        stat=st,
        bytes_read=n_read,
        invalid_utf8=invalid,
        hit_byte_limit=n_read >= max_bytes,
    )


def _read_bounded(
    path: str | os.PathLike[str],
    max_lines: int,
    max_bytes: int,
    nofollow: bool,
    root: str | os.PathLike[str] | None = None,
    real_root: str | None = None,
    reader: ContainedReader | None = None,
) -> tuple[str, os.stat_result, int, bool]:
    """One contained, bounded read: (first lines, fstat, bytes read, invalid UTF-8 seen).

    root is the memory dir the file must stay inside (default: the file's own folder); a
    reader, when given, is used instead (its dir is the root).
    """
    if reader is None:
        if root is None:
            root = os.path.dirname(os.path.abspath(path))
        reader = ContainedReader(root, real_root=real_root)
    res = reader.read(path, max_bytes, follow_symlinks=not nofollow)
    return (
        first_lines(normalise_newlines(res.text), max_lines),
        res.stat,
        res.bytes_read,
        not res.valid_utf8,
    )


def read_head(
    path: str | os.PathLike[str],
    *,
    max_lines: int = FRONTMATTER_MAX_LINES,
    max_bytes: int = FRONTMATTER_MAX_BYTES,
) -> tuple[str, os.stat_result]:
    """The first max_lines lines of a file (bounded read) and its fstat result."""
    head = read_head_info(path, max_lines=max_lines, max_bytes=max_bytes)
    return head.text, head.stat


def read_frontmatter(path: str | os.PathLike[str]) -> Frontmatter:
    """Parse the header of the memory file at path (bounded read; OSError propagates)."""
    return read_header(path)[0]


def read_header(
    path: str | os.PathLike[str],
    *,
    nofollow: bool = False,
    root: str | os.PathLike[str] | None = None,
    real_root: str | None = None,
    reader: ContainedReader | None = None,
) -> tuple[Frontmatter, os.stat_result]:
    """The parsed header and fstat result of a file, from one contained, bounded read.

    root is the memory dir (default: the file's folder); ReadRefused (an OSError) says why a
    file was not read: not a regular file, outside root, a symlink with nofollow=True.
    """
    text, st, n_read, invalid = _read_bounded(
        path, FRONTMATTER_MAX_LINES, HEADER_READ_MAX_BYTES, nofollow, root, real_root, reader
    )
    return _header_of(text, n_read, invalid), st


def head_of_read(res: ReadResult) -> ReadResult:
    """The first HEADER_READ_MAX_BYTES of a longer read, as read_header's own read would be
    (res itself when it is no longer); header_from_read parses it the same."""
    if res.cap <= HEADER_READ_MAX_BYTES:
        return res
    return ReadResult(
        path=res.path,
        rel=res.rel,
        data=res.data[:HEADER_READ_MAX_BYTES],
        total_size=res.total_size,
        bytes_read=min(res.bytes_read, HEADER_READ_MAX_BYTES),
        truncated=res.truncated or res.bytes_read > HEADER_READ_MAX_BYTES,
        cap=HEADER_READ_MAX_BYTES,
        stat=res.stat,
    )


def header_from_read(res: ReadResult, parsed: Frontmatter | None = None) -> Frontmatter:
    """The header read_header gives for the file res read, without reading it again.

    res is a read whose cap is at least HEADER_READ_MAX_BYTES (lint and the dream planner read
    whole files); its first HEADER_READ_MAX_BYTES bytes are taken as read_header's own read
    would have. parsed, the parse of the whole text (CRLF normalised), is reused when the
    file is shorter than that and valid UTF-8: the header is then the same, with no second parse.
    """
    whole_head = not res.truncated and res.bytes_read < HEADER_READ_MAX_BYTES
    if parsed is not None and whole_head and res.valid_utf8:
        return parsed
    head = head_of_read(res)
    text = first_lines(normalise_newlines(head.text), FRONTMATTER_MAX_LINES)
    return _header_of(text, head.bytes_read, not head.valid_utf8)


def header_of_text(text: str) -> Frontmatter:
    """The header read_header gives for a file holding text, from the same first
    HEADER_READ_MAX_BYTES bytes and lines (an edit's text before and after it is written)."""
    head = text.encode("utf-8", "surrogateescape")[:HEADER_READ_MAX_BYTES]
    lines = first_lines(normalise_newlines(head.decode("utf-8", "replace")), FRONTMATTER_MAX_LINES)
    return _header_of(lines, len(head), False)


def _header_of(text: str, n_read: int, invalid: bool) -> Frontmatter:
    """read_header's verdict on the first lines of a bounded read."""
    fm, _ = parse_frontmatter(text)
    if invalid:
        fm = with_problem(fm, "file is not valid UTF-8; invalid bytes were replaced")
    if n_read >= FRONTMATTER_MAX_BYTES and fm.malformed:
        fm = with_problem(
            fm, f"only the first {FRONTMATTER_MAX_BYTES} bytes of the file are read for the header"
        )
    return fm


class MemoryFileTooLargeError(ValueError):
    """A memory file is larger than the read cap, so it cannot be rewritten without losing its end."""


def parse_memory_file(
    path: str | os.PathLike[str],
    *,
    root: str | os.PathLike[str] | None = None,
    cap: int = MEMORY_FILE_READ_MAX_BYTES,
    whole: bool = False,
) -> tuple[Frontmatter, str]:
    """Read a memory file (contained in root, default its folder; at most cap bytes) and split it.

    whole=True (for an edit that writes the file back) raises MemoryFileTooLargeError instead of
    returning a cut body.
    """
    if root is None:
        root = os.path.dirname(os.path.abspath(path))
    res = read_contained(root, path, cap)
    if whole and res.truncated:
        raise MemoryFileTooLargeError(
            f"{res.cut_note()}; it cannot be rewritten without losing its end. "
            "Shorten it by hand (or split it into several memories) first"
        )
    fm, body = parse_frontmatter(res.text)
    if not res.valid_utf8:
        fm = with_problem(fm, "file is not valid UTF-8; invalid bytes were replaced")
    if res.truncated:
        fm = with_problem(fm, res.cut_note())
    return fm, body
