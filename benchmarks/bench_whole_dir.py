"""Whole-dir operations at 1,000, 10,000 and 100,000 memory files: plan, lint, summarize.

For each size the dir is built once into a cache folder (default .bench/whole_dir, which is
gitignored; see whole_dir_corpus.py) and reused by later runs. Each operation's wall-time
median is printed with its CPU-time median, its ratio to a bare loop that opens each file
and reads its first 4 KB (the I/O floor; file list built beforehand), and its growth from
the previous size, in wall and CPU time (x10 files: near-linear is about 10-13, quadratic
about 100). On a shared machine the CPU figures are the steadier ones.

  plan       memdir_nb.dream.plan_consolidation(dir)
  lint       memdir_nb.lint.lint_memory_dir(dir, progress=False)
  summarize  memdir_nb.reports.analysis.summarize(dir)

Usage:
  python benchmarks/bench_whole_dir.py                        # 1k, 10k, 100k (builds on first run)
  python benchmarks/bench_whole_dir.py --sizes 2000 --ops plan
  python benchmarks/bench_whole_dir.py --code /path/to/other/checkout   # time another version
  python benchmarks/bench_whole_dir.py --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

DEFAULT_CACHE = HERE.parent / ".bench" / "whole_dir"
DEFAULT_RUNS = {1_000: 5, 2_000: 3, 10_000: 3, 100_000: 1}
OPS = ("plan", "lint", "summarize")


def list_files(root: Path) -> list[str]:
    """Every .md file under root outside dot-folders (what the operations read)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        out += [os.path.join(dirpath, f) for f in filenames if f.endswith(".md")]
    return out


def bare_loop(paths: list[str]) -> int:
    """Open each file and read its first 4 KB; nothing else."""
    total = 0
    for p in paths:
        with open(p, "rb") as fh:
            total += len(fh.read(4096))
    return total


def median_ms(fn: Callable[[], object], runs: int, warmup: bool) -> tuple[float, float]:
    """Median wall and CPU (this process) milliseconds of fn() over runs, after an optional warm-up."""
    if warmup:
        fn()
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def operations(root: Path, now_ms: float) -> dict[str, Callable[[], object]]:
    """The timed calls, imported from whichever memdir_nb is first on sys.path."""
    from memdir_nb.dream import plan_consolidation
    from memdir_nb.lint import lint_memory_dir
    from memdir_nb.reports.analysis import summarize

    return {
        "plan": lambda: plan_consolidation(root, now_ms=now_ms),
        "lint": lambda: lint_memory_dir(root, now_ms=now_ms, progress=False),
        "summarize": lambda: summarize(root, now_ms=now_ms),
    }


def run(
    sizes: list[int],
    ops: list[str],
    cache: Path,
    runs: int | None,
    show: bool = True,
    warmup: bool = True,
) -> list[dict[str, Any]]:
    """Time every operation at every size; return one row per (size, operation)."""
    from whole_dir_corpus import NOW_MS, cached_dir

    rows: list[dict[str, Any]] = []
    previous: dict[str, tuple[float, float]] = {}
    for size in sizes:
        start = time.perf_counter()
        root = cached_dir(cache, size)
        built_s = time.perf_counter() - start
        paths = list_files(root)
        n_runs = runs or DEFAULT_RUNS.get(size, 3)
        bare, bare_cpu = median_ms(lambda p=paths: bare_loop(p), max(n_runs, 3), warmup=True)
        rows.append(_row(size, "bare", n_runs, bare, bare_cpu, bare, None, built_s))
        if show:
            print(_format(rows[-1]), flush=True)
        calls = operations(root, NOW_MS)
        for op in ops:
            # One warm-up run on small dirs; the larger ones are warm from building and the bare loop.
            wall, cpu = median_ms(calls[op], n_runs, warmup=warmup and size <= 2_000)
            growth = (wall / previous[op][0], cpu / previous[op][1]) if op in previous else None
            rows.append(_row(size, op, n_runs, wall, cpu, bare, growth, built_s))
            previous[op] = (wall, cpu)
            if show:
                print(_format(rows[-1]), flush=True)
    return rows


def _row(
    size: int,
    op: str,
    runs: int,
    wall: float,
    cpu: float,
    bare: float,
    growth: tuple[float, float] | None,
    built_s: float,
) -> dict[str, Any]:
    return {
        "files": size,
        "operation": op,
        "runs": runs,
        "wall_ms": round(wall, 2),
        "cpu_ms": round(cpu, 2),
        "x_bare": round(wall / bare, 2) if bare else None,
        "growth": round(growth[0], 2) if growth is not None else None,
        "cpu_growth": round(growth[1], 2) if growth is not None else None,
        "build_s": round(built_s, 1),
    }


HEADER = (
    f"{'files':>7} {'operation':<10} {'runs':>4} {'wall ms':>11} {'cpu ms':>11} {'x bare':>8}"
    f" {'growth':>7} {'cpu gr.':>7}"
)


def _format(r: dict[str, Any]) -> str:
    growth = f"{r['growth']:.2f}" if r["growth"] is not None else "-"
    cpu_growth = f"{r['cpu_growth']:.2f}" if r["cpu_growth"] is not None else "-"
    return (
        f"{r['files']:>7} {r['operation']:<10} {r['runs']:>4} {r['wall_ms']:>11.1f} "
        f"{r['cpu_ms']:>11.1f} {r['x_bare']:>8.1f} {growth:>7} {cpu_growth:>7}"
    )


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the benchmark and print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated file counts")
    parser.add_argument("--ops", default=",".join(OPS), help=f"comma-separated, from {OPS}")
    parser.add_argument("--runs", type=int, default=None, help="timed runs per operation")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where dirs are built")
    parser.add_argument("--code", type=Path, default=None, help="import memdir_nb from this folder")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--no-warmup", action="store_true", help="no untimed first run (for very slow versions)"
    )
    args = parser.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        parser.error(f"--sizes must be comma-separated integers, got {args.sizes!r}")
    ops = [o.strip() for o in args.ops.split(",") if o.strip()]
    unknown = sorted(set(ops) - set(OPS))
    if unknown or not sizes or any(s < 1 for s in sizes):
        parser.error(f"--ops must name some of {OPS} (got {unknown}) and --sizes positive counts")
    if args.code is not None:
        if not (args.code / "memdir_nb" / "__init__.py").is_file():
            parser.error(f"--code {args.code} holds no memdir_nb package; pass a checkout's root")
        sys.path.insert(0, str(args.code.resolve()))
    else:
        sys.path.insert(1, str(HERE.parent))
    import memdir_nb

    print(f"memdir_nb from {Path(memdir_nb.__file__).parent}", file=sys.stderr)
    if not args.json:
        print(HEADER, flush=True)
    rows = run(sizes, ops, args.cache, args.runs, show=not args.json, warmup=not args.no_warmup)
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
