"""bounded_tools: pipelines are cut at the byte cap or the timeout; reads are capped and contained."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from memdir_nb.toolloop.bounded_tools import run_pipeline


@pytest.mark.timeout(20)
def test_endless_output_is_cut_at_the_cap_and_the_process_killed(tmp_path: Path) -> None:
    res = run_pipeline([("yes",)], cwd=tmp_path, timeout_s=10, max_bytes=1000)
    assert res.cut and not res.timed_out
    assert res.output == "y\n" * 500
    assert res.code < 0  # killed by a signal


@pytest.mark.timeout(20)
def test_a_silent_command_past_the_timeout_is_stopped(tmp_path: Path) -> None:
    start = time.monotonic()
    res = run_pipeline([("sleep", "30")], cwd=tmp_path, timeout_s=0.5)
    assert res.timed_out and time.monotonic() - start < 10


@pytest.mark.timeout(20)
def test_the_first_stage_of_a_pipe_is_stopped_when_the_last_ends(tmp_path: Path) -> None:
    res = run_pipeline([("yes",), ("head", "-n", "3")], cwd=tmp_path, timeout_s=10)
    assert (res.output, res.code, res.cut, res.timed_out) == ("y\ny\ny\n", 0, False, False)


def test_stderr_follows_stdout_and_the_exit_code_is_the_last_stages(tmp_path: Path) -> None:
    res = run_pipeline([("ls", "missing-file")], cwd=tmp_path, timeout_s=10)
    assert res.code != 0 and "missing-file" in res.output


def test_stderr_counts_towards_the_cap(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("x")
    res = run_pipeline(
        [("ls", *[f"missing-{i}" for i in range(200)])], cwd=tmp_path, timeout_s=10, max_bytes=100
    )
    assert res.cut and len(res.output.encode()) == 100
