"""Why each memory was or was not recalled: the scores and decision of the last selection.

`selection_explanation(selector)` reads what a selector recorded on its last call (the semantic
selector's `last_explanation`, the lexical selector's `last_scores`); `format_explanation` turns
it into the table `memdir-nb recall --explain` prints. The recall widget can show the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from memdir_nb.recall.semantic import MemoryExplanation, explain_lexical


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
    lines.append(
        "lexical = BM25 over name, description, type and filename; semantic = best cosine "
        "similarity to name+description or name+description+body start; p = probability of "
        "relevance from the fitted decision model."
    )
    return "\n".join(lines) + "\n"
