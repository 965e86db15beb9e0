"""Word stems: a text's set of word stems (Snowball English), stop words left out.

The comparisons of whole dirs (spec.similarity's candidate pairs, dream's near-duplicate and
contradiction steps) compare texts by their stems, not their words: "memories" and "memory"
are one stem. StemCache stems each distinct word once, and each distinct ASCII token once,
so a dream plan of thousands of memories stems each word it meets one time.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Sequence

from memdir_nb.spec import text as textseg

__all__ = ["StemCache", "stem_sets", "stemmer_build"]

_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "but",
        "by",
        "for",
        "from",
        "has",
        "have",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "so",
        "that",
        "the",
        "then",
        "there",
        "this",
        "to",
        "was",
        "were",
        "will",
        "with",
        "we",
        "you",
        "they",
        "our",
        "your",
    ]
)


def stemmer_build() -> str:
    """Which Snowball build StemCache stems with: its module's file name (the ABI) and size
    (moved by a new release), for caches of what the stems decided (dream.disk_kept)."""
    import Stemmer

    path = getattr(Stemmer, "__file__", None) or ""
    try:
        return f"{os.path.basename(path)}:{os.stat(path).st_size}"
    except OSError:
        return os.path.basename(path)


class StemCache:
    """Word stems, each distinct word stemmed once: one per plan, shared by its steps.

    Stems for ASCII text are also kept per whitespace token ("memory," -> {"memori"}): a word
    never spans whitespace (see stem_sets), so a text's stems are the union of its distinct
    tokens' stems, and a token seen in an earlier text costs one dict lookup. Not thread-safe
    (it holds one Snowball stemmer); the caches are emptied past _CACHE_MAX entries, which
    changes no result.
    """

    _CACHE_MAX = 200_000

    def __init__(self) -> None:
        import Stemmer

        self._stemmer = Stemmer.Stemmer("english")
        self._words: dict[str, str] = {}
        # Most tokens hold one word: token -> its stem. A token with no stem (only stop words,
        # or no word) maps to None; one with several ("a/b", "x.y") too, its stems in _multi.
        self._single: dict[str, str | None] = {}
        self._multi: dict[str, frozenset[str]] = {}
        self._multi_keys: set[str] = set()  # _multi's keys, as a set: a set & set is C-fast

    def size(self) -> int:
        """How many words and tokens the caches hold."""
        return len(self._words) + len(self._single)

    def kept_chars(self) -> int:
        """The characters of the words, their stems and the tokens the caches hold: a token
        can be as long as the text it came from (a pasted blob), so the count of entries
        alone does not bound what they hold."""
        return 2 * sum(map(len, self._words)) + sum(map(len, self._single))

    def words(self, words: Collection[str]) -> frozenset[str]:
        """The stems of words (stop words are the caller's to leave out)."""
        cache = self._words
        if len(cache) > self._CACHE_MAX:
            cache.clear()
        missing = [w for w in words if w not in cache]
        if missing:
            cache.update(zip(missing, self._stemmer.stemWords(missing), strict=True))
        return frozenset(map(cache.__getitem__, words))

    def tokens(self, tokens: set[str]) -> frozenset[str]:
        """The stems of the non-stop words in a set of lower-cased ASCII whitespace tokens."""
        single, multi, multi_keys = self._single, self._multi, self._multi_keys
        if len(single) > self._CACHE_MAX:
            single.clear()
            multi.clear()
            multi_keys.clear()
        new = tokens.difference(single)  # a C-level pass (set minus dict keys)
        if new:
            self._learn(list(new))
        out: set[str | None] = set(map(single.__getitem__, tokens))
        for token in tokens & multi_keys:  # C-level: iterates the smaller set
            out.update(multi[token])
        out.discard(None)
        return frozenset(out)  # type: ignore[arg-type]  # None is gone

    def _learn(self, tokens: list[str]) -> None:
        """Stem tokens not seen before, in one batch."""
        single, multi, multi_keys = self._single, self._multi, self._multi_keys
        for token, stems in zip(tokens, self.ascii_stems_many(tokens), strict=True):
            single[token] = next(iter(stems)) if len(stems) == 1 else None
            if len(stems) > 1:
                multi[token] = stems
                multi_keys.add(token)

    def token_stems(self, tokens: list[str]) -> list[frozenset[str]]:
        """Each lower-cased ASCII token's stems (as tokens() counts them), the tokens not seen
        before stemmed in one batch and kept, so a later text holding them finds them."""
        single, multi = self._single, self._multi
        if len(single) > self._CACHE_MAX:
            single.clear()
            multi.clear()
            self._multi_keys.clear()
        self._learn([token for token in tokens if token not in single])
        return [
            multi[token] if token in multi else frozenset(filter(None, (single[token],)))
            for token in tokens
        ]

    def texts(self, texts: Sequence[str]) -> list[frozenset[str]]:
        """[self.text(text) for text in texts], the new tokens of all of them stemmed in one batch."""
        split = [set(text.lower().split()) if text.isascii() else None for text in texts]
        if len(self._single) <= self._CACHE_MAX:  # else tokens() empties the caches first
            self._learn(list(set[str]().union(*filter(None, split)).difference(self._single)))
        return [
            self.text(text) if tokens is None else self.tokens(tokens)
            for text, tokens in zip(texts, split, strict=True)
        ]

    def ascii_stems_many(self, texts: list[str]) -> list[frozenset[str]]:
        """The stems of the non-stop words of each lower-cased ASCII text (a token, or a few),
        every word not stemmed before stemmed in one call (one call per token costs more)."""
        # A token of ASCII letters and digits only is one word, which the word pattern matches
        # whole: no regex call for it (most tokens). The words not stemmed before are stemmed
        # in one call; each text's stems are then looked up (the same as self.words of each).
        words = [({text} if text.isalnum() else set(_ascii_words(text))) - _STOP for text in texts]
        self.words(set().union(*words))
        stem = self._words.__getitem__
        return [frozenset(map(stem, w)) for w in words]

    def text(self, text: str) -> frozenset[str]:
        """text's set of lower-cased word stems (Snowball English), stop words left out."""
        if text.isascii():
            # textseg.words on ASCII text is the word pattern's findall over the lower-cased
            # text, and no word holds whitespace: the same words, token by token.
            return self.tokens(set(text.lower().split()))
        return self.words({w for w in textseg.words(text) if w not in _STOP})


def _ascii_words(token: str) -> list[str]:
    """textseg.words of a lower-cased ASCII token (no CJK, nothing to normalise)."""
    return textseg.word_pattern().findall(token)


def stem_sets(texts: Iterable[str], cache: StemCache | None = None) -> list[frozenset[str]]:
    """Each text's set of lower-cased word stems (Snowball English), stop words left out."""
    cache = cache or StemCache()
    return cache.texts(list(texts))
