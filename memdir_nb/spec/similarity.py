"""Candidate pairs for whole-dir comparisons in near-linear time: blocking by shared rare words.

Comparing every memory with every other (near-duplicates, contradictions) is quadratic: two
thousand files are two million fuzzy comparisons. Instead each text is reduced to its set of
word stems (stop words left out), and two texts become a candidate pair only when they share
one of the rarer stems (prefix filtering, as in set-similarity joins): if two texts share at
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
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from itertools import chain

from memdir_nb.spec import text as textseg

__all__ = ["MAX_POSTING", "UnionFind", "candidate_pairs", "stem_sets"]

# A stem found in more texts than this is not used to find candidates (it is still counted
# when a candidate's shared stems are checked). This bounds the work per text, so the whole
# join is linear in the number of texts; see the module docstring for what it can miss.
MAX_POSTING = 100

_WORD = re.compile(r"\w+")
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "from",
        "has",
        "have",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "so",
        "that",
        "the",
        "then",
        "there",
        "this",
        "to",
        "was",
        "were",
        "will",
        "with",
        "we",
        "you",
        "they",
        "our",
        "your",
    ]
)


def stem_sets(texts: Iterable[str]) -> list[frozenset[str]]:
    """Each text's set of lower-cased word stems (Snowball English), stop words left out."""
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    out = []
    for text in texts:
        words = {w for w in textseg.words(text) if w not in _STOP}
        out.append(frozenset(stemmer.stemWords(sorted(words))))
    return out


def _prefix(keys: frozenset[str], rank: dict[str, int], min_shared: float) -> list[str]:
    """The rarest keys: enough that any text sharing min_shared of `keys` shares one of them.

    rank orders every key by (document frequency, key), computed once per join, so each
    text's sort is keyed by a plain dict lookup.
    """
    ordered = sorted(keys, key=rank.__getitem__)
    size = len(ordered) - math.ceil(min_shared * len(ordered)) + 1
    return ordered[: max(size, 1)]


def candidate_pairs(
    left: Sequence[frozenset[str]],
    right: Sequence[frozenset[str]] | None = None,
    *,
    min_shared: float,
) -> set[tuple[int, int]]:
    """Index pairs (i, j) whose key sets share at least min_shared of the smaller set.

    With one sequence, pairs within it (i < j); with two, pairs across them (i in left, j in
    right). Empty sets pair with nothing.
    """
    same = right is None
    other: Sequence[frozenset[str]] = left if right is None else right
    df: Counter[str] = Counter()
    for keys in left:
        df.update(keys)
    if not same:
        for keys in other:
            df.update(keys)
    posting_left: dict[str, list[int]] = defaultdict(list)
    posting_right: dict[str, list[int]] = defaultdict(list)
    for i, keys in enumerate(left):
        for k in keys:
            posting_left[k].append(i)
    if not same:
        for j, keys in enumerate(other):
            for k in keys:
                posting_right[k].append(j)
    pairs: set[tuple[int, int]] = set()
    rank = {k: r for r, k in enumerate(sorted(df, key=lambda k: (df[k], k)))}

    def probe(
        keys: frozenset[str], posting: dict[str, list[int]], pool: Sequence[frozenset[str]]
    ) -> set[int]:
        """Texts in pool sharing one of keys' rarer stems and min_shared of the smaller set."""
        seen: set[int] = set()
        for k in _prefix(keys, rank, min_shared):
            if df[k] <= MAX_POSTING:  # a stem this common says little; rarer ones decide
                seen.update(posting[k])
        n = len(keys)
        if seen and sum(len(posting.get(k, ())) for k in keys) <= len(seen) * n:
            # Counting the prober's stems through the postings gives every candidate's
            # shared-stem count in one C-level pass, and costs no more than a set
            # intersection per candidate would (small dirs, where few stems are rare).
            shared = Counter(chain.from_iterable(posting.get(k, ()) for k in keys))
            return {j for j in seen if shared[j] >= min_shared * min(n, len(pool[j]))}
        return {j for j in seen if len(keys & pool[j]) >= min_shared * min(n, len(pool[j]))}

    # Probing each text's rarest stems against every text's full stem set finds every pair
    # sharing min_shared of the prober; probing from both sides covers the smaller text.
    for i, keys in enumerate(left):
        if not keys:
            continue
        for j in probe(keys, posting_left if same else posting_right, other):
            if not same:
                pairs.add((i, j))
            elif i != j:
                pairs.add((min(i, j), max(i, j)))
    if not same:
        for j, keys in enumerate(other):
            if keys:
                pairs.update((i, j) for i in probe(keys, posting_left, left))
    return pairs


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
