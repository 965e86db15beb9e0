"""Reading and linting on a second core: the same result as one core, used only where safe."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from memdir_nb import machine
from memdir_nb.lint import workers
from memdir_nb.lint.driver import LintResult, lint_dir, lint_memory_dir
from memdir_nb.lint.kept import forget_kept
from memdir_nb.lint.reading import read_listed
from memdir_nb.lint.workers import (
    PARALLEL_MIN_FILES,
    read_and_lint,
    read_and_lint_files,
    second_core_pays,
)
from memdir_nb.security.secret_detect import load_detectors
from memdir_nb.storage.listing import ListedFile, MemoryListing, SkippedFile, list_memory_files
from memdir_nb.ui.demo import build_demo_memory_dir

NOW_MS = 1_770_000_000_000.0

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")


def _same(one: LintResult, two: LintResult) -> None:
    assert two.findings == one.findings
    assert two.memories == one.memories
    assert two.headers == one.headers
    assert two.skipped == one.skipped
    assert two.indexes == one.indexes


def _fresh(root: Path, n_workers: int) -> LintResult:
    """lint_dir on n_workers cores with nothing kept from an earlier pass (lint.kept), so each
    file's rules run where the test says."""
    forget_kept()
    return lint_dir(root, now_ms=NOW_MS, workers=n_workers)


def _listed(root: Path) -> tuple[MemoryListing, list[ListedFile]]:
    """The dir's listing and its files in the order lint reads them."""
    listing = list_memory_files(root)
    return listing, sorted(listing.files, key=lambda f: f.rel)


@linux_only
@pytest.mark.parametrize(
    "kind",
    ["nested", "index-variants", "multilingual", "special-files", "untyped-past-cap", "team-only"],
)
def test_two_cores_read_and_lint_a_dir_exactly_as_one_does(
    real_dir: Callable[[str], Path], kind: str
) -> None:
    root = real_dir(kind)
    _same(_fresh(root, 1), _fresh(root, 2))


@linux_only
def test_two_cores_give_every_finding_of_the_demo_dir(tmp_path: Path) -> None:
    root = build_demo_memory_dir(tmp_path / "demo", now_ms=NOW_MS)
    # A file for each way a read can fail or surprise: binary, not UTF-8, and a FIFO.
    (root / "reference_blob.md").write_bytes(b"---\nname: blob\n---\n\x00\x01")
    (root / "reference_latin1.md").write_bytes("---\nname: café\n---\nbody é\n".encode("latin-1"))
    os.mkfifo(root / "project_pipe.md")
    one = _fresh(root, 1)
    rules = {f.rule for f in one.findings}
    assert {"not-text", "invalid-utf8", "skipped-by-scan", "relative-date"} <= rules
    _same(one, _fresh(root, 2))


@linux_only
def test_files_come_back_in_the_listings_order_from_both_halves(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("many-files")
    listing, files = _listed(root)
    got = read_and_lint(listing.root, listing.real_root, files, NOW_MS, workers=2)
    assert [g[1].filename for g in got if isinstance(g, tuple)] == [f.rel for f in files]


@linux_only
def test_findings_only_on_two_cores_are_the_findings_of_a_full_lint(
    real_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "second_core_pays", lambda n: True)  # 500 files fork too
    root = real_dir("many-files")
    full = lint_dir(root, now_ms=NOW_MS, workers=1)
    assert lint_memory_dir(root, now_ms=NOW_MS) == full.findings
    listing, files = _listed(root)
    got = read_and_lint(listing.root, listing.real_root, files, NOW_MS, workers=2, keep_texts=False)
    # No text comes back from either half; the headers and findings all do, in order.
    assert [g[0] for g in got if isinstance(g, tuple)] == [None] * len(files)
    assert sorted((g[1] for g in got if isinstance(g, tuple)), key=lambda h: h.filename) == sorted(
        full.headers, key=lambda h: h.filename
    )


@linux_only
@pytest.mark.parametrize("n_workers", [1, 2])
def test_progress_is_told_every_file_once_on_one_core_or_two(
    real_dir: Callable[[str], Path], n_workers: int
) -> None:
    root = real_dir("many-files")
    (root / "user_note_0000.md").unlink()  # an odd count: this process does one file more
    listing, files = _listed(root)
    told: list[int] = []
    read_and_lint(
        listing.root, listing.real_root, files, NOW_MS, workers=n_workers, step=told.append
    )
    assert sum(told) == len(files) == 499


def test_the_second_core_waits_for_the_break_even_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "usable_cpus", lambda: 2)
    # Other tests may leave threads running in this process; this one is about the size only.
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert second_core_pays(PARALLEL_MIN_FILES - 1) is False
    assert second_core_pays(PARALLEL_MIN_FILES) is sys.platform.startswith("linux")


