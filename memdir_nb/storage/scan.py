"""Find the memory files in a memory dir and read their headers, newest first.

The walk (memdir_nb.storage.listing) uses os.scandir and never leaves the memory dir:
symlinked folders are not followed, and a symlinked file is read only when its real path is
inside the memory dir's real path. Whatever is passed over for such a reason (or cannot be
read) is listed in ScanReport.skipped; nothing in a scan raises because of one bad file.

A caller that scans the same dir again and again (the per-turn recall, the prefetch thread)
can own a ScanCache and pass it in: a file whose stat identity is unchanged since its header
was read is not opened again. The walk, the symlink containment checks and the ordering run
in full on every scan; only header fields are cached (see ScanCache).
"""

from __future__ import annotations

import _thread
import itertools
import os
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping

from memdir_nb.clock import system_clock_ms
from memdir_nb.formats.manifest import MemoryHeader, memory_time_ms
from memdir_nb.spec.byte_weight import ENTRY_OVERHEAD_BYTES, weight_of
from memdir_nb.spec.constants import MAX_MEMORY_FILES, SCAN_CACHE_MAX_BYTES
from memdir_nb.spec.records import Record, field
from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.storage.access import ContainedReader, ReadRefused
from memdir_nb.storage.containment import real_path, unreadable_reason
from memdir_nb.storage.headers import read_header
from memdir_nb.storage.listing import (  # re-exported: the walk's names stay importable here
    DEFAULT_EXCLUDED_TOP_LEVEL as DEFAULT_EXCLUDED_TOP_LEVEL,
)
from memdir_nb.storage.listing import ListedFile as ListedFile
from memdir_nb.storage.listing import MemoryListing as MemoryListing
from memdir_nb.storage.listing import SkippedFile as SkippedFile
from memdir_nb.storage.listing import list_memory_files as list_memory_files
from memdir_nb.storage.listing import refusal_reason as refusal_reason
from memdir_nb.storage.listing import walk_failure, walk_memory_dir
from memdir_nb.storage.name_kinds import NAME_REFUSAL as NAME_REFUSAL
from memdir_nb.storage.name_kinds import is_repository_file as is_repository_file

_Candidate = ListedFile
# A kept header beyond its texts: the CachedHeader, its stat key's five ints, its dict slot
_ENTRY_BYTES = ENTRY_OVERHEAD_BYTES + 300


class ScanReport(Record, frozen=True):
    """The headers found (newest first, capped), what was skipped, and the count before the cap.

    total_found counts the walk's candidates: each one is a header, a file skipped at its read
    (in skipped), or past the cap (past_cap, never read). So `total_found > len(headers)` does
    not mean a cap was reached: a file that failed to read counts too (fresh32).
    """

    headers: list[MemoryHeader] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    total_found: int = 0
    ignored: list[str] = field(default_factory=list)  # top-level README.md, LICENSE.md, ...
    past_cap: int = 0  # candidates left unread because the cap was reached

    @property
    def read_skips(self) -> int:
        """Candidates the walk found that failed to read (named in skipped), not cut by the cap."""
        return self.total_found - len(self.headers) - self.past_cap


StatKey = tuple[int, int, int, int, int]


