"""dream.negation: negations stripped per token give what the whole-text pass gives."""

from __future__ import annotations

import random

import pytest

from memdir_nb.dream import negation
from memdir_nb.dream.negation import (
    NEGATION,
    Stripped,
    StrippedStems,
    has_negation,
    shared_stem_cache,
    strip_negations,
)
from memdir_nb.spec.word_stems import StemCache

# Separators a memory's text can hold: ASCII whitespace of every kind, and punctuation.
_GLUE = [" ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", ", ", "-", "'", "."]


@pytest.mark.parametrize(
    "text",
    [
        "We do NOT deploy on Fridays; Don't. NEVER without review. no longer, Avoid it.",
        "nothing notable; knots and snow, stopwatch, avoidance",
        "Stop: do not\tstop",
        "",
        # Outside ASCII, case-insensitive matching folds more: the long s and the Kelvin sign.
        "ſtop here, do \u212aeep NOT going, café",
    ],
)
def test_negations_are_stripped_as_the_case_insensitive_pass_strips_them(text: str) -> None:
    stripped, n = NEGATION.subn(" ", text)
    assert strip_negations(text) == (stripped.lower(), n > 0)


def test_negations_stripped_from_random_ascii_text_match_the_case_insensitive_pass() -> None:
    rng = random.Random(3)
    words = [
        "not",
        "NOT",
        "Never",
        "no",
        "No longer",
        "don't",
        "DOES NOT",
        "avoid",
        "stop",
        "without",
        "know",
        "note",
        "snow",
        "x",
    ]
    for _ in range(500):
        text = "".join(rng.choice(words) + rng.choice(_GLUE) for _ in range(rng.randint(0, 12)))
        stripped, n = NEGATION.subn(" ", text)
        assert strip_negations(text) == (stripped.lower(), n > 0)


def test_has_negation_is_a_match_of_the_case_insensitive_pattern() -> None:
    for text in ["We do NOT deploy", "nothing notable", "ſtop", "Kno\u212a not", "", "stop-gap"]:
        assert has_negation(text) == (NEGATION.search(text) is not None), text


def _stripped_reference(text: str) -> Stripped:
    """What the whole-text pass gives: the stripped text's tokens and stems, its polarity."""
    stripped, held = strip_negations(text)
    tokens = set(stripped.split())
    return Stripped(tokens, StemCache().tokens(tokens), held)


def test_stripping_negations_token_by_token_gives_the_whole_text_s_tokens_and_stems() -> None:
    # One cache over many texts, as in a plan: every text's tokens, stems and polarity are
    # those of stripping the whole text, including negations glued to punctuation, hyphens and
    # quotes, and words a negation leaves behind (`no_t`, `stop's`, `x-not-y`).
    rng = random.Random(4)
    words = ["not", "NOT", "Never", "no", "don't", "Doesn't", "avoid", "stop", "without"]
    words += ["know", "note", "snow", "nothing", "x", "no_t", "stop's", "do", "does", "longer"]
    words += ["running", "runs", "the", "a/b", "x-not-y", "never-ending", "avoiding"]
    glue = [g for g in _GLUE if not g.isspace()] + [" ", "\t", "\n", "\x1c", "", "-", "_"]
    strip_tokens = StrippedStems(StemCache())
    seen = 0
    for _ in range(3000):
        text = "".join(rng.choice(words) + rng.choice(glue) for _ in range(rng.randint(0, 14)))
        got = strip_tokens(text)
        low = text.lower()
        if any(phrase in low for phrase in ("no longer", "do not", "does not")):
            assert got is None  # a two-word negation: stripped as a whole text
            continue
        assert got == _stripped_reference(text), text
        seen += got.negated
    assert seen > 1000  # many texts held a negation


def test_texts_with_two_word_negations_or_outside_ascii_are_left_to_the_whole_text_pass() -> None:
    strip_tokens = StrippedStems(StemCache())
    assert strip_tokens("We do NOT deploy") is None
    assert strip_tokens("it does not\tmatter") is None
    assert strip_tokens("No longer used") is None
    assert strip_tokens("ſtop here, café") is None
    assert strip_tokens("do\tnot: the tab is no phrase") == _stripped_reference(
        "do\tnot: the tab is no phrase"
    )


def test_the_stripped_token_cache_gives_the_same_tokens_after_emptying_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(StrippedStems, "_CACHE_MAX", 3)
    strip_tokens = StrippedStems(StemCache())
    texts = ["never stop, avoid-it", "know not", "x never y", "never stop, avoid-it", "note"]
    for text in texts * 3:
        assert strip_tokens(text) == _stripped_reference(text)


def test_stripping_many_texts_at_once_gives_what_one_at_a_time_gives() -> None:
    # many() strips and stems every new token of all the texts in one batch first.
    rng = random.Random(6)
    words = ["not", "Never", "don't", "avoid", "stop", "know", "note", "running", "the", "a/b"]
    words += ["x-not-y", "café", "do", "NOT", "no", "longer", "runs", "ſtop"]
    texts = [
        "".join(rng.choice(words) + rng.choice(_GLUE) for _ in range(rng.randint(0, 12)))
        for _ in range(400)
    ]
    one_by_one = StrippedStems(StemCache())
    want = [one_by_one(text) for text in texts]
    assert StrippedStems(StemCache()).many(texts) == want
    assert sum(got is None for got in want) > 50  # outside ASCII or a two-word negation
    assert sum(got is not None and got.negated for got in want) > 50


def test_the_shared_stem_cache_is_kept_between_uses_but_never_used_by_two_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(negation, "_shared", [])
    with shared_stem_cache() as first:
        kept = StrippedStems.of(first)
        assert kept.many(["never stop, avoid-it"]) == [_stripped_reference("never stop, avoid-it")]
        with shared_stem_cache() as other:  # held by the plan above: a new cache of its own
            assert other is not first
            assert StrippedStems.of(other) is not kept
    with shared_stem_cache() as again:
        assert again is first
        assert StrippedStems.of(again) is kept
        assert kept.size() > 0  # what the first use stripped is still there
    assert StrippedStems.of(StemCache()) is not kept


def test_the_shared_stem_cache_is_let_go_after_a_use_that_leaves_it_large(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(negation, "_shared", [])
    monkeypatch.setattr(negation, "SHARED_KEPT_MAX", 4)
    with shared_stem_cache() as first:
        StrippedStems.of(first).many(["never"])  # one token, no stem: 1 held
    with shared_stem_cache() as second:
        assert second is first
        StrippedStems.of(second).many(["one two three"])  # 3 more tokens and 3 stems: 7
    with shared_stem_cache() as third:
        assert third is not first
        assert StrippedStems.of(third).size() == 0


def test_the_shared_stem_cache_is_let_go_after_a_use_that_leaves_long_tokens_in_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a token is as long as its text allows (a pasted blob): a few entries can hold megabytes,
    # so the bound counts characters as well as entries
    monkeypatch.setattr(negation, "_shared", [])
    monkeypatch.setattr(negation, "SHARED_KEPT_MAX_CHARS", 10_000)
    with shared_stem_cache() as first:
        StrippedStems.of(first).many(["x" * 5_000])  # 3 entries, 20,000 characters
    assert first.size() + StrippedStems.of(first).size() < negation.SHARED_KEPT_MAX
    with shared_stem_cache() as second:
        assert second is not first
