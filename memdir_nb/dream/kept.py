"""What the planner keeps between plans in one process: files read, and what texts gave.

A plan compares memories within blocks (one scope, type and polarity for near-duplicates; one
type for contradictions). What a block's comparison finds is a function of its members' texts
alone, in their order, so a later plan in this process whose block holds the very same texts
finds the same pairs without comparing again. Only the blocks that hold a changed, added or
removed file are compared again. Keyed by the texts themselves (no digest that two contents
could share). Every store here is a `spec.bounded_cache.ByteBoundedLRU`, the package's one
in-process cache bounded in entries and in bytes: the least recently used entry goes first.
DiskBlocks and DiskTypes are what the comparing steps ask of the file dream.disk_kept keeps
for a plan in a later process.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, Generic, ParamSpec, Protocol, TypeVar

from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.spec.bounded_cache import ByteBoundedLRU, weight_of
from memdir_nb.storage.scan import StatKey, settled, stat_key

V = TypeVar("V")
P = ParamSpec("P")

# About 100 blocks of 2,000 memories of 4 KB, or many more small ones.
KEPT_BLOCKS_MAX = 256
KEPT_BLOCKS_MAX_BYTES = 16 * 1024 * 1024
# The texts of 2,000 memories of 4 KB (the files a plan read; each body's dates; index lines).
KEPT_MAX_ENTRIES = 20_000
KEPT_MAX_BYTES = 16 * 1024 * 1024


class BlockResults(ByteBoundedLRU[tuple[str, ...], V]):
    """A block's texts -> what a pure function of them gave (get gives None when not kept).

    Safe to use from several threads (a plan on another thread may drop an entry meanwhile: a
    lookup then misses and the block is compared again)."""

    def __init__(
        self, max_entries: int = KEPT_BLOCKS_MAX, max_bytes: int = KEPT_BLOCKS_MAX_BYTES
    ) -> None:
        super().__init__(max_entries=max_entries, max_bytes=max_bytes)


# A join across two sides of a block (the negated texts and the others): its pairs kept as
# (place on the first side, place on the second), whichever mems indexes the sides hold later.
Across = tuple[tuple[int, int], ...]


def across_in_mems(
    found: Across, firsts: list[int], seconds: list[int]
) -> Iterator[tuple[int, int]]:
    """A block's kept pairs as (i, j), i < j, the indexes its sides hold now."""
    for a, b in found:
        i, j = firsts[a], seconds[b]
        yield (i, j) if i < j else (j, i)


def across_by_block(
    blocks: list[tuple[tuple[str, ...], list[int], list[int]]], found: list[tuple[int, int]]
) -> list[tuple[tuple[str, ...], Across]]:
    """Each block's (key, pairs) out of found: pairs (i, j) of indexes, each within one block
    of blocks (its key, the indexes on its first side and on its second)."""
    first: dict[int, tuple[int, int]] = {}  # index -> (its block, its place on the first side)
    for n, (_, firsts, _) in enumerate(blocks):
        first.update((i, (n, a)) for a, i in enumerate(firsts))
    second = {i: b for _, _, seconds in blocks for b, i in enumerate(seconds)}
    by_block: list[list[tuple[int, int]]] = [[] for _ in blocks]
    for i, j in found:
        one, other = (i, j) if i in first else (j, i)
        n, a = first[one]
        by_block[n].append((a, second[other]))
    return [(key, tuple(pairs)) for (key, _, _), pairs in zip(blocks, by_block, strict=True)]


# What weight_of counts for a kept read beyond its three strings (the path, the text and the
# hash): the (stat key, text, hash) tuple and the stat key, five ints, which weigh nothing more.
# Taken from weight_of itself, so the rule stays in one place.
_READ_FIXED_BYTES = weight_of(((0, 0, 0, 0, 0), "", "")) - 2 * weight_of("")
_str_size = str.__sizeof__  # an exact str's weight_of (spec.bounded_cache), without its checks


def read_weight(path: str, kept: tuple[StatKey, str, str]) -> int:
    """weight_of(path) + weight_of(kept), the same sum in three calls: a first plan keeps every
    file it reads, and the general weighing walked the tuple and the stat key."""
    _, text, sha = kept
    if type(path) is str and type(text) is str and type(sha) is str:
        return _str_size(path) + _str_size(text) + _str_size(sha) + _READ_FIXED_BYTES
    return weight_of(path) + weight_of(kept)  # a str subclass: weighed as weight_of weighs it


class KeptReads:
    """Each memory file's text and SHA-256 as a plan read them, by the path it was opened at,
    given back while the file's stat identity (storage.scan.stat_key: device, inode, size,
    mtime and ctime, which moves on every write, rename-over, chmod or utime) is what the read
    fstat'ed. As ScanCache, a file changed within the racy window before the read
    (storage.scan.settled) is read but not kept. Bounded in entries and in bytes. Safe to use
    from several threads.
    """

    def __init__(
        self, max_entries: int = KEPT_MAX_ENTRIES, max_bytes: int = KEPT_MAX_BYTES
    ) -> None:
        self._kept: ByteBoundedLRU[str, tuple[StatKey, str, str]] = ByteBoundedLRU(
            max_entries=max_entries, max_bytes=max_bytes, weigh=read_weight
        )

    def get(self, path: str, st: os.stat_result) -> tuple[str, str] | None:
        """(text, sha) read from path when its identity was st's, or None."""
        hit = self._kept.get(path)
        if hit is None or hit[0] != stat_key(st):
            return None
        return hit[1], hit[2]

    def put(self, path: str, st: os.stat_result, text: str, sha: str, started_ms: float) -> None:
        """Keep what was read from path under st (the open file's fstat), if st is settled at
        started_ms (the wall-clock start of the plan)."""
        if settled(st, started_ms):
            self._kept.put(path, (stat_key(st), text, sha))

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def bytes_held(self) -> int:
        """The bytes the kept entries are counted as (spec.bounded_cache.weight_of)."""
        return self._kept.bytes_held


