"""extract/runner: the local tool runner behind the sandbox."""

from __future__ import annotations

from pathlib import Path

from memdir_nb.extract import (
    ToolRunner,
)


def test_runner_edit_refuses_ambiguous_or_missing_text_and_leaves_file(memdir: Path) -> None:
    target = memdir / "a.md"
    target.write_text("x\nx\n")
    runner = ToolRunner(memdir)
    out = runner.run("Edit", {"file_path": str(target), "old_string": "x", "new_string": "y"})
    assert out.is_error and "occurs 2 times" in out.content
    out = runner.run("Edit", {"file_path": str(target), "old_string": "zzz", "new_string": "y"})
    assert out.is_error and "not found" in out.content
    assert target.read_text() == "x\nx\n"


def test_runner_bash_chains_follow_shell_rules_without_a_shell(memdir: Path) -> None:
    (memdir / "a.md").write_text("alpha\nbeta\n")
    runner = ToolRunner(memdir)
    assert runner.run("Bash", {"command": "cat a.md | grep beta | wc -l"}).content.strip() == "1"
    out = runner.run("Bash", {"command": "ls missing && cat a.md && cat a.md"}).content
    assert "alpha" not in out and "[exit code" in out
    assert "alpha" in runner.run("Bash", {"command": "ls missing || cat a.md"}).content
