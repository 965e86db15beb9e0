"""The whole-dir lint pass: scan, read each memory, run every rule, and collect sorted findings."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.lint.content import lint_memory
from memdir_nb.lint.findings import SEVERITIES, Finding, MemoryText, ScopeIndex
from memdir_nb.lint.index_rules import lint_index, not_in_index
from memdir_nb.lint.reading import (
    nested_index_references,
    read_memory_text,
    read_scope_indexes,
)
from memdir_nb.spec.constants import STORE_JOURNAL_NAME
from memdir_nb.storage.access import ContainedReader, ReadRefused
from memdir_nb.storage.scan import SkippedFile, scan_memory_dir
from memdir_nb.storage.transaction import journal_problem


@dataclass(frozen=True)
class LintResult:
    """Findings plus what was read, so analysis can reuse one pass."""

    findings: list[Finding]
    memories: list[MemoryText]
    headers: list[MemoryHeader]
    indexes: list[ScopeIndex]
    skipped: list[SkippedFile]


# Dirs this large take over a second to read and lint, so they get a progress bar by default.
PROGRESS_MIN_FILES = 500


def _with_progress(items: list, *, show: bool, desc: str) -> Any:
    """Wrap items in a tqdm.auto bar (a widget in notebooks, stderr elsewhere) when show is set."""
    if not show:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, desc=desc, unit="file", leave=False)


def lint_dir(
    memory_dir: str | os.PathLike[str], *, now_ms: float | None = None, progress: bool | None = None
) -> LintResult:
    """Lint every memory file and both indexes; return the findings and what was read.

    progress: None shows a bar only for dirs of PROGRESS_MIN_FILES or more; True/False force it.
    """
    root = Path(memory_dir)
    if not root.is_dir():
        raise ValueError(
            f"{memory_dir} is not a directory; pass a memory dir (the folder holding MEMORY.md)"
        )
    report = scan_memory_dir(root, limit=None)
    reader = ContainedReader(root)  # realpath of the dir resolved once for every read
    findings: list[Finding] = []
    memories: list[MemoryText] = []
    skipped = list(report.skipped)
    for s in report.skipped:
        findings.append(
            Finding(
                s.path,
                "skipped-by-scan",
                "warning",
                f"not read: {s.reason}",
                "remove or fix the link/permissions, or move the file out of the memory dir",
            )
        )
    show = progress if progress is not None else len(report.headers) >= PROGRESS_MIN_FILES
    for h in _with_progress(
        sorted(report.headers, key=lambda h: h.filename), show=show, desc=f"reading {root.name}"
    ):
        try:
            mem = read_memory_text(root, h, reader=reader)
        except ReadRefused as exc:  # replaced by a FIFO or a link out since the scan
            skipped.append(SkippedFile(h.filename, str(exc)))
            findings.append(
                Finding(
                    h.filename,
                    "unreadable",
                    "error",
                    f"not read: {exc}",
                    "replace it with a regular file inside the memory dir, or remove it",
                )
            )
            continue
        except OSError as exc:
            skipped.append(SkippedFile(h.filename, f"unreadable: {type(exc).__name__}"))
            findings.append(
                Finding(
                    h.filename,
                    "unreadable",
                    "error",
                    f"cannot read the file ({type(exc).__name__})",
                    "fix its permissions, or remove it",
                )
            )
            continue
        memories.append(mem)
        findings.extend(lint_memory(mem, now_ms=now_ms))
    indexes = read_scope_indexes(root)
    files_by_scope: dict[str, list[str]] = {"private": [], "team": []}
    for h in report.headers:
        files_by_scope[h.scope].append(h.filename)
    for index in indexes:
        findings.extend(lint_index(index, files_by_scope.get(index.scope, [])))
    all_files = [rel for rels in files_by_scope.values() for rel in rels]
    findings.extend(not_in_index(indexes, files_by_scope, nested_index_references(root, all_files)))
    findings.extend(pending_journal(root))
    findings.sort(key=lambda f: (f.path, f.line or 0, f.rule))
    return LintResult(findings, memories, list(report.headers), indexes, skipped)


def pending_journal(memory_dir: str | os.PathLike[str]) -> list[Finding]:
    """A finding when a killed store step left its journal (transaction.journal_problem says why)."""
    problem = journal_problem(memory_dir)
    if problem is None:
        return []
    return [
        Finding(
            STORE_JOURNAL_NAME,
            "store-journal-pending",
            SEVERITIES["store-journal-pending"],
            problem,
            "call MemoryStore(DIR).recover() from Python, or make any store write "
            "(save, update, forget); it rolls the step back or finishes it and removes the journal",
        )
    ]


def lint_memory_dir(
    memory_dir: str | os.PathLike[str], *, now_ms: float | None = None, progress: bool | None = None
) -> list[Finding]:
    """Every finding in a memory dir, sorted by file then line."""
    return lint_dir(memory_dir, now_ms=now_ms, progress=progress).findings


def count_by_severity(findings: Iterable[Finding]) -> dict[str, int]:
    """{'error': n, 'warning': m}."""
    out = {"error": 0, "warning": 0}
    for f in findings:
        out[f.severity] += 1
    return out
