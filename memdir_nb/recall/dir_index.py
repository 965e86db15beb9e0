"""What the offline selector knows about a memory dir, kept between calls and rebuilt only where files changed.

For each memory file, keyed by its path and identity (device, inode, size, mtime_ns):

* its body (the whole file, bounded by MEMORY_FILE_READ_MAX_BYTES) and the windows cut from it,
  held in-process and in the on-disk cache (`VectorCache` snippets table), so an unchanged file
  is not read again, even by a new process;
* its full-text terms (name, description, type, filename, body) and each window's, kept in the
  same table beside the body with a digest of what made them (fulltext.terms_digest: the code,
  the options, the header fields and the text), so a new process does not tokenize an
  unchanged dir again.

For the whole set of candidates (one key per file: identity and manifest fields), one
`FullTextIndex` and one matrix of manifest vectors, rebuilt when any file of the set changes.
Window vectors are kept per file, and encoded only for the memories a query's body shortlist
names (shortlist.py; every memory in a small dir). Vectors come from the `VectorCache` by text,
so a rebuild encodes only the texts that are new.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memdir_nb.recall.fulltext import (
    FullTextIndex,
    document_terms,
    pack_terms,
    terms_digest,
    unpack_terms,
)
from memdir_nb.recall.lexical import (
    LexicalOptions,
    header_text,
    remembered_filename_words,
    tokens,
)
from memdir_nb.recall.passages import body_windows, read_body
from memdir_nb.recall.vector_cache import FileIdentity, VectorCache, file_identity
from memdir_nb.spec.bounded_cache import ByteBoundedLRU, weight_of
from memdir_nb.spec.constants import CACHE_BODIES_MAX_BYTES

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from memdir_nb.formats.manifest import MemoryHeader

_BODY_KEY = "body\0"  # bodies share the snippets table under their own key prefix
_TERMS_KEY = "terms\0"  # and so do their full-text terms (fulltext.pack_terms' form)
_MAX_DOCS = 20_000  # in-process documents kept, at most (and CACHE_BODIES_MAX_BYTES of them)
_MAX_WINDOW_ROWS = 20_000  # window vectors kept in-process (about 30 MB: two full 200-memory dirs)


@dataclass(frozen=True)
class MemoryDoc:
    """One memory file as read: identity, body, windows and full-text terms."""

    identity: FileIdentity | None  # None: the file could not be read (scored on its header)
    body: str
    windows: tuple[str, ...]
    terms: tuple[str, ...]
    window_terms: tuple[frozenset[str], ...] = ()  # each window's full-text terms


def _doc_weight(key: str, held: tuple[tuple[str, str, str, str], MemoryDoc]) -> int:
    """The bytes a kept document holds: its path, header fields, body, windows and terms."""
    fields, doc = held
    return (
        weight_of(key)
        + weight_of(fields)
        + weight_of(doc.body)
        + weight_of(doc.windows)
        + weight_of(doc.terms)
        + weight_of(doc.window_terms)
    )


@dataclass(frozen=True)
class DirVectors:
    """Vectors of one candidate set: manifests (one row per memory), windows, and their owners."""

    manifests: np.ndarray  # (n, 384)
    windows: np.ndarray  # (w, 384)
    offsets: tuple[int, ...]  # memory i owns window rows offsets[i]:offsets[i+1]


def manifest_text(header: MemoryHeader) -> str:
    """What the manifest says of a memory: its name (or filename) and description."""
    title = header.name or remembered_filename_words(header.filename)
    return f"{title}. {header.description or ''}".strip()


def window_texts(header: MemoryHeader, windows: Sequence[str]) -> list[str]:
    """What is encoded for each window: the window after the memory's title, so it is read as
    part of its memory ("Languages: point out ..."); the manifest line has its own vector."""
    title = header.name or remembered_filename_words(header.filename)
    return [f"{title}: {w}" for w in windows]


class DirIndex:
    """Per-file documents and per-candidate-set indexes, cached in-process (thread-safe)."""

    def __init__(self, cache: VectorCache, options: LexicalOptions) -> None:
        self.cache = cache
        self.options = options
        self.read_last_call = 0  # files whose body was read from disk in the last call
        # per file (one document each: an edited header replaces it, attack round 17): the
        # manifest fields its document was made with, and the document; bounded in bytes too
        self._docs: ByteBoundedLRU[str, tuple[tuple[str, str, str, str], MemoryDoc]] = (
            ByteBoundedLRU(
                max_entries=_MAX_DOCS, max_bytes=CACHE_BODIES_MAX_BYTES, weigh=_doc_weight
            )
        )
        self._fulltext: tuple[tuple[object, ...], FullTextIndex] | None = None
        self._window_terms: tuple[tuple[object, ...], WindowTerms] | None = None
        self._manifests: tuple[tuple[object, ...], np.ndarray] | None = None
        self._vectors: tuple[tuple[tuple[object, ...], tuple[int, ...]], DirVectors] | None = None
        self._windows: dict[tuple[object, ...], np.ndarray] = {}  # per file: its window rows
        self._window_row_count = 0
        self._lock = threading.Lock()

    def documents(self, headers: Sequence[MemoryHeader]) -> list[MemoryDoc]:
        """Each header's document, read again only when its identity changed."""
        with self._lock:
            return self._documents(headers, [header_text(h) for h in headers])

    def documents_and_key(
        self, headers: Sequence[MemoryHeader]
    ) -> tuple[list[MemoryDoc], tuple[object, ...]]:
        """`documents(headers)` and `set_key(headers, docs)`, each header's fields found once."""
        fields = [header_text(h) for h in headers]
        with self._lock:
            docs = self._documents(headers, fields)
        key = tuple(
            [(h.file_path, d.identity, *f) for h, d, f in zip(headers, docs, fields, strict=True)]
        )
        return docs, key

    def _documents(
        self, headers: Sequence[MemoryHeader], fields: Sequence[tuple[str, str, str, str]]
    ) -> list[MemoryDoc]:
        out: list[MemoryDoc | None] = [None] * len(headers)
        wanted: dict[str, FileIdentity] = {}
        for i, header in enumerate(headers):
            try:
                ident = file_identity(os.stat(header.file_path))
            except OSError:
                out[i] = self._make(header, None, "", {})
                continue
            held = self._docs.get(header.file_path)
            if held is not None and held[0] == fields[i] and held[1].identity == ident:
                out[i] = held[1]
            else:
                wanted[_BODY_KEY + header.file_path] = ident
                wanted[_TERMS_KEY + header.file_path] = ident
        self.read_last_call = 0
        if not wanted:
            return [d for d in out if d is not None]
        stored = self.cache.get_snippets(wanted)
        fresh: dict[str, tuple[FileIdentity, str]] = {}
        for i, header in enumerate(headers):
            key = _BODY_KEY + header.file_path
            if out[i] is not None or key not in wanted:
                continue
            if key in stored:
                out[i] = self._make(header, wanted[key], stored[key], fresh, stored)
                continue
            try:
                st, body = read_body(header)
            except (OSError, ValueError):
                out[i] = self._make(header, None, "", {})
                continue
            self.read_last_call += 1
            ident = file_identity(st)
            fresh[key] = (ident, body)
            out[i] = self._make(header, ident, body, fresh)
        self.cache.put_snippets(fresh)
        return [d for d in out if d is not None]

    def _make(
        self,
        header: MemoryHeader,
        ident: FileIdentity | None,
        body: str,
        fresh: dict[str, tuple[FileIdentity, str]],
        stored: Mapping[str, str] | None = None,
    ) -> MemoryDoc:
        """A file's document; its terms come from `stored` when made from the same text by the
        same code, and are otherwise made and put in `fresh` (to be stored) for a readable file."""
        fields = header_text(header)
        windows = tuple(body_windows(body))
        digest = terms_digest((*fields, body), windows, self.options)
        key = _TERMS_KEY + header.file_path
        held = stored.get(key) if stored is not None else None
        known = unpack_terms(held, digest, len(windows)) if held is not None else None
        if known is None:
            terms = tuple(document_terms(*fields, body, self.options))
            window_terms = tuple(frozenset(tokens(w, self.options)) for w in windows)
            packed = pack_terms(digest, terms, window_terms)
            if ident is not None and packed is not None:
                fresh[key] = (ident, packed)
        else:
            terms, window_terms = known
        doc = MemoryDoc(ident, body, windows, terms, window_terms)
        if ident is not None:
            self._docs.put(header.file_path, (fields, doc))  # replaces the file's older one
        return doc

    @staticmethod
    def set_key(headers: Sequence[MemoryHeader], docs: Sequence[MemoryDoc]) -> tuple[object, ...]:
        """One key for a candidate set: every file's path, identity and manifest fields."""
        return tuple(
            (h.file_path, d.identity, *header_text(h)) for h, d in zip(headers, docs, strict=True)
        )

    def fulltext(self, key: tuple[object, ...], docs: Sequence[MemoryDoc]) -> FullTextIndex:
        """The BM25 index of this candidate set (kept until the set or a file changes)."""
        with self._lock:
            if self._fulltext is None or self._fulltext[0] != key:
                self._fulltext = (key, FullTextIndex([d.terms for d in docs]))
            return self._fulltext[1]

    def window_terms(self, key: tuple[object, ...], docs: Sequence[MemoryDoc]) -> WindowTerms:
        """Which windows of this candidate set hold each term (kept until the set changes)."""
        with self._lock:
            if self._window_terms is None or self._window_terms[0] != key:
                self._window_terms = (key, WindowTerms([d.window_terms for d in docs]))
            return self._window_terms[1]

    def manifest_vectors(
        self,
        key: tuple[object, ...],
        headers: Sequence[MemoryHeader],
        embed: Callable[[Sequence[str]], np.ndarray],
    ) -> np.ndarray:
        """One vector per memory's manifest line, for this candidate set (kept until it changes)."""
        with self._lock:
            if self._manifests is not None and self._manifests[0] == key:
                return self._manifests[1]
        matrix = embed([manifest_text(h) for h in headers])
        with self._lock:
            self._manifests = (key, matrix)
        return matrix

    def vectors(
        self,
        key: tuple[object, ...],
        headers: Sequence[MemoryHeader],
        docs: Sequence[MemoryDoc],
        embed: Callable[[Sequence[str]], np.ndarray],
        chosen: Sequence[int] | None = None,
    ) -> DirVectors:
        """Manifest vectors of every memory, and window vectors of the `chosen` ones (positions;
        None: all). A memory not chosen owns no window rows. `embed` encodes (or fetches) texts.
        """
        import numpy as np

        manifests = self.manifest_vectors(key, headers, embed)
        picked = tuple(range(len(headers))) if chosen is None else tuple(chosen)
        with self._lock:
            if self._vectors is not None and self._vectors[0] == (key, picked):
                return self._vectors[1]
        rows = self._window_rows(headers, docs, picked, embed)
        offsets = [0]
        parts = []
        for i in range(len(headers)):
            got = rows.get(i)
            if got is not None and len(got):
                parts.append(got)
            offsets.append(offsets[-1] + (len(got) if got is not None else 0))
        windows = np.concatenate(parts) if parts else manifests[:0]
        made = DirVectors(manifests, windows, tuple(offsets))
        with self._lock:
            self._vectors = ((key, picked), made)
        return made

    def _window_rows(
        self,
        headers: Sequence[MemoryHeader],
        docs: Sequence[MemoryDoc],
        chosen: Sequence[int],
        embed: Callable[[Sequence[str]], np.ndarray],
    ) -> dict[int, np.ndarray]:
        """Each chosen memory's window vectors: kept per file between calls, the rest encoded."""
        keys = {
            i: (headers[i].file_path, docs[i].identity, *header_text(headers[i])) for i in chosen
        }
        with self._lock:
            rows = {i: got for i in chosen if (got := self._windows.get(keys[i])) is not None}
        missing = [i for i in chosen if i not in rows and docs[i].windows]
        if not missing:
            return rows
        texts: list[str] = []
        bounds = [0]
        for i in missing:
            texts.extend(window_texts(headers[i], docs[i].windows))
            bounds.append(len(texts))
        matrix = embed(texts)
        with self._lock:
            if self._window_row_count + len(texts) > _MAX_WINDOW_ROWS:
                self._windows.clear()
                self._window_row_count = 0
            for j, i in enumerate(missing):
                rows[i] = matrix[bounds[j] : bounds[j + 1]]
                if docs[i].identity is not None:
                    self._windows[keys[i]] = rows[i]
                    self._window_row_count += len(rows[i])
        return rows


