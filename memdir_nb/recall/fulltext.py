"""The full-text lexical channel: BM25 (bm25s) over a memory's name, description and whole body.

Terms are those of the lexical selector (`lexical.tokens`: words of any script with CJK runs
cut into two-character pieces, stopwords dropped, Snowball stemming, synonym concept tokens),
so a query matches a fact wherever it sits in the body. The name is counted twice, as in the
manifest-only lexical selector.

`FullTextIndex` is built once for a set of documents and then answers queries in well under a
millisecond; the semantic selector keeps one per memory dir in-process and rebuilds it only
when a file's identity (path, device, inode, size, mtime_ns) changes.
"""

from __future__ import annotations

import hashlib
import importlib
import math
import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from memdir_nb.recall.lexical import LexicalOptions, import_bm25s, tokens
from memdir_nb.spec.records import Record

BM25_K1 = 1.5
BM25_B = 0.75
# IDF is computed as if the dir held at least this many memories, the extra ones without the
# term. In a dir of two memories Lucene's IDF gives a word found in one of them 0.7 (4.9 in a
# dir of 200), so every full-text score of a small dir looked weak to the calibrated decision,
# whatever the match. 100 was chosen leave-one-dir-out on the tuning dirs (docs/selection.md,
# "IDF as if the dir held at least 100 memories"); dirs of 100 or more are unchanged.
IDF_MIN_DOCS = 100
# ... except a word that every memory of a dir of at least this many holds: the dir itself says
# it tells no memory apart (the two friends' names in every session of a chat log), so it gets
# the dir's own IDF, about 0. Rule F, pre-registered and adopted on the tuning dirs
# (docs/selection.md, "Twenty-eighth session (lead): rule F").
DIR_WIDE_MIN_DOCS = 5


def document_terms(
    name: str,
    description: str,
    type_text: str,
    file_words: str,
    body: str,
    options: LexicalOptions,
) -> list[str]:
    """A memory's index terms: name (weighted), description, type, filename and the body."""
    return (
        tokens(name, options) * max(1, options.name_weight)
        + tokens(description, options)
        + tokens(type_text, options)
        + tokens(file_words, options)
        + tokens(body, options)
    )


# The code a memory's terms depend on: the tokenizer, its word lists, the text segmenter and
# this module (document_terms); and the stemmer, a compiled extension.
_TERM_SOURCES = (
    "memdir_nb.recall.fulltext",
    "memdir_nb.recall.languages",
    "memdir_nb.recall.lexical",
    "memdir_nb.recall.vocabulary",
    "memdir_nb.spec.text",
)
_TERM_SEP = "\x1f"  # between the terms of one list (a term is made of word characters)
_LIST_SEP = "\n"  # between the lists: the document's, then one per window


@lru_cache(maxsize=1)
def terms_fingerprint() -> str:
    """A digest of the code that makes terms, so stored terms die with any change to it
    (the windows' own text is in each memory's digest, so their cutting is covered too).

    It hashes the sources of the modules in _TERM_SOURCES and the stemmer's file identity (size
    and mtime: an upgrade installs a new file). Computed once per process (about 0.5 ms).
    When a source cannot be read, the value is this process's own, and no stored terms match.
    """
    import Stemmer

    digest = hashlib.blake2b(digest_size=16)
    try:
        for name in _TERM_SOURCES:
            digest.update(name.encode() + b"\0")
            with open(importlib.import_module(name).__file__ or "", "rb") as handle:
                digest.update(handle.read())
        st = os.stat(Stemmer.__file__ or "")
        digest.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
    except (OSError, AttributeError):
        # Code that cannot be read (a frozen or zipped install) cannot be fingerprinted: a value
        # of this process alone, so stored terms are never trusted, only made again.
        return "unverified-" + os.urandom(8).hex()
    return digest.hexdigest()


def terms_digest(fields: Sequence[str], windows: Sequence[str], options: LexicalOptions) -> str:
    """What a memory's stored terms were made from: code, options, header fields and windows."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(terms_fingerprint().encode())
    digest.update(repr(options).encode())
    for part in (*fields, *windows):
        digest.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def pack_terms(
    digest: str, terms: Sequence[str], window_terms: Sequence[frozenset[str]]
) -> str | None:
    """The stored form of a memory's terms (None when a term is empty or holds a separator:
    such terms are not stored)."""
    lists = [terms, *(sorted(w) for w in window_terms)]
    if any(not t or _TERM_SEP in t or _LIST_SEP in t for terms_of in lists for t in terms_of):
        return None
    return _LIST_SEP.join([digest, *(_TERM_SEP.join(terms_of) for terms_of in lists)])


def unpack_terms(
    stored: str, digest: str, windows: int
) -> tuple[tuple[str, ...], tuple[frozenset[str], ...]] | None:
    """Terms and window terms from pack_terms' form, or None unless made from `digest` with
    `windows` windows."""
    lists = stored.split(_LIST_SEP)
    if len(lists) != windows + 2 or lists[0] != digest:
        return None
    split = [tuple(part.split(_TERM_SEP)) if part else () for part in lists[1:]]
    return split[0], tuple(frozenset(w) for w in split[1:])


class LexicalHit(Record, frozen=True):
    """One document's full-text figures for a query."""

    score: float  # BM25
    coverage: float  # share of the query's IDF mass the document's terms cover
    matched: tuple[str, ...]  # the query terms it holds


