"""The memdir-nb command, run as a user runs it: a real subprocess on a real dir."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memdir_nb.demo import build_demo_memory_dir
from memdir_nb.index import MAX_ENTRYPOINT_LINES

NOW_MS = 1_790_000_000_000.0


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd or Path.cwd())}
    return subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_memory_dir(tmp_path_factory.mktemp("cli") / "memory", now_ms=NOW_MS)


def test_scan_prints_one_manifest_line_per_memory(demo_dir: Path) -> None:
    out = run_cli("scan", str(demo_dir))
    assert out.returncode == 0, out.stderr
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("- ")]
    assert len(lines) == 40
    assert all(" (" in ln and "): " in ln for ln in lines)
    assert "40 memories listed." in out.stdout


def test_scan_reports_the_malformed_header(demo_dir: Path) -> None:
    out = run_cli("scan", str(demo_dir))
    assert "team/reference_release_steps.md" in out.stdout.split("malformed header")[1]


def test_scan_json_lists_memories_and_skipped(demo_dir: Path) -> None:
    out = run_cli("scan", str(demo_dir), "--json")
    payload = json.loads(out.stdout)
    assert payload["total_found"] == 40
    assert {m["type"] for m in payload["memories"]} == {"user", "feedback", "project", "reference"}
    assert payload["skipped"] == []


def test_scan_says_what_the_cap_left_out(demo_dir: Path) -> None:
    out = run_cli("scan", str(demo_dir), "--limit", "5")
    assert "newest 5 of 40" in out.stdout


def test_index_reports_both_caps_on_the_oversized_team_index(demo_dir: Path) -> None:
    out = run_cli("index", str(demo_dir), "--json")
    reports = {r["scope"]: r for r in json.loads(out.stdout)}
    assert not reports["private"]["line_capped"] and not reports["private"]["byte_capped"]
    team = reports["team"]
    assert team["line_capped"] and team["byte_capped"]
    assert team["lines"] > MAX_ENTRYPOINT_LINES and team["bytes"] > 25_000
    assert team["warning"].startswith("> WARNING: MEMORY.md is ")
    assert team["content"].endswith(team["warning"])


def test_index_text_report_names_the_dropped_lines(demo_dir: Path) -> None:
    out = run_cli("index", str(demo_dir), "--scope", "team")
    assert "lines kept" in out.stdout and "dropped" in out.stdout
    assert "private:" not in out.stdout


def test_missing_dir_is_a_clear_usage_error(tmp_path: Path) -> None:
    out = run_cli("scan", str(tmp_path / "nope"))
    assert out.returncode == 2
    assert "is not a directory" in out.stderr


def test_demo_refuses_a_dir_that_is_not_a_demo(tmp_path: Path) -> None:
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.md").write_text("keep me\n")
    out = run_cli("demo", str(target), "--overwrite")
    assert out.returncode == 2
    assert out.stderr.startswith("error: ")
    assert (target / "notes.md").read_text() == "keep me\n"


def test_demo_builds_a_dir_the_scan_can_read(tmp_path: Path) -> None:
    out = run_cli("demo", str(tmp_path / "d"), "--now-ms", str(NOW_MS))
    assert out.returncode == 0, out.stderr
    assert "(40 memories)" in out.stdout


def test_recall_prints_memories_wrapped_as_injected(demo_dir: Path) -> None:
    out = run_cli(
        "recall", "how do we deploy to production", "--dir", str(demo_dir), "--selector", "lexical"
    )
    assert out.returncode == 0, out.stderr
    assert "<system-reminder>" in out.stdout
    assert "reference_deploy_runbook.md" in out.stdout


def test_recall_without_key_cannot_use_claude(demo_dir: Path) -> None:
    out = run_cli("recall", "anything", "--dir", str(demo_dir), "--selector", "anthropic")
    assert out.returncode == 2
    assert "ANTHROPIC_API_KEY" in out.stderr


def test_recall_explain_shows_lexical_and_semantic_scores_and_the_decision(
    demo_dir: Path, tmp_path: Path
) -> None:
    out = run_cli(
        "recall",
        "how do we deploy to production",
        "--dir",
        str(demo_dir),
        "--explain",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "(selector: semantic)" in out.stdout
    assert "Why each memory was or was not picked (selector: semantic):" in out.stdout
    rows = [ln for ln in out.stdout.splitlines() if ln.startswith(("+ ", "- "))]
    assert len(rows) == 40  # one row per memory, picked (+) or not (-)
    picked = [ln for ln in rows if ln.startswith("+ ")]
    assert any("reference_deploy_runbook.md" in ln for ln in picked)
    assert all("probability" in ln or "gate" in ln or "rule" in ln for ln in rows)
    assert (tmp_path / ".cache" / "memdir_nb" / "semantic-vectors.sqlite3").is_file()
