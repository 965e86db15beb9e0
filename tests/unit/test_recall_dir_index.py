"""The per-set window scoring of dir_index: numpy over all windows, equal to the per-memory rules."""

from __future__ import annotations

import random

import numpy as np
import pytest

from memdir_nb.recall.dir_index import DirVectors, WindowTerms, best_windows
from memdir_nb.recall.fulltext import FullTextIndex, window_coverage

VOCAB = [f"w{i}" for i in range(30)] + ["syn_deploy", "syn_sleep"]


def _windows_per_memory(rng: random.Random, memories: int) -> list[list[frozenset[str]]]:
    """Some memories without windows, some with one, some with many."""
    return [
        [frozenset(rng.sample(VOCAB, rng.randint(0, 6))) for _ in range(rng.choice([0, 1, 3, 9]))]
        for _ in range(memories)
    ]


def _reference_best(vectors: DirVectors, query: np.ndarray) -> tuple[list[float], list[int | None]]:
    best: list[float] = []
    where: list[int | None] = []
    for lo, hi in zip(vectors.offsets, vectors.offsets[1:], strict=False):
        if hi <= lo:
            best.append(-1.0)
            where.append(None)
            continue
        sims = vectors.windows[lo:hi] @ query
        best.append(float(sims.max()))
        where.append(int(sims.argmax()))
    return best, where


@pytest.mark.parametrize("seed", range(5))
def test_best_window_per_memory_is_the_per_memory_argmax(seed: int) -> None:
    rng = np.random.default_rng(seed)
    counts = rng.choice([0, 1, 2, 7], size=40)
    offsets = tuple(int(x) for x in np.concatenate([[0], np.cumsum(counts)]))
    windows = rng.standard_normal((offsets[-1], 8)).astype(np.float32)
    windows[3:5] = windows[2]  # ties: the first window holding the maximum is named
    vectors = DirVectors(np.zeros((40, 8), np.float32), windows, offsets)
    query = rng.standard_normal(8).astype(np.float32)
    got_best, got_where = best_windows(vectors, query)
    want_best, want_where = _reference_best(vectors, query)
    assert got_where == want_where
    assert np.allclose(got_best, want_best)


def test_memories_without_windows_score_minus_one_and_name_no_window() -> None:
    vectors = DirVectors(np.zeros((2, 4), np.float32), np.zeros((0, 4), np.float32), (0, 0, 0))
    assert best_windows(vectors, np.ones(4, np.float32)) == ([-1.0, -1.0], [None, None])


@pytest.mark.parametrize("seed", range(8))
def test_window_coverage_of_the_whole_set_equals_fulltext_per_memory(seed: int) -> None:
    rng = random.Random(seed)
    per_memory = _windows_per_memory(rng, 25)
    docs = [sorted(set().union(*w)) if w else [] for w in per_memory]
    index = FullTextIndex(docs)
    query = [*rng.sample(VOCAB, rng.randint(1, 5)), "unseen"]
    got = WindowTerms(per_memory).coverage(index, query + query[:1])  # a repeated term counts once
    want = [window_coverage(index, w, query) for w in per_memory]
    assert got == pytest.approx(want, abs=1e-12)


def test_a_query_of_concept_tokens_only_covers_nothing() -> None:
    per_memory = [[frozenset({"syn_deploy", "w1"})], []]
    index = FullTextIndex([["syn_deploy", "w1"], []])
    assert WindowTerms(per_memory).coverage(index, ["syn_deploy"]) == [0.0, 0.0]
