"""Attacks on every read route of a memory dir: each view returns promptly, reads nothing it
should not, and says why. FIFOs, a link to /dev/zero, links out of the dir, huge files."""

from __future__ import annotations

import json
import os
import shlex
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.cli.main import main as cli_main
from memdir_nb.dream import plan_consolidation
from memdir_nb.extract import ToolRunner
from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.lint import lint_dir
from memdir_nb.prompts import build as prompts
from memdir_nb.recall.base import RelevantMemory
from memdir_nb.recall.session import RecallSession
from memdir_nb.reports import analysis
from memdir_nb.storage import real_paths
from memdir_nb.storage.index_files import load_entrypoint
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.ui.views import inspector

OUTSIDE_SECRET = "outside-secret-do-not-load"
NOW = 1_760_000_000_000.0


@pytest.fixture()
def mem(tmp_path: Path) -> Path:
    """A small memory dir (private and team, both indexed) and an outside file next to it."""
    memory = tmp_path / "memory"
    (memory / "team").mkdir(parents=True)
    (memory / "feedback_tests.md").write_text(
        render_memory_file("Tests", "run the real database", "feedback", "Why: mocks lied.")
    )
    (memory / "team" / "project_release.md").write_text(
        render_memory_file("Release", "freeze on Fridays", "project", "Since March.")
    )
    (memory / "MEMORY.md").write_text("- [Tests](feedback_tests.md) — run the real database\n")
    (memory / "team" / "MEMORY.md").write_text(
        "- [Release](project_release.md) — freeze on Fridays\n"
    )
    (tmp_path / "outside.md").write_text(f"- [Leak](x.md) — {OUTSIDE_SECRET}\n")
    return memory


def plant_fifo(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path)


def link_outside(path: Path, target: Path) -> None:
    path.unlink(missing_ok=True)
    os.symlink(target, path)


# ----------------------------------------------------------------------------- MEMORY.md


