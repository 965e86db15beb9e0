"""storage.home_folders: a Claude home, its projects/ or the home folder holding it is a folder
of memory dirs (fresh34, fresh36); an empty folder gets a note (fresh36)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir_nb.lint import lint_memory_dir
from memdir_nb.storage.home_folders import empty_dir_note, home_memory_dirs
from memdir_nb.storage.index_rebuild import plan_index_rebuild
from memdir_nb.storage.listing import folder_of_memory_dirs


def _home(root: Path) -> Path:
    """A ~/.claude with two projects' memory dirs and one project folder holding only sessions."""
    claude = root / ".claude"
    for key in ("-home-ana-src-kiln", "-home-ana-src-glaze"):
        memory = claude / "projects" / key / "memory"
        memory.mkdir(parents=True)
        (memory / "MEMORY.md").write_text("- [Kiln](project_kiln.md) — firing days\n")
        (memory / "project_kiln.md").write_text("---\nname: kiln\ntype: project\n---\n\nMondays.\n")
    (claude / "projects" / "-home-ana-notes").mkdir()
    (claude / "projects" / "-home-ana-notes" / "a1.jsonl").write_text("{}\n")
    (claude / "settings.json").write_text("{}\n")
    return claude


@pytest.mark.parametrize("where", ["home", "projects"])
def test_a_claude_home_or_its_projects_folder_is_a_folder_of_memory_dirs(
    tmp_path: Path, where: str
) -> None:
    # fresh34: `scan ~/.claude` listed every project's memories as one dir, lint linted them
    # together, and rebuild-index offered to write a ~/.claude/MEMORY.md that nothing loads
    claude = _home(tmp_path)
    folder = claude if where == "home" else claude / "projects"
    prefix = "projects/" if where == "home" else ""
    found = folder_of_memory_dirs(folder)
    assert found is not None and found.home
    assert found.names == (
        f"{prefix}-home-ana-src-glaze/memory",
        f"{prefix}-home-ana-src-kiln/memory",
    )
    assert "a Claude home" in found.problem and "projects/<key>/memory" in found.fix
    assert [f.rule for f in lint_memory_dir(folder)] == ["folder-of-memory-dirs"]
    with pytest.raises(ValueError, match="nothing was written"):
        plan_index_rebuild(folder)
    assert not (folder / "MEMORY.md").exists()


def test_a_project_memory_dir_and_a_memory_dir_with_a_projects_topic_folder_stay_memory_dirs(
    tmp_path: Path,
) -> None:
    # a guard: the memory dir itself, and a memory dir whose topic folder is named projects/
    claude = _home(tmp_path)
    assert folder_of_memory_dirs(claude / "projects" / "-home-ana-src-kiln" / "memory") is None
    mem = tmp_path / "mem"
    (mem / "projects").mkdir(parents=True)
    (mem / "projects" / "kiln.md").write_text("---\nname: kiln\ntype: project\n---\n\nx\n")
    assert home_memory_dirs(str(mem)) == ()
    assert folder_of_memory_dirs(mem) is None


def test_the_home_folder_holding_a_claude_home_is_a_folder_of_memory_dirs(tmp_path: Path) -> None:
    # fresh36: `scan ~` said "0 memories listed" and `lint ~` "0 errors, 0 warnings" (a dot
    # folder is never walked), so a newcomer's first guess read as a healthy, empty dir
    _home(tmp_path)
    found = folder_of_memory_dirs(tmp_path)
    assert found is not None and found.home
    assert found.names == (
        ".claude/projects/-home-ana-src-glaze/memory",
        ".claude/projects/-home-ana-src-kiln/memory",
    )
    assert "pass .claude/projects/<key>/memory, one memory dir at a time" in found.fix
    assert [f.rule for f in lint_memory_dir(tmp_path)] == ["folder-of-memory-dirs"]
    with pytest.raises(ValueError, match="nothing was written"):
        plan_index_rebuild(tmp_path)
    assert not (tmp_path / "MEMORY.md").exists()


def test_only_a_folder_with_nothing_visible_in_it_gets_the_empty_note(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / ".memdir.lock").write_text("")  # the store's own hidden files are not memories
    note = empty_dir_note(str(empty))
    assert note is not None and note.startswith(f"{empty} is empty (no MEMORY.md")
    assert "`memdir-nb where`" in note and "~/.claude/projects/<key>/memory/" in note
    (empty / "notes").mkdir()
    assert empty_dir_note(str(empty)) is None  # a guard: a folder holding anything is named by
    assert empty_dir_note(str(tmp_path / "gone")) is None  # its command; a missing one too
