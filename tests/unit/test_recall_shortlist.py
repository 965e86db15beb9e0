"""The body shortlist: which memories' windows the encoder compares with a query."""

from __future__ import annotations

import pytest

from memdir_nb.recall.shortlist import (
    BODY_SHORTLIST_ALL_UP_TO,
    BODY_SHORTLIST_BY_FULL_TEXT,
    BODY_SHORTLIST_BY_MANIFEST,
    BODY_SHORTLIST_BY_WINDOW_TERMS,
    body_shortlist,
)


def test_every_body_is_compared_in_a_dir_of_up_to_forty_memories() -> None:
    n = BODY_SHORTLIST_ALL_UP_TO
    zeros = [0.0] * n
    assert body_shortlist(zeros, zeros, zeros) == list(range(n))


def test_a_larger_dir_compares_the_top_by_manifest_by_full_text_and_by_window_terms() -> None:
    n = 100
    manifest = [float(i) for i in range(n)]  # best: the last 20
    full_text = [float(n - i) for i in range(n)]  # best: the first 10
    window_terms = [0.0] * n
    window_terms[50:60] = [1.0] * 10  # best: 50..59
    chosen = body_shortlist(manifest, full_text, window_terms)
    assert chosen == sorted(set(range(80, 100)) | set(range(10)) | set(range(50, 60)))
    assert len(chosen) == (
        BODY_SHORTLIST_BY_MANIFEST + BODY_SHORTLIST_BY_FULL_TEXT + BODY_SHORTLIST_BY_WINDOW_TERMS
    )


def test_a_memory_high_on_two_lists_is_compared_once() -> None:
    n = 60
    scores = [float(i) for i in range(n)]
    chosen = body_shortlist(scores, scores, scores)
    assert chosen == list(range(n - BODY_SHORTLIST_BY_MANIFEST, n))


def test_ties_go_to_the_earlier_memory_so_the_shortlist_never_depends_on_chance() -> None:
    n = 50
    flat = [0.5] * n
    assert body_shortlist(flat, flat, flat) == list(range(BODY_SHORTLIST_BY_MANIFEST))


def test_score_lists_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="one score per memory"):
        body_shortlist([0.1] * 50, [0.1] * 49, [0.1] * 50)
