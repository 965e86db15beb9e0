"""Find the memory files in a memory dir and read their headers, newest first.

The walk uses os.scandir and never leaves the memory dir: symlinked folders are not
followed, and a symlinked file is read only when its real path is inside the memory dir's
real path. Whatever is passed over for such a reason (or cannot be read) is listed in
ScanReport.skipped; nothing in a scan raises because of one bad file.
"""

from __future__ import annotations

import datetime as _dt
import errno
import os
import stat as _stat
from dataclasses import dataclass, field
from typing import Iterable

from memdir_nb.frontmatter import one_line, read_header
from memdir_nb.types import MemoryType

MAX_MEMORY_FILES = 200
ENTRYPOINT_NAME = "MEMORY.md"
DEFAULT_EXCLUDED_TOP_LEVEL: tuple[str, ...] = ("logs",)


@dataclass(frozen=True)
class MemoryHeader:
    """One memory file's header as the selector and the manifest see it."""

    filename: str
    file_path: str
    mtime_ms: float
    name: str | None
    description: str | None
    type: MemoryType | None
    malformed: bool = False


@dataclass(frozen=True)
class SkippedFile:
    """A file or folder the scan passed over, and why."""

    path: str
    reason: str


@dataclass(frozen=True)
class ScanReport:
    """The headers found (newest first, capped), what was skipped, and the count before the cap."""

    headers: list[MemoryHeader] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    total_found: int = 0


@dataclass(frozen=True)
class _Candidate:
    mtime_ns: int
    rel: str
    path: str        # absolute path as it sits in the memory dir
    open_path: str   # what to open: the path itself, or a symlink's verified real path


def _inside(real: str, real_root: str) -> bool:
    """Whether a resolved path is the root or lies under it."""
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def _symlink_problem(exc: OSError) -> str:
    """A short reason for a symlink whose target cannot be stat'ed."""
    if exc.errno == errno.ELOOP:
        return "symlink loop"
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return "dangling symlink"
    return f"unreadable symlink: {type(exc).__name__}"


def _is_memory_name(name: str) -> bool:
    """A *.md file that is not an index and not hidden (dot-files include in-progress temp files)."""
    return name.endswith(".md") and name != ENTRYPOINT_NAME and not name.startswith(".")


def _walk(
    root: str, real_root: str, exclude_top_level: Iterable[str]
) -> tuple[list[_Candidate], list[SkippedFile]]:
    """Collect every memory file under root with its mtime, without leaving root."""
    excluded = frozenset(exclude_top_level)
    found: list[_Candidate] = []
    skipped: list[SkippedFile] = []
    stack: list[tuple[str, str]] = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError as exc:
            if prefix:
                skipped.append(SkippedFile(prefix.rstrip("/"), f"unreadable folder: {type(exc).__name__}"))
                continue
            raise
        for entry in entries:
            name = entry.name
            rel = prefix + name
            try:
                if entry.is_symlink():
                    _visit_symlink(entry, rel, real_root, found, skipped)
                elif entry.is_dir(follow_symlinks=False):
                    if name.startswith(".") or (not prefix and name in excluded):
                        continue
                    stack.append((entry.path, rel + "/"))
                elif _is_memory_name(name) and entry.is_file(follow_symlinks=False):
                    st = entry.stat(follow_symlinks=False)
                    found.append(_Candidate(st.st_mtime_ns, rel, entry.path, entry.path))
            except OSError as exc:  # vanished or unreadable between listing and stat
                skipped.append(SkippedFile(rel, f"unreadable: {type(exc).__name__}"))
    return found, skipped


def _visit_symlink(
    entry: os.DirEntry[str], rel: str, real_root: str, found: list[_Candidate], skipped: list[SkippedFile]
) -> None:
    """Record a symlinked memory file if it stays inside the memory dir; report the rest."""
    try:
        st = os.stat(entry.path)
    except OSError as exc:
        if _is_memory_name(entry.name):
            skipped.append(SkippedFile(rel, _symlink_problem(exc)))
        return
    if _stat.S_ISDIR(st.st_mode):
        skipped.append(SkippedFile(rel, "symlinked folder is not followed"))
        return
    if not _is_memory_name(entry.name):
        return
    if not _stat.S_ISREG(st.st_mode):
        skipped.append(SkippedFile(rel, "symlink target is not a regular file"))
        return
    real = os.path.realpath(entry.path)
    if not _inside(real, real_root):
        skipped.append(SkippedFile(rel, "symlink leaves the memory dir"))
        return
    found.append(_Candidate(st.st_mtime_ns, rel, entry.path, real))


def _newest_first(item: _Candidate) -> tuple[int, str]:
    return (-item.mtime_ns, item.rel)


def scan_memory_dir(
    memory_dir: str | os.PathLike[str],
    *,
    limit: int | None = MAX_MEMORY_FILES,
    exclude_top_level: Iterable[str] = DEFAULT_EXCLUDED_TOP_LEVEL,
) -> ScanReport:
    """Headers of the memory files under memory_dir, newest first, capped at limit (None: no cap)."""
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be 0 or more (or None for no cap), got {limit}")
    root = os.path.abspath(os.fspath(memory_dir))
    try:
        real_root = os.path.realpath(root)
        found, skipped = _walk(root, real_root, exclude_top_level)
    except FileNotFoundError:
        return ScanReport()
    except OSError as exc:
        return ScanReport(skipped=[SkippedFile(".", f"cannot list the memory dir: {type(exc).__name__}")])

    # Sort on the listing's mtimes, then read only as many files as the cap needs: with
    # 10,000 files, 200 bounded reads instead of 10,000. A file that fails to read is
    # skipped and the next one takes its place.
    found.sort(key=_newest_first)
    headers: list[MemoryHeader] = []
    for cand in found:
        if limit is not None and len(headers) >= limit:
            break
        try:
            fm, st = read_header(cand.open_path, nofollow=True)
        except OSError as exc:
            reason = "symlink appeared after listing" if exc.errno == errno.ELOOP else f"unreadable: {type(exc).__name__}"
            skipped.append(SkippedFile(cand.rel, reason))
            continue
        headers.append(
            MemoryHeader(
                filename=cand.rel,
                file_path=cand.path,
                mtime_ms=st.st_mtime_ns / 1_000_000,
                name=fm.name,
                description=fm.description,
                type=fm.type,
                malformed=fm.malformed,
            )
        )
    # The fstat'ed mtime can be newer than the listed one if a file changed meanwhile.
    headers.sort(key=lambda h: (-h.mtime_ms, h.filename))
    skipped.sort(key=lambda s: s.path)
    return ScanReport(headers=headers, skipped=skipped, total_found=len(found))


def scan_memory_files(
    memory_dir: str | os.PathLike[str], *, limit: int | None = MAX_MEMORY_FILES
) -> list[MemoryHeader]:
    """The memory files under memory_dir, newest first, at most limit of them."""
    return scan_memory_dir(memory_dir, limit=limit).headers


def iso_timestamp(mtime_ms: float) -> str:
    """UTC time with milliseconds and a trailing Z, like JavaScript's Date.toISOString()."""
    whole_ms = int(mtime_ms)  # a JS Date truncates fractional milliseconds
    moment = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc) + _dt.timedelta(milliseconds=whole_ms)
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
