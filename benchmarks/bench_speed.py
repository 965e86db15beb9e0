"""Every row of the speed issue's table in one run: whole-dir work, cold paths, recall, a save.

Each row prints its median wall and CPU time, the ratio to its floor and the target:

  lint / plan / summarize   lint_memory_dir, plan_consolidation, analysis.summarize over the
                            whole_dir_corpus dirs (1k, 2k, 10k, 20k files; 100k with --big);
                            floor: a bare loop that opens each file and reads its first 4 KB
  lint / plan (first call)  the same at up to 2,000 files, timed as the first call of a fresh process
                            after its imports (what a one-shot `memdir-nb lint` or plan waits
                            for: lazy imports, and no per-content work kept from an earlier
                            plan); no target of their own: the issue's rows are the warm ones.
                            The plan row keeps nothing on disk; "cold disk cache" gives the
                            plan an empty cache folder each run (it computes everything and
                            writes the cache file: dream.disk_kept), "warm disk cache" one that
                            the untimed run filled (an unchanged dir planned by a new process,
                            as a one-shot `dream --plan` or a pre-commit hook plans)
  first scan (new process)  scan_memory_files of 200 files, timed inside a fresh process after
                            its imports; floor: the same process's second (warm) scan
  import storage.scan       those imports, timed in the same process (no floor)
  import + first scan       the two together, per process (no floor)
  memdir-nb scan (process)  `python -m memdir_nb.cli scan DIR` of 200 files, start to exit;
                            floor: `python -c pass`
  ... (newer)               the four cold rows again on 200 files whose headers have the
                            shape of Claude Code's newer files (bench_scan.build_newer_dir:
                            most nest the type under `metadata:`); no targets of their own
  recall warm (default)     find_relevant_memories over 200 memories, semantic selector, warm
                            vectors (every window encoded by SemanticSelector.prepare) and a
                            ScanCache, a new query each call; floor: the lexical selector alone
                            on the same dir
  recall early calls        the same without prepare: only the warm-up call's shortlist is
                            encoded, so a new query may still encode the bodies its own
                            shortlist names (no target; docs/performance.md)
  recall first call         the first find_relevant_memories in a fresh process, model
                            installed and vectors cached (its import not counted)
  save                      MemoryStore.save of one new memory into a 200-file dir

Processes run with bytecode caching on (PYTHONDONTWRITEBYTECODE removed, one untimed run
first), as an installed package runs. CPU is this process's time for in-process rows and
the children's for process rows; on a shared machine CPU is the steadier figure.

Usage:
  python benchmarks/bench_speed.py                  # 1k, 2k, 10k, 20k (about 2-4 minutes)
  python benchmarks/bench_speed.py --big            # also 100k files (builds it once; slow)
  python benchmarks/bench_speed.py --sizes 2000 --skip-recall
  python benchmarks/bench_speed.py --code /path/to/other/checkout   # time another version
  python benchmarks/bench_speed.py --json
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_whole_dir import DEFAULT_CACHE, bare_loop, list_files, median_ms  # noqa: E402

DEFAULT_SIZES = (1_000, 2_000, 10_000, 20_000)
BIG_SIZE = 100_000
RUNS = {1_000: 5, 2_000: 5, 10_000: 3, 20_000: 3, 100_000: 1}
# The targets, in ms, by (row, files); None: no target, figure recorded only.
TARGETS: dict[tuple[str, int | None], float] = {
    ("lint", 2_000): 400,
    ("lint", 20_000): 4_000,
    ("lint", 100_000): 20_000,
    ("plan", 2_000): 300,
    ("first scan (new process)", 200): 20,
    ("recall warm (default)", 200): 20,
    ("recall first call", 200): 250,
    ("save", 200): 10,
}
PROCESS_RATIO_TARGET = 4.0  # `memdir-nb scan` as a whole process, in `python -c pass` units


# Timed children run from the temp folder, never a checkout: `python -m` and `-c` put the current
# folder first on sys.path, so started from a checkout they would import its memdir_nb instead of
# --code's (before/after runs from the repository timed the same code twice).
CHILD_CWD = Path(tempfile.gettempdir())


def child_env(code: Path | None, pycache: Path) -> dict[str, str]:
    """The environment for timed processes: bytecode cached (in pycache), memdir_nb from `code`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)  # never writes into the timed checkout
    if code is not None:
        env["PYTHONPATH"] = str(code) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def process_ms(cmds: list[list[str]], env: dict[str, str], runs: int) -> list[tuple[float, float]]:
    """Median wall and CPU (the children's) ms of running each command to completion.

    After one untimed run of each, the commands take turns, run by run, so a machine that
    speeds up or slows down during the measurement moves every command's figures alike and
    leaves their ratios alone (python -c pass took 12-20 ms within minutes on a shared VM).
    """
    for cmd in cmds:
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True, cwd=CHILD_CWD)
    wall: list[list[float]] = [[] for _ in cmds]
    cpu: list[list[float]] = [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True, cwd=CHILD_CWD)
            wall[i].append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            cpu[i].append(used * 1000)
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(wall, cpu, strict=True)]


