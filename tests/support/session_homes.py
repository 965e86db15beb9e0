"""Claude homes whose transcripts a user opens one by one, in the shapes real homes hold.

Written in our own words after transcripts found in published homes (docs/sessions.md):
* a session file holding only a `/clear` and the local-command records around it (no prompt);
* a session whose first memory the agent writes in its second turn, so the memory dir was
  still empty at the first two prompts and holds the memory at the third;
* a subagent file of one record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.home.path_rules import sanitize_path

CWD = "/home/rue/src/ferry"
CLEAR_ONLY = "0c7e1d2a-4b3f-4a69-8e15-9f2d6b0a3c71"
LATE_MEMORY = "7a2f9c04-1e6d-4b83-a5c2-3d8e0f1b6a94"
MODEL = "claude-sonnet-4-5"


def _record(session: str, kind: str, uuid: str, minute: int, **fields: Any) -> str:
    stamp = f"2026-09-14T08:{minute:02d}:00.000Z"
    head = {"type": kind, "uuid": uuid, "sessionId": session, "cwd": CWD, "timestamp": stamp}
    return json.dumps({**head, **fields}) + "\n"


def _user(session: str, uuid: str, minute: int, content: object, **fields: Any) -> str:
    message = {"role": "user", "content": content}
    return _record(session, "user", uuid, minute, message=message, **fields)


def _assistant(session: str, uuid: str, minute: int, parent: str, blocks: list[object]) -> str:
    message = {"role": "assistant", "id": f"msg_{uuid}", "model": MODEL, "content": blocks}
    return _record(session, "assistant", uuid, minute, parentUuid=parent, message=message)


def _clear_only(s: str) -> str:
    """A session whose only user records are the local-command caveat and `/clear`."""
    caveat = "<local-command-caveat>Caveat: these messages came from a local command."
    stdout = "<local-command-stdout></local-command-stdout>"
    return (
        _user(s, "c1", 1, caveat, isMeta=True)
        + _user(s, "c2", 2, "<command-name>/clear</command-name>")
        + _record(s, "system", "c3", 3, subtype="local_command", content=stdout)
    )


def _late_memory(s: str, memory_file: str, text: str) -> str:
    """Turn 1 is answered in words, turn 2 writes the first memory, turn 3 asks again."""
    write = {"file_path": memory_file, "content": text}
    done = f"File created successfully at: {memory_file}"
    return (
        _user(s, "u1", 10, "Which dock does the morning ferry leave from?")
        + _assistant(s, "a1", 11, "u1", [{"type": "text", "text": "Dock 3, per the timetable."}])
        + _user(s, "u2", 20, "Remember that the timetable moves to dock 5 in winter.")
        + _assistant(
            s, "a2", 21, "u2", [{"type": "tool_use", "id": "t1", "name": "Write", "input": write}]
        )
        + _user(s, "r2", 22, [{"type": "tool_result", "tool_use_id": "t1", "content": done}])
        + _user(s, "u3", 30, "And in December, which dock?")
        + _assistant(s, "a3", 31, "u3", [{"type": "text", "text": "Dock 5 (winter timetable)."}])
    )


def build_picked_sessions_home(root: Path) -> Path:
    """A home folder (holding .claude) with the three transcripts above and the memory written."""
    home = root / "rue"
    project = home / ".claude" / "projects" / sanitize_path(CWD)
    memory = project / "memory"
    memory.mkdir(parents=True)
    text = render_memory_file(
        "Winter dock",
        "The ferry leaves from dock 5 in winter",
        "project",
        "The timetable moves the morning ferry to dock 5 from November to March.\n",
    )
    (memory / "project_winter_dock.md").write_text(text, encoding="utf-8")
    (memory / "MEMORY.md").write_text(
        "- [Winter dock](project_winter_dock.md) — dock 5 in winter\n"
    )
    (project / f"{CLEAR_ONLY}.jsonl").write_text(_clear_only(CLEAR_ONLY), encoding="utf-8")
    late = _late_memory(LATE_MEMORY, str(memory / "project_winter_dock.md"), text)
    (project / f"{LATE_MEMORY}.jsonl").write_text(late, encoding="utf-8")
    agent = project / LATE_MEMORY / "subagents" / "agent-b7c1e0.jsonl"
    agent.parent.mkdir(parents=True)
    agent.write_text(json.dumps({"type": "user", "cwd": CWD, "isSidechain": True}) + "\n")
    return home
