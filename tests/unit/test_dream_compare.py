"""dream.compare: near-duplicates and contradictions, batched or pair by pair, as one pass gives."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from rapidfuzz import fuzz

from memdir_nb import machine
from memdir_nb.dream import compare, scored_texts
from memdir_nb.dream.compare import (
    CONTRADICTION_THRESHOLD,
    DUPLICATE_BODY_THRESHOLD,
    DUPLICATE_HEAD_THRESHOLD,
    _Mem,
    _near_duplicate_pairs,
)
from memdir_nb.dream.kept import BlockResults
from memdir_nb.spec import similarity
from memdir_nb.spec.word_stems import StemCache

# Separators a memory's text can hold: ASCII whitespace of every kind, and punctuation.
_GLUE = [" ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", ", ", "-", "'", "."]


def _texts(rng: random.Random, count: int, vocab: int = 30) -> list[str]:
    """Texts over a small vocabulary (so many pairs score near any cutoff), with repeats."""
    words = [f"w{n}" for n in range(vocab)] + ["Not", "never", "a", "don't"]
    return [
        "".join(rng.choice(words) + rng.choice(_GLUE) for _ in range(rng.randint(0, 25)))
        for _ in range(count)
    ]


def _pool(rng: random.Random, count: int) -> list[_Mem]:
    """Memories whose heads and bodies are drawn from small vocabularies: many near-duplicates."""
    heads = _texts(rng, count, vocab=8)
    bodies = _texts(rng, count, vocab=10)
    return [
        _Mem(f"m{i}.md", f"m{i}.md", "", "", "n", heads[i], "user", bodies[i], float(i))
        for i in range(count)
    ] + [_Mem("u.md", "u.md", "", "", "n\xa0x", "café w1", "user", "w1 w2", 0.0)]


def _columns(pairs: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Pairs as the planner hands them over: their first indexes, then their second ones."""
    return [i for i, _ in pairs], [j for _, j in pairs]


def test_near_duplicate_pairs_batched_or_one_by_one_match_the_raw_scores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(4)
    pool = _pool(rng, 90)
    pairs = [(i, j) for i in range(len(pool)) for j in range(i + 1, len(pool))]
    want = {
        (i, j)
        for i, j in pairs
        if fuzz.token_sort_ratio(pool[i].head_lower, pool[j].head_lower) >= DUPLICATE_HEAD_THRESHOLD
        and fuzz.token_set_ratio(pool[i].body_lower, pool[j].body_lower) >= DUPLICATE_BODY_THRESHOLD
    }
    assert 0 < len(want) < len(pairs)
    monkeypatch.setattr(compare, "_BATCH_MIN_PAIRS", 0)
    assert set(_near_duplicate_pairs(pool, _columns(pairs), fuzz)) == want
    monkeypatch.setattr(compare, "_BATCH_MIN_PAIRS", 10**9)
    assert set(_near_duplicate_pairs(pool, _columns(pairs), fuzz)) == want