_FIRST_SCAN = """
import json, sys, time
i0, j0 = time.perf_counter(), time.process_time()
from memdir_nb.storage.scan import scan_memory_files
t0, c0 = time.perf_counter(), time.process_time()
scan_memory_files(sys.argv[1])
t1, c1 = time.perf_counter(), time.process_time()
scan_memory_files(sys.argv[1])
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps([(t1 - t0) * 1000, (c1 - c0) * 1000, (t2 - t1) * 1000, (c2 - c1) * 1000,
                  (t0 - i0) * 1000, (c0 - j0) * 1000]))
"""

_FIRST_WHOLE = """
import json, sys, time
from memdir_nb.dream import plan_consolidation
from memdir_nb.lint import lint_memory_dir
root, now, name = sys.argv[1], float(sys.argv[2]), sys.argv[3]
cache = None
if name == "plan-cold":  # a folder of its own, empty, for each run
    import tempfile
    cache = tempfile.mkdtemp(prefix="cold-", dir=sys.argv[4])
elif name == "plan-warm":
    cache = sys.argv[4]
t0, c0 = time.perf_counter(), time.process_time()
if name == "lint":
    lint_memory_dir(root, now_ms=now, progress=False)
elif cache is None:
    plan_consolidation(root, now_ms=now)
else:
    plan_consolidation(root, now_ms=now, cache_dir=cache)
print(json.dumps([(time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000]))
"""

FIRST_CALL_MAX = 2_000  # the first-call rows are taken at the sizes up to this one

_FIRST_RECALL = """
import json, sys, time
from pathlib import Path
from memdir_nb.recall import find_relevant_memories
from memdir_nb.recall.semantic import SemanticSelector
t0, c0 = time.perf_counter(), time.process_time()
selector = SemanticSelector(cache_dir=Path(sys.argv[2]), progress=False)
find_relevant_memories(sys.argv[3], sys.argv[1], selector=selector)
print(json.dumps([(time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000]))
"""


def in_process_child(script: str, args: list[str], env: dict[str, str], runs: int) -> list[list]:
    """Each run's JSON figures from a fresh process running script (after one untimed run)."""
    cmd = [sys.executable, "-c", script, *args]
    subprocess.run(cmd, env=env, capture_output=True, check=True, cwd=CHILD_CWD)
    out = []
    for _ in range(runs):
        proc = subprocess.run(
            cmd, env=env, capture_output=True, text=True, check=True, cwd=CHILD_CWD
        )
        out.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return out


