"""Where a write lands (storage/targets.py): the write-time checks that turn a path into a target."""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir_nb.spec import constants
from memdir_nb.storage.containment import PathTraversalError
from memdir_nb.storage.targets import (
    forgotten_copy_order,
    forgotten_stamp,
    kept_lines_name,
    resolve_target,
)


def _memory_dir(tmp_path: Path) -> Path:
    mem = tmp_path / "memory"
    (mem / "team").mkdir(parents=True)
    return mem


def test_a_relative_and_an_absolute_path_resolve_to_one_target(tmp_path: Path) -> None:
    mem = _memory_dir(tmp_path)
    relative = resolve_target(mem, "notes/a.md")
    absolute = resolve_target(mem, mem / "notes" / "a.md")
    assert relative == absolute
    assert relative.rel == "notes/a.md" and relative.parts == ("notes", "a.md")
    assert relative.path == Path(mem.resolve() / "notes" / "a.md") and not relative.team


def test_a_path_leaving_the_memory_dir_is_refused(tmp_path: Path) -> None:
    mem = _memory_dir(tmp_path)
    with pytest.raises(PathTraversalError):
        resolve_target(mem, "../outside.md")


def test_a_folder_linking_outside_is_refused(tmp_path: Path) -> None:
    mem = _memory_dir(tmp_path)
    (tmp_path / "outside").mkdir()
    (mem / "escape").symlink_to(tmp_path / "outside", target_is_directory=True)
    with pytest.raises(PathTraversalError):
        resolve_target(mem, "escape/x.md")


@pytest.mark.parametrize("name", [constants.STORE_LOCK_NAME, constants.STORE_JOURNAL_NAME])
def test_the_stores_own_lock_and_journal_are_not_write_targets(tmp_path: Path, name: str) -> None:
    mem = _memory_dir(tmp_path)
    with pytest.raises(PathTraversalError, match="lock or journal"):
        resolve_target(mem, name)


def test_a_file_named_like_the_lock_inside_a_folder_is_a_memory(tmp_path: Path) -> None:
    mem = _memory_dir(tmp_path)
    assert resolve_target(mem, f"notes/{constants.STORE_LOCK_NAME}").rel.startswith("notes/")


def test_a_folder_linking_to_team_makes_a_team_target(tmp_path: Path) -> None:
    mem = _memory_dir(tmp_path)
    (mem / "shared").symlink_to("team", target_is_directory=True)
    target = resolve_target(mem, "shared/x.md")
    assert target.team and target.rel == "team/x.md"


def test_follow_final_false_takes_a_symlinked_memory_itself(tmp_path: Path) -> None:
    mem = _memory_dir(tmp_path)
    (mem / "real.md").write_text("x\n")
    (mem / "alias.md").symlink_to("real.md")
    assert resolve_target(mem, "alias.md").rel == "real.md"
    assert resolve_target(mem, "alias.md", follow_final=False).rel == "alias.md"


def test_a_target_with_a_dotted_component_is_hidden(tmp_path: Path) -> None:
    mem = _memory_dir(tmp_path)
    assert resolve_target(mem, ".trash/a.md").hidden
    assert not resolve_target(mem, "notes/a.md").hidden


@pytest.mark.parametrize("link", [".trash", ".trash/batch"])
def test_a_trash_folder_linking_to_another_folder_of_the_dir_is_not_a_write_target(
    tmp_path: Path, link: str
) -> None:
    # attack round 30: `.trash -> archive` passed both containment passes (archive is inside),
    # so what was put in the trash landed in archive/, where the scan lists it as a memory
    mem = _memory_dir(tmp_path)
    (mem / "archive").mkdir()
    if link != ".trash":
        (mem / ".trash").mkdir()
    (mem / link).symlink_to(Path("../" * link.count("/")) / "archive", target_is_directory=True)
    with pytest.raises(PathTraversalError, match=r"not a folder of the memory dir's own") as err:
        resolve_target(mem, ".trash/batch/a.md")
    assert err.value.rule == "trash-link" and "Move the link aside" in str(err.value)


def test_a_symlinked_memory_kept_in_a_trash_batch_still_resolves(tmp_path: Path) -> None:
    # only the trash's folders must be its own: a memory moved there as the link it was
    # (follow_final=False) is read back through its link when restored
    mem = _memory_dir(tmp_path)
    (mem / "real.md").write_text("x\n")
    (mem / ".trash" / "batch").mkdir(parents=True)
    (mem / ".trash" / "batch" / "alias.md").symlink_to("../../real.md")
    assert resolve_target(mem, ".trash/batch/alias.md").rel == "real.md"
    assert resolve_target(mem, ".trash/batch/alias.md", follow_final=False).rel == (
        ".trash/batch/alias.md"
    )


def test_the_file_keeping_a_forgotten_copys_index_lines_is_no_forgotten_copy() -> None:
    copy = "20261204T120000123Z-kiln.md"
    assert forgotten_stamp(copy) is not None
    assert kept_lines_name(copy) == copy + ".index-line"
    assert forgotten_stamp(kept_lines_name(copy)) is None
    assert forgotten_copy_order(kept_lines_name(copy), "kiln.md.index-line") is None