def test_contradiction_scores_batched_per_text_match_pair_by_pair(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Many candidate pairs are scored one text against all its partners at once: the pairs
    # kept must be exactly those the pair-by-pair scores keep (about 500 of the 1,428 pairs here
    # score within 5 points of the cutoff).
    rng = random.Random(5)
    vocab = [f"w{n}" for n in range(40)]
    texts = [" ".join(rng.choices(vocab, k=rng.randint(3, 30))) for _ in range(120)]
    pairs = [(i, j) for i in range(120) for j in range(i + 1, 120) if (i * 7 + j) % 5 == 0]
    one_by_one = [
        (i, j)
        for i, j in pairs
        if fuzz.token_set_ratio(texts[i], texts[j]) >= CONTRADICTION_THRESHOLD
    ]
    assert 0 < len(one_by_one) < len(pairs)
    monkeypatch.setattr(compare, "_BATCH_MIN_PAIRS", 0)
    for cpus in (1, 2, 3):  # per text on one core; one call on rapidfuzz's threads on more
        monkeypatch.setattr(compare, "usable_cpus", lambda n=cpus: n)
        assert sorted(compare._similar_pairs(pairs, texts, fuzz)) == sorted(one_by_one)
    monkeypatch.setattr(compare, "_BATCH_MIN_PAIRS", 10**9)
    assert sorted(compare._similar_pairs(pairs, texts, fuzz)) == sorted(one_by_one)


def test_the_scorers_give_the_same_score_whichever_text_comes_first() -> None:
    # Batched scoring groups a pair under either of its texts.
    rng = random.Random(6)
    texts = _texts(rng, 120, vocab=15)
    for _ in range(3_000):
        a, b = rng.choice(texts), rng.choice(texts)
        for scorer in (fuzz.ratio, fuzz.token_sort_ratio, fuzz.token_set_ratio):
            assert scorer(a, b) == scorer(b, a)
            assert scorer(a, b, score_cutoff=75) == scorer(b, a, score_cutoff=75)


def _contradicting_pool(rng: random.Random, count: int) -> list[_Mem]:
    """Memories of two types, half of them negated, over a small vocabulary: many candidates."""
    vocab = [f"w{n}" for n in range(25)]
    mems = []
    for i in range(count):
        words = rng.choices(vocab, k=rng.randint(4, 14))
        if i % 2:
            words.insert(rng.randrange(len(words)), rng.choice(["not", "never", "don't"]))
        kind = "user" if i % 3 else "project"
        mems.append(_Mem(f"m{i}.md", f"m{i}.md", "", "", "n", "d", kind, " ".join(words), 0.0))
    return mems


def test_each_candidate_block_comes_with_its_texts_ready_to_score() -> None:
    # The blocks are scored as they come, before the later ones are found: the texts of a
    # block's memories must already be the ones the whole step scores.
    mems = _contradicting_pool(random.Random(8), 200)
    want_pairs, want_texts = compare._contradiction_candidates(mems, StemCache())
    texts: list[str] = []
    seen: list[tuple[int, int]] = []
    for _, negs, plain, keys in compare._type_blocks(mems, StemCache(), texts):
        block = compare._block_candidates(negs, plain, keys)
        assert all(texts[i] == want_texts[i] for pair in block for i in pair)
        seen += block
    assert len(seen) > 100 and sorted(seen) == sorted(want_pairs)


def test_a_types_block_comes_before_the_next_types_texts_are_prepared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A block is handed to the scoring thread as soon as it comes, so the texts of the types
    # after it are prepared while it is scored, not before: each type's texts in turn.
    mems = _contradicting_pool(random.Random(8), 200)
    prepared: list[list[str]] = []
    real = scored_texts.prepared_texts

    def recording(all_text: list[str], stems: StemCache, texts: list[str]) -> Any:
        prepared.append(list(all_text))
        return real(all_text, stems, texts)

    monkeypatch.setattr(compare, "prepared_texts", recording)
    blocks = compare._type_blocks(mems, StemCache(), [])
    first, negs, plain, _ = next(blocks)
    assert sorted(first) == sorted(prepared[-1])  # only the first block's type so far
    assert {mems[i].type for i in negs + plain} == {mems[0].type}
    assert len(list(blocks)) == 1 and len(prepared) == 2


def test_contradiction_chunks_the_thread_has_not_started_are_scored_by_the_planner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The scoring thread is held back until the planner asks for the result: every chunk is
    # then taken back and scored by the planner, and the pairs are those of one scoring pass.
    mems = _contradicting_pool(random.Random(9), 200)
    pairs, texts = compare._contradiction_candidates(mems, StemCache())
    want = sorted(compare._similar_pairs(pairs, texts, fuzz))
    asked = threading.Event()
    monkeypatch.setattr(machine, "lower_this_threads_share", lambda: asked.wait(10))
    monkeypatch.setattr(compare, "usable_cpus", lambda: 2)
    monkeypatch.setattr(compare, "fork_pays", lambda n, least: False)
    monkeypatch.setattr(compare, "_BATCH_MIN_PAIRS", 50)
    scored_here: list[int] = []
    real = compare._similar_pairs_on_all_cores

    def counting(chunk: list[tuple[int, int]], **kwargs: Any) -> list[tuple[int, int]]:
        if threading.current_thread() is threading.main_thread():
            scored_here.append(len(chunk))
        return real(chunk, **kwargs)

    monkeypatch.setattr(compare, "_similar_pairs_on_all_cores", counting)
    monkeypatch.setattr(compare, "_CONTRADICTION_BLOCKS", BlockResults())  # nothing kept
    with compare.contradiction_pairs_beside(mems, fuzz, StemCache()) as result:
        found = result()
        asked.set()
    assert found == want and len(want) > 0
    assert sum(scored_here) == len(pairs) and len(scored_here) > 2


def _edited(mems: list[_Mem], i: int, **fields: str) -> list[_Mem]:
    """mems with memory i's fields replaced (a new _Mem: its cached properties are its own)."""
    m = mems[i]
    new = _Mem(m.rel, m.scope_rel, m.scope, m.text, m.name, m.description, m.type, m.body, 0.0)
    for name, value in fields.items():
        setattr(new, name, value)
    return [*mems[:i], new, *mems[i + 1 :]]


def test_a_later_plan_compares_again_only_the_near_duplicate_blocks_that_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # What a block's comparison found is kept by its members' texts: the same pool again
    # compares nothing, and a pool with one memory changed compares that memory's block only,
    # finding what a comparison with nothing kept finds.
    monkeypatch.setattr(compare, "_DUPLICATE_BLOCKS", BlockResults())
    joined: list[int] = []
    real = similarity.candidate_pair_columns

    def counting(keys: list[frozenset[str]], **kwargs: Any) -> tuple[list[int], list[int]]:
        joined.append(len(keys))
        return real(keys, **kwargs)

    monkeypatch.setattr(compare, "candidate_pair_columns", counting)
    pool = _pool(random.Random(3), 120)
    pool = [*pool[:60], *(_edited(pool, i, type="project")[i] for i in range(60, 121))]
    blocks = {(m.type, compare._has_negation(m.description)) for m in pool}
    first = compare._duplicate_groups(pool, fuzz, StemCache())
    assert len(joined) == len(blocks) > 2 and any(len(g) > 1 for g in first)
    again = compare._duplicate_groups(pool, fuzz, StemCache())
    assert len(joined) == len(blocks) and _rels(again) == _rels(first)
    # A group's member loses its head's words (its block stays: no negation before or after).
    m = next(m for g in first if len(g) > 1 for m in g if not compare._has_negation(m.description))
    changed = _edited(pool, pool.index(m), description="zz yy xx ww vv")
    found = compare._duplicate_groups(changed, fuzz, StemCache())
    block = (m.type, False)
    assert joined[len(blocks) :] == [
        sum((p.type, compare._has_negation(p.description)) == block for p in pool)
    ]
    monkeypatch.setattr(compare, "_DUPLICATE_BLOCKS", BlockResults())
    assert _rels(found) == _rels(compare._duplicate_groups(changed, fuzz, StemCache()))
    assert _rels(found) != _rels(first)
    # Its body alone changes (the heads' candidates are the same; the body score is not).
    changed = _edited(pool, pool.index(m), body="qq rr ss tt uu")
    found = compare._duplicate_groups(changed, fuzz, StemCache())
    monkeypatch.setattr(compare, "_DUPLICATE_BLOCKS", BlockResults())
    assert _rels(found) == _rels(compare._duplicate_groups(changed, fuzz, StemCache()))
    assert _rels(found) != _rels(first)


def _rels(groups: list[list[_Mem]]) -> list[list[str]]:
    return [[m.rel for m in g] for g in groups]


@pytest.mark.parametrize("cpus", [1, 2])
def test_a_later_plan_scores_again_only_the_contradiction_blocks_that_changed(
    monkeypatch: pytest.MonkeyPatch, cpus: int
) -> None:
    # The same for the contradiction step's type blocks, scored here or on a thread: a block
    # seen before is not scored again, and an edit that makes a new contradiction is found.
    monkeypatch.setattr(compare, "_CONTRADICTION_BLOCKS", BlockResults())
    monkeypatch.setattr(compare, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(compare, "fork_pays", lambda n, least: False)
    scored: list[int] = []
    real = compare._similar_pairs

    def counting(pairs: list[tuple[int, int]], *args: Any) -> list[tuple[int, int]]:
        scored.append(len(pairs))
        return real(pairs, *args)

    monkeypatch.setattr(compare, "_similar_pairs", counting)
    monkeypatch.setattr(
        compare, "_similar_pairs_on_all_cores", lambda p, **k: counting(p, k["texts"], k["fuzz"])
    )

    def pairs(mems: list[_Mem]) -> list[tuple[int, int]]:
        with compare.contradiction_pairs_beside(mems, fuzz, StemCache()) as result:
            return result()

    mems = _contradicting_pool(random.Random(11), 60)
    first = pairs(mems)
    assert scored and first
    del scored[:]
    assert pairs(mems) == first and sum(scored) == 0
    user = [i for i, m in enumerate(mems) if m.type == "user" and "not" not in m.body.split()]
    mems = _edited(mems, user[0], body=mems[user[1]].body + " never")  # contradicts user[1]
    found = pairs(mems)
    assert (user[0], user[1]) in found or (user[1], user[0]) in found
    monkeypatch.setattr(compare, "_CONTRADICTION_BLOCKS", BlockResults())
    assert found == pairs(mems)
