"""Fit the offline selector's decision (evidence gate + pick model) across many dirs, and write selector_model.json.

Usage:
    python benchmarks/fit_selector.py [CASES.json ...] [--out PATH] [--dry-run] [--curve]

CASES.json defaults to benchmarks/data/recall_cases.json (the tuning set, in the repository);
pass the tuning corpus benchmarks/data/recall_tune.json too. A file holds one dir ({"memories", "queries"}) or
many ({"dirs": [{"id", "memories", "queries"}, ...]}). Holdout files are refused.

1. Every dir is written out as a real memory dir. The tuning corpus has dirs of 1 to 200
   memories in seven languages, so dir sizes come from real dirs. With --subsets, random
   subsets of each dir (sizes 1, 5, 25, 100) are added, a query whose relevant memories fell
   out becoming a "nothing relevant" one; that is for tuning sets of one large dir only (it
   over-weights near-miss "none" queries, see docs/selection.md).
2. The selector's own scoring gives every candidate's features for every query.
3. Two L2-regularised logistic models are fitted on query-memory pairs (relevant 1,
   unrelated 0; acceptable and tool-ruled memories left out): the evidence model over absolute
   scores (GATE_FEATURES) and the pick model (FEATURES).
4. Gate and cutoff: the grid point with the best mean F1 among those that answer at least
   MIN_EMPTY_ON_NONE of the "nothing relevant" queries with nothing.
5. Leave-one-dir-out: for each source dir, steps 3-4 are redone without it (and its subsets)
   and the held-out dir is scored with what was chosen; the mean over dirs is printed next to
   the in-sample figure. `--curve` prints the trade-off between "nothing relevant" answered
   empty and recall over the gate values, at the chosen cutoff.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
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

from recall_eval import DEFAULT_CASES, build_memory_dir, score_answer  # noqa: E402

from memdir_nb.recall.decision import (  # noqa: E402
    FEATURES,
    GATE_FEATURES,
    DecisionModel,
    decide,
    fit_logistic,
)
from memdir_nb.recall.semantic import MemoryExplanation, SemanticSelector  # noqa: E402
from memdir_nb.storage.scan import scan_memory_files  # noqa: E402

DEFAULT_OUT = REPO_ROOT / "memdir_nb" / "recall" / "selector_model.json"
BM25_SATURATION = 5.0  # BM25 / (BM25 + 5): a score of 5 counts half, 20 counts 0.8
SUBSET_SIZES = (1, 5, 25, 100)
SUBSET_SEEDS = 1
GATES = [round(0.05 + 0.025 * i, 3) for i in range(37)]  # 0.05 .. 0.95 (probabilities)
CUTOFFS = [round(0.10 + 0.05 * i, 2) for i in range(17)]  # 0.10 .. 0.90
L2 = 1.0
POSITIVE_WEIGHT = 3.0  # relevant pairs are rare: up-weighted
BETA = 2.0  # the objective is F-beta over answerable queries: recall counts BETA^2 times precision
MIN_EMPTY_ON_NONE = 0.875  # "nothing relevant" answered empty at least this often (7 of 8)


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


def collect(dirs: list[tuple[str, dict]], cache_dir: Path) -> list[Query]:
    """Every query's explanations in every (derived) dir, under one selector and cache."""
    provisional = replace(DecisionModel.load(), bm25_saturation=BM25_SATURATION)
    selector = SemanticSelector(cache_dir=cache_dir, decision=provisional, progress=False)
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


def pairs(queries: Sequence[Query], names: Sequence[str]) -> tuple[list[list[float]], list[int]]:
    """Feature rows and labels: relevant 1, unrelated 0; acceptable and tool-ruled left out."""
    rows: list[list[float]] = []
    labels: list[int] = []
    for q in queries:
        relevant = set(q.case["relevant"])
        acceptable = set(q.case.get("acceptable", []))
        for item in q.items:
            if item.tool_class is not None or item.filename in acceptable or not item.features:
                continue  # tool-ruled, acceptable, or decided by the full-text channel (CJK)
            rows.append([item.features[f] for f in names])
            labels.append(1 if item.filename in relevant else 0)
    return rows, labels


