"""Batched scoring helpers of dream.compare: an exact bound on fuzz.ratio, pairs grouped by
their busier member, and one rapidfuzz call for a text against many."""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Any

from memdir_nb.machine import numpy_module


def _ratio_may_reach(
    texts: dict[int, str | None], columns: tuple[list[int], list[int]], cutoff: float
) -> list[tuple[int, int]]:
    """The pairs (columns: their first indexes and their second ones) whose fuzz.ratio can
    reach cutoff, by an exact upper bound, in their order; the others fail. Only those are
    made tuples.

    ratio(a, b) is 200·LCS / (len a + len b), LCS being their longest common subsequence, which
    holds no more of a character than either text does: so the score is at most
    200·Σ min(count in a, count in b) / (len a + len b), over every character. A pair whose
    bound is under the cutoff scores under it (the comparison is exact: small integers, and
    the cutoff times a length is exact in float64), so dropping it changes no result. Pairs
    with a text of None (not ASCII) are all kept. For near-duplicate heads this leaves about
    1 pair in 30 (docs/performance.md).
    """
    numpy_module()  # a first load inside a plan: one OpenBLAS thread (machine)
    import numpy as np

    ids = sorted(i for i, t in texts.items() if t is not None)
    if not ids or not columns[0]:
        return list(zip(*columns, strict=True))
    ascii_texts = [texts[i] or "" for i in ids]
    lens = np.fromiter(map(len, ascii_texts), np.int64, len(ids))
    chars = np.frombuffer("".join(ascii_texts).encode("ascii"), np.uint8)
    owner = np.repeat(np.arange(len(ids), dtype=np.int64), lens)
    counts = np.bincount(owner * 128 + chars, minlength=len(ids) * 128).reshape(len(ids), 128)
    # Only characters some text holds, in the narrowest type that holds every count (the
    # row-wise minimum and its sum are then over fewer bytes; the sum widens, so it is exact).
    counts = counts[:, counts.any(axis=0)]
    counts = counts.astype(np.min_scalar_type(int(counts.max(initial=0))))
    row = np.full(max(texts) + 1, -1, dtype=np.intp)  # a pair's texts' rows in counts
    row[ids] = np.arange(len(ids))
    firsts, seconds = np.asarray(columns[0], np.intp), np.asarray(columns[1], np.intp)
    a, b = row[firsts], row[seconds]
    common = np.minimum(counts[a], counts[b]).sum(axis=1)  # row -1 (not ASCII): kept below
    may = (a < 0) | (b < 0) | (200 * common >= cutoff * (lens[a] + lens[b]))
    return list(zip(firsts[may].tolist(), seconds[may].tolist(), strict=True))


def _partners(pairs: list[tuple[int, int]]) -> dict[int, list[tuple[int, int]]]:
    """The pairs grouped for batched scoring: each under whichever of its two indexes is in
    more pairs (the first on a tie), as (the other index, the pair's position in pairs).

    Fewer groups are fewer rapidfuzz calls. The scorers used here are symmetric (the same
    score whichever text comes first; tested), so a pair may be scored either way round.
    """
    degree = Counter(chain.from_iterable(pairs))
    partners: dict[int, list[tuple[int, int]]] = {}
    for k, (i, j) in enumerate(pairs):
        if degree[j] > degree[i]:
            partners.setdefault(j, []).append((i, k))
        else:
            partners.setdefault(i, []).append((j, k))
    return partners


def _scores(query: str, choices: list[str | None], scorer: Any, cutoff: float) -> list[float]:
    """scorer(query, choice, score_cutoff=cutoff) for every choice, in one rapidfuzz call.

    The same scorer and cutoff: a score under the cutoff comes back as 0, so the float32
    result is at or above the cutoff exactly when the one-by-one score is (the cutoffs used
    here are exact in float32, and rounding to float32 keeps a score's side of them).
    """
    from rapidfuzz import process

    numpy_module()  # cdist loads numpy: the first load inside a plan, one OpenBLAS thread
    return process.cdist(  # type: ignore[no-any-return]
        [query], choices, scorer=scorer, score_cutoff=cutoff, workers=1
    )[0].tolist()
