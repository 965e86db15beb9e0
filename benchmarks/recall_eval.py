"""Measure selection quality (and offline speed) on the recall corpora and the labelled sets.

Usage:
    python benchmarks/recall_eval.py                 # both corpora, every selector + baselines
    python benchmarks/recall_eval.py --tune-only     # the tune corpus only (while tuning)
    python benchmarks/recall_eval.py --legacy [CASES.json] [--json] [--speed]

By default the two generated corpora are scored (benchmarks/data/recall_tune.json and
recall_holdout.json: 21 dirs of 1-200 memories each, seven languages; see
benchmarks/recall_corpus.py and docs/selection.md, "The recall corpora").

--legacy scores the two older single-dir labelled sets: benchmarks/data/recall_cases.json (the
tuning set) and benchmarks/data/recall_cases_holdout.json. Each is written out as a real memory
directory (frontmatter files, team/ paths, mtimes from age_days relative to now) and every offline
selector runs through the real find_relevant_memories. Metric definitions are in
docs/selection.md and in `score_answer`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))
if str(REPO_ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

from memdir_nb.recall import LexicalSelector, find_relevant_memories  # noqa: E402
from memdir_nb.recall.lexical import LexicalOptions, plain_bm25_selector  # noqa: E402

DEFAULT_CASES = REPO_ROOT / "benchmarks" / "data" / "recall_cases.json"
HOLDOUT_CASES = REPO_ROOT / "benchmarks" / "data" / "recall_cases_holdout.json"
DAY_MS = 86_400_000


class NewestSelector:
    """Baseline: the five most recently modified memories, whatever the query."""

    name = "newest-5"

    def __init__(self, limit: int = 5) -> None:
        self.limit = limit
        self.last_error: str | None = None

    def select(self, query, headers, *, recent_tools=(), cancel=None) -> list[str]:
        """Headers arrive newest first from the scan; take the first five."""
        ordered = sorted(headers, key=lambda h: (-h.mtime_ms, h.filename))
        return [h.filename for h in ordered[: self.limit]]


def selectors(cache_dir: Path) -> dict[str, Callable[[], object]]:
    """Every offline selector and baseline the benchmark compares, by display name.

    The semantic selector is built once per labelled set (its vectors are cached in cache_dir,
    which the caller makes and removes), the others once per query as before.
    """
    from memdir_nb.recall.semantic import SemanticSelector

    shared: dict[str, SemanticSelector] = {}

    def semantic() -> SemanticSelector:
        if "s" not in shared:
            shared["s"] = SemanticSelector(
                cache_dir=cache_dir,
                progress=False,
            )
        return shared["s"]

    return {
        "semantic (default)": semantic,
        "lexical": LexicalSelector,
        "lexical, no stemming": lambda: LexicalSelector(LexicalOptions(stemming=False)),
        "lexical, no synonyms": lambda: LexicalSelector(LexicalOptions(synonyms=False)),
        "lexical, no threshold": lambda: LexicalSelector(LexicalOptions(threshold=False)),
        "lexical, no tool rule": lambda: LexicalSelector(LexicalOptions(tool_rule=False)),
        "baseline: newest-5": NewestSelector,
        "baseline: BM25 top-5": plain_bm25_selector,
    }


def _yaml_value(value: str) -> str:
    import yaml

    return (
        yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000)
        .strip()
        .removesuffix("\n...")
        .strip()
    )


def build_memory_dir(cases: dict, target: Path, *, now_ms: float) -> Path:
    """Write every memory of the case file as a real file with frontmatter and a set mtime."""
    for index, memory in enumerate(cases["memories"]):
        path = target / memory["path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        text = (
            "---\n"
            f"name: {_yaml_value(memory['name'])}\n"
            f"description: {_yaml_value(memory['description'])}\n"
            f"type: {memory['type']}\n"
            "---\n\n"
            f"{memory.get('body', '').rstrip()}\n"
        )
        path.write_text(text, encoding="utf-8")
        # age_days from the labels, plus a per-file second so equal ages still order stably
        mtime_s = (now_ms - memory["age_days"] * DAY_MS) / 1000 - index
        os.utime(path, (mtime_s, mtime_s))
    return target


@dataclass
class QueryScore:
    """One query's answer and figures."""

    id: str
    kind: str
    answer: list[str]
    recall: float | None  # None for queries with no relevant memory
    precision: float | None  # None for an empty answer (no claim made)
    f1: float
    false_positives: list[str] = field(default_factory=list)