def _segment_max(
    values: np.ndarray, offsets: Sequence[int], empty: float
) -> tuple[np.ndarray, np.ndarray]:
    """Per segment values[offsets[i]:offsets[i+1]]: its maximum and the first row holding it.

    A segment without rows gets `empty` and row -1. One pass of numpy over all rows, not a
    Python loop over memories.
    """
    import numpy as np

    offs = np.asarray(offsets, dtype=np.int64)
    lo, hi = offs[:-1], offs[1:]
    best = np.full(len(lo), empty, dtype=np.float64)
    at = np.full(len(lo), -1, dtype=np.int64)
    has = hi > lo
    if len(values) and has.any():
        starts = lo[has]
        maxima = np.maximum.reduceat(values, starts)
        rows = np.arange(len(values), dtype=np.int64)
        is_max = values == np.repeat(maxima, (hi - lo)[has])
        at[has] = np.minimum.reduceat(np.where(is_max, rows, len(values)), starts)
        best[has] = maxima
    return best, at


def best_windows(vectors: DirVectors, query: np.ndarray) -> tuple[list[float], list[int | None]]:
    """Per memory: the best window's cosine with the query (-1 without windows) and its index."""
    import numpy as np

    sims = vectors.windows @ query if len(vectors.windows) else np.zeros(0, np.float32)
    best, at = _segment_max(sims, vectors.offsets, -1.0)
    starts = vectors.offsets[:-1]
    where = [None if a < 0 else int(a) - starts[i] for i, a in enumerate(at.tolist())]
    return best.tolist(), where


