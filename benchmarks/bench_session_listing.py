"""Benchmark listing a Claude home's sessions (`memdir-nb sessions`, list_sessions) over one long
transcript (docs/performance.md, twenty-eighth session).

For each size, a transcript of that many turns of the real shape (tests/support/transcripts.
long_session: a prompt and an answer a turn, every fifth turn a Read call and its result, about
1.4 KB a turn) is listed in a fresh process, which reports its CPU time, wall time and peak
resident memory (getrusage ru_maxrss). --code runs another checkout's memdir_nb (the "before").

Usage:  python benchmarks/bench_session_listing.py [--turns 25000,50000,100000,200000]
        [--code DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.transcripts import long_session

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import resource, sys, time
sys.path.insert(0, sys.argv[1])
from memdir_nb.home.sessions import list_sessions
started = time.perf_counter()
(listed,) = list_sessions(sys.argv[2])
wall = time.perf_counter() - started
ru = resource.getrusage(resource.RUSAGE_SELF)
print(listed.turns, wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss)
"""


def measure(code: Path, home: Path) -> dict[str, float]:
    """One listing of `home` in a fresh process running the memdir_nb under `code`."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(code), str(home)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return {
        "turns": int(out[0]),
        "wall_s": round(float(out[1]), 2),
        "cpu_s": round(float(out[2]), 2),
        "peak_rss_mb": round(int(out[3]) / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", default="25000,50000,100000,200000")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose code runs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for turns in (int(t) for t in args.turns.split(",")):
            project = Path(tmp) / str(turns) / "projects" / "-home-ana-app"
            project.mkdir(parents=True)
            path = long_session(project, turns)
            row = measure(args.code, project.parent.parent)
            assert row["turns"] == turns, row
            rows.append({"file_mb": round(path.stat().st_size / 1e6, 1), **row})
            path.unlink()
    if args.json:
        print(json.dumps({"load": os.getloadavg()[0], "rows": rows}, indent=2))
        return
    print(f"code: {args.code}   1-minute load average at the end: {os.getloadavg()[0]:.2f}")
    print(f"{'file MB':>8} {'turns':>7} {'wall s':>7} {'cpu s':>6} {'peak RSS MB':>11}")
    for r in rows:
        print(
            f"{r['file_mb']:>8} {r['turns']:>7} {r['wall_s']:>7} {r['cpu_s']:>6}"
            f" {r['peak_rss_mb']:>11}"
        )


if __name__ == "__main__":
    main()
