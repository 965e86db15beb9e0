"""benchmarks/bench_ab.py: bench_speed on two checkouts, taking turns, row by row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import bench_ab

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "bench_ab.py"


def test_the_sides_take_turns_so_a_drift_moves_both_alike() -> None:
    assert bench_ab.order(3) == ["before", "after", "after", "before", "before", "after"]


def test_each_row_gets_each_sides_median_range_and_change() -> None:
    def rows(lint: float, save: float) -> list[dict[str, object]]:
        return [
            {"row": "lint", "files": 2000, "wall_ms": lint},
            {"row": "save", "files": 200, "wall_ms": save},
        ]

    runs = [
        ("before", rows(500, 4)),
        ("after", rows(400, 4)),
        ("after", rows(460, 5)),
        ("before", rows(600, 3)),
        ("before", rows(520, 4)),
        ("after", rows(410, 6)),
    ]
    by_row = {r["row"]: r for r in bench_ab.summarise(runs)}
    assert by_row["lint"]["before_ms"] == 520 and by_row["lint"]["after_ms"] == 410
    assert by_row["lint"]["before_range"] == [500, 600]
    assert by_row["lint"]["change_pct"] == -21.2
    assert by_row["save"]["after_ms"] == 5 and by_row["save"]["change_pct"] == 25.0


def test_a_row_only_one_side_has_is_left_out() -> None:
    runs = [
        ("before", [{"row": "recall warm", "files": 200, "wall_ms": 20.0}]),
        ("after", []),
    ]
    assert bench_ab.summarise(runs) == []


def test_a_quick_round_on_this_checkout_reports_both_sides(tmp_path: Path) -> None:
    args = ["--before", str(REPO), "--rounds", "1", "--json"]
    bench = ["--sizes", "", "--quick", "--skip-recall", "--cache", str(tmp_path)]
    out = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--", *bench],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    rows = {r["row"]: r for r in json.loads(out.stdout)["rows"]}
    assert {"save", "memdir-nb scan (process)", "first scan (new process)"} <= set(rows)
    assert all(r["before_ms"] > 0 and r["after_ms"] > 0 for r in rows.values())


def test_a_folder_without_memdir_nb_is_refused_by_name(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--before", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "holds no memdir_nb package" in out.stderr and str(tmp_path) in out.stderr
