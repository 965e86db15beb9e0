"""Hard links (attack round 28, docs/security.md section 35).

A file inside the memory dir that is a hard link to a file elsewhere is, to realpath and to
every containment check, an ordinary file of the dir. What matters is how a route writes it:
a write that makes a new file and renames it over the name (the store, the memory tool,
MEMORY.md, rebuild-index) leaves the other name's contents alone; a write in place (an append)
changes both. These tests make real hard links to a file outside the dir and try each writer.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir_nb.storage.daily_log import DailyLogError, append_daily_log, daily_log_file
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.storage.store import MemoryStore
from memdir_nb.toolloop.memory_commands import MemoryDirBackend

NOW_MS = 1_790_000_000_000.0
OUTSIDE_TEXT = "the outside file, which no memory route may change\n"


def _outside(tmp_path: Path) -> Path:
    victim = tmp_path / "outside" / "notes.md"
    victim.parent.mkdir()
    victim.write_text(OUTSIDE_TEXT, encoding="utf-8")
    return victim


def _log_linked_outside(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(memory dir, outside file, today's daily log): the log a hard link to the outside file."""
    memory = tmp_path / "memory"
    memory.mkdir()
    victim = _outside(tmp_path)
    log = daily_log_file(memory, now_ms=NOW_MS)
    log.parent.mkdir(parents=True)
    os.link(victim, log)
    return memory, victim, log


def test_an_append_to_a_daily_log_that_is_a_hard_link_is_refused(tmp_path: Path) -> None:
    """The append writes in place (O_APPEND), so through a hard link it would change the
    outside file: it is refused, naming the fix, and neither name is changed."""
    memory, victim, log = _log_linked_outside(tmp_path)
    with pytest.raises(DailyLogError, match=r"hard link.*2 names.*cp .*mv "):
        append_daily_log(memory, "a note that must not leave the memory dir", now_ms=NOW_MS)
    assert victim.read_text(encoding="utf-8") == OUTSIDE_TEXT
    assert os.stat(log).st_ino == os.stat(victim).st_ino


def test_the_fix_the_refusal_names_lets_the_append_go_on(tmp_path: Path) -> None:
    memory, victim, log = _log_linked_outside(tmp_path)
    with pytest.raises(DailyLogError):
        append_daily_log(memory, "first try", now_ms=NOW_MS)
    copy = log.with_name(log.name + ".new")
    copy.write_bytes(log.read_bytes())  # the `cp F F.new && mv F.new F` the message names
    copy.replace(log)
    append_daily_log(memory, "second try", now_ms=NOW_MS)
    assert "second try" in log.read_text(encoding="utf-8")
    assert victim.read_text(encoding="utf-8") == OUTSIDE_TEXT


def test_a_daily_log_of_one_name_is_appended_as_before(tmp_path: Path) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    append_daily_log(memory, "one", now_ms=NOW_MS)
    append_daily_log(memory, "two", now_ms=NOW_MS)
    text = daily_log_file(memory, now_ms=NOW_MS).read_text(encoding="utf-8")
    assert "one" in text and "two" in text


def _linked_memory(tmp_path: Path, name: str) -> tuple[Path, Path]:
    memory = tmp_path / "memory"
    memory.mkdir()
    victim = _outside(tmp_path)
    victim.write_text(
        "---\nname: Notes\ndescription: outside notes\ntype: project\n---\n\n" + OUTSIDE_TEXT,
        encoding="utf-8",
    )
    target = memory / name
    target.parent.mkdir(parents=True, exist_ok=True)
    os.link(victim, target)
    return memory, victim


@pytest.mark.parametrize("name", ["project_notes.md", "team/project_notes.md"])
def test_memory_tool_edits_of_a_hard_linked_memory_leave_the_outside_file_alone(
    tmp_path: Path, name: str
) -> None:
    memory, victim = _linked_memory(tmp_path, name)
    before = victim.read_bytes()
    tool = MemoryDirBackend(memory)
    tool.str_replace(f"/memories/{name}", "outside notes", "edited here")
    tool.insert(f"/memories/{name}", 0, "inserted\n")
    assert victim.read_bytes() == before
    assert "edited here" in (memory / name).read_text(encoding="utf-8")
    assert os.stat(memory / name).st_ino != os.stat(victim).st_ino


def test_store_update_save_and_index_writes_of_hard_linked_files_leave_the_outside_files_alone(
    tmp_path: Path,
) -> None:
    memory, victim = _linked_memory(tmp_path, "project_notes.md")
    before = victim.read_bytes()
    outside_index = tmp_path / "outside" / "index.md"
    outside_index.write_text("- an outside list\n", encoding="utf-8")
    os.link(outside_index, memory / "MEMORY.md")
    store = MemoryStore(memory)
    store.update("project_notes.md", description="updated here", body="New body.")
    store.save("Other", "a new memory", "project", "Body.", filename="project_other.md")
    rebuild_index(memory, write=True)
    assert victim.read_bytes() == before
    assert outside_index.read_text(encoding="utf-8") == "- an outside list\n"
    assert "project_notes.md" in (memory / "MEMORY.md").read_text(encoding="utf-8")
