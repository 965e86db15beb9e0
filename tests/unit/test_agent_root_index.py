"""An agent memory root's own MEMORY.md, never loaded, and the memories it leaves unseen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from memdir_nb.storage.agent_root_index import (
    agent_scopes,
    scopes_joined_problem,
    stranded_files,
    unloaded_agent_index,
)
from memdir_nb.storage.index_files import loaded_index_references


def test_files_in_a_sub_folder_without_an_index_reach_no_agent_and_the_fix_names_it(
    real_dir: Callable[[str], Path],
) -> None:
    # realdata33: a committed agent-memory/ whose index lists twelve memories of an agent
    # folder that has no MEMORY.md of its own; every route said the index "loaded whole"
    parent = real_dir("agent-beside-index")
    note = unloaded_agent_index(parent)
    assert note is not None
    assert note.stranded == ("builder/reference_cache_host.md",)  # planner/ has its own index
    assert "MEMORY.md here is never loaded" in note.problem
    assert "agent-memory/<agent>/MEMORY.md" in note.problem
    assert "1 memory file (builder/reference_cache_host.md) reaches no agent" in note.problem
    assert note.fix == (
        "give builder/ an index of its own: `memdir-nb rebuild-index agent-memory/builder`"
    )


def test_memory_files_at_the_root_itself_are_to_move_into_their_agents_folder(
    real_dir: Callable[[str], Path],
) -> None:
    parent = real_dir("agent-root-files")
    note = unloaded_agent_index(parent)
    assert note is not None
    assert note.stranded == ("project_house_glazes.md", "project_wheel_slots.md")
    assert "2 memory files (project_house_glazes.md, project_wheel_slots.md) reach" in note.problem
    assert note.fix.startswith("move each memory file here into the folder of the agent")
    assert "`memdir-nb where`" in note.fix and "rebuild-index" not in note.fix


def test_a_memory_dir_a_folder_of_agent_dirs_and_the_same_shape_elsewhere_get_no_note(
    real_dir: Callable[[str], Path], tmp_path: Path
) -> None:
    assert unloaded_agent_index(real_dir("private-only")) is None
    # each agent keeps its own index: the folder-of-memory-dirs note says it all
    assert unloaded_agent_index(real_dir("agent-memory-parent")) is None
    parent = real_dir("agent-root-files")
    renamed = parent.rename(tmp_path / "memory")  # under any other name: a memory dir
    assert unloaded_agent_index(renamed) is None
    (renamed / "MEMORY.md").unlink()
    agent_root = renamed.rename(tmp_path / "agent-memory")
    assert unloaded_agent_index(agent_root) is None  # no index of its own: nothing to say


def test_stranded_files_are_those_outside_every_folder_with_its_own_index(
    tmp_path: Path,
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "MEMORY.md").write_text("- [x](x.md) — x\n")
    (tmp_path / "b").mkdir()
    files = ["b/y.md", "a/x.md", "z.md", "a/deep/w.md"]
    assert stranded_files(tmp_path, files) == ("b/y.md", "z.md")


def test_a_root_index_line_lists_an_agents_file_for_no_session_but_the_agents_own_does(
    real_dir: Callable[[str], Path], tmp_path: Path
) -> None:
    # fix35c: the tables counted a file of an agent's folder as indexed by the root's line
    parent = real_dir("agent-root-unlisted")
    files = [
        "project_kiln_rota.md",
        "planner/project_release_train.md",
        "planner/project_freeze_window.md",
    ]
    root_lines = ["project_kiln_rota.md", "planner/project_freeze_window.md"]
    assert loaded_index_references(parent, files, root_lines) == {
        "project_kiln_rota.md",
        "planner/project_release_train.md",
    }
    # the same shape under any other name is one memory dir: its own index lists both
    other = tmp_path / "notes"
    parent.rename(other)
    assert loaded_index_references(other, files, root_lines) == set(files)


def test_every_agents_folder_is_its_own_scope_indexed_or_not_and_elsewhere_there_is_none(
    real_dir: Callable[[str], Path], tmp_path: Path
) -> None:
    # lefts36: the dream's merges block by it (builder/ has no index, still the builder's)
    parent = real_dir("agent-beside-index")
    files = [
        "planner/project_release_train.md",
        "builder/reference_cache_host.md",
        "team/project_x.md",
        "project_root.md",
    ]
    assert agent_scopes(parent, files) == {
        "planner/project_release_train.md": "planner",
        "builder/reference_cache_host.md": "builder",
    }
    assert agent_scopes(tmp_path, files) == {}  # not an agent memory root: no agent's scope


def test_one_step_writing_two_agents_folders_is_named_and_one_folder_or_the_root_index_is_not(
    real_dir: Callable[[str], Path], tmp_path: Path
) -> None:
    # lefts37: the Claude planner's plan is one step (its files carry no record of whose text)
    parent = real_dir("agent-beside-index")
    one = ["planner/project_release_train.md", "planner/MEMORY.md", "MEMORY.md"]
    assert scopes_joined_problem(parent, one) is None  # the root's index: no agent loads it
    two = ["planner/project_release_train.md", "builder/reference_cache_host.md"]
    problem = scopes_joined_problem(parent, two)
    assert problem is not None
    assert "builder/: builder/reference_cache_host.md" in problem
    assert "planner/: planner/project_release_train.md" in problem
    root_own = scopes_joined_problem(parent, ["project_root.md", two[0]])
    assert root_own is not None and "the root's own files: project_root.md" in root_own
    assert scopes_joined_problem(tmp_path, two) is None  # not an agent memory root
