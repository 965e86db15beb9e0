"""Lint findings and consolidation plans as one JSON document, to compare two versions of the code.

Speed work must not change any result. Run this before a change (`--out before.json`) and
after it (`--out after.json`), then `--compare before.json after.json`: it prints the first
difference per dir and exits 1 if there is one. Dirs: the cached bench dirs (1,000 and 2,000
files; --sizes for others), the demo memory dir (built into a temporary folder at a fixed
time), and the memory dirs under notebooks/data and tests/data. To run it on another
checkout's code, put that checkout first: PYTHONPATH=/path/to/checkout. --plan-only leaves the
lint findings out (for speed work on the planner); --cache names another folder of bench dirs;
--repeat plans and lints each dir twice in the process (the planner and lint keep caches
between passes) and fails when the second plan or lint differs from the first.
--plan-cache DIR plans with the planner's on-disk cache in DIR (dream.disk_kept): run it twice
with the same DIR, the first run fills the cache (cold) and the second plans from it (warm);
each must give the plans a run without it gives. --plan-cache-each DIR gives each dir a cache
folder of its own in DIR (its name), so every dir's first run is planned with an empty cache.

  python benchmarks/check_same_results.py --out /tmp/before.json
  python benchmarks/check_same_results.py --compare /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
DEFAULT_CACHE = HERE.parent / ".bench" / "whole_dir"


def _lint(root: Path, now_ms: float) -> list[str]:
    from memdir_nb.lint import lint_memory_dir

    return [repr(f) for f in lint_memory_dir(root, now_ms=now_ms, progress=False)]


PLAN_CACHE: list[Path] = []  # --plan-cache, when given
EACH_DIR: list[Path] = []  # --plan-cache-each: each dir's cache is a folder of its own in this


def _plan(root: Path, now_ms: float) -> dict[str, Any]:
    from memdir_nb.dream import plan_consolidation

    if PLAN_CACHE:
        plan = plan_consolidation(root, now_ms=now_ms, cache_dir=PLAN_CACHE[0])
    else:
        plan = plan_consolidation(root, now_ms=now_ms)
    diff = plan.diff()
    return {
        "actions": [repr(a) for a in plan.actions],
        "notes": list(plan.notes),
        "hashes": sorted((k, v or "") for k, v in plan.hashes.items()),
        "diff_sha": hashlib.sha256(diff.encode()).hexdigest(),
        "diff_len": len(diff),
    }


def _corpus_dir(root: Path, now_ms: float) -> Path:
    """A memory dir holding every text of the secret guard's corpora as a memory body.

    The texts (public ids, share links, hashes, fake credentials of many shapes; see
    benchmarks/secret_precision.py) reach the secret rule, its masking and the content rules
    on text much less tidy than the bench dirs'. Every third file is in team/, the types
    rotate, the description is the text's first words, and the times are fixed.
    """
    from secret_precision import load_corpus

    (root / "team").mkdir(parents=True)
    rows = load_corpus("benign.jsonl") + load_corpus("secrets.jsonl")
    for i, row in enumerate(rows):
        kind = ("project", "feedback", "reference", "user")[i % 4]
        path = (root / "team" if i % 3 == 0 else root) / f"{kind}_{i:04d}.md"
        description = " ".join(row["text"].split()[:8])
        path.write_text(
            f"---\nname: {row['id']}\ndescription: {description}\ntype: {kind}\n---\n\n"
            f"{row['text']}\n",
            encoding="utf-8",
        )
        stamp = (now_ms - i * 3_600_000 * 7) / 1000  # a file every 7 hours back
        os.utime(path, (stamp, stamp))
    return root


def _dirs(tmp: Path, sizes: list[int], cache: Path) -> dict[str, tuple[Path, float]]:
    from whole_dir_corpus import NOW_MS, cached_dir

    from memdir_nb.ui.demo.build import build_demo_memory_dir

    demo_now = 1_750_000_000_000.0
    demo = build_demo_memory_dir(tmp / "demo", now_ms=demo_now)
    dirs = {f"bench-{n}": (cached_dir(cache, n), NOW_MS) for n in sizes}
    dirs["demo"] = (Path(demo), demo_now)
    dirs["secret-corpora"] = (_corpus_dir(tmp / "corpora", NOW_MS), NOW_MS)
    for base in (HERE.parent / "notebooks" / "data", HERE.parent / "tests" / "data"):
        for mem in sorted(base.rglob("memory")):
            if mem.is_dir():
                dirs[str(mem.relative_to(HERE.parent))] = (mem, NOW_MS)
    dirs.update(_recall_dirs(tmp / "recall"))
    return dirs


def _recall_dirs(tmp: Path) -> dict[str, tuple[Path, float]]:
    """The memory dirs of benchmarks/data: each recall corpus dir (tune and holdout) and each
    case file's memories, written as recall_corpus.py and recall_eval.py write them."""
    from recall_corpus import NOW_MS, materialise_dir
    from recall_eval import build_memory_dir

    out: dict[str, tuple[Path, float]] = {}
    for data in sorted((HERE / "data").glob("*.json")):
        spec = json.loads(data.read_text(encoding="utf-8"))
        if "dirs" in spec:
            for i, one in enumerate(spec["dirs"]):
                target = materialise_dir(one, tmp / data.stem / str(i), now_ms=NOW_MS)
                out[f"{data.stem}/{i}"] = (target, NOW_MS)
        elif "memories" in spec:
            target = tmp / data.stem
            target.mkdir(parents=True)
            out[data.stem] = (build_memory_dir(spec, target, now_ms=NOW_MS), NOW_MS)
    return out