def fit_models(queries: Sequence[Query]) -> DecisionModel:
    """Both logistic models fitted on the queries' pairs (gate and cutoff placeholders)."""
    rows, labels = pairs(queries, FEATURES)
    coefficients, intercept = fit_logistic(rows, labels, l2=L2, positive_weight=POSITIVE_WEIGHT)
    gate_rows, gate_labels = pairs(queries, GATE_FEATURES)
    gate_coef, gate_icpt = fit_logistic(
        gate_rows, gate_labels, l2=L2, positive_weight=POSITIVE_WEIGHT
    )
    return DecisionModel(
        coefficients=tuple(coefficients),
        intercept=intercept,
        cutoff=0.5,
        gate=0.5,
        bm25_saturation=BM25_SATURATION,
        gate_coefficients=tuple(gate_coef),
        gate_intercept=gate_icpt,
    )


def answers(items: Sequence[MemoryExplanation], model: DecisionModel) -> list[str]:
    """The selector's answer under `model`, from recorded features (the same decide())."""
    verdicts = decide([(e.filename, e.tool_class, e.features) for e in items], model, limit=5)
    return [v.filename for v in verdicts if v.selected]


def f_beta(precision: float, recall: float, beta: float | None = None) -> float:
    """F-beta of one answer (0 when both are 0)."""
    b2 = (BETA if beta is None else beta) ** 2
    return (1 + b2) * precision * recall / (b2 * precision + recall) if precision + recall else 0.0


class Precomputed:
    """Per query, what decide() needs for any gate and cutoff, so the grid search is fast.

    Per query: the best evidence (usage notes aside), the kept tool warnings, the plain
    candidates sorted by probability, and the one with the strongest evidence. `answer`
    follows decide()'s rules exactly; `check` compares the two on every query.
    """

    def __init__(self, queries: Sequence[Query], model: DecisionModel) -> None:
        self.queries = queries
        self.rows: list[tuple | list[str]] = []
        for q in queries:
            if not all(e.features for e in q.items):  # a CJK query: the full-text channel decided
                self.rows.append([e.filename for e in q.items if e.selected])
                continue
            ev = {e.filename: model.evidence(e.features) for e in q.items}
            prob = {e.filename: model.probability(e.features) for e in q.items}
            eligible = [e for e in q.items if e.tool_class != "usage"]
            best = max((ev[e.filename] for e in eligible), default=0.0)
            warnings = sorted(
                (e.filename for e in q.items if e.tool_class == "warning"),
                key=lambda f: (-prob[f], f),
            )
            plain = sorted(
                ((prob[e.filename], e.filename) for e in eligible if e.tool_class is None),
                key=lambda r: (-r[0], r[1]),
            )
            closest = max((r[1] for r in plain), key=lambda f: (ev[f], f)) if plain else None
            self.rows.append((best, warnings, plain, closest, prob.get(closest or "", 0.0)))

    @staticmethod
    def answer(rows: tuple | list[str], gate: float, cutoff: float) -> list[str]:
        if isinstance(rows, list):
            return list(rows)
        best, warnings, plain, closest, _closest_prob = rows
        picked = list(warnings)
        if best >= gate:
            chosen = []
            for p, f in plain:
                if p < cutoff or len(picked) + len(chosen) >= 5:
                    break
                chosen.append(f)
            if closest is not None and not warnings and closest not in chosen:
                # decide() ranks it by its probability, below every memory over the cutoff
                chosen.append(closest)
            picked += chosen
        return picked[:5]

    def scores(
        self, gate: float, cutoff: float, subset: Sequence[int] | None = None
    ) -> tuple[float, float, float, float]:
        """(mean F1, empty|none, mean recall, F-beta over answerable) over the queries (or indexes)."""
        f1s, empties, recalls, answerable = [], [], [], []
        for i in subset if subset is not None else range(len(self.queries)):
            case = self.queries[i].case
            got = self.answer(self.rows[i], gate, cutoff)
            s = score_answer(case, got)
            f1s.append(s.f1)
            if s.recall is None:
                empties.append(float(not got))
            else:
                recalls.append(s.recall)
                answerable.append(f_beta(s.precision or 0.0, s.recall))
        mean = statistics.fmean
        return (
            mean(f1s),
            mean(empties) if empties else 1.0,
            mean(recalls) if recalls else 0.0,
            mean(answerable) if answerable else 0.0,
        )

    def check(self, model: DecisionModel, gate: float, cutoff: float) -> None:
        chosen = replace(model, gate=gate, cutoff=cutoff)
        for q, rows in zip(self.queries, self.rows, strict=True):
            if not isinstance(rows, list) and answers(q.items, chosen) != self.answer(
                rows, gate, cutoff
            ):
                raise AssertionError(f"fast answer differs from decide() on {q.case.get('id')}")


