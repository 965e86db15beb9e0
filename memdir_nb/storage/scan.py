"""Find the memory files in a memory dir and read their headers, newest first.

The walk uses os.scandir and never leaves the memory dir: symlinked folders are not
followed, and a symlinked file is read only when its real path is inside the memory dir's
real path. Whatever is passed over for such a reason (or cannot be read) is listed in
ScanReport.skipped; nothing in a scan raises because of one bad file.

A caller that scans the same dir again and again (the per-turn recall, the prefetch thread)
can own a ScanCache and pass it in: a file whose stat identity is unchanged since its header
was read is not opened again. The walk, the symlink containment checks and the ordering run
in full on every scan; only header fields are cached (see ScanCache).
"""

from __future__ import annotations

import errno
import itertools
import os
import stat as _stat
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from memdir_nb.clock import system_clock_ms
from memdir_nb.formats.manifest import MemoryHeader, memory_time_ms
from memdir_nb.formats.names import component_problem, is_memory_filename, name_problem
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    LOGS_DIRNAME,
    MAX_MEMORY_FILES,
    REPOSITORY_FILE_STEMS,
)
from memdir_nb.spec.taxonomy import MemoryType, scope_of_path
from memdir_nb.storage.access import ContainedReader, ReadRefused, file_kind
from memdir_nb.storage.containment import is_real_path_within
from memdir_nb.storage.headers import read_header

DEFAULT_EXCLUDED_TOP_LEVEL: tuple[str, ...] = (LOGS_DIRNAME,)
NAME_REFUSAL = "not a memory file name"  # how a skip reason from the name gate starts


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
    ignored: list[str] = field(default_factory=list)  # top-level README.md, LICENSE.md, ...


@dataclass(slots=True)  # not frozen: built 10,000 times per scan, never changed after
class ListedFile:
    """One memory file the walk found, before it is opened: where it is and its stat."""

    mtime_ns: int
    rel: str
    path: str  # absolute path as it sits in the memory dir
    open_path: str  # what to open: the path itself, or a symlink's verified real path
    st: os.stat_result  # stat of what open_path names, taken during the walk

    @property
    def scope(self) -> str:
        """'team' for files under team/, else 'private' (as MemoryHeader.scope)."""
        return scope_of_path(self.rel)


_Candidate = ListedFile


@dataclass(frozen=True)
class MemoryListing:
    """Every memory file under a dir, newest first, none opened; what was passed over and why."""

    root: str  # the memory dir, absolute
    real_root: str  # its real path (symlinks resolved)
    files: list[ListedFile] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # top-level README.md, LICENSE.md, ...


StatKey = tuple[int, int, int, int, int]