class WindowTerms:
    """The windows of a candidate set as an inverted index: term -> rows of the windows holding it.

    `coverage` gives, per memory, the largest share of the query's IDF mass one of its windows
    holds: the same figure as fulltext.window_coverage (tested equal), computed for the whole
    set at once by adding each query term's weight to the rows that hold it.
    """

    def __init__(self, per_memory: Sequence[Sequence[frozenset[str]]]) -> None:
        import numpy as np

        offsets = [0]
        rows: dict[str, list[int]] = {}
        for windows in per_memory:
            for row, terms in enumerate(windows, start=offsets[-1]):
                for term in terms:
                    rows.setdefault(term, []).append(row)
            offsets.append(offsets[-1] + len(windows))
        self.offsets = tuple(offsets)
        self.rows = {t: np.asarray(r, dtype=np.int64) for t, r in rows.items()}

    def coverage(self, index: FullTextIndex, query_terms: Sequence[str]) -> list[float]:
        """Per memory, as fulltext.window_coverage: best window's share of the query's IDF mass."""
        import numpy as np

        terms = list(dict.fromkeys(query_terms))
        weights = {t: index.idf(t) for t in terms}
        # concept tokens add to what a window covers, not to the query's own mass (as fulltext)
        mass = sum(w for t, w in weights.items() if not t.startswith("syn_"))
        n = len(self.offsets) - 1
        if not mass:
            return [0.0] * n
        held = np.zeros(self.offsets[-1], dtype=np.float64)
        for term, weight in weights.items():
            rows = self.rows.get(term)
            if rows is not None:
                held[rows] += weight
        best, _ = _segment_max(held, self.offsets, 0.0)
        shares: list[float] = np.minimum(1.0, best / mass).tolist()
        return shares
