"""dream.scored_texts: a prepared text scores exactly as the raw one; prepared texts are kept
by content, within their bounds."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rapidfuzz import fuzz

from memdir_nb.dream import scored_texts
from memdir_nb.dream.compare import CONTRADICTION_THRESHOLD, DUPLICATE_HEAD_THRESHOLD
from memdir_nb.dream.negation import StrippedStems
from memdir_nb.dream.scored_texts import ascii_tokens, token_set_text, token_sort_text
from memdir_nb.spec.constants import DREAM_COMPARE_MAX_CHARS
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


def _contradiction_texts(rng: random.Random, count: int) -> list[str]:
    """Contradiction texts (description "d", then the body) of memories over a small
    vocabulary, half of them negated: the texts test_dream_compare's pool gives."""
    vocab = [f"w{n}" for n in range(25)]
    texts = []
    for i in range(count):
        words = rng.choices(vocab, k=rng.randint(4, 14))
        if i % 2:
            words.insert(rng.randrange(len(words)), rng.choice(["not", "never", "don't"]))
        texts.append("d " + " ".join(words))
    return texts


def test_rapidfuzz_splits_ascii_text_where_str_split_does() -> None:
    # The prepared texts rely on it: on ASCII, a token boundary for rapidfuzz is exactly a
    # character str.split() splits at.
    for code in range(128):
        ch = chr(code)
        assert (fuzz.token_set_ratio(f"x{ch}y", "x y") == 100) == ch.isspace(), hex(code)
        assert (fuzz.token_sort_ratio(f"y{ch}x", "x y") == 100) == ch.isspace(), hex(code)


def test_distinct_sorted_tokens_score_as_the_raw_text_by_token_set_ratio() -> None:
    rng = random.Random(1)
    texts = [*_texts(rng, 150), "", "   ", "\t\n", "café w1 w2", "w1\xa0w2 w3"]
    prepared = [token_set_text(t, ascii_tokens(t)) for t in texts]
    near = 0
    for i in range(len(texts)):
        for j in range(len(texts)):
            want = fuzz.token_set_ratio(texts[i], texts[j])
            assert fuzz.token_set_ratio(prepared[i], prepared[j]) == want, (texts[i], texts[j])
            near += abs(want - CONTRADICTION_THRESHOLD) < 5
    assert near > 300  # many pairs near the cutoff


def test_non_ascii_text_is_scored_as_it_is() -> None:
    # rapidfuzz and str.split() disagree on U+0085 and U+00A0: such text is left unchanged.
    text = "b a\xa0c a"
    assert ascii_tokens(text) is None
    assert token_set_text(text, None) == text
    assert token_sort_text(text) is None


def test_sorted_tokens_by_ratio_score_as_the_raw_text_by_token_sort_ratio() -> None:
    rng = random.Random(2)
    texts = [*_texts(rng, 150, vocab=12), "", " ", "w1 w1", "w1"]
    prepared = [token_sort_text(t) for t in texts]
    for i in range(len(texts)):
        for j in range(len(texts)):
            a, b = prepared[i], prepared[j]
            assert a is not None and b is not None
            assert fuzz.ratio(a, b) == fuzz.token_sort_ratio(texts[i], texts[j])
            cut = DUPLICATE_HEAD_THRESHOLD
            assert fuzz.ratio(a, b, score_cutoff=cut) == fuzz.token_sort_ratio(
                texts[i], texts[j], score_cutoff=cut
            )


def test_a_later_plan_prepares_only_the_contradiction_texts_that_changed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The prepared stems, polarity and scored text are kept by the text: a second pass over
    # the same memories prepares none, a changed memory is prepared anew, and every pass gives
    # what a pass with nothing kept gives. The store stays within its bound.
    monkeypatch.setattr(scored_texts, "_PREPARED_MAX", 150)
    prepared: list[str] = []
    real_many = StrippedStems.many

    def counting_many(self: StrippedStems, texts: Any) -> Any:
        prepared.extend(texts)
        return real_many(self, texts)

    texts_in = _contradiction_texts(random.Random(10), 120)

    def prepare(kept: dict[str, Any]) -> tuple[Any, list[str]]:
        monkeypatch.setattr(scored_texts, "_PREPARED", kept)
        texts: list[str] = []
        return scored_texts.prepared_texts(list(texts_in), StemCache(), texts), texts

    kept: dict[str, Any] = {}
    want = prepare({})
    monkeypatch.setattr(StrippedStems, "many", counting_many)
    assert prepare(kept) == want and len(prepared) == len(set(texts_in))
    assert prepare(kept) == want and len(prepared) == len(set(texts_in))
    prepared.clear()
    texts_in[3] = "d we never deploy on fridays"
    assert prepare(kept) == prepare({})
    assert prepared[0] == "d we never deploy on fridays" and len(kept) <= 150


def test_the_prepared_store_keeps_within_its_character_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Long bodies make long entries: the store stops filling at its character budget, is
    # emptied by the next plan that finds it full, and every pass still gives what a pass
    # with nothing kept gives.
    texts_in = [
        f"d {((t[2:] + ' ') * 40)[:DREAM_COMPARE_MAX_CHARS]}"
        for t in _contradiction_texts(random.Random(12), 80)
    ]
    kept: dict[str, Any] = {}
    monkeypatch.setattr(scored_texts, "_PREPARED", kept)
    monkeypatch.setattr(scored_texts, "_PREPARED_MAX_CHARS", 20_000)
    monkeypatch.setattr(scored_texts, "_prepared_chars", [0])
    fresh: list[str] = []
    want = scored_texts.prepared_texts(list(texts_in), StemCache(), fresh)
    assert 0 < len(kept) < len(texts_in)
    sizes = [len(t) + len(e[2]) for t, e in kept.items()]
    assert sum(sizes) - max(sizes) < 20_000  # at most the entry that crossed the budget past it
    again: list[str] = []
    assert (
        scored_texts.prepared_texts(list(texts_in), StemCache(), again) == want and again == fresh
    )


def test_preparing_texts_survives_another_plan_emptying_the_store_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Another thread's plan may empty the store (it found it full) while this one prepares its
    # new texts: what this plan looked up before stays its own, so it finds every text.
    texts_in = _contradiction_texts(random.Random(11), 60)
    kept: dict[str, Any] = {}
    monkeypatch.setattr(scored_texts, "_PREPARED", kept)
    want: list[str] = []
    want_keys = scored_texts.prepared_texts(list(texts_in), StemCache(), want)
    texts_in[0] = "d a text not prepared before"
    real_many = StrippedStems.many

    def emptying_many(self: StrippedStems, texts: Any) -> Any:
        kept.clear()  # as the other plan does
        return real_many(self, texts)

    monkeypatch.setattr(StrippedStems, "many", emptying_many)
    texts: list[str] = []
    keys, negated = scored_texts.prepared_texts(list(texts_in), StemCache(), texts)
    assert texts[1:] == want[1:] and keys[1:] == want_keys[0][1:]
    assert negated[1:] == want_keys[1][1:]
