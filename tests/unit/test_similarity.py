"""similarity: candidate pairs share enough stems; common words alone do not pair texts."""

from __future__ import annotations

import random

import pytest

from memdir_nb.spec import similarity
from memdir_nb.spec.similarity import MAX_POSTING, UnionFind, _Join, candidate_pairs
from memdir_nb.spec.word_stems import stem_sets


def test_texts_sharing_most_stems_pair_up_whatever_the_inflection() -> None:
    keys = stem_sets(
        [
            "Integration tests hit a real database",
            "integration test hitting the real databases",
            "Merge freeze for the mobile release",
        ]
    )
    assert set(candidate_pairs(keys, min_shared=0.7)) == {(0, 1)}


def test_a_pair_below_the_shared_fraction_is_not_a_candidate() -> None:
    keys = stem_sets(["alpha beta gamma delta", "alpha epsilon zeta eta"])
    assert set(candidate_pairs(keys, min_shared=0.5)) == set()
    assert set(candidate_pairs(keys, min_shared=0.25)) == {(0, 1)}


def test_cross_pairs_are_found_from_either_side_including_subsets() -> None:
    short = stem_sets(["use tabs to indent go code"])
    long = stem_sets(["use tabs to indent go code here; spaces only in the vendored parts"])
    assert set(candidate_pairs(short, long, min_shared=0.5)) == {(0, 0)}
    assert set(candidate_pairs(long, short, min_shared=0.5)) == {(0, 0)}


def test_a_stem_in_very_many_texts_does_not_seed_candidates() -> None:
    common = ["shared words everywhere"] * (MAX_POSTING + 5)
    keys = stem_sets(common)
    assert set(candidate_pairs(keys, min_shared=0.5)) == set()


def test_union_find_groups_come_sorted_by_first_member() -> None:
    uf = UnionFind(6)
    uf.union(4, 5)
    uf.union(1, 3)
    uf.union(3, 0)
    assert uf.groups(range(6)) == [[0, 1, 3], [4, 5]]


def _random_sets(rng: random.Random, count: int) -> list[frozenset[str]]:
    """Key sets over a skewed vocabulary: a few stems in most sets (past MAX_POSTING), many rare."""
    common = [f"c{n}" for n in range(6)]
    rare = [f"r{n}" for n in range(400)]
    out = []
    for _ in range(count):
        keys = set(rng.sample(common, rng.randint(0, 6)))
        keys.update(rng.sample(rare, rng.randint(0, 12)))
        out.append(frozenset(keys))
    return out


@pytest.mark.parametrize("min_shared", [0.3, 0.4, 0.7])
def test_the_matrix_join_and_the_posting_join_find_the_same_pairs(min_shared: float) -> None:
    # Small joins run as numpy matrix products, large ones probe postings: the pairs must be
    # identical, within one sequence and across two, with stems past MAX_POSTING in play.
    rng = random.Random(7)
    left, right = _random_sets(rng, 2 * MAX_POSTING + 30), _random_sets(rng, MAX_POSTING + 17)
    for join in (_Join(left, None, min_shared), _Join(left, right, min_shared)):
        probed = join.probed()
        assert probed, "the corpus should make some pairs"
        dense = join.dense()
        assert len(dense) == len(set(dense))  # each pair once
        assert set(dense) == probed


def test_a_join_too_large_for_matrices_probes_postings(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = stem_sets(["alpha beta gamma delta", "alpha beta gamma epsilon", "zeta eta"])
    monkeypatch.setattr(similarity, "DENSE_MIN_PAIRS", 0)
    monkeypatch.setattr(similarity, "DENSE_MAX_COST", 0)
    monkeypatch.setattr(_Join, "dense", None)  # calling it would fail the test
    assert set(candidate_pairs(keys, min_shared=0.7)) == {(0, 1)}


def test_a_join_of_few_pairs_probes_postings(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = stem_sets(["alpha beta gamma delta", "alpha beta gamma epsilon", "zeta eta"])
    monkeypatch.setattr(_Join, "dense", None)  # nine pairs: far below DENSE_MIN_PAIRS
    assert set(candidate_pairs(keys, min_shared=0.7)) == {(0, 1)}


def test_a_mid_sized_join_runs_as_matrices(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    left = _random_sets(rng, 120)
    expected = _Join(left, None, 0.4).probed()
    monkeypatch.setattr(_Join, "probed", None)  # 14,400 pairs: the matrix join answers
    assert set(candidate_pairs(left, min_shared=0.4)) == expected


def test_a_matrix_join_of_empty_sets_finds_nothing() -> None:
    empty = [frozenset[str]()] * 60
    assert _Join(empty, None, 0.4).dense() == []
    assert _Join(empty, empty, 0.4).dense() == []


@pytest.mark.parametrize("min_shared", [0.3, 0.4, 0.7])
def test_the_posting_join_finds_exactly_the_seeded_pairs_sharing_enough(min_shared: float) -> None:
    # The rule, pair by pair: share min_shared of the smaller set, and one side's seed stems
    # (its rarest, none past MAX_POSTING) hold a stem of the other.
    rng = random.Random(11)
    left, right = _random_sets(rng, 2 * MAX_POSTING + 30), _random_sets(rng, MAX_POSTING + 17)
    for join in (_Join(left, None, min_shared), _Join(left, right, min_shared)):
        want = set()
        for i, a in enumerate(join.left):
            for j, b in enumerate(join.right):
                if (join.same and j <= i) or not a or not b:
                    continue
                enough = len(a & b) >= min_shared * min(len(a), len(b))
                seeded = bool(set(join.seeds(a)) & b or set(join.seeds(b)) & a)
                if enough and seeded:
                    want.add((i, j))
        assert want
        assert join.probed() == want


def test_a_matrix_join_in_row_chunks_finds_the_same_pairs_as_in_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One sequence in one chunk reuses the seed product transposed; in several chunks it
    # computes both seed products. Both must give the posting join's pairs.
    rng = random.Random(5)
    left = _random_sets(rng, 2 * MAX_POSTING + 30)
    for min_shared in (0.4, 0.7):
        want = _Join(left, None, min_shared).probed()
        assert sorted(_Join(left, None, min_shared).dense()) == sorted(want)
        monkeypatch.setattr(similarity, "_DENSE_CHUNK_CELLS", 7 * len(left))  # 7 rows a chunk
        assert sorted(_Join(left, None, min_shared).dense()) == sorted(want)
        monkeypatch.undo()


def test_stems_are_ranked_by_document_frequency_then_by_the_stem_itself() -> None:
    rng = random.Random(9)
    left, right = _random_sets(rng, 300), _random_sets(rng, 80)
    for join in (_Join(left, None, 0.4), _Join(left, right, 0.4)):
        df = join.df
        assert list(join.rank) == sorted(df, key=lambda k: (df[k], k))
        assert list(join.rank.values()) == list(range(len(df)))
