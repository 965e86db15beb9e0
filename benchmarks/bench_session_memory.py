"""Peak memory and time of `replay` and of the extractor's reads on long transcripts
(docs/performance.md, thirty-fourth session).

Transcripts are generated into --work (default: a temporary folder under /tmp, removed after;
never in the checkout), in two shapes of tests/support/transcripts: `long_session` (about
1.4 KB a turn: many small turns) and `long_results_session` (a Read of 40 KB a turn: bytes
mostly tool results). Each measurement runs in a fresh process running the memdir_nb under
--code (the "before" is another checkout), which reports its wall and CPU time and its peak
resident memory as VmHWM from /proc/self/status (not ru_maxrss, which a vfork child inherits).

- replay: `replay_session(path, memory, selector=lexical)` over a dir of three memories, the
  rows counted and dropped as the CLI prints them (`iter_replay` where the code has it).
- extract: an ExtractionScheduler with a recording extractor runs `on_transcript` on the
  file, then once more after one turn was appended (the second run is what every later turn
  end costs); each run's bytes read (rchar of /proc/self/io) and time.

Usage:  python benchmarks/bench_session_memory.py [--sizes 10,100,1000] [--shapes small,results]
        [--what replay,extract] [--code DIR] [--work DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memdir_nb.ui.demo.session_records import RecordWriter
from tests.support.transcripts import long_results_session, long_session

ROOT = Path(__file__).resolve().parents[1]
SMALL_TURN_BYTES = 1_410  # long_session's bytes a turn
RESULTS_TURN_BYTES = 42_000  # long_results_session's at 40 KB results

_PEAK = """
def _status(key):
    with open("/proc/self/status", encoding="ascii") as f:
        return int(next(x.split()[1] for x in f if x.startswith(key + ":")))
def _rchar():
    with open("/proc/self/io", encoding="ascii") as f:
        return int(next(x.split()[1] for x in f if x.startswith("rchar:")))
"""

REPLAY = (
    """
import sys, time
sys.path.insert(0, sys.argv[1])
"""
    + _PEAK
    + """
from memdir_nb.recall.lexical import LexicalSelector
import memdir_nb.reports.replay as r
t0, c0 = time.perf_counter(), time.process_time()
if hasattr(r, "iter_replay"):
    turns = sum(1 for _ in r.iter_replay(sys.argv[2], sys.argv[3], selector=LexicalSelector(),
                                          now_ms=0).turns)
else:
    turns = len(r.replay_session(sys.argv[2], sys.argv[3], selector=LexicalSelector(),
                                 now_ms=0).turns)
print(turns, time.perf_counter() - t0, time.process_time() - c0, _status("VmHWM"))
"""
)

EXTRACT = (
    """
import sys, time
sys.path.insert(0, sys.argv[1])
"""
    + _PEAK
    + """
from memdir_nb.extract.scheduler import ExtractionScheduler
runs = []
sched = ExtractionScheduler(sys.argv[3], lambda request: runs.append(len(request.new_messages)))
out = []
for step in range(2):
    if step:
        with open(sys.argv[2], "a", encoding="utf-8") as f:
            f.write(sys.argv[4])
    r0, t0 = _rchar(), time.perf_counter()
    action = sched.on_transcript(sys.argv[2]).action
    out += [action, runs[-1] if runs else 0, _rchar() - r0, time.perf_counter() - t0]
print(*out, _status("VmHWM"))
"""
)


def one_turn() -> str:
    """One more turn, appended between the extractor's two runs."""
    w = RecordWriter("0b2c4d6e", "/home/ana/app", "2026-06-01T10:00:00.000Z", seed="appended")
    w.prompt("one more question")
    w.response([{"type": "text", "text": "one more answer"}])
    return w.text()


def generate(work: Path, shape: str, mb: int) -> Path:
    """A transcript of about `mb` MB in the shape, under work/<shape>-<mb>/projects/…"""
    folder = work / f"{shape}-{mb}" / "projects" / "-home-ana-app"
    folder.mkdir(parents=True, exist_ok=True)
    memory = folder / "memory"
    memory.mkdir(exist_ok=True)
    for i, topic in enumerate(("routes", "deploys", "tests")):
        (memory / f"{topic}.md").write_text(
            f"---\nname: {topic}\ndescription: how {topic} work here\ntype: project\n---\n"
            f"Notes on {topic} ({i}).\n"
        )
    if shape == "small":
        return long_session(folder, mb * 1024 * 1024 // SMALL_TURN_BYTES)
    return long_results_session(folder, mb * 1024 * 1024 // RESULTS_TURN_BYTES, result_kb=40)


def run(code: Path, what: str, path: Path) -> dict[str, object]:
    """One measurement in a fresh process."""
    memory = path.parent / "memory"
    script, extra = (REPLAY, []) if what == "replay" else (EXTRACT, [one_turn()])
    out = subprocess.run(
        [sys.executable, "-c", script, str(code), str(path), str(memory), *extra],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    if what == "replay":
        return {
            "turns": int(out[0]),
            "wall_s": round(float(out[1]), 1),
            "cpu_s": round(float(out[2]), 1),
            "peak_mb": round(int(out[3]) / 1024),
        }
    return {
        "first": f"{out[0]} {out[1]} msgs",
        "first_read_mb": round(int(out[2]) / 2**20, 1),
        "first_s": round(float(out[3]), 2),
        "next": f"{out[4]} {out[5]} msgs",
        "next_read_mb": round(int(out[6]) / 2**20, 2),
        "next_s": round(float(out[7]), 3),
        "peak_mb": round(int(out[8]) / 1024),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10,100")
    parser.add_argument("--shapes", default="small,results")
    parser.add_argument("--what", default="replay,extract")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose code runs")
    parser.add_argument("--work", type=Path, default=None, help="keep transcripts here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench_session_memory_", dir="/tmp"))
    rows = []
    try:
        for shape in args.shapes.split(","):
            for mb in map(int, args.sizes.split(",")):
                path = generate(work, shape, mb)
                size = round(path.stat().st_size / 2**20, 1)
                for what in args.what.split(","):  # replay first: extract appends a turn
                    row = {"what": what, "shape": shape, "file_mb": size}
                    row.update(run(args.code, what, path))
                    rows.append(row)
                    print(json.dumps(row) if args.json else row, flush=True)
                shutil.rmtree(path.parent.parent.parent, ignore_errors=True)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
