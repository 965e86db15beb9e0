"""Every `--json` command's output is JSON any parser reads, whatever bytes a name holds.

A file name that is not UTF-8 (byte 0xff) reaches Python as a lone surrogate (U+DCFF), and
json.dumps wrote it as the escape `\\udcff`: Python and JavaScript read that back, a strict
parser (serde_json, Go's decoder keeps U+FFFD) does not, and it decodes to no character. The
one writer, formats.jsonio.dumps_output, writes it as the text the terminal shows (security.md
§39). Real files with such names, each command run as a process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.child_env import child_env
from tests.support.fake_home import add_memory

MEMORY = b"---\nname: odd\ndescription: a memory with an odd name\ntype: user\n---\nbody\n"
RECORD = {
    "type": "user",
    "sessionId": "s",
    "uuid": "u1",
    "timestamp": "2026-11-01T10:00:00Z",
    "message": {"role": "user", "content": "which database do the tests use?"},
}


@pytest.fixture(scope="module")
def odd_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(home, project, memory dir): a project folder, a memory and a transcript whose names
    hold the bytes 0xff and 0xfe, which are not UTF-8."""
    root = tmp_path_factory.mktemp("odd")
    home = root / "home"
    project = Path(os.fsdecode(os.fsencode(root) + b"/proj\xff"))
    project.mkdir()
    key = "-" + str(project).strip("/").replace("/", "-")
    memory = home / ".claude" / "projects" / key / "memory"
    add_memory(memory, "feedback_db.md")
    (memory / os.fsdecode(b"user_caf\xff.md")).write_bytes(MEMORY)
    transcript = memory.parent / os.fsdecode(b"sess\xfe.jsonl")
    transcript.write_text(json.dumps(RECORD) + "\n", encoding="utf-8")
    return home, project, memory


def _characters_only(value: Any) -> bool:
    if isinstance(value, str):
        return not any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, dict):
        return all(_characters_only(k) and _characters_only(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_characters_only(v) for v in value)
    return True


def _commands(home: Path, project: Path, memory: Path) -> dict[str, list[str]]:
    transcript = memory.parent / os.fsdecode(b"sess\xfe.jsonl")
    return {
        "scan": ["scan", str(memory)],
        "index": ["index", str(memory)],
        "lint": ["lint", str(memory)],
        "where": ["where", "--home", str(home), "--cwd", str(project)],
        "doctor": ["doctor", "--home", str(home), "--cwd", str(project)],
        "list": ["list", "--home", str(home)],
        "sessions": ["sessions", "--home", str(home)],
        "replay": ["replay", str(transcript), "--dir", str(memory)],
    }


@pytest.mark.parametrize(
    "command", ["scan", "index", "lint", "where", "doctor", "list", "sessions", "replay"]
)
def test_json_output_holds_only_characters_and_shows_a_non_utf8_byte_as_the_terminal_does(
    command: str, odd_home: tuple[Path, Path, Path]
) -> None:
    home, project, memory = odd_home
    args = _commands(home, project, memory)[command]
    out = subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args, "--json"],
        capture_output=True,
        env=child_env(HOME=str(home)),
        timeout=180,
    )
    assert out.returncode in (0, 1) and b"Traceback" not in out.stderr, out.stderr
    text = out.stdout.decode("utf-8")  # strict: any byte that is not UTF-8 fails here
    doc = json.loads(text)
    assert _characters_only(doc), text
    if command not in ("index",):  # the index names no file that is not in it
        assert "\\\\udcff" in text or "\\\\udcfe" in text, text


def test_two_folders_a_byte_and_its_escape_text_apart_print_as_two_paths(tmp_path: Path) -> None:
    # §43: an agent folder named with byte 0xff and one named with the text `\udcff` both
    # printed as "bad\udcff", so a script reading `list --json` opened the second for both
    home = tmp_path / "home"
    agents = home / ".claude" / "agent-memory"
    for name in (b"bad\xff", b"bad\\udcff"):
        add_memory(Path(os.fsdecode(os.fsencode(agents) + b"/" + name)), "user_a.md")
    out = subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", "list", "--home", str(home), "--json"],
        capture_output=True,
        env=child_env(HOME=str(home)),
        timeout=180,
        check=True,
    )
    paths = sorted(row["path"] for row in json.loads(out.stdout.decode("utf-8")))
    assert paths == [f"{agents}/bad\\\\udcff", f"{agents}/bad\\udcff"], paths