def score_answer(case: dict, answer: Sequence[str]) -> QueryScore:
    """Recall of relevant; precision against relevant ∪ acceptable; F1 (none: 1 iff empty)."""
    relevant = set(case["relevant"])
    allowed = relevant | set(case.get("acceptable", []))
    chosen = list(answer)
    hits = [a for a in chosen if a in relevant]
    false_pos = [a for a in chosen if a not in allowed]
    recall = len(hits) / len(relevant) if relevant else None
    precision = (len(chosen) - len(false_pos)) / len(chosen) if chosen else None
    if not relevant:
        f1 = 1.0 if not chosen else 0.0
    else:
        p = precision or 0.0
        r = recall or 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
    return QueryScore(case["id"], case["kind"], chosen, recall, precision, f1, false_pos)


def rank_figures(
    picks: Sequence[str], gold: Collection[str], k: int = 5
) -> tuple[float, float, float]:
    """hit@k, recall@k and reciprocal rank of one ranked answer (all 0 when gold is empty)."""
    top = list(picks)[:k]
    hit = float(any(p in gold for p in top))
    recall = len(set(gold).intersection(top)) / len(gold) if gold else 0.0
    rank = next((i for i, p in enumerate(top, 1) if p in gold), 0)
    return hit, recall, 1.0 / rank if rank else 0.0


def run_selector(cases: dict, memory_dir: Path, factory: Callable[[], object]) -> list[QueryScore]:
    """Answer every query through find_relevant_memories with one selector."""
    scores = []
    root = memory_dir.resolve()
    for case in cases["queries"]:
        selector = factory()
        found = find_relevant_memories(
            case["query"],
            memory_dir,
            recent_tools=tuple(case.get("recent_tools", [])),
            selector=selector,
        )
        answer = [Path(m.path).resolve().relative_to(root).as_posix() for m in found]
        scores.append(score_answer(case, answer))
    return scores


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if present else None


def summarise(scores: list[QueryScore], split: Callable[[str], str] | None = None) -> dict:
    """Per kind: recall, precision, empty-answer share for 'none', mean F1; plus overall."""
    kinds = sorted({s.kind for s in scores})
    out: dict[str, dict] = {}
    for kind in [*kinds, "ALL"]:
        group = [s for s in scores if kind == "ALL" or s.kind == kind]
        none_group = [s for s in group if s.recall is None]
        out[kind] = {
            "n": len(group),
            "recall": _mean([s.recall for s in group]),
            "precision": _mean([s.precision for s in group]),
            "answered": sum(1 for s in group if s.answer),
            "empty_on_none": (sum(1 for s in none_group if not s.answer) / len(none_group))
            if none_group
            else None,
            "mean_f1": _mean([s.f1 for s in group]),
        }
    halves = {"tune (odd ids)": [], "holdout (even ids)": []}
    for s in scores:
        number = int("".join(ch for ch in s.id if ch.isdigit()) or 0)
        halves["tune (odd ids)" if number % 2 else "holdout (even ids)"].append(s.f1)
    out["split"] = {name: _mean(values) for name, values in halves.items()}
    return out


def _fmt(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.2f}"


def print_table(results: dict[str, dict]) -> None:
    """One block per selector: a row per query kind, then overall and the tune/holdout F1."""
    for name, summary in results.items():
        print(f"\n{name}")
        print(f"  {'kind':<16}{'n':>3}  {'recall':>6}  {'prec':>6}  {'empty|none':>10}  {'F1':>6}")
        for kind, row in summary.items():
            if kind == "split":
                continue
            print(
                f"  {kind:<16}{row['n']:>3}  {_fmt(row['recall']):>6}  {_fmt(row['precision']):>6}  "
                f"{_fmt(row['empty_on_none']):>10}  {_fmt(row['mean_f1']):>6}"
            )
        split = summary["split"]
        print("  mean F1 by half: " + ", ".join(f"{k} {_fmt(v)}" for k, v in split.items()))
    print("\nsummary: mean F1 (all / tune / holdout)")
    for name, summary in results.items():
        split = list(summary["split"].values())
        print(
            f"  {name:<26} {_fmt(summary['ALL']['mean_f1'])} / {_fmt(split[0])} / {_fmt(split[1])}"
        )


