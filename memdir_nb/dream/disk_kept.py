"""What a plan derived, kept on disk for the next process's plan: header fields and block pairs.

dream.kept keeps a plan's work for a later plan in the same process; a one-shot plan (a new
process each time) starts with nothing. This keeps, in one file under the cache root
(storage.derived_cache.DerivedCache: bounded, written whole, never trusted), the results that
are pure functions of file contents:

* `h` + a file's SHA-256 (of the exact bytes read, which decide its text): its header's
  (name, description, type) as plan_snapshot._head gives them;
* `d` + a digest of a near-duplicate block's members, each as its file's SHA-256 and its
  name (a name may come from the file's path): the block's pairs, as indexes into it;
* `c` + a digest of one type's members (their SHA-256s, in the plan's order): that type's
  contradiction pairs, as places among its members;
* `p` + a file's SHA-256, in a second file (PAIRS_FILENAME, read only by a plan that has a
  changed type, so an unchanged dir's plan does not parse it): whether each contradiction
  candidate pair it is the first member of reaches the threshold, the pair keyed by both members' SHA-256s in sorted order (the first
  member is the smaller hash; the other is named by its first PARTNER_CHARS hex digits). When
  a type changed (its `c` key is not kept), its candidates are found again, but only the
  pairs with no kept score are scored. A score depends only on the two texts (the scorer is
  symmetric), so it is kept whatever else the type holds; which pairs are candidates depends
  on the whole type, so that is worked out each time.
* `f` + a digest of an over-cap index's text (its SHA-256) and the order its pointers go in:
  the text formats.index_batch.fit_index makes of them (plan40b: the planner fits each
  over-cap index once a plan, ~37 ms of a new process's plan of the bench dir). A changed
  text or order is another key.

A value is used only in the shape written (checked here), and the file's `version` names the
code that made the values: FORMAT (bumped whenever a change here or in what these functions
compute can give another result), the thresholds and caps, and the versions of rapidfuzz and
the stemmer. So a plan with the file gives exactly the plan without it.
"""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from collections.abc import Callable, Iterable
from itertools import chain
from pathlib import Path
from typing import Any, Protocol

from memdir_nb.dream.compare import (
    CONTRADICTION_MIN_SHARED,
    CONTRADICTION_THRESHOLD,
    DUPLICATE_BODY_THRESHOLD,
    DUPLICATE_HEAD_THRESHOLD,
    DUPLICATE_MIN_SHARED,
)
from memdir_nb.dream.kept import FoundPairs
from memdir_nb.formats.index_batch import FIT_VERSION, fit_index
from memdir_nb.spec.constants import (
    DREAM_COMPARE_MAX_CHARS,
    FRONTMATTER_MAX_LINES,
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
)
from memdir_nb.spec.word_stems import stemmer_build
from memdir_nb.storage.derived_cache import DerivedCache
from memdir_nb.storage.scan import StatKey, stat_key

# Bump when the code behind any value kept here changes what it gives.
FORMAT = 2  # 2: `f` entries (plan40b)
CACHE_FILENAME = "dream-plan.json"
PAIRS_FILENAME = "dream-pairs.json"
KIND = "memdir_nb dream plan"
PAIRS_KIND = "memdir_nb dream pair scores"
# About 20,000 files' headers and their blocks; the file's size caps it in memory too.
MAX_ENTRIES = 50_000
MAX_BYTES = 16 * 1024 * 1024
# The values a file may make when parsed (formats.jsonio.value_count): a header is 5, a block's
# pairs 3 a pair. It bounds the parse's memory, about 72 bytes a value at worst (§43).
MAX_VALUES = 8 * MAX_ENTRIES
# The cache files this process has open (a notebook may plan dirs with several cache roots).
_OPEN_MAX = 4

# The hex digits of a pair's second member's hash kept in its first member's `p` entry: 128
# bits, so two files that share them are as unlikely as two that share a whole hash.
PARTNER_CHARS = 32
_SCORES = re.compile(rf"(?:[0-9a-f]{{{PARTNER_CHARS}}}[01])*")

Head = tuple[str | None, str, str]
Pairs = tuple[tuple[int, int], ...]
Log = list[tuple[str, str, Any]]  # (file name, key, value or None), see PlanCache.log


def version(scorer: str) -> str:
    """What made the values: this format, the thresholds and caps, the index fit's version, the
    scorer (rapidfuzz and its version, which the planner imports) and the stemmer."""
    numbers = (
        DUPLICATE_HEAD_THRESHOLD,
        DUPLICATE_BODY_THRESHOLD,
        DUPLICATE_MIN_SHARED,
        CONTRADICTION_THRESHOLD,
        CONTRADICTION_MIN_SHARED,
        DREAM_COMPARE_MAX_CHARS,
        FRONTMATTER_MAX_LINES,
        MAX_ENTRYPOINT_LINES,
        MAX_ENTRYPOINT_BYTES,
        FIT_VERSION,
    )
    return "|".join([str(FORMAT), *map(repr, numbers), scorer, stemmer_build()])


