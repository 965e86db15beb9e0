"""storage/index_writes.py: the store's edits of one pointer line, and a cited line kept."""

from __future__ import annotations

from pathlib import Path

from memdir_nb.storage.index_writes import (
    cited_line,
    keep_dropped_lines,
    kept_lines,
    put_index_line,
    put_kept_lines,
    remove_index_line,
)
from memdir_nb.storage.store import MemoryStore

CITED = "- [Kiln](kiln.md) — cone 6 firing schedule (source: the glaze studio's log)\n"
PLAIN = "- [Kiln](kiln.md) — cone 6 firing schedule\n"
NEW = "- [Kiln](kiln.md) — cone 6 and cone 10 schedules"


def _index(tmp_path: Path, text: str) -> tuple[MemoryStore, Path]:
    mem = tmp_path / "memory"
    mem.mkdir(parents=True)
    (mem / "MEMORY.md").write_text(text, encoding="utf-8")
    return MemoryStore(mem), mem / "MEMORY.md"


def test_a_line_that_cites_a_source_is_never_rewritten(tmp_path: Path) -> None:
    store, entry = _index(tmp_path, CITED)
    with store.transaction() as tx:
        done = put_index_line(tx, entry, "kiln.md", NEW, keep_existing=False)
    assert done.outcome == "kept-cited" and done.verdict is None
    assert entry.read_text(encoding="utf-8") == CITED


def test_a_line_that_cites_nothing_is_rewritten_and_its_verdict_given(tmp_path: Path) -> None:
    store, entry = _index(tmp_path, PLAIN)
    with store.transaction() as tx:
        done = put_index_line(tx, entry, "kiln.md", NEW, keep_existing=False)
    assert done.outcome == "written" and done.verdict is not None
    assert entry.read_text(encoding="utf-8") == NEW + "\n"


def test_keep_existing_leaves_any_line_there_and_writes_a_missing_one(tmp_path: Path) -> None:
    store, entry = _index(tmp_path, PLAIN)
    with store.transaction() as tx:
        assert put_index_line(tx, entry, "kiln.md", NEW, keep_existing=True).outcome == "kept"
        other = "- [Glaze](glaze.md) — glaze recipes"
        assert put_index_line(tx, entry, "glaze.md", other, keep_existing=True).outcome == "written"
    assert entry.read_text(encoding="utf-8") == PLAIN + other + "\n"


def test_the_cited_line_a_move_carries_is_the_line_as_written(tmp_path: Path) -> None:
    store, entry = _index(tmp_path, "# Studio\n" + CITED)
    with store.transaction() as tx:
        assert cited_line(tx, entry, "kiln.md") == CITED.rstrip("\n")
        assert cited_line(tx, entry, "glaze.md") is None
    store, entry = _index(tmp_path / "b", PLAIN)
    with store.transaction() as tx:
        assert cited_line(tx, entry, "kiln.md") is None


def test_removing_a_line_gives_the_verdict_after_and_none_when_nothing_changed(
    tmp_path: Path,
) -> None:
    store, entry = _index(tmp_path, PLAIN)
    with store.transaction() as tx:
        assert remove_index_line(tx, entry, "glaze.md") == (None, [])
        verdict, dropped = remove_index_line(tx, entry, "kiln.md")
    assert verdict is not None and dropped == [PLAIN.rstrip("\n")]
    assert entry.read_text(encoding="utf-8") == ""


def test_the_lines_a_forget_dropped_are_kept_beside_its_copy_byte_for_byte(tmp_path: Path) -> None:
    store, entry = _index(tmp_path, "# Studio\n" + CITED)
    trash = entry.parent / ".trash" / "20261204T120000000Z-kiln.md"
    with store.transaction() as tx:
        _verdict, dropped = remove_index_line(tx, entry, "kiln.md")
        assert keep_dropped_lines(tx, trash, dropped)
        assert not keep_dropped_lines(tx, trash.with_name("t-glaze.md"), [])  # nothing dropped
    assert trash.with_name(trash.name + ".index-line").read_text(encoding="utf-8") == CITED
    with store.transaction() as tx:
        assert kept_lines(tx, ".trash/" + trash.name, "kiln.md") == ([CITED.rstrip("\n")], None)
        assert kept_lines(tx, ".trash/20261204T120000000Z-old.md", "old.md") == ([], None)


def test_a_kept_lines_file_that_is_no_entry_for_the_memory_is_refused_with_why(
    tmp_path: Path,
) -> None:
    store, entry = _index(tmp_path, "")
    trash = entry.parent / ".trash"
    trash.mkdir()
    (trash / "t-kiln.md.index-line").write_text("Kiln notes, no link\n", encoding="utf-8")
    (trash / "t-x.md.index-line").write_bytes(b"- [X](x.md) \xff\n")
    with store.transaction() as tx:
        lines, why = kept_lines(tx, ".trash/t-kiln.md", "kiln.md")
        assert lines == [] and why is not None and "not an index entry for kiln.md" in why
        lines, why = kept_lines(tx, ".trash/t-x.md", "x.md")
        assert lines == [] and why is not None and "cannot be read" in why


def test_kept_lines_go_back_only_while_the_index_has_no_line_for_the_memory(
    tmp_path: Path,
) -> None:
    store, entry = _index(tmp_path, "# Studio\n")
    with store.transaction() as tx:
        done = put_kept_lines(tx, entry, "kiln.md", [CITED.rstrip("\n")])
        assert done.outcome == "written" and done.verdict is not None
        assert put_kept_lines(tx, entry, "kiln.md", [PLAIN.rstrip("\n")]).outcome == "kept"
    assert entry.read_text(encoding="utf-8") == "# Studio\n" + CITED
