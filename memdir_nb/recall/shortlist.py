"""Which memories' bodies the encoder compares with a query: every one in a small dir, a shortlist in a large one.

The semantic channel scores a memory by its manifest line and by the best window of its body.
Encoding every window is most of the cost of a cold recall: a 200-memory dir of real-length
bodies holds about 2,400 windows, 30 s of work on two cores, against 200 short manifest lines.
In a dir of more than BODY_SHORTLIST_ALL_UP_TO memories, only the bodies of a shortlist are
compared: the memories whose manifest line is most similar to the query, and those that the
full-text channel (BM25 over the whole body, and the best window's share of the query's
terms) ranks highest. The others are scored on their manifest line, their full text and their
windows' terms, as a memory without a body would be; they are not dropped.

The shortlist depends only on the query and the dir, never on what has been encoded before, so
a cold call and a warm one give the same answer. The sizes were chosen on the tuning corpus
only: docs/selection.md, "The body shortlist".
"""

from __future__ import annotations

from collections.abc import Sequence

BODY_SHORTLIST_ALL_UP_TO = 40  # a dir of up to this many memories has every body compared
BODY_SHORTLIST_BY_MANIFEST = 20  # the memories whose manifest line is most similar to the query
BODY_SHORTLIST_BY_FULL_TEXT = 10  # the memories BM25 ranks highest over the whole text
BODY_SHORTLIST_BY_WINDOW_TERMS = 10  # those with the window holding most of the query's terms


def _top(scores: Sequence[float], k: int) -> list[int]:
    """The positions of the k highest scores (ties to the earlier position).

    A reversed sort keeps equal keys in their first order (Python's sort is stable either way),
    so ties go to the earlier position without a key function of Python's own per memory.
    """
    return sorted(range(len(scores)), key=scores.__getitem__, reverse=True)[:k]


def body_shortlist(
    manifest: Sequence[float],
    full_text: Sequence[float],
    window_terms: Sequence[float],
    *,
    all_up_to: int = BODY_SHORTLIST_ALL_UP_TO,
    by_manifest: int = BODY_SHORTLIST_BY_MANIFEST,
    by_full_text: int = BODY_SHORTLIST_BY_FULL_TEXT,
    by_window_terms: int = BODY_SHORTLIST_BY_WINDOW_TERMS,
) -> list[int]:
    """The positions of the memories whose body windows are compared with the query, in order.

    Each list holds one score per memory, in the same order: the cosine of the query to the
    manifest line, the full-text BM25 score, and the best window's share of the query's terms.
    Every position when there are at most `all_up_to` memories; otherwise the union of the top
    `by_manifest` by manifest, `by_full_text` by BM25 and `by_window_terms` by window terms.
    (The sizes are parameters for benchmarks/shortlist_sizes.py; the selector uses the defaults.)
    """
    n = len(manifest)
    if len(full_text) != n or len(window_terms) != n:
        raise ValueError(
            f"one score per memory in each list, got {n}, {len(full_text)} and {len(window_terms)}"
        )
    if n <= all_up_to:
        return list(range(n))
    chosen = set(_top(manifest, by_manifest))
    chosen.update(_top(full_text, by_full_text))
    chosen.update(_top(window_terms, by_window_terms))
    return sorted(chosen)
