"""Leave-one-dir-out of two training sets over the same questions: a refit against the shipped recipe.

Usage:
    python benchmarks/fit_compare.py benchmarks/data/recall_cases.json benchmarks/data/recall_tune.json
        --baseline-without short [--baseline-without logs] [--beta B ...] [--features F.pkl] [--full-text-language ru]

For each dir (group) of the given tuning files, the decision is fitted twice the way
fit_selector.py fits it (same models, same gate rule) and the dir's questions are answered by
each fold:
  refit     trained on every other dir;
  baseline  trained on every other dir whose domain is not --baseline-without (the dirs the
            shipped model was fitted on, when the new dirs carry that domain).
It prints the mean F1 over questions (not over dirs) for all questions, the baseline's own
questions, the others, per language of the others and per kind, the folds' gates, and each
whole-corpus fit's in-sample "nothing relevant" empty rate: the figures of the twentieth
session's adoption rule (docs/selection.md, "Twentieth session"). Holdout files are refused.

`--gates-only` compares the shipped model as it is with the same coefficients whose gates are
chosen again, by fit_selector's gate rule, on every other dir (the twenty-third session's rule
E: does the shipped gate still meet its own rule on a grown tune corpus?). The "baseline" column
is then the shipped gates and the "refit" column the re-chosen ones.

`--full-text-language ru` is an experiment of the harness only: that language's questions lose
their semantic scores, so the full-text models decide them, as the selector does for CJK
questions. It changes no runtime code.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))
BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from fit_data import Query, collect, expand, source_dirs  # noqa: E402
from fit_selector import Precomputed, choose_gates, fit_models  # noqa: E402
from recall_eval import score_answer  # noqa: E402

from memdir_nb.recall.decision import DecisionModel  # noqa: E402

KINDS = ("direct", "reworded", "multi", "tools", "non-english", "none")


def fold_f1(
    train: Sequence[Query], test: Sequence[Query], beta: float
) -> tuple[tuple, list[float]]:
    """Fit on `train` (models and gates), answer `test`: (gates, each test question's F1)."""
    model = fit_models(train, beta)
    gates = choose_gates(Precomputed(train, model), beta)
    pre = Precomputed(test, model)
    return gates, [score_answer(q.case, pre.answer(i, gates, beta)).f1 for i, q in enumerate(test)]


def gates_fold_f1(
    model: DecisionModel, train: Sequence[Query] | None, test: Sequence[Query], beta: float
) -> tuple[tuple, list[float]]:
    """`model`'s coefficients; gates chosen on `train` (the model's own gates without one)."""
    gates = (
        choose_gates(Precomputed(train, model), beta)
        if train is not None
        else (model.gate, model.full_text.gate if model.full_text else 0.5)
    )
    pre = Precomputed(test, model)
    return gates, [score_answer(q.case, pre.answer(i, gates, beta)).f1 for i, q in enumerate(test)]


def compare(
    queries: Sequence[Query], baseline: set[str], beta: float, *, gates_only: bool = False
) -> tuple[dict[str, dict[str, float]], dict[str, Counter]]:
    """Per question id, each fold's F1 ({"refit": ..., "baseline": ...}), and the folds' gates."""
    f1: dict[str, dict[str, float]] = {"refit": {}, "baseline": {}}
    gates: dict[str, Counter] = {"refit": Counter(), "baseline": Counter()}
    shipped = DecisionModel.load()
    for held in sorted({q.group for q in queries}):
        test = [q for q in queries if q.group == held]
        others = [q for q in queries if q.group != held]
        if gates_only:
            for name, train_or_none in (("refit", others), ("baseline", None)):
                chosen, scores = gates_fold_f1(shipped, train_or_none, test, beta)
                gates[name][chosen] += 1
                f1[name].update((q.case["id"], s) for q, s in zip(test, scores, strict=True))
            continue
        for name, train in (
            ("refit", others),
            ("baseline", [q for q in others if q.group in baseline]),
        ):
            chosen, scores = fold_f1(train, test, beta)
            gates[name][chosen] += 1
            f1[name].update((q.case["id"], s) for q, s in zip(test, scores, strict=True))
    return f1, gates


def whole_fit(
    queries: Sequence[Query], train: Sequence[Query], beta: float
) -> tuple[int, int, float]:
    """Fit on `train`, answer every query: ("none" answered empty, "none" count, mean F1)."""
    model = fit_models(train, beta)
    gates = choose_gates(Precomputed(train, model), beta)
    pre = Precomputed(queries, model)
    answers = [pre.answer(i, gates, beta) for i in range(len(queries))]
    none = [a for a, q in zip(answers, queries, strict=True) if not q.case.get("relevant")]
    scores = [score_answer(q.case, a).f1 for a, q in zip(answers, queries, strict=True)]
    return sum(not a for a in none), len(none), statistics.fmean(scores)


def report(
    queries: Sequence[Query], baseline: set[str], beta: float, *, gates_only: bool = False
) -> list[str]:
    """The rule's figures for one beta, as lines."""
    f1, gates = compare(queries, baseline, beta, gates_only=gates_only)
    selections: dict[str, Callable[[Query], bool]] = {
        "all questions": lambda q: True,
        "the baseline's dirs": lambda q: q.group in baseline,
        "the other dirs": lambda q: q.group not in baseline,
    }
    for lang in sorted({q.case.get("language", "") for q in queries if q.group not in baseline}):
        selections[f"the other dirs, {lang or '?'}"] = lambda q, lang=lang: (
            q.group not in baseline and q.case.get("language", "") == lang
        )
    for kind in KINDS:
        selections[f"kind {kind}"] = lambda q, kind=kind: q.case.get("kind") == kind
    lines = [f"== beta {beta:g}: leave-one-dir-out, mean F1 over questions"]
    for label, chosen in selections.items():
        ids = [q.case["id"] for q in queries if chosen(q)]
        if not ids:
            continue
        b = statistics.fmean(f1["baseline"][i] for i in ids)
        r = statistics.fmean(f1["refit"][i] for i in ids)
        lines.append(
            f"  {label:<28} n={len(ids):>4}  baseline {b:.4f}  refit {r:.4f}  {r - b:+.4f}"
        )
    for name in ("refit", "baseline"):
        lines.append(f"  {name} folds' gates (main, full-text): {dict(gates[name].most_common())}")
    if gates_only:
        shipped = DecisionModel.load()
        for name, train_or_none in (("refit", queries), ("baseline", None)):
            _, scores = gates_fold_f1(shipped, train_or_none, queries, beta)
            none = [s for s, q in zip(scores, queries, strict=True) if not q.case.get("relevant")]
            lines.append(
                f"  whole {name}, in-sample: mean F1 {statistics.fmean(scores):.4f}, "
                f"'none' empty {sum(s == 1.0 for s in none)}/{len(none)}"
            )
        return lines
    for name, train in (
        ("refit", queries),
        ("baseline", [q for q in queries if q.group in baseline]),
    ):
        empty, n, mean = whole_fit(queries, train, beta)
        lines.append(f"  whole {name} fit, in-sample: mean F1 {mean:.4f}, 'none' empty {empty}/{n}")
    return lines


def load(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[list[Query], set[str]]:
    """The collected queries (or the --features pickle) and the baseline's groups."""
    dirs: list[tuple[str, dict]] = []
    baseline: set[str] = set()
    for raw in args.cases:
        path = Path(raw)
        if "holdout" in path.name:
            parser.error("refusing a holdout set: compare on tuning sets only")
        data = json.loads(path.read_text(encoding="utf-8"))
        found = source_dirs(data, path.stem)
        dirs += found
        domains = [d.get("domain", "") for d in data.get("dirs", [])] or [""] * len(found)
        if len(domains) != len(found):  # a single-dir file
            domains = [""] * len(found)
        baseline |= {
            g
            for (g, _), dom in zip(found, domains, strict=True)
            if dom not in args.baseline_without
        }
    features = Path(args.features) if args.features else None
    if features is not None and features.is_file():
        queries = pickle.loads(features.read_bytes())  # our own file
    else:
        from memdir_nb.home.config import MemdirConfig

        queries = collect(expand(dirs, subsets=False), MemdirConfig.from_environment().cache_root())
        if features is not None:
            features.write_bytes(pickle.dumps(queries))
    if args.full_text_language:
        queries = [
            dataclasses.replace(q, items=[dataclasses.replace(e, semantic=None) for e in q.items])
            if q.case.get("language") == args.full_text_language
            else q
            for q in queries
        ]
    return queries, baseline


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="+", help="tuning files (cases or corpora)")
    parser.add_argument(
        "--baseline-without",
        required=True,
        action="append",
        help="a domain the baseline leaves out (repeatable)",
    )
    parser.add_argument(
        "--beta", type=float, action="append", help="set rule's F-beta (repeatable)"
    )
    parser.add_argument("--features", help="pickle of the collected features: written once, reused")
    parser.add_argument(
        "--gates-only",
        action="store_true",
        help="the shipped coefficients, gates re-chosen per fold, against the shipped gates",
    )
    parser.add_argument(
        "--full-text-language",
        help="experiment: this language's questions go to the full-text models",
    )
    args = parser.parse_args(argv)
    queries, baseline = load(args, parser)
    if not baseline or baseline >= {q.group for q in queries}:
        parser.error(f"no dir has the domains {args.baseline_without!r}, or every dir has them")
    print(
        f"{len({q.group for q in queries})} dirs, {len(queries)} questions; baseline: {len(baseline)} dirs"
    )
    for beta in args.beta or [1.0]:
        print("\n".join(report(queries, baseline, beta, gates_only=args.gates_only)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
