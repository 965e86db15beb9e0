"""Reading which instruction files import or name a memory folder committed with a project."""

from __future__ import annotations

import itertools
from pathlib import Path

from memdir_nb.reports.claude_md import (
    IMPORTS,
    MAX_IMPORT_HOPS,
    MAX_IMPORTS_PER_FILE,
    NAMES,
    claude_md_reference,
    imported_paths,
)


def test_an_import_is_an_at_path_at_a_line_start_or_after_a_space_outside_code() -> None:
    text = (
        "@.claude/memory/MEMORY.md\n"
        "See @docs/notes.md for more; mail me@example.org\n"
        "Read `@.claude/memory/sprint.md` by hand.\n"
        "```\n@inside/a/fence.md\n```\n"
        "- @AGENTS.md\n"
    )
    assert imported_paths(text) == [".claude/memory/MEMORY.md", "docs/notes.md", "AGENTS.md"]


def test_an_import_inside_a_fence_is_code_until_the_fence_closes_with_its_own_character() -> None:
    # CommonMark: a ~~~ line or a shorter run inside a ``` or ```` block is code, not its end
    text = "````\n```\n@a.md\n~~~\n@b.md\n````\n~~~\n```\n@c.md\n~~~\n@d.md\n"
    assert imported_paths(text) == ["d.md"]


def _project(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / ".claude" / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [Stack](stack.md) - db\n", encoding="utf-8")
    return tmp_path, folder


def test_an_index_imported_through_another_instruction_file_is_an_import(tmp_path: Path) -> None:
    root, folder = _project(tmp_path)
    (root / "CLAUDE.md").write_text("# App\n@AGENTS.md\n", encoding="utf-8")
    (root / "AGENTS.md").write_text("Rules.\n\n@.claude/memory/MEMORY.md\n", encoding="utf-8")
    assert claude_md_reference(root, folder, "MEMORY.md") == IMPORTS


def test_imports_resolve_from_the_importing_file_and_stop_after_five_hops(tmp_path: Path) -> None:
    root, folder = _project(tmp_path)
    # in .claude/CLAUDE.md the same text points at .claude/.claude/memory: it only names it
    (root / ".claude" / "CLAUDE.md").write_text("@.claude/memory/MEMORY.md\n", encoding="utf-8")
    assert claude_md_reference(root, folder, "MEMORY.md") == NAMES
    (root / ".claude" / "CLAUDE.md").write_text("@memory/MEMORY.md\n", encoding="utf-8")
    assert claude_md_reference(root, folder, "MEMORY.md") == IMPORTS
    (root / ".claude" / "CLAUDE.md").unlink()
    chain = [f"hop{i}.md" for i in range(MAX_IMPORT_HOPS + 1)]
    (root / "CLAUDE.md").write_text(f"@{chain[0]}\n", encoding="utf-8")
    for here, there in itertools.pairwise(chain):
        (root / here).write_text(f"@{there}\n", encoding="utf-8")
    (root / chain[-1]).write_text("@.claude/memory/MEMORY.md\n", encoding="utf-8")
    assert claude_md_reference(root, folder, "MEMORY.md") == ""


def test_an_import_holding_a_nul_byte_names_no_file(tmp_path: Path) -> None:
    # a downloaded project's CLAUDE.md: the path went to realpath, whose ValueError ended doctor
    root, folder = _project(tmp_path)
    (root / "CLAUDE.md").write_bytes(b"See @notes\x00.md and @.claude/memory/MEMORY.md\n")
    assert imported_paths("@a\x00b @c") == ["c"]
    assert claude_md_reference(root, folder, "MEMORY.md") == IMPORTS
    (root / "CLAUDE.md").write_bytes(b"@AGENTS.md\n")
    (root / "AGENTS.md").write_bytes(b"@x\x00y\n")
    assert claude_md_reference(root, folder, "MEMORY.md") == ""


def test_a_files_imports_past_the_cap_are_not_followed(tmp_path: Path) -> None:
    # each import is resolved: 16,000 of them in each of 32 files took doctor 5 s
    root, folder = _project(tmp_path)
    many = " ".join(f"@absent{i}.md" for i in range(MAX_IMPORTS_PER_FILE))
    (root / "CLAUDE.md").write_text(f"{many} @{many.split()[0][1:]}\n@AGENTS.md\n", "utf-8")
    (root / "AGENTS.md").write_text("@.claude/memory/MEMORY.md\n", encoding="utf-8")
    assert len(imported_paths((root / "CLAUDE.md").read_text("utf-8"))) == MAX_IMPORTS_PER_FILE
    assert claude_md_reference(root, folder, "MEMORY.md") == ""
    (root / "CLAUDE.md").write_text(f"@AGENTS.md {many}\n", encoding="utf-8")
    assert claude_md_reference(root, folder, "MEMORY.md") == IMPORTS


def test_a_memory_folder_at_the_project_root_is_named_by_no_text_only_imported(
    tmp_path: Path,
) -> None:
    # its path from the root is ".", which every sentence holds: any CLAUDE.md "named" it
    root = tmp_path
    (root / "MEMORY.md").write_text("- [Stack](stack.md) - db\n", encoding="utf-8")
    (root / "CLAUDE.md").write_text("Run the tests. Use ./make.sh.\n", encoding="utf-8")
    assert claude_md_reference(root, root, "MEMORY.md") == ""
    (root / "CLAUDE.md").write_text("Rules.\n@MEMORY.md\n", encoding="utf-8")
    assert claude_md_reference(root, root, "MEMORY.md") == IMPORTS


def test_a_memory_folder_outside_the_project_is_named_by_its_relative_or_absolute_path(
    tmp_path: Path,
) -> None:
    root, outside = tmp_path / "app", tmp_path / "notes" / "memory"
    root.mkdir()
    outside.mkdir(parents=True)
    (outside / "MEMORY.md").write_text("- [Stack](stack.md) - db\n", encoding="utf-8")
    (root / "CLAUDE.md").write_text("Shared code is in ../lib.\n", encoding="utf-8")
    assert claude_md_reference(root, outside, "MEMORY.md") == ""
    for named in ("../notes/memory", str(outside)):
        (root / "CLAUDE.md").write_text(f"Our notes are in {named}.\n", encoding="utf-8")
        assert claude_md_reference(root, outside, "MEMORY.md") == NAMES
