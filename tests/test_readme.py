"""The README's API example is code a newcomer pastes first: it must run and print what it says."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.support.child_env import child_env

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"


def test_readme_api_example_runs_and_recalls_the_saved_memory(tmp_path: Path) -> None:
    block = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert block, "README.md has no python example"
    code = block.group(1).replace("/tmp/mem", str(tmp_path / "mem"))
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=child_env(HOME=str(tmp_path)),
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("- [feedback] feedback_testing_policy.md (")
    assert lines[1] == f"Memory (saved today): {tmp_path / 'mem' / 'feedback_testing_policy.md'}:"


def test_readme_gives_the_local_voila_command() -> None:
    text = README.read_text(encoding="utf-8")
    assert ".venv/bin/voila notebooks/dashboard.ipynb" in text
    assert (README.parent / "notebooks" / "dashboard.ipynb").is_file()


def test_readme_lists_every_notebook() -> None:
    text = README.read_text(encoding="utf-8")
    for nb in sorted((README.parent / "notebooks").glob("*.ipynb")):
        assert f"`{nb.stem}`" in text, nb.name


def test_the_tour_s_where_next_table_lists_every_other_notebook() -> None:
    # fresh36: the tour a learner opens first pointed only at 01-06 and the dashboard, so
    # 07-12 (dream, extraction, your own dir, where/doctor, replay, the memory tool) went unseen
    tour = json.loads((REPO / "notebooks" / "00_tour.ipynb").read_text(encoding="utf-8"))
    last = "".join(tour["cells"][-1]["source"])
    assert last.startswith("## Where next")
    for nb in sorted((REPO / "notebooks").glob("*.ipynb")):
        if nb.stem != "00_tour":
            assert f"| `{nb.stem}` |" in last, nb.name


def test_readme_memory_tool_example_runs_through_the_sdk_runner(tmp_path: Path) -> None:
    from memdir_nb.toolloop.recorded import RecordedMessagesServer

    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    (block,) = [b for b in blocks if "MemdirMemoryTool" in b]
    assert len(block.strip().splitlines()) <= 10
    memory_file = "---\nname: Tests\ndescription: real Postgres in tests\ntype: feedback\n---\n\nReal Postgres.\n"
    turns: list[list[dict[str, Any]]] = [
        [
            {
                "type": "tool_use",
                "id": "toolu_1",
                "name": "memory",
                "input": {
                    "command": "create",
                    "path": "/memories/feedback_tests.md",
                    "file_text": memory_file,
                },
            }
        ],
        [{"type": "text", "text": "Saved."}],
    ]
    with RecordedMessagesServer(turns) as server:
        code = block.replace("/tmp/agent_mem", str(tmp_path / "mem")).replace(
            "Anthropic()",
            f"Anthropic(api_key='recorded', base_url='{server.base_url}', max_retries=0)",
        )
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=120,
            env=child_env(HOME=str(tmp_path)),
        )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['feedback_tests.md']"
    assert server.requests[-1]["system"].startswith("# Memory")


def _readme_commands() -> list[str]:
    """Every `.venv/bin/memdir-nb ...` line of the README's shell blocks, comment cut off."""
    text = README.read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if "memdir-nb" in line:
                commands.append(line.split("  #")[0].strip())
    return commands


def test_readme_never_shows_a_bare_memdir_nb_command() -> None:
    commands = _readme_commands()
    assert len(commands) >= 10
    for command in commands:
        assert command.startswith(".venv/bin/memdir-nb "), command


def test_every_readme_command_runs_as_written(tmp_path: Path) -> None:
    """Run each command, in order, from a folder laid out like the checkout after `make lab`."""
    venv = Path(sys.executable).parent.parent
    if not (venv / "bin" / "memdir-nb").is_file():
        import pytest

        pytest.skip(f"no memdir-nb script in {venv}/bin: run the tests from the project's .venv")
    work = tmp_path / "checkout"
    work.mkdir()
    (work / ".venv").symlink_to(venv)
    (work / "notebooks").symlink_to(REPO / "notebooks")  # the checkout's notebooks and their data
    home = tmp_path / "home"
    (home / ".claude" / "projects").mkdir(parents=True)  # a machine where Claude Code has run
    env = child_env(HOME=str(home), LANG="C.UTF-8")
    # `make lab` builds demo_memory/ (fresh38: the README's `demo ./demo_memory`, run after it,
    # stopped with "already holds a demo memory dir")
    made = [str(venv / "bin" / "memdir-nb"), "demo", str(work / "demo_memory"), "--overwrite"]
    subprocess.run(made, cwd=work, env=env, capture_output=True, check=True, timeout=120)
    for command in _readme_commands():
        out = subprocess.run(
            command, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=300
        )
        allowed = (0, 1) if ("lint" in command or "doctor" in command) else (0,)
        assert out.returncode in allowed, (command, out.returncode, out.stderr[-2000:])
        assert "Traceback" not in out.stderr, (command, out.stderr[-2000:])


def test_what_the_readme_commands_write_in_the_checkout_is_ignored_by_git() -> None:
    """fresh34: a newcomer who ran the README's commands saw fleet/, memory.zip and moved_memory/
    as untracked files in `git status`; each folder or zip a command writes under the checkout
    is in .gitignore (as demo_memory/ and lab/ were)."""
    if not (REPO / ".git").exists():
        import pytest

        pytest.skip(f"{REPO} is not a git checkout")
    written = set()
    for command in _readme_commands():
        for word in shlex.split(command)[2:]:
            if word.endswith(".zip"):
                written.add(word.removeprefix("./"))
            elif word.startswith("./"):
                written.add(word.removeprefix("./").rstrip("/") + "/")
    assert {"fleet/", "memory.zip", "moved_memory/", "demo_memory/"} <= written
    out = subprocess.run(
        ["git", "check-ignore", "--no-index", *sorted(written)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert set(out.stdout.split()) == written
