"""Benchmark the fleet export (Claude homes -> Parquet) and one DuckDB query over its output.

Builds a fake Claude home with N project memory dirs of M memories each (default 1,000 x 50:
50,000 memory files with frontmatter and a short body, ages spread over two years, every
twentieth dir with an index past the 200-line cap) in a temp dir, then reports medians of:

  export  memdir_nb.reports.fleet.export_parquet([home], out)   (walk, read every header and index,
                                                          write memories.parquet + dirs.parquet)
  bare    for each memory file: open, read 4 KB, close   (paths listed beforehand; the I/O floor)
  query   one DuckDB query over the two files: memories per project, stale share and index-cap
          use per project, the 20 projects under most pressure

with the ratio export/bare. Usage:

  python benchmarks/bench_fleet.py [--dirs 1000] [--memories 50] [--runs 3] [--json]
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
from memdir_nb.formats.index import format_index_entry
from memdir_nb.reports.fleet import DIRS_FILE, MEMORIES_FILE, export_parquet

TYPES = ("user", "feedback", "project", "reference")
DAY_MS = 86_400_000
NOW_MS = 1_790_000_000_000.0

QUERY = """
WITH per_project AS (
    SELECT project, count(*) AS memories, avg(stale::INT) AS stale_share,
           avg(age_days) AS mean_age_days
    FROM read_parquet('{memories}')
    GROUP BY project
)
SELECT p.project, p.memories, round(p.stale_share, 3) AS stale_share,
       d.index_line_use, d.index_byte_use, d.index_truncated
FROM per_project p JOIN read_parquet('{dirs}') d USING (project)
ORDER BY greatest(d.index_line_use, d.index_byte_use) DESC, p.memories DESC
LIMIT 20
"""


def build_home(root: Path, n_dirs: int, n_memories: int, seed: int = 7) -> tuple[Path, list[str]]:
    """A Claude home with n_dirs project memory dirs of n_memories files; returns (home, files)."""
    rng = random.Random(seed)
    home = root / ".claude"
    files: list[str] = []
    for d in range(n_dirs):
        mem = home / "projects" / f"-bench-project-{d:05d}" / "memory"
        mem.mkdir(parents=True)
        lines = []
        for m in range(n_memories):
            kind = TYPES[m % 4]
            name = f"{kind} note {m} of project {d}"
            rel = f"{kind}_note_{m:03d}.md"
            desc = f"what the {kind} note {m} of project {d} records for later sessions"
            body = "A point-in-time fact worth keeping.\n\n**Why:** it cost a day.\n**How to apply:** before deploys."
            path = mem / rel
            path.write_text(render_memory_file(name, desc, kind, body), encoding="utf-8")
            age = rng.randint(0, 730)
            t = (NOW_MS - age * DAY_MS) / 1000
            os.utime(path, (t, t))
            files.append(os.fspath(path))
            lines.append(format_index_entry(name, rel, desc))
        if d % 20 == 0:  # a pasted transcript pushes this index past the line cap
            lines += [f"- 10:{i // 60:02d}:{i % 60:02d} someone said something" for i in range(220)]
        (mem / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return home, files


def bare_read(files: list[str]) -> None:
    """The floor: open each file, read 4 KB, close."""
    for path in files:
        with open(path, "rb") as fh:
            fh.read(4096)


def median_time(fn, runs: int) -> float:
    """Median wall time of fn() over runs runs, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Build, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dirs", type=int, default=1000, help="project memory dirs (default 1000)")
    parser.add_argument("--memories", type=int, default=50, help="memories per dir (default 50)")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()

    import duckdb

    with tempfile.TemporaryDirectory(prefix="memdir-bench-fleet-") as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        home, files = build_home(root, args.dirs, args.memories)
        build_s = time.perf_counter() - start
        out = root / "out"
        bare_read(files)  # warm the page cache the same way for both
        export_s = median_time(lambda: export_parquet([home], out, now_ms=NOW_MS), args.runs)
        bare_s = median_time(lambda: bare_read(files), args.runs)
        sql = QUERY.format(memories=out / MEMORIES_FILE, dirs=out / DIRS_FILE)
        con = duckdb.connect()
        top = con.sql(sql).fetchall()
        query_s = median_time(lambda: con.sql(sql).fetchall(), max(5, args.runs))
        sizes = {
            MEMORIES_FILE: (out / MEMORIES_FILE).stat().st_size,
            DIRS_FILE: (out / DIRS_FILE).stat().st_size,
        }
        figures = {
            "dirs": args.dirs,
            "memories_per_dir": args.memories,
            "memory_files": len(files),
            "build_s": round(build_s, 2),
            "export_s": round(export_s, 3),
            "bare_read_s": round(bare_s, 3),
            "export_over_bare": round(export_s / bare_s, 1),
            "memories_per_s": round(len(files) / export_s),
            "query_ms": round(query_s * 1000, 1),
            "parquet_bytes": sizes,
            "top_project": top[0][0] if top else None,
            "load_average": os.getloadavg()[0],
            "cpus": os.cpu_count(),
        }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"fleet export: {args.dirs:,} dirs x {args.memories} memories = {len(files):,} files")
    print(
        f"  export (median of {args.runs}):   {export_s:8.3f} s  ({figures['memories_per_s']:,} memories/s)"
    )
    print(
        f"  bare 4 KB read loop:        {bare_s:8.3f} s  (export/bare {figures['export_over_bare']}x)"
    )
    print(f"  DuckDB query (median):      {query_s * 1000:8.1f} ms")
    print(
        f"  parquet: {sizes[MEMORIES_FILE]:,} + {sizes[DIRS_FILE]:,} bytes; load {figures['load_average']:.1f}"
    )


if __name__ == "__main__":
    main()
