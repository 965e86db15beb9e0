"""SemanticSelector: the offline default, a sentence-embedding channel next to the lexical one.

For each candidate it computes two kinds of evidence and one decision:

* **semantic**: cosine similarity of the query's embedding to the memory's, taking the better of
  "name + description" and "name + description + the first 400 characters of the body". Unlike
  the Claude selector (which sees only the manifest, as the spec says), this channel reads the
  start of each body: a local model is cheap to run on it and it rescues terse descriptions.
* **lexical**: BM25 and coverage from the LexicalSelector (stemming, synonyms), unchanged.
* **decision**: a gate on the best semantic similarity (answer at all?), then a logistic model
  over a few scores with one probability cutoff (which ones?); see decision.py. The recent-tools
  rule is the lexical selector's: warnings about a tool in use are kept first, usage docs dropped.

If the model package is missing, the selector warns once (SemanticFallbackWarning) and answers
as the LexicalSelector does; `fallback_reason` says why.
"""

from __future__ import annotations

import os
import sys
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.home.config import MemdirConfig
from memdir_nb.recall.base import selector_inputs
from memdir_nb.recall.decision import DecisionModel, decide, feature_values
from memdir_nb.recall.embedding import ModelUnavailable, load_encoder
from memdir_nb.recall.lexical import LexicalOptions, LexicalSelector, ScoredMemory, filename_words
from memdir_nb.recall.vector_cache import CACHE_FILENAME, VectorCache, file_identity, text_key
from memdir_nb.spec import text as textseg
from memdir_nb.spec.constants import MAX_RELEVANT_MEMORIES
from memdir_nb.storage.containment import is_real_path_within
from memdir_nb.storage.headers import read_head_info

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from memdir_nb.formats.manifest import MemoryHeader
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.recall.embedding import MiniLMEncoder
    from memdir_nb.recall.vector_cache import VectorCache

BODY_SNIPPET_CHARS = 400  # how much of a body the semantic channel reads
_BODY_READ_BYTES = 8192  # bounded read that holds the header and the snippet
PROGRESS_MIN_TEXTS = 16  # a progress bar only when at least this many texts are encoded


class SemanticFallbackWarning(UserWarning):
    """The embedding model is unavailable, so recall uses the lexical selector."""


@dataclass(frozen=True)
class MemoryExplanation:
    """Why one memory was or was not picked: its scores and the decision."""

    filename: str
    lexical: float  # BM25 score
    coverage: float  # share of the query's IDF mass covered
    semantic: float | None  # best of the two similarities (None without the model)
    semantic_manifest: float | None
    semantic_body: float | None
    probability: float | None
    tool_class: str | None
    selected: bool
    reason: str
    features: dict[str, float] = field(default_factory=dict)


def snippet_of(body: str, limit: int = BODY_SNIPPET_CHARS) -> str:
    """The first `limit` characters of a body, whitespace collapsed."""
    return " ".join(body.split())[:limit]


def manifest_text(header: MemoryHeader) -> str:
    """What the manifest says of a memory: its name (or filename) and description."""
    title = header.name or filename_words(header.filename)
    return f"{title}. {header.description or ''}".strip()


def _root_of(header: MemoryHeader) -> str:
    """The memory dir a header was scanned from (file_path minus its relative filename)."""
    rel = header.filename.replace("/", os.sep)
    path = header.file_path
    return path[: -len(rel)].rstrip(os.sep) if path.endswith(rel) else os.path.dirname(path)


def read_snippet(header: MemoryHeader) -> tuple[os.stat_result, str]:
    """(stat, body snippet) of a memory file, read only if its real path is inside its dir."""

    real = os.path.realpath(header.file_path)
    root = os.path.realpath(_root_of(header))
    if not is_real_path_within(real, root):
        raise OSError(f"{header.filename} resolves outside the memory dir; not read")
    head = read_head_info(real, max_lines=10_000, max_bytes=_BODY_READ_BYTES, nofollow=True)
    _, body = parse_frontmatter(head.text)
    return head.stat, snippet_of(body)


