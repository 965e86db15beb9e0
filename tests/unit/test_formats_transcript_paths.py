"""A transcript's paths: separators, roots, and the one rule for a project's memory path."""

from __future__ import annotations

from memdir_nb.formats.memory_timeline import MemoryPaths
from memdir_nb.formats.transcript_paths import (
    other_project_memory_key,
    project_memory_keys,
    project_memory_parts,
    rooted,
    slashed,
)


def test_backslashes_become_slashes_and_the_drive_letter_is_upper_case() -> None:
    assert slashed("c:\\Users\\me\\a.md") == "C:/Users/me/a.md"
    assert slashed("/home/me/a.md") == "/home/me/a.md"


def test_a_drive_or_a_leading_slash_is_a_root_and_a_bare_name_is_not() -> None:
    assert rooted("C:/w") and rooted("/w") and rooted("//server/share")
    assert not rooted("w/a.md") and not rooted("C:w")


def test_a_memory_path_gives_its_project_key_and_what_follows_the_memory_dir() -> None:
    parts = project_memory_parts("/home/me/.claude/projects/-home-me-app/memory/notes/a.md")
    assert list(parts) == [("-home-me-app", "notes/a.md")]
    assert list(project_memory_parts("/h/projects/-srv-x/memory")) == [("-srv-x", "")]


def test_every_projects_folder_in_a_path_is_tried_not_only_the_first() -> None:
    path = "/home/me/projects/app/.claude/projects/-home-me-projects-app/memory/a.md"
    assert list(project_memory_parts(path)) == [("-home-me-projects-app", "a.md")]


def test_a_memory_dir_of_another_name_is_matched_by_that_name_only() -> None:
    path = "/h/projects/-srv-x/memory-old/a.md"
    assert list(project_memory_parts(path)) == []
    assert list(project_memory_parts(path, "memory-old")) == [("-srv-x", "a.md")]


def test_the_timeline_and_the_session_search_read_the_same_rule() -> None:
    # the timeline matches its own key under any Claude home; another key is another project
    paths = MemoryPaths("/elsewhere/projects/-home-me-app/memory")
    windows = "D:\\home\\projects\\app\\.claude\\projects\\-home-me-app\\memory\\a.md"
    assert paths.relative(windows) == "a.md"
    assert paths.relative("/x/projects/-home-me-other/memory/a.md") is None
    assert paths.relative("/x/projects/-home-me-app/memory/../../secrets.md") is None


def test_another_projects_memory_dir_is_named_by_its_key_and_this_projects_own_is_not() -> None:
    own = "/h/.claude/projects/-h-app/memory"
    assert other_project_memory_key("/h/.claude/projects/-h-web/memory/x.md", own) == "-h-web"
    # the same project's memory in another home is not another project; nor is a plain folder
    assert other_project_memory_key("/backup/projects/-h-app/memory/x.md", own) is None
    assert other_project_memory_key("/h/plans/x.md", own) is None
    # a Windows key compares case-folded, as the folder does there
    win = "C:/Users/me/.claude/projects/c--ws/memory"
    assert (
        other_project_memory_key("C:\\Users\\me\\.claude\\projects\\C--ws\\memory\\a.md", win)
        is None
    )
    # a memory dir not under projects/ links a project's memory: that project is named
    assert (
        other_project_memory_key("/h/.claude/projects/-h-app/memory/x.md", "/srv/mem") == "-h-app"
    )


def test_a_key_given_besides_the_dirs_own_reads_that_keys_memory_paths_as_this_dir() -> None:
    paths = MemoryPaths("/h/projects/-srv-work-kiln/memory", other_keys=["-media-old-kiln"])
    moved = "/media/old/kiln/.claude_alt/projects/-media-old-kiln/memory/project_a.md"
    assert paths.relative(moved) == "project_a.md"
    assert paths.relative("/h/projects/-srv-work-kiln/memory/b.md") == "b.md"
    assert paths.relative("/x/projects/-media-old-other/memory/a.md") is None
    assert MemoryPaths("/h/projects/-srv-work-kiln/memory").relative(moved) is None


def test_a_path_naming_thousands_of_memory_dirs_is_read_each_place_once() -> None:
    """redos44: the rest of the path after every place was cut even where no caller wanted it,
    quadratic in the places (12,800 of them in a 256 KiB path: 0.7 s to list them)."""
    other = "/x/projects/-srv-other/memory" * 14_000
    path = other + "/h/projects/-home-me-app/memory/notes/a.md"
    assert list(project_memory_keys(path)) == [key for key, _ in project_memory_parts(path)]
    assert len(list(project_memory_keys(path))) == 14_001
    assert MemoryPaths("/elsewhere/projects/-home-me-app/memory").relative(path) == "notes/a.md"
    assert MemoryPaths("/elsewhere/projects/-srv-none/memory").relative(path) is None
    windows = "C:\\h\\projects\\-home-me-app\\memory\\b.md"
    assert list(project_memory_keys(windows)) == ["-home-me-app"]
