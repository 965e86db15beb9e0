"""dir_index: window scoring over all windows (equal to the per-memory rules), and window vectors
kept per file for the memories a query's shortlist names."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.recall import dir_index
from memdir_nb.recall.dir_index import (
    DirIndex,
    DirVectors,
    MemoryDoc,
    WindowTerms,
    best_windows,
    window_texts,
)
from memdir_nb.recall.fulltext import FullTextIndex, document_terms, window_coverage
from memdir_nb.recall.lexical import LexicalOptions
from memdir_nb.recall.vector_cache import VectorCache
from memdir_nb.storage.scan import scan_memory_files
from tests.conftest import build_large_ops_dir

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


class _CountingEmbed:
    """Deterministic vectors per text (a seeded generator), and every text asked for."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        self.asked.extend(texts)
        rows = [np.random.default_rng(list(t.encode())).random(8) for t in texts]
        return np.asarray(rows, np.float32).reshape(len(texts), 8)


def _index_and_dir(tmp_path: Path) -> tuple[DirIndex, list[MemoryHeader], list[MemoryDoc]]:
    d = build_large_ops_dir(tmp_path / "ops", n=6)
    headers = sorted(scan_memory_files(d), key=lambda h: h.filename)
    index = DirIndex(VectorCache(tmp_path / "cache.sqlite3"), LexicalOptions())
    return index, headers, index.documents(headers)


def test_memories_not_chosen_own_no_window_rows(tmp_path: Path) -> None:
    index, headers, docs = _index_and_dir(tmp_path)
    key = index.set_key(headers, docs)
    vectors = index.vectors(key, headers, docs, _CountingEmbed(), chosen=[1, 4])
    sizes = [hi - lo for lo, hi in zip(vectors.offsets, vectors.offsets[1:], strict=False)]
    assert sizes == [len(docs[i].windows) if i in (1, 4) else 0 for i in range(len(headers))]
    assert len(vectors.manifests) == len(headers)


def test_window_vectors_are_kept_per_file_across_shortlists(tmp_path: Path) -> None:
    index, headers, docs = _index_and_dir(tmp_path)
    key = index.set_key(headers, docs)
    embed = _CountingEmbed()
    first = index.vectors(key, headers, docs, embed, chosen=[0, 2])
    asked = len(embed.asked)
    second = index.vectors(key, headers, docs, embed, chosen=[2, 3])
    new = embed.asked[asked:]
    assert new == window_texts(headers[3], docs[3].windows)  # memory 2's were kept
    rows = slice(second.offsets[2], second.offsets[3])
    assert np.array_equal(second.windows[rows], first.windows[first.offsets[2] : first.offsets[3]])


def test_window_vectors_held_in_process_stay_under_their_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index, headers, docs = _index_and_dir(tmp_path)
    key = index.set_key(headers, docs)
    one = max(len(d.windows) for d in docs)
    monkeypatch.setattr(dir_index, "_MAX_WINDOW_ROWS", 2 * one)
    for i in range(len(headers)):
        index.vectors(key, headers, docs, _CountingEmbed(), chosen=[i])
        held = sum(len(rows) for rows in index._windows.values())
        assert held <= 2 * one


class _CountingTerms:
    """document_terms, counting the memories it is asked to tokenize."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *args: object) -> list[str]:
        self.calls += 1
        return list(document_terms(*args))  # type: ignore[arg-type]  # the same arguments


def test_a_new_process_reads_stored_terms_instead_of_tokenizing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, headers, docs = _index_and_dir(tmp_path)
    first.cache.close()
    counting = _CountingTerms()
    monkeypatch.setattr(dir_index, "document_terms", counting)
    again = DirIndex(VectorCache(tmp_path / "cache.sqlite3"), LexicalOptions())
    assert again.documents(headers) == docs
    assert counting.calls == 0
    assert again.read_last_call == 0


def test_stored_terms_made_by_other_code_are_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, headers, docs = _index_and_dir(tmp_path)
    first.cache.close()
    monkeypatch.setattr(dir_index, "terms_digest", lambda *a: "made by another tokenizer")
    counting = _CountingTerms()
    monkeypatch.setattr(dir_index, "document_terms", counting)
    again = DirIndex(VectorCache(tmp_path / "cache.sqlite3"), LexicalOptions())
    assert again.documents(headers) == docs
    assert counting.calls == len(headers)


def test_other_options_do_not_reuse_stored_terms(tmp_path: Path) -> None:
    first, headers, _ = _index_and_dir(tmp_path)
    first.cache.close()
    plain = LexicalOptions(stemming=False, synonyms=False)
    again = DirIndex(VectorCache(tmp_path / "cache.sqlite3"), plain)
    fresh = DirIndex(VectorCache(None), plain)
    assert again.documents(headers) == fresh.documents(headers)


def test_an_edited_memory_gets_terms_of_its_new_text(tmp_path: Path) -> None:
    first, headers, _ = _index_and_dir(tmp_path)
    first.cache.close()
    path = Path(headers[0].file_path)
    path.write_text(path.read_text(encoding="utf-8") + "\nZanzibar ferry timetable.\n")
    again = DirIndex(VectorCache(tmp_path / "cache.sqlite3"), LexicalOptions())
    docs = again.documents(headers)
    assert "zanzibar" in docs[0].terms
    assert any("zanzibar" in w for w in docs[0].window_terms)


def test_documents_and_key_are_documents_and_set_key_in_one_pass(tmp_path: Path) -> None:
    index, headers, _ = _index_and_dir(tmp_path)
    Path(headers[1].file_path).unlink()  # an unreadable file: no identity, scored on its header
    docs, key = index.documents_and_key(headers)
    assert docs == index.documents(headers) and docs[1].identity is None
    assert key == index.set_key(headers, docs)


def test_the_documents_kept_in_process_are_one_per_file_and_within_a_byte_bound(
    tmp_path: Path,
) -> None:
    # Documents were kept per (file, header fields) up to 20,000, whatever their size: each
    # edit of a description kept one more copy of the body, and 20,000 documents of the largest
    # memories (over a megabyte each, body, windows and terms) could keep gigabytes in a kernel
    index, headers, _ = _index_and_dir(tmp_path)
    for n in range(5):  # the same files under edited descriptions
        index.documents([replace(h, description=f"edit {n}") for h in headers])
    assert len(index._docs) == len(headers)
    index._docs.max_bytes = index._docs.bytes_held // 2  # room for about half of them
    again = index.documents([replace(h, description="new") for h in headers])
    assert 0 < len(index._docs) < len(headers)
    assert index._docs.bytes_held <= index._docs.max_bytes
    assert again == index.documents([replace(h, description="new") for h in headers])
