"""storage/memory_filenames.py: a memory's store filename, and the name a new memory gets.

MemoryStore's saves, updates and moves through these names are in test_store.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir_nb.storage.memory_filenames import (
    free_memory_filename,
    holds_same_memory,
    split_store_filename,
    store_filename,
)
from memdir_nb.storage.store_checks import MemoryValidationError

MEMORY = "---\nname: CI\ndescription: where the runners are\ntype: project\n---\nUTC.\n"


def test_a_store_filename_is_read_as_scope_and_name_and_written_back() -> None:
    for filename, parts in (("x.md", ("private", "x.md")), ("team/x.md", ("team", "x.md"))):
        assert split_store_filename(filename) == parts
        assert store_filename(*parts) == filename


@pytest.mark.parametrize("bad", ["notes/x.md", "team/sub/x.md", 3])
def test_a_filename_in_another_folder_or_not_a_string_is_refused_with_the_form_to_use(
    bad: object,
) -> None:
    with pytest.raises(MemoryValidationError, match="x.md"):
        split_store_filename(bad)


def test_the_same_memory_saved_again_keeps_its_file_whatever_its_modified_time(
    tmp_path: Path,
) -> None:
    (tmp_path / "project_ci.md").write_text(
        MEMORY.replace("type: project\n", "type: project\nmodified: 2026-01-02T03:04:05Z\n"),
        encoding="utf-8",
    )
    assert holds_same_memory(tmp_path, tmp_path / "project_ci.md", MEMORY)
    assert free_memory_filename(tmp_path, "private", tmp_path, "project_ci.md", MEMORY, False) == (
        "project_ci.md"
    )


def test_another_memory_under_the_name_gives_the_next_free_one_unless_the_name_was_chosen(
    tmp_path: Path,
) -> None:
    (tmp_path / "project_ci.md").write_text(MEMORY.replace("UTC", "GMT"), encoding="utf-8")
    (tmp_path / "project_ci_2.md").write_text(MEMORY.replace("UTC", "CET"), encoding="utf-8")
    assert not holds_same_memory(tmp_path, tmp_path / "project_ci.md", MEMORY)
    picked = free_memory_filename(tmp_path, "private", tmp_path, "project_ci.md", MEMORY, False)
    assert picked == "project_ci_3.md"
    with pytest.raises(MemoryValidationError, match=r"team/project_ci.md already holds another"):
        free_memory_filename(tmp_path, "team", tmp_path, "project_ci.md", MEMORY, True)
