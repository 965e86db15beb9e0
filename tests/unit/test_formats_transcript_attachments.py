"""What a transcript's attachment records say (formats.transcript_attachments)."""

from __future__ import annotations

from memdir_nb.formats.transcript_attachments import (
    MEMORY_SAVED,
    OUTSIDE_EDIT,
    RECALLED,
    loaded_memory_indexes,
    outside_edit_path,
    recalled_memory_paths,
    saved_memory_paths,
)
from memdir_nb.spec.constants import RECORD_MEMORY_PATHS_MAX


def test_the_memory_index_an_instructions_note_says_was_loaded_is_read_from_it() -> None:
    index = "/home/dana/.claude/projects/-home-dana/memory/MEMORY.md"
    files = [
        {"path": "/home/dana/.claude/CLAUDE.md", "type": "User", "content": "be brief"},
        {"path": index, "type": "AutoMem", "content": "- [Charts](charts.md)"},
        {"path": 7, "type": "AutoMem"},
        "not a file",
    ]
    assert loaded_memory_indexes({"type": "instructions", "files": files}) == [index]
    assert loaded_memory_indexes({"type": "nested_memory", "path": index}) == []
    assert loaded_memory_indexes({"type": "instructions", "files": "x"}) == []
    assert loaded_memory_indexes(None) == []


def test_an_outside_edit_names_its_file_and_nothing_else_does() -> None:
    # the CLI's note that a file the agent read changed through something else
    path = "/home/dana/.claude/projects/-home-dana/memory/MEMORY.md"
    assert outside_edit_path({"type": OUTSIDE_EDIT, "filename": path, "snippet": "x"}) == path
    assert outside_edit_path({"type": "instructions", "filename": path}) is None
    assert outside_edit_path({"type": OUTSIDE_EDIT, "filename": ""}) is None
    assert outside_edit_path({"type": OUTSIDE_EDIT, "filename": "/" + "a" * 5000}) is None
    assert outside_edit_path("not a record") is None


def test_the_cli_recall_record_names_the_memories_it_surfaced_each_once_and_bounded() -> None:
    # the `relevant_memories` attachment: {path, content, mtimeMs} per surfaced memory
    mem = "/home/dana/.claude/projects/-home-dana/memory"
    memories: list[object] = [
        {"path": f"{mem}/a.md", "content": "alpha", "mtimeMs": 1},
        {"path": f"{mem}/a.md", "content": "alpha again", "mtimeMs": 1},
        {"path": 3},
        {"path": ""},
        {"path": "/" + "b" * 5000},
        "not a memory",
        {"path": f"{mem}/c.md"},
    ]
    assert recalled_memory_paths({"type": RECALLED, "memories": memories}) == [
        f"{mem}/a.md",
        f"{mem}/c.md",
    ]
    many = [{"path": f"{mem}/m{i}.md"} for i in range(RECORD_MEMORY_PATHS_MAX + 5)]
    assert len(recalled_memory_paths({"type": RECALLED, "memories": many})) == (
        RECORD_MEMORY_PATHS_MAX
    )
    assert recalled_memory_paths({"type": "instructions", "memories": memories}) == []
    assert recalled_memory_paths({"type": RECALLED, "memories": "x"}) == []
    assert recalled_memory_paths(None) == []


def test_a_memory_saved_note_names_the_files_the_background_agent_wrote() -> None:
    # `system` / `memory_saved`: writtenPaths (and teamCount, and verb "Improved" for a dream)
    mem = "/home/dana/.claude/projects/-home-dana/memory"
    written = [f"{mem}/a.md", f"{mem}/team/b.md", f"{mem}/a.md", 4, "", None]
    record = {"type": "system", "subtype": MEMORY_SAVED, "writtenPaths": written, "teamCount": 1}
    assert saved_memory_paths(record) == [f"{mem}/a.md", f"{mem}/team/b.md"]
    many = [f"{mem}/m{i}.md" for i in range(RECORD_MEMORY_PATHS_MAX + 5)]
    saved = saved_memory_paths({"subtype": MEMORY_SAVED, "writtenPaths": many})
    assert saved == many[:RECORD_MEMORY_PATHS_MAX]
    assert saved_memory_paths({"subtype": "turn_duration", "writtenPaths": written}) == []
    assert saved_memory_paths({"subtype": MEMORY_SAVED, "writtenPaths": "a.md"}) == []
    assert saved_memory_paths([]) == []
