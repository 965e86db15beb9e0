"""Issue 19's row "Encoding a 200-memory dir from cold: <= 10 s, with a progress bar".

Usage:
    python benchmarks/cold_encode.py [--code DIR ...] [--rounds N] [--dir tune-21-en-200] [--json]

Builds one real-length dir of the tuning corpus (benchmarks/data/recall_tune.json; tune-21-en-200
by default: 200 memories, median body 1,670 characters) once, then, for each round and each
checkout given with --code (this one by default; give two to take turns, e.g. a detached
worktree of main and this branch), runs a fresh process with that checkout's memdir_nb first on
sys.path which loads the model (not timed), makes a `SemanticSelector` on an empty vector
cache with the progress bar on, and times `prepare` over every header: every manifest line
and every body window encoded, the bar drawn on stderr, the vectors written to the cache.
Prints each run's wall and CPU seconds, the texts encoded and whether the bar was drawn, and
per checkout the median wall and CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "benchmarks"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

CHILD = """
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from memdir_nb.recall.embedding import load_encoder
from memdir_nb.recall.semantic import SemanticSelector
from memdir_nb.storage.scan import scan_memory_files
load_encoder()
headers = scan_memory_files(Path(sys.argv[2]))
selector = SemanticSelector(cache_dir=Path(sys.argv[3]), progress=True)
t0, c0 = time.perf_counter(), time.process_time()
texts = selector.prepare(headers)
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
import memdir_nb
print(json.dumps({"wall_s": wall, "cpu_s": cpu, "texts": texts, "code": memdir_nb.__file__}))
"""


def one_run(code: Path, memory_dir: Path, cache_dir: Path) -> dict[str, object]:
    """One cold `prepare` in a fresh process running the memdir_nb under `code`."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(code), str(memory_dir), str(cache_dir)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    row: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    if not str(row["code"]).startswith(str(code.resolve())):
        raise SystemExit(f"the child ran {row['code']}, not the code under {code}")
    # tqdm's last line of each encode call (manifests, then windows): "encoding memories: 100%|"
    row["bar_drawn"] = "encoding memories: 100%" in out.stderr
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, action="append", help="checkout(s) to time in turn")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", default="tune-21-en-200", help="a dir id of the tuning corpus")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    codes: list[Path] = args.code or [ROOT]

    from recall_eval import build_memory_dir
    from recall_speed import real_length_dir

    cases = real_length_dir(ROOT / "benchmarks" / "data" / "recall_tune.json", args.dir)
    runs: dict[str, list[dict[str, object]]] = {str(c): [] for c in codes}
    with tempfile.TemporaryDirectory(prefix="cold-encode-") as tmp:
        memory_dir = build_memory_dir(cases, Path(tmp) / "memory", now_ms=time.time() * 1000)
        for r in range(args.rounds):
            for i, code in enumerate(codes):
                load = os.getloadavg()[0]
                row = one_run(code, memory_dir, Path(tmp) / f"cache-{r}-{i}")
                row["load_1min"] = round(load, 1)
                runs[str(code)].append(row)
                if not args.json:
                    print(
                        f"round {r + 1} {code}: wall {row['wall_s']:.2f} s, cpu "
                        f"{row['cpu_s']:.2f} s, {row['texts']} texts, bar drawn "
                        f"{row['bar_drawn']}, load {load:.1f}",
                        flush=True,
                    )
    summary = {
        code: {
            "median_wall_s": round(statistics.median(float(r["wall_s"]) for r in rows), 2),  # type: ignore[arg-type]
            "median_cpu_s": round(statistics.median(float(r["cpu_s"]) for r in rows), 2),  # type: ignore[arg-type]
            "runs": rows,
        }
        for code, rows in runs.items()
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        for code, fig in summary.items():
            print(
                f"{code}: median wall {fig['median_wall_s']} s, median cpu {fig['median_cpu_s']} s"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
