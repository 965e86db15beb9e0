"""dream.forgotten: a memory MemoryStore.forget moved to .trash/<stamp>-<name> is put back by
name through dream.restore (and its dry run), with its index line, never over a person's file."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from memdir_nb.dream.apply import RestoreError, none_selected, restore
from memdir_nb.dream.forgotten import forgotten_files, forgotten_names
from memdir_nb.formats import index
from memdir_nb.security.secret_scan import SecretInTeamMemoryError
from memdir_nb.spec.timestamps import trash_stamp
from memdir_nb.storage.store import MemoryStore
from tests.conftest import (
    CITED_KILN_LINE,
    build_cited_forgotten_dir,
    build_forgotten_dir,
    forgotten_memory,
)
from tests.support import NOW


def _trash(mem: Path) -> list[str]:
    return sorted(p.name for p in (mem / ".trash").iterdir())


def _targets(mem: Path, scope_dir: str = "") -> list[str]:
    text = (mem / scope_dir / "MEMORY.md").read_text()
    return [e.target for e in index.parse_index(text)]


def test_a_forgotten_memory_is_restored_by_its_name_with_its_index_line(tmp_path: Path) -> None:
    mem = build_forgotten_dir(tmp_path)
    assert "kiln.md" not in _targets(mem)
    assert restore(mem, "kiln.md") == ["kiln.md"]
    text = (mem / "kiln.md").read_text()
    assert "the new kiln controller" in text  # the newest of the two forgotten copies
    assert "- [Kiln firing](kiln.md) — Firing notes, version 2" in (mem / "MEMORY.md").read_text()
    assert _targets(mem) == ["keep.md", "kiln.md"]
    older = [n for n in _trash(mem) if n.endswith("-kiln.md")]
    assert len(older) == 1 and "old kiln" in (mem / ".trash" / older[0]).read_text()
    with pytest.raises(RestoreError, match="made after it was forgotten"):
        restore(mem, "kiln.md")  # the older copy is never put over the one restored


def test_the_dry_run_names_the_file_and_changes_nothing(tmp_path: Path) -> None:
    mem = build_forgotten_dir(tmp_path)
    before = {p: p.read_bytes() for p in mem.rglob("*") if p.is_file()}
    assert restore(mem, "kiln.md", dry_run=True) == ["kiln.md"]
    assert restore(mem, "team/glaze.md", dry_run=True) == ["team/glaze.md"]
    assert {p: p.read_bytes() for p in mem.rglob("*") if p.is_file()} == before


def test_a_forgotten_team_memory_goes_back_to_team_with_the_team_index_line(
    tmp_path: Path,
) -> None:
    mem = build_forgotten_dir(tmp_path)
    assert restore(mem, "team/glaze.md") == ["team/glaze.md"]
    assert "Celadon" in (mem / "team" / "glaze.md").read_text()
    assert _targets(mem, "team") == ["glaze.md"]
    assert not any(n.endswith("team__glaze.md") for n in _trash(mem))


def test_a_forgotten_team_copy_holding_a_secret_is_refused_by_the_team_guard(
    tmp_path: Path,
) -> None:
    mem = build_forgotten_dir(tmp_path)
    leak = forgotten_memory("Deploy", "deploy key", "key: AKIAIOSFODNN7EXAMPLQ")
    copy = mem / ".trash" / f"{trash_stamp(NOW + 600_000, with_ms=True)}-team__deploy.md"
    copy.write_text(leak)
    with pytest.raises(SecretInTeamMemoryError):
        restore(mem, "team/deploy.md")
    assert copy.read_text() == leak and not (mem / "team" / "deploy.md").exists()
    assert "deploy.md" not in _targets(mem, "team")


def test_a_file_of_that_name_made_since_is_kept_and_the_restore_refused(tmp_path: Path) -> None:
    mem = build_forgotten_dir(tmp_path)
    (mem / "kiln.md").write_text("written by hand after the forget\n")
    for dry_run in (True, False):
        with pytest.raises(RestoreError, match="made after it was forgotten.*rename or forget"):
            restore(mem, "kiln.md", dry_run=dry_run)
    assert (mem / "kiln.md").read_text() == "written by hand after the forget\n"
    assert sum(n.endswith("-kiln.md") for n in _trash(mem)) == 2


def test_a_twin_in_the_other_unicode_form_is_refused(tmp_path: Path) -> None:
    mem = tmp_path / "mem"
    composed = unicodedata.normalize("NFC", "café.md")
    store = MemoryStore(mem, now_ms=NOW)
    store.save("Cafe", "The café notes", "project", "Espresso.", filename=composed)
    store.forget(composed)
    decomposed = mem / unicodedata.normalize("NFD", composed)
    decomposed.write_text("made by another program\n")
    with pytest.raises(RestoreError, match="cannot restore"):
        restore(mem, composed)
    assert decomposed.read_text() == "made by another program\n"
    assert not (mem / composed).exists()


def test_a_copy_forgotten_by_an_older_version_without_a_manifest_is_restored(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "mem"
    (mem / ".trash").mkdir(parents=True)
    (mem / "MEMORY.md").write_text("# Memory index\n")
    text = forgotten_memory("Old", "forgotten last month", "Still true.")
    (mem / ".trash" / "20261103T091500123Z-old.md").write_text(text)
    (mem / ".trash" / "20261101T091500123Z-old.md").write_text("older copy\n")
    assert restore(mem, "old.md", dry_run=True) == ["old.md"]
    assert restore(mem, "old.md") == ["old.md"]
    assert (mem / "old.md").read_text() == text
    assert _targets(mem) == ["old.md"]


def test_the_newest_copy_wins_between_a_batch_and_a_forgotten_copy(tmp_path: Path) -> None:
    mem = build_forgotten_dir(tmp_path)
    batch = mem / ".trash" / "dream-20300101T000000Z-1-abcdef"
    batch.mkdir()
    (batch / "kiln.md").write_text("deleted by a later dream\n")
    manifest = {
        "created_ms": 0,
        "actions": [],
        "files": {"kiln.md": {"before": True, "after_sha": None}},
    }
    (batch / "manifest.json").write_text(json.dumps(manifest))
    assert restore(mem, "kiln.md") == ["kiln.md"]
    assert (mem / "kiln.md").read_text() == "deleted by a later dream\n"
    (mem / "kiln.md").unlink()
    older = mem / ".trash" / "dream-20000101T000000Z-1-abcdef"
    batch.rename(older)
    assert restore(mem, "kiln.md") == ["kiln.md"]
    assert "the new kiln controller" in (mem / "kiln.md").read_text()


def test_forgotten_names_are_the_memory_names_each_once_newest_first(tmp_path: Path) -> None:
    mem = build_forgotten_dir(tmp_path)  # kiln.md twice, then team/glaze.md
    assert forgotten_names(mem) == ["team/glaze.md", "kiln.md"]
    assert forgotten_names(tmp_path / "absent") == []


def test_a_second_copy_in_one_millisecond_is_named_by_its_memory_not_as_2_dash(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "mem"
    store = MemoryStore(mem, now_ms=NOW)
    for _ in range(2):  # the same millisecond: free_trash_path numbers the second copy -2-
        store.save("Kiln", "Firing notes", "project", "Cone 6.", filename="kiln.md")
        store.forget("kiln.md")
    store.save("Two", "A memory named 2-x.md", "project", "Two.", filename="2-x.md")
    store.forget("2-x.md")
    stamp = trash_stamp(NOW, with_ms=True)
    assert (mem / ".trash" / f"{stamp}-2-kiln.md").is_file()
    assert sorted(forgotten_names(mem)) == ["2-x.md", "kiln.md"]  # one millisecond: any order


def test_none_selected_names_the_forgotten_memories_beside_the_batches(tmp_path: Path) -> None:
    mem = build_forgotten_dir(tmp_path)
    said = none_selected(mem)
    assert "holds no batch" in said and "newest first: team/glaze.md, kiln.md" in said
    with pytest.raises(RestoreError, match="newest first: team/glaze.md, kiln.md"):
        restore(mem, " ")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert none_selected(empty).endswith("holds none to restore")


@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_never_lose_what_a_person_wrote_restore_puts_back_the_cited_line_forget_dropped(
    tmp_path: Path, end: str
) -> None:
    mem = build_cited_forgotten_dir(tmp_path, end)
    index_bytes = (mem / "MEMORY.md").read_bytes()
    assert CITED_KILN_LINE.encode() not in index_bytes  # forget dropped it
    (kept,) = (mem / ".trash").glob("*-kiln.md.index-line")
    assert kept.read_bytes() == (CITED_KILN_LINE + "\n").encode("utf-8")
    assert restore(mem, "kiln.md", dry_run=True) == ["kiln.md"]
    assert (mem / "MEMORY.md").read_bytes() == index_bytes  # a preview writes nothing
    assert restore(mem, "kiln.md") == ["kiln.md"]
    after = (mem / "MEMORY.md").read_bytes()
    assert after == index_bytes + (CITED_KILN_LINE + end).encode("utf-8")  # as written
    assert "Cone 6 hold" not in after.decode()  # not the header's line
    assert _targets(mem) == ["keep.md", "kiln.md"]


def test_a_line_for_the_memory_written_since_the_forget_is_kept_not_doubled(
    tmp_path: Path,
) -> None:
    mem = build_cited_forgotten_dir(tmp_path)
    theirs = "- [Kiln](kiln.md) — rewritten by hand after the forget\n"
    with (mem / "MEMORY.md").open("a", encoding="utf-8") as f:
        f.write(theirs)
    assert restore(mem, "kiln.md") == ["kiln.md"]
    text = (mem / "MEMORY.md").read_text(encoding="utf-8")
    assert text.endswith(theirs) and CITED_KILN_LINE not in text
    assert _targets(mem) == ["keep.md", "kiln.md"]


def test_a_kept_line_file_edited_into_no_entry_gives_the_header_line_and_says_why(
    tmp_path: Path,
) -> None:
    mem = build_cited_forgotten_dir(tmp_path)
    (kept,) = (mem / ".trash").glob("*-kiln.md.index-line")
    kept.write_text("- [Other](other.md) — not this memory's line\n", encoding="utf-8")
    store = MemoryStore(mem, now_ms=NOW + 120_000)
    assert restore(mem, "kiln.md", store=store) == ["kiln.md"]
    text = (mem / "MEMORY.md").read_text(encoding="utf-8")
    assert "- [Kiln firing](kiln.md) — Cone 6 hold" in text and "other.md" not in text
    assert any("not an index entry for kiln.md" in w for w in store.warnings)


def test_a_kept_line_file_is_never_listed_as_a_forgotten_memory(tmp_path: Path) -> None:
    mem = build_cited_forgotten_dir(tmp_path)
    assert any(n.endswith(".index-line") for n in _trash(mem))
    assert forgotten_names(mem) == ["kiln.md"]
    assert [n.split("-", 1)[1] for n in forgotten_files(mem)] == ["kiln.md"]
    with pytest.raises(RestoreError, match="nothing named"):
        restore(mem, "kiln.md.index-line")


def test_a_name_too_long_to_keep_its_line_beside_it_is_forgotten_and_restored_all_the_same(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "mem"
    name = "k" * 227 + ".md"  # its copy's name is 250 bytes: 11 more would pass NAME_MAX
    store = MemoryStore(mem, now_ms=NOW)
    store.save("Kiln", "Cone 6 hold", "project", "Hold 15 minutes.", filename=name)
    store.forget(name)
    assert [len(n) for n in _trash(mem)] == [250]  # no kept-line file: it could not be named
    assert restore(mem, name) == [name]
    assert _targets(mem) == [name]  # save's line, as for an older forget's copy
