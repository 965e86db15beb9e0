"""SemanticSelector: the offline default, reading whole memories through two channels.

For each candidate it computes two kinds of evidence and one decision:

* **semantic**: cosine similarity of the query's embedding to the memory's manifest (name +
  description) and to every window of its body (a few sentences each, see passages.py); the
  memory scores its best. The explanation names the window that matched. Unlike the Claude
  selector (which sees only the manifest, as the spec says), this channel reads whole bodies:
  every body in a dir of up to 40 memories, and in a larger one the bodies of the query's
  shortlist (shortlist.py: the best by manifest, by BM25 and by window terms), so a first
  call on a large dir encodes a fraction of its windows. `prepare` encodes them all.
* **lexical**: full-text BM25 (bm25s) and query coverage over name, description and the whole
  bounded body, with the lexical selector's terms (CJK pieces, stemming, synonyms).
* **decision**: an evidence gate (answer at all?) and a pick model whose calibrated probabilities
  give the set with the best expected F-measure (which ones?), over absolute scores and the gap
  to the best; see decision.py. The
  recent-tools rule is the lexical selector's: warnings about a tool in use are kept first,
  usage docs dropped.

Bodies, windows, terms, the BM25 index and the vectors are kept per file (path + identity) in
dir_index.DirIndex and in the on-disk VectorCache, so a warm call reads and encodes nothing
(in a large dir: nothing once the bodies its shortlist names have been encoded).
If the model package is missing, the selector warns once (SemanticFallbackWarning) and decides
from the full-text channel alone (full_text_fallback.py); `fallback_reason` says why.
"""

from __future__ import annotations

import os
import sys
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdir_nb.home.config import MemdirConfig
from memdir_nb.home.paths import derived_output_problem
from memdir_nb.machine import one_blas_thread
from memdir_nb.recall.base import check_headers, selector_inputs
from memdir_nb.recall.decision import DecisionModel, decide, feature_values
from memdir_nb.recall.dir_index import DirIndex, MemoryDoc, best_windows, manifest_text
from memdir_nb.recall.embedding import EMBEDDING_DIM, load_encoder
from memdir_nb.recall.explain_selection import MemoryExplanation
from memdir_nb.recall.full_text_fallback import full_text_fallback
from memdir_nb.recall.fulltext import LexicalHit, best_lexical_window
from memdir_nb.recall.lexical import LexicalOptions, tokens, tool_key
from memdir_nb.recall.model_files import ModelUnavailable
from memdir_nb.recall.shortlist import body_shortlist
from memdir_nb.recall.tool_classes import tool_classes
from memdir_nb.recall.vector_cache import CACHE_FILENAME, VectorCache, text_key
from memdir_nb.spec import scripts
from memdir_nb.spec.constants import MAX_RELEVANT_MEMORIES

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from memdir_nb.formats.manifest import MemoryHeader
    from memdir_nb.recall.embedding import MiniLMEncoder

__all__ = [
    "MemoryExplanation",
    "SemanticFallbackWarning",
    "SemanticSelector",
    "VectorCacheWarning",
    "manifest_text",
]

PROGRESS_MIN_TEXTS = 16  # a progress bar only when at least this many texts are encoded
# The reason's note for a memory whose body the encoder did not compare (see shortlist.py).
NOT_SHORTLISTED = "body not compared by the encoder (not on this query's shortlist)"


class SemanticFallbackWarning(UserWarning):
    """The embedding model is unavailable, so recall uses the lexical selector."""


class VectorCacheWarning(UserWarning):
    """The vector cache folder cannot be used, so vectors are kept in memory only."""


def _full_text_route(query: str) -> str | None:
    """Why the full-text channel decides `query` alone (its reason's opening words), else None.

    The embedding model was trained on English. For Chinese, Japanese or Korean text its
    similarities are too low for the gate; for Cyrillic and the other alphabets outside Latin it
    scores unrelated texts alike (0.6 or more between Russian texts on different subjects), so no
    gate can tell a fitting memory from none. The full-text channel, which segments CJK text and
    matches any script's words, decides such a query with its own model.
    """
    if scripts.mostly_cjk(query):
        return "CJK query"
    if scripts.mostly_other_script(query):
        return "query not in Latin script"
    return None