def stat_key(st: os.stat_result) -> StatKey:
    """The stat fields a cached header is tied to: (device, inode, size, mtime_ns, ctime_ns)."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


@dataclass(frozen=True)
class CachedHeader:
    """The header fields read from one file, and the stat identity they were read under."""

    key: StatKey
    name: str | None
    description: str | None
    type: MemoryType | None
    malformed: bool
    modified_ms: float | None = None


@dataclass(frozen=True)
class ScanCacheStats:
    """Running totals of a ScanCache: reuses, reads, reads too recent to keep, and its size."""

    hits: int
    misses: int
    racy: int
    entries: int
    roots: int


_RootKey = tuple[str, frozenset[str]]


class ScanCache:
    """Header fields of files a scan has read, reused while each file's stat identity holds.

    Pass one to scan_memory_dir / scan_memory_files; the caller owns it (there is no global
    cache). An entry is reused only when the file's (device, inode, size, mtime_ns, ctime_ns)
    equals what was fstat'ed when it was read. ctime cannot be set from user space and moves
    on every write, rename-over, chmod or utime, so a same-size rewrite with a forced-equal
    mtime, or a file replaced by another one, is read again. A file whose ctime is within
    racy_window_ms of the scan's start is read but not kept: on filesystems with coarse
    timestamps a later write in the same clock tick could leave every field unchanged (the
    "racy git" problem), so such headers are only trusted once they are older than that.

    Memory is bounded: only header fields are held, at most max_entries across all scanned
    dirs (the newest files are kept; the least recently scanned dir is dropped first), and a
    file no longer found by a scan is forgotten. Safe to share between threads: scans read
    an immutable snapshot and publish a new one under a lock.
    """

    def __init__(
        self,
        *,
        max_entries: int = 20_000,
        racy_window_ms: float = 2_000.0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if not isinstance(max_entries, int) or isinstance(max_entries, bool) or max_entries < 1:
            raise ValueError(
                f"max_entries must be a whole number of at least 1, got {max_entries!r}"
            )
        if not isinstance(racy_window_ms, (int, float)) or racy_window_ms < 0:
            raise ValueError(
                f"racy_window_ms must be 0 or more milliseconds, got {racy_window_ms!r}"
            )
        self.max_entries = max_entries
        self.racy_window_ms = float(racy_window_ms)
        self._clock = clock if clock is not None else _wall_clock_ms
        self._lock = threading.Lock()
        self._roots: OrderedDict[_RootKey, Mapping[str, CachedHeader]] = OrderedDict()
        self._hits = 0
        self._misses = 0
        self._racy = 0

    def stats(self) -> ScanCacheStats:
        """Totals since creation (or the last clear) and the current size."""
        with self._lock:
            entries = sum(len(v) for v in self._roots.values())
            return ScanCacheStats(self._hits, self._misses, self._racy, entries, len(self._roots))

    def clear(self) -> None:
        """Forget every entry and reset the totals."""
        with self._lock:
            self._roots.clear()
            self._hits = self._misses = self._racy = 0

    def __len__(self) -> int:
        return self.stats().entries

    def __repr__(self) -> str:
        s = self.stats()
        return f"ScanCache(entries={s.entries}, dirs={s.roots}, hits={s.hits}, misses={s.misses}, racy={s.racy})"

    def _now_ms(self) -> float:
        return float(self._clock())

    def _trusts(self, st: os.stat_result, started_ms: float) -> bool:
        """Whether a header read under st may be reused: its last change predates the racy window."""
        return st.st_ctime_ns < (started_ms - self.racy_window_ms) * 1_000_000

    def _snapshot(self, root_key: _RootKey) -> Mapping[str, CachedHeader]:
        with self._lock:
            return self._roots.get(root_key, {})

    def _publish(
        self,
        root_key: _RootKey,
        old: Mapping[str, CachedHeader],
        found: list[_Candidate],
        read_now: dict[str, CachedHeader],
        counts: tuple[int, int, int],
    ) -> None:
        """Swap in this dir's new entries: files still present, newest first, fresh reads winning."""
        get = {**old, **read_now}.get if read_now else old.get
        new = {cand.open_path: e for cand in found if (e := get(cand.open_path)) is not None}
        limit = self.max_entries
        if len(new) > limit:  # found is newest first, so the cut keeps the newest
            new = dict(itertools.islice(new.items(), limit))
        with self._lock:
            self._hits += counts[0]
            self._misses += counts[1]
            self._racy += counts[2]
            self._roots[root_key] = new
            self._roots.move_to_end(root_key)
            total = sum(len(v) for v in self._roots.values())
            while total > limit and len(self._roots) > 1:
                _, dropped = self._roots.popitem(last=False)
                total -= len(dropped)


def _wall_clock_ms() -> float:
    return system_clock_ms()


def _symlink_problem(exc: OSError) -> str:
    """A short reason for a symlink whose target cannot be stat'ed."""
    if exc.errno == errno.ELOOP:
        return "symlink loop"
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return "dangling symlink"
    return f"unreadable symlink: {type(exc).__name__}"


def _refusal_reason(exc: ReadRefused) -> str:
    """A skip reason from the reader's refusal, without the path: 'a FIFO, not a regular file'."""
    if exc.kind == "unreadable" and exc.errno not in (None, 0, errno.ELOOP):
        return f"unreadable: {type(OSError(exc.errno, '')).__name__}"
    detail = exc.detail
    return detail[3:] if detail.startswith("is ") else detail


def _is_memory_name(name: str) -> bool:
    """Whether a file name is a memory file: the name gate (memdir_nb.formats.names) decides."""
    return is_memory_filename(name)


def _gate_refusal(name: str) -> str | None:
    """Why a name that looks like a memory (a visible *.md, any case) is refused by the gate.

    None for a name the gate passes, for names that never look like memories (other
    extensions, hidden files, the store's temp files) and for the index itself, MEMORY.md.
    """
    if name == ENTRYPOINT_NAME or name.startswith(".") or not name.casefold().endswith(".md"):
        return None
    problem = name_problem(name)
    return f"{NAME_REFUSAL}: it {problem}" if problem else None


