"""storage.listing: telling a folder of memory dirs (agent-memory/) from one memory dir."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.storage import listing
from memdir_nb.storage.listing import (
    WalkStopped,
    folder_of_memory_dirs,
    list_daily_logs,
    list_memory_files,
    walk_memory_dir,
)
from memdir_nb.storage.scan import scan_memory_dir
from tests.conftest import DeepFolders


def test_a_folder_of_agent_memory_dirs_names_each_of_them(
    real_dir: Callable[[str], Path],
) -> None:
    parent = real_dir("agent-memory-parent")
    found = folder_of_memory_dirs(parent)
    assert found is not None
    assert found.names == ("reviewer", "tester")
    assert "reviewer/, tester/" in found.problem and "no MEMORY.md of its own" in found.problem


def test_the_fix_says_to_pass_one_agent_dir_by_its_folder_name(
    real_dir: Callable[[str], Path],
) -> None:
    found = folder_of_memory_dirs(real_dir("agent-memory-parent"))
    assert found is not None
    assert found.fix.startswith("pass agent-memory/<name>")
    assert str(found.folder) + "/reviewer" in found.fix


def test_a_long_list_of_agent_dirs_is_named_in_part(tmp_path: Path) -> None:
    for i in range(12):
        (tmp_path / f"agent{i:02d}").mkdir()
        (tmp_path / f"agent{i:02d}" / "MEMORY.md").write_text("")
    found = folder_of_memory_dirs(tmp_path)
    assert found is not None and len(found.names) == 12
    assert "agent07/" in found.problem and "agent08/" not in found.problem
    assert "and 4 more" in found.problem


def _own_index(root: Path) -> None:
    (root / "MEMORY.md").write_text("")


def _top_level_memory(root: Path) -> None:
    (root / "feedback_tone.md").write_text("---\nname: t\n---\n")


def _topic_folder_without_index(root: Path) -> None:
    (root / "topics").mkdir()
    (root / "topics" / "project_a.md").write_text("# A\n")


@pytest.mark.parametrize(
    "shape", [_own_index, _top_level_memory, _topic_folder_without_index], ids=lambda f: f.__name__
)
def test_a_memory_dir_with_a_sub_folder_index_is_still_one_memory_dir(
    tmp_path: Path, shape: Callable[[Path], None]
) -> None:
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "MEMORY.md").write_text("")
    shape(tmp_path)
    assert folder_of_memory_dirs(tmp_path) is None


@pytest.mark.parametrize("root_name", ["agent-memory", "agent-memory-local"])
def test_an_agent_memory_root_with_an_index_of_its_own_is_still_a_folder_of_memory_dirs(
    tmp_path: Path, root_name: str
) -> None:
    # A project committed .claude/agent-memory/ with a hand-written MEMORY.md listing its
    # agents beside builder/, explorer/ and validator/, each with its own MEMORY.md, plus a
    # README and a folder no agent has written yet. Claude Code loads each agent's index and
    # never the root's, so the root is no memory dir: its index is named as never loaded.
    root = tmp_path / ".claude" / root_name
    for agent in ("builder", "explorer", "validator"):
        (root / agent).mkdir(parents=True)
        (root / agent / "MEMORY.md").write_text("# notes\n")
    (root / "custom").mkdir()
    (root / "MEMORY.md").write_text("# Agents\n\n**Notes:** builder/MEMORY.md\n")
    (root / "README.md").write_text("# Agent notes\n")
    found = folder_of_memory_dirs(root)
    assert found is not None and found.own_index
    assert found.names == ("builder", "explorer", "validator")
    assert "its own MEMORY.md is never loaded" in found.problem
    assert f"{root_name}/<agent>/MEMORY.md" in found.problem
    # the same shape under any other name is one memory dir with nested indexes
    other = tmp_path / "memory"
    root.rename(other)
    assert folder_of_memory_dirs(other) is None
    other.rename(root)
    # a root index that lists memory files of its own, or an agent's files one level too high
    # (dirs-real5), keeps the root one memory dir, so that index can be kept up
    (root / "custom" / "feedback_tone.md").write_text("# Tone\n")
    assert folder_of_memory_dirs(root) is None
    (root / "custom" / "feedback_tone.md").unlink()
    (root / "shared_habits.md").write_text("# Habits\n")
    assert folder_of_memory_dirs(root) is None


def test_an_agent_memory_root_reached_through_a_link_of_another_name_is_still_one(
    tmp_path: Path,
) -> None:
    # attack round 23: the root was known by the name the caller spelled, so the same
    # .claude/agent-memory/ passed as ~/am (a symlink) read as one memory dir: `scan` listed
    # both agents' memories as one dir's, `lint` warned of the root's index
    root = tmp_path / ".claude" / "agent-memory"
    for agent in ("planner", "reviewer"):
        (root / agent).mkdir(parents=True)
        (root / agent / "MEMORY.md").write_text("# notes\n")
    (root / "MEMORY.md").write_text("- [reviewer](reviewer/MEMORY.md) — the reviewer\n")
    (tmp_path / "am").symlink_to(root)
    found = folder_of_memory_dirs(tmp_path / "am")
    assert found is not None and found.own_index
    assert found.names == ("planner", "reviewer")
    assert "its own MEMORY.md is never loaded" in found.problem
    # either name counts: .claude/agent-memory as a link to a folder of another name is an
    # agent memory root too, and that folder reached by its own name is one memory dir
    other = tmp_path / "notes"
    root.rename(other)
    root.symlink_to(other)
    assert folder_of_memory_dirs(root) is not None
    assert folder_of_memory_dirs(other) is None


def test_team_and_logs_folders_with_an_index_are_a_memory_dirs_own_parts(tmp_path: Path) -> None:
    for part in ("team", "logs"):
        (tmp_path / part).mkdir()
        (tmp_path / part / "MEMORY.md").write_text("")
    assert folder_of_memory_dirs(tmp_path) is None


def test_hidden_folders_and_repository_files_do_not_make_a_memory_dir(tmp_path: Path) -> None:
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "MEMORY.md").write_text("")
    (tmp_path / ".trash").mkdir()
    (tmp_path / "README.md").write_text("# Agents\n")
    found = folder_of_memory_dirs(tmp_path)
    assert found is not None and found.names == ("agent",)


def test_a_missing_or_empty_folder_is_no_folder_of_memory_dirs(tmp_path: Path) -> None:
    assert folder_of_memory_dirs(tmp_path / "nope") is None
    assert folder_of_memory_dirs(tmp_path) is None


def test_daily_logs_are_listed_as_the_listing_walks_never_through_a_link_nor_too_deep(
    tmp_path: Path, deep_folders: DeepFolders
) -> None:
    # attack round 13: the Claude dream prompt and the notebook profile each listed logs/
    # with pathlib's rglob, which followed a symlinked logs/ out of the dir and raised
    # RecursionError on a deep tree
    memory = tmp_path / "memory"
    (memory / "logs" / "2026" / "11").mkdir(parents=True)
    (memory / "logs" / "2026" / "11" / "2026-11-29.md").write_text("- noted\n")
    (memory / "logs" / "notes\x1b[2J.md").write_text("x")  # the gate refuses it
    deep_folders(memory / "logs", 70, name="a", file="deep.md")
    assert list_daily_logs(memory) == ["logs/2026/11/2026-11-29.md"]
    other, outside = tmp_path / "other", tmp_path / "outside"
    other.mkdir()
    (outside / "2026").mkdir(parents=True)
    (outside / "2026" / "ssh-keys.md").write_text("x")
    (other / "logs").symlink_to(outside)
    assert list_daily_logs(other) == [] and list_daily_logs(tmp_path / "missing") == []


def test_a_names_kind_depends_on_its_level_in_every_walk(tmp_path: Path) -> None:
    # the walk remembers each file name's kind: README.md at the top is a repository file,
    # one folder down the same name is a memory, on the first walk and on a later one
    (tmp_path / "notes").mkdir()
    (tmp_path / "README.md").write_text("# repo\n")
    (tmp_path / "notes" / "README.md").write_text("---\nname: r\n---\n")
    (tmp_path / "bad\x1b[2J.md").write_text("x")
    for _ in range(2):
        found, skipped, ignored = walk_memory_dir(str(tmp_path), str(tmp_path), ())
        assert [f.rel for f in found] == ["notes/README.md"]
        assert ignored == ["README.md"]
        assert [s.path for s in skipped] == ["bad\x1b[2J.md"]
        assert skipped[0].reason.startswith("not a memory file name: it ")


def _tree_of(root: Path, folders: int, files: int) -> int:
    """A memory dir of `folders` topic folders of `files` memories each; its entry count."""
    for f in range(folders):
        folder = root / f"topic{f}"
        folder.mkdir(parents=True)
        for i in range(files):
            (folder / f"note_{i}.md").write_text(f"---\nname: n{f}-{i}\n---\nbody\n")
    return folders * (files + 1)


def test_a_walk_past_the_entry_cap_stops_and_says_why_and_what_to_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entries = _tree_of(tmp_path / "home", 4, 10)
    monkeypatch.setattr(listing, "MEMORY_DIR_MAX_ENTRIES", entries)  # exactly enough: all listed
    whole = list_memory_files(tmp_path / "home")
    assert len(whole.files) == 40 and whole.stopped is None and whole.skipped == []
    monkeypatch.setattr(listing, "MEMORY_DIR_MAX_ENTRIES", entries - 1)
    for route in (list_memory_files(tmp_path / "home"), scan_memory_dir(tmp_path / "home")):
        assert route.skipped[0].path == "." and len(route.skipped) == 1
        reason = route.skipped[0].reason
        assert reason.startswith(f"stopped after looking at {entries - 1} files and folders")
        assert "looks like a home folder" in reason and "`memdir-nb where`" in reason
    stopped = list_memory_files(tmp_path / "home")
    assert stopped.files == [] and stopped.stopped is not None
    assert scan_memory_dir(tmp_path / "home").headers == []


def test_the_entry_cap_counts_across_folders_not_per_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree_of(tmp_path / "m", 5, 3)  # no folder holds more than 5 entries, the tree 20
    monkeypatch.setattr(listing, "MEMORY_DIR_MAX_ENTRIES", 10)
    with pytest.raises(WalkStopped) as stopped:
        walk_memory_dir(str(tmp_path / "m"), str(tmp_path / "m"), ())
    assert stopped.value.cap == 10 and "pass the memory dir itself" in stopped.value.fix
