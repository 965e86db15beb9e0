"""Offline recall on published memory dirs nobody here wrote: a third set, never tuned on.

Usage:
    python benchmarks/recall_published.py LABELS.json [--cache-dir D] [--seed N] [--json OUT]
        [--per-question]

The labels file is kept outside the repository (it quotes other people's memory dirs), as
{"questions": [{"dir": "/abs/path/of/a/memory/dir", "question": "...", "kind": "direct",
"language": "en", "gold": ["file.md", ...], "recent_tools": ["Bash", ...]}]}. Kinds: direct,
reworded, multi, recent-tools and none ("nothing relevant": gold is empty). Gold names are
paths relative to the dir, as the scan names its files. See docs/selection.md, "Published dirs".

Every dir is read as it is, as the spec scans it (scan_memory_files: newest first, at most 200),
and every question is answered by six rankers in one run:

* default: find_relevant_memories with the shipped SemanticSelector (gate, expected-F1 set);
* ranking: the same call's candidates ordered by pick probability, top five (no gate);
* lexical: the full-text BM25 channel of that call alone, top five with a positive score;
* grep: basic-memory's grep baseline over bodies (recall_baselines.grep_rank), top five;
* newest: the five most recently modified memories (recall_baselines.NewestSelector);
* random: five memories drawn with a fixed seed.

Per ranker: mean F1 (score_answer: a "none" question scores 1 iff answered empty), and over the
answerable questions hit@5, recall@5 and MRR (rank_figures), plus the share of "none" questions
answered empty; overall, per kind and per language.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))
BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

from locomo import Haystack  # noqa: E402  (headers + bodies of one dir, as LoCoMo's rankers see it)
from recall_baselines import NewestSelector, grep_rank, strip_frontmatter  # noqa: E402
from recall_eval import rank_figures, score_answer  # noqa: E402  (the metrics' one home)

from memdir_nb.recall import find_relevant_memories  # noqa: E402
from memdir_nb.recall.semantic import SemanticSelector  # noqa: E402
from memdir_nb.storage.scan import scan_memory_files  # noqa: E402

RANKERS = ("default", "ranking", "lexical", "grep", "newest", "random")
KINDS = ("direct", "reworded", "multi", "recent-tools", "none")
K = 5


class LabelsError(ValueError):
    """The labels file is missing or malformed; the message names the entry and the fix."""


@dataclass(frozen=True)
class Question:
    """One labelled question about one memory dir."""

    dir: Path
    question: str
    kind: str
    language: str
    gold: tuple[str, ...]
    recent_tools: tuple[str, ...] = ()


def _strings(entry: dict[str, object], key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LabelsError(f"{where}: {key!r} must be a list of strings, got {value!r}")
    return tuple(value)


def parse_question(entry: object, where: str) -> Question:
    """One entry of the labels file as a Question (LabelsError naming what is wrong)."""
    if not isinstance(entry, dict):
        raise LabelsError(f"{where}: expected an object, got {type(entry).__name__}")
    for key in ("dir", "question", "kind", "language"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise LabelsError(f"{where}: {key!r} must be a non-empty string")
    if entry["kind"] not in KINDS:
        raise LabelsError(f"{where}: kind {entry['kind']!r} is not one of {', '.join(KINDS)}")
    gold = _strings(entry, "gold", where)
    if (entry["kind"] == "none") != (not gold):
        raise LabelsError(f"{where}: a 'none' question has an empty gold list, and only it does")
    return Question(
        dir=Path(entry["dir"]),
        question=entry["question"],
        kind=entry["kind"],
        language=entry["language"],
        gold=gold,
        recent_tools=_strings(entry, "recent_tools", where),
    )


def load_labels(path: Path) -> list[Question]:
    """Every labelled question of the file (LabelsError if the file or an entry is malformed)."""
    if not path.is_file():
        raise LabelsError(f"{path} is not a file: pass the path of the labels JSON file")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise LabelsError(f"{path} is not UTF-8 JSON: {err}") from err
    entries = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise LabelsError(f"{path}: expected {{'questions': [...]}} with at least one question")
    return [parse_question(e, f"{path}, question {i}") for i, e in enumerate(entries)]


def read_haystack(memory_dir: Path) -> Haystack:
    """The dir as the spec scans it, and each scanned memory's body (for grep)."""
    headers = scan_memory_files(memory_dir)
    bodies = {}
    for h in headers:
        try:
            text = Path(h.file_path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        bodies[h.filename] = strip_frontmatter(text)
    return Haystack(headers, bodies)


def unknown_gold(question: Question, haystack: Haystack) -> list[str]:
    """Gold names the scan does not list (a label fault: such a memory can never be found)."""
    return [g for g in question.gold if g not in haystack.bodies]


def rankings(
    question: Question, haystack: Haystack, selector: SemanticSelector, rng: random.Random
) -> dict[str, list[str]]:
    """Each ranker's picks for one question, best first."""
    selector.last_explanation = []  # find_relevant_memories may return early without a call
    found = find_relevant_memories(
        question.question, question.dir, recent_tools=question.recent_tools, selector=selector
    )
    root = question.dir.resolve()
    default = [Path(m.path).resolve().relative_to(root).as_posix() for m in found]
    explained = selector.last_explanation
    by_probability = sorted(explained, key=lambda e: (-(e.probability or 0.0), e.filename))
    by_lexical = sorted(explained, key=lambda e: (-e.lexical, e.filename))
    names = sorted(haystack.bodies)
    return {
        "default": default,
        "ranking": [e.filename for e in by_probability][:K],
        "lexical": [e.filename for e in by_lexical if e.lexical > 0][:K],
        "grep": grep_rank(question.question, haystack.bodies)[:K],
        "newest": NewestSelector(K).select(question.question, haystack.headers),
        "random": rng.sample(names, min(K, len(names))),
    }


@dataclass(frozen=True)
class Scored:
    """One ranker's figures on one question."""

    ranker: str
    kind: str
    language: str
    f1: float
    hit: float | None  # None for a "none" question (nothing to hit)
    recall: float | None
    reciprocal_rank: float | None
    empty: bool


def score(ranker: str, question: Question, picks: Sequence[str]) -> Scored:
    """F1 of the picks as given, and hit@5, recall@5 and reciprocal rank of their top five."""
    case = {"id": "", "kind": question.kind, "relevant": list(question.gold)}
    f1 = score_answer(case, picks).f1
    if not question.gold:
        return Scored(ranker, question.kind, question.language, f1, None, None, None, not picks)
    hit, recall, rr = rank_figures(picks, question.gold, K)
    return Scored(ranker, question.kind, question.language, f1, hit, recall, rr, not picks)


def _mean(values: Iterable[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.fmean(present) if present else None


def summarise(rows: Sequence[Scored]) -> dict[str, float | int | None]:
    """Mean F1, hit@5, recall@5, MRR (answerable only), and 'none' questions answered empty."""
    nones = [r for r in rows if r.hit is None]
    return {
        "n": len(rows),
        "f1": _mean(r.f1 for r in rows),
        "hit@5": _mean(r.hit for r in rows),
        "recall@5": _mean(r.recall for r in rows),
        "mrr": _mean(r.reciprocal_rank for r in rows),
        "none_empty": _mean(float(r.empty) for r in nones),
    }


def _fmt(value: float | int | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def report(rows: Sequence[Scored]) -> str:
    """Overall per ranker, then F1 and hit@5 per kind and per language."""
    lines = ["ranker      n    F1  hit@5  R@5   MRR  none answered empty"]
    for ranker in RANKERS:
        s = summarise([r for r in rows if r.ranker == ranker])
        lines.append(
            f"{ranker:<9} {s['n']:>3} {_fmt(s['f1']):>5} {_fmt(s['hit@5']):>6} "
            f"{_fmt(s['recall@5']):>4} {_fmt(s['mrr']):>5} {_fmt(s['none_empty']):>6}"
        )
    for label, attr in (("kind", "kind"), ("language", "language")):
        order = {kind: i for i, kind in enumerate(KINDS)}  # kinds in their order, languages a-z
        groups = sorted({getattr(r, attr) for r in rows}, key=lambda g: (order.get(g, 99), g))
        lines += ["", f"per {label}: F1 / hit@5 (n)"]
        lines.append(f"{label:<18}" + "".join(f"{r:>13}" for r in RANKERS))
        for group in groups:
            cells = []
            n = 0
            for ranker in RANKERS:
                s = summarise([r for r in rows if r.ranker == ranker and getattr(r, attr) == group])
                n = int(s["n"] or 0)
                cells.append(f"{_fmt(s['f1'])} / {_fmt(s['hit@5'])}".rjust(13))
            lines.append(f"{f'{group} ({n})':<18}" + "".join(cells))
    return "\n".join(lines)


def evaluate(
    questions: Sequence[Question], selector: SemanticSelector, *, seed: int = 0
) -> tuple[list[Scored], list[dict[str, object]]]:
    """Every question with every ranker; the scores and, per question, each ranker's picks."""
    rng = random.Random(seed)
    haystacks: dict[Path, Haystack] = {}
    rows: list[Scored] = []
    answers: list[dict[str, object]] = []
    for q in questions:
        if q.dir not in haystacks:
            haystacks[q.dir] = read_haystack(q.dir)
        haystack = haystacks[q.dir]
        missing = unknown_gold(q, haystack)
        if missing:
            raise LabelsError(
                f"{q.question!r} in {q.dir}: gold {missing} not among the scanned memories"
            )
        picks = rankings(q, haystack, selector, rng)
        rows += [score(name, q, picks[name]) for name in RANKERS]
        answers.append({**asdict(q), "dir": str(q.dir), "picks": picks})
    return rows, answers


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", help="the labels JSON file (kept outside the repository)")
    parser.add_argument("--cache-dir", help="vector cache (default: a fresh temp dir)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random baseline")
    parser.add_argument("--json", dest="json_out", help="also write figures and picks here")
    parser.add_argument(
        "--per-question", action="store_true", help="print each question's default answer"
    )
    args = parser.parse_args(argv)
    try:
        questions = load_labels(Path(args.labels))
    except LabelsError as err:
        print(f"recall_published.py: {err}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="recall-published-") as tmp:
        cache_dir = Path(args.cache_dir) if args.cache_dir else Path(tmp) / "cache"
        selector = SemanticSelector(cache_dir=cache_dir, progress=sys.stderr.isatty())
        if selector.encoder() is None:
            print(f"recall_published.py: no model: {selector.fallback_reason}", file=sys.stderr)
            return 2
        try:
            rows, answers = evaluate(questions, selector, seed=args.seed)
        except LabelsError as err:
            print(f"recall_published.py: {err}", file=sys.stderr)
            return 2
    dirs = len({q.dir for q in questions})
    print(f"{len(questions)} questions over {dirs} published dirs")
    print(report(rows))
    if args.per_question:
        for a in answers:
            picks = a["picks"]
            assert isinstance(picks, dict)
            print(f"\n[{a['kind']}/{a['language']}] {a['question']}\n  gold    {a['gold']}")
            print(f"  default {picks['default']}\n  ranking {picks['ranking']}")
    if args.json_out:
        data = {
            "rankers": {r: summarise([s for s in rows if s.ranker == r]) for r in RANKERS},
            "answers": answers,
        }
        Path(args.json_out).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