def stat_key(st: os.stat_result) -> StatKey:
    """The stat fields a cached header is tied to: (device, inode, size, mtime_ns, ctime_ns)."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


# A file changed this recently is read but not kept (see ScanCache): a later write in the same
# clock tick of a coarse-timestamp filesystem could leave every field of its stat_key as it was.
RACY_WINDOW_MS = 2_000.0


def settled(st: os.stat_result, started_ms: float, racy_window_ms: float = RACY_WINDOW_MS) -> bool:
    """Whether what was read under st may be reused while its stat_key holds: its last change
    (ctime) predates the racy window before started_ms, the wall-clock start of the read."""
    return st.st_ctime_ns < (started_ms - racy_window_ms) * 1_000_000


class CachedHeader(Record, frozen=True):
    """The header fields read from one file, and the stat identity they were read under.

    A record (spec.records), as formats.frontmatter_fast.PlainColon: a NamedTuple's class
    compiles each of its string annotations when it is made, on every scan's import path.
    """

    key: StatKey
    name: str | None
    description: str | None
    type: MemoryType | None
    malformed: bool
    modified_ms: float | None = None


class ScanCacheStats(Record, frozen=True):
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
    dirs and at most max_bytes of them (a description may fill an 8 KiB header; the newest
    files are kept; the least recently scanned dir is dropped first), and a file no longer
    found by a scan is forgotten. Safe to share between threads: scans read
    an immutable snapshot and publish a new one under a lock.
    """

    def __init__(
        self,
        *,
        max_entries: int = 20_000,
        max_bytes: int = SCAN_CACHE_MAX_BYTES,
        racy_window_ms: float = RACY_WINDOW_MS,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if not isinstance(max_entries, int) or isinstance(max_entries, bool) or max_entries < 1:
            raise ValueError(
                f"max_entries must be a whole number of at least 1, got {max_entries!r}"
            )
        if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes < 1:
            raise ValueError(f"max_bytes must be a whole number of at least 1, got {max_bytes!r}")
        if not isinstance(racy_window_ms, (int, float)) or racy_window_ms < 0:
            raise ValueError(
                f"racy_window_ms must be 0 or more milliseconds, got {racy_window_ms!r}"
            )
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.racy_window_ms = float(racy_window_ms)
        self._clock = clock if clock is not None else _wall_clock_ms
        # threading.Lock is this same function; a scan process need not import threading for it
        self._lock = _thread.allocate_lock()
        self._roots: OrderedDict[_RootKey, Mapping[str, CachedHeader]] = OrderedDict()
        self._root_bytes: dict[_RootKey, int] = {}  # each dir's entries' bytes (_entry_bytes)
        self._hits = 0
        self._misses = 0
        self._racy = 0
        # the header last made from each cached entry, by open path: a warm scan hands back the
        # same MemoryHeader while the entry, the file's place and its name stay (_HeaderReads.made)
        self._made: dict[str, tuple[CachedHeader, str, str, MemoryHeader]] = {}

    def stats(self) -> ScanCacheStats:
        """Totals since creation (or the last clear) and the current size."""
        with self._lock:
            entries = sum(len(v) for v in self._roots.values())
            return ScanCacheStats(self._hits, self._misses, self._racy, entries, len(self._roots))

    def clear(self) -> None:
        """Forget every entry and reset the totals."""
        with self._lock:
            self._roots.clear()
            self._root_bytes.clear()
            self._made = {}
            self._hits = self._misses = self._racy = 0

    def held_bytes(self) -> int:
        """The bytes the entries are counted as (spec.byte_weight.weight_of), all dirs."""
        with self._lock:
            return sum(self._root_bytes.values())

    def __len__(self) -> int:
        return self.stats().entries

    def __repr__(self) -> str:
        s = self.stats()
        return f"ScanCache(entries={s.entries}, dirs={s.roots}, hits={s.hits}, misses={s.misses}, racy={s.racy})"

    def _now_ms(self) -> float:
        return float(self._clock())

    def _trusts(self, st: os.stat_result, started_ms: float) -> bool:
        """Whether a header read under st may be reused: its last change predates the racy window."""
        return settled(st, started_ms, self.racy_window_ms)

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
            # nothing read and nothing gone: the same entries as before, the same bytes
            size = self._root_bytes.get(root_key) if not read_now and len(new) == len(old) else None
            if size is None:
                new, size = _within_bytes(new, self.max_bytes)
            self._hits += counts[0]
            self._misses += counts[1]
            self._racy += counts[2]
            if new:
                self._roots[root_key] = new
                self._roots.move_to_end(root_key)
                self._root_bytes[root_key] = size
            else:  # a dir holding no header (empty, gone, unlistable) keeps no key: one per
                # dir asked about, counted as 0 bytes, they grew with the calls (attack round 18)
                self._roots.pop(root_key, None)
                self._root_bytes.pop(root_key, None)
            total = sum(len(v) for v in self._roots.values())
            total_bytes = sum(self._root_bytes.values())
            kept_roots = len(self._roots)
            while (total > limit or total_bytes > self.max_bytes) and len(self._roots) > 1:
                key, dropped = self._roots.popitem(last=False)
                total -= len(dropped)
                total_bytes -= self._root_bytes.pop(key, 0)
            if len(self._roots) < kept_roots or len(self._made) > total:
                # a header made from an entry no longer kept would keep that entry alive past
                # both bounds: the made headers go with it (a warm scan makes them again)
                self._made = {}


def _entry_bytes(path: str, entry: CachedHeader) -> int:
    """The bytes one kept header is counted as: its path's and fields' texts, and the rest."""
    return weight_of(path) + weight_of(entry.name) + weight_of(entry.description) + _ENTRY_BYTES


def _within_bytes(
    entries: dict[str, CachedHeader], max_bytes: int
) -> tuple[dict[str, CachedHeader], int]:
    """entries (newest first), cut to the newest that fit in max_bytes, and their bytes."""
    size = 0
    for n, (path, entry) in enumerate(entries.items()):
        weight = _entry_bytes(path, entry)
        if size + weight > max_bytes:
            return dict(itertools.islice(entries.items(), n)), size
        size += weight
    return entries, size


def _wall_clock_ms() -> float:
    return system_clock_ms()


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


def _check_scan_args(limit: int | None, cache: ScanCache | None) -> None:
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be 0 or more (or None for no cap), got {limit}")
    if cache is not None and not isinstance(cache, ScanCache):
        raise TypeError(
            f"cache must be a ScanCache or None, got {type(cache).__name__}; create one with ScanCache()"
        )


class _HeaderReads:
    """One scan's header reads: through the cache where it holds, counted for its totals."""

    def __init__(self, cache: ScanCache | None, root_key: _RootKey, started_ms: float) -> None:
        self.cache = cache
        self.view = cache._snapshot(root_key) if cache is not None else None
        self.started_ms = started_ms
        self.read_now: dict[str, CachedHeader] = {}
        self.hits = self.misses = self.racy = 0

    def cached(self, cand: _Candidate) -> CachedHeader | None:
        """The cached header of cand when its stat identity still holds (counted), else None."""
        if self.view is None:
            return None
        hit = self.view.get(cand.open_path)
        if hit is not None and hit.key == stat_key(cand.st):
            self.hits += 1
            return hit
        self.misses += 1
        return None

    def made(self, cand: _Candidate, cached: CachedHeader) -> MemoryHeader:
        """cand's header from its cached entry: the one made last time from this same entry
        (whose stat identity includes the mtime) for the same path and name, else a new one."""
        assert self.cache is not None  # only a cache hands out entries
        made = self.cache._made
        last = made.get(cand.open_path)
        if last is not None and last[0] is cached and last[1] == cand.rel and last[2] == cand.path:
            return last[3]
        header = _header(cand, cand.st, cached)
        if len(made) >= self.cache.max_entries:
            made.clear()
        made[cand.open_path] = (cached, cand.rel, cand.path, header)
        return header

    def read(
        self, cand: _Candidate, reader: ContainedReader
    ) -> tuple[CachedHeader, os.stat_result]:
        """Read cand's header now (raises ReadRefused / OSError) and keep it if it is not racy."""
        fm, st = read_header(cand.open_path, reader=reader)
        read = CachedHeader(
            stat_key(st), fm.name, fm.description, fm.type, fm.malformed, fm.modified_ms
        )
        if self.cache is not None:
            if self.cache._trusts(st, self.started_ms):
                self.read_now[cand.open_path] = read
            else:
                self.racy += 1
        return read, st


def _read_headers(
    root: str, real_root: str, found: list[_Candidate], limit: int | None, reads: _HeaderReads
) -> tuple[list[MemoryHeader], list[SkippedFile]]:
    """Headers of the newest candidates up to limit; a file that fails to read is skipped."""
    headers: list[MemoryHeader] = []
    skipped: list[SkippedFile] = []
    # The walk has just lstat'ed every candidate, so the reader skips its own pre-open lstat;
    # the no-follow open and the fstat after it still refuse anything swapped in since.
    with ContainedReader(root, real_root=real_root, check_before_open=False) as reader:
        for cand in found:
            if limit is not None and len(headers) >= limit:
                break
            cached = reads.cached(cand)
            if cached is not None:
                headers.append(reads.made(cand, cached))
                continue
            try:
                read, st = reads.read(cand, reader)
            except ReadRefused as exc:  # replaced by a FIFO, a link out, ... since the listing
                skipped.append(SkippedFile(cand.rel, refusal_reason(exc)))
                continue
            except OSError as exc:
                skipped.append(SkippedFile(cand.rel, unreadable_reason(exc, cand.open_path)))
                continue
            headers.append(_header(cand, st, read))
    return headers, skipped


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
    _check_scan_args(limit, cache)
    excluded = frozenset(exclude_top_level)
    started_ms = cache._now_ms() if cache is not None else 0.0
    root = os.path.abspath(os.fspath(memory_dir))
    root_key = (root, excluded)
    try:
        real_root = real_path(root)
        found, skipped, ignored = walk_memory_dir(root, real_root, excluded)
    except OSError as exc:
        if cache is not None:  # the dir is gone or unlistable: forget what it held
            cache._publish(root_key, {}, [], {}, (0, 0, 0))
        if isinstance(exc, FileNotFoundError):
            return ScanReport()
        return ScanReport(skipped=[SkippedFile(".", walk_failure(exc, root))])
    # The walk sorted on the listing's mtimes, so only as many files are read as the cap
    # needs: with 10,000 files, 200 bounded reads instead of 10,000. A file that fails to read
    # is skipped and the next one takes its place.
    reads = _HeaderReads(cache, root_key, started_ms)
    headers, unread = _read_headers(root, real_root, found, limit, reads)
    # Ordered by the memory's time (`modified:` when written, else the mtime; the fstat'ed
    # mtime can be newer than the listed one if a file changed meanwhile). The cap above picks
    # candidates by file mtime, before any header is read.
    headers.sort(key=lambda h: (-h.mtime_ms, h.filename))
    skipped = sorted(skipped + unread, key=lambda s: s.path)
    if cache is not None and reads.view is not None:
        counts = (reads.hits, reads.misses, reads.racy)
        cache._publish(root_key, reads.view, found, reads.read_now, counts)
    past_cap = len(found) - len(headers) - len(unread)  # the read stopped at the cap
    return ScanReport(
        headers=headers,
        skipped=skipped,
        total_found=len(found),
        ignored=ignored,
        past_cap=past_cap,
    )


def scan_memory_files(
    memory_dir: str | os.PathLike[str],
    *,
    limit: int | None = MAX_MEMORY_FILES,
    cache: ScanCache | None = None,
) -> list[MemoryHeader]:
    """The memory files under memory_dir, newest first, at most limit of them."""
    return scan_memory_dir(memory_dir, limit=limit, cache=cache).headers