# a file's SHA-256 -> its header's `modified:` time (None when it has none)
_MODIFIED_BY_SHA: ByteBoundedLRU[str, float | None] = ByteBoundedLRU(
    max_entries=KEPT_MAX_ENTRIES, max_bytes=KEPT_MAX_BYTES // 8
)


def kept_modified_ms(sha: str, text: str) -> float | None:
    """A memory file's `modified:` time (formats.frontmatter), kept by its hash for a later plan.

    A text with no `modified` and no backslash (a quoted key spelled with an escape) holds no
    such key, so it is not parsed. An over-cap index sorts every memory by its time: parsing all
    2,000 headers of the bench dir again made a repeat plan about 50% slower (lead, thirty-fifth
    session). sha "" (not known) is parsed and not kept."""
    if "modified" not in text and "\\" not in text:
        return None
    held = _MODIFIED_BY_SHA.find(sha) if sha else None
    if held is not None:
        return held[0]
    modified = parse_frontmatter(text)[0].modified_ms
    if sha:
        _MODIFIED_BY_SHA.put(sha, modified)
    return modified


class KeptCalls(Generic[P, V]):
    """A pure function's results by its arguments (strings, dates, numbers): a later plan calls
    it only for arguments not seen before. Bounded in entries and in bytes (the arguments and
    the result). The results must not be changed by their users."""

    def __init__(
        self,
        function: Callable[P, V],
        max_entries: int = KEPT_MAX_ENTRIES,
        max_bytes: int = KEPT_MAX_BYTES,
    ) -> None:
        self.function = function
        self._kept: ByteBoundedLRU[Hashable, V] = ByteBoundedLRU(
            max_entries=max_entries, max_bytes=max_bytes
        )

    def get(self, *args: P.args, **kwargs: P.kwargs) -> V:
        """function(*args), as kept or computed now (and kept)."""
        key = (args, tuple(kwargs.items())) if kwargs else args
        held = self._kept.find(key)
        if held is not None:
            return held[0]
        value = self.function(*args, **kwargs)
        self._kept.put(key, value)
        return value

    def __len__(self) -> int:
        return len(self._kept)


FoundPairs = list[tuple[int, int]]  # pairs of indexes into the plan's memories


class DiskBlocks(Protocol):
    """Where blocks an earlier process compared are kept (dream.disk_kept.PlanCache)."""

    def key(self, kind: str, parts: Iterable[str]) -> str: ...

    def pairs_at(self, key: str, size: int) -> tuple[tuple[int, int], ...] | None: ...

    def put_at(self, key: str, pairs: Iterable[tuple[int, int]]) -> None: ...


class DiskTypes(Protocol):
    """The contradiction types an earlier process compared (dream.disk_kept.KnownTypes)."""

    pairs: FoundPairs

    def __call__(self, members: list[int]) -> bool: ...

    def all_kept(self, types: Iterable[list[int]]) -> bool: ...

    def recorded(
        self, work: Callable[[], FoundPairs]
    ) -> Callable[[], tuple[FoundPairs, list[Any]]]: ...

    def replayed(self, answer: tuple[FoundPairs, list[Any]]) -> FoundPairs: ...

    def store(self, found: list[tuple[int, int]]) -> None: ...

    def unscored(self, candidates: list[tuple[int, int]]) -> list[tuple[int, int]]: ...

    def scored(self, found: list[tuple[int, int]]) -> list[tuple[int, int]]: ...


def unscored(candidates: FoundPairs, known: DiskTypes | None) -> FoundPairs:
    """The candidates whose score an earlier plan did not keep (known: where it kept them)."""
    return known.unscored(candidates) if known is not None else candidates


def with_kept(found: FoundPairs, known: DiskTypes | None) -> FoundPairs:
    """found (the scored pairs that reach the threshold) and the unscored candidates kept as
    reaching it; known keeps the new scores."""
    return known.scored(found) if known is not None else found


def stored(found: FoundPairs, known: DiskTypes | None) -> FoundPairs:
    """found (sorted) and the pairs of the types known held, sorted; known keeps the others."""
    if known is None:
        return found
    result = sorted([*found, *known.pairs])
    known.store(result)
    return result


def in_child(
    whole: Callable[[], FoundPairs], known: DiskTypes | None
) -> tuple[Callable[[], Any], Callable[[Any], FoundPairs]]:
    """What a forked child runs for the step, and what gives the pairs from its answer here:
    known's reads and writes, made in the child's copy, made again in this process."""
    if known is None:
        return whole, lambda found: found
    return known.recorded(whole), known.replayed
