"""A relative PATH entry never lets a hostile folder choose the program the package runs (§61).

`PATH=bin:$PATH` (Rails binstubs, Node's `node_modules/.bin`) or a stray `:` (the empty entry,
the current folder) names a folder relative to wherever a process runs. The package runs git
in a project folder someone downloaded, and the extraction's read-only commands in the memory
dir, so such an entry let a file planted in that folder run. Each route is tried with real
processes: the planted script leaves a mark if it ever runs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memdir_nb.extract import ToolRunner
from memdir_nb.home.git_root import find_canonical_git_root, find_checkout_root
from tests.conftest import plant_programs
from tests.support.child_env import MINIMAL_PATH, child_env

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def downloaded_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "Downloads" / "project"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True, capture_output=True)
    return repo


@pytest.mark.parametrize(
    ("entry", "planted_in"),
    [pytest.param("bin", "bin", id="bin-first"), pytest.param("", ".", id="empty-entry")],
)
def test_where_in_a_downloaded_repository_never_runs_its_own_git(
    tmp_path: Path, entry: str, planted_in: str
) -> None:
    repo = downloaded_repo(tmp_path)
    planted = plant_programs(repo / planted_in, tmp_path / "marks", ["git"])
    proc = subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", "where"],
        cwd=repo,  # the person ran the command inside the folder they downloaded
        capture_output=True,
        text=True,
        env=child_env(HOME=str(tmp_path / "home"), PATH=f"{entry}:{MINIMAL_PATH}"),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert planted.ran() == []
    assert str(repo) in proc.stdout  # git (the real one) still found the repository's root


def test_finding_a_root_from_inside_the_folder_runs_only_an_absolute_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = downloaded_repo(tmp_path)
    planted = plant_programs(repo / "bin", tmp_path / "marks", ["git"])
    monkeypatch.chdir(repo)
    monkeypatch.setenv("PATH", f"bin:{MINIMAL_PATH}")
    assert find_canonical_git_root(repo) == repo.resolve()
    assert find_checkout_root(repo) == repo.resolve()
    assert planted.ran() == []


def test_the_extractions_commands_never_run_a_file_in_the_memory_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_dir = tmp_path / "memory"
    memory_dir.mkdir()
    (memory_dir / "a.md").write_text("alpha\nbeta\n")
    planted = plant_programs(memory_dir, tmp_path / "marks", ["cat", "grep", "wc"])
    monkeypatch.setenv("PATH", f":{MINIMAL_PATH}")  # the empty entry: the child's own folder
    runner = ToolRunner(memory_dir)
    outcome = runner.run("Bash", {"command": "cat a.md | grep beta | wc -l"})
    assert not outcome.is_error, outcome.content
    assert outcome.content.strip() == "1"
    assert planted.ran() == []


def test_a_command_found_only_in_a_relative_entry_is_a_named_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_dir = tmp_path / "memory"
    memory_dir.mkdir()
    (memory_dir / "a.md").write_text("alpha\n")
    planted = plant_programs(memory_dir, tmp_path / "marks", ["cat"])
    monkeypatch.setenv("PATH", os.pathsep.join(["", "bin"]))  # no absolute folder at all
    outcome = ToolRunner(memory_dir).run("Bash", {"command": "cat a.md"})
    assert outcome.is_error
    assert "no program 'cat' in PATH's absolute folders" in outcome.content
    assert "2 relative PATH entries skipped" in outcome.content
    assert planted.ran() == []
