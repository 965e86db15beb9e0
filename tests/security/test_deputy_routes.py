"""Confused deputy: a path that memdir_nb acts on, taken from a file it did not write itself.

Attack round 11 (docs/security.md section 17). Each test plants the file a route trusts for a
path (the store's crash journal, ...) and checks that the route neither deletes, moves nor
reads anything the file names outside what the route itself would have written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memdir_nb.spec.constants import STORE_JOURNAL_NAME
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.transaction import journal_problem

# ------------------------------------------------------- route: the store's crash journal

# Each journal names, through one field, a file the step it records could never have written:
# recovery unlinks a write's temp and backup files and renames the backup over the file.
HOSTILE_JOURNALS = {
    "committed, temp file outside": [
        {"op": "write", "path": "user_a.md", "backup": None, "tmp": "../outside.txt"},
        {"op": "commit"},
    ],
    "committed, backup outside": [
        {"op": "write", "path": "user_a.md", "backup": "../outside.txt", "tmp": None},
        {"op": "commit"},
    ],
    "committed, temp file is another memory": [
        {"op": "write", "path": "user_a.md", "backup": None, "tmp": "user_keep.md"},
        {"op": "commit"},
    ],
    "unfinished, backup outside pulled in": [
        {"op": "write", "path": "user_new.md", "backup": "../outside.txt", "tmp": None},
    ],
    "unfinished, temp file by absolute path": [
        {"op": "write", "path": "user_a.md", "backup": None, "tmp": "/tmp/../outside.txt"},
    ],
    "unfinished, move from outside": [
        {"op": "move", "src": "../outside.txt", "dst": "user_moved.md"},
    ],
}


@pytest.mark.parametrize("committed", [True, False], ids=["committed", "unfinished"])
def test_a_persons_hidden_files_named_like_side_files_survive_a_planted_journal(
    tmp_path: Path, committed: bool
) -> None:
    mem = tmp_path / "memory"
    MemoryStore(mem).save("A", "the first memory", "user", "Body.", filename="user_a.md")
    mine = {".user_a.md.tmp": "my scratch copy\n", ".drafts.bak": "my drafts\n"}
    for name, text in mine.items():
        (mem / name).write_text(text, encoding="utf-8")
    records: list[dict[str, object]] = [
        {"op": "write", "path": "user_a.md", "backup": ".drafts.bak", "tmp": ".user_a.md.tmp"}
    ]
    if committed:
        records.append({"op": "commit"})
    (mem / STORE_JOURNAL_NAME).write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8"
    )

    done = MemoryStore(mem).recover()

    assert len(done) == 1 and "set aside a corrupt store journal" in done[0]
    assert {name: (mem / name).read_text(encoding="utf-8") for name in mine} == mine
    assert (mem / "user_a.md").read_text(encoding="utf-8").endswith("Body.\n")


@pytest.mark.parametrize("records", HOSTILE_JOURNALS.values(), ids=HOSTILE_JOURNALS.keys())
def test_a_journal_naming_files_its_step_never_wrote_is_set_aside_and_nothing_is_touched(
    tmp_path: Path, records: list[dict[str, object]]
) -> None:
    mem = tmp_path / "memory"
    store = MemoryStore(mem)
    store.save("A", "the first memory", "user", "Body.", filename="user_a.md")
    store.save("Keep", "a memory to keep", "user", "Kept.", filename="user_keep.md")
    outside = tmp_path / "outside.txt"
    outside.write_text("a file outside the memory dir\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in mem.iterdir() if p.is_file()}
    journal = mem / STORE_JOURNAL_NAME
    journal.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")

    problem = journal_problem(mem)
    assert problem is not None and "is corrupt" in problem

    done = MemoryStore(mem).recover()

    assert len(done) == 1 and "set aside a corrupt store journal" in done[0]
    assert "not a hidden" in done[0] or "not a path inside the memory dir" in done[0]
    assert outside.read_text(encoding="utf-8") == "a file outside the memory dir\n"
    after = {p.name: p.read_bytes() for p in mem.iterdir() if p.is_file()}
    assert {k: v for k, v in after.items() if ".corrupt-" not in k} == {
        k: v for k, v in before.items() if k != STORE_JOURNAL_NAME
    }


def test_a_journal_the_store_wrote_itself_is_still_sound(tmp_path: Path) -> None:
    """The names the transaction really writes pass the check that refuses the planted ones."""
    store = MemoryStore(tmp_path)
    store.save("A", "the first memory", "user", "Body.", filename="user_a.md")
    records = [
        {"op": "write", "path": "user_a.md", "backup": ".user_a.md.1a2b-0.bak", "tmp": None},
        {"op": "write", "path": "notes/x.md", "backup": None, "tmp": ".x.md.1a2b-1.tmp"},
        {"op": "move", "src": "user_a.md", "dst": ".trash/t/user_a.md"},
    ]
    (tmp_path / STORE_JOURNAL_NAME).write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8"
    )
    problem = journal_problem(tmp_path)
    assert problem is not None and "is corrupt" not in problem and "interrupted" in problem


# Attack round 12: a sound journal whose unfinished step names a file a person wrote since (a
# crash left it, or someone planted it). Undoing it would delete that file, put an old version
# over it, or move it (into team/, where it is shared): recovery keeps the file and says so.
PERSON_JOURNALS = {
    "creating it": [{"op": "write", "path": "user_a.md", "backup": None, "tmp": None}],
    "creating it, content recorded": [
        {"op": "write", "path": "user_a.md", "backup": None, "tmp": None, "size": 3}
        | {"sha256": "0" * 64}
    ],
    "replacing it, with a planted backup": [
        {"op": "write", "path": "user_a.md", "backup": ".user_a.md.9f-0.bak", "tmp": None}
    ],
    "moving it from team/": [{"op": "move", "src": "team/user_b.md", "dst": "user_a.md"}],
}


@pytest.mark.parametrize("records", PERSON_JOURNALS.values(), ids=PERSON_JOURNALS.keys())
def test_recovery_never_undoes_a_file_that_is_not_provably_the_one_its_step_wrote(
    tmp_path: Path, records: list[dict[str, object]]
) -> None:
    mem = tmp_path / "memory"
    (mem / "team").mkdir(parents=True)
    (mem / "user_a.md").write_text("a person wrote this after the crash\n", encoding="utf-8")
    (mem / ".user_a.md.9f-0.bak").write_text("an older version\n", encoding="utf-8")
    (mem / STORE_JOURNAL_NAME).write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8"
    )
    done = MemoryStore(mem).recover()
    assert (mem / "user_a.md").read_text(
        encoding="utf-8"
    ) == "a person wrote this after the crash\n"
    assert not (mem / "team" / "user_b.md").exists()
    assert any(line.startswith("kept user_a.md as it is") for line in done), done
    assert journal_problem(mem) is None
