"""Negations in memory texts: the words, stripping them, and a per-token cache of what is left.

A contradiction is two same-type memories of opposite polarity (one holds a negation word,
the other none) whose texts are alike once the negations are removed. The planner asks that
of every memory, so the per-text work is done per distinct token where that gives the same
result (StrippedStems), and the whole-text pass (strip_negations) is kept for the texts where
it would not (outside ASCII, or holding a two-word negation).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from itertools import chain
from typing import NamedTuple

from memdir_nb.spec.word_stems import StemCache

# The negation words and phrases, longer alternatives before their prefixes ("no longer"
# before "no"): the pattern below and NEGATION_PHRASES are both built from this one list.
NEGATION_WORDS = (
    "never", "not", "no longer", "don't", "do not", "doesn't", "does not", "avoid", "stop",
    "without", "no",
)  # fmt: skip
NEGATION = re.compile(r"\b(" + "|".join(map(re.escape, NEGATION_WORDS)) + r")\b", re.I)
# The same words, matched in lower-cased ASCII text: on ASCII, case-insensitive matching is
# lower-casing, which keeps every offset, so the matches (and the text they leave) are the same.
NEGATION_LOWER = re.compile(NEGATION.pattern)
# The negations that span two words. Every other one lies inside one whitespace token.
NEGATION_PHRASES = tuple(w for w in NEGATION_WORDS if " " in w)


def strip_negations(text: str) -> tuple[str, bool]:
    """text lower-cased with its negation words replaced by spaces; whether it held any."""
    if text.isascii():
        stripped, n = NEGATION_LOWER.subn(" ", text.lower())
        return stripped, n > 0
    stripped, n = NEGATION.subn(" ", text)
    return stripped.lower(), n > 0


def has_negation(text: str) -> bool:
    """Whether text holds a negation word (the near-duplicate blocks' polarity)."""
    if text.isascii():
        return NEGATION_LOWER.search(text.lower()) is not None
    return NEGATION.search(text) is not None


class Stripped(NamedTuple):
    """One text once its negations are stripped."""

    tokens: set[str]  # its distinct whitespace tokens (lower-cased)
    stems: frozenset[str]  # StemCache.tokens of those tokens
    negated: bool  # whether the text held a negation


class StrippedStems:
    """Each text's distinct tokens, word stems and polarity once its negations are stripped,
    from per-token caches.

    strip_negations runs the negation pattern over every text. Outside the two-word phrases
    of NEGATION_PHRASES, a negation match is one word: it holds no whitespace, so it lies
    inside one whitespace token, and its word boundaries see the same non-word neighbours
    (whitespace or the token's ends) in the token as in the text. So on lower-cased ASCII
    text holding none of those phrases, stripping the text and splitting it gives the same
    tokens as stripping each token and splitting that. A text's stems (StemCache.tokens) are
    the union of its tokens' stems, and no word spans whitespace, so the stems of a stripped
    token's parts are the stems of the stripped token. Each distinct token is therefore
    stripped and stemmed once per plan, and a text costs a few set operations at C level.
    The caches are emptied past _CACHE_MAX entries, which changes no result.
    """

    _CACHE_MAX = 200_000

    def __init__(self, stems: StemCache) -> None:
        self._stems = stems
        # Most tokens have one stem once stripped: token -> that stem. A token with none maps
        # to None; one with several too, its stems in _multi.
        self._single: dict[str, str | None] = {}
        self._multi: dict[str, frozenset[str]] = {}
        self._multi_keys: set[str] = set()  # _multi's keys, as a set: a set & set is C-fast
        self._negated: set[str] = set()  # the tokens seen that held a negation
        self._parts: dict[str, list[str]] = {}  # such a token -> its tokens once stripped

    @classmethod
    def of(cls, stems: StemCache) -> StrippedStems:
        """The StrippedStems for stems: the shared one kept with the process's shared StemCache
        (shared_stem_cache), so the tokens one plan stripped are not stripped again; else new."""
        if _shared and _shared[0][0] is stems:
            return _shared[0][1]
        return cls(stems)

    def size(self) -> int:
        """How many tokens the caches hold."""
        return len(self._single)

    def kept_chars(self) -> int:
        """The characters of the tokens the caches hold (a negated one twice: its parts)."""
        return sum(map(len, self._single)) + sum(map(len, self._negated))

    def __call__(self, text: str) -> Stripped | None:
        """text stripped token by token; None for text that is not ASCII or holds a two-word
        negation (strip it as a whole: strip_negations)."""
        return self.many([text])[0]

    def many(self, texts: Sequence[str]) -> list[Stripped | None]:
        """[self(text) for text in texts], every token not seen before stripped and stemmed in
        one batch (StemCache.ascii_stems_many)."""
        if len(self._single) > self._CACHE_MAX:
            for cache in (self._single, self._multi, self._multi_keys, self._negated, self._parts):
                cache.clear()
        split = [_tokens(text) for text in texts]
        new = set().union(*filter(None, split)).difference(self._single)
        self._learn(list(new))
        return [None if tokens is None else self._stripped(tokens) for tokens in split]

    def _stripped(self, tokens: set[str]) -> Stripped:
        """One text's tokens stripped, from the caches (each token in them)."""
        single = self._single
        stems: set[str | None] = set(map(single.__getitem__, tokens))
        for token in tokens & self._multi_keys:  # C-level: iterates the smaller set
            stems.update(self._multi[token])
        stems.discard(None)
        negated = tokens & self._negated
        if negated:
            tokens -= negated
            for token in negated:
                tokens.update(self._parts[token])
        return Stripped(tokens, frozenset(stems), bool(negated))  # type: ignore[arg-type]  # None is gone

    def _learn(self, tokens: list[str]) -> None:
        """Strip and stem tokens not seen before. A token with no negation is stemmed by the
        StemCache's own token cache, where the near-duplicate step then finds it too."""
        plain: list[str] = []
        negated: list[str] = []
        stripped: list[str] = []  # each negated token with its negations stripped
        for token in tokens:
            text, n = NEGATION_LOWER.subn(" ", token)
            if n:
                self._negated.add(token)
                self._parts[token] = text.split()
                negated.append(token)
                stripped.append(text)
            else:
                plain.append(token)
        stemmed = zip(
            chain(plain, negated),
            chain(self._stems.token_stems(plain), self._stems.ascii_stems_many(stripped)),
            strict=True,
        )
        for token, stems in stemmed:
            self._single[token] = next(iter(stems)) if len(stems) == 1 else None
            if len(stems) > 1:
                self._multi[token] = stems
                self._multi_keys.add(token)


def _tokens(text: str) -> set[str] | None:
    """text's distinct lower-cased tokens; None for text that is not ASCII or holds a two-word
    negation (StrippedStems cannot strip those token by token)."""
    if not text.isascii():
        return None
    low = text.lower()
    if any(map(low.__contains__, NEGATION_PHRASES)):  # substring tests, no generator frames
        return None
    return set(low.split())


# The shared caches are let go after a use that leaves more than this many words and tokens in
# them, so a large dir's vocabulary is not held for the life of the process (after plans of the
# 2,000 and 20,000-file bench dirs they hold about 7,000 and 18,000: 0.9 and 2.4 MB).
SHARED_KEPT_MAX = 60_000
# ... or more than this many characters of words, stems and tokens: a token is as long as the
# text allows (8 KiB of a pasted blob), and 60,000 such entries held about 500 MB
SHARED_KEPT_MAX_CHARS = 4_000_000
_SHARED_LOCK = threading.Lock()
_shared: list[tuple[StemCache, StrippedStems]] = []  # the process's shared caches, once made


@contextmanager
def shared_stem_cache() -> Iterator[StemCache]:
    """A StemCache kept between uses, for one use at a time: a plan does not stem (or strip,
    StrippedStems.of) again the words an earlier plan of this process met.

    The caches only remember what pure functions of a word or token gave, so a plan finds the
    same stems with a kept cache as with a new one. While one thread holds the shared cache, a
    plan on another thread gets a new cache of its own (StemCache is not thread-safe).
    """
    if not _SHARED_LOCK.acquire(blocking=False):
        yield StemCache()
        return
    try:
        if not _shared:
            stems = StemCache()
            _shared.append((stems, StrippedStems(stems)))
        yield _shared[0][0]
    finally:
        if _shared and _kept_too_much(*_shared[0]):
            _shared.clear()
        _SHARED_LOCK.release()


def _kept_too_much(stems: StemCache, stripped: StrippedStems) -> bool:
    """Whether the shared caches hold past their bound, in entries or in characters."""
    if stems.size() + stripped.size() > SHARED_KEPT_MAX:
        return True
    return stems.kept_chars() + stripped.kept_chars() > SHARED_KEPT_MAX_CHARS
