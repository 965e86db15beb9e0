"""A memory's body as the offline selector reads it: the whole text, bounded, cut into windows.

* `read_body(header)` reads the file once, at most MEMORY_FILE_READ_MAX_BYTES, through the
  contained reader rooted at its memory dir, and returns the body after the frontmatter.
* `body_windows(body)` cuts the body into overlapping windows of a few sentences (lines count
  as sentence ends, so a dialogue turn or a list item is a sentence). The semantic channel
  encodes each window and scores a memory by its best window; the explanation shows it.

Windows hold at most WINDOW_SENTENCES sentences and about WINDOW_MAX_CHARS characters (about
150 word pieces, well under the encoder's 256), and consecutive windows share one sentence, so
a fact that straddles a boundary is still whole in one window. A memory gets at most
MAX_WINDOWS windows (the lexical channel still reads the whole bounded body).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.spec.constants import MEMORY_FILE_READ_MAX_BYTES
from memdir_nb.storage.headers import read_head_info

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.formats.manifest import MemoryHeader

WINDOW_SENTENCES = 4  # sentences per window
WINDOW_STRIDE = 3  # a new window every three sentences: neighbours share one
WINDOW_MAX_CHARS = 600  # a longer run of sentences is cut here (about 150 word pieces)
MAX_WINDOWS = 48  # per memory: about 20 KB of prose; the lexical channel reads the rest
_MAX_LINES = 1_000_000  # the byte cap, not a line cap, bounds the read

_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s+")
_MARKUP = re.compile(r"^(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)")


def root_of(header: MemoryHeader) -> str:
    """The memory dir a header was scanned from (file_path minus its relative filename)."""
    rel = header.filename.replace("/", os.sep)
    path = header.file_path
    return path[: -len(rel)].rstrip(os.sep) if path.endswith(rel) else os.path.dirname(path)


def read_body(header: MemoryHeader) -> tuple[os.stat_result, str]:
    """(stat, body) of a memory file, read by the contained reader from its memory dir.

    OSError (ReadRefused) when the file is gone, unreadable or resolves outside the dir. The
    reader opens each folder from the dir down without following a link (a link inside the dir
    is resolved and its target opened the same way): a check of the real path before an open
    by path let a folder swapped for a link in between lead the read out (attack round 14).
    """
    head = read_head_info(
        header.file_path,
        max_lines=_MAX_LINES,
        max_bytes=MEMORY_FILE_READ_MAX_BYTES,
        root=root_of(header),
    )
    _, body = parse_frontmatter(head.text)
    return head.stat, body


def sentences(body: str) -> list[str]:
    """The body's sentences and lines, markup bullets and heading marks dropped, whitespace collapsed."""
    out = []
    pieces = [
        p for line in body.splitlines() for p in _SENTENCE_END.split(_MARKUP.sub("", line.strip()))
    ]
    for piece in pieces:
        text = " ".join(piece.split())
        if not text or text == "---":
            continue
        while len(text) > WINDOW_MAX_CHARS:  # one overlong sentence: cut at a space
            cut = text.rfind(" ", WINDOW_MAX_CHARS // 2, WINDOW_MAX_CHARS)
            cut = cut if cut > 0 else WINDOW_MAX_CHARS
            out.append(text[:cut])
            text = text[cut:].lstrip()
        if text:
            out.append(text)
    return out


def body_windows(body: str, *, limit: int = MAX_WINDOWS) -> list[str]:
    """Overlapping windows of up to WINDOW_SENTENCES sentences (and WINDOW_MAX_CHARS), in order."""
    parts = sentences(body)
    windows: list[str] = []
    start = 0
    while start < len(parts) and len(windows) < limit:
        chosen = [parts[start]]
        size = len(parts[start])
        for nxt in parts[start + 1 : start + WINDOW_SENTENCES]:
            if size + 1 + len(nxt) > WINDOW_MAX_CHARS:
                break
            chosen.append(nxt)
            size += 1 + len(nxt)
        windows.append(" ".join(chosen))
        if start + len(chosen) >= len(parts):
            break
        start += max(1, min(WINDOW_STRIDE, len(chosen) - 1) if len(chosen) > 1 else 1)
    return windows