class SemanticSelector:
    """Offline selector: MiniLM embeddings + BM25, a similarity gate and a logistic pick."""

    name = "semantic"

    def __init__(
        self,
        *,
        config: MemdirConfig | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        decision: DecisionModel | None = None,
        lexical_options: LexicalOptions | None = None,
        progress: bool | None = None,
        limit: int = MAX_RELEVANT_MEMORIES,
        encoder: MiniLMEncoder | None = None,
    ) -> None:
        if cache_dir is None:
            if config is None:
                config = MemdirConfig.from_environment()
            cache_dir = config.cache_root()
        self.cache_dir = Path(cache_dir)
        self.decision = decision or DecisionModel.load()
        self.lexical = LexicalSelector(lexical_options)
        self.progress = progress
        self.limit = limit
        self.last_error: str | None = None
        self.last_explanation: list[MemoryExplanation] = []
        self.fallback_reason: str | None = None
        self.last_request: dict[str, object] | None = None
        self.encoded_last_call = 0  # texts the model encoded in the last call (0 when all cached)
        self._encoder = encoder
        self._cache: VectorCache | None = None
        self._snippets: dict[str, tuple[tuple[int, int, int, int], str]] = {}
        self._queries: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"SemanticSelector(cache_dir={str(self.cache_dir)!r}, gate={self.decision.gate}, cutoff={self.decision.cutoff})"

    # -- model and cache --------------------------------------------------------------------

    def encoder(self) -> MiniLMEncoder | None:
        """The shared encoder, or None (after one warning) when the model cannot be loaded."""
        if self._encoder is None and self.fallback_reason is None:
            try:
                self._encoder = load_encoder()
            except ModelUnavailable as err:
                self.fallback_reason = str(err)
                warnings.warn(
                    f"semantic recall is off, using the lexical selector instead: {err}",
                    SemanticFallbackWarning,
                    stacklevel=3,
                )
        return self._encoder

    def vector_cache(self) -> VectorCache:
        """The on-disk vector cache under cache_dir, opened on first use."""
        if self._cache is None:
            self._cache = VectorCache(self.cache_dir / CACHE_FILENAME)
        return self._cache

    def _snippets_for(self, headers: Sequence[MemoryHeader]) -> list[str]:
        """Body snippets, re-read only for files whose (dev, ino, size, mtime_ns) changed."""

        out: list[str | None] = [None] * len(headers)
        idents: dict[str, tuple[int, int, int, int]] = {}
        for i, header in enumerate(headers):
            try:
                ident = file_identity(os.stat(header.file_path))
            except OSError:
                out[i] = ""
                continue
            held = self._snippets.get(header.file_path)
            if held is not None and held[0] == ident:
                out[i] = held[1]
            else:
                idents[header.file_path] = ident
        if idents:
            cache = self.vector_cache()
            stored = cache.get_snippets(idents)
            fresh: dict[str, tuple[tuple[int, int, int, int], str]] = {}
            for i, header in enumerate(headers):
                path = header.file_path
                if out[i] is not None or path not in idents:
                    continue
                if path in stored:
                    out[i] = stored[path]
                    self._snippets[path] = (idents[path], stored[path])
                    continue
                try:
                    st, snippet = read_snippet(header)
                except (OSError, ValueError):
                    out[i] = ""
                    continue
                out[i] = snippet
                fresh[path] = self._snippets[path] = (file_identity(st), snippet)
            cache.put_snippets(fresh)
        return [s or "" for s in out]

    def _embed(
        self,
        encoder: MiniLMEncoder,
        texts: Sequence[str],
        cancel: threading.Event | None = None,
    ) -> np.ndarray:
        """Vectors for texts: from the cache where present, the rest encoded (with a bar if many)."""
        import numpy as np

        cache = self.vector_cache()
        keys = [text_key(encoder.weights_sha256, t) for t in texts]
        found = cache.get_vectors(keys)
        todo = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in found))
        self.encoded_last_call = len(todo)
        if todo:
            show = self.progress
            if show is None:
                show = len(todo) >= PROGRESS_MIN_TEXTS and sys.stderr.isatty()
            bar: Any = None
            if show:
                from tqdm.auto import tqdm

                bar = tqdm(total=len(todo), desc="encoding memories", unit="text")
            try:
                vectors = encoder.encode(todo, progress=bar, cancel=cancel)
            finally:
                if bar is not None:
                    bar.close()
            new = {
                text_key(encoder.weights_sha256, t): v for t, v in zip(todo, vectors, strict=True)
            }
            cache.put_vectors(new)
            found.update(new)
        return np.stack([found[k] for k in keys]) if keys else np.zeros((0, 384), np.float32)

    def _query_vector(self, encoder: MiniLMEncoder, query: str) -> np.ndarray:
        vec = self._queries.get(query)
        if vec is None:
            if len(self._queries) > 256:
                self._queries.clear()
            vec = self._queries[query] = encoder.encode([query])[0]
        return vec

    def similarities(
        self,
        query: str,
        headers: Sequence[MemoryHeader],
        cancel: threading.Event | None = None,
    ) -> tuple[list[float], list[float]] | None:
        """(manifest, manifest+body) cosine similarities per header, or None without the model."""
        encoder = self.encoder()
        if encoder is None:
            return None
        with self._lock:
            snippets = self._snippets_for(headers)
            manifests = [manifest_text(h) for h in headers]
            bodies = [
                f"{m} {s}".strip() if s else m for m, s in zip(manifests, snippets, strict=True)
            ]
            vectors = self._embed(encoder, manifests + bodies, cancel)
            q = self._query_vector(encoder, query)
        sims = vectors @ q
        n = len(headers)
        return [float(v) for v in sims[:n]], [float(v) for v in sims[n:]]

    # -- selection --------------------------------------------------------------------------

    def select(
        self,
        query: str,
        headers: Sequence[MemoryHeader],
        *,
        recent_tools: Sequence[str] = (),
        cancel: threading.Event | None = None,
    ) -> list[str]:
        """Up to `limit` filenames judged relevant, best first (tool warnings lead)."""
        self.last_error = None
        # the inputs this call ranked (the offline twin of AnthropicSelector.last_request)
        self.last_request = selector_inputs("semantic", query, headers, recent_tools)
        explained = self.score(query, headers, recent_tools=recent_tools, cancel=cancel)
        self.last_explanation = explained
        return [e.filename for e in explained if e.selected]

    def score(
        self,
        query: str,
        headers: Sequence[MemoryHeader],
        *,
        recent_tools: Sequence[str] = (),
        cancel: threading.Event | None = None,
    ) -> list[MemoryExplanation]:
        """Every candidate's scores and decision, picked ones first (RecallCancelled if cancelled)."""
        headers = sorted(headers, key=lambda h: h.filename)
        if not headers:
            return []
        lexical = {
            s.filename: s for s in self.lexical.score(query, headers, recent_tools=recent_tools)
        }
        if textseg.mostly_cjk(query):
            # The embedding model was trained on English: its similarities for Chinese, Japanese
            # or Korean text are too low for the gate, so the lexical channel (which segments
            # CJK text) decides such a query on its own.
            return self._lexical_only(headers, lexical, why="CJK query, lexical channel")
        sims = self.similarities(query, headers, cancel)
        if sims is None:
            return self._lexical_only(headers, lexical)
        return self._decide(headers, lexical, *sims)

    def _lexical_only(
        self,
        headers: Sequence[MemoryHeader],
        lexical: dict[str, ScoredMemory],
        *,
        why: str = "lexical fallback (no model)",
    ) -> list[MemoryExplanation]:
        """The lexical selector's own verdicts, explained (no model, or a CJK query)."""
        ordered = sorted(lexical.values(), key=lambda s: (not s.selected,))
        return explain_lexical(ordered, why=why)

    def _decide(
        self,
        headers: Sequence[MemoryHeader],
        lexical: dict[str, ScoredMemory],
        manifest_sims: list[float],
        body_sims: list[float],
    ) -> list[MemoryExplanation]:
        """Features per candidate, then the shared decision (decision.decide) explained."""
        model = self.decision
        best_sims = [max(a, b) for a, b in zip(manifest_sims, body_sims, strict=True)]
        rows = [lexical[h.filename] for h in headers]
        eligible = [i for i, r in enumerate(rows) if r.tool_class != "usage"]
        best_sem = max((best_sims[i] for i in eligible), default=0.0)
        best_bm25 = max((rows[i].score for i in eligible), default=0.0)
        pool = [best_sims[i] for i in eligible] or [0.0]
        mean = sum(pool) / len(pool)
        std = (sum((v - mean) ** 2 for v in pool) / len(pool)) ** 0.5
        features = [
            feature_values(
                best_sims[i],
                best_sem,
                row.score,
                best_bm25,
                row.coverage,
                saturation=model.bm25_saturation,
                semantic_mean=mean,
                semantic_std=std,
            )
            for i, row in enumerate(rows)
        ]
        verdicts = decide(
            [
                (h.filename, best_sims[i], rows[i].tool_class, features[i])
                for i, h in enumerate(headers)
            ],
            model,
            limit=self.limit,
        )
        index = {h.filename: i for i, h in enumerate(headers)}
        out = []
        for v in verdicts:
            i = index[v.filename]
            row = rows[i]
            out.append(
                MemoryExplanation(
                    v.filename,
                    row.score,
                    row.coverage,
                    best_sims[i],
                    manifest_sims[i],
                    body_sims[i],
                    v.probability,
                    row.tool_class,
                    v.selected,
                    v.reason,
                    features[i],
                )
            )
        return out


def explain_lexical(
    scores: Sequence[ScoredMemory], *, why: str = "lexical threshold"
) -> list[MemoryExplanation]:
    """The lexical selector's verdicts as explanations (no semantic scores)."""
    out = []
    for s in scores:
        if s.tool_class is not None:
            reason = _tool_reason(s.tool_class, s.selected)
        else:
            reason = f"{why}: " + (
                "picked" if s.selected else "below the coverage or relative score"
            )
        out.append(
            MemoryExplanation(
                s.filename,
                s.score,
                s.coverage,
                None,
                None,
                None,
                None,
                s.tool_class,
                s.selected,
                reason,
            )
        )
    return out


def _tool_reason(tool_class: str, selected: bool) -> str:
    if tool_class == "warning":
        return "recent-tools rule: a warning about a tool in use (kept, ranked first)"
    return "recent-tools rule: usage notes for a tool already in use (skipped)"
