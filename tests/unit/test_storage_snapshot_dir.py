"""The scratch folder a session replay rebuilds the memory dir in, turn by turn."""

from __future__ import annotations

from memdir_nb.storage.snapshot_dir import SnapshotDir


def test_a_path_in_the_folder_is_named_relative_to_it_by_the_same_string_each_time() -> None:
    with SnapshotDir() as scratch:
        scratch.sync({"notes/a.md": ("a", 1_000.0), "b.md": ("b", 1_000.0)})
        first = scratch.name_of(str(scratch.path / "notes" / "a.md"))
        again = scratch.name_of(str(scratch.path / "notes" / "a.md"))
        assert first == "notes/a.md" and again is first
        assert scratch.name_of(scratch.path / "b.md") == "b.md"