@pytest.mark.timeout(10)
def test_fifo_as_memory_md_leaves_every_view_prompt_with_the_reason(
    mem: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plant_fifo(mem / "MEMORY.md")
    reason = "MEMORY.md is a FIFO, not a regular file"
    assert reason in prompts.build_memory_prompt("auto memory", mem)
    assert reason in inspector.index_budget(mem).problem
    refused = [f for f in lint_dir(mem).findings if f.rule == "index-refused"]
    assert [f.path for f in refused] == ["MEMORY.md"] and reason in refused[0].message
    budget = {b.scope: b for b in analysis.summarize(mem).index_budget}
    assert reason in budget["private"].problem and not budget["private"].exists
    assert cli_main(["index", str(mem), "--json"]) == 0
    report = {r["scope"]: r for r in json.loads(capsys.readouterr().out)}
    assert reason in report["private"]["problem"] and report["team"]["problem"] == ""


@pytest.mark.timeout(10)
def test_fifo_as_team_memory_md_leaves_the_combined_prompt_with_the_reason(mem: Path) -> None:
    plant_fifo(mem / "team" / "MEMORY.md")
    text = prompts.build_combined_memory_prompt(mem, mem / "team")
    assert "team/MEMORY.md is a FIFO, not a regular file" in text
    assert "feedback_tests.md" in text  # the private index still loads


def test_memory_md_linked_outside_is_missing_in_every_view_with_the_reason(
    mem: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link_outside(mem / "MEMORY.md", tmp_path / "outside.md")
    reason = "MEMORY.md is a symlink to a file outside the memory dir"
    prompt = prompts.build_memory_prompt("auto memory", mem)
    assert reason in prompt and OUTSIDE_SECRET not in prompt
    loaded = load_entrypoint(mem)
    assert (loaded.exists, loaded.text) == (False, "") and reason in loaded.note()
    assert reason in inspector.index_budget(mem).problem
    findings = lint_dir(mem).findings
    assert any(f.rule == "index-refused" and reason in f.message for f in findings)
    assert not any(OUTSIDE_SECRET in f.message for f in findings)
    frame = analysis.index_budget_frame(mem)
    assert reason in frame.set_index("scope").loc["private", "problem"]
    assert cli_main(["index", str(mem)]) == 0
    assert reason in capsys.readouterr().out


def test_team_memory_md_linked_outside_is_missing_in_the_combined_prompt(
    mem: Path, tmp_path: Path
) -> None:
    link_outside(mem / "team" / "MEMORY.md", tmp_path / "outside.md")
    text = prompts.build_combined_memory_prompt(mem, mem / "team")
    assert "team/MEMORY.md is a symlink to a file outside the memory dir" in text
    assert OUTSIDE_SECRET not in text


def test_team_folder_linked_outside_does_not_load_its_index(mem: Path, tmp_path: Path) -> None:
    outside_team = tmp_path / "elsewhere"
    outside_team.mkdir()
    (outside_team / "MEMORY.md").write_text(f"- [Leak](x.md) — {OUTSIDE_SECRET}\n")
    os.rename(mem / "team", tmp_path / "team.old")
    os.symlink(outside_team, mem / "team")
    text = prompts.build_combined_memory_prompt(mem, mem / "team")
    assert OUTSIDE_SECRET not in text
    assert "outside the memory dir" in text


def test_index_symlinked_to_dev_zero_is_refused_not_read(mem: Path) -> None:
    link_outside(mem / "MEMORY.md", Path("/dev/zero"))
    loaded = load_entrypoint(mem)
    assert not loaded.exists and "outside the memory dir" in loaded.problem


def test_memory_md_linked_to_another_file_inside_is_read(mem: Path) -> None:
    (mem / "index-copy.md.txt").write_text("- [Tests](feedback_tests.md) — kept inside\n")
    link_outside(mem / "MEMORY.md", mem / "index-copy.md.txt")
    assert "kept inside" in prompts.build_memory_prompt("auto memory", mem)


# ----------------------------------------------------------------------------- topic files


@pytest.mark.timeout(10)
def test_fifo_as_topic_file_is_skipped_by_scan_and_lint_with_the_reason(mem: Path) -> None:
    plant_fifo(mem / "feedback_trap.md")
    report = scan_memory_dir(mem)
    assert ("feedback_trap.md", "a FIFO, not a regular file") in [
        (s.path, s.reason) for s in report.skipped
    ]
    assert any(f.path == "feedback_trap.md" and "FIFO" in f.message for f in lint_dir(mem).findings)


def test_topic_file_linked_outside_is_skipped_and_never_attached(mem: Path, tmp_path: Path) -> None:
    link_outside(mem / "feedback_leak.md", tmp_path / "outside.md")
    report = scan_memory_dir(mem)
    assert ("feedback_leak.md", "symlink leaves the memory dir") in [
        (s.path, s.reason) for s in report.skipped
    ]
    session = RecallSession()
    got = session.inject(
        [RelevantMemory(str(mem / "feedback_leak.md"), NOW)], now_ms=NOW, memory_dir=mem
    )
    assert got == []
    assert "outside the memory dir" in session.skipped[0][1]


def test_topic_file_linked_to_dev_zero_is_skipped(mem: Path) -> None:
    link_outside(mem / "feedback_zero.md", Path("/dev/zero"))
    reasons = dict((s.path, s.reason) for s in scan_memory_dir(mem).skipped)
    assert reasons["feedback_zero.md"] == "symlink target is not a regular file"


@pytest.mark.timeout(10)
def test_fifo_in_a_recall_attachment_is_skipped_promptly_with_the_reason(mem: Path) -> None:
    plant_fifo(mem / "feedback_tests.md")  # swapped in after the selector picked it
    session = RecallSession()
    got = session.inject(
        [RelevantMemory(str(mem / "feedback_tests.md"), NOW)], now_ms=NOW, memory_dir=mem
    )
    assert got == []
    assert "feedback_tests.md is a FIFO, not a regular file" in session.skipped[0][1]


def test_huge_recalled_memory_is_read_within_its_cap(mem: Path) -> None:
    huge = mem / "reference_huge.md"
    with open(huge, "wb") as fh:
        fh.write(b"---\nname: huge\ndescription: big\ntype: reference\n---\n")
        fh.truncate(1 << 30)
    session = RecallSession()
    tracemalloc.start()
    try:
        [item] = session.inject([RelevantMemory(str(huge), NOW)], now_ms=NOW, memory_dir=mem)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert item.truncated and item.file_bytes == 1 << 30
    assert peak < 2 * 1024 * 1024


# ----------------------------------------------------------------------------- dream


@pytest.mark.timeout(10)
def test_fifo_index_in_a_dream_plan_is_left_out_with_a_note(mem: Path) -> None:
    plant_fifo(mem / "team" / "MEMORY.md")
    plan = plan_consolidation(mem, now_ms=NOW)
    assert any("team/MEMORY.md is a FIFO, not a regular file" in n for n in plan.notes)
    assert plan.snapshot["team/MEMORY.md"] is None


def test_index_linked_outside_in_a_dream_plan_is_never_read(mem: Path, tmp_path: Path) -> None:
    link_outside(mem / "MEMORY.md", tmp_path / "outside.md")
    plan = plan_consolidation(mem, now_ms=NOW)
    assert all(OUTSIDE_SECRET not in (t or "") for t in plan.snapshot.values())
    assert any("outside the memory dir" in n for n in plan.notes)


# ----------------------------------------------------------------------------- extraction tools


@pytest.mark.timeout(10)
def test_read_tool_on_a_fifo_returns_an_error_result_promptly(mem: Path) -> None:
    plant_fifo(mem / "feedback_tests.md")
    out = ToolRunner(mem).run("Read", {"file_path": str(mem / "feedback_tests.md")})
    assert out.is_error and "feedback_tests.md is a FIFO, not a regular file" in out.content


@pytest.mark.timeout(10)
def test_grep_over_a_dir_holding_a_fifo_returns_promptly(mem: Path) -> None:
    plant_fifo(mem / "trap.md")
    out = ToolRunner(mem).run("Grep", {"pattern": "Fridays", "path": str(mem)})
    assert not out.is_error and "project_release.md" in out.content


@pytest.mark.timeout(10)
def test_grep_on_a_fifo_says_why_it_was_not_searched(mem: Path) -> None:
    plant_fifo(mem / "trap.md")
    out = ToolRunner(mem).run("Grep", {"pattern": "x", "path": str(mem / "trap.md")})
    assert "trap.md is a FIFO, not a regular file" in out.content


def test_read_tool_refuses_a_memory_file_linked_outside(mem: Path, tmp_path: Path) -> None:
    link_outside(mem / "feedback_leak.md", tmp_path / "outside.md")
    out = ToolRunner(mem).run("Read", {"file_path": str(mem / "feedback_leak.md")})
    assert out.is_error and OUTSIDE_SECRET not in out.content
    assert "symlink to a file outside the memory dir" in out.content


def test_read_tool_on_a_huge_file_is_capped_with_a_note(mem: Path) -> None:
    huge = mem / "huge.md"
    with open(huge, "wb") as fh:
        fh.truncate(1 << 30)
    tracemalloc.start()
    try:
        out = ToolRunner(mem).run("Read", {"file_path": str(huge), "limit": 3})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not out.is_error and "[file is 1073741824 bytes; only its first" in out.content
    assert peak < 8 * 1024 * 1024


def test_grep_on_a_huge_file_searches_only_its_cap(mem: Path) -> None:
    huge = mem / "huge.md"
    with open(huge, "wb") as fh:
        fh.write(b"needle\n")
        fh.truncate(1 << 30)
    tracemalloc.start()
    try:
        out = ToolRunner(mem).run("Grep", {"pattern": "needle", "path": str(huge)})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert f"{huge}:1:needle" in out.content and "were searched" in out.content
    assert peak < 16 * 1024 * 1024


@pytest.mark.timeout(20)
def test_bash_printing_endlessly_is_cut_not_hung(mem: Path) -> None:
    out = ToolRunner(mem).run("Bash", {"command": "cat /dev/zero"})
    assert "[output cut at 30000 bytes; the command was stopped]" in out.content


@pytest.mark.timeout(20)
def test_bash_pipeline_reads_a_stream_through_real_pipes(mem: Path) -> None:
    out = ToolRunner(mem).run("Bash", {"command": "cat /dev/zero | head -c 100000 | wc -c"})
    assert out.content.strip() == "100000"


@pytest.mark.timeout(20)
def test_bash_blocked_on_a_fifo_times_out_and_is_stopped(
    mem: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memdir_nb.extract.runner as runner

    monkeypatch.setattr(runner, "BASH_TIMEOUT_S", 1.0)
    plant_fifo(mem / "trap.md")
    out = ToolRunner(mem).run("Bash", {"command": f"cat {shlex.quote(str(mem / 'trap.md'))}"})
    assert out.is_error and "timed out" in out.content


def test_a_tool_that_raises_returns_an_error_result(
    mem: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = ToolRunner(mem)

    def boom(_inp: object) -> str:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(runner, "_tool_glob", boom)
    out = runner.run("Glob", {"pattern": "*.md"})
    assert out.is_error and "RuntimeError: disk on fire" in out.content


def test_bad_regex_and_malformed_input_are_error_results(mem: Path) -> None:
    runner = ToolRunner(mem)
    assert runner.run("Grep", {"pattern": "(unclosed"}).is_error
    assert runner.run("Read", {"file_path": str(mem / "MEMORY.md"), "offset": "x"}).is_error
    assert runner.run("Read", None).is_error  # type: ignore[arg-type]


@pytest.mark.timeout(10)
def test_transcript_that_is_a_fifo_is_refused_promptly(tmp_path: Path) -> None:
    from memdir_nb.extract import read_transcript
    from memdir_nb.storage.access import ReadRefused

    os.mkfifo(tmp_path / "session.jsonl")
    with pytest.raises(ReadRefused, match="FIFO"):
        read_transcript(tmp_path / "session.jsonl")


def test_rebuilding_a_team_index_through_a_team_link_outside_is_refused(
    mem: Path, tmp_path: Path
) -> None:
    from memdir_nb.storage.rebuild import rebuild_index

    outside_team = tmp_path / "elsewhere"
    outside_team.mkdir()
    (outside_team / "project_leak.md").write_text(
        render_memory_file("Leak", OUTSIDE_SECRET, "project", "body")
    )
    os.rename(mem / "team", tmp_path / "team.old")
    os.symlink(outside_team, mem / "team")
    with pytest.raises(ValueError, match="leading outside the memory dir"):
        rebuild_index(mem / "team", write=False)


@pytest.mark.timeout(10)
def test_settings_file_that_is_a_fifo_is_ignored_with_a_problem(tmp_path: Path) -> None:
    from memdir_nb.home.settings_files import load_settings_file

    os.mkfifo(tmp_path / "settings.json")
    data, problem = load_settings_file(tmp_path / "settings.json", "project")
    assert data == {} and problem is not None and "FIFO" in problem


@pytest.mark.timeout(10)
def test_a_dot_git_fifo_in_a_repository_does_not_hang_the_root_search(tmp_path: Path) -> None:
    from memdir_nb.home.git_root import _find_root_by_walking, _read_gitfile

    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    os.mkfifo(repo / ".git")
    assert _find_root_by_walking(repo / "sub") is None  # a FIFO is neither a folder nor a file
    assert _read_gitfile(repo / ".git") is None  # and one swapped in after the check is not read


# ------------------------------------------------------------------ index targets leading out


def _plant_index_targets_leading_out(mem: Path, elsewhere: Path) -> dict[str, list[str]]:
    """Index lines (per index) whose targets leave their folder every way a target can, with a
    memory file at the far end of each: '..', absolute, the dir's own name then '..', a folder
    symlinked out, that folder named after the dir's own name, a file linked out. Returns the
    targets each index holds."""
    elsewhere.mkdir()
    (elsewhere / "x.md").write_text(render_memory_file("Far", OUTSIDE_SECRET, "user", "far"))
    os.symlink(elsewhere, mem / "linked")
    os.symlink(elsewhere, mem / "team" / "linked")
    os.symlink(elsewhere / "x.md", mem / "user_far.md")
    (mem / "agent").mkdir()
    (mem / "agent" / "user_b.md").write_text(render_memory_file("B", "b", "user", "b"))
    os.symlink(elsewhere, mem / "agent" / "deep")
    targets = {
        "MEMORY.md": [
            "../elsewhere/x.md",
            f"{elsewhere}/x.md",
            "memory/../../elsewhere/x.md",
            "linked/x.md",
            "linked/gone.md",
            "memory/linked/x.md",
            "user_far.md",
        ],
        "team/MEMORY.md": ["linked/x.md", "team/../../elsewhere/x.md", "../feedback_tests.md"],
        "agent/MEMORY.md": ["deep/x.md"],
    }
    for index, lines in targets.items():
        with open(mem / index, "a") as f:
            f.writelines(f"- [t{i}]({_as_link(t)}) — far\n" for i, t in enumerate(lines))
    return targets


def _as_link(target: str) -> str:
    """A target as an index line links it: in <angle brackets> when it holds a space or a
    parenthesis (tmp_path may: CI's basetemp is the user's choice), as the store writes it."""
    return f"<{target}>" if any(ch.isspace() or ch in "()" for ch in target) else target


def test_index_targets_leading_out_are_outside_for_every_route_and_nothing_outside_is_stat_ed(
    mem: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memdir_nb.storage.index_files import nested_index_references
    from memdir_nb.storage.index_rebuild import plan_index_rebuild
    from memdir_nb.ui.views.browser import memory_rows

    elsewhere = tmp_path / "elsewhere"
    targets = _plant_index_targets_leading_out(mem, elsewhere)
    far = os.path.realpath(elsewhere) + os.sep  # where each target leads
    index_lines = {index: (mem / index).read_text().splitlines() for index in targets}
    touched: list[str] = []
    in_realpath = [0]  # realpath resolving a link inside the dir lstat's where it points
    real_stat, real_lstat = os.stat, os.lstat
    real_realpath = real_paths._real_path_once  # under storage.real_paths.real_path

    def outside(path: Any, *, real: bool) -> bool:
        text = os.path.abspath(os.fsdecode(path))
        text = spy_realpath(text) if real else os.path.normpath(text)
        return (text + os.sep).startswith(far)

    def spy_stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        # (the scan stats a symlink's target to name what it skips: section 6, not this route)
        scan = sys._getframe(1).f_code.co_name == "_visit_symlink"
        if not scan and not isinstance(path, int) and outside(path, real=True):
            touched.append(f"stat {path}")
        return real_stat(path, *args, **kwargs)

    def spy_lstat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if not in_realpath[0] and kwargs.get("dir_fd") is None and outside(path, real=False):
            touched.append(f"lstat {path}")
        return real_lstat(path, *args, **kwargs)

    def spy_realpath(path: Any, strict: bool = False) -> str:
        in_realpath[0] += 1
        try:
            return str(real_realpath(path, strict))
        finally:
            in_realpath[0] -= 1

    monkeypatch.setattr(os, "stat", spy_stat)
    monkeypatch.setattr(os, "lstat", spy_lstat)
    monkeypatch.setattr(real_paths, "_real_path_once", spy_realpath)

    # lint: each such line is index-outside-link (none is counted as indexing a file)
    found = lint_dir(mem).findings
    # each finding is told by the line it names: a message shortens a long target (an absolute
    # one under a long tmp_path), so matching its text held only on short paths
    named = {
        (f.path, t)
        for f in found
        if f.rule == "index-outside-link" and f.line is not None
        for t in targets.get(f.path, [])
        if f"]({_as_link(t)})" in index_lines[f.path][f.line - 1]
    }
    want = {(index, t) for index in ("MEMORY.md", "team/MEMORY.md") for t in targets[index]}
    assert named == want, sorted(want - named)
    # the nested index of agent/ indexes its own file, never one through its link
    assert nested_index_references(mem, ["agent/user_b.md"]) == frozenset()
    # the rebuild leaves each line alone (outside its scope), dangling or not
    for scope in (mem, mem / "team"):
        plan = plan_index_rebuild(scope, drop_dangling=True)
        assert plan.merged.dropped == () and plan.merged.dangling == ()
    # the browser's index-line column: no row comes from a line leading out
    rows = {r.filename: r.index_line for r in memory_rows(mem, now_ms=NOW)}
    assert rows["feedback_tests.md"] == "- [Tests](feedback_tests.md) — run the real database"
    assert touched == []
