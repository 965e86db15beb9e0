"""Before and after on a noisy machine: bench_speed.py run on two checkouts, taking turns.

On a shared machine the same code's rows move by 20-30% within minutes, so a before figure
taken at one time and an after figure taken at another say little. This runs
`bench_speed.py --json` on the `before` checkout and on the `after` one in turns (before/after,
then after/before, and so on, so that a drift moves both alike), and prints per row the median
of each side over the rounds, their ranges and the change.

    python benchmarks/bench_ab.py --before ../old-checkout --rounds 4 -- --sizes 2000 --runs 3

Arguments after `--` go to bench_speed.py (every round, both sides). A checkout is a folder
holding a memdir_nb package, such as a `git worktree add` of the commit to compare with.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCH = HERE / "bench_speed.py"


def run_bench(code: Path, extra: Sequence[str], timeout: float) -> list[dict]:
    """One bench_speed.py run importing memdir_nb from `code`; its rows."""
    cmd = [sys.executable, str(BENCH), "--json", "--code", str(code), *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"bench_speed.py failed on {code}:\n{proc.stderr[-2000:]}")
    rows: list[dict] = json.loads(proc.stdout)["rows"]
    return rows


def order(rounds: int) -> list[str]:
    """Which side runs when: before, after, then after, before, and so on."""
    out: list[str] = []
    for r in range(rounds):
        out += ["before", "after"] if r % 2 == 0 else ["after", "before"]
    return out


def summarise(runs: Sequence[tuple[str, list[dict]]]) -> list[dict]:
    """Per (row, files), each side's wall medians over the rounds: median, min, max, change."""
    walls: dict[tuple[str, int], dict[str, list[float]]] = {}
    for side, rows in runs:
        for r in rows:
            key = (r["row"], r["files"])
            walls.setdefault(key, {"before": [], "after": []})[side].append(r["wall_ms"])
    out = []
    for (name, files), sides in walls.items():
        before, after = sides["before"], sides["after"]
        if not before or not after:
            continue
        b, a = statistics.median(before), statistics.median(after)
        out.append(
            {
                "row": name,
                "files": files,
                "before_ms": round(b, 2),
                "after_ms": round(a, 2),
                "before_range": [min(before), max(before)],
                "after_range": [min(after), max(after)],
                "change_pct": round((a - b) / b * 100, 1) if b else None,
            }
        )
    return out


def fmt(r: dict) -> str:
    """One table line."""
    lo_b, hi_b = r["before_range"]
    lo_a, hi_a = r["after_range"]
    change = f"{r['change_pct']:+.1f}%" if r["change_pct"] is not None else "-"
    return (
        f"{r['row']:<33} {r['files']:>6} {r['before_ms']:>9.1f} ({lo_b:.1f}-{hi_b:.1f})"
        f" {r['after_ms']:>9.1f} ({lo_a:.1f}-{hi_a:.1f}) {change:>8}"
    )


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the rounds and print the table (or JSON)."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in args_in:
        cut = args_in.index("--")
        args_in, extra = args_in[:cut], args_in[cut + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the checkout to compare with")
    parser.add_argument("--after", type=Path, default=HERE.parent, help="default: this checkout")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per bench run")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(args_in)
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    sides = {"before": args.before.resolve(), "after": args.after.resolve()}
    for side, path in sides.items():
        if not (path / "memdir_nb" / "__init__.py").is_file():
            parser.error(f"--{side} {path} holds no memdir_nb package; pass a checkout's root")
    runs = [(side, run_bench(sides[side], extra, args.timeout)) for side in order(args.rounds)]
    rows = summarise(runs)
    if args.json:
        print(json.dumps({"sides": {k: str(v) for k, v in sides.items()}, "rows": rows}, indent=1))
        return 0
    print(f"# before: {sides['before']}\n# after:  {sides['after']}\n# rounds: {args.rounds}")
    print(
        f"{'row':<33} {'files':>6} {'before ms (range)':>24} {'after ms (range)':>24} {'change':>8}"
    )
    for r in rows:
        print(fmt(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