def is_repository_file(name: str) -> bool:
    """Whether a top-level file name is a repository file (README.md, LICENSE-MIT.md...)."""
    stem = name.rsplit(".", 1)[0].casefold()
    return stem in REPOSITORY_FILE_STEMS or stem.startswith(("license-", "licence-", "readme-"))


def _walk(
    root: str, real_root: str, exclude_top_level: Iterable[str], ignored: list[str] | None = None
) -> tuple[list[_Candidate], list[SkippedFile]]:
    """Collect every memory file under root with its mtime, without leaving root.

    Top-level repository files (README.md, LICENSE.md...) are not memories; their names go
    into `ignored` when a list is given.
    """
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
                skipped.append(
                    SkippedFile(prefix.rstrip("/"), f"unreadable folder: {type(exc).__name__}")
                )
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
                    folder_problem = component_problem(name)
                    if folder_problem is not None:  # a control, bidi or non-UTF-8 folder name
                        skipped.append(SkippedFile(rel, f"folder name {folder_problem}"))
                        continue
                    stack.append((entry.path, rel + "/"))
                elif (refused := _gate_refusal(name)) is not None:
                    skipped.append(SkippedFile(rel, refused))
                elif _is_memory_name(name):
                    if not prefix and is_repository_file(name):
                        if ignored is not None:
                            ignored.append(name)
                        continue
                    st = entry.stat(follow_symlinks=False)
                    if _stat.S_ISREG(st.st_mode):
                        found.append(_Candidate(st.st_mtime_ns, rel, entry.path, entry.path, st))
                    else:  # a FIFO, socket or device named like a memory: never opened
                        skipped.append(
                            SkippedFile(rel, f"{file_kind(st.st_mode)}, not a regular file")
                        )
            except OSError as exc:  # vanished or unreadable between listing and stat
                skipped.append(SkippedFile(rel, f"unreadable: {type(exc).__name__}"))
    return found, skipped


