"""Attack round 9: text that is not text, through every route that writes text to a memory dir.

JSON decodes ``"\\ud800"`` to a lone surrogate, so a model's tool input (the memory tool, the
extraction tools) or a caller's JSON payload can hand a writer a str that UTF-8 cannot encode.
Each writer must refuse it in its own interface's words and write nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.extract.runner import ToolRunner
from memdir_nb.storage.daily_log import DailyLogError, append_daily_log
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.store_checks import MemoryValidationError
from memdir_nb.toolloop.memory_commands import MemoryDirBackend
from memdir_nb.toolloop.memory_text import MemoryCommandError

NOW_MS = 1_790_000_000_000.0
LONE = "\ud800"
BODY = "---\nname: kept\ndescription: a memory about deploys\ntype: user\n---\nthe old body\n"


def _files(root: Path) -> dict[str, bytes]:
    out = {}
    for folder, _dirs, names in os.walk(root):
        for name in names:
            if name != ".memdir.lock":
                path = Path(folder) / name
                out[str(path.relative_to(root))] = path.read_bytes()
    return out


def _store_save(mem: Path) -> None:
    MemoryStore(mem).save("new", "a desc of a new memory", "user", f"body {LONE}")


def _store_save_description(mem: Path) -> None:
    MemoryStore(mem).save("new", f"a desc {LONE}", "user", "body")


def _store_update(mem: Path) -> None:
    MemoryStore(mem).update("user_kept.md", body=f"new {LONE} body")


def _daily_log(mem: Path) -> None:
    append_daily_log(mem, f"a note {LONE}", now_ms=NOW_MS)


def _tool_create(mem: Path) -> None:
    MemoryDirBackend(mem).create("/memories/user_new.md", BODY.replace("old", LONE))


def _tool_str_replace(mem: Path) -> None:
    MemoryDirBackend(mem).str_replace("/memories/user_kept.md", "old", LONE)


def _tool_insert(mem: Path) -> None:
    MemoryDirBackend(mem).insert("/memories/user_kept.md", 5, f"{LONE}\n")


def _extraction(name: str, tool_input: dict[str, str]) -> Callable[[Path], None]:
    def run(mem: Path) -> None:
        runner = ToolRunner(mem)  # the model Reads a file before it writes it, as in Claude Code
        assert not runner.run("Read", {"file_path": str(mem / "user_kept.md")}).is_error
        outcome = runner.run(name, {"file_path": str(mem / "user_kept.md"), **tool_input})
        assert outcome.is_error
        raise ValueError(outcome.content)

    return run


WRITERS: dict[str, tuple[Callable[[Path], None], type[Exception]]] = {
    "store save, body": (_store_save, MemoryValidationError),
    "store save, description": (_store_save_description, MemoryValidationError),
    "store update": (_store_update, MemoryValidationError),
    "daily log": (_daily_log, DailyLogError),
    "memory tool create": (_tool_create, MemoryCommandError),
    "memory tool str_replace": (_tool_str_replace, MemoryCommandError),
    "memory tool insert": (_tool_insert, MemoryCommandError),
    "extraction Write": (_extraction("Write", {"content": BODY + LONE}), ValueError),
    "extraction Edit": (
        _extraction("Edit", {"old_string": "old", "new_string": LONE}),
        ValueError,
    ),
}


@pytest.mark.parametrize("route", list(WRITERS))
def test_a_lone_surrogate_is_refused_in_words_by_every_writer_and_nothing_is_written(
    tmp_path: Path, route: str
) -> None:
    mem = tmp_path / "mem"
    mem.mkdir()
    (mem / "user_kept.md").write_text(BODY, encoding="utf-8")
    before = _files(mem)
    call, error = WRITERS[route]
    with pytest.raises(error, match="lone surrogate") as caught:
        call(mem)
    assert "codec" not in str(caught.value)
    assert _files(mem) == before
