"""Eight processes saving and forgetting in one memory dir at once lose nothing and corrupt nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memdir_nb.storage.headers import parse_memory_file
from memdir_nb.storage.scan import scan_memory_dir
from tests.support import BODY_END, check_consistent

WORKERS = 8
SAVES = 50

WORKER = r"""
import json, sys
from memdir_nb.storage.store import MemoryStore
memory_dir, wid, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
store = MemoryStore(memory_dir)
kept, forgotten = [], []
for j in range(n):
    scope = "team" if j % 2 else "private"
    name = f"Worker {wid} memory {j}"
    path = store.save(name, f"Reference {j} written by worker {wid}", "reference",
                      f"Line one of {name}.\n" + "filler text\n" * (j % 7) + "END-OF-BODY",
                      scope=scope)
    rel = ("team/" if scope == "team" else "") + path.name
    if j % 5 == 4:
        store.forget(rel)
        forgotten.append(rel)
    else:
        kept.append(rel)
print(json.dumps({"kept": kept, "forgotten": forgotten}))
"""


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_eight_processes_saving_and_forgetting_leave_a_consistent_dir(tmp_path: Path) -> None:
    memory_dir = tmp_path / "memory"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(memory_dir), str(w), str(SAVES)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(WORKERS)
    ]
    kept: set[str] = set()
    forgotten: set[str] = set()
    for p in procs:
        out, err = p.communicate(timeout=220)
        assert p.returncode == 0, err
        data = json.loads(out)
        kept |= set(data["kept"])
        forgotten |= set(data["forgotten"])
    assert len(kept) == WORKERS * SAVES * 4 // 5 and len(forgotten) == WORKERS * SAVES // 5

    report = scan_memory_dir(memory_dir, limit=None)
    assert {h.filename for h in report.headers} == kept  # nothing missing, nothing resurrected
    assert report.skipped == []
    for h in report.headers:  # no partial file
        fm, body = parse_memory_file(h.file_path)
        assert not fm.malformed and fm.name and body.rstrip().endswith(BODY_END), h.filename
    assert check_consistent(memory_dir) == []
    trashed = list((memory_dir / ".trash").rglob("*.md"))
    assert len(trashed) == len(forgotten)