def row(
    name: str, files: int, runs: int, wall: float, cpu: float, floor: float | None, unit: str
) -> dict:
    """One printed row; target and verdict from TARGETS (on the wall median)."""
    target = TARGETS.get((name, files))
    ratio = wall / floor if floor else None
    if name == "memdir-nb scan (process)":
        verdict = "ok" if ratio is not None and ratio <= PROCESS_RATIO_TARGET else "over"
        target_text = f"<={PROCESS_RATIO_TARGET:g}x"
    else:
        verdict = "" if target is None else ("ok" if wall <= target else "over")
        target_text = "" if target is None else f"<={target:g}"
    return {
        "row": name,
        "files": files,
        "runs": runs,
        "wall_ms": round(wall, 2),
        "cpu_ms": round(cpu, 2),
        "floor_ms": round(floor, 2) if floor else None,
        "ratio": round(ratio, 2) if ratio is not None else None,
        "floor": unit,
        "target": target_text,
        "verdict": verdict,
    }


HEADER = (
    f"{'row':<33} {'files':>7} {'runs':>4} {'wall ms':>10} {'cpu ms':>10} {'floor ms':>9}"
    f" {'x floor':>8}  {'floor is':<16} {'target':>9} {'':4}"
)


def fmt(r: dict) -> str:
    floor = f"{r['floor_ms']:.1f}" if r["floor_ms"] else "-"
    ratio = f"{r['ratio']:.1f}" if r["ratio"] is not None else "-"
    return (
        f"{r['row']:<33} {r['files']:>7} {r['runs']:>4} {r['wall_ms']:>10.1f} {r['cpu_ms']:>10.1f}"
        f" {floor:>9} {ratio:>8}  {r['floor']:<16} {r['target']:>9} {r['verdict']:4}"
    )


def whole_dir_rows(
    sizes: list[int],
    cache: Path,
    emit: Callable[[dict], None],
    quick: bool = False,
    runs_override: int | None = None,
) -> None:
    """lint, plan and summarize at each size, with the bare read loop as floor."""
    from whole_dir_corpus import NOW_MS, cached_dir

    from memdir_nb.dream import plan_consolidation
    from memdir_nb.lint import lint_memory_dir
    from memdir_nb.reports.analysis import summarize

    for size in sizes:
        root = cached_dir(cache, size)
        paths = list_files(root)
        runs = 1 if quick else runs_override or RUNS.get(size, 3)
        bare, _ = median_ms(lambda p=paths: bare_loop(p), max(runs, 5), warmup=True)
        calls = {
            "lint": lambda r=root: lint_memory_dir(r, now_ms=NOW_MS, progress=False),
            "plan": lambda r=root: plan_consolidation(r, now_ms=NOW_MS),
            "summarize": lambda r=root: summarize(r, now_ms=NOW_MS),
        }
        for name, call in calls.items():
            wall, cpu = median_ms(call, runs, warmup=size <= 2_000)
            emit(row(name, size, runs, wall, cpu, bare, "bare read loop"))


def first_call_rows(
    sizes: list[int], cache: Path, env: dict[str, str], emit: Callable[[dict], None], runs: int
) -> None:
    """lint and plan as the first call of a fresh process, at each size up to FIRST_CALL_MAX."""
    from whole_dir_corpus import NOW_MS, cached_dir

    from memdir_nb.dream import plan_consolidation

    disk = "cache_dir" in inspect.signature(plan_consolidation).parameters  # not in older code
    for size in (size for size in sizes if size <= FIRST_CALL_MAX):
        root = cached_dir(cache, size)
        for name in ("lint", "plan"):
            figures = in_process_child(_FIRST_WHOLE, [str(root), str(NOW_MS), name], env, runs)
            wall = statistics.median(f[0] for f in figures)
            cpu = statistics.median(f[1] for f in figures)
            emit(row(f"{name} (first call)", size, runs, wall, cpu, None, ""))
        if not disk:
            continue
        for state in ("cold", "warm"):
            with tempfile.TemporaryDirectory(prefix="bench-plan-cache-") as folder:
                args = [str(root), str(NOW_MS), f"plan-{state}", folder]
                figures = in_process_child(_FIRST_WHOLE, args, env, runs)
            wall = statistics.median(f[0] for f in figures)
            cpu = statistics.median(f[1] for f in figures)
            emit(row(f"plan (first call, {state} disk cache)", size, runs, wall, cpu, None, ""))


