"""benchmarks/sweep_dirs.py: every command over copies of foreign dirs; crashes, hangs and raises are reported."""

from __future__ import annotations

import os
import shlex
import stat
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import sweep_dirs

from tests.support.unix_socket import unix_socket_at


def _tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under root as {relative path: (size, mtime_ns)}."""
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _fake_cli(tmp_path: Path, body: str) -> str:
    """A stand-in for memdir-nb: a Python script whose behaviour the test chooses."""
    script = tmp_path / "fake_cli.py"
    script.write_text(body, encoding="utf-8")
    return shlex.join([sys.executable, str(script)])


def test_memory_dirs_finds_each_folder_holding_an_index(
    tmp_path: Path, real_dir: Callable[[str], Path]
) -> None:
    nested = real_dir("nested")
    deeper = tmp_path / "repo" / "docs" / "memory"
    deeper.mkdir(parents=True)
    (deeper / "MEMORY.md").write_text("- [A](a.md) — a\n", encoding="utf-8")
    (tmp_path / "repo" / "notes").mkdir()

    assert list(sweep_dirs.memory_dirs([nested])) == [nested]
    assert list(sweep_dirs.memory_dirs([tmp_path / "repo"])) == [deeper]


def test_a_team_index_belongs_to_its_parent_dir_even_with_no_private_index(
    tmp_path: Path,
) -> None:
    team_only = tmp_path / "repo" / "memory"  # team/MEMORY.md and no MEMORY.md of its own
    (team_only / "team").mkdir(parents=True)
    (team_only / "team" / "MEMORY.md").write_text("- [A](a.md) — a\n", encoding="utf-8")
    both = tmp_path / "repo" / "other"
    (both / "team").mkdir(parents=True)
    (both / "MEMORY.md").write_text("- [B](b.md) — b\n", encoding="utf-8")
    (both / "team" / "MEMORY.md").write_text("- [C](c.md) — c\n", encoding="utf-8")

    assert list(sweep_dirs.memory_dirs([team_only])) == [team_only]
    assert list(sweep_dirs.memory_dirs([tmp_path / "repo"])) == [team_only, both]


def test_a_real_shaped_dir_passes_every_command_and_is_left_as_it_was(
    real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    source = real_dir("nested")
    before = _tree(source)

    assert sweep_dirs.main([str(source), "--timeout", "120"]) == 0

    out = capsys.readouterr().out
    runs = len(sweep_dirs.CLI_COMMANDS) + 2  # the API's lint and plan
    assert f"1 dirs, {runs} runs, 0 failed" in out
    assert _tree(source) == before


def test_a_command_that_prints_a_traceback_is_a_failure(
    tmp_path: Path, real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    cli = _fake_cli(tmp_path, "raise RuntimeError('boom')\n")

    assert sweep_dirs.main([str(real_dir("nested")), "--cli", cli]) == 1

    out = capsys.readouterr().out
    assert "FAIL" in out and ":: scan: printed a traceback: RuntimeError: boom" in out


def test_a_command_that_hangs_is_stopped_and_reported(
    tmp_path: Path, real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    cli = _fake_cli(tmp_path, "import time\ntime.sleep(30)\n")

    assert sweep_dirs.main([str(real_dir("nested")), "--cli", cli, "--timeout", "0.5"]) == 1

    assert ":: lint: no answer within 0.5 s" in capsys.readouterr().out


def test_exit_codes_one_and_two_are_answers_but_others_are_failures(
    tmp_path: Path, real_dir: Callable[[str], Path]
) -> None:
    source = real_dir("nested")
    answers = _fake_cli(tmp_path, "import sys\nsys.exit(2)\n")
    assert sweep_dirs.run_cli(shlex.split(answers), ("scan", "{dir}"), source, 60) == ""

    crashes = _fake_cli(tmp_path, "import os\nos.abort()\n")
    assert sweep_dirs.run_cli(shlex.split(crashes), ("scan", "{dir}"), source, 60).startswith(
        "exit code"
    )


def test_an_api_call_that_raises_is_reported_and_the_sweep_goes_on(
    real_dir: Callable[[str], Path],
) -> None:
    def broken(_: Path) -> object:
        raise ValueError("header unreadable")

    calls = [("broken", broken), ("fine", lambda d: None)]

    outcomes = sweep_dirs.sweep_one(real_dir("nested"), [sys.executable, "-c", "pass"], calls, 60)

    problems = {o.command: o.problem for o in outcomes}
    assert problems["broken"] == "ValueError: header unreadable"
    assert problems["fine"] == ""


def test_a_dir_given_with_notes_and_no_index_is_swept_not_passed_over(tmp_path: Path) -> None:
    # A memory-tool tree (the model's own notes, no MEMORY.md) named on the command line.
    notes = tmp_path / "agent" / "memories"
    notes.mkdir(parents=True)
    (notes / "progress.md").write_text("# Progress\n\n- parser done\n", encoding="utf-8")
    (notes / "decisions.md").write_text("# Decisions\n\n- keep the VM\n", encoding="utf-8")

    assert list(sweep_dirs.memory_dirs([notes])) == [notes]
    # Only the path given is taken so: under a folder, a dir is found by its index alone.
    assert list(sweep_dirs.memory_dirs([tmp_path / "agent"])) == []


def test_no_memory_dir_under_the_paths_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert sweep_dirs.main([str(tmp_path)]) == 2
    assert "no memory dir" in capsys.readouterr().err


def test_a_named_pipe_in_the_dir_is_copied_as_a_pipe_and_swept_without_waiting(
    real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    source = real_dir("nested")
    os.mkfifo(source / "project_pipe.md")  # an attacker's file: opening it to read would wait

    assert sweep_dirs.main([str(source), "--timeout", "60"]) == 0

    assert "0 failed" in capsys.readouterr().out
    assert stat.S_ISFIFO((source / "project_pipe.md").lstat().st_mode)


def test_a_dir_that_cannot_be_copied_is_reported_as_not_swept(
    real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    source = real_dir("nested")
    with unix_socket_at(source / "project_socket.md"):  # a socket cannot be copied
        assert sweep_dirs.main([str(source)]) == 1

    out = capsys.readouterr().out
    assert ":: copy: not swept: the copy failed" in out and "project_socket.md" in out
