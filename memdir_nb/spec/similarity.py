"""Candidate pairs for whole-dir comparisons in near-linear time: blocking by shared rare words.

Comparing every memory with every other (near-duplicates, contradictions) is quadratic: two
thousand files are two million fuzzy comparisons. Instead each text is reduced to its set of
word stems (stop words left out: spec.word_stems), and two texts become a candidate pair only
when they share one of the rarer stems (prefix filtering, as in set-similarity joins): if two texts share at
least `min_shared` of the smaller one's stems, they share a stem among that text's rarest
`len - ceil(min_shared * len) + 1` stems. Pairs found that way are kept when they do share
that fraction. Only those are scored with the exact fuzzy measure, so a reported pair is
exactly what the all-pairs loop reports. Not considered: a pair whose texts share fewer
words (for example only spelling variants that stem differently), and a pair whose only
shared rarer stems each occur in more than MAX_POSTING texts (their shared words are all
common ones). See docs/performance.md.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from typing import Any

from memdir_nb.machine import numpy_module, one_blas_thread

__all__ = [
    "MAX_POSTING",
    "UnionFind",
    "candidate_pair_columns",
    "candidate_pairs",
]

# A stem found in more texts than this is not used to find candidates (it is still counted
# when a candidate's shared stems are checked). This bounds the work per text, so the whole
# join is linear in the number of texts; see the module docstring for what it can miss.
MAX_POSTING = 100


def _prefix(keys: frozenset[str], rank: dict[str, int], min_shared: float) -> list[str]:
    """The rarest keys: enough that any text sharing min_shared of `keys` shares one of them.

    rank orders every key by (document frequency, key), computed once per join, so each
    text's sort is keyed by a plain dict lookup.
    """
    ordered = sorted(keys, key=rank.__getitem__)
    size = len(ordered) - math.ceil(min_shared * len(ordered)) + 1
    return ordered[: max(size, 1)]


# Joins whose all-pairs matrix products cost at most this many multiply-adds are computed
# with numpy (three products of 0/1 matrices, in row chunks); larger ones probe postings in
# Python. Both give exactly the same pairs: the same seeds and the same verification.
DENSE_MAX_COST = 1_500_000_000
# Below this many pairs the probe is as fast, and a small dir never imports numpy for it.
DENSE_MIN_PAIRS = 2_500
_DENSE_CHUNK_CELLS = 2_000_000  # rows per chunk: at most this many pair cells at once


def candidate_pairs(
    left: Sequence[frozenset[str]],
    right: Sequence[frozenset[str]] | None = None,
    *,
    min_shared: float,
) -> list[tuple[int, int]]:
    """Index pairs (i, j) whose key sets share at least min_shared of the smaller set, each
    once, in no particular order.

    With one sequence, pairs within it (i < j); with two, pairs across them (i in left, j in
    right). Empty sets pair with nothing. A pair is found when one text's rarest stems (see
    _prefix; stems in more than MAX_POSTING texts left out) include a stem of the other.
    """
    return list(zip(*candidate_pair_columns(left, right, min_shared=min_shared), strict=True))


def candidate_pair_columns(
    left: Sequence[frozenset[str]],
    right: Sequence[frozenset[str]] | None = None,
    *,
    min_shared: float,
) -> tuple[list[int], list[int]]:
    """candidate_pairs as two columns, the pairs' first indexes and their second ones (for a
    caller that filters many pairs with numpy before making any of them a tuple)."""
    join = _Join(left, right, min_shared)
    pairs = len(join.left) * len(join.right)
    if pairs >= DENSE_MIN_PAIRS and join.dense_cost() <= DENSE_MAX_COST:
        return join.dense_columns()
    found = join.probed()
    return [i for i, _ in found], [j for _, j in found]


class _Join:
    """One join's key sets, document frequencies, stem ranks and postings."""

    def __init__(
        self,
        left: Sequence[frozenset[str]],
        right: Sequence[frozenset[str]] | None,
        min_shared: float,
    ) -> None:
        self.same = right is None
        self.left = left
        self.right: Sequence[frozenset[str]] = left if right is None else right
        self.min_shared = min_shared
        # One C-level count over every set (the same counts, in the same insertion order, as
        # updating set by set).
        both = chain.from_iterable(left) if self.same else chain(*left, *self.right)
        self.df: Counter[str] = Counter(both)
        # Ranked by (document frequency, key): sorted by key, then stably by frequency, which
        # is the same order with both sorts keyed at C level.
        ordered = sorted(self.df)
        ordered.sort(key=self.df.__getitem__)
        self.rank = dict(zip(ordered, range(len(ordered)), strict=True))

    def seeds(self, keys: frozenset[str]) -> list[str]:
        """The stems of keys that find candidates: its rarest, those in MAX_POSTING texts or fewer."""
        df = self.df
        return [k for k in _prefix(keys, self.rank, self.min_shared) if df[k] <= MAX_POSTING]

    def shared_vocabulary(self) -> list[str]:
        """The stems that can be shared by a pair: in two texts of one sequence, or on both sides."""
        if self.same:
            return [k for k, n in self.df.items() if n > 1]
        in_left = set().union(*self.left)
        return [k for k in set().union(*self.right) if k in in_left]

    def dense_cost(self) -> int:
        """Multiply-adds of the dense join (three products over the shared vocabulary)."""
        return 3 * len(self.left) * len(self.right) * len(self.df)

    def dense(self) -> list[tuple[int, int]]:
        """The join as 0/1 matrix products (dense_columns), as pairs."""
        return list(zip(*self.dense_columns(), strict=True))

    def dense_columns(self) -> tuple[list[int], list[int]]:
        """The join as 0/1 matrix products: shared-stem counts and seed hits for every pair."""
        numpy_module()  # a first load inside a plan: one OpenBLAS thread (machine)
        import numpy as np

        # Every stem by its rank (self.rank's order), every set's stems sorted by rank; the
        # seeds are then the first ones of each set, as _prefix and seeds() pick them.
        df_by_rank = np.fromiter(map(self.df.__getitem__, self.rank), np.int64, len(self.rank))
        left = _RankedSets(self.left, self.rank, self.min_shared, df_by_rank)
        right = (
            left if self.same else _RankedSets(self.right, self.rank, self.min_shared, df_by_rank)
        )
        # Only a stem on both sides (in two texts of one sequence) can be shared or seed a
        # pair: the others get no column.
        shared = df_by_rank > 1 if self.same else left.present() & right.present()
        column = np.full(len(self.rank), -1, dtype=np.intp)
        n_columns = int(shared.sum())
        column[shared] = np.arange(n_columns)
        lm, lp = left.matrices(column, n_columns)
        rm, rp = (lm, lp) if self.same else right.matrices(column, n_columns)
        firsts, seconds = [], []  # each cell is one pair: no pair comes twice
        ln, rn = left.lens.astype(np.float64), right.lens.astype(np.float64)
        n_left, n_right = len(self.left), len(self.right)
        step = max(1, _DENSE_CHUNK_CELLS // max(1, n_right))
        with one_blas_thread(numpy_only=True):
            for start in range(0, n_left, step):
                rows = slice(start, min(start + step, n_left))
                # Counts of 0/1 products are exact in float32 (far below 2**24 stems).
                ok = (lm[rows] @ rm.T) >= self.min_shared * np.minimum(ln[rows, None], rn[None, :])
                seeded = lp[rows] @ rm.T > 0  # i's seeds hold a stem of j
                if self.same and step >= n_left:
                    # One sequence in one chunk: j's seeds holding a stem of i is the same
                    # matrix transposed (lm @ lp.T is (lp @ lm.T).T), one product fewer.
                    ok &= seeded | seeded.T
                else:
                    ok &= seeded | (lm[rows] @ rp.T > 0)  # seeded from either side
                if self.same:
                    ok &= np.arange(rows.start, rows.stop)[:, None] < np.arange(n_right)
                i, j = np.nonzero(ok)
                firsts += (i + start).tolist()
                seconds += j.tolist()
        return firsts, seconds

    def probed(self) -> set[tuple[int, int]]:
        """The join by postings: each text's seed stems find candidates, then each is verified."""
        left = _Postings(self.left, self.min_shared)
        right = left if self.same else _Postings(self.right, self.min_shared)
        pairs: set[tuple[int, int]] = set()
        # Probing each text's rarest stems against every text's full stem set finds every pair
        # sharing min_shared of the prober; probing from both sides covers the smaller text.
        for i, keys in enumerate(self.left):
            if not keys:
                continue
            found = self._probe(keys, right)
            if not self.same:
                pairs.update(zip(repeat(i), found))
            else:  # each pair once, as (smaller, larger); a text never pairs with itself
                pairs.update(zip(repeat(i), [j for j in found if j > i]))
                pairs.update(zip([j for j in found if j < i], repeat(i)))
        if not self.same:
            for j, keys in enumerate(self.right):
                if keys:
                    pairs.update((i, j) for i in self._probe(keys, left))
        return pairs

    def _probe(self, keys: frozenset[str], pool: _Postings) -> set[int]:
        """Texts in pool sharing one of keys' seed stems and min_shared of the smaller set.

        "shares at least min_shared · min(n, m)" is tested as "at least min_shared · n, or at
        least min_shared · m": the same test, since rounding a product is monotone, and m's
        side (pool.need) is computed once per text instead of once per candidate.
        """
        posting, need = pool.posting, pool.need
        seen: set[int] = set()
        for k in self.seeds(keys):
            seen.update(posting[k])
        n = len(keys)
        mine = self.min_shared * n
        if seen and sum(map(pool.sizes.get, keys, repeat(0))) <= len(seen) * n:
            # Counting the prober's stems through the postings gives every candidate's
            # shared-stem count in one C-level pass, and costs no more than a set
            # intersection per candidate would (small dirs, where few stems are rare).
            shared = Counter(chain.from_iterable(posting.get(k, ()) for k in keys))
            return {j for j in seen if (c := shared[j]) >= mine or c >= need[j]}
        sets = pool.sets
        return {j for j in seen if (c := len(keys & sets[j])) >= mine or c >= need[j]}


class _Postings:
    """One side of a probed join: each stem's texts, its posting sizes, and each text's need."""

    def __init__(self, sets: Sequence[frozenset[str]], min_shared: float) -> None:
        self.sets = sets
        self.posting = _postings(sets)
        self.sizes = {k: len(v) for k, v in self.posting.items()}
        # min_shared of each text's own size: the shared count that satisfies it from its side
        self.need = [min_shared * len(keys) for keys in sets]


class _RankedSets:
    """One side of a dense join as numpy arrays: each set's stem ranks, sorted, and its seeds."""

    def __init__(
        self, sets: Sequence[frozenset[str]], rank: dict[str, int], min_shared: float, df: Any
    ) -> None:
        import numpy as np

        self.lens = np.fromiter(map(len, sets), np.intp, len(sets))
        ranks = np.fromiter(
            map(rank.__getitem__, chain.from_iterable(sets)), np.intp, int(self.lens.sum())
        )
        self.rows = np.repeat(np.arange(len(sets)), self.lens)
        # Sorted by row, then by rank: one sort for every set (rank < len(rank) per row).
        self.ranks = np.sort(self.rows * len(rank) + ranks) - self.rows * len(rank)
        self.n_stems = len(rank)
        # _prefix keeps a set's len - ceil(min_shared * len) + 1 rarest stems (at least one),
        # in the same float arithmetic; seeds() drops those in more than MAX_POSTING texts.
        size = np.maximum(self.lens - np.ceil(min_shared * self.lens.astype(np.float64)) + 1, 1)
        starts = np.cumsum(self.lens) - self.lens
        position = np.arange(len(self.ranks)) - starts[self.rows]
        self.seed = (position < size[self.rows]) & (df[self.ranks] <= MAX_POSTING)

    def present(self) -> Any:
        """Whether each stem (by rank) is in one of the sets."""
        import numpy as np

        out = np.zeros(self.n_stems, dtype=bool)
        out[self.ranks] = True
        return out

    def matrices(self, column: Any, n_columns: int) -> tuple[Any, Any]:
        """(stems, seeds): one row per set, 1.0 in the column of each of its shared stems."""
        import numpy as np

        out = []
        cols = column[self.ranks]
        for keep in (cols >= 0, (cols >= 0) & self.seed):
            m = np.zeros((len(self.lens), n_columns), dtype=np.float32)
            m[self.rows[keep], cols[keep]] = 1.0
            out.append(m)
        return out[0], out[1]


def _postings(sets: Sequence[frozenset[str]]) -> dict[str, list[int]]:
    """Each key's list of the indexes of the sets holding it."""
    posting: dict[str, list[int]] = defaultdict(list)
    for i, keys in enumerate(sets):
        for k in keys:
            posting[k].append(i)
    return posting


class UnionFind:
    """Disjoint sets over 0..n-1 (path halving, union by size)."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))
        self.size = [1] * n

    def find(self, x: int) -> int:
        """The representative of x's set."""
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        """Merge the sets of a and b."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]

    def groups(self, members: Iterable[int]) -> list[list[int]]:
        """The sets with more than one of `members`, each sorted, ordered by smallest member."""
        by_root: dict[int, list[int]] = defaultdict(list)
        for m in sorted(members):
            by_root[self.find(m)].append(m)
        return sorted((g for g in by_root.values() if len(g) > 1), key=lambda g: g[0])
