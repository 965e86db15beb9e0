"""The manifest the selector sees: one header per memory file, and its line format."""

from __future__ import annotations

from collections.abc import Iterable

from memdir_nb.spec import datetime_types as _dt
from memdir_nb.spec.constants import MODIFIED_MTIME_TOLERANCE_MS
from memdir_nb.spec.records import Record
from memdir_nb.spec.taxonomy import MemoryType, scope_of_path
from memdir_nb.spec.text import one_line

TYPE_CHECKING = False  # typing stays unimported at run time; mypy reads the block below
if TYPE_CHECKING:
    from memdir_nb.spec.taxonomy import Scope


class MemoryHeader(Record, frozen=True):
    """One memory file's header as the selector and the manifest see it.

    mtime_ms is the memory's time, used everywhere a memory is dated or ordered: its
    frontmatter `modified:` time when present and valid (Claude Code 2.1.214+), else the file's
    mtime. file_mtime_ms and modified_ms keep both sources (None: not known / not written).
    """

    filename: str
    file_path: str
    mtime_ms: float
    name: str | None
    description: str | None
    type: MemoryType | None
    malformed: bool = False
    file_mtime_ms: float | None = None
    modified_ms: float | None = None

    @property
    def scope(self) -> Scope:
        """'team' for a file under team/, else 'private' (filename is relative to the memory dir)."""
        return scope_of_path(self.filename)

    @property
    def time_source(self) -> str:
        """'modified' when the memory's time comes from its frontmatter, else 'mtime'."""
        return "modified" if self.modified_ms is not None else "mtime"

    @property
    def times_disagree(self) -> bool:
        """True when the file's mtime and its `modified:` time are more than a minute apart."""
        if self.modified_ms is None or self.file_mtime_ms is None:
            return False
        return abs(self.file_mtime_ms - self.modified_ms) > MODIFIED_MTIME_TOLERANCE_MS


def memory_time_ms(file_mtime_ms: float, modified_ms: float | None) -> float:
    """The memory's time: its `modified:` time when valid, else the file's mtime."""
    return file_mtime_ms if modified_ms is None else modified_ms


def iso_timestamp(mtime_ms: float) -> str:
    """UTC time with milliseconds and a trailing Z, like JavaScript's Date.toISOString()."""
    whole_ms = int(mtime_ms)  # a JS Date truncates fractional milliseconds
    moment = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC) + _dt.timedelta(milliseconds=whole_ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def format_manifest_line(header: MemoryHeader) -> str:
    """One manifest line: '- [type] filename (ISO): description'."""
    tag = f"[{header.type.value}] " if header.type is not None else ""
    line = f"- {tag}{header.filename} ({iso_timestamp(header.mtime_ms)})"
    if header.description:
        line += f": {one_line(header.description)}"
    return line


def format_memory_manifest(headers: Iterable[MemoryHeader]) -> str:
    """The memory list the selector reads, one line per header, in the order given."""
    return "\n".join(format_manifest_line(h) for h in headers)
