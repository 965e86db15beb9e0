"""Fit the offline selector's decision (evidence gate + pick model) across many dirs, and write selector_model.json.

Usage (the refit, one command):
    python benchmarks/fit_selector.py benchmarks/data/recall_cases.json benchmarks/data/recall_tune.json
        [--out PATH] [--dry-run] [--curve] [--reliability] [--beta B] [--features F.pkl]
    python benchmarks/fit_selector.py --report CORPUS.json [--report ...] [--model M.json]

CASES.json defaults to benchmarks/data/recall_cases.json. A file holds one dir ({"memories",
"queries"}), many ({"dirs": [...]}) or a corpus ({"dirs", "questions"}); holdout files are
refused (benchmarks/fit_data.py reads them and collects the features).

1. Every dir is written out as a real memory dir. The tuning corpus has dirs of 1 to 200
   memories in seven languages, so dir sizes come from real dirs. With --subsets, random
   subsets of each dir (sizes 1, 5, 25, 100) are added, a query whose relevant memories fell
   out becoming a "nothing relevant" one; that is for tuning sets of one large dir only (it
   over-weights near-miss "none" queries, see docs/selection.md).
2. The selector's own scoring gives every candidate's features for every query.
3. L2-regularised logistic models are fitted on query-memory pairs (relevant 1, unrelated 0;
   acceptable and tool-ruled memories left out): the evidence model over absolute scores
   (GATE_FEATURES) and the pick model (FEATURES) from queries with semantic scores, and the
   full-text pair (FULL_TEXT_*) from CJK queries, which the full-text channel decides.
4. The answer is the top-k with the best expected F-beta under the pick model's probabilities
   (decision.best_set_size; --beta, default 1). The pick model is fitted unweighted so that its
   probabilities are calibrated (`--reliability` prints the out-of-fold reliability table).
   Gates (main, full-text): the grid point with the best F2 over answerable queries among
   those that answer at least MIN_EMPTY_ON_NONE of the "nothing relevant" queries with nothing.
5. Leave-one-dir-out: for each source dir, steps 3-4 are redone without it (and its subsets)
   and the held-out dir is scored with what was chosen; the mean over dirs is printed next to
   the in-sample figure. `--curve` prints the trade-off between "nothing relevant" answered
   empty and recall over the gate values.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))
BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from fit_data import (  # noqa: E402
    BM25_SATURATION,
    SUBSET_SIZES,
    Query,
    collect,
    expand,
    is_full_text,
    pairs,
    placeholder_full_text,
    source_dirs,
)
from recall_eval import DEFAULT_CASES, score_answer  # noqa: E402

from memdir_nb.recall.decision import (  # noqa: E402
    FEATURES,
    FULL_TEXT_FEATURES,
    FULL_TEXT_GATE_FEATURES,
    GATE_FEATURES,
    DecisionModel,
    best_set_size,
    decide,
    fit_logistic,
)
from memdir_nb.recall.embedding import MiniLMEncoder  # noqa: E402
from memdir_nb.recall.semantic import MemoryExplanation  # noqa: E402

DEFAULT_OUT = REPO_ROOT / "memdir_nb" / "recall" / "selector_model.json"
GATES = [round(0.05 + 0.025 * i, 3) for i in range(37)]  # 0.05 .. 0.95 (probabilities)
L2 = 1.0
GATE_POSITIVE_WEIGHT = 3.0  # the evidence model: relevant pairs up-weighted (its gate is tuned)
PICK_POSITIVE_WEIGHT = 1.0  # the pick model: unweighted, so its probabilities are calibrated
SET_BETA = 1.0  # the expected F-measure the answer set maximises (see docs/selection.md)
BETA = 2.0  # the objective is F-beta over answerable queries: recall counts BETA^2 times precision
MIN_EMPTY_ON_NONE = 0.875  # "nothing relevant" answered empty at least this often (7 of 8)


def fit_models(queries: Sequence[Query], beta: float = SET_BETA) -> DecisionModel:
    """The four logistic models fitted on the queries' pairs (gate placeholders).

    The pick and evidence models over FEATURES / GATE_FEATURES from the queries that have
    semantic scores; the full-text pair (FULL_TEXT_*) from the CJK queries.
    """
    ft_rows, ft_labels = pairs(queries, FULL_TEXT_FEATURES)
    full_text = None
    if ft_labels and any(ft_labels):
        ft_coef, ft_icpt = fit_logistic(
            ft_rows, ft_labels, l2=L2, positive_weight=PICK_POSITIVE_WEIGHT
        )
        ftg_rows, ftg_labels = pairs(queries, FULL_TEXT_GATE_FEATURES)
        ftg_coef, ftg_icpt = fit_logistic(
            ftg_rows, ftg_labels, l2=L2, positive_weight=GATE_POSITIVE_WEIGHT
        )
        full_text = replace(
            placeholder_full_text(),
            coefficients=tuple(ft_coef),
            intercept=ft_icpt,
            beta=beta,
            gate_coefficients=tuple(ftg_coef),
            gate_intercept=ftg_icpt,
        )
    rows, labels = pairs(queries, FEATURES)
    coefficients, intercept = fit_logistic(
        rows, labels, l2=L2, positive_weight=PICK_POSITIVE_WEIGHT
    )
    gate_rows, gate_labels = pairs(queries, GATE_FEATURES)
    gate_coef, gate_icpt = fit_logistic(
        gate_rows, gate_labels, l2=L2, positive_weight=GATE_POSITIVE_WEIGHT
    )
    return DecisionModel(
        coefficients=tuple(coefficients),
        intercept=intercept,
        beta=beta,
        gate=0.5,
        bm25_saturation=BM25_SATURATION,
        gate_coefficients=tuple(gate_coef),
        gate_intercept=gate_icpt,
        full_text=full_text,
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
    """Per query, what decide() needs for any gate and beta, so the grid search is fast.

    Per query: the best evidence (usage notes aside), the kept tool warnings and the plain
    candidates' probabilities, most probable first. `answer` follows decide()'s rules exactly
    (the same best_set_size); `check` compares the two on every query.
    """

    def __init__(self, queries: Sequence[Query], model: DecisionModel) -> None:
        self.queries = queries
        self.rows: list[tuple | list[str]] = []
        self._sizes: dict[tuple[int, float], int] = {}
        self.full_text = [is_full_text(q) for q in queries]
        for q, ft in zip(queries, self.full_text, strict=True):
            m = model.full_text if ft else model
            if m is None or not all(e.features for e in q.items):
                self.rows.append([e.filename for e in q.items if e.selected])
                continue
            ev = {e.filename: m.evidence(e.features) for e in q.items}
            prob = {e.filename: m.probability(e.features) for e in q.items}
            best = max((ev[e.filename] for e in q.items if e.tool_class != "usage"), default=0.0)
            warnings = sorted(
                (e.filename for e in q.items if e.tool_class == "warning"),
                key=lambda f: (-round(prob[f], 4), f),
            )
            plain = sorted(
                (e.filename for e in q.items if e.tool_class is None),
                key=lambda f: (-round(prob[f], 4), f),
            )
            probs = sorted((prob[f] for f in plain), reverse=True)
            self.rows.append((best, warnings[:5], plain, probs))

    def answer(self, i: int, gates: tuple[float, float], beta: float) -> list[str]:
        """decide()'s answer for query i; gates = (the main gate, the full-text model's)."""
        rows = self.rows[i]
        if isinstance(rows, list):
            return list(rows)
        gate = gates[1] if self.full_text[i] else gates[0]
        best, warnings, plain, probs = rows
        if best < gate or not plain:
            return list(warnings)
        key = (i, beta)
        if key not in self._sizes:
            self._sizes[key] = best_set_size(
                probs,
                beta,
                certain=len(warnings),
                min_size=0 if warnings else 1,
                max_size=5 - len(warnings),
            )[0]
        return list(warnings) + plain[: self._sizes[key]]

    def scores(
        self, gates: tuple[float, float], beta: float, subset: Sequence[int] | None = None
    ) -> tuple[float, float, float, float]:
        """(mean F1, empty|none, mean recall, F-BETA over answerable) over the queries (or indexes)."""
        f1s, empties, recalls, answerable = [], [], [], []
        for i in subset if subset is not None else range(len(self.queries)):
            case = self.queries[i].case
            got = self.answer(i, gates, beta)
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

    def check(self, model: DecisionModel) -> None:
        gates = (model.gate, model.full_text.gate if model.full_text else 0.5)
        for i, q in enumerate(self.queries):
            m = model.full_text if self.full_text[i] else model
            if m is None or isinstance(self.rows[i], list):
                continue
            if answers(q.items, m) != self.answer(i, gates, model.beta):
                raise AssertionError(f"fast answer differs from decide() on {q.case.get('id')}")


def choose_gates(pre: Precomputed, beta: float) -> tuple[float, float]:
    """The main gate over the queries with semantic scores, the full-text one over CJK queries."""
    main = [i for i, ft in enumerate(pre.full_text) if not ft]
    cjk = [i for i, ft in enumerate(pre.full_text) if ft]
    gate, _ = choose(pre, beta, main)
    ft_gate, _ = choose(pre, beta, cjk) if cjk else (0.5, 0.0)
    return gate, ft_gate


def choose(
    pre: Precomputed, beta: float, subset: Sequence[int] | None = None
) -> tuple[float, float]:
    """(gate, F-BETA): best F-BETA over answerable queries with empty|none >= MIN_EMPTY_ON_NONE.

    The empty rate is the constraint, and what is maximised is F-beta (BETA = 2) over the
    queries that have an answer: a memory missed costs the agent a turn of searching, one extra
    memory costs a few KB of context, so recall weighs more. `beta` is the set rule's (the
    expected F-measure the picks maximise). Among near-ties (0.005) the middle gate is taken.
    """
    grid = []
    for gate in GATES:
        _, empty, _, fb = pre.scores((gate, gate), beta, subset)
        if empty >= MIN_EMPTY_ON_NONE:
            grid.append((fb, gate))
    if not grid:
        raise SystemExit(f"no setting answers {MIN_EMPTY_ON_NONE:.0%} of 'none' queries empty")
    best = max(g[0] for g in grid)
    near = sorted((g for g in grid if g[0] >= best - 0.005), key=lambda g: g[1])
    fb, gate = near[len(near) // 2]
    return gate, fb


def leave_one_dir_out(
    queries: list[Query], beta: float
) -> tuple[list[dict], list[tuple[float, int]]]:
    """Per source dir: fit and choose without it, score it with what was chosen.

    Also returns every held-out pair's (probability, label) under its fold's model: the
    out-of-fold material for the reliability table.
    """
    out = []
    oof: list[tuple[float, int]] = []
    groups = sorted({q.group for q in queries})
    for held in groups:
        train = [q for q in queries if q.group != held]
        test = [q for q in queries if q.group == held]
        if not train:
            continue
        model = fit_models(train, beta)
        gates = choose_gates(Precomputed(train, model), beta)
        f1, empty, recall, _ = Precomputed(test, model).scores(gates, beta)
        rows, labels = pairs(test, FEATURES)
        oof += [
            (model.probability(dict(zip(FEATURES, r, strict=True))), y)
            for r, y in zip(rows, labels, strict=True)
        ]
        out.append(
            {
                "dir": held,
                "queries": len(test),
                "gate": gates,
                "f1": f1,
                "empty_on_none": empty,
                "recall": recall,
            }
        )
    return out, oof


def reliability(points: Sequence[tuple[float, int]]) -> str:
    """A reliability table: per probability bin, the mean predicted and the observed rate."""
    edges = [0.0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0001]
    lines = ["| P(relevant) | pairs | mean predicted | observed relevant |", "|---|---|---|---|"]
    for lo, hi in itertools.pairwise(edges):
        inside = [(p, y) for p, y in points if lo <= p < hi]
        if inside:
            mean_p = statistics.fmean(p for p, _ in inside)
            rate = statistics.fmean(y for _, y in inside)
            lines.append(
                f"| {lo:.2f}-{min(hi, 1.0):.2f} | {len(inside)} | {mean_p:.3f} | {rate:.3f} |"
            )
    return "\n".join(lines)


def report(
    path: Path,
    model: DecisionModel,
    *,
    encoder: MiniLMEncoder | None = None,
    cache_dir: Path | None = None,
) -> str:
    """The shipped model's figures on one corpus (no fitting: holdout files are fine here).

    `encoder` and `cache_dir` replace the shipped encoder and the configured cache root
    (benchmarks/encoder_int8.py scores its ONNX variants' vectors this way).
    """
    from memdir_nb.home.config import MemdirConfig

    dirs = source_dirs(json.loads(path.read_text(encoding="utf-8")), path.stem)
    cache = cache_dir or MemdirConfig.from_environment().cache_root()
    queries = collect(dirs, cache, encoder)
    pre = Precomputed(queries, model)
    gates = (model.gate, model.full_text.gate if model.full_text else 0.5)
    scored = [
        (q, score_answer(q.case, pre.answer(i, gates, model.beta))) for i, q in enumerate(queries)
    ]

    def line(label: str, group: list) -> str:
        f1 = statistics.fmean(s.f1 for _, s in group)
        none = [s for _, s in group if s.recall is None]
        empty = f", 'none' empty {sum(not s.answer for s in none)}/{len(none)}" if none else ""
        return f"  {label:<22} n={len(group):>4}  mean F1 {f1:.3f}{empty}"

    lines = [
        f"{path} ({len(dirs)} dirs, {len(queries)} questions), gate {model.gate}, beta {model.beta}"
    ]
    lines.append(line("all", scored))
    for kind in sorted({q.case["kind"] for q, _ in scored}):
        lines.append(line(f"kind {kind}", [x for x in scored if x[0].case["kind"] == kind]))
    non_en = [x for x in scored if x[0].case.get("language", "en") not in ("", "en")]
    english = [x for x in scored if x not in non_en]
    if non_en:
        lines.append(line("non-English dirs", non_en))
    if non_en and english:  # a corpus of non-English dirs alone has no English row
        lines.append(line("English dirs", english))
    return "\n".join(lines)


def load_queries(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[list, list]:
    """The tuning dirs and their collected queries (or the --features pickle of them)."""
    import pickle

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
    features = Path(args.features) if args.features else None
    if features is not None and features.is_file():
        return dirs, pickle.loads(features.read_bytes())  # our own file
    queries = collect(expanded, MemdirConfig.from_environment().cache_root())
    if features is not None:
        features.write_bytes(pickle.dumps(queries))
    return dirs, queries


def print_fit(
    args: argparse.Namespace,
    pre: Precomputed,
    lodo: list[dict],
    oof: list[tuple[float, int]],
    *,
    gates: tuple[float, float],
) -> None:
    """The fit's figures on stderr: in-sample, per held-out dir, reliability, the gate curve."""
    gate, ft_gate = gates
    f1, empty, recall, answerable_fb = pre.scores(gates, args.beta)
    err = sys.stderr
    print(
        f"in-sample: mean F1 {f1:.3f} (answerable F{BETA:g} {answerable_fb:.3f}), 'none' empty "
        f"{empty:.3f}, recall {recall:.3f} (gate {gate}, full-text gate {ft_gate}, beta {args.beta})",
        file=err,
    )
    for row in lodo:
        print(
            f"leave-one-dir-out {row['dir']}: F1 {row['f1']:.3f}, empty {row['empty_on_none']:.3f}, "
            f"recall {row['recall']:.3f} (gate {row['gate']})",
            file=err,
        )
    mean = statistics.fmean
    print(
        f"leave-one-dir-out mean over {len(lodo)} dirs: F1 {mean(r['f1'] for r in lodo):.3f}, "
        f"recall {mean(r['recall'] for r in lodo):.3f}",
        file=err,
    )
    if args.reliability:
        print("out-of-fold reliability of the pick model:\n" + reliability(oof), file=err)
    if args.curve:
        print(f"gate   empty|none  recall  mean F1  answerable F{BETA:g}", file=err)
        for g in GATES:
            f, e, r, a = pre.scores((g, ft_gate), args.beta)
            print(f"{g:5.3f}  {e:10.3f}  {r:6.3f}  {f:7.3f}  {a:13.3f}", file=err)


def main(argv: Sequence[str] | None = None) -> int:
    """Fit and write selector_model.json (or only print it with --dry-run)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", default=[str(DEFAULT_CASES)], help="tuning cases JSON")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="where to write the model JSON")
    parser.add_argument("--dry-run", action="store_true", help="print the model, write nothing")
    parser.add_argument("--curve", action="store_true", help="print the empty-vs-recall curve")
    parser.add_argument("--reliability", action="store_true", help="print the reliability table")
    parser.add_argument("--model", help="with --report: this model JSON, not the shipped one")
    parser.add_argument("--beta", type=float, default=SET_BETA, help="the set rule's F-beta")
    parser.add_argument(
        "--features", help="pickle of the collected features: written once, then reused"
    )
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
            print(report(Path(raw), DecisionModel.load(args.model)))
        return 0
    dirs, queries = load_queries(args, parser)
    model = fit_models(queries, args.beta)
    pre = Precomputed(queries, model)
    gate, ft_gate = choose_gates(pre, args.beta)
    ft_model = replace(model.full_text, gate=ft_gate) if model.full_text else None
    model = replace(model, gate=gate, full_text=ft_model)
    pre.check(model)
    lodo, oof = leave_one_dir_out(queries, args.beta)
    n_pairs = len(pairs(queries, FEATURES)[1])
    model = replace(
        model,
        fitted_on=(
            f"{', '.join(sorted({g for g, _ in dirs}))}: {len(dirs)} source dirs"
            f"{f' with subsets of sizes {SUBSET_SIZES}' if args.subsets else ''}, "
            f"{len(queries)} queries, {n_pairs} pairs; l2={L2}, pick model unweighted "
            f"(calibrated), evidence model positive weight={GATE_POSITIVE_WEIGHT}; answer = top-k "
            f"with the best expected F{args.beta:g}; gate: best F{BETA:g} over answerable "
            f"queries with 'none' answered empty >= {MIN_EMPTY_ON_NONE}"
        ),
    )
    text = json.dumps(model.to_json(), indent=2) + "\n"
    print(text, end="")
    print_fit(args, pre, lodo, oof, gates=(gate, ft_gate))
    if not args.dry_run:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