def _visit_symlink(
    entry: os.DirEntry[str],
    rel: str,
    real_root: str,
    found: list[_Candidate],
    skipped: list[SkippedFile],
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
    refused = _gate_refusal(entry.name)
    if refused is not None:
        skipped.append(SkippedFile(rel, refused))
        return
    if not _is_memory_name(entry.name):
        return
    if not _stat.S_ISREG(st.st_mode):
        skipped.append(SkippedFile(rel, "symlink target is not a regular file"))
        return
    real = os.path.realpath(entry.path)
    if not is_real_path_within(real, real_root, or_equal=True):
        skipped.append(SkippedFile(rel, "symlink leaves the memory dir"))
        return
    found.append(_Candidate(st.st_mtime_ns, rel, entry.path, real, st))


def _newest_first(item: _Candidate) -> tuple[int, str]:
    return (-item.mtime_ns, item.rel)


def list_memory_files(
    memory_dir: str | os.PathLike[str],
    *,
    exclude_top_level: Iterable[str] = DEFAULT_EXCLUDED_TOP_LEVEL,
) -> MemoryListing:
    """Walk memory_dir as scan_memory_dir does, newest first, without opening any file.

    Whole-dir passes (lint, analysis, dream planning) read every file in full anyway, so they
    list with this and read each file once, deriving its header from that read
    (memdir_nb.storage.headers.header_from_read) instead of a scan's separate header read.
    A dir that cannot be listed gives no files and one skipped entry "." saying why
    (nothing when it does not exist).
    """
    root = os.path.abspath(os.fspath(memory_dir))
    real_root = os.path.realpath(root)
    ignored: list[str] = []
    try:
        found, skipped = _walk(root, real_root, frozenset(exclude_top_level), ignored)
    except FileNotFoundError:
        return MemoryListing(root, real_root)
    except OSError as exc:
        reason = f"cannot list the memory dir: {type(exc).__name__}"
        return MemoryListing(root, real_root, skipped=[SkippedFile(".", reason)])
    found.sort(key=_newest_first)
    return MemoryListing(root, real_root, found, skipped, sorted(ignored))


def refusal_reason(exc: ReadRefused) -> str:
    """The skip reason a scan gives for a file the contained reader refused (no path in it)."""
    return _refusal_reason(exc)


def _header(cand: _Candidate, st: os.stat_result, read: CachedHeader) -> MemoryHeader:
    """A candidate's header from what was read of it (now, or by an earlier scan)."""
    file_ms = st.st_mtime_ns / 1_000_000
    return MemoryHeader(
        filename=cand.rel,
        file_path=cand.path,
        mtime_ms=memory_time_ms(file_ms, read.modified_ms),
        name=read.name,
        description=read.description,
        type=read.type,
        malformed=read.malformed,
        file_mtime_ms=file_ms,
        modified_ms=read.modified_ms,
    )


def scan_memory_dir(
    memory_dir: str | os.PathLike[str],
    *,
    limit: int | None = MAX_MEMORY_FILES,
    exclude_top_level: Iterable[str] = DEFAULT_EXCLUDED_TOP_LEVEL,
    cache: ScanCache | None = None,
) -> ScanReport:
    """Headers of the memory files under memory_dir, newest first, capped at limit (None: no cap).

    With a cache, files whose stat identity is unchanged since they were read are not opened
    again; the report is the same as without one.
    """
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be 0 or more (or None for no cap), got {limit}")
    if cache is not None and not isinstance(cache, ScanCache):
        raise TypeError(
            f"cache must be a ScanCache or None, got {type(cache).__name__}; create one with ScanCache()"
        )
    excluded = frozenset(exclude_top_level)
    started_ms = cache._now_ms() if cache is not None else 0.0
    root = os.path.abspath(os.fspath(memory_dir))
    try:
        real_root = os.path.realpath(root)
        ignored: list[str] = []
        found, skipped = _walk(root, real_root, excluded, ignored)
    except OSError as exc:
        if cache is not None:  # the dir is gone or unlistable: forget what it held
            cache._publish((root, excluded), {}, [], {}, (0, 0, 0))
        if isinstance(exc, FileNotFoundError):
            return ScanReport()
        return ScanReport(
            skipped=[SkippedFile(".", f"cannot list the memory dir: {type(exc).__name__}")]
        )

    # Sort on the listing's mtimes, then read only as many files as the cap needs: with
    # 10,000 files, 200 bounded reads instead of 10,000. A file that fails to read is
    # skipped and the next one takes its place.
    found.sort(key=_newest_first)
    root_key = (root, excluded)
    view = cache._snapshot(root_key) if cache is not None else None
    read_now: dict[str, CachedHeader] = {}
    hits = misses = racy = 0
    headers: list[MemoryHeader] = []
    # The walk has just lstat'ed every candidate, so the reader skips its own pre-open lstat;
    # the no-follow open and the fstat after it still refuse anything swapped in since.
    with ContainedReader(root, real_root=real_root, check_before_open=False) as reader:
        for cand in found:
            if limit is not None and len(headers) >= limit:
                break
            if view is not None:
                cached = view.get(cand.open_path)
                if cached is not None and cached.key == stat_key(cand.st):
                    hits += 1
                    headers.append(_header(cand, cand.st, cached))
                    continue
                misses += 1
            try:
                fm, st = read_header(cand.open_path, reader=reader)
            except ReadRefused as exc:  # replaced by a FIFO, a link out, ... since the listing
                skipped.append(SkippedFile(cand.rel, _refusal_reason(exc)))
                continue
            except OSError as exc:
                skipped.append(SkippedFile(cand.rel, f"unreadable: {type(exc).__name__}"))
                continue
            read = CachedHeader(
                stat_key(st), fm.name, fm.description, fm.type, fm.malformed, fm.modified_ms
            )
            if cache is not None:
                if cache._trusts(st, started_ms):
                    read_now[cand.open_path] = read
                else:
                    racy += 1
            headers.append(_header(cand, st, read))
    # Ordered by the memory's time (`modified:` when written, else the mtime; the fstat'ed
    # mtime can be newer than the listed one if a file changed meanwhile). The cap above picks
    # candidates by file mtime, before any header is read.
    headers.sort(key=lambda h: (-h.mtime_ms, h.filename))
    skipped.sort(key=lambda s: s.path)
    if cache is not None and view is not None:
        cache._publish(root_key, view, found, read_now, (hits, misses, racy))
    return ScanReport(
        headers=headers, skipped=skipped, total_found=len(found), ignored=sorted(ignored)
    )


def scan_memory_files(
    memory_dir: str | os.PathLike[str],
    *,
    limit: int | None = MAX_MEMORY_FILES,
    cache: ScanCache | None = None,
) -> list[MemoryHeader]:
    """The memory files under memory_dir, newest first, at most limit of them."""
    return scan_memory_dir(memory_dir, limit=limit, cache=cache).headers
