"""memdir_nb.cli.recall_command: `memdir-nb recall --timeout SECONDS` bounds the Claude
selector's call, refuses a value out of range, and is refused where no model is called."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from memdir_nb.cli import main
from memdir_nb.cli.parsers import parse
from memdir_nb.spec.constants import SELECTOR_TIMEOUT_S
from tests.support import write_memory
from tests.support.child_env import child_env
from tests.support.messages_api import MessagesAPIServer, json_reply

NOW_MS = 1_760_000_000_000.0


def _memory_dir(tmp_path: Path) -> Path:
    mem = tmp_path / "memory"
    write_memory(
        mem,
        "project_deploy.md",
        name="Deploy steps",
        description="How the service is deployed to production on Fridays",
        now_ms=NOW_MS,
    )
    return mem


def _recall(
    api: MessagesAPIServer, tmp_path: Path, *options: str
) -> tuple[subprocess.CompletedProcess[str], float]:
    """`memdir-nb recall DIR QUERY --selector anthropic OPTIONS` as a child process pointed at
    the local Messages API server, and how long it took in seconds."""
    env = child_env(
        HOME=str(tmp_path / "home"),
        ANTHROPIC_API_KEY="sk-test-not-real",
        ANTHROPIC_BASE_URL=api.base_url,
        MEMDIR_NB_CACHE_DIR=str(tmp_path / "cache"),
    )
    words = ["recall", str(_memory_dir(tmp_path)), "how do we deploy?", "--selector", "anthropic"]
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *words, *options],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    return done, time.monotonic() - started


def test_a_claude_call_slower_than_the_timeout_ends_by_it_with_the_selectors_error(
    api: MessagesAPIServer, tmp_path: Path
) -> None:
    api.enqueue(json_reply({"selected_memories": ["project_deploy.md"]}, delay_s=60))
    done, took = _recall(api, tmp_path, "--timeout", "1")
    assert took < 30  # the server holds its reply for 60 s; the process start is most of this
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "The anthropic selector failed: request timed out" in done.stdout
    assert "1 s deadline" in done.stdout and "pass a larger --timeout to wait longer" in done.stdout
    assert "No memory in" in done.stdout and "Deploy steps" not in done.stdout


def test_a_timeout_in_range_reaches_the_claude_call(api: MessagesAPIServer, tmp_path: Path) -> None:
    api.enqueue(json_reply({"selected_memories": ["project_deploy.md"]}))
    done, _ = _recall(api, tmp_path, "--timeout", "7.5")
    assert done.returncode == 0, done.stderr
    assert "1 memory recalled (selector: anthropic)" in done.stdout
    assert [r.headers.get("x-stainless-read-timeout") for r in api.requests] == ["7.5"]


def test_without_timeout_the_claude_call_gets_the_default(
    api: MessagesAPIServer, tmp_path: Path
) -> None:
    api.enqueue(json_reply({"selected_memories": []}))
    done, _ = _recall(api, tmp_path)
    assert done.returncode == 0, done.stderr
    assert [r.headers.get("x-stainless-read-timeout") for r in api.requests] == [
        str(SELECTOR_TIMEOUT_S)
    ]


@pytest.mark.parametrize("value", ["soon", "", "0", "-1", "nan", "inf", "3600.5"])
def test_a_timeout_that_is_no_number_of_seconds_in_range_is_refused_by_the_parser(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["recall", str(_memory_dir(tmp_path)), "deploy", f"--timeout={value}"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "argument --timeout:" in err and "is not a number of seconds" in err
    assert "give e.g. 20" in err and "Traceback" not in err


@pytest.mark.parametrize(("value", "seconds"), [("3600", 3600.0), ("0.25", 0.25), (" 9 ", 9.0)])
def test_a_timeout_in_range_is_read_as_seconds(value: str, seconds: float) -> None:
    assert parse(["recall", "DIR", "deploy", "--timeout", value]).timeout == seconds
    assert parse(["recall", "DIR", "deploy"]).timeout is None  # the command uses the default


@pytest.mark.parametrize("chosen", [["--selector", "lexical"], []])
def test_a_timeout_for_a_selector_that_calls_no_model_is_refused(
    chosen: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("MEMDIR_NB_SELECTOR", raising=False)
    words = ["recall", str(_memory_dir(tmp_path)), "deploy", "--timeout", "5", *chosen]
    assert main(words) == 2
    err = capsys.readouterr().err
    assert "--timeout sets how long the anthropic selector waits" in err
    assert "drop --timeout" in err and "Traceback" not in err
