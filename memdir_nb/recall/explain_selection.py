"""Why each memory was or was not recalled: the scores and decision of the last selection.

`MemoryExplanation` is one memory's row (the semantic selector records one per candidate;
`explain_lexical` turns the lexical selector's verdicts into the same rows).
`selection_explanation(selector)` reads what a selector recorded on its last call (the semantic
selector's `last_explanation`, the lexical selector's `last_scores`); `format_explanation` turns
it into the table `memdir-nb recall --explain` prints. The recall widget can show the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from memdir_nb.recall.lexical import ScoredMemory
from memdir_nb.spec.records import Record, field, replace
from memdir_nb.spec.text import terminal_safe


class MemoryExplanation(Record, frozen=True):
    """Why one memory was or was not picked: its scores, the window that matched and the decision."""

    filename: str
    lexical: float  # full-text BM25 score
    coverage: float  # share of the query's IDF mass covered
    semantic: float | None  # best of manifest and window similarities (None without the model)
    semantic_manifest: float | None
    semantic_body: float | None  # the best window's similarity
    probability: float | None
    tool_class: str | None
    selected: bool
    reason: str
    features: dict[str, float] = field(default_factory=dict)
    window: str | None = None  # the body window that matched best (semantic, else lexical)
    window_index: int | None = None  # its position among the body's windows (0 = first)
    evidence: float | None = None  # P(relevant) from absolute scores: what the gate reads


def with_window(
    row: MemoryExplanation, windows: Sequence[str], at: int | None
) -> MemoryExplanation:
    if at is None:
        return row
    return replace(row, window=windows[at], window_index=at)


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


def selection_explanation(selector: object) -> list[MemoryExplanation]:
    """The per-memory explanation of the selector's last call ([] if it records none)."""
    recorded = getattr(selector, "last_explanation", None)
    if isinstance(recorded, list):
        return list(recorded)
    scores = getattr(selector, "last_scores", None)
    if isinstance(scores, list):  # LexicalSelector
        return explain_lexical(scores)
    return []


def shown(value: float) -> float:
    """value rounded as the table prints it, with -0.0 made 0.0 (never "-0.00")."""
    return round(value, 2) + 0.0


WINDOW_QUOTE_CHARS = 160  # how much of a matched window the table quotes


def window_label(row: MemoryExplanation) -> str:
    """'window 3' (1-based) for the explanation; 'window' when the position is unknown."""
    return "window" if row.window_index is None else f"window {row.window_index + 1}"


def quote_window(window: str, limit: int = WINDOW_QUOTE_CHARS) -> str:
    """A window quoted on one line, cut at `limit` characters with an ellipsis."""
    flat = terminal_safe(" ".join(window.split()))
    return f'"{flat}"' if len(flat) <= limit else f'"{flat[: limit - 1].rstrip()}…"'


def _num(value: float | None, width: int) -> str:
    return f"{'-':>{width}}" if value is None else f"{shown(value):>{width}.2f}"


def format_explanation(rows: Sequence[MemoryExplanation], *, selector_name: str = "") -> str:
    """A plain-text table: picked, file, lexical (BM25), semantic, probability, reason."""
    if not rows:
        label = f" ({selector_name})" if selector_name else ""
        return f"This selector{label} records no per-memory scores.\n"
    width = max(12, *(len(r.filename) for r in rows))
    head = f"{'':2}{'memory':<{width}}  {'lexical':>7}  {'semantic':>8}  {'p':>5}  decision"
    lines = [f"Why each memory was or was not picked (selector: {selector_name or '?'}):", head]
    for r in rows:
        mark = "+" if r.selected else "-"
        lines.append(
            f"{mark:2}{r.filename:<{width}}  {_num(r.lexical, 7)}  {_num(r.semantic, 8)}  "
            f"{_num(r.probability, 5)}  {r.reason}"
        )
        if r.selected and r.window:
            lines.append(
                f"{'':2}{'':<{width}}  matched {window_label(r)}: {quote_window(r.window)}"
            )
    lines.append(
        "lexical = full-text BM25 over name, description and body; semantic = best cosine "
        "similarity to name+description or to one window of the body (a few sentences); "
        "p = probability of relevance from the fitted decision model; 'matched' quotes the "
        "body window that scored best."
    )
    return "\n".join(lines) + "\n"
