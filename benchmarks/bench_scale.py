"""Scan, recall and key validation at 200, 1,000 and 10,000 memory files, with and without a ScanCache.

Every figure is a median of repeated runs, as wall time and CPU time (time.process_time),
next to the 1-minute load average, because the machine is shared. Each row is also given as
a ratio to a bare loop that only opens each file and reads its first 4 KB (bench_scan.py's
loop) under the same page-cache state. The dirs come from bench_scan.build_dir.

What the operations mean:

  bare        open + read 4 KB + close for every file (file list built beforehand)
  scan        scan_memory_files(dir): walk, stat, sort, read the newest <= 200 headers
  scan_all    scan_memory_dir(dir, limit=None): every header read
  recall      find_relevant_memories(query, dir, selector=LexicalSelector()), offline
  validate    validate_team_mem_key(key, team_dir) for as many keys as there are files

and the page-cache states:

  cold    before every run the files' cached pages are dropped with
          posix_fadvise(POSIX_FADV_DONTNEED) (no root needed; only these files), and the
          scan gets a new, empty ScanCache, so nothing has been read by this process. The
          kernel's inode/dentry caches stay warm (dropping them needs root over the whole
          machine) and the host may still cache the virtual disk, so this is "data not in
          the page cache", not a cold boot.
  warm    no ScanCache; files already in the page cache from earlier runs.
  cached  a ScanCache filled by an earlier scan; unchanged files are not reopened.

Usage:
  python benchmarks/bench_scale.py [--json] [--sizes 200,1000,10000] [--runs-factor 1.0]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_scan import bare_loop, build_dir, median_ms

from memdir_nb.recall import LexicalSelector, find_relevant_memories
from memdir_nb.storage.containment import validate_team_mem_key
from memdir_nb.storage.scan import MAX_MEMORY_FILES, ScanCache, scan_memory_dir, scan_memory_files

QUERY = "which flaky tests block the release pipeline, and who reviews the schema migration?"
RUNS = {200: 15, 1_000: 9, 10_000: 5}  # warm and cached runs per size
COLD_RUNS = {200: 7, 1_000: 5, 10_000: 3}  # cold runs (each drops the page cache first)
TARGETS_MS = {
    ("scan", "warm", 200): 10.0,
    ("scan", "warm", 10_000): 300.0,
    ("recall", "warm", 200): 20.0,
}
RACY_WAIT_S = ScanCache().racy_window_ms / 1000 + 0.1


def drop_page_cache(paths: list[str]) -> None:
    """Ask the kernel to drop these files' cached pages (clean pages only; needs no privilege)."""
    for p in paths:
        fd = os.open(p, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def median_cold_ms(fn: Callable[[], object], paths: list[str], runs: int) -> tuple[float, float]:
    """Median wall and CPU ms of fn(), dropping the files' pages (untimed) before every run."""
    wall, cpu = [], []
    for _ in range(runs):
        drop_page_cache(paths)
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def team_keys(count: int) -> list[str]:
    """Keys a team save would validate: flat and nested names, some of which exist."""
    kinds = ("user", "feedback", "project", "reference")
    return [f"{'sub/' if i % 5 == 0 else ''}{kinds[i % 4]}_{i:05d}.md" for i in range(count)]


def measure_size(count: int, runs: int, cold_runs: int) -> list[dict[str, object]]:
    """Build one dir of `count` files and time every operation on it."""
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="memdir_scale_") as tmp:
        root = Path(tmp) / "memory"
        paths = build_dir(root, count)
        built_at = time.monotonic()
        team_dir = str(root / "team")
        keys = team_keys(count)
        selector = LexicalSelector()
        expected = min(count, MAX_MEMORY_FILES)

        def row(op: str, state: str, wall: float, cpu: float, bare: float, n_runs: int) -> None:
            target = TARGETS_MS.get((op, state, count))
            rows.append(
                {
                    "files": count,
                    "operation": op,
                    "state": state,
                    "runs": n_runs,
                    "wall_ms": round(wall, 3),
                    "cpu_ms": round(cpu, 3),
                    "ratio_to_bare": round(wall / bare, 3),
                    "target_ms": target,
                    "meets_target": None if target is None else wall < target,
                }
            )

        cold_bare, cold_bare_cpu = median_cold_ms(lambda: bare_loop(paths), paths, cold_runs)
        row("bare", "cold", cold_bare, cold_bare_cpu, cold_bare, cold_runs)
        wall, cpu = median_cold_ms(
            lambda: scan_memory_files(root, cache=ScanCache()), paths, cold_runs
        )
        row("scan", "cold", wall, cpu, cold_bare, cold_runs)

        bare, bare_cpu = median_ms(lambda: bare_loop(paths), runs)
        row("bare", "warm", bare, bare_cpu, bare, runs)
        wall, cpu = median_ms(lambda: scan_memory_files(root), runs)
        row("scan", "warm", wall, cpu, bare, runs)

        # Headers are only kept once the files' ctime is older than the racy window.
        time.sleep(max(0.0, built_at + RACY_WAIT_S - time.monotonic()))
        cache = ScanCache()
        assert len(scan_memory_files(root, cache=cache)) == expected
        wall, cpu = median_ms(lambda: scan_memory_files(root, cache=cache), runs)
        stats = cache.stats()
        assert stats.hits == expected * (runs + 1) and stats.racy == 0, (
            f"cache did not hit: {stats}"
        )
        row("scan", "cached", wall, cpu, bare, runs)

        all_runs = max(3, runs // 2) if count >= 10_000 else runs
        wall, cpu = median_ms(lambda: scan_memory_dir(root, limit=None), all_runs)
        row("scan_all", "warm", wall, cpu, bare, all_runs)
        cache_all = ScanCache()
        scan_memory_dir(root, limit=None, cache=cache_all)
        wall, cpu = median_ms(lambda: scan_memory_dir(root, limit=None, cache=cache_all), all_runs)
        assert cache_all.stats().hits == count * (all_runs + 1), (
            f"cache did not hit: {cache_all.stats()}"
        )
        row("scan_all", "cached", wall, cpu, bare, all_runs)

        assert find_relevant_memories(QUERY, root, selector=selector), (
            "the query should find something"
        )
        wall, cpu = median_ms(lambda: find_relevant_memories(QUERY, root, selector=selector), runs)
        row("recall", "warm", wall, cpu, bare, runs)

        wall, cpu = median_ms(lambda: [validate_team_mem_key(k, team_dir) for k in keys], runs)
        row("validate", "warm", wall, cpu, bare, runs)
    return rows


def machine() -> dict[str, object]:
    """CPU model, core count and Python version of the machine the run is on."""
    model = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu_model": model,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def print_table(result: dict[str, Any]) -> None:
    m = result["machine"]
    load = result["load_average_1m"]
    print(
        f"scale benchmark: {m['cpu_model']}, {m['cpus']} CPUs, Python {m['python']}; "
        f"1-min load average {load[0]:.2f} -> {load[1]:.2f}; medians"
    )
    print(
        f"{'files':>6} {'operation':<9} {'state':<6} {'runs':>4} {'wall ms':>9} {'cpu ms':>9} "
        f"{'x bare':>7} {'target':>10}"
    )
    for r in result["results"]:
        target = (
            ""
            if r["target_ms"] is None
            else f"<{r['target_ms']:g} {'ok' if r['meets_target'] else 'MISS'}"
        )
        print(
            f"{r['files']:>6} {r['operation']:<9} {r['state']:<6} {r['runs']:>4} {r['wall_ms']:>9.2f} "
            f"{r['cpu_ms']:>9.2f} {r['ratio_to_bare']:>7.2f} {target:>10}"
        )
    print(
        "x bare: wall median over the bare open+read-4KB loop of the same size and page-cache state "
        "(cold rows over cold bare, the rest over warm bare)."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    parser.add_argument("--sizes", default="200,1000,10000", help="comma-separated file counts")
    parser.add_argument("--runs-factor", type=float, default=1.0, help="scale the number of runs")
    args = parser.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        parser.error(
            f"--sizes takes whole numbers separated by commas, e.g. 200,1000; got {args.sizes!r}"
        )
    if not sizes or min(sizes) < 1 or args.runs_factor <= 0:
        parser.error("--sizes must list counts of at least 1 and --runs-factor must be above 0")

    def scaled(table: dict[int, int], n: int) -> int:
        base = table.get(n, 5 if n > 1_000 else 9)
        return max(3, round(base * args.runs_factor))

    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    rows: list[dict[str, object]] = []
    for n in sizes:
        rows.extend(measure_size(n, scaled(RUNS, n), scaled(COLD_RUNS, n)))
    result = {
        "benchmark": "scale",
        "machine": machine(),
        "load_average_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "seconds": round(time.perf_counter() - started, 1),
        "results": rows,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_table(result)
        print(f"total run time {result['seconds']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
