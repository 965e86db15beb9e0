"""benchmarks/bench_speed.py: one run prints every row of the speed table with its floor."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import bench_speed

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_speed.py"


def test_a_quick_run_reports_every_row_with_its_floor_and_target(tmp_path: Path) -> None:
    args = ["--sizes", "12", "--quick", "--skip-recall", "--json", "--cache", str(tmp_path)]
    out = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    rows = report["rows"]
    assert [r["row"] for r in rows] == [
        "lint",
        "plan",
        "summarize",
        "lint (first call)",
        "plan (first call)",
        "plan (first call, cold disk cache)",
        "plan (first call, warm disk cache)",
        "first scan (new process)",
        "import storage.scan",
        "import + first scan",
        "memdir-nb scan (process)",
        "first scan (new process) (newer)",
        "import storage.scan (newer)",
        "import + first scan (newer)",
        "memdir-nb scan (process) (newer)",
        "save",
    ]
    assert all(r["wall_ms"] > 0 for r in rows)
    floors = {r["row"]: r["floor"] for r in rows}
    assert floors["lint"] == "bare read loop"
    assert floors["memdir-nb scan (process)"] == "python -c pass"
    process = next(r for r in rows if r["row"] == "memdir-nb scan (process)")
    assert process["target"] == "<=4x" and process["ratio"] > 1
    assert {"cpu", "cores", "load_1min", "load_1min_end"} <= set(report["machine"])


def test_process_rows_take_turns_so_drift_moves_both_alike(tmp_path: Path) -> None:
    log = tmp_path / "order.txt"

    def mark(letter: str) -> list[str]:
        return [sys.executable, "-c", f"open({str(log)!r}, 'a').write({letter!r})"]

    figures = bench_speed.process_ms([mark("a"), mark("b")], {}, runs=3)
    assert log.read_text() == "ab" + "ab" * 3  # one untimed run each, then turn by turn
    assert len(figures) == 2 and all(wall > 0 and cpu > 0 for wall, cpu in figures)