class SemanticSelector:
    """Offline selector: full-text BM25 + MiniLM over body windows, an evidence gate and a logistic pick."""

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
        shortlist: bool = True,
    ) -> None:
        if cache_dir is None:
            cache_dir = (config or MemdirConfig.from_environment()).cache_root()
        else:  # an explicit folder, held to MEMDIR_NB_CACHE_DIR's rule (bounds37)
            why = derived_output_problem(cache_dir, config)
            if why:
                raise ValueError(
                    f"cache_dir {os.fspath(cache_dir)!r} {why}; nothing was written. The "
                    "vector cache keeps the text of memories recalled: pass a folder outside "
                    "every memory dir, or leave cache_dir out for MemdirConfig.cache_root()"
                )
        self.cache_dir = Path(cache_dir)
        self.decision = decision or DecisionModel.load()
        self.options = lexical_options or LexicalOptions()
        self.progress = progress
        self.limit = limit
        self.shortlist = shortlist  # False: every body compared, however large the dir
        self.last_error: str | None = None
        self.last_explanation: list[MemoryExplanation] = []
        self.fallback_reason: str | None = None
        self.last_request: dict[str, object] | None = None
        self.encoded_last_call = 0  # texts the model encoded in the last call (0 when all cached)
        self._encoded = 0  # texts encoded so far by the call under way
        self._encoder = encoder
        self._cache: VectorCache | None = None
        self._cache_problem_said = False
        self._index: DirIndex | None = None
        self._queries: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"SemanticSelector(cache_dir={str(self.cache_dir)!r}, gate={self.decision.gate}, beta={self.decision.beta})"

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
        if self._cache.problem and not self._cache_problem_said:
            # An unwritable XDG_CACHE_HOME or HOME: recall goes on, and says so once.
            self._cache_problem_said = True
            warnings.warn(self._cache.problem, VectorCacheWarning, stacklevel=3)
        return self._cache

    def dir_index(self) -> DirIndex:
        """The in-process per-file documents and per-set indexes (bodies, terms, BM25, vectors)."""
        if self._index is None:
            self._index = DirIndex(self.vector_cache(), self.options)
        return self._index

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
        self._encoded += len(todo)
        if todo:
            show = self.progress
            if show is None:
                show = len(todo) >= PROGRESS_MIN_TEXTS and sys.stderr.isatty()
            bar: Any = None
            if show:
                from tqdm.auto import tqdm

                bar = tqdm(total=len(todo), desc="encoding memories", unit="text", file=sys.stderr)
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
        if not keys:
            return np.zeros((0, EMBEDDING_DIM), np.float32)
        return np.stack([found[k] for k in keys])

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
        *,
        full_text: Sequence[float] | None = None,
        window_terms: Sequence[float] | None = None,
        _docs: Sequence[MemoryDoc] | None = None,
        _key: tuple[object, ...] | None = None,
    ) -> tuple[list[float], list[float], list[int | None]] | None:
        """(manifest, best window, best window's index) per header, or None without the model.

        With the full-text channel's scores (`full_text`: BM25, `window_terms`: the best window's
        share of the query's terms, one per header), only the bodies of the shortlist are
        compared (shortlist.body_shortlist); a memory outside it has no window (-1, None).
        Without them, or on a selector made with shortlist=False, every body is compared.
        """
        got = self._similarities(query, headers, cancel, full_text, window_terms, _docs, _key)
        return None if got is None else got[:3]

    def _similarities(
        self,
        query: str,
        headers: Sequence[MemoryHeader],
        cancel: threading.Event | None,
        full_text: Sequence[float] | None,
        window_terms: Sequence[float] | None,
        _docs: Sequence[MemoryDoc] | None,
        _key: tuple[object, ...] | None,
    ) -> tuple[list[float], list[float], list[int | None], frozenset[int] | None] | None:
        """similarities(), and the positions whose bodies were compared (None: all)."""
        encoder = self.encoder()
        if encoder is None:
            return None

        def embed(texts: Sequence[str]) -> np.ndarray:
            return self._embed(encoder, texts, cancel)

        index = self.dir_index()
        docs: Sequence[MemoryDoc]
        if _docs is None:
            docs, key = index.documents_and_key(headers)
        else:  # the caller's key when it has one (`score` made it with the documents)
            docs = _docs
            key = index.set_key(headers, _docs) if _key is None else _key
        with self._lock:
            self.encoded_last_call = 0
            self._encoded = 0
            manifests = index.manifest_vectors(key, headers, embed)
            q = self._query_vector(encoder, query)
            with one_blas_thread():
                manifest: list[float] = (manifests @ q).tolist()
            chosen = None
            if self.shortlist and full_text is not None and window_terms is not None:
                chosen = body_shortlist(manifest, full_text, window_terms)
            vectors = index.vectors(key, headers, docs, embed, chosen)
            self.encoded_last_call = self._encoded
        with one_blas_thread():  # a spinning second BLAS thread costs ms on a busy machine
            best, where = best_windows(vectors, q)
        return manifest, best, where, None if chosen is None else frozenset(chosen)

    def prepare(
        self, headers: Sequence[MemoryHeader], cancel: threading.Event | None = None
    ) -> int:
        """Encode every manifest line and every body window of headers now (with a progress bar
        when many), so that no later call waits on the encoder; returns the texts encoded."""
        check_headers(headers, "SemanticSelector.prepare()")
        encoder = self.encoder()
        if encoder is None:
            return 0
        headers = sorted(headers, key=lambda h: h.filename)
        index = self.dir_index()
        docs, key = index.documents_and_key(headers)
        with self._lock:
            self._encoded = 0
            index.vectors(key, headers, docs, lambda t: self._embed(encoder, t, cancel))
            return self._encoded

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
        check_headers(headers, "SemanticSelector.score()")
        headers = sorted(headers, key=lambda h: h.filename)
        if not headers:
            return []
        index = self.dir_index()
        docs, key = index.documents_and_key(headers)
        fulltext = index.fulltext(key, docs)
        query_terms = list(dict.fromkeys(tokens(query, self.options)))
        hits = fulltext.search(query_terms)
        keys = [tool_key(t) for t in recent_tools if t.strip()] if self.options.tool_rule else []
        classes = tool_classes(headers, keys)
        route = _full_text_route(query)
        if route is not None:
            why = f"{route}, full-text channel"
            if self.decision.full_text is None:
                return full_text_fallback(
                    headers, docs, hits, classes, query_terms, self.options,
                    limit=self.limit, why=why,
                )  # fmt: skip
            local = index.window_terms(key, docs).coverage(fulltext, query_terms)
            zeros = [0.0] * len(headers)
            nowhere: list[int | None] = [None] * len(headers)
            return self._decide(
                headers, docs, hits, classes, local, zeros, zeros, nowhere,
                lexical=query_terms, route=route,
            )  # fmt: skip
        local = index.window_terms(key, docs).coverage(fulltext, query_terms)
        bm25 = [h.score for h in hits]
        sims = self._similarities(query, headers, cancel, bm25, local, docs, key)
        if sims is None:
            why = "full-text fallback (no model)"
            return full_text_fallback(
                headers, docs, hits, classes, query_terms, self.options, limit=self.limit, why=why
            )
        manifest, best, where, compared = sims
        return self._decide(
            headers, docs, hits, classes, local, manifest, best, where, compared=compared
        )

    def _decide(
        self,
        headers: Sequence[MemoryHeader],
        docs: Sequence[MemoryDoc],
        hits: Sequence[LexicalHit],
        classes: Sequence[str | None],
        local: Sequence[float],
        manifest_sims: list[float],
        window_sims: list[float],
        window_at: list[int | None],
        *,
        lexical: Sequence[str] | None = None,
        route: str = "",
        compared: frozenset[int] | None = None,
    ) -> list[MemoryExplanation]:
        """Features per candidate, then the shared decision (decision.decide) explained.

        `compared`: the positions whose bodies the encoder compared (None: all); the reason of
        a memory with a body outside them says so.

        With `lexical` (the terms of a query `route` sends to the full-text channel) the
        full-text model decides from the full-text features alone, and a picked memory's window
        is the one holding most query terms.
        """
        model = self.decision if lexical is None else self.decision.full_text
        assert model is not None
        best_sims = list(map(max, manifest_sims, window_sims))  # equal lengths: one per header
        eligible = [i for i, c in enumerate(classes) if c != "usage"]
        best_sem = max((best_sims[i] for i in eligible), default=0.0)
        best_bm25 = max((hits[i].score for i in eligible), default=0.0)
        features = [
            feature_values(
                best_sims[i],
                best_sem,
                hit.score,
                best_bm25,
                hit.coverage,
                saturation=model.bm25_saturation,
                coverage_window=local[i],
                manifest=manifest_sims[i],
                window=window_sims[i] if window_at[i] is not None else 0.0,
            )
            for i, hit in enumerate(hits)
        ]
        verdicts = decide(
            [(h.filename, classes[i], features[i]) for i, h in enumerate(headers)],
            model,
            limit=self.limit,
        )
        index = {h.filename: i for i, h in enumerate(headers)}
        out = []
        sem = lexical is None
        unread = "; " + NOT_SHORTLISTED
        for v in verdicts:
            i = index[v.filename]
            at = window_at[i]
            if lexical is not None and v.selected:
                at = best_lexical_window(docs[i].windows, lexical, self.options)
            reason = v.reason if sem else f"{route}, full-text model: {v.reason}"
            if compared is not None and i not in compared and docs[i].windows:
                reason += unread
            out.append(
                MemoryExplanation(
                    v.filename,
                    hits[i].score,
                    hits[i].coverage,
                    best_sims[i] if sem else None,
                    manifest_sims[i] if sem else None,
                    window_sims[i] if sem and at is not None else None,
                    v.probability,
                    classes[i],
                    v.selected,
                    reason,
                    features[i],
                    docs[i].windows[at] if at is not None else None,
                    at,
                    v.evidence,
                )
            )
        return out
