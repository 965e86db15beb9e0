"""Baseline selectors for the recall benchmarks: five newest, BM25 over bodies, grep over bodies.

They follow the Selector protocol (select(query, headers, recent_tools=..., cancel=...)) so they run
through the real find_relevant_memories. Bodies are read from each header's file (frontmatter
stripped) and cached per (path, mtime).

- newest-5: the five most recently modified memories, whatever the query.
- BM25 top-5: bm25s over name + description + body, top five with a positive score. Latin words
  and CJK character bigrams as tokens, no stemming, no threshold (any match is returned).
- grep: basic-memory's grep baseline re-implemented from its description. Body only (no
  frontmatter). Query terms are lower-cased `[a-z0-9][a-z0-9'-]*` tokens minus a small English
  stop list; each term adds 1 + ln(substring count) when it occurs, and the sum is multiplied by
  (matched terms / query terms)^2. Top five with a positive score. Like the original, it sees no
  CJK terms at all.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

GREP_STOP = set(
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
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
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
        "their",
        "them",
        "they",
        "this",
        "to",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)
GREP_TOKEN = re.compile(r"[a-z0-9][a-z0-9'\-]*")
WORD = re.compile(r"[^\W\d_][\w\-]+|\d[\w.\-]*", re.UNICODE)
CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+")
LIMIT = 5


def strip_frontmatter(text: str) -> str:
    """The body after a leading '---' ... '---' block (the whole text when there is none)."""
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            after = text.find("\n", end + 4)
            return text[after + 1 :] if after != -1 else ""
    return text


class _BodyReader:
    """Reads and caches memory bodies by (path, mtime)."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, float], str] = {}

    def body(self, header) -> str:
        key = (header.file_path, header.mtime_ms)
        if key not in self._cache:
            try:
                text = Path(header.file_path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            self._cache[key] = strip_frontmatter(text)
        return self._cache[key]


class NewestSelector:
    """Baseline: the five most recently modified memories, whatever the query."""

    name = "newest-5"

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.last_error: str | None = None

    def select(self, query, headers, *, recent_tools=(), cancel=None) -> list[str]:
        ordered = sorted(headers, key=lambda h: (-h.mtime_ms, h.filename))
        return [h.filename for h in ordered[: self.limit]]


def grep_score(query: str, body: str) -> float:
    """basic-memory's grep score of one body for one query (0 when no term occurs)."""
    terms = [t for t in GREP_TOKEN.findall(query.lower()) if t not in GREP_STOP]
    if not terms:
        return 0.0
    low = body.lower()
    matched, score = 0, 0.0
    for term in terms:
        count = low.count(term)
        if count:
            matched += 1
            score += 1 + math.log(count)
    return score * (matched / len(terms)) ** 2


def grep_rank(query: str, bodies: Mapping[str, str]) -> list[str]:
    """Every body with a positive grep score, best first (ties by name): LoCoMo's grep row."""
    scored = [(grep_score(query, body), name) for name, body in bodies.items()]
    return [name for s, name in sorted(scored, key=lambda r: (-r[0], r[1])) if s > 0]


class GrepSelector(_BodyReader):
    """Baseline: basic-memory's grep scoring over bodies, top five with a positive score."""

    name = "grep"

    def __init__(self, limit: int = LIMIT) -> None:
        super().__init__()
        self.limit = limit
        self.last_error: str | None = None

    def select(self, query, headers, *, recent_tools=(), cancel=None) -> list[str]:
        scored = [(grep_score(query, self.body(h)), h.filename) for h in headers]
        ranked = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], s[1]))
        return [name for _, name in ranked[: self.limit]]


def bm25_tokens(text: str) -> list[str]:
    """Lower-cased words plus CJK character bigrams (single CJK characters kept as they are)."""
    low = text.lower()
    tokens = [w for w in WORD.findall(low) if not CJK_RUN.fullmatch(w)]
    for run in CJK_RUN.findall(low):
        tokens += [run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)]
    return tokens


class BM25BodySelector(_BodyReader):
    """Baseline: bm25s over name, description and body; top five with a positive score."""

    name = "BM25 top-5"

    def __init__(self, limit: int = LIMIT) -> None:
        super().__init__()
        self.limit = limit
        self.last_error: str | None = None
        self._index: dict[tuple[tuple[str, float], ...], tuple[object, dict[str, int]]] = {}

    def _retriever(self, headers: Sequence) -> tuple[object, dict[str, int]]:
        import bm25s

        key = tuple((h.file_path, h.mtime_ms) for h in headers)
        if key not in self._index:
            corpus = [
                bm25_tokens(f"{h.name or ''} {h.description or ''} {self.body(h)}") for h in headers
            ]
            vocab: dict[str, int] = {}
            ids = [[vocab.setdefault(t, len(vocab)) for t in doc] or [0] for doc in corpus]
            retriever = bm25s.BM25()
            retriever.index(bm25s.tokenization.Tokenized(ids=ids, vocab=vocab), show_progress=False)
            self._index = {key: (retriever, vocab)}
        return self._index[key]

    def select(self, query, headers, *, recent_tools=(), cancel=None) -> list[str]:
        if not headers:
            return []
        retriever, vocab = self._retriever(headers)
        ids = [vocab[t] for t in bm25_tokens(query) if t in vocab]
        if not ids:
            return []
        scores = retriever.get_scores(ids)  # type: ignore[attr-defined]
        ranked = sorted(
            ((float(s), h.filename) for s, h in zip(scores, headers, strict=True) if s > 0),
            key=lambda s: (-s[0], s[1]),
        )
        return [name for _, name in ranked[: self.limit]]
