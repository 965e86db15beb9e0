"""Attack round 9: hostile names and records, each tried through every route that takes them.

docs/security.md section 15 holds the class x route table these tests fill in. Each test states
the rule; the attack data is written here, in these tests' own words.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from memdir_nb.dream import plan_consolidation
from memdir_nb.lint import lint_memory_dir
from memdir_nb.storage.archive import import_archive
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.toolloop.memory_commands import MemoryDirBackend
from memdir_nb.toolloop.memory_text import MemoryCommandError

NOW_MS = 1_790_000_000_000.0
MEMORY = "---\nname: {n}\ndescription: a memory about {n}\ntype: user\n---\nbody of {n}\n"


def _memory(name: str) -> str:
    return MEMORY.format(n=name)


# ------------------------------------------------------------- folders with an angle bracket

ANGLE_FOLDER = "x<img src=y>"


def test_a_folder_named_with_an_angle_bracket_is_skipped_by_the_listing_routes(
    tmp_path: Path,
) -> None:
    # The gate refused '<' in a memory's folder, but the listing walked such a folder, so its
    # memory was scanned, and rebuild-index and the dream plan then failed for the whole dir
    # (an index link cannot point into it).
    (tmp_path / ANGLE_FOLDER).mkdir()
    (tmp_path / ANGLE_FOLDER / "user_a.md").write_text(_memory("a"), encoding="utf-8")
    (tmp_path / "user_b.md").write_text(_memory("b"), encoding="utf-8")
    report = scan_memory_dir(tmp_path)
    assert [h.filename for h in report.headers] == ["user_b.md"]
    assert any("angle bracket" in s.reason for s in report.skipped)
    rebuilt = rebuild_index(tmp_path, write=False)
    assert "user_b.md" in rebuilt and ANGLE_FOLDER not in rebuilt
    assert plan_consolidation(tmp_path, now_ms=NOW_MS) is not None
    found = lint_memory_dir(tmp_path, now_ms=NOW_MS, progress=False)
    assert any(f.rule == "skipped-by-scan" and "angle bracket" in f.message for f in found)


def test_a_folder_named_with_an_angle_bracket_is_refused_by_the_memory_tool(
    tmp_path: Path,
) -> None:
    tool = MemoryDirBackend(tmp_path)
    tool.create("/memories/notes/user_a.md", _memory("a"))
    with pytest.raises(MemoryCommandError, match="angle bracket"):
        tool.rename("/memories/notes", f"/memories/{ANGLE_FOLDER}")
    assert (tmp_path / "notes" / "user_a.md").is_file()
    assert not (tmp_path / ANGLE_FOLDER).exists()


def test_a_folder_named_with_an_angle_bracket_is_refused_by_archive_import(
    tmp_path: Path,
) -> None:
    archive = tmp_path / "in.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"{ANGLE_FOLDER}/user_a.md", _memory("a"))
        zf.writestr("user_b.md", _memory("b"))
    mem = tmp_path / "mem"
    report = import_archive(archive, mem)
    assert report.written == ["user_b.md"]
    assert [r.name for r in report.refused] == [f"{ANGLE_FOLDER}/user_a.md"]
    assert "angle bracket" in report.refused[0].reason
    assert not (mem / ANGLE_FOLDER).exists()
