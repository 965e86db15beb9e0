"""Benchmark scan_memory_files against a bare open-and-read loop.

Builds memory dirs of 200 and 10,000 realistic memory files (frontmatter plus a few hundred
bytes of body, spread over the top level, team/ and topic folders, with some hand-written
headers that need the YAML or recovery path) in a temp dir, then reports medians of
repeated runs of:

  scan      scan_memory_files(dir)               (the real call: walk, sort, read <= 200 headers)
  scan_all  scan_memory_dir(dir, limit=None)     (every header read and parsed, no cap)
  bare      for each file: open, read 4 KB, close (paths listed beforehand; the I/O floor)

and the ratios scan/bare and scan_all/bare. Wall-clock medians are the figures that count;
CPU-time medians (time.process_time) are printed too, with the load average, because on a
shared machine other processes inflate wall time. Usage:

  python benchmarks/bench_scan.py [--json] [--small-runs 15] [--large-runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.storage.scan import scan_memory_dir, scan_memory_files

TYPES = ("user", "feedback", "project", "reference")
WORDS = [
    "release",
    "freeze",
    "pipeline",
    "database",
    "mocks",
    "linear",
    "grafana",
    "latency",
    "deploy",
    "canary",
    "rollback",
    "schema",
    "migration",
    "oncall",
    "review",
    "tests",
    "flaky",
    "cache",
    "auth",
    "token",
    "rust",
    "go",
    "react",
    "budget",
]
BODY_SENTENCE = (
    "The team agreed on this after the incident review; see the linked dashboard for detail. "
)


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def build_dir(root: Path, count: int, seed: int = 7) -> list[str]:
    """Write `count` memory files under root with spread-out mtimes; return their paths."""
    rng = random.Random(seed)
    now = time.time()
    paths: list[str] = []
    for i in range(count):
        mtype = TYPES[i % 4]
        folder = ("", "team/", "topics/", "topics/infra/")[rng.randrange(4)]
        path = root / f"{folder}{mtype}_{i:05d}.md"
        name = _text(rng, 3).capitalize()
        desc = _text(rng, 12)
        body = BODY_SENTENCE * rng.randint(3, 6) + "\n\n**Why:** " + _text(rng, 10) + "\n"
        roll = rng.random()
        if roll < 0.10:  # hand-written, with an unquoted colon: YAML fails, line recovery
            text = f"---\nname: {name}\ndescription: Steps: {desc}\ntype: {mtype}\n---\n\n{body}"
        elif roll < 0.15:  # hand-written with a list field: needs real YAML
            text = f"---\nname: {name}\ndescription: {desc}\ntype: {mtype}\ntags: [a, b]\n---\n\n{body}"
        else:
            text = render_memory_file(name, desc, mtype, body)
        paths.append(_write_aged(path, text, now - rng.uniform(0, 400 * 86400)))
    (root / "MEMORY.md").write_text("- [x](x.md) — index\n")
    return paths


def _write_aged(path: Path, text: str, mtime: float) -> str:
    """Write text to path (folders made as needed) with the given mtime; return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (mtime, mtime))
    return str(path)


def _newer_header(rng: random.Random, name: str, desc: str, mtype: str) -> str:
    """A header in the mix of Claude Code's newer files (research notes on published dirs):
    two in three nest the type under `metadata:` with a session id, one description in four is
    quoted, and one header in fifty has an unquoted ': ' that strict YAML refuses."""
    session = f"{rng.getrandbits(128):032x}"
    session = "-".join((session[:8], session[8:12], session[12:16], session[16:20], session[20:]))
    quoted = f'"{desc}"' if rng.random() < 0.25 else desc
    if rng.random() < 0.02:
        quoted = f"Steps: {desc}"
    if rng.random() < 2 / 3:
        rows = [
            "metadata:",
            "  node_type: memory",
            f"  type: {mtype}",
            f"  originSessionId: {session}",
        ]
    else:
        rows = [f"type: {mtype}", f"originSessionId: {session}"]
    return "\n".join(["---", f"name: {name}", f"description: {quoted}", *rows, "---"])