def lucene_idf(documents: int, containing: int) -> float:
    """Lucene's BM25 IDF of a term found in `containing` of `documents` (bm25s's default)."""
    return math.log(1 + (documents - containing + 0.5) / (containing + 0.5))


class FullTextIndex:
    """BM25 over fixed documents (term lists), with document frequencies for coverage."""

    def __init__(self, documents: Sequence[Sequence[str]]) -> None:
        bm25s = import_bm25s()
        self.size = len(documents)
        self.term_sets = [frozenset(d) for d in documents]
        # term -> the documents holding it, in index order (its length is the term's df)
        self.postings: dict[str, list[int]] = {}
        for i, terms in enumerate(self.term_sets):
            for term in terms:
                self.postings.setdefault(term, []).append(i)
        self.df: dict[str, int] = {t: len(docs) for t, docs in self.postings.items()}
        self._retriever: Any = None
        if self.size:
            self._retriever = bm25s.BM25(k1=BM25_K1, b=BM25_B)
            self._retriever.index([list(d) if d else [""] for d in documents], show_progress=False)

    def idf(self, term: str) -> float:
        """Lucene's BM25 IDF over at least IDF_MIN_DOCS documents; a term in none gets the largest
        value, a term in every document of a dir of DIR_WIDE_MIN_DOCS or more the dir's own."""
        df = self.df.get(term, 0)
        if self.size >= DIR_WIDE_MIN_DOCS and df == self.size:
            return lucene_idf(self.size, df)
        return lucene_idf(max(self.size, IDF_MIN_DOCS), df)

    def bm25(self, known: Sequence[str]) -> list[float]:
        """Every document's BM25 for terms the index holds, with `idf` as each term's weight.

        bm25s weighs a term by Lucene's IDF over the real document count; below IDF_MIN_DOCS
        each term's scores are rescaled to `idf`'s weight (bm25s's per-document score of a term
        is that IDF times the term-frequency part, so the rescale is exact).
        """
        if not known or self._retriever is None:
            return [0.0] * self.size
        if self.size >= IDF_MIN_DOCS:
            scores: list[float] = self._retriever.get_scores(list(known)).tolist()
            return scores
        total = None
        for term in known:
            ratio = self.idf(term) / lucene_idf(self.size, self.df[term])
            part = self._retriever.get_scores([term]) * ratio
            total = part if total is None else total + part
        return [float(s) for s in total] if total is not None else [0.0] * self.size

    def search(self, query_terms: Sequence[str]) -> list[LexicalHit]:
        """Every document's BM25, coverage and matched terms for the query terms, in index order."""
        terms = list(dict.fromkeys(query_terms))
        known = [t for t in terms if t in self.df]
        scores = self.bm25(known)
        # Concept tokens stand in for words already in the query: they add to what a memory
        # covers but not to the query's own mass.
        weights = {t: self.idf(t) for t in terms}
        mass = sum(w for t, w in weights.items() if not t.startswith("syn_"))
        # Each document's matched terms in the query's order, from the postings of the query's
        # terms: a warm recall's query holds a few terms, a dir hundreds of documents.
        matched: dict[int, list[str]] = {}
        for term in known:
            for i in self.postings[term]:
                matched.setdefault(i, []).append(term)
        out = [LexicalHit(score, 0.0, ()) for score in scores]
        for i, held in matched.items():
            covered = sum(map(weights.__getitem__, held))
            coverage = min(1.0, covered / mass) if mass else 0.0
            out[i] = LexicalHit(scores[i], coverage, tuple(held))
        return out


def window_coverage(
    index: FullTextIndex, window_terms: Sequence[frozenset[str]], query_terms: Sequence[str]
) -> float:
    """The largest share of the query's IDF mass that one window of the body holds.

    All of a query's words in one place ("sleep", "10 minutes") is stronger evidence than the
    same words scattered over a long body; BM25 and whole-memory coverage cannot tell the two
    apart.
    """
    terms = list(dict.fromkeys(query_terms))
    weights = {t: index.idf(t) for t in terms}
    mass = sum(w for t, w in weights.items() if not t.startswith("syn_"))
    if not mass or not window_terms:
        return 0.0
    best = max(sum(w for t, w in weights.items() if t in window) for window in window_terms)
    return min(1.0, best / mass)


def best_lexical_window(
    windows: Sequence[str], query_terms: Sequence[str], options: LexicalOptions
) -> int | None:
    """Index of the window holding the most distinct query terms (None when none holds one)."""
    wanted = set(query_terms)
    best, best_count = None, 0
    for i, window in enumerate(windows):
        count = len(wanted.intersection(tokens(window, options)))
        if count > best_count:
            best, best_count = i, count
    return best
