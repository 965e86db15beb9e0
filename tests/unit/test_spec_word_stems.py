"""word_stems: a text's stems are the stems of its words, stop words left out, however cached."""

from __future__ import annotations

import random

import pytest

from memdir_nb.spec import word_stems
from memdir_nb.spec.word_stems import StemCache, stem_sets


def _reference_stems(text: str) -> frozenset[str]:
    """Every word of text (textseg.words), stop words left out, each stemmed on its own."""
    import Stemmer

    from memdir_nb.spec import text as textseg

    stemmer = Stemmer.Stemmer("english")
    return frozenset(stemmer.stemWord(w) for w in textseg.words(text) if w not in word_stems._STOP)


def _random_texts(rng: random.Random, count: int) -> list[str]:
    """Texts of inflected words glued with punctuation, case, hyphens, apostrophes and odd spaces."""
    words = [
        "Running",
        "runs",
        "tests",
        "the",
        "don't",
        "follow-up",
        "DB",
        "a",
        "is",
        "x2",
        "café",
        "naïve",
        "日本語",
        "memory",
        "memories",
        "it's",
        "of",
        "and",
        "v1.2",
    ]
    glue = [" ", "  ", "\t", "\n", "\x0b", "\x1c", ", ", ". ", "/", "(", ")", "-", "'", ":"]
    texts = []
    for _ in range(count):
        n = rng.randint(0, 14)
        texts.append("".join(rng.choice(words) + rng.choice(glue) for _ in range(n)))
    return texts


def test_the_stem_cache_gives_each_text_the_stems_of_its_words() -> None:
    # ASCII text goes token by token through the cache; other text through textseg.words.
    # Both must give exactly the stems of the text's words, stop words left out.
    rng = random.Random(11)
    texts = [*_random_texts(rng, 600), "", "   ", "the a of", "Ｔｏｍｏｒｒｏｗ 明天 café"]
    assert any(t.isascii() for t in texts) and not all(t.isascii() for t in texts)
    cache = StemCache()
    assert [cache.text(t) for t in texts] == [_reference_stems(t) for t in texts]
    assert stem_sets(texts) == [_reference_stems(t) for t in texts]
    # many texts at once: every new token of them stemmed in one batch first
    assert StemCache().texts(texts) == [_reference_stems(t) for t in texts]


def test_the_stem_cache_gives_the_same_stems_after_emptying_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(StemCache, "_CACHE_MAX", 5)
    rng = random.Random(12)
    texts = _random_texts(rng, 200)
    cache = StemCache()
    assert [cache.text(t) for t in texts] == [_reference_stems(t) for t in texts]
    assert cache.texts(texts) == [_reference_stems(t) for t in texts]
    assert StemCache().texts(texts) == [_reference_stems(t) for t in texts]


def test_a_token_s_stems_are_what_the_token_cache_counts_for_it() -> None:
    # token_stems fills the same cache tokens() reads: asked again, nothing is stemmed anew.
    tokens = ["running,", "a/b", "the", "x.y-z", "memories", "(of)", "don't", "v1.2"]
    cache = StemCache()
    assert cache.token_stems(tokens) == [StemCache().tokens({t}) for t in tokens]
    assert cache.token_stems(tokens) == [cache.tokens({t}) for t in tokens]
    assert cache.tokens(set(tokens)) == StemCache().tokens(set(tokens))


def test_a_token_of_letters_and_digits_alone_gets_the_stems_of_its_words() -> None:
    # ascii_stems_many takes a token of ASCII letters and digits alone as one word without the
    # word pattern; every other token (punctuation, an apostrophe, a dash, a stop word, an
    # underscore, nothing) through it. Either way: the stems of the token's words.
    tokens = [
        "running", "memories", "v12", "2026", "the", "a", "don't", "x.y-z", "snake_case",
        "a/b", "", "_", "(of)", "ps3", "it's", "re-run", "caf", "--", "under_", "ab12cd",
    ]  # fmt: skip
    tokens += [t.lower() for t in _random_texts(random.Random(13), 300) if t.isascii()]
    got = StemCache().ascii_stems_many(tokens)
    assert got == [_reference_stems(t) for t in tokens]
    one_by_one = StemCache()
    assert [one_by_one.ascii_stems_many([t])[0] for t in tokens] == got