def _digest(parts: Iterable[str]) -> str:
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def _as_pairs(value: Any, size: int) -> Pairs | None:
    """A kept list of pairs as written (distinct indexes under size), else None."""
    if not isinstance(value, list):
        return None
    pairs: list[tuple[int, int]] = []
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2):
            return None
        a, b = pair
        if type(a) is not int or type(b) is not int or not (0 <= a < size and 0 <= b < size):
            return None
        if a == b:
            return None
        pairs.append((a, b))
    return tuple(pairs)


def _records(scores: dict[str, str]) -> str:
    """A `p` entry's value: each partner's digits and its "1" or "0", in order. Most entries
    hold no "1" (a cold plan's 1,558 first members in the bench dir: 148 pairs reach), and
    their value is the partners joined by "0"."""
    if scores and "1" not in scores.values():
        return "0".join(scores) + "0"
    return "".join(chain.from_iterable(scores.items()))


class _Kept(Protocol):
    """What KnownTypes reads of a planned memory (dream.compare._Mem)."""

    type: str
    sha: str


class KnownTypes:
    """One plan's contradiction types as an earlier process found them (kept under `c`).

    Called with a type's members (indexes into mems, in order): True when their pairs are
    kept, which then go to `pairs`. `store` keeps every other type's pairs once found."""

    def __init__(self, disk: PlanCache, mems: list[Any]) -> None:
        self.disk = disk
        self.mems: list[_Kept] = mems
        self.pairs: list[tuple[int, int]] = []
        self.missed: list[tuple[list[int], str]] = []  # (members, key) of the types not kept
        self.shas = [m.sha for m in mems]
        self.all_hashed = all(self.shas)
        self.cuts: list[str] = []  # each hash's first PARTNER_CHARS, once a pair is keyed
        self.reached: list[tuple[int, int]] = []  # candidates kept as reaching the threshold
        self.changed: set[str] = set()  # the first members of the candidates with no score
        self.scores: dict[str, dict[str, str]] = {}  # a hash's `p` entry, as read
        self.now: dict[str, dict[str, str]] = {}  # this plan's candidates' scores ("1", "0")

    def __call__(self, members: list[int]) -> bool:
        shas = [self.mems[i].sha for i in members]
        if not all(shas):
            return False
        key = self.disk.key("c", shas)
        got = self.disk.pairs_at(key, len(members))
        if got is None:
            self.missed.append((members, key))
            return False
        for a, b in got:
            i, j = members[a], members[b]
            self.pairs.append((i, j) if i < j else (j, i))
        return True

    def all_kept(self, types: Iterable[list[int]]) -> bool:
        """Whether every type (its members, as __call__ takes them) has its pairs kept; asks
        only, so a plan that then forks no child calls __call__ for each type as before."""
        for members in types:
            shas = [self.mems[i].sha for i in members]
            if not all(shas) or self.disk.pairs_at(self.disk.key("c", shas), len(members)) is None:
                return False
        return True

    def recorded(self, work: Callable[[], FoundPairs]) -> Callable[[], tuple[FoundPairs, Log]]:
        """work, for a forked child: its answer and what it read from and wrote to the cache
        files, which die with the child's copy of them (replayed here by `replayed`)."""

        def run() -> tuple[FoundPairs, Log]:
            log: Log = []
            self.disk.log = log
            try:
                return work(), log
            finally:
                self.disk.log = None

        return run

    def replayed(self, answer: tuple[FoundPairs, Log]) -> FoundPairs:
        """A `recorded` work's answer, its reads and writes made again here."""
        found, log = answer
        self.disk.replay(log)
        return found

    def unscored(self, candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The candidates (pairs of indexes into mems) with no kept score, to be scored; those
        kept as reaching the threshold go to `reached`, the others are left out. A pair's key
        is its members' hashes, the smaller first (the other cut to PARTNER_CHARS)."""
        shas, scores, now, disk = self.shas, self.scores, self.now, self.disk
        cuts = self.cuts or [sha[:PARTNER_CHARS] for sha in shas]
        self.cuts = cuts
        # a lookup at the first pair would read the scores' file: when it holds nothing, none
        # of them can find a score
        if candidates and self.all_hashed and not disk.holds_scores():
            return self._none_kept(candidates)
        todo: list[tuple[int, int]] = []
        for pair in candidates:
            i, j = pair
            a, b = shas[i], shas[j]
            if not (a and b):
                todo.append(pair)
                continue
            first, other = (b, cuts[i]) if b < a else (a, cuts[j])
            kept = scores.get(first)
            if kept is None:
                kept = scores[first] = disk.scores(first)
                now[first] = {}
            reached = kept.get(other, "")
            now[first][other] = reached or "0"  # "0" until scored: most pairs do not reach
            if not reached:
                todo.append(pair)
                self.changed.add(first)
            elif reached == "1":
                self.reached.append(pair)
        return todo

    def _none_kept(self, candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """unscored when every memory's hash is known and the scores' file holds no entry (a
        cold cache), so no lookup could find one: every candidate is to be scored, and each is
        recorded as "0" for now, as unscored records it."""
        shas, cuts, scores, now = self.shas, self.cuts, self.scores, self.now
        entry_of = now.get
        for i, j in candidates:
            a = shas[i]
            b = shas[j]
            if b < a:
                first, other = b, cuts[i]
            else:
                first, other = a, cuts[j]
            entry = entry_of(first)
            if entry is None:
                now[first] = {other: "0"}
            else:
                entry[other] = "0"
        # the first members new here, in the order they came (the order `changed` is filled
        # in decides the file's): as read, nothing
        new = [first for first in now if first not in scores]
        scores.update((first, {}) for first in new)
        self.changed.update(new)
        return list(candidates)

    def scored(self, found: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """found (the pairs unscored gave that reached the threshold) and `reached`; keeps the
        new scores, each first member's entry holding its candidates in this plan."""
        shas, cuts, now = self.shas, self.cuts, self.now
        for i, j in found:
            a, b = shas[i], shas[j]
            if a and b:
                first, other = (b, cuts[i]) if b < a else (a, cuts[j])
                now[first][other] = "1"
        self.disk.put_scores((first, now[first]) for first in self.changed)
        return [*found, *self.reached]

    def store(self, found: list[tuple[int, int]]) -> None:
        """Keep the pairs of each type the disk did not answer (its members' hashes all
        known), out of found: pairs of indexes into mems, each within one type."""
        place = {
            i: (n, a) for n, (members, _) in enumerate(self.missed) for a, i in enumerate(members)
        }
        pairs: list[list[tuple[int, int]]] = [[] for _ in self.missed]
        for i, j in found:
            if i in place:
                n, a = place[i]
                pairs[n].append((a, place[j][1]))
        for (_, key), kept in zip(self.missed, pairs, strict=True):
            self.disk.put_at(key, kept)


_said: set[str] = set()  # the problems told in this process


class PlanCacheWarning(UserWarning):
    """The plan's cache file cannot be written, so the next plan does all its work again."""


class PlanCache:
    """The plan's derived results in CACHE_FILENAME under cache_dir."""

    def __init__(self, cache_dir: str | os.PathLike[str], scorer: str) -> None:
        self.scorer = scorer
        self.file = DerivedCache(
            Path(cache_dir) / CACHE_FILENAME,
            kind=KIND,
            version=version(scorer),
            max_entries=MAX_ENTRIES,
            max_bytes=MAX_BYTES,
            max_values=MAX_VALUES,
        )
        self.pairs_file: DerivedCache | None = None  # PAIRS_FILENAME's, once asked for
        # while a forked child works: (file, key, value) of each entry it used (value None)
        # or made, for its parent to use and make too (KnownTypes.recorded)
        self.log: Log | None = None

    def may_hold_heads(self) -> bool:
        """Whether `head` can find anything: not in a cold file, whose entries are only this
        process's own puts (plan_snapshot._HEADS holds those first)."""
        return self.file.holds_earlier()

    def head(self, sha: str) -> Head | None:
        """A file's header fields by its bytes' SHA-256, as kept, or None."""
        if not self.file.holds_earlier():
            return None  # a cold file: only this plan's own puts, which plan_snapshot._HEADS holds
        value = self.file.get("h" + sha)  # a list of three as written, or not used
        if not (isinstance(value, list) and len(value) == 3):
            return None
        name, description, kind = value
        if (name is None or isinstance(name, str)) and isinstance(description, str):
            return (name, description, kind) if isinstance(kind, str) else None
        return None

    def put_head(self, sha: str, head: Head) -> None:
        self.file.put("h" + sha, head)  # JSON writes the tuple as a list

    def put_heads(self, heads: Iterable[tuple[str, Head]]) -> None:
        """put_head each (sha, head), in order, in one call."""
        self.file.put_many([("h" + sha, head) for sha, head in heads])

    def _pairs(self) -> DerivedCache:
        """The pair scores' file, read when first asked for."""
        if self.pairs_file is None:
            self.pairs_file = DerivedCache(
                self.file.path.with_name(PAIRS_FILENAME),
                kind=PAIRS_KIND,
                version=self.file.version,
                max_entries=MAX_ENTRIES,
                max_bytes=MAX_BYTES,
                max_values=MAX_VALUES,
            )
        return self.pairs_file

    def holds_scores(self) -> bool:
        """Whether the scores' file holds any entry: when not, `scores` finds none."""
        return len(self._pairs()) > 0

    def scores(self, sha: str) -> dict[str, str]:
        """The kept scores of the contradiction pairs whose first member's hash is sha: the
        other's PARTNER_CHARS hex digits -> "1" when the pair reaches the threshold, else "0"."""
        value = self._pairs().get("p" + sha)  # a string of records as written, or not used
        if not (isinstance(value, str) and _SCORES.fullmatch(value)):
            return {}
        if self.log is not None:
            self.log.append((PAIRS_FILENAME, "p" + sha, None))
        cut = PARTNER_CHARS
        return {value[k : k + cut]: value[k + cut] for k in range(0, len(value), cut + 1)}

    def put_scores(self, firsts: Iterable[tuple[str, dict[str, str]]]) -> None:
        """Keep each (sha, its scores as `scores` gives them), in one pass."""
        entries = [("p" + sha, _records(scores)) for sha, scores in firsts]
        if not entries:
            return  # the file is not read for nothing (an unchanged dir's plan)
        self._pairs().put_many(entries)
        if self.log is not None:
            self.log.extend((PAIRS_FILENAME, key, value) for key, value in entries)

    def fitted(self, text: str, order: tuple[str, ...]) -> str:
        """fit_index(text, order), as kept for this text and order, else made and kept."""
        text_sha = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        key = self.key("f", (text_sha, *order))  # a path holds no NUL: the parts stay apart
        value = self.file.get(key)  # a string as written, or not used
        if isinstance(value, str):
            return value
        made = fit_index(text, order)
        self.file.put(key, made)
        return made

    def key(self, kind: str, parts: Iterable[str]) -> str:
        """A block's key: kind ("d" or "c") and the digest of what keys its members."""
        return kind + _digest(parts)

    def pairs_at(self, key: str, size: int) -> Pairs | None:
        """A block's kept pairs (indexes under size), or None."""
        pairs = _as_pairs(self.file.get(key), size)
        if pairs is not None and self.log is not None:
            self.log.append((CACHE_FILENAME, key, None))
        return pairs

    def put_at(self, key: str, pairs: Iterable[tuple[int, int]]) -> None:
        value = list(pairs)  # JSON writes each pair as a list
        self.file.put(key, value)
        if self.log is not None:
            self.log.append((CACHE_FILENAME, key, value))

    def replay(self, log: Log) -> None:
        """What a forked child used and made (PlanCache.log), used and made here."""
        for name, key, value in log:
            file = self.file if name == CACHE_FILENAME else self._pairs()
            if value is None:
                file.get(key)  # used: kept before entries no plan used
            else:
                file.put(key, value)

    def save(self) -> None:
        """Write what this plan made; say once per process why, when it cannot be written."""
        self.file.save()
        if self.pairs_file is not None:
            self.pairs_file.save()
        path = str(self.file.path)
        if _OPEN.get(path, (None, None))[1] is self:
            _OPEN[path] = (_identity(path), self)
        problem = self.file.problem or (self.pairs_file and self.pairs_file.problem)
        if problem and problem not in _said:
            _said.add(problem)
            warnings.warn(problem, PlanCacheWarning, stacklevel=3)


# path -> (the file's stat identity when this process last read or wrote it, its cache): a
# later plan in this process reads the file again only when another process has replaced it.
# Whatever a held cache gives is right for any file (it is keyed by content), so a race that
# keeps one a little longer changes no plan.
_OPEN: dict[str, tuple[StatKey | None, PlanCache]] = {}


def _identity(path: str) -> StatKey | None:
    try:
        return stat_key(os.lstat(path))
    except OSError:
        return None


def plan_cache(cache_dir: str | os.PathLike[str], scorer: str) -> PlanCache:
    """The PlanCache of cache_dir: the one this process holds while its file is unchanged."""
    path = str(Path(cache_dir) / CACHE_FILENAME)
    ident = _identity(path)
    held = _OPEN.get(path)
    if held is not None and ident is not None and held[0] == ident and held[1].scorer == scorer:
        return held[1]
    cache = PlanCache(cache_dir, scorer)
    if len(_OPEN) >= _OPEN_MAX:
        _OPEN.clear()
    _OPEN[path] = (ident, cache)
    return cache
