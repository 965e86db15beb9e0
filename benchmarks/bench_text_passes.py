"""Benchmark the text passes that read untrusted text, on long runs of one repeated unit.

A pass with super-linear backtracking shows up as time growing ~16x when the text grows 4x.
For each route (index parse, one_line, lint's masking of public values, the secret scan, the
date finder, a whole-dir lint of one long memory) and each unit, prints the CPU time at three
lengths and the growth factor per 4x; then the name gate's cost in a 10,000-file scan and the
extraction Grep on a catastrophic pattern. Usage:

  python benchmarks/bench_text_passes.py [--sizes 16000 64000 256000] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memdir_nb.extract.runner import ToolRunner
from memdir_nb.formats.index import parse_index
from memdir_nb.lint import lint_memory_dir
from memdir_nb.lint.secret_context import mask_public_values
from memdir_nb.security import secret_scan
from memdir_nb.spec import dates
from memdir_nb.spec.text import one_line
from memdir_nb.storage.scan import scan_memory_dir

UNITS = ["[", "[a](", " ", "-", "|", "a/", "0", "sha256-", "a://", "a@", "a="]


def _lint_one(text: str) -> object:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "project_long.md").write_text(
            f"---\nname: long\ndescription: long\ntype: project\n---\n{text}\n", encoding="utf-8"
        )
        (d / "MEMORY.md").write_text(f"- [Long](project_long.md) \u2014 h\n{text}\n", "utf-8")
        return lint_memory_dir(d)


ROUTES: dict[str, Callable[[str], object]] = {
    "parse_index": parse_index,
    "one_line": one_line,
    "mask_public_values": mask_public_values,
    "secret_scan": lambda s: secret_scan.scan_for_secrets({"body": s}),
    "find_relative_dates": dates.find_relative_dates,
    "lint_dir": _lint_one,
}


def _cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def text_passes(sizes: list[int]) -> list[dict[str, object]]:
    rows = []
    for route, fn in ROUTES.items():
        for unit in UNITS:
            texts = [unit * (n // len(unit)) + "!" for n in sizes]
            times = [_cpu(lambda fn=fn, text=text: fn(text)) for text in texts]
            growth = times[-1] / max(times[-2], 1e-4)
            rows.append({"route": route, "unit": unit, "seconds": times, "growth_per_4x": growth})
    return rows


def gate_and_grep() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for i in range(10_000):
            (d / f"project_{i:05d}.md").write_text("---\nname: n\ntype: project\n---\nb\n", "utf-8")
        scan_s = min(_cpu(lambda: scan_memory_dir(d, limit=200)) for _ in range(5))
        (d / "notes.txt").write_text("a" * 200_000 + "!\n", encoding="utf-8")
        runner = ToolRunner(d)
        grep_s = _cpu(
            lambda: runner.run("Grep", {"pattern": "(a+)+$", "path": str(d / "notes.txt")})
        )
    return {"scan_10k_files_s": scan_s, "grep_catastrophic_pattern_s": grep_s}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs=3, default=[16_000, 64_000, 256_000])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = text_passes(args.sizes)
    extra = gate_and_grep()
    if args.json:
        print(json.dumps({"text_passes": rows, **extra}, indent=2))
        return
    for row in rows:
        secs = " ".join(f"{s:8.3f}" for s in row["seconds"])  # type: ignore[attr-defined]
        print(f"{row['route']:20s} {row['unit']!r:10s} {secs}   x{row['growth_per_4x']:.1f} per 4x")
    worst = max(rows, key=lambda r: r["growth_per_4x"])  # type: ignore[arg-type, return-value]
    print(f"worst growth: {worst['route']} on {worst['unit']!r}: x{worst['growth_per_4x']:.1f}")
    for key, value in extra.items():
        print(f"{key}: {value * 1000:.1f} ms")


if __name__ == "__main__":
    main()
