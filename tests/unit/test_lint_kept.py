"""What lint keeps between passes in one process (lint.kept): the same findings as a fresh pass."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from memdir_nb.lint import kept
from memdir_nb.lint.driver import LintResult, lint_dir
from memdir_nb.lint.findings import Finding
from memdir_nb.lint.kept import forget_kept

NOW_MS = 1_770_000_000_000.0
DAY_MS = 86_400_000

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")


def _memory(root: Path, name: str, body: str, kind: str = "project") -> Path:
    path = root / name
    path.write_text(
        f"---\nname: {name}\ndescription: what {name} says about the deploy\ntype: {kind}\n---\n"
        f"{body}\n",
        encoding="utf-8",
    )
    stamp = (NOW_MS - 10 * DAY_MS) / 1000
    os.utime(path, (stamp, stamp))
    return path


def _dir(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    root.mkdir()
    _memory(root, "project_a.md", "We deploy on Fridays.\n**Why:** load.\n**How to apply:** wait.")
    _memory(root, "project_b.md", "Deploys go through staging first.")
    _memory(root, "feedback_c.md", "Use uv, not pip.", kind="feedback")
    return root


def _fresh(root: Path, now_ms: float = NOW_MS, workers: int = 1) -> LintResult:
    forget_kept()
    return lint_dir(root, now_ms=now_ms, workers=workers)


def test_a_second_pass_takes_each_unchanged_files_findings_from_the_store(tmp_path: Path) -> None:
    root = _dir(tmp_path)
    first = _fresh(root)
    hits = kept._KEPT.hits
    again = lint_dir(root, now_ms=NOW_MS, workers=1)
    assert kept._KEPT.hits - hits == 3
    assert again.findings == first.findings


def test_a_changed_file_is_linted_again_and_the_others_are_not(tmp_path: Path) -> None:
    root = _dir(tmp_path)
    lint_dir(root, now_ms=NOW_MS, workers=1)
    (root / "project_b.md").write_text(
        "---\nname: b\ndescription: b\ntype: project\n---\nI am now working on the deploy.\n",
        encoding="utf-8",
    )
    misses = kept._KEPT.misses
    found = lint_dir(root, now_ms=NOW_MS, workers=1)
    assert kept._KEPT.misses - misses == 1
    assert ("project_b.md", "ephemeral-task-state") in {(f.path, f.rule) for f in found.findings}
    assert found.findings == _fresh(root).findings


def test_stale_project_is_worked_out_at_each_pass_not_kept(tmp_path: Path) -> None:
    root = _dir(tmp_path)
    young = lint_dir(root, now_ms=NOW_MS, workers=1)
    old = lint_dir(root, now_ms=NOW_MS + 400 * DAY_MS, workers=1)  # every file from the store
    assert "stale-project" not in {f.rule for f in young.findings}
    assert {f.path for f in old.findings if f.rule == "stale-project"} == {
        "project_a.md",
        "project_b.md",
    }
    assert old.findings == _fresh(root, NOW_MS + 400 * DAY_MS).findings


def test_the_same_text_under_another_name_is_linted_for_that_name(tmp_path: Path) -> None:
    root = _dir(tmp_path)
    lint_dir(root, now_ms=NOW_MS, workers=1)
    (root / "project_b.md").rename(root / "project_d.md")
    found = lint_dir(root, now_ms=NOW_MS, workers=1).findings
    assert "project_b.md" not in {f.path for f in found}
    assert found == _fresh(root).findings


def test_a_pass_over_more_files_than_the_store_is_for_neither_asks_nor_fills_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _dir(tmp_path)
    monkeypatch.setattr(kept, "KEPT_MAX_FILES", 2)
    lint_dir(root, now_ms=NOW_MS, workers=1)
    assert len(kept._KEPT) == 0
    monkeypatch.setattr(kept, "KEPT_MAX_FILES", 3)
    lint_dir(root, now_ms=NOW_MS, workers=1)
    assert len(kept._KEPT) == 3


@linux_only
def test_what_a_forked_worker_worked_out_is_kept_in_this_process(tmp_path: Path) -> None:
    root = _dir(tmp_path)
    first = _fresh(root, workers=2)
    assert len(kept._KEPT) == 3  # the worker's files too, from what it sent back
    hits = kept._KEPT.hits
    assert lint_dir(root, now_ms=NOW_MS, workers=1).findings == first.findings
    assert kept._KEPT.hits - hits == 3


def test_an_entry_weighs_getsizeofs_bytes_without_calling_getsizeof(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # sys.getsizeof parses its arguments on each call; weight_of gives its number for a str
    # (plan39b): which entries the store drops depends on the weights, so they stay the same.
    text, rel, message = "caf\u00e9 body\n" * 30, "notes/a.md", "a message \U0001f600"
    found = (Finding(rel, "rule", "warning", message, "hint"),) * 2
    key = (rel, "private", len(text), False, False, False, text)
    expected = sys.getsizeof(text) + sys.getsizeof(rel) + 2 * (sys.getsizeof(message) + 120)

    def refused(obj: object, default: int = 0) -> int:
        raise AssertionError("getsizeof called")

    monkeypatch.setattr(sys, "getsizeof", refused)
    assert kept._weigh(key, found) == expected
