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
