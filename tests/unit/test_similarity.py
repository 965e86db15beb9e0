"""similarity: candidate pairs share enough stems; common words alone do not pair texts."""

from __future__ import annotations

from memdir_nb.spec.similarity import MAX_POSTING, UnionFind, candidate_pairs, stem_sets


def test_texts_sharing_most_stems_pair_up_whatever_the_inflection() -> None:
    keys = stem_sets(
        [
            "Integration tests hit a real database",
            "integration test hitting the real databases",
            "Merge freeze for the mobile release",
        ]
    )
    assert candidate_pairs(keys, min_shared=0.7) == {(0, 1)}


def test_a_pair_below_the_shared_fraction_is_not_a_candidate() -> None:
    keys = stem_sets(["alpha beta gamma delta", "alpha epsilon zeta eta"])
    assert candidate_pairs(keys, min_shared=0.5) == set()
    assert candidate_pairs(keys, min_shared=0.25) == {(0, 1)}


def test_cross_pairs_are_found_from_either_side_including_subsets() -> None:
    short = stem_sets(["use tabs to indent go code"])
    long = stem_sets(["use tabs to indent go code here; spaces only in the vendored parts"])
    assert candidate_pairs(short, long, min_shared=0.5) == {(0, 0)}
    assert candidate_pairs(long, short, min_shared=0.5) == {(0, 0)}


def test_a_stem_in_very_many_texts_does_not_seed_candidates() -> None:
    common = ["shared words everywhere"] * (MAX_POSTING + 5)
    keys = stem_sets(common)
    assert candidate_pairs(keys, min_shared=0.5) == set()


def test_union_find_groups_come_sorted_by_first_member() -> None:
    uf = UnionFind(6)
    uf.union(4, 5)
    uf.union(1, 3)
    uf.union(3, 0)
    assert uf.groups(range(6)) == [[0, 1, 3], [4, 5]]