def evaluate(
    cases: dict, *, now_ms: float | None = None, only: Sequence[str] | None = None
) -> dict[str, dict]:
    """Build the labelled dir once and score every selector (or `only` those); summaries by name."""
    now_ms = time.time() * 1000 if now_ms is None else now_ms
    with tempfile.TemporaryDirectory(prefix="recall-eval-") as tmp:
        memory_dir = build_memory_dir(cases, Path(tmp) / "memory", now_ms=now_ms)
        results = {}
        for name, factory in selectors(Path(tmp) / "cache").items():
            if only is not None and name not in only:
                continue
            scores = run_selector(cases, memory_dir, factory)
            summary = summarise(scores)
            summary["queries"] = [s.__dict__ for s in scores]
            results[name] = summary
    return results


def measure_speed(cases: dict, *, files: int = 200, repeats: int = 40) -> dict[str, float]:
    """Median ms of an offline find_relevant_memories over `files` memories, and a bare read loop."""
    memories = cases["memories"]
    grown = {"memories": [], "queries": []}
    for i in range(files):
        base = dict(memories[i % len(memories)])
        stem = base["path"][:-3]
        base["path"] = f"{stem}_{i}.md" if i >= len(memories) else base["path"]
        grown["memories"].append(base)
    queries = [q for q in cases["queries"]][:10]
    with tempfile.TemporaryDirectory(prefix="recall-speed-") as tmp:
        memory_dir = build_memory_dir(grown, Path(tmp) / "memory", now_ms=time.time() * 1000)
        selector = LexicalSelector()
        timings, cold = [], []
        for r in range(repeats):
            q = queries[r % len(queries)]
            t0 = time.perf_counter()
            find_relevant_memories(
                q["query"], memory_dir, recent_tools=tuple(q["recent_tools"]), selector=selector
            )
            timings.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()  # a fresh selector: no memoised document tokens
            find_relevant_memories(
                q["query"],
                memory_dir,
                recent_tools=tuple(q["recent_tools"]),
                selector=LexicalSelector(),
            )
            cold.append((time.perf_counter() - t0) * 1000)
        bare = []
        paths = sorted(p for p in Path(memory_dir).rglob("*.md"))
        for _ in range(repeats):
            t0 = time.perf_counter()
            for p in paths:
                with open(p, "rb") as fh:
                    fh.read(4096)
            bare.append((time.perf_counter() - t0) * 1000)
    find_ms = statistics.median(timings)
    bare_ms = statistics.median(bare)
    return {
        "files": files,
        "find_median_ms": find_ms,
        "find_cold_median_ms": statistics.median(cold),
        "bare_read_median_ms": bare_ms,
        "ratio": find_ms / bare_ms,
    }


def print_comparison(by_set: dict[str, dict[str, dict]]) -> None:
    """Both sets side by side: mean F1 per selector, the gap, and the key kinds."""
    names = list(next(iter(by_set.values())))
    labels = list(by_set)
    print("\nboth sets: mean F1 (and empty answers on 'none' queries)")
    print(f"  {'selector':<26}" + "".join(f"{lab:>22}" for lab in labels) + f"{'gap':>7}")
    for name in names:
        cells = []
        f1s = []
        for lab in labels:
            row = by_set[lab][name]["ALL"]
            none = by_set[lab][name].get("none", {}).get("empty_on_none")
            f1s.append(row["mean_f1"])
            cells.append(f"{_fmt(row['mean_f1'])} (none {_fmt(none)})")
        gap = abs(f1s[0] - f1s[-1]) if len(f1s) > 1 else 0.0
        print(f"  {name:<26}" + "".join(f"{c:>22}" for c in cells) + f"{gap:>7.2f}")
    print("\nper kind, mean F1 (tuning / holdout):")
    kinds = sorted(
        {
            k
            for res in by_set.values()
            for k in res[names[0]]
            if k not in ("split", "queries", "ALL")
        }
    )
    print(f"  {'selector':<26}" + "".join(f"{k:>18}" for k in kinds))
    for name in names:
        cells = []
        for k in kinds:
            vals = [by_set[lab][name].get(k, {}).get("mean_f1") for lab in labels]
            cells.append(" / ".join(_fmt(v) for v in vals))
        print(f"  {name:<26}" + "".join(f"{c:>18}" for c in cells))


