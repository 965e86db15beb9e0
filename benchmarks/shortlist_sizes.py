"""How the body shortlist's sizes change the offline selector's answers (tuning corpora only).

Usage:
    python benchmarks/shortlist_sizes.py benchmarks/data/recall_cases.json benchmarks/data/recall_tune.json
        [--features F.pkl]

The features of every candidate are collected with every body compared (no shortlist), then for
each size variant a memory outside the shortlist (memdir_nb.recall.shortlist.body_shortlist,
called with the variant's sizes) is given what the selector gives it: no window (semantic
window 0, semantic = manifest), and the gap to the best recomputed. The shipped decision then
answers each query from those features (fit_selector.answers, the selector's own decide()).
Printed per variant: the answers that changed, mean F1 with every body and with the shortlist
(a "nothing relevant" query scores 1 when answered empty), and how many memories' bodies a
query in a dir over the variant's `all_up_to` compares. CJK queries are decided by the
full-text channel and are left out. Holdout files are refused.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

BENCH = Path(__file__).resolve().parent
for extra in (BENCH.parent, BENCH):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from fit_data import Query, collect, expand, is_full_text, source_dirs  # noqa: E402
from fit_selector import answers  # noqa: E402

from memdir_nb.recall.decision import DecisionModel  # noqa: E402
from memdir_nb.recall.semantic import MemoryExplanation  # noqa: E402
from memdir_nb.recall.shortlist import body_shortlist  # noqa: E402

# (all_up_to, by_manifest, by_full_text, by_window_terms); the shipped sizes are (40, 20, 10, 10)
VARIANTS = (
    (40, 10, 5, 5),
    (40, 15, 10, 10),
    (40, 20, 10, 10),
    (40, 20, 20, 20),
    (40, 30, 15, 15),
    (40, 40, 20, 20),
)


def shortlisted(items: Sequence[MemoryExplanation], sizes: tuple[int, ...]) -> tuple[list, int]:
    """items as the selector scores them under a shortlist of these sizes; memories compared.

    The selector ranks its candidates in filename order (ties go to the earlier one), so the
    items, which come in answer order, are put in that order first.
    """
    items = sorted(items, key=lambda e: e.filename)
    f = [e.features for e in items]
    chosen = set(
        body_shortlist(
            [x["semantic_manifest"] for x in f],
            [x["bm25_saturated"] for x in f],  # BM25 / (BM25 + s): the same order as BM25
            [x["coverage_window"] for x in f],
            all_up_to=sizes[0],
            by_manifest=sizes[1],
            by_full_text=sizes[2],
            by_window_terms=sizes[3],
        )
    )
    feats = []
    for i, x in enumerate(f):
        x = dict(x)
        if i not in chosen:
            x["semantic_window"] = 0.0
            x["semantic"] = x["semantic_manifest"]
        feats.append(x)
    best = max(
        (x["semantic"] for x, e in zip(feats, items, strict=True) if e.tool_class != "usage"),
        default=0.0,
    )
    for x in feats:
        x["semantic_gap"] = best - x["semantic"]
    return [replace(e, features=x) for e, x in zip(items, feats, strict=True)], len(chosen)


def f1(answer: Sequence[str], relevant: Sequence[str]) -> float:
    """F1 of one answer; a "nothing relevant" query scores 1 when answered empty."""
    got, want = set(answer), set(relevant)
    if not want:
        return float(not got)
    hit = len(got & want)
    return 2 * hit / (len(got) + len(want)) if hit else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="+", help="tuning cases or corpus JSON files")
    parser.add_argument("--features", help="pickle of the collected features (written once)")
    args = parser.parse_args(argv)
    import json

    from memdir_nb.home.config import MemdirConfig

    path = Path(args.features) if args.features else None
    if path is not None and path.is_file():
        queries: list[Query] = pickle.loads(path.read_bytes())  # our own file
    else:
        dirs = []
        for raw in args.cases:
            if "holdout" in Path(raw).name:
                parser.error("refusing a holdout set: sizes are chosen on tuning sets only")
            data = json.loads(Path(raw).read_text(encoding="utf-8"))
            dirs += source_dirs(data, Path(raw).stem)
        cache = MemdirConfig.from_environment().cache_root()
        queries = collect(expand(dirs, subsets=False), cache, shortlist=False)
        if path is not None:
            path.write_bytes(pickle.dumps(queries))
    model = DecisionModel.load()
    scored = [q for q in queries if not is_full_text(q) and all(e.features for e in q.items)]
    full = [answers(q.items, model) for q in scored]
    print(
        f"{len(scored)} queries with semantic scores; every body compared: mean F1 "
        f"{statistics.fmean(f1(a, q.case['relevant']) for a, q in zip(full, scored, strict=True)):.4f}"
    )
    print(
        "sizes (all up to, manifest, BM25, window terms)  changed  mean F1   compared (median/max)"
    )
    for sizes in VARIANTS:
        changed, scores, compared = 0, [], []
        for q, before in zip(scored, full, strict=True):
            items, n = shortlisted(q.items, sizes)
            if len(q.items) > sizes[0]:
                compared.append(n)
            after = answers(items, model)
            changed += sorted(after) != sorted(before)
            scores.append(f1(after, q.case["relevant"]))
        print(
            f"{sizes!s:48s} {changed:7d}  {statistics.fmean(scores):.4f}   "
            f"{statistics.median(compared):.0f} / {max(compared)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
