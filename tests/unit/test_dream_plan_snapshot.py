"""plan_snapshot: a plan reads each memory file once, and a later plan only what changed."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.clock import system_clock_ms
from memdir_nb.dream import plan_consolidation
from memdir_nb.dream import plan_snapshot as snapshot_module
from memdir_nb.dream.kept import KeptReads
from tests.support import write_memory

PLAN_NOW = dt.datetime(2026, 3, 28, 12, 0).timestamp() * 1000


def test_the_kept_headers_stop_at_a_character_budget_not_only_a_count(
    project_memdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a description may fill the 8 KiB header: 20,000 such files held 160 MB for the life of
    # the process; past the budget the next file's header empties what is kept

    monkeypatch.setattr(snapshot_module, "_HEADS", {})
    monkeypatch.setattr(snapshot_module, "_heads_chars", [0])
    monkeypatch.setattr(snapshot_module, "_HEADS_MAX_CHARS", 7_000)
    for n in range(3):
        hook = f"{n} " + "long hook " * 600
        body = f"---\nname: p{n}\ndescription: {hook}\ntype: project\n---\nbody {n}\n"
        (project_memdir / f"project_{n}.md").write_text(body)
    first = plan_consolidation(project_memdir, now_ms=PLAN_NOW).diff()
    kept = snapshot_module._HEADS.values()
    assert 0 < len(kept) < 3 and sum(len(h[1]) for h in kept) < 7_000 + 6_100
    assert plan_consolidation(project_memdir, now_ms=PLAN_NOW).diff() == first


def test_a_header_is_parsed_once_per_content_across_plans(
    project_memdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A later plan in the process takes an unchanged file's name, description and type from
    # what the first one parsed (keyed by the file's hash); a changed file is parsed again.
    from memdir_nb.formats.frontmatter_fields import core_header

    monkeypatch.setattr(snapshot_module, "_HEADS", {})
    parsed: list[str] = []
    real_parse = core_header

    def counting_parse(text: str) -> Any:
        parsed.append(text)
        return real_parse(text)

    monkeypatch.setattr(snapshot_module, "core_header", counting_parse)
    for stem in ("project_a", "project_b"):
        write_memory(project_memdir, f"{stem}.md", name=stem, description=f"{stem} first hook",
                     age_days=1, now_ms=PLAN_NOW)  # fmt: skip
    first = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert len(parsed) == 2 and "project_a first hook" in first.diff()
    assert plan_consolidation(project_memdir, now_ms=PLAN_NOW).diff() == first.diff()
    assert len(parsed) == 2
    write_memory(project_memdir, "project_a.md", name="project_a", description="second hook",
                 age_days=1, now_ms=PLAN_NOW)  # fmt: skip
    later = plan_consolidation(project_memdir, now_ms=PLAN_NOW).diff()
    assert len(parsed) == 3 and "second hook" in later and "project_a first hook" not in later


def _counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The memory files the plans read from now on (opened, not taken from what was kept)."""
    monkeypatch.setattr(snapshot_module, "_READS", KeptReads())
    read: list[str] = []
    real_read = snapshot_module.PlanSnapshot.read

    def counting(self: Any, rel: str, listed: Any = None) -> Any:
        if listed is not None:
            read.append(rel)
        return real_read(self, rel, listed)

    monkeypatch.setattr(snapshot_module.PlanSnapshot, "read", counting)
    return read


def test_a_later_plan_reads_only_the_files_whose_stat_identity_moved(
    project_memdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a plan read is kept by path and (device, inode, size, mtime, ctime): a later plan
    # opens only the files that changed since, even one rewritten at its old size and mtime.
    for stem in ("project_a", "project_b"):
        write_memory(project_memdir, f"{stem}.md", name=stem, description=f"{stem} first hook",
                     age_days=1, now_ms=PLAN_NOW)  # fmt: skip
    read = _counting_reads(monkeypatch)
    later = system_clock_ms() + 10_000  # every file settled (the racy window)
    monkeypatch.setattr(snapshot_module, "system_clock_ms", lambda: later)
    first = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert sorted(read) == ["project_a.md", "project_b.md"]
    again = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert sorted(read) == ["project_a.md", "project_b.md"] and again.diff() == first.diff()
    assert again.hashes == first.hashes and again.snapshot == first.snapshot
    path = project_memdir / "project_a.md"
    st = path.stat()
    path.write_text(path.read_text().replace("first hook", "other hook"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns
    changed = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert read[2:] == ["project_a.md"] and "project_a other hook" in changed.diff()


def test_a_file_changed_within_the_racy_window_is_read_again_by_every_plan(
    project_memdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On a filesystem with coarse timestamps a write in the same clock tick can leave the stat
    # identity as it was: a file changed in the last two seconds is never taken from what was kept.
    write_memory(project_memdir, "project_a.md", name="a", description="hook", age_days=1,
                 now_ms=PLAN_NOW)  # fmt: skip
    read = _counting_reads(monkeypatch)
    plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert read == ["project_a.md", "project_a.md"]
