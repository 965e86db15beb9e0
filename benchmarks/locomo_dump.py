"""Per-question rows of `benchmarks/locomo.py --dump`: what the default picked and why.

One JSON object a line, one line per answerable question, so the default's misses can be read
beside grep's hits without a scratch script:

* `sample_id`, `question`, `category`, `evidence` (LoCoMo's dialogue ids) and `gold` (the
  evidence sessions' file names);
* `default`: the default selector's answer (its gate and expected-F set), best first;
* `ranking`: the selector's candidates by pick probability, the first `TOP` of them, each with
  its probability, its evidence (what the gate reads), its decision features, its full-text
  BM25 score, the matching window's index and whether it is gold;
* `gold_rank`: the 1-based rank of the best-placed gold session in the whole ranking (None if
  no gold session is a candidate);
* `grep`: grep's first five (`recall_baselines.grep_rank`);
* `hits`: for default, ranking and grep, whether a gold session is among their first five.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO

from memdir_nb.recall.explain_selection import MemoryExplanation

TOP = 10  # ranking rows kept per question
K = 5  # the cut every hit is measured at (locomo.K)


def ranked(explained: Sequence[MemoryExplanation]) -> list[MemoryExplanation]:
    """The candidates by pick probability, ties by name: locomo.py's ranking row's order."""
    return sorted(explained, key=lambda e: (-(e.probability or 0), e.filename))


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def candidate_row(e: MemoryExplanation, gold: set[str]) -> dict[str, object]:
    """One ranked candidate: its scores and features, rounded to 4 places."""
    return {
        "file": e.filename,
        "gold": e.filename in gold,
        "selected": e.selected,
        "probability": _rounded(e.probability),
        "evidence": _rounded(e.evidence),
        "lexical": _rounded(e.lexical),
        "window_index": e.window_index,
        "features": {name: round(v, 4) for name, v in sorted(e.features.items())},
    }


def question_row(
    sample_id: str,
    qa: dict,
    gold: set[str],
    explained: Sequence[MemoryExplanation],
    grep: Sequence[str],
    top: int = TOP,
) -> dict[str, object]:
    """The dump's line for one question (see the module doc)."""
    order = ranked(explained)
    default = [e.filename for e in explained if e.selected]
    gold_ranks = [i for i, e in enumerate(order, 1) if e.filename in gold]
    ranking_names = [e.filename for e in order]
    return {
        "sample_id": sample_id,
        "question": str(qa["question"]),
        "category": qa.get("category"),
        "evidence": list(qa.get("evidence", [])),
        "gold": sorted(gold),
        "default": default,
        "ranking": [candidate_row(e, gold) for e in order[:top]],
        "gold_rank": min(gold_ranks) if gold_ranks else None,
        "grep": list(grep[:K]),
        "hits": {
            "default": bool(gold & set(default[:K])),
            "ranking": bool(gold & set(ranking_names[:K])),
            "grep": bool(gold & set(grep[:K])),
        },
    }


def write_rows(rows: Iterable[dict[str, object]], handle: IO[str]) -> int:
    """Write rows as JSON lines; returns how many were written."""
    count = 0
    for row in rows:
        handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
        count += 1
    return count


def read_rows(path: Path) -> list[dict]:
    """A dump written by write_rows, one dict a line."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]
