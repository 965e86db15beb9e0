"""benchmarks/bench_scan.py: the bench dirs have the header shapes they claim."""

from __future__ import annotations

from pathlib import Path

import bench_scan

from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.storage.scan import scan_memory_files


def test_the_newer_dir_nests_most_types_under_metadata_as_claude_code_now_writes(
    tmp_path: Path,
) -> None:
    paths = bench_scan.build_newer_dir(tmp_path, 200)
    headers = scan_memory_files(tmp_path)
    assert len(paths) == len(headers) == 200
    nested = sum("\nmetadata:\n  node_type: memory\n" in Path(p).read_text() for p in paths)
    assert 110 <= nested <= 155  # about two in three
    typed = [h for h in headers if h.type is not None]
    assert len(typed) >= 190  # only the few headers YAML refuses lose nothing but their type
    assert {h.type for h in typed} == set(MemoryType)
