"""The README's API example is code a newcomer pastes first: it must run and print what it says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_api_example_runs_and_recalls_the_saved_memory(tmp_path: Path) -> None:
    block = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert block, "README.md has no python example"
    code = block.group(1).replace("/tmp/mem", str(tmp_path / "mem"))
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
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
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['feedback_tests.md']"
    assert server.requests[-1]["system"].startswith("# Memory")
