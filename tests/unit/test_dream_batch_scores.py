"""dream.batch_scores: pairs grouped for batched scoring, and the exact bound on fuzz.ratio."""

from __future__ import annotations

import random

from rapidfuzz import fuzz

from memdir_nb.dream.batch_scores import _partners, _ratio_may_reach
from memdir_nb.dream.compare import DUPLICATE_HEAD_THRESHOLD
from memdir_nb.dream.scored_texts import token_sort_text


def _columns(pairs: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Pairs as the planner hands them over: their first indexes, then their second ones."""
    return [i for i, _ in pairs], [j for _, j in pairs]


def test_pairs_are_grouped_under_the_text_in_more_pairs() -> None:
    pairs = [(0, 5), (1, 5), (2, 5), (3, 4)]
    assert _partners(pairs) == {5: [(0, 0), (1, 1), (2, 2)], 3: [(4, 3)]}


def test_the_character_bound_never_drops_a_pair_whose_ratio_reaches_the_cutoff() -> None:
    # Heads over a small vocabulary land all around the cutoff: every pair left out must score
    # under it, and the bound must leave out most of the far ones (it is the point of it).
    rng = random.Random(8)
    words = [f"w{n}" for n in range(12)] + ["merge", "freeze", "x", "Release"]
    bases = [[rng.choice(words) for _ in range(rng.randint(3, 14))] for _ in range(10)]
    heads: list[str] = []
    for n in range(150):  # each a base with a few words changed, dropped or added
        head = list(bases[n % 10])
        for _ in range(rng.randint(0, 3)):
            k = rng.randrange(len(head) + 1)
            head[k : k + rng.randint(0, 1)] = [rng.choice(words)] * rng.randint(0, 1)
        heads.append(token_sort_text(" ".join(head).lower()) or "")  # ASCII: never None
    texts: dict[int, str | None] = dict(enumerate(heads))
    texts[150] = None  # a head that is not ASCII: its pairs are all kept
    pairs = [(i, j) for i in range(151) for j in range(i + 1, 151)]
    kept = set(_ratio_may_reach(texts, _columns(pairs), DUPLICATE_HEAD_THRESHOLD))
    assert all(p in kept for p in pairs if 150 in p)
    reach = {
        (i, j)
        for i, j in pairs
        if 150 not in (i, j) and fuzz.ratio(heads[i], heads[j]) >= DUPLICATE_HEAD_THRESHOLD
    }
    near = [
        (i, j)
        for i, j in pairs
        if 150 not in (i, j)
        and DUPLICATE_HEAD_THRESHOLD - 5
        <= fuzz.ratio(heads[i], heads[j])
        < DUPLICATE_HEAD_THRESHOLD
    ]
    assert reach and len(near) > 50  # the cutoff is well covered from both sides
    assert reach <= kept
    assert len(kept) < len(pairs) / 2


def test_the_character_bound_keeps_pairs_of_empty_heads() -> None:
    # ratio("", "") is 100: two empty texts reach any cutoff.
    texts: dict[int, str | None] = {0: "", 1: "", 2: "abc"}
    kept = _ratio_may_reach(texts, _columns([(0, 1), (0, 2), (1, 2)]), DUPLICATE_HEAD_THRESHOLD)
    assert kept == [(0, 1)]


def test_the_character_bound_counts_exactly_past_255_of_one_character() -> None:
    # The counts are kept in the narrowest integer type that holds them: a text with more
    # than 255 of one character must still be bounded with its true counts.
    rng = random.Random(8)
    texts: dict[int, str | None] = {}
    for i in range(40):
        n = rng.choice([250, 255, 256, 300, 70_000])
        texts[i] = "a" * n + "b" * rng.randint(0, 40) + "c" * rng.randint(0, 300)
    pairs = [(i, j) for i in range(40) for j in range(i + 1, 40)]

    def bound_reaches(a: str, b: str) -> bool:
        common = sum(min(a.count(ch), b.count(ch)) for ch in "abc")
        return 200 * common >= DUPLICATE_HEAD_THRESHOLD * (len(a) + len(b))

    want = [(i, j) for i, j in pairs if bound_reaches(texts[i] or "", texts[j] or "")]
    assert 0 < len(want) < len(pairs)
    assert _ratio_may_reach(texts, _columns(pairs), DUPLICATE_HEAD_THRESHOLD) == want
