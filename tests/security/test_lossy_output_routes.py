"""Two different names never print alike, on every route that lists names (attack36).

A name's byte 0xff reaches Python as U+DCFF and the sanitiser shows it as the text `\\udcff`; a
name holding that text itself (a backslash, then `udcff`) printed the same, so `scan`, `lint`,
`list` and the memory tool's `view /memories` showed two different files as one name twice.
Real files with such names; each CLI command run as a process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memdir_nb.toolloop.memory_commands import MemoryDirBackend
from memdir_nb.ui.views import browser as browser_view
from tests.support.child_env import child_env
from tests.support.fake_home import add_memory

BYTE, TEXT = b"bad\xff", b"bad\\udcff"  # two names: byte 0xff, and the six characters \udcff


def _path(folder: Path, name: bytes) -> Path:
    return Path(os.fsdecode(os.fsencode(folder) + b"/" + name))


@pytest.fixture
def twin_dir(tmp_path: Path) -> Path:
    """A memory dir holding one memory, two files and two folders named BYTE and TEXT."""
    mem = tmp_path / "memory"
    add_memory(mem, "user_a.md")
    for name in (BYTE, TEXT):
        _path(mem, name + b".md").write_bytes(b"x\n")
        _path(mem, name).mkdir()
    return mem


def _run(*args: str, home: Path) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args],
        capture_output=True,
        env=child_env(HOME=str(home), PYTHONIOENCODING="utf-8"),
        timeout=180,
        check=False,
    )
    assert out.returncode in (0, 1) and b"Traceback" not in out.stderr, out.stderr
    return (out.stdout + out.stderr).decode("utf-8")


@pytest.mark.parametrize("command", ["scan", "lint"])
def test_scan_and_lint_name_the_two_skipped_files_and_folders_apart(
    twin_dir: Path, tmp_path: Path, command: str
) -> None:
    text = _run(command, str(twin_dir), home=tmp_path)
    for shown in ("bad\\udcff.md:", "bad\\\\udcff.md:", "bad\\udcff:", "bad\\\\udcff:"):
        assert sum(line.count(shown) for line in text.splitlines()) >= 1, (shown, text)


def test_the_memory_tools_view_lists_the_two_files_and_folders_apart(twin_dir: Path) -> None:
    listing = MemoryDirBackend(twin_dir).view("/memories").splitlines()
    for shown in ("bad\\udcff.md", "bad\\\\udcff.md", "bad\\udcff/", "bad\\\\udcff/"):
        assert sum(line.endswith(f"/memories/{shown}") for line in listing) == 1, listing


def test_list_and_the_folder_note_name_two_agent_folders_apart(tmp_path: Path) -> None:
    home = tmp_path / "home"
    agents = home / ".claude" / "agent-memory"
    for name in (BYTE, TEXT):
        add_memory(_path(agents, name), "user_a.md")
    listed = _run("list", "--home", str(home), home=home)
    heads = sorted(line.split("  [")[0] for line in listed.splitlines() if "  [agent" in line)
    assert heads == [f"{agents}/bad\\\\udcff", f"{agents}/bad\\udcff"], listed
    note = _run("scan", str(agents), home=home)
    assert "(bad\\\\udcff/, bad\\udcff/)" in note or "(bad\\udcff/, bad\\\\udcff/)" in note, note


def test_the_browsers_skipped_files_keep_both_names(twin_dir: Path) -> None:
    # keyed by the idempotent sanitiser, the two files were one key: one of them was not listed
    skipped = browser_view.skipped_files(twin_dir)
    for shown in ("bad\\udcff.md", "bad\\\\udcff.md", "bad\\udcff", "bad\\\\udcff"):
        assert shown in skipped, skipped


def test_sessions_lists_two_project_folders_apart(tmp_path: Path) -> None:
    projects = tmp_path / "home" / ".claude" / "projects"
    record = (
        b'{"type":"user","sessionId":"s","uuid":"u1","timestamp":"2026-11-01T10:00:00Z",'
        b'"cwd":"/p","message":{"role":"user","content":"hi"}}\n'
    )
    for name in (BYTE, TEXT):
        _path(projects, name).mkdir(parents=True)
        (_path(projects, name) / "s1.jsonl").write_bytes(record)
    listed = _run("sessions", "--home", str(projects.parent), home=tmp_path / "home")
    folders = sorted(line for line in listed.splitlines() if line.endswith("/"))
    assert folders == ["bad\\\\udcff/", "bad\\udcff/"], listed
