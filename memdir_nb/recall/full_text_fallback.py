"""The semantic selector's full-text fallback: the lexical selector's rule over BM25 alone.

When the embedding model cannot be loaded (SemanticSelector.fallback_reason), or a query is in
a script the model cannot judge and no full-text decision model was trained, recall still
answers: from the full-text channel's scores (BM25, query coverage), with the lexical
selector's thresholds and recent-tools rule, and each picked memory's best window by its terms.
"""

from __future__ import annotations

from collections.abc import Sequence

from memdir_nb.recall.dir_index import MemoryDoc
from memdir_nb.recall.explain_selection import MemoryExplanation, explain_lexical, with_window
from memdir_nb.recall.fulltext import LexicalHit, best_lexical_window
from memdir_nb.recall.lexical import LexicalOptions, ScoredMemory

TYPE_CHECKING = False  # typing stays unimported here; mypy reads the block below
if TYPE_CHECKING:
    from memdir_nb.formats.manifest import MemoryHeader


def full_text_fallback(
    headers: Sequence[MemoryHeader],
    docs: Sequence[MemoryDoc],
    hits: Sequence[LexicalHit],
    classes: Sequence[str | None],
    query_terms: Sequence[str],
    options: LexicalOptions,
    *,
    limit: int,
    why: str,
) -> list[MemoryExplanation]:
    """The lexical selector's thresholds over the full-text scores (no model, or no full-text model).

    One row per header, tool warnings first, then by BM25 and file name: a warning is picked,
    a usage note never, any other memory when its BM25 is positive, it holds a query term,
    it covers at least `min_coverage` of the query and scores at least `relative_cut` of the
    best score outside usage notes; at most `limit` are picked. A picked row names the body
    window holding most query terms. `why` opens each reason.
    """
    opts = options
    top = max((h.score for h, c in zip(hits, classes, strict=True) if c != "usage"), default=0)
    order = sorted(
        range(len(headers)),
        key=lambda i: (classes[i] != "warning", -hits[i].score, headers[i].filename),
    )
    rows = []
    picked = 0
    for i in order:
        hit, tool_class = hits[i], classes[i]
        ok = tool_class == "warning" or (
            tool_class is None
            and hit.score > 0
            and bool(hit.matched)
            and hit.coverage >= opts.min_coverage
            and hit.score >= opts.relative_cut * top
        )
        ok = ok and picked < limit
        picked += ok
        rows.append(
            ScoredMemory(headers[i].filename, hit.score, hit.coverage, hit.matched, tool_class, ok)
        )
    out = explain_lexical(rows, why=why)
    windows = {h.filename: d.windows for h, d in zip(headers, docs, strict=True)}
    return [
        with_window(
            e, windows[e.filename], best_lexical_window(windows[e.filename], query_terms, opts)
        )
        if e.selected
        else e
        for e in out
    ]