@linux_only
def test_the_worker_is_forked_with_the_secret_detectors_already_loaded(
    real_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every file's secret rule needs detect-secrets; a first lint used to fork first, so both
    # processes imported it (70-90 ms of CPU each). Loaded before the fork, the worker inherits it.
    root = real_dir("many-files")
    listing, files = _listed(root)
    assert len(files) >= 2
    real_fork = machine.in_two_processes
    loaded_at_fork: list[int] = []

    def recording(*args: Any, **kwargs: Any) -> Any:
        loaded_at_fork.append(load_detectors.cache_info().currsize)
        return real_fork(*args, **kwargs)

    monkeypatch.setattr(workers, "in_two_processes", recording)
    forget_kept()
    load_detectors.cache_clear()  # as in a new process: nothing loaded yet
    read_and_lint(listing.root, listing.real_root, files, NOW_MS, workers=2)
    assert loaded_at_fork == [1]


@pytest.mark.parametrize("bad", [0, 3, -1])
def test_workers_other_than_one_two_or_automatic_are_refused(
    real_dir: Callable[[str], Path], bad: int
) -> None:
    with pytest.raises(ValueError, match="workers must be 1, 2 or None"):
        lint_dir(real_dir("nested"), now_ms=NOW_MS, workers=bad)


def _killed_in_the_worker(parent: int, marker: Path) -> Callable[..., object]:
    """read_and_lint_files as the pool finds it by name, killing the worker process for real
    (after touching marker, so the test knows the worker got that far)."""
    real = read_and_lint_files

    def dying(
        root: str, real_root: str, files: Sequence[ListedFile], *args: Any, **kwargs: Any
    ) -> object:
        if os.getpid() != parent:
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return real(root, real_root, files, *args, **kwargs)

    dying.__module__, dying.__qualname__ = real.__module__, real.__qualname__
    return dying


@linux_only
def test_a_worker_killed_mid_lint_leaves_its_half_to_this_process(
    real_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = real_dir("nested")
    one = _fresh(root, 1)
    marker = root.parent / "worker-was-killed"
    # The pool sends the function by name; the forked worker finds this one and is SIGKILLed.
    dying = _killed_in_the_worker(os.getpid(), marker)
    monkeypatch.setattr(workers, "read_and_lint_files", dying)
    _same(one, _fresh(root, 2))
    assert marker.exists()


@pytest.mark.parametrize("n_workers", [1, pytest.param(2, marks=linux_only)])
def test_meanwhile_runs_once_in_this_process_after_its_own_share(
    real_dir: Callable[[str], Path], n_workers: int
) -> None:
    root = real_dir("many-files")
    listing, files = _listed(root)
    told: list[int] = []
    calls: list[tuple[int, int]] = []  # (process, files told done when it ran)
    read_and_lint(
        listing.root,
        listing.real_root,
        files,
        NOW_MS,
        workers=n_workers,
        step=told.append,
        meanwhile=lambda: calls.append((os.getpid(), sum(told))),
    )
    # this process's own share is done by then (all of it on one core; on two, the count
    # stands for the worker's half too)
    assert calls == [(os.getpid(), len(files))]


@pytest.mark.parametrize("n_workers", [1, pytest.param(2, marks=linux_only)])
def test_index_rules_follow_the_files_read_when_one_is_passed_over_after_the_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, n_workers: int
) -> None:
    # The index rules run on the listing while the files are read; a file the read then
    # passes over (replaced since the listing) is not a memory the index should list.
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text("- [A](user_a.md) \u2014 a\n", encoding="utf-8")
    for name in ("user_a.md", "user_b.md", "user_c.md"):
        (root / name).write_text(
            f"---\nname: {name}\ndescription: what {name} holds for the tests\ntype: user\n---\n"
            "Body.\n",
            encoding="utf-8",
        )

    def passing_over_b(reader: Any, listed: ListedFile) -> object:
        if listed.rel == "user_b.md":
            return SkippedFile(listed.rel, "replaced since the listing")
        return read_listed(reader, listed)

    monkeypatch.setattr(workers, "read_listed", passing_over_b)
    found = lint_dir(root, now_ms=NOW_MS, workers=n_workers).findings
    assert [(f.path, f.rule) for f in found if f.rule in ("not-in-index", "skipped-by-scan")] == [
        ("user_b.md", "skipped-by-scan"),
        ("user_c.md", "not-in-index"),
    ]