def choose(pre: Precomputed, subset: Sequence[int] | None = None) -> tuple[float, float, float]:
    """(gate, cutoff, F-beta): best F-beta over answerable queries with empty|none >= MIN_EMPTY_ON_NONE.

    Subsets make most queries of small dirs "nothing relevant"; a plain mean F1 would then be
    mostly about empty answers. So the empty rate is the constraint, and what is maximised is
    F-beta (BETA = 2) over the queries that have an answer: a memory missed costs the agent a
    turn of searching, one extra memory costs a few KB of context, so recall weighs more. Among
    near-ties (0.005) the middle is taken.
    """
    grid = []
    for gate in GATES:
        for cutoff in CUTOFFS:
            _, empty, _, f1 = pre.scores(gate, cutoff, subset)
            if empty >= MIN_EMPTY_ON_NONE:
                grid.append((f1, gate, cutoff))
    if not grid:
        raise SystemExit(f"no setting answers {MIN_EMPTY_ON_NONE:.0%} of 'none' queries empty")
    best = max(g[0] for g in grid)
    near = sorted((g for g in grid if g[0] >= best - 0.005), key=lambda g: (g[1], g[2]))
    f1, gate, cutoff = near[len(near) // 2]
    return gate, cutoff, f1


def leave_one_dir_out(queries: list[Query]) -> list[dict]:
    """Per source dir: fit and choose without it, score it with what was chosen."""
    out = []
    groups = sorted({q.group for q in queries})
    for held in groups:
        train = [q for q in queries if q.group != held]
        test = [q for q in queries if q.group == held]
        if not train:
            continue
        model = fit_models(train)
        gate, cutoff, _ = choose(Precomputed(train, model))
        f1, empty, recall, _ = Precomputed(test, model).scores(gate, cutoff)
        out.append(
            {
                "dir": held,
                "queries": len(test),
                "gate": gate,
                "cutoff": cutoff,
                "f1": f1,
                "empty_on_none": empty,
                "recall": recall,
            }
        )
    return out


def report(path: Path, model: DecisionModel) -> str:
    """The shipped model's figures on one corpus (no fitting: holdout files are fine here)."""
    from memdir_nb.home.config import MemdirConfig

    dirs = source_dirs(json.loads(path.read_text(encoding="utf-8")), path.stem)
    queries = collect(dirs, MemdirConfig.from_environment().cache_root())
    pre = Precomputed(queries, model)
    scored = []
    for q, rows in zip(queries, pre.rows, strict=True):
        got = pre.answer(rows, model.gate, model.cutoff)
        scored.append((q, score_answer(q.case, got)))

    def line(label: str, group: list) -> str:
        f1 = statistics.fmean(s.f1 for _, s in group)
        none = [s for _, s in group if s.recall is None]
        empty = f", 'none' empty {sum(not s.answer for s in none)}/{len(none)}" if none else ""
        return f"  {label:<22} n={len(group):>4}  mean F1 {f1:.3f}{empty}"

    lines = [
        f"{path} ({len(dirs)} dirs, {len(queries)} questions), gate {model.gate}, cutoff {model.cutoff}"
    ]
    lines.append(line("all", scored))
    for kind in sorted({q.case["kind"] for q, _ in scored}):
        lines.append(line(f"kind {kind}", [x for x in scored if x[0].case["kind"] == kind]))
    non_en = [x for x in scored if x[0].case.get("language", "en") not in ("", "en")]
    if non_en:
        lines.append(line("non-English dirs", non_en))
        lines.append(line("English dirs", [x for x in scored if x not in non_en]))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Fit and write selector_model.json (or only print it with --dry-run)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=[str(DEFAULT_CASES)], help="tuning cases JSON")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="where to write the model JSON")
    parser.add_argument("--dry-run", action="store_true", help="print the model, write nothing")
    parser.add_argument("--curve", action="store_true", help="print the empty-vs-recall curve")
    parser.add_argument(
        "--subsets",
        action="store_true",
        help="also fit on random subsets of each dir (for tuning sets without small dirs)",
    )
    parser.add_argument(
        "--report",
        action="append",
        default=[],
        help="fit nothing: print the shipped model's figures on this corpus (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.report:
        for raw in args.report:
            print(report(Path(raw), DecisionModel.load()))
        return 0
    dirs: list[tuple[str, dict]] = []
    for raw in args.cases:
        path = Path(raw)
        if not path.is_file():
            parser.error(f"cases file not found: {path} (pass the tuning set's path)")
        if "holdout" in path.name:
            parser.error("refusing to fit on a holdout set: tune on tuning sets only")
        dirs += source_dirs(json.loads(path.read_text(encoding="utf-8")), path.stem)
    from memdir_nb.home.config import MemdirConfig

    expanded = expand(dirs, subsets=args.subsets)
    queries = collect(expanded, MemdirConfig.from_environment().cache_root())
    model = fit_models(queries)
    pre = Precomputed(queries, model)
    gate, cutoff, f1 = choose(pre)
    pre.check(model, gate, cutoff)
    f1, empty, recall, answerable_f1 = pre.scores(gate, cutoff)
    lodo = leave_one_dir_out(queries)
    n_pairs = len(pairs(queries, FEATURES)[1])
    model = replace(
        model,
        gate=gate,
        cutoff=cutoff,
        fitted_on=(
            f"{', '.join(sorted({g for g, _ in dirs}))}: {len(dirs)} source dirs, {len(expanded)} "
            f"dirs{f' with subsets of sizes {SUBSET_SIZES}' if args.subsets else ''}, "
            f"{len(queries)} queries, {n_pairs} pairs; "
            f"l2={L2}, positive weight={POSITIVE_WEIGHT}; objective F{BETA:g} over answerable "
            f"queries with 'none' answered empty >= {MIN_EMPTY_ON_NONE}"
        ),
    )
    text = json.dumps(model.to_json(), indent=2) + "\n"
    print(text, end="")
    print(
        f"in-sample: mean F1 {f1:.3f} (answerable F{BETA:g} {answerable_f1:.3f}), 'none' empty {empty:.3f}, "
        f"recall {recall:.3f} (gate {gate}, cutoff {cutoff})",
        file=sys.stderr,
    )
    for row in lodo:
        print(
            f"leave-one-dir-out {row['dir']}: F1 {row['f1']:.3f}, empty {row['empty_on_none']:.3f}, recall {row['recall']:.3f} (gate {row['gate']}, cutoff {row['cutoff']})",
            file=sys.stderr,
        )
    if args.curve:
        print("gate   empty|none  recall  mean F1  answerable F2  (cutoff fixed)", file=sys.stderr)
        for g in GATES:
            f, e, r, a = pre.scores(g, cutoff)
            print(f"{g:5.3f}  {e:10.3f}  {r:6.3f}  {f:7.3f}  {a:13.3f}", file=sys.stderr)
    if not args.dry_run:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
