"""The index inspector's view-model: each scope's MEMORY.md against its two caps, and what loading drops."""

from __future__ import annotations

import os
from dataclasses import dataclass

from memdir_nb.formats.index import (
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    StrippedEntrypoint,
    counted_line_numbers,
    counted_text,
    strip_entrypoint_extras,
    truncate_entrypoint_content,
)
from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.spec.taxonomy import SCOPES, Scope
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.index_files import load_entrypoint

__all__ = ["DroppedLine", "IndexBudget", "StrippedBlock", "index_budget"]


@dataclass(frozen=True)
class StrippedBlock:
    """A block Claude Code (2.1.211+) strips before loading: not loaded and not counted."""

    kind: str  # "frontmatter" | "HTML comment"
    line_no: int  # 1-based line in the file where it starts
    text: str


@dataclass(frozen=True)
class DroppedLine:
    """A line of MEMORY.md that truncation leaves out of the prompt."""

    line_no: int  # 1-based line in the file
    text: str
    reason: str  # "line cap" | "byte cap" | "byte cap (cut mid-line)"


@dataclass(frozen=True)
class IndexBudget:
    """One scope's MEMORY.md against its two caps, and exactly what loading it would drop."""

    scope: Scope
    path: str
    exists: bool
    line_count: int
    byte_count: int
    max_lines: int
    max_bytes: int
    kept_line_count: int
    was_line_truncated: bool
    was_byte_truncated: bool
    dropped_lines: list[DroppedLine]
    warning: str
    problem: str = (
        ""  # why the file counts as missing (a FIFO, a link out), or what the read cap cut
    )
    stripped: tuple[StrippedBlock, ...] = ()  # frontmatter and block comments left out

    @property
    def line_fraction(self) -> float:
        """Lines used over the line cap (can exceed 1)."""
        return self.line_count / self.max_lines

    @property
    def byte_fraction(self) -> float:
        """Bytes used over the byte cap (can exceed 1)."""
        return self.byte_count / self.max_bytes


def index_budget(memory_dir: str | os.PathLike[str], scope: Scope = "private") -> IndexBudget:
    """Measure a scope's MEMORY.md against 200 lines / 25,000 bytes and list the dropped lines."""

    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {', '.join(map(repr, SCOPES))}, got {scope!r}")
    scope_dir = (
        absolute_dir(memory_dir) / TEAM_DIRNAME if scope == "team" else absolute_dir(memory_dir)
    )
    loaded = load_entrypoint(scope_dir, memory_dir=memory_dir)
    raw = loaded.text
    result = truncate_entrypoint_content(raw)
    # truncation works on the text without frontmatter and block comments, trimmed as
    # JavaScript trims: map its line numbers back to the file's
    stripped = strip_entrypoint_extras(raw)
    trimmed = counted_text(raw)
    numbers = counted_line_numbers(raw)
    lines = trimmed.split("\n") if trimmed else []

    def file_line(i: int) -> int:
        return numbers[i]

    kept_text = (
        result.content[: len(result.content) - len(result.warning)].rstrip("\n")
        if result.warning
        else trimmed
    )
    kept_lines = kept_text.split("\n") if kept_text else []
    dropped: list[DroppedLine] = []
    if result.warning:
        last = len(kept_lines) - 1
        if kept_lines and lines and kept_lines[last] != lines[last]:
            dropped.append(DroppedLine(file_line(last), lines[last], "byte cap (cut mid-line)"))
        for i in range(len(kept_lines), len(lines)):
            reason = "line cap" if i >= MAX_ENTRYPOINT_LINES else "byte cap"
            dropped.append(DroppedLine(file_line(i), lines[i], reason))
    return IndexBudget(
        scope=scope,
        path=loaded.path,
        exists=loaded.exists,
        line_count=result.line_count,
        byte_count=result.byte_count,
        max_lines=MAX_ENTRYPOINT_LINES,
        max_bytes=MAX_ENTRYPOINT_BYTES,
        kept_line_count=result.kept_line_count,
        was_line_truncated=result.was_line_truncated,
        was_byte_truncated=result.was_byte_truncated,
        dropped_lines=dropped,
        warning=result.warning,
        problem=loaded.note(),
        stripped=_stripped_blocks(stripped),
    )


def _stripped_blocks(stripped: StrippedEntrypoint) -> tuple[StrippedBlock, ...]:
    """Each stripped block with the file line it starts on, in file order."""
    blocks = [StrippedBlock("frontmatter", 1, stripped.frontmatter)] if stripped.frontmatter else []
    for comment, line_no in zip(stripped.comments, stripped.comment_lines, strict=True):
        blocks.append(StrippedBlock("HTML comment", line_no, comment))
    return tuple(blocks)


def rebuild_caps_note(unloaded_after: int, unloaded_now: int) -> str:
    """How a rebuilt index stands against the caps, said against the index as it is now.

    unloaded_after: the rebuilt index's lines past the line or byte cap; unloaded_now: the
    current index's. "Still" only when the index is already over a cap today.
    """
    if not unloaded_after:
        return " (within both caps)"
    never = f"{unloaded_after} {'line' if unloaded_after == 1 else 'lines'} would never load"
    if not unloaded_now:
        return f" (over a cap: {never}; shorten hooks or merge memories first)"
    if unloaded_after > unloaded_now:
        return f" (still over a cap: {never}, {unloaded_now} now)"
    return f" (still over a cap: {never})"