def small_dir(tmp: Path) -> Path:
    """A 200-file dir (bench_scan.build_dir: nested folders, some headers needing YAML)."""
    from bench_scan import build_dir

    root = tmp / "mem200"
    root.mkdir()
    build_dir(root, 200)
    return root


def newer_dir(tmp: Path) -> Path:
    """The same size with headers in Claude Code's newer shape (bench_scan.build_newer_dir)."""
    from bench_scan import build_newer_dir

    root = tmp / "newer200"
    root.mkdir()
    build_newer_dir(root, 200)
    return root


NEWER = " (newer)"  # the suffix of the rows measured on newer_dir: no target of their own


def cold_rows(
    root: Path, env: dict[str, str], emit: Callable[[dict], None], runs: int = 9, suffix: str = ""
) -> None:
    """The first scan in a new process, and `memdir-nb scan` as a whole process."""
    figures = in_process_child(_FIRST_SCAN, [str(root)], env, runs=runs)
    first = statistics.median(f[0] for f in figures)
    first_cpu = statistics.median(f[1] for f in figures)
    warm = statistics.median(f[2] for f in figures)
    emit(row(f"first scan (new process){suffix}", 200, runs, first, first_cpu, warm, "warm scan"))
    imported = statistics.median(f[4] for f in figures)
    imported_cpu = statistics.median(f[5] for f in figures)
    emit(row(f"import storage.scan{suffix}", 200, runs, imported, imported_cpu, None, ""))
    # The two together: what a program that imports the scan and scans once waits for (a
    # lazily imported module moves cost from the first row into the second; this one shows both).
    both = statistics.median(f[4] + f[0] for f in figures)
    both_cpu = statistics.median(f[5] + f[1] for f in figures)
    emit(row(f"import + first scan{suffix}", 200, runs, both, both_cpu, None, ""))
    n = 2 * runs - 3
    (bare, _), (wall, cpu) = process_ms(
        [
            [sys.executable, "-c", "pass"],
            [sys.executable, "-m", "memdir_nb.cli", "scan", str(root)],
        ],
        env,
        runs=n,
    )
    emit(row(f"memdir-nb scan (process){suffix}", 200, n, wall, cpu, bare, "python -c pass"))


def save_row(root: Path, emit: Callable[[dict], None], runs: int = 30) -> None:
    """MemoryStore.save of a new memory into the 200-file dir, `runs` times."""
    from memdir_nb.storage.store import MemoryStore

    store = MemoryStore(root)
    counter = iter(range(10_000))

    def save() -> None:
        n = next(counter)
        store.save(
            f"Bench note {n}",
            f"A benchmark note number {n} about deploy windows",
            "reference",
            f"Deploys go out on weekdays; note {n}.",
        )

    wall, cpu = median_ms(save, runs, warmup=True)
    emit(row("save", 200, runs, wall, cpu, None, ""))


