"""benchmarks/bench_whole_dir.py: a tiny run builds its dir once and reports every operation."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_whole_dir.py"


def _run(cache: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--sizes",
            "12,24",
            "--runs",
            "1",
            "--cache",
            str(cache),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_tiny_benchmark_reports_each_operation_with_ratio_and_growth(tmp_path: Path) -> None:
    out = _run(tmp_path, "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [(r["files"], r["operation"]) for r in rows] == [
        (size, op) for size in (12, 24) for op in ("bare", "plan", "lint", "summarize")
    ]
    assert all(r["wall_ms"] > 0 and r["x_bare"] is not None for r in rows)
    assert [r["growth"] is None for r in rows if r["operation"] == "plan"] == [True, False]
    built = sorted(p.name for p in tmp_path.iterdir())
    assert len(built) == 2 and all((tmp_path / b / ".bench-complete").exists() for b in built)
    files = sorted((tmp_path / built[0]).rglob("*.md"))
    assert len([f for f in files if f.name != "MEMORY.md"]) in (12, 24)


def test_an_interrupted_build_is_redone_and_bad_arguments_are_refused(tmp_path: Path) -> None:
    assert _run(tmp_path, "--ops", "plan").returncode == 0
    victim = next(tmp_path.iterdir())
    (victim / ".bench-complete").unlink()
    (victim / "stray.md").write_text("left over\n")
    assert _run(tmp_path, "--ops", "plan").returncode == 0
    assert not (victim / "stray.md").exists()
    bad = _run(tmp_path, "--ops", "plan,nope")
    assert bad.returncode == 2 and "--ops must name" in bad.stderr


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*.md"))
    }


def test_the_same_size_and_seed_build_the_same_dir_in_any_process(tmp_path: Path) -> None:
    # Before, the code names came out of a set, whose order follows PYTHONHASHSEED: two
    # checkouts compared with check_same_results.py then read different dirs.
    trees = []
    for seed in ("1", "2"):
        cache = tmp_path / f"hashseed-{seed}"
        proc = subprocess.run(
            [sys.executable, str(SCRIPT), "--sizes", "40", "--runs", "1", "--cache", str(cache)],
            capture_output=True,
            text=True,
            timeout=240,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert proc.returncode == 0, proc.stderr
        trees.append(_tree(next(cache.iterdir())))
    assert len(trees[0]) > 40 and trees[0] == trees[1]