def _load(path: Path, parser: argparse.ArgumentParser) -> dict:
    if not path.is_file():
        parser.error(f"cases file not found: {path} (pass the path of a labelled cases JSON file)")
    return json.loads(path.read_text(encoding="utf-8"))


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; prints the tables (or JSON) for both sets and returns 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--legacy", action="store_true", help="score the older single-dir labelled sets instead"
    )
    parser.add_argument(
        "--tune-only", action="store_true", help="corpora: score the tune corpus only"
    )
    parser.add_argument(
        "--only", action="append", help="corpora: score only this selector (repeatable)"
    )
    parser.add_argument("cases", nargs="?", default=str(DEFAULT_CASES), help="tuning cases JSON")
    parser.add_argument(
        "--holdout", default=str(HOLDOUT_CASES), help="the second set, never tuned on"
    )
    parser.add_argument(
        "--tuning-only",
        action="store_true",
        help="score the tuning set only (while tuning, never look at the holdout's figures)",
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    parser.add_argument(
        "--speed",
        action="store_true",
        help="also time recall on 200 files, model load, cold encode",
    )
    parser.add_argument(
        "--per-query", action="store_true", help="list each query's answer for the default"
    )
    args = parser.parse_args(argv)
    if not args.legacy:
        from recall_corpus import HOLDOUT, TUNE, evaluate_corpora

        paths = {"tune": TUNE} if args.tune_only else {"tune": TUNE, "holdout": HOLDOUT}
        evaluate_corpora(paths, only=args.only, as_json=args.json)
        return 0
    sets = {"tuning": Path(args.cases), "holdout": Path(args.holdout)}
    if args.tuning_only:
        del sets["holdout"]
    loaded = {label: _load(path, parser) for label, path in sets.items()}
    by_set = {label: evaluate(cases) for label, cases in loaded.items()}
    speed = None
    if args.speed:
        from recall_speed import measure_semantic_speed

        speed = {
            "lexical": measure_speed(loaded["tuning"]),
            **measure_semantic_speed(loaded["tuning"]),
        }
    if args.json:
        print(
            json.dumps(
                {"sets": {k: str(v) for k, v in sets.items()}, "results": by_set, "speed": speed},
                indent=2,
            )
        )
        return 0
    for label, results in by_set.items():
        cases = loaded[label]
        print(
            f"\n===== {label}: {sets[label]} ({len(cases['memories'])} memories, {len(cases['queries'])} queries)"
        )
        print_table(
            {k: {kk: vv for kk, vv in v.items() if kk != "queries"} for k, v in results.items()}
        )
    print_comparison(by_set)
    if args.per_query:
        for label, results in by_set.items():
            print(f"\nsemantic (default) on {label}, per query:")
            for q in results["semantic (default)"]["queries"]:
                print(
                    f"  {q['id']} {q['kind']:<15} F1={q['f1']:.2f} answer={q['answer']} fp={q['false_positives']}"
                )
    if speed:
        lex = speed["lexical"]
        print(
            f"\nspeed (lexical): find_relevant_memories over {lex['files']} files, median "
            f"{lex['find_median_ms']:.2f} ms (fresh selector each call: {lex['find_cold_median_ms']:.2f} ms); bare 4 KB read loop {lex['bare_read_median_ms']:.2f} ms; "
            f"ratio {lex['ratio']:.1f}x"
        )
        for key, value in speed.items():
            if key != "lexical":
                print(
                    f"speed (semantic): {key} = {value:.2f}"
                    if isinstance(value, float)
                    else f"speed (semantic): {key} = {value}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