def recall_rows(tmp: Path, env: dict[str, str], emit: Callable[[dict], None]) -> None:
    """Warm recall (semantic, the offline default) against the lexical floor; the first call."""
    from recall_eval import DEFAULT_CASES, build_memory_dir
    from recall_speed import warm_recall_ms

    from memdir_nb.recall import find_relevant_memories
    from memdir_nb.recall.lexical import LexicalSelector
    from memdir_nb.storage.scan import ScanCache

    cases = json.loads(Path(DEFAULT_CASES).read_text(encoding="utf-8"))
    warm = warm_recall_ms(cases, repeats=15)
    early = warm_recall_ms(cases, repeats=15, prepared=False)
    grown = {"memories": [dict(cases["memories"][i % len(cases["memories"])]) for i in range(200)]}
    for i, m in enumerate(grown["memories"]):
        m["path"] = f"{m['path'][:-3]}_{i}.md"
    memory_dir = build_memory_dir(grown, tmp / "recall", now_ms=time.time() * 1000)
    lexical, scan_cache = LexicalSelector(), ScanCache()
    queries = [q["query"] for q in cases["queries"]]
    turn = iter(range(10_000))

    def lexical_call() -> None:
        q = queries[next(turn) % len(queries)]
        find_relevant_memories(q, memory_dir, selector=lexical, scan_cache=scan_cache)

    time.sleep(2.1)  # past the scan cache's racy window
    floor, _ = median_ms(lexical_call, 15, warmup=True)
    emit(row("recall warm (default)", 200, 15, warm, warm, floor, "lexical selector"))
    emit(row("recall early calls", 200, 15, early, early, floor, "lexical selector"))
    cache = tmp / "recall-cache"
    figures = in_process_child(
        _FIRST_RECALL, [str(memory_dir), str(cache), queries[0]], env, runs=5
    )
    first = statistics.median(f[0] for f in figures)
    first_cpu = statistics.median(f[1] for f in figures)
    emit(row("recall first call", 200, 5, first, first_cpu, floor, "lexical selector"))


def machine() -> dict[str, object]:
    """What the figures were measured on: CPU, cores, load, Python."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "load_1min": round(os.getloadavg()[0], 2),
        "python": sys.version.split()[0],
    }


def _parser() -> argparse.ArgumentParser:
    """The command line: sizes, the cache and the code to time, what to leave out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--big", action="store_true", help=f"also {BIG_SIZE:,} files")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where dirs are built")
    parser.add_argument("--code", type=Path, default=None, help="import memdir_nb from here")
    parser.add_argument("--skip-recall", action="store_true", help="no recall rows (no model)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--quick", action="store_true", help="few runs per row (a smoke test)")
    parser.add_argument("--runs", type=int, default=None, help="timed runs per whole-dir row")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run every row and print the table (or JSON)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        parser.error(f"--sizes must be comma-separated integers, got {args.sizes!r}")
    if args.big:
        sizes.append(BIG_SIZE)
    if args.code is not None:
        if not (args.code / "memdir_nb" / "__init__.py").is_file():
            parser.error(f"--code {args.code} holds no memdir_nb package; pass a checkout's root")
        sys.path.insert(0, str(args.code.resolve()))
    else:
        sys.path.insert(1, str(HERE.parent))
    code = args.code.resolve() if args.code is not None else HERE.parent
    pycache = Path(tempfile.mkdtemp(prefix="bench-speed-pycache-"))
    env = child_env(code, pycache)
    rows: list[dict] = []
    start = machine()

    def emit(r: dict) -> None:
        rows.append(r)
        if not args.json:
            print(fmt(r), flush=True)

    if not args.json:
        print(f"# {start}", flush=True)
        print(HEADER, flush=True)
    t0 = time.perf_counter()
    whole_dir_rows(sizes, args.cache, emit, quick=args.quick, runs_override=args.runs)
    first_call_rows(sizes, args.cache, env, emit, runs=2 if args.quick else 5)
    with tempfile.TemporaryDirectory(prefix="bench-speed-") as tmp:
        root = small_dir(Path(tmp))
        cold_rows(root, env, emit, runs=3 if args.quick else 9)
        cold_rows(newer_dir(Path(tmp)), env, emit, runs=3 if args.quick else 9, suffix=NEWER)
        if not args.skip_recall:
            recall_rows(Path(tmp), env, emit)
        save_row(root, emit, runs=5 if args.quick else 30)
    shutil.rmtree(pycache, ignore_errors=True)
    end = {
        "load_1min_end": round(os.getloadavg()[0], 2),
        "seconds": round(time.perf_counter() - t0),
    }
    if args.json:
        print(json.dumps({"machine": {**start, **end}, "rows": rows}, indent=1))
    else:
        print(f"# {end}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
