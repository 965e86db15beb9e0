"""The material fit_selector.py fits on: labelled dirs written out, every candidate's features.

A cases file holds one dir ({"memories", "queries"}), many ({"dirs": [...]}), or is a corpus
({"dirs", "questions"}, benchmarks/data/recall_tune.json). `collect` writes each dir as a real
memory dir and keeps, per query, the selector's own explanation of every candidate (its
features); `pairs` turns them into (features, relevant?) rows for the logistic fits.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))
BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from recall_eval import build_memory_dir  # noqa: E402

from memdir_nb.recall.decision import (  # noqa: E402
    FULL_TEXT_FEATURES,
    FULL_TEXT_GATE_FEATURES,
    DecisionModel,
)
from memdir_nb.recall.embedding import MiniLMEncoder  # noqa: E402
from memdir_nb.recall.semantic import MemoryExplanation, SemanticSelector  # noqa: E402
from memdir_nb.storage.scan import scan_memory_files  # noqa: E402

BM25_SATURATION = 5.0  # BM25 / (BM25 + 5): a score of 5 counts half, 20 counts 0.8
SUBSET_SIZES = (1, 5, 25, 100)
SUBSET_SEEDS = 1


@dataclass
class Query:
    """One labelled query in one (possibly derived) dir, with every candidate's explanation."""

    group: str  # the source dir: leave-one-dir-out drops a whole group
    case: dict
    items: list[MemoryExplanation]


def source_dirs(data: dict, name: str) -> list[tuple[str, dict]]:
    """(id, {"memories", "queries"}) for each dir in a cases file (either shape)."""
    if "dirs" in data and "questions" in data:  # the corpus shape: questions name their dir
        out = []
        for d in data["dirs"]:
            memories = [{**m, "path": m.get("path", m.get("filename"))} for m in d["memories"]]
            queries = [
                {
                    "id": q["id"],
                    "query": q["query"],
                    "recent_tools": q.get("recent_tools", []),
                    "relevant": list(q.get("expected", q.get("relevant", []))),
                    "acceptable": list(q.get("acceptable", [])),
                    "kind": q.get("kind", "?"),
                    "language": q.get("language", d.get("language", "")),
                }
                for q in data["questions"]
                if q["dir"] == d["id"]
            ]
            out.append((f"{name}:{d['id']}", {"memories": memories, "queries": queries}))
        return out
    if "dirs" in data:
        return [(f"{name}:{d.get('id', i)}", d) for i, d in enumerate(data["dirs"])]
    return [(name, data)]


def subset(cases: dict, size: int, seed: int) -> dict:
    """A random subset of a dir's memories; queries relabelled to what is left."""
    rng = random.Random(f"{size}:{seed}")
    kept = rng.sample(cases["memories"], size)
    paths = {m["path"] for m in kept}
    queries = []
    for q in cases["queries"]:
        relevant = [p for p in q["relevant"] if p in paths]
        kind = q.get("kind", "?") if relevant or not q["relevant"] else "none"
        queries.append(
            {
                **q,
                "relevant": relevant,
                "acceptable": [p for p in q.get("acceptable", []) if p in paths],
                "kind": kind,
            }
        )
    return {"memories": kept, "queries": queries}


def expand(dirs: list[tuple[str, dict]], *, subsets: bool) -> list[tuple[str, dict]]:
    """Each dir, plus (with subsets=True) its random subsets of every smaller size in SUBSET_SIZES."""
    out = []
    for group, cases in dirs:
        out.append((group, cases))
        if not subsets:
            continue
        n = len(cases["memories"])
        for size in SUBSET_SIZES:
            if size < n:
                for seed in range(SUBSET_SEEDS):
                    out.append((group, subset(cases, size, seed)))
    return out


def collect(
    dirs: list[tuple[str, dict]],
    cache_dir: Path,
    encoder: MiniLMEncoder | None = None,
    *,
    shortlist: bool = True,
) -> list[Query]:
    """Every query's explanations in every (derived) dir, under one selector and cache.

    `encoder` replaces the shipped one (benchmarks/encoder_int8.py passes its ONNX variants);
    `shortlist=False` compares every body, as benchmarks/shortlist_sizes.py needs.
    """
    provisional = replace(DecisionModel.load(), bm25_saturation=BM25_SATURATION)
    if provisional.full_text is None:  # CJK queries must leave their full-text features
        provisional = replace(provisional, full_text=placeholder_full_text())
    selector = SemanticSelector(
        cache_dir=cache_dir,
        decision=provisional,
        progress=False,
        encoder=encoder,
        shortlist=shortlist,
    )
    if selector.encoder() is None:
        raise SystemExit(f"the model is not available: {selector.fallback_reason}")
    out: list[Query] = []
    with tempfile.TemporaryDirectory(prefix="fit-selector-") as tmp:
        for i, (group, cases) in enumerate(dirs):
            memory_dir = build_memory_dir(cases, Path(tmp) / f"d{i}", now_ms=time.time() * 1000)
            headers = scan_memory_files(memory_dir)
            for case in cases["queries"]:
                tools = tuple(case.get("recent_tools", []))
                out.append(
                    Query(group, case, selector.score(case["query"], headers, recent_tools=tools))
                )
    return out


def placeholder_full_text() -> DecisionModel:
    n, g = len(FULL_TEXT_FEATURES), len(FULL_TEXT_GATE_FEATURES)
    return DecisionModel(
        coefficients=(1.0,) * n,
        intercept=-2.0,
        beta=1.0,
        gate=0.5,
        bm25_saturation=BM25_SATURATION,
        gate_coefficients=(1.0,) * g,
        gate_intercept=-2.0,
        features=FULL_TEXT_FEATURES,
        gate_features=FULL_TEXT_GATE_FEATURES,
    )


def is_full_text(q: Query) -> bool:
    """A CJK query: decided by the full-text model (no semantic scores)."""
    return all(e.semantic is None for e in q.items)


def pairs(queries: Sequence[Query], names: Sequence[str]) -> tuple[list[list[float]], list[int]]:
    """Feature rows and labels: relevant 1, unrelated 0; acceptable and tool-ruled left out.

    Semantic features come from the other queries only, full-text ones (CJK) from CJK queries.
    """
    rows: list[list[float]] = []
    labels: list[int] = []
    full_text = "semantic" not in names
    for q in queries:
        if is_full_text(q) != full_text:
            continue
        relevant = set(q.case["relevant"])
        acceptable = set(q.case.get("acceptable", []))
        for item in q.items:
            if item.tool_class is not None or item.filename in acceptable or not item.features:
                continue  # tool-ruled, acceptable, or decided by the full-text channel (CJK)
            rows.append([item.features[f] for f in names])
            labels.append(1 if item.filename in relevant else 0)
    return rows, labels