def collect(
    sizes: list[int], cache: Path = DEFAULT_CACHE, lint: bool = True, repeat: bool = False
) -> dict[str, Any]:
    """Every dir's lint findings (none when lint is False) and plan.

    repeat: plan and lint each dir twice and keep the second plan and lint, made with what the
    first left in the process's caches (SystemExit when the two differ).
    """
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (root, now_ms) in _dirs(Path(tmp), sizes, cache).items():
            if EACH_DIR:
                PLAN_CACHE[:] = [EACH_DIR[0] / name]
            plan = _plan(root, now_ms)
            if repeat and _plan(root, now_ms) != plan:
                raise SystemExit(f"{name}: a second plan in the same process differs")
            found = _lint(root, now_ms) if lint else []
            if repeat and lint and _lint(root, now_ms) != found:
                raise SystemExit(f"{name}: a second lint in the same process differs")
            out[name] = {"lint": found, "plan": plan}
    return out


def compare(a: dict[str, Any], b: dict[str, Any]) -> int:
    """Print the differences between two collections; the number of dirs that differ."""
    bad = 0
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            bad += 1
            print(f"DIFFERS: {name}")
            for part in ("lint", "plan"):
                x, y = (a.get(name) or {}).get(part), (b.get(name) or {}).get(part)
                if x != y:
                    print(f"  {part}: {json.dumps(x)[:300]}\n  vs {json.dumps(y)[:300]}")
        else:
            lint, plan = a[name]["lint"], a[name]["plan"]
            print(f"same: {name} ({len(lint)} findings, {len(plan['actions'])} actions)")
    return bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", nargs=2, type=Path)
    parser.add_argument("--sizes", default="1000,2000", help="bench dir sizes (whole_dir_corpus)")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="the bench dirs' cache")
    parser.add_argument("--plan-only", action="store_true", help="plans only, no lint findings")
    parser.add_argument(
        "--repeat", action="store_true", help="plan and lint each dir twice; the two must agree"
    )
    parser.add_argument(
        "--plan-cache", type=Path, help="plan with the planner's on-disk cache in this folder"
    )
    parser.add_argument(
        "--plan-cache-each",
        type=Path,
        help="as --plan-cache, each dir's cache a folder of its own in this one (so every dir's "
        "first run finds an empty cache)",
    )
    args = parser.parse_args()
    if args.plan_cache is not None:
        PLAN_CACHE.append(args.plan_cache)
    if args.plan_cache_each is not None:
        EACH_DIR.append(args.plan_cache_each)
    if args.compare:
        a, b = (json.loads(p.read_text()) for p in args.compare)
        return 1 if compare(a, b) else 0
    sizes = [int(n) for n in args.sizes.split(",") if n]
    data = collect(sizes, args.cache, not args.plan_only, args.repeat)
    text = json.dumps(data, indent=1, sort_keys=True)
    if args.out:
        args.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