def build_newer_dir(root: Path, count: int, seed: int = 7) -> list[str]:
    """Like build_dir, with headers in the shape of Claude Code's newer files (_newer_header)."""
    rng = random.Random(seed)
    now = time.time()
    paths: list[str] = []
    for i in range(count):
        mtype = TYPES[i % 4]
        path = root / f"{mtype}_{_text(rng, 2).replace(' ', '_')}_{i:05d}.md"
        head = _newer_header(rng, _text(rng, 3).replace(" ", "-"), _text(rng, 12), mtype)
        body = BODY_SENTENCE * rng.randint(3, 6) + "\n\n**Why:** " + _text(rng, 10) + "\n"
        paths.append(_write_aged(path, f"{head}\n\n{body}", now - rng.uniform(0, 400 * 86400)))
    (root / "MEMORY.md").write_text("- [x](x.md) — index\n")
    return paths


def bare_loop(paths: list[str]) -> int:
    """Open each file and read its first 4 KB; nothing else."""
    total = 0
    for p in paths:
        with open(p, "rb") as fh:
            total += len(fh.read(4096))
    return total


def median_ms(fn, runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time of fn() in milliseconds, after one warm-up run."""
    fn()
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def measure(count: int, runs: int) -> dict[str, float]:
    """Build a dir of `count` files and time scan, scan_all and bare on it."""
    with tempfile.TemporaryDirectory(prefix="memdir_bench_") as tmp:
        root = Path(tmp) / "memory"
        paths = build_dir(root, count)
        headers = scan_memory_files(root)
        assert len(headers) == min(count, 200), "scan returned the wrong number of headers"
        scan, scan_cpu = median_ms(lambda: scan_memory_files(root), runs)
        scan_all, scan_all_cpu = median_ms(lambda: scan_memory_dir(root, limit=None), runs)
        bare, bare_cpu = median_ms(lambda: bare_loop(paths), runs)
    return {
        "files": count,
        "runs": runs,
        "scan_ms": round(scan, 3),
        "scan_all_ms": round(scan_all, 3),
        "bare_ms": round(bare, 3),
        "scan_over_bare": round(scan / bare, 3),
        "scan_all_over_bare": round(scan_all / bare, 3),
        "scan_cpu_ms": round(scan_cpu, 3),
        "scan_all_cpu_ms": round(scan_all_cpu, 3),
        "bare_cpu_ms": round(bare_cpu, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    parser.add_argument("--small-runs", type=int, default=15, help="runs for the 200-file dir")
    parser.add_argument("--large-runs", type=int, default=5, help="runs for the 10,000-file dir")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    results = [measure(200, args.small_runs), measure(10_000, args.large_runs)]
    load_after = os.getloadavg()[0]
    targets = {200: 10.0, 10_000: 300.0}
    for r in results:
        r["target_ms"] = targets[r["files"]]
        r["meets_target"] = r["scan_ms"] < r["target_ms"]
    if args.json:
        print(
            json.dumps(
                {
                    "benchmark": "scan",
                    "cpus": os.cpu_count(),
                    "load_average_1m": [round(load_before, 2), round(load_after, 2)],
                    "results": results,
                },
                indent=2,
            )
        )
        return 0
    print(
        f"scan benchmark on {os.cpu_count()} CPUs; 1-min load average {load_before:.2f} -> {load_after:.2f}"
    )
    print(
        f"{'files':>7} {'runs':>4} {'scan ms':>9} {'scan_all ms':>11} {'bare ms':>9} "
        f"{'scan/bare':>9} {'all/bare':>8} {'target':>8}"
    )
    for r in results:
        print(
            f"{r['files']:>7} {r['runs']:>4} {r['scan_ms']:>9.2f} {r['scan_all_ms']:>11.2f} "
            f"{r['bare_ms']:>9.2f} {r['scan_over_bare']:>9.2f} {r['scan_all_over_bare']:>8.2f} "
            f"{'<' + format(r['target_ms'], 'g') + ' ' + ('ok' if r['meets_target'] else 'MISS'):>8}"
        )
    print(
        "CPU-time medians (ms): "
        + "; ".join(
            f"{r['files']} files: scan {r['scan_cpu_ms']:.2f}, scan_all {r['scan_all_cpu_ms']:.2f}, bare {r['bare_cpu_ms']:.2f}"
            for r in results
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
